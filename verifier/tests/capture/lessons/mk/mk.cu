// mk: built by its Makefile.
//
// Build: make
// Run: ./mk
#include <stdio.h>
#include "../common/greet.h"
int main(void)
{
	printf("%s, built by make\n", GREETING);
	return 0;
}

// srcmain: the program below src/, built with CMake, reading a data file.
//
// Build: cmake -S . -B b >/dev/null && cmake --build b >/dev/null
// Run: ./b/srcmain
#include <stdio.h>
#include "../../common/greet.h"
#include "scale.h"

int main(void)
{
	int n = 0;
	FILE *in = fopen("sizes.txt", "r");
	if (!in || fscanf(in, "%d", &n) != 1)
		return 1;
	fclose(in);
	printf("%s, size %d\n", GREETING, SCALE * n);
	return 0;
}

// cm: built with CMake.
//
// Build: cmake -S . -B b >/dev/null && cmake --build b >/dev/null
// Run: ./b/cm 3
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	printf("built by cmake, argument %d\n", argc > 1 ? atoi(argv[1]) : 0);
	return 0;
}

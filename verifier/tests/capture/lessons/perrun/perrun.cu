// perrun: a correctness run and a usage run, each with its own Expect
// (a header-wide Expect: could not hold both: the usage run prints no sums).
//
// Build: nvcc -arch=sm_90 -o perrun perrun.cu
// Run: ./perrun
// Run usage (exit 1): ./perrun --bad
// Expect main: ^all [0-9]+ sums checked$
// Expect usage: ^usage: perrun$
#include <stdio.h>
int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		printf("usage: perrun\n");
		return 1;
	}
	printf("sum 0: 1\nsum 1: 3\nall 2 sums checked\n");
	return 0;
}

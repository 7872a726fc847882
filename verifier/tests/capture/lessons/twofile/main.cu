// twofile: two source files, a header beside them, one shared with other
// lessons, an input file, arguments, and a second run under a tool.
//
// Build: nvcc -arch=sm_90 \
//          -o main main.cu part.cu
// Run: ./main 4 128
// Run racecheck (exit 1): compute-sanitizer --tool racecheck \
//          --error-exitcode 1 ./main 4 64
// Expect: ^sum = [0-9]+$
#include <stdio.h>
#include <stdlib.h>
#include "../common/greet.h"
#include "part.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1, block = argc > 2 ? atoi(argv[2]) : 32;
	int a = 0, b = 0;
	FILE *in = fopen("input.txt", "r");
	if (!in || fscanf(in, "%d %d", &a, &b) != 2) {
		fprintf(stderr, "cannot read input.txt\n");
		return 2;
	}
	fclose(in);
	printf("%s\n", GREETING);
	printf("block %d, input %d %d\n", block, a, b);
	printf("sum = %d\n", sum_to(n));
	fprintf(stderr, "note: %d threads a block\n", block);
	return 0;
}

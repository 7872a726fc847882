// exit0: a run expected to exit 1 that exits 0.
//
// Build: nvcc -arch=sm_90 -o exit0 exit0.cu
// Run: ./exit0
// Run racecheck (exit 1): compute-sanitizer --tool racecheck ./exit0
#include <stdio.h>
int main(void)
{
	printf("fine\n");
	return 0;
}

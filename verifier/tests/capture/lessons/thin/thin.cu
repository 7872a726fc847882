// thin: stops after its header line (as a program on a machine without a
// GPU might) and exits 0; no Expect: tells that from a run that worked.
//
// Build: nvcc -arch=sm_90 -o thin thin.cu
// Run: ./thin
#include <stdio.h>
int main(void)
{
	printf("device   kernel   ms\n");
	return 0;
}

// nomatch: exits 0 after what would be a CUDA error; its Expect: says what
// a good run prints, and this run does not print it.
//
// Build: nvcc -arch=sm_90 -o nomatch nomatch.cu
// Run: ./nomatch
// Expect: ^all [0-9]+ sums checked$
#include <stdio.h>
int main(void)
{
	printf("CUDA error: no kernel image is available for execution on the device\n");
	return 0;
}

// fail: prints 25 lines on stderr and exits with status 3.
// Build: nvcc -o fail fail.cu
// Run: ./fail
#include <stdio.h>

int main(void)
{
	for (int i = 1; i <= 25; i++)
		fprintf(stderr, "error line %d\n", i);
	return 3;
}

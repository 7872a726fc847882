// vol: one number that never changes, one that changes every run.
// Build: nvcc -o vol vol.cu
// Run: ./vol
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("stable 42 and 3.14\n");
	printf("pid %d\n", (int)getpid());
	return 0;
}

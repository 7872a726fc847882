// crash: dies of SIGSEGV.
// Build: nvcc -o crash crash.cu
// Run: ./crash
#include <signal.h>
#include <stdio.h>

int main(void)
{
	printf("before the crash\n");
	fflush(stdout);
	fprintf(stderr, "about to crash\n");
	raise(SIGSEGV);
	return 0;
}

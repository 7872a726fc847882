// stop: says so, then stops itself with SIGSTOP (as a terminal read in a
// background group would with SIGTTIN).
// Build: nvcc -o stop stop.cu
// Run: ./stop
#include <signal.h>
#include <stdio.h>

int main(void)
{
	printf("about to stop\n");
	fflush(stdout);
	raise(SIGSTOP);
	printf("continued\n");
	return 0;
}

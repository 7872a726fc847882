// hang: sleeps a minute, and so does a child it forks.
// Build: nvcc -o hang hang.cu
// Run: ./hang
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	const char *pids = getenv("STANDIN_PIDS");
	pid_t child = fork();
	if (child == 0) {
		sleep(60);
		return 0;
	}
	if (pids) {
		FILE *f = fopen(pids, "w");
		if (f) {
			fprintf(f, "%d %d\n", (int)getpid(), (int)child);
			fclose(f);
		}
	}
	fprintf(stderr, "sleeping\n");
	sleep(60);
	return 0;
}

// lock: fails if another lesson runs on its GPU at the same time.
// Build: nvcc -o lock lock.cu
// Run: ./lock
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	const char *dir = getenv("STANDIN_LOCKS");
	const char *gpu = getenv("CUDA_VISIBLE_DEVICES");
	char lock[4096], used[4096];
	snprintf(lock, sizeof lock, "%s/gpu%s", dir ? dir : ".", gpu ? gpu : "unset");
	snprintf(used, sizeof used, "%s/used%s", dir ? dir : ".", gpu ? gpu : "unset");
	if (mkdir(lock, 0777) != 0) {
		fprintf(stderr, "GPU %s is shared\n", gpu ? gpu : "unset");
		return 3;
	}
	fclose(fopen(used, "w"));
	struct timespec ts = {0, 700000000};
	nanosleep(&ts, NULL);
	rmdir(lock);
	printf("ran on GPU %s\n", gpu ? gpu : "unset");
	return 0;
}

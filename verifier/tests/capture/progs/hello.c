// hello: greets, prints a sum, and holds "the GPU" for a moment.
//
// Verified on an NVIDIA H200 (evidence/hello/run-2026-11-30.txt): the sum
// is 42.
//
// Build: nvcc -arch=sm_90 -o hello hello.cu
// Run: ./hello
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Registers this process with the stand-in nvidia-smi as a user of the
 * GPU named by CUDA_VISIBLE_DEVICES. */
static void use_gpu(void)
{
	const char *dir = getenv("STANDIN_APPS_DIR");
	const char *gpu = getenv("CUDA_VISIBLE_DEVICES");
	char path[4096];
	if (!dir)
		return;
	snprintf(path, sizeof path, "%s/%d", dir, (int)getpid());
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", gpu ? gpu : "unset");
		fclose(f);
	}
}

int main(void)
{
	const char *ran = getenv("STANDIN_RAN");
	if (ran)
		fclose(fopen(ran, "w"));
	use_gpu();
	printf("hello from the test GPU\n");
	printf("sum = 42\n");
	printf("visible: %s, order: %s\n", getenv("CUDA_VISIBLE_DEVICES"), getenv("CUDA_DEVICE_ORDER"));
	fprintf(stderr, "a note on stderr\n");
	fflush(stdout);
	/* Holds "the GPU" STANDIN_HOLD_MS milliseconds (default 1300: long
	 * enough for a sample during the run). */
	const char *hold = getenv("STANDIN_HOLD_MS");
	long ms = hold ? atol(hold) : 1300;
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
	return 0;
}

// noisy: four timings, each drawn afresh every run.  fast and slow come
// from two distributions far apart; near-a and near-b from two that
// overlap, closer than the stated resolution.
// Build: nvcc -o noisy noisy.cu
// Run: ./noisy
// Resolution: ms 0.02
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* uniform in [lo, lo + width) */
static double draw(double lo, double width)
{
	return lo + width * (double)rand() / ((double)RAND_MAX + 1);
}

int main(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	srand((unsigned)ts.tv_nsec ^ (unsigned)getpid());
	printf("kernel    time ms\n");
	printf("--------  -------\n");
	printf("fast      %.3f\n", draw(1.0, 0.1));
	printf("slow      %.3f\n", draw(2.0, 0.1));
	printf("near-a    %.3f\n", draw(1.0, 0.02));
	printf("near-b    %.3f\n", draw(1.005, 0.02));
	return 0;
}

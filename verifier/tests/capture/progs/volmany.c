// volmany: a timing row that varies from run to run, then 120,000 more
// varying numbers, so that the repeat values of every place together pass
// what capture keeps (R18).
// Build: nvcc -o volmany volmany.cu
// Run: ./volmany
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	printf("threads  kernel      time ms\n");
	printf("-------  ----------  -------\n");
	printf("     64  racy        %7.3f\n", 0.4 + (rand() % 300) / 1000.0);
	for (int i = 0; i < 120000; i++)
		printf("sample %d: %d\n", i, rand() % 100000);
	return 0;
}

// reorder: the rows of a table in another order every run, their values
// the same, but for one row whose count changes in the second run (a run
// counter in the file STANDIN_COUNTER picks which): reordering is no
// variation, a row that changed is.
// Build: nvcc -o reorder reorder.cu
// Run: ./reorder
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	const char *path = getenv("STANDIN_COUNTER");
	int run = 0;
	FILE *f = path ? fopen(path, "r") : NULL;
	if (f) {
		if (fscanf(f, "%d", &run) != 1)
			run = 0;
		fclose(f);
	}
	f = path ? fopen(path, "w") : NULL;
	if (f) {
		fprintf(f, "%d\n", run + 1);
		fclose(f);
	}
	const char *rows[3] = {"    32  add, plain      0  0.125\n", "    64  add, racy    2920  0.412\n",
			       "   128  add, tiled      0  0.250\n"};
	printf("threads  kernel   mismatches  ms\n");
	for (int i = 0; i < 3; i++) {
		int k = (i + run) % 3;
		if (k == 1 && run % 3 == 1)
			fputs("    64  add, racy    3464  0.412\n", stdout);
		else
			fputs(rows[k], stdout);
	}
	printf("done 3 rows\n");
	return 0;
}

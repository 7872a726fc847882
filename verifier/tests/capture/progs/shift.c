// shift: each run prints a differently shaped output (a run counter in
// the file STANDIN_COUNTER picks which), to test how runs are aligned.
// Build: nvcc -o shift shift.cu
// Run: ./shift
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
	switch (run % 3) {
	case 0: /* the first run: kept */
		fputs("n 1 2\nm 3\nvalue 1.50 007\nlast 8\n", stdout);
		break;
	case 1: /* one more number on line 1, same values written otherwise, an extra line */
		fputs("n 1 2 9\nm 3\nvalue 1.5 7\nlast 8\nextra 5\n", stdout);
		break;
	default: /* line 4 missing */
		fputs("n 1 2\nm 3\nvalue 1.50 007\n", stdout);
		break;
	}
	return 0;
}

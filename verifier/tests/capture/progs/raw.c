// raw: output that is not clean text lines.
// Build: nvcc -o raw raw.cu
// Run: ./raw
#include <stdio.h>

int main(void)
{
	fputs("first\n", stdout);
	fwrite("a\0b\n", 1, 4, stdout);
	fputs("progress 50%\rprogress 100%\n", stdout);
	fputs("no newline", stdout);
	fputs("warn", stderr);
	return 0;
}

/*
 * numtok-pass.c - the number tokenizer alone, for counting what a number
 * costs: numtok_scan over every line of FILE (a run, say), PASSES times,
 * and the count of numbers read.  Instructions a pass are
 * (I(21) - I(1)) / 20 under callgrind, start-up taken out:
 *
 *   make build/coursecheck
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Iverifier/src/base -Iverifier/src/read \
 *       verifier/bench/numtok-pass.c $(find build/obj -name '[a-z]*.o' ! -name main.o ! -name capture_main.o) \
 *       $(pkg-config --libs libpcre2-8 libcmark-gfm yaml-0.1 libcrypto jansson libxml-2.0) \
 *       -lcmark-gfm-extensions -lm -o build/numtok-pass
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null build/numtok-pass RUN 21
 *
 * A variant of the pattern is measured by building a copy of numtok.c
 * with the variant in place of build/obj/numtok.o (BENCH.md: "Numbers").
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "numtok.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: numtok-pass FILE PASSES\n", stderr);
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	static char text[1 << 20];
	size_t len = fread(text, 1, sizeof text, f);
	bool whole = feof(f);
	fclose(f);
	if (!whole) { /* a pass over part of a file would be a wrong figure */
		fprintf(stderr, "numtok-pass: %s is not read whole (at most %zu bytes)\n", argv[1], sizeof text - 1);
		return 2;
	}
	int passes = atoi(argv[2]);
	size_t numbers = 0;
	for (int pass = 0; pass < passes; pass++) {
		for (size_t a = 0; a < len;) {
			size_t b = a;
			while (b < len && text[b] != '\n')
				b++;
			struct num_token *tokens;
			numbers += numtok_scan(text + a, b - a, &tokens);
			free(tokens);
			a = b + 1;
		}
	}
	printf("%zu numbers\n", numbers);
	return 0;
}

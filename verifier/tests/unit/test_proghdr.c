/*
 * test_proghdr.c - the header comment of a lesson program: Build and Run
 * with their line and column, the header's extent, and the Verified
 * paragraph joined across lines with a map back to file offsets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proghdr.h"
#include "re.h"
#include "sha256.h"
#include "textfile.h"

#define SRC_PATH "programs/day31-scan-1/scan.cu"

/* ---- helpers ---- */

static void parse(const char *text, struct textfile *tf, struct proghdr *h)
{
	textfile_from_memory(text, strlen(text), SRC_PATH, tf);
	memset(h, 0x5A, sizeof *h); /* proghdr_parse must set every field */
	proghdr_parse(tf, h);
}

static void release(struct textfile *tf, struct proghdr *h)
{
	proghdr_free(h);
	textfile_free(tf);
}

static void assert_value(const struct proghdr_value *v, const char *text, size_t line, size_t col, size_t count)
{
	assert_non_null(v->text);
	assert_string_equal(v->text, text);
	assert_int_equal(v->line, line);
	assert_int_equal(v->col, col);
	assert_int_equal(v->count, count);
}

static void assert_absent(const struct proghdr_value *v)
{
	assert_null(v->text);
	assert_int_equal(v->line, 0);
	assert_int_equal(v->col, 0);
	assert_int_equal(v->count, 0);
}

static void assert_no_verified(const struct proghdr *h)
{
	assert_null(h->verified);
	assert_int_equal(h->verified_len, 0);
	assert_null(h->verified_src);
	assert_int_equal(h->verified_line, 0);
}

/* The file line and 1-based column that joined byte i came from. */
static void where(const struct textfile *tf, const struct proghdr *h, size_t i, size_t *line, size_t *col)
{
	assert_true(i < h->verified_len);
	size_t off = h->verified_src[i];
	assert_true(off < tf->len);
	*line = textfile_line_of(tf, off);
	*col = off - tf->line_start[*line - 1] + 1;
}

#define PROGRAM                                                                                                  \
	"// scan.cu - day 31: an inclusive scan (Hillis-Steele)\n"               /* 1 */                 \
	"//\n"                                                                   /* 2 */                 \
	"// Build: nvcc -O3 -arch=sm_90 -o scan scan.cu\n"                       /* 3 */                 \
	"// Run:   ./scan 1048576   \n"                                          /* 4 */                 \
	"//\n"                                                                   /* 5 */                 \
	"// Verified on an NVIDIA H200 (driver 580.159.04, CUDA 12.6) on\n"      /* 6 */                 \
	"//    2026-11-30: the scan of 2^20 ints takes 0.325 ms; evidence in\n"  /* 7 */                 \
	"// evidence/day31-scan-1/run-2026-11-30.txt.\n"                         /* 8 */                 \
	"//\n"                                                                   /* 9 */                 \
	"// Later notes are not part of it.\n"                                   /* 10 */                \
	"\n"                                                                     /* 11 */                \
	"#include <cstdio>\n"                                                    /* 12 */                \
	"// Build: not the header any more\n"                                    /* 13 */

#define VERIFIED                                                                                                 \
	"Verified on an NVIDIA H200 (driver 580.159.04, CUDA 12.6) on 2026-11-30: the scan of 2^20 ints takes "  \
	"0.325 ms; evidence in evidence/day31-scan-1/run-2026-11-30.txt."

/* ---- Build and Run ---- */

/* Resolution: UNIT VALUE[, UNIT VALUE...]; anything else is a problem. */
static void test_resolution(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Build: nvcc -o a a.cu\n// Run: ./a\n// Resolution: ms 0.0005, GB/s 0.1\n", &tf, &h);
	assert_value(&h.resolution, "ms 0.0005, GB/s 0.1", 3, 16, 1);
	assert_int_equal(h.n_problems, 0);
	release(&tf, &h);
	parse("// Build: nvcc -o a a.cu\n// Run: ./a\n", &tf, &h);
	assert_absent(&h.resolution);
	release(&tf, &h);
	static const char *const bad[] = {"ms", "0.0005", "ms .5", "ms 5.", "ms 1.2.3", "ms 0.5 us 1", "ms -1", "ms 0.5,"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[200];
		snprintf(text, sizeof text, "// Build: nvcc -o a a.cu\n// Run: ./a\n// Resolution: %s\n", bad[i]);
		parse(text, &tf, &h);
		assert_null(h.resolution.text);
		assert_int_equal(h.n_problems, 1);
		assert_int_equal(h.problems[0].line, 3);
		release(&tf, &h);
	}
}

static void test_build_and_run(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse(PROGRAM, &tf, &h);
	assert_int_equal(h.first_line, 1);
	assert_int_equal(h.last_line, 10);
	assert_value(&h.build, "nvcc -O3 -arch=sm_90 -o scan scan.cu", 3, 11, 1);
	assert_value(&h.run, "./scan 1048576", 4, 11, 1); /* value trimmed, column where it starts */
	release(&tf, &h);
	assert_null(h.build.text);
	assert_null(h.verified);
}

static void test_columns_follow_the_text(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("    //Build:make scan\n\t//   Run:\t./scan  -n 4\n", &tf, &h);
	assert_value(&h.build, "make scan", 1, 13, 1);
	assert_value(&h.run, "./scan  -n 4", 2, 12, 1);
	release(&tf, &h);
}

static void test_two_build_lines(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Build: nvcc -o a a.cu\n// Run: ./a\n// Build: nvcc -G -o a a.cu\n// Run: ./a 2\n// Run: ./a 3\n", &tf,
	      &h);
	assert_value(&h.build, "nvcc -o a a.cu", 1, 11, 2); /* the first one, counted twice */
	assert_value(&h.run, "./a", 2, 9, 3);
	release(&tf, &h);
}

static void test_absent_lines(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// scan.cu - a scan\n// by the course team\n\nint main() { return 0; }\n", &tf, &h);
	assert_int_equal(h.first_line, 1);
	assert_int_equal(h.last_line, 2);
	assert_absent(&h.build);
	assert_absent(&h.run);
	assert_no_verified(&h);
	release(&tf, &h);
}

static void test_keys_are_case_sensitive_and_at_the_start(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// build: make\n// RUN: ./a\n// To Build: make\n// See Run: below\n", &tf, &h);
	assert_int_equal(h.last_line, 4);
	assert_absent(&h.build);
	assert_absent(&h.run);
	release(&tf, &h);
}

static void test_blank_lines_before_header(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("\n   \n\t\n// Build: make\n// Run: ./a\n\nint x;\n", &tf, &h);
	assert_int_equal(h.first_line, 4);
	assert_int_equal(h.last_line, 5);
	assert_value(&h.build, "make", 4, 11, 1);
	assert_value(&h.run, "./a", 5, 9, 1);
	release(&tf, &h);
}

static void test_header_ends_at_first_non_comment_line(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Build: make\n#include <cstdio>\n// Run: ./a\n", &tf, &h);
	assert_int_equal(h.first_line, 1);
	assert_int_equal(h.last_line, 1);
	assert_value(&h.build, "make", 1, 11, 1);
	assert_absent(&h.run);
	release(&tf, &h);
	/* a blank line ends it too */
	parse("// Build: make\n\n// Run: ./a\n", &tf, &h);
	assert_int_equal(h.last_line, 1);
	assert_absent(&h.run);
	release(&tf, &h);
	/* and a block comment is not a line comment */
	parse("/* Build: make */\n// Run: ./a\n", &tf, &h);
	assert_int_equal(h.first_line, 0);
	assert_int_equal(h.last_line, 0);
	assert_absent(&h.build);
	assert_absent(&h.run);
	release(&tf, &h);
}

static void test_no_header(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("#include <cstdio>\n// Build: make\n", &tf, &h);
	assert_int_equal(h.first_line, 0);
	assert_int_equal(h.last_line, 0);
	assert_absent(&h.build);
	assert_no_verified(&h);
	release(&tf, &h);
	parse("", &tf, &h);
	assert_int_equal(h.first_line, 0);
	assert_absent(&h.run);
	assert_no_verified(&h);
	release(&tf, &h);
}

static void test_crlf_header(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Build: make\r\n// Run: ./a\r\n", &tf, &h);
	assert_value(&h.build, "make", 1, 11, 1);
	assert_value(&h.run, "./a", 2, 9, 1);
	release(&tf, &h);
}

/* ---- Verified ---- */

static void test_verified_joined(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse(PROGRAM, &tf, &h);
	assert_non_null(h.verified);
	assert_string_equal(h.verified, VERIFIED);
	assert_int_equal(h.verified_len, strlen(VERIFIED));
	assert_int_equal(h.verified_line, 6);
	assert_non_null(h.verified_src);
	release(&tf, &h);
}

static void test_verified_src_maps_back(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse(PROGRAM, &tf, &h);
	size_t line, col;

	/* a word on the second line of the paragraph */
	const char *date = strstr(h.verified, "2026-11-30:");
	assert_non_null(date);
	size_t i = (size_t)(date - h.verified);
	where(&tf, &h, i, &line, &col);
	assert_int_equal(line, 7);
	assert_int_equal(col, 7); /* "//    2026" */
	assert_int_equal(h.verified_src[i], tf.line_start[6] + 6);
	/* each byte of the word maps to the next byte of the file */
	for (size_t k = 0; k < strlen("2026-11-30:"); k++) {
		assert_int_equal(h.verified_src[i + k], h.verified_src[i] + k);
		assert_int_equal(tf.data[h.verified_src[i + k]], h.verified[i + k]);
	}

	/* the first byte and a word on the third line */
	where(&tf, &h, 0, &line, &col);
	assert_int_equal(line, 6);
	assert_int_equal(col, 4);
	const char *path = strstr(h.verified, "evidence/day31");
	assert_non_null(path);
	where(&tf, &h, (size_t)(path - h.verified), &line, &col);
	assert_int_equal(line, 8);
	assert_int_equal(col, 4);

	/* "0.325" in the middle of line 7 */
	const char *ms = strstr(h.verified, "0.325 ms");
	assert_non_null(ms);
	where(&tf, &h, (size_t)(ms - h.verified), &line, &col);
	assert_int_equal(line, 7);
	assert_int_equal(col, 47);

	/* every byte but the joining spaces is the file's byte */
	for (size_t k = 0; k < h.verified_len; k++)
		if (h.verified[k] != ' ')
			assert_int_equal(tf.data[h.verified_src[k]], h.verified[k]);
	release(&tf, &h);
}

static void test_verified_paragraph_ends_at_blank_comment(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Build: make\n"
	      "// Verified on an H200\n"
	      "// on 2026-11-30.\n"
	      "//   \n"
	      "// Not part of it.\n"
	      "// Verified again, ignored.\n",
	      &tf, &h);
	assert_string_equal(h.verified, "Verified on an H200 on 2026-11-30.");
	assert_int_equal(h.verified_line, 2);
	assert_int_equal(h.last_line, 6);
	release(&tf, &h);
}

static void test_verified_paragraph_ends_with_header(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Build: make\n//\n//   Verified   on an H200   \n//\ton 2026-11-30.\nint x;\n// more\n", &tf, &h);
	assert_string_equal(h.verified, "Verified   on an H200 on 2026-11-30."); /* inner spaces kept */
	assert_int_equal(h.verified_line, 3);
	size_t line, col;
	where(&tf, &h, 0, &line, &col);
	assert_int_equal(line, 3);
	assert_int_equal(col, 6);
	release(&tf, &h);
}

/* "Verified" as a word only: inside a longer word (before or after,
 * several on one line) it starts no paragraph. */
static void test_verified_whole_word(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Build: make\n"
	      "// xVerified, VerifiedX, VerifiedVerified\n"
	      "// Unverified, then -Verified- on an H200.\n",
	      &tf, &h);
	assert_non_null(h.verified);
	assert_int_equal(h.verified_line, 3);
	release(&tf, &h);
	parse("// Build: make\n// xVerifiedVerifiedy\nint x;\n", &tf, &h);
	assert_null(h.verified);
	release(&tf, &h);
}

static void test_verified_single_line(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Verified on an H200 on 2026-11-30 (evidence/x/run.txt).\n", &tf, &h);
	assert_string_equal(h.verified, "Verified on an H200 on 2026-11-30 (evidence/x/run.txt).");
	assert_int_equal(h.verified_len, 55);
	assert_int_equal(h.verified_line, 1);
	assert_int_equal(h.verified_src[0], 3);
	assert_int_equal(h.verified_src[54], 57);
	release(&tf, &h);
}

static void test_verified_word_within_a_line(void **state)
{
	(void)state;
	/* the paragraph is the whole comment line that holds the word */
	struct textfile tf;
	struct proghdr h;
	parse("// Build: make\n// Results (Verified on an H200)\n// hold.\n", &tf, &h);
	assert_string_equal(h.verified, "Results (Verified on an H200) hold.");
	assert_int_equal(h.verified_line, 2);
	release(&tf, &h);
}

static void test_no_verified(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Build: make\n// Run: ./a\n// Unverified results; verified later; VERIFIED.\n// Verifiedness\n", &tf,
	      &h);
	assert_no_verified(&h);
	release(&tf, &h);
	/* Verified outside the header does not count */
	parse("// Build: make\n\n// Verified on an H200.\n", &tf, &h);
	assert_no_verified(&h);
	release(&tf, &h);
}


/* ---- run lines, Expect:, continuation, problems ---- */

static void test_named_runs(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Build: nvcc -o scan scan.cu\n"
	      "// Run: ./scan\n"
	      "// Run racecheck-32: compute-sanitizer ./scan 32\n"
	      "// Run racecheck (exit 1): compute-sanitizer --error-exitcode 1 ./scan 64\n"
	      "// Expect: ^all [0-9]+ sums$\n"
	      "int x;\n",
	      &tf, &h);
	assert_int_equal(h.n_problems, 0);
	assert_int_equal(h.n_runs, 3);
	assert_string_equal(h.runs[0].name, "main");
	assert_int_equal(h.runs[0].exit, 0);
	assert_string_equal(h.runs[1].name, "racecheck-32");
	assert_string_equal(h.runs[1].text, "compute-sanitizer ./scan 32");
	assert_int_equal(h.runs[1].line, 3);
	assert_string_equal(h.runs[2].name, "racecheck");
	assert_int_equal(h.runs[2].exit, 1);
	assert_int_equal(h.runs[2].col, 28);
	assert_value(&h.run, "./scan", 2, 9, 1);
	assert_value(&h.expect, "^all [0-9]+ sums$", 5, 12, 1);
	release(&tf, &h);
}

static void test_continuation_joins_lines(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Build: nvcc -O3 \\\n"
	      "//          -o scan \\\n"
	      "//   scan.cu tile.cu\n"
	      "// Run (exit 2): ./scan \\\n"
	      "//    --fail\n"
	      "//\n"
	      "// Verified 2026-11-30.\n",
	      &tf, &h);
	assert_int_equal(h.n_problems, 0);
	assert_value(&h.build, "nvcc -O3 -o scan scan.cu tile.cu", 1, 11, 1);
	assert_int_equal(h.n_runs, 1);
	assert_string_equal(h.runs[0].text, "./scan --fail");
	assert_int_equal(h.runs[0].exit, 2);
	assert_int_equal(h.last_line, 7);
	assert_int_equal(h.verified_line, 7);
	release(&tf, &h);
}

static void test_unreadable_lines(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		const char *what;
	} cases[] = {
		{"// Run racecheck (exit one): x\n", "exit N"},
		{"// Run race (exit 0): x\n", "exit N"},
		{"// Run race (exit 256): x\n", "exit N"},
		{"// Run Racecheck: x\n", "lowercase"},
		{"// Run my_run: x\n", "lowercase"},
		{"// Build:\n", "has no command"},
		{"// Run: ./a \\\nint x;\n", "no comment line continues"},
		{"// Run: ./a \\\n//\n", "no comment line continues"},
		{"// Run a: ./a\n// Run a: ./b\n", "named twice"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct textfile tf;
		struct proghdr h;
		parse(cases[i].line, &tf, &h);
		if (h.n_problems != 1 || !strstr(h.problems[0].message, cases[i].what))
			print_error("%s -> %zu problems: %s\n", cases[i].line, h.n_problems,
				    h.n_problems ? h.problems[0].message : "");
		assert_int_equal(h.n_problems, 1);
		assert_non_null(strstr(h.problems[0].message, cases[i].what));
		release(&tf, &h);
	}
}

static void test_prose_that_starts_with_run(void **state)
{
	(void)state;
	struct textfile tf;
	struct proghdr h;
	parse("// Run by every thread of the block: a note.\n"
	      "// Run time is long: also prose.\n"
	      "// Build: make\n"
	      "// Run: ./a\n",
	      &tf, &h);
	assert_int_equal(h.n_problems, 0);
	assert_int_equal(h.n_runs, 1);
	release(&tf, &h);
}


/* The source hash leaves out the header's empty `//` lines as the parse
 * found them (h->blank_lines): held to reading every header line again,
 * trimmed of spaces and tabs, as exactly "//" (what it did before), over
 * thousands of headers of blank, indented, "///", continued and
 * Verified lines. */
static void reference_sha(const struct textfile *tf, const struct proghdr *h, char out[65])
{
	char *kept = malloc(tf->len + 1);
	assert_non_null(kept);
	size_t used = 0;
	for (size_t n = 1; n <= tf->n_lines; n++) {
		size_t from = tf->line_start[n - 1];
		size_t to = n < tf->n_lines ? tf->line_start[n] : tf->len;
		bool out_of_hash = h->verified_line && n >= h->verified_line && n <= h->verified_last;
		if (h->first_line && n >= h->first_line && n <= h->last_line) {
			size_t len, a = 0, e;
			const char *line = textfile_line(tf, n, &len);
			e = len;
			while (a < e && (line[a] == ' ' || line[a] == '\t'))
				a++;
			while (e > a && (line[e - 1] == ' ' || line[e - 1] == '\t'))
				e--;
			if (e - a == 2 && line[a] == '/' && line[a + 1] == '/')
				out_of_hash = true;
		}
		if (!out_of_hash) {
			memcpy(kept + used, tf->data + from, to - from);
			used += to - from;
		}
	}
	sha256_hex(kept, used, out);
	free(kept);
}

static void test_source_sha_leaves_out_blank_lines_as_read(void **state)
{
	(void)state;
	static const char *const pool[] = {
		"//", "  //  ", "//\t", "\t//", "///", "// /", "// text", "//x", "// Verified on an H200:",
		"// Verified", "// Build: nvcc -o a a.cu", "// Build: nvcc \\", "// Run: ./a \\", "// Run fast: ./a",
		"// Expect: OK \\", "//   more \\", "", "   ", "int main() { return 0; }", "\t// indented",
		"/ /", "// Run (exit 2): ./a",
	};
	const size_t n_pool = sizeof pool / sizeof pool[0];
	uint32_t seed = 17;
	for (int round = 0; round < 4000; round++) {
		char text[2048];
		size_t used = 0;
		seed = seed * 1103515245u + 12345u;
		size_t lines = 1 + (seed >> 16) % 14;
		for (size_t i = 0; i < lines; i++) {
			seed = seed * 1103515245u + 12345u;
			const char *l = pool[(seed >> 16) % n_pool];
			used += (size_t)snprintf(text + used, sizeof text - used, "%s\n", l);
		}
		seed = seed * 1103515245u + 12345u;
		if ((seed >> 16) % 4 == 0)
			used--; /* no newline at the end */
		text[used] = '\0';
		struct textfile tf;
		struct proghdr h;
		parse(text, &tf, &h);
		char want[65], got[65];
		reference_sha(&tf, &h, want);
		proghdr_source_sha256_parsed(&tf, &h, got);
		if (strcmp(want, got) != 0)
			print_error("round %d:\n%s\n", round, text);
		assert_string_equal(got, want);
		release(&tf, &h);
	}
}

static void test_runs_are_bounded(void **state)
{
	(void)state;
	/* 5000 named runs and 5000 bad lines: bounded work, bounded lists */
	size_t cap = 10000 * 40 + 64, used = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	used += (size_t)snprintf(text + used, cap - used, "// Build: make\n");
	for (int i = 0; i < 5000; i++) {
		used += (size_t)snprintf(text + used, cap - used, "// Run r%d: ./a %d\n", i, i);
		used += (size_t)snprintf(text + used, cap - used, "// Run R%d: ./a\n", i);
	}
	struct textfile tf;
	struct proghdr h;
	parse(text, &tf, &h);
	assert_int_equal(h.n_runs, PROGHDR_MAX_RUNS);
	assert_int_equal(h.n_problems, PROGHDR_MAX_PROBLEMS);
	release(&tf, &h);
	free(text);
}

static int release_patterns(void **state)
{
	(void)state;
	re_release_all();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_and_run),
		cmocka_unit_test(test_resolution),
		cmocka_unit_test(test_columns_follow_the_text),
		cmocka_unit_test(test_two_build_lines),
		cmocka_unit_test(test_absent_lines),
		cmocka_unit_test(test_keys_are_case_sensitive_and_at_the_start),
		cmocka_unit_test(test_blank_lines_before_header),
		cmocka_unit_test(test_header_ends_at_first_non_comment_line),
		cmocka_unit_test(test_no_header),
		cmocka_unit_test(test_crlf_header),
		cmocka_unit_test(test_verified_joined),
		cmocka_unit_test(test_verified_src_maps_back),
		cmocka_unit_test(test_verified_paragraph_ends_at_blank_comment),
		cmocka_unit_test(test_verified_paragraph_ends_with_header),
		cmocka_unit_test(test_verified_single_line),
		cmocka_unit_test(test_verified_word_within_a_line),
		cmocka_unit_test(test_no_verified),
		cmocka_unit_test(test_named_runs),
		cmocka_unit_test(test_continuation_joins_lines),
		cmocka_unit_test(test_unreadable_lines),
		cmocka_unit_test(test_prose_that_starts_with_run),
		cmocka_unit_test(test_runs_are_bounded),
		cmocka_unit_test(test_source_sha_leaves_out_blank_lines_as_read),
		cmocka_unit_test(test_verified_whole_word),
	};
	return cmocka_run_group_tests(tests, NULL, release_patterns);
}

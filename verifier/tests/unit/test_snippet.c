/*
 * test_snippet.c - the named snippets of a lesson program: their exact
 * lines, nesting, and every marker problem with its kind, line and column.
 *
 * A snippet's text is stated as its source line numbers joined by ",", so
 * a line too many, too few or out of order fails the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "re.h"
#include "snippet.h"
#include "textfile.h"

#define SRC_PATH "programs/day31-scan-1/scan.cu"

#include "diag_capture.h"

/* ---- helpers ---- */

static size_t scan(const char *text, bool report, struct textfile *tf, struct snippet_set *set)
{
	textfile_from_memory(text, strlen(text), SRC_PATH, tf);
	return snippet_scan(tf, report, set);
}

static void release(struct textfile *tf, struct snippet_set *set)
{
	snippet_set_free(set);
	textfile_free(tf);
}

/* The snippet's source lines joined by ",". */
static void lines_of(const struct snippet *sn, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < sn->n_lines && used < outlen; i++)
		used += (size_t)snprintf(out + used, outlen - used, "%s%zu", i ? "," : "", sn->lines[i]);
}

static const struct snippet *assert_snippet(const struct snippet_set *set, const char *name, size_t start,
					    size_t end, const char *lines)
{
	const struct snippet *sn = snippet_find(set, name);
	if (!sn)
		print_error("no snippet '%s'\n", name);
	assert_non_null(sn);
	assert_string_equal(sn->name, name);
	assert_int_equal(sn->start_line, start);
	assert_int_equal(sn->end_line, end);
	char got[512];
	lines_of(sn, got, sizeof got);
	assert_string_equal(got, lines);
	return sn;
}

/* The text of the snippet's lines, each followed by LF. */
static void text_of(const struct textfile *tf, const struct snippet *sn, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < sn->n_lines && used < outlen; i++) {
		size_t len;
		const char *s = textfile_line(tf, sn->lines[i], &len);
		used += (size_t)snprintf(out + used, outlen - used, "%.*s\n", (int)len, s);
	}
}

/* snippet_run against the snippet's lines: when it gives a run, the run
 * is the text of the lines, each with its LF (text_of), byte for byte;
 * and it gives one for every snippet of consecutive lines that ends
 * before the file's last line. */
static void assert_run_is_text(const struct textfile *tf, const struct snippet *sn)
{
	char want[8192];
	text_of(tf, sn, want, sizeof want);
	const char *run;
	size_t len;
	bool consecutive = sn->n_lines > 0;
	for (size_t i = 1; i < sn->n_lines; i++)
		consecutive &= sn->lines[i] == sn->lines[i - 1] + 1;
	bool given = snippet_run(tf, sn, &run, &len);
	assert_int_equal(given, consecutive && sn->lines[sn->n_lines - 1] < tf->n_lines);
	if (given) {
		assert_int_equal(len, strlen(want));
		assert_memory_equal(run, want, len);
	}
}

/* ---- well-formed snippets ---- */

static void test_plain_snippet(void **state)
{
	(void)state;
	const char *text = "#include <cstdio>\n"                   /* 1 */
			   "// snippet: scan_kernel\n"             /* 2 */
			   "__global__ void scan(int *x) {\n"      /* 3 */
			   "\n"                                    /* 4 */
			   "    x[threadIdx.x] += 1;\n"            /* 5 */
			   "}\n"                                   /* 6 */
			   "// end snippet\n"                      /* 7 */
			   "int main() { return 0; }\n";           /* 8 */
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 0);
	assert_int_equal(set.problems, 0);
	assert_int_equal(errors(), 0);
	assert_string_equal(output(), "");
	assert_int_equal(set.n, 1);
	const struct snippet *sn = assert_snippet(&set, "scan_kernel", 2, 7, "3,4,5,6");
	char got[512];
	text_of(&tf, sn, got, sizeof got);
	assert_string_equal(got, "__global__ void scan(int *x) {\n\n    x[threadIdx.x] += 1;\n}\n");
	release(&tf, &set);
}

static void test_named_end_and_indentation(void **state)
{
	(void)state;
	const char *text = "int main() {\n"                        /* 1 */
			   "    // snippet: launch\n"              /* 2 */
			   "    scan<<<1, 256>>>(x);\n"            /* 3 */
			   "\t//   end snippet:   launch  \n"      /* 4 */
			   "    //snippet:sync\n"                  /* 5 */
			   "    cudaDeviceSynchronize();\n"        /* 6 */
			   "  ///end snippet: sync\n"              /* 7: three slashes are not two */
			   "}\n";                                  /* 8 */
	struct textfile tf;
	struct snippet_set set;
	size_t problems = scan(text, true, &tf, &set);
	/* "///end snippet" is not an end marker; it is a near miss */
	assert_int_equal(problems, 2);
	assert_int_equal(reported(D_SNIPPET_MISSPELT), 1);
	assert_int_equal(reported(D_SNIPPET_UNTERMINATED), 1);
	assert_int_equal(set.n, 2);
	assert_snippet(&set, "launch", 2, 4, "3");
	assert_snippet(&set, "sync", 5, 0, "6,8");
	release(&tf, &set);
}

static void test_indented_markers(void **state)
{
	(void)state;
	const char *text = "  \t// snippet: body\n"
			   "x\n"
			   "\t\t// end snippet: body\n";
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 0);
	assert_int_equal(errors(), 0);
	assert_snippet(&set, "body", 1, 3, "2");
	release(&tf, &set);
}

static void test_nested_snippets(void **state)
{
	(void)state;
	const char *text = "// snippet: outer\n"         /* 1 */
			   "a\n"                         /* 2 */
			   "    // snippet: inner\n"     /* 3 */
			   "    b\n"                     /* 4 */
			   "    c\n"                     /* 5 */
			   "    // end snippet: inner\n" /* 6 */
			   "d\n"                         /* 7 */
			   "// end snippet: outer\n"     /* 8 */
			   "e\n";                        /* 9 */
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 0);
	assert_int_equal(errors(), 0);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.v[0].name, "outer"); /* in order of their start lines */
	assert_string_equal(set.v[1].name, "inner");
	const struct snippet *outer = assert_snippet(&set, "outer", 1, 8, "2,4,5,7");
	const struct snippet *inner = assert_snippet(&set, "inner", 3, 6, "4,5");
	/* the outer one's text skips the inner markers: no run of the file's
	 * bytes is it; the inner one's is lines 4 and 5 as they stand */
	const char *run;
	size_t len;
	assert_false(snippet_run(&tf, outer, &run, &len));
	assert_true(snippet_run(&tf, inner, &run, &len));
	assert_int_equal(len, 12);
	assert_memory_equal(run, "    b\n    c\n", 12);
	release(&tf, &set);
}

static void test_nested_with_plain_ends(void **state)
{
	(void)state;
	/* an unnamed end closes the innermost open snippet */
	const char *text = "// snippet: a\n1\n// snippet: b\n2\n// end snippet\n3\n// end snippet\n";
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 0);
	assert_snippet(&set, "a", 1, 7, "2,4,6");
	assert_snippet(&set, "b", 3, 5, "4");
	release(&tf, &set);
}

static void test_empty_snippet_and_empty_file(void **state)
{
	(void)state;
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan("// snippet: nothing\n// end snippet\n", true, &tf, &set), 0);
	const struct snippet *sn = assert_snippet(&set, "nothing", 1, 2, "");
	assert_int_equal(sn->n_lines, 0);
	release(&tf, &set);
	assert_int_equal(scan("", true, &tf, &set), 0);
	assert_int_equal(set.n, 0);
	assert_null(snippet_find(&set, "nothing"));
	release(&tf, &set);
	assert_int_equal(errors(), 0);
}

static void test_snippet_find(void **state)
{
	(void)state;
	const char *text = "// snippet: a.b-c_1\nx\n// end snippet\n// snippet: d\ny\n// end snippet\n";
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 0);
	assert_ptr_equal(snippet_find(&set, "a.b-c_1"), &set.v[0]);
	assert_ptr_equal(snippet_find(&set, "d"), &set.v[1]);
	assert_null(snippet_find(&set, "D"));
	assert_null(snippet_find(&set, "a.b"));
	assert_null(snippet_find(&set, ""));
	release(&tf, &set);
}

static void test_crlf_source(void **state)
{
	(void)state;
	const char *text = "// snippet: k\r\nint x;\r\n// end snippet: k\r\n";
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 0);
	assert_snippet(&set, "k", 1, 3, "2");
	release(&tf, &set);
}

/* ---- problems ---- */

static void test_unterminated(void **state)
{
	(void)state;
	const char *text = "int a;\n"                /* 1 */
			   "  // snippet: open\n"    /* 2 */
			   "int b;\n"                /* 3 */
			   "\n"                      /* 4 */
			   "int c;\n";               /* 5 */
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 1);
	assert_int_equal(set.problems, 1);
	assert_int_equal(reported(D_SNIPPET_UNTERMINATED), 1);
	assert_int_equal(errors(), 1);
	assert_snippet(&set, "open", 2, 0, "3,4,5"); /* runs to the end of the file */
	assert_output_has(SRC_PATH ":2:3: error: snippet 'open' is never closed [snippet-unterminated]");
	assert_output_has("hint: add '// end snippet' after its last line");
	release(&tf, &set);
}

static void test_unterminated_last_line_without_newline(void **state)
{
	(void)state;
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan("// snippet: s\nx\ny", true, &tf, &set), 1);
	assert_snippet(&set, "s", 1, 0, "2,3");
	release(&tf, &set);
}

static void test_duplicate(void **state)
{
	(void)state;
	const char *text = "// snippet: k\n"      /* 1 */
			   "a\n"                  /* 2 */
			   "// end snippet\n"     /* 3 */
			   "\t\t// snippet: k\n"  /* 4 */
			   "b\n"                  /* 5 */
			   "// end snippet\n";    /* 6 */
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 1);
	assert_int_equal(reported(D_SNIPPET_DUPLICATE), 1);
	assert_int_equal(errors(), 1);
	assert_int_equal(set.n, 2);
	assert_snippet(&set, "k", 1, 3, "2"); /* find gives the first */
	assert_int_equal(set.v[1].start_line, 4);
	assert_int_equal(set.v[1].end_line, 6);
	assert_output_has(SRC_PATH ":4:3: error: snippet 'k' is already defined at line 1 [snippet-duplicate]");
	release(&tf, &set);
}

static void test_end_without_start(void **state)
{
	(void)state;
	const char *text = "int a;\n    // end snippet\nint b;\n";
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 1);
	assert_int_equal(reported(D_SNIPPET_END_UNMATCHED), 1);
	assert_int_equal(errors(), 1);
	assert_int_equal(set.n, 0);
	assert_output_has(SRC_PATH ":2:5: error: '// end snippet' closes no open snippet [snippet-end-unmatched]");
	release(&tf, &set);
}

static void test_end_after_close_is_unmatched(void **state)
{
	(void)state;
	const char *text = "// snippet: a\nx\n// end snippet: a\n// end snippet: a\n";
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 1);
	assert_int_equal(reported(D_SNIPPET_END_UNMATCHED), 1);
	assert_snippet(&set, "a", 1, 3, "2");
	assert_output_has(SRC_PATH ":4:1: error:");
	release(&tf, &set);
}

static void test_mismatched_end_name(void **state)
{
	(void)state;
	const char *text = "// snippet: a\n"     /* 1 */
			   "x\n"                 /* 2 */
			   "// end snippet: b\n" /* 3 */
			   "y\n";                /* 4 */
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 1);
	assert_int_equal(reported(D_SNIPPET_END_MISMATCH), 1);
	assert_int_equal(reported(D_SNIPPET_UNTERMINATED), 0); /* it still closes the open one */
	assert_int_equal(errors(), 1);
	assert_snippet(&set, "a", 1, 3, "2");
	assert_output_has(SRC_PATH ":3:1: error: '// end snippet: b' closes snippet 'a', which is the one open "
				   "here [snippet-end-mismatch]");
	release(&tf, &set);
}

static void test_near_misses(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		size_t col;
	} misses[] = {
		{"// end-snippet", 1},
		{"// snipet: x", 1},
		{"    // snippet x", 5},
		{"// Snippet: x", 1},
		{"// end snippet:", 1},
		{"// snippet: two words", 1},
		{"\t// End Snippet", 2},
		{"// endsnippet", 1},
		{"//snippets: x", 1},
	};
	for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++) {
		char text[256], want[256];
		snprintf(text, sizeof text, "// snippet: ok\nint a;\n%s\nint b;\n// end snippet\n", misses[i].line);
		size_t before = reported(D_SNIPPET_MISSPELT);
		struct textfile tf;
		struct snippet_set set;
		size_t problems = scan(text, true, &tf, &set);
		if (problems != 1)
			print_error("line \"%s\": %zu problems\n", misses[i].line, problems);
		assert_int_equal(problems, 1);
		assert_int_equal(reported(D_SNIPPET_MISSPELT), before + 1);
		snprintf(want, sizeof want,
			 SRC_PATH ":3:%zu: error: this comment looks like a snippet marker but is not one "
				  "[snippet-marker-misspelt]",
			 misses[i].col);
		assert_output_has(want);
		/* the well-formed snippet around it is still read */
		assert_snippet(&set, "ok", 1, 5, "2,4");
		release(&tf, &set);
	}
	assert_int_equal(errors(), sizeof misses / sizeof misses[0]);
	assert_output_has("hint: snippet markers are spelled '// snippet: NAME' and '// end snippet'");
}

/* A near miss as the file's last bytes, fewer than 8 after its slashes
 * (the head is read byte by byte there, not as one word), and a "snip"
 * that starts past the head's first 8 bytes, which is no near miss. */
static void test_near_miss_at_file_end(void **state)
{
	(void)state;
	static const char *const texts[] = {"int a;\n// snipet", "int a;\n//SNIPET\n", "int a;\n//\tsnipet"};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		size_t before = reported(D_SNIPPET_MISSPELT);
		struct textfile tf;
		struct snippet_set set;
		scan(texts[i], true, &tf, &set);
		if (reported(D_SNIPPET_MISSPELT) != before + 1)
			fail_msg("\"%s\": not reported", texts[i]);
		release(&tf, &set);
	}
	size_t before = reported(D_SNIPPET_MISSPELT);
	struct textfile tf;
	struct snippet_set set;
	scan("int a;\n// a long note, snipet\n", true, &tf, &set);
	assert_int_equal(reported(D_SNIPPET_MISSPELT), before);
	release(&tf, &set);
}

static void test_ordinary_comments_are_not_flagged(void **state)
{
	(void)state;
	const char *text = "// the snippets below are quoted by the page\n"
			   "// This file holds the scan kernel; see snippet.h for the marker rules\n"
			   "// TODO: snippet this later\n"
			   "/* snippet: not a line comment */\n"
			   "int x; // snippet: trailing comments are not markers\n"
			   "// scan: one pass per warp\n"
			   "// Note: the page quotes two snippets of this file.\n"
			   "int main() { return 0; }\n";
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 0);
	assert_int_equal(set.problems, 0);
	assert_int_equal(set.n, 0);
	assert_int_equal(errors(), 0);
	assert_string_equal(output(), "");
	release(&tf, &set);
}

/* Markers are found by their "//" (snippet_scan looks for the bytes, not
 * at each line's indentation): slashes earlier on a line, a marker right
 * after such a line, a tab before one and a last line without a newline
 * are all read as the line-by-line rule reads them. */
static void test_markers_among_other_slashes(void **state)
{
	(void)state;
	const char *text = "int a = 4 / 2; // snippet: not_a_marker\n"   /* 1 */
			   "/ // snippet: not_either\n"                   /* 2 */
			   "x/y//z\n"                                     /* 3 */
			   "\t// snippet: tabbed\n"                       /* 4 */
			   "a / b\n"                                      /* 5 */
			   "  //snippet: inner\n"                         /* 6 */
			   "c\n"                                          /* 7 */
			   "  // end snippet\n"                           /* 8 */
			   "//end snippet";                               /* 9 */
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, true, &tf, &set), 0);
	assert_int_equal(errors(), 0);
	assert_int_equal(set.n, 2);
	assert_snippet(&set, "tabbed", 4, 9, "5,7");
	assert_snippet(&set, "inner", 6, 8, "7");
	release(&tf, &set);
}

static void test_report_false_counts_silently(void **state)
{
	(void)state;
	const char *text = "// snippet: a\n"      /* 1 */
			   "x\n"                  /* 2 */
			   "// end snippet\n"     /* 3 */
			   "// snippet: a\n"      /* 4: duplicate */
			   "// snipet: b\n"       /* 5: misspelt */
			   "y\n"                  /* 6 */
			   "// end snippet: c\n"  /* 7: mismatch */
			   "// end snippet\n"     /* 8: unmatched */
			   "// snippet: open\n"   /* 9: unterminated */
			   "z\n";                 /* 10 */
	struct textfile tf;
	struct snippet_set set;
	assert_int_equal(scan(text, false, &tf, &set), 5);
	assert_int_equal(set.problems, 5);
	assert_int_equal(errors(), 0);
	for (int k = 0; k < DIAG_KIND_COUNT; k++)
		assert_int_equal(reported((enum diag_kind)k), 0);
	assert_string_equal(output(), "");
	assert_int_equal(set.n, 3);
	assert_int_equal(set.v[1].start_line, 4);
	assert_int_equal(set.v[1].end_line, 7);
	assert_snippet(&set, "open", 9, 0, "10");
	release(&tf, &set);

	/* the same text reported gives one diagnostic per problem */
	assert_int_equal(scan(text, true, &tf, &set), 5);
	assert_int_equal(errors(), 5);
	assert_int_equal(reported(D_SNIPPET_DUPLICATE), 1);
	assert_int_equal(reported(D_SNIPPET_MISSPELT), 1);
	assert_int_equal(reported(D_SNIPPET_END_MISMATCH), 1);
	assert_int_equal(reported(D_SNIPPET_END_UNMATCHED), 1);
	assert_int_equal(reported(D_SNIPPET_UNTERMINATED), 1);
	release(&tf, &set);
}

static int release_patterns(void **state)
{
	(void)state;
	re_release_all();
	return 0;
}

/* ---- the "//" filter against a model of the markers ---- */

/* snippet_scan looks only at lines whose "//" has nothing but blanks
 * before it back to the line's start and whose head holds "snip": random
 * files of markers, near misses and lines that only look like them
 * ("//" after code or after a lone '/', in a block comment, a URL) at the
 * file's first and last line, with and without a final LF, against what
 * a line-by-line reading says each snippet holds. */
static void test_filter_against_model(void **state)
{
	(void)state;
	static const char *const plain[] = {
		"int x = a / b;", "  y = 1; // snippet: fake", "/ // snippet: q", "\t// a comment",
		"// see http://x//y", "", "x // end snippet", "   ", "//", "// snip",
		"/*// snippet: z*/", "a/b/c // end snippet: s0", "\t \t", "///",
	};
	static const char *const misspelt[] = {"// snipet: x", "// end-snippet", "\t// Snippet: X", "  //snippet q",
					       "//endsnippet", "// END SNIPPET"};
	char text[8192];
	for (unsigned seed = 1; seed <= 400; seed++) {
		unsigned x = seed * 2654435761u;
#define RND(n) ((x = x * 1103515245u + 12345u), (x >> 16) % (n))
		size_t used = 0, n_lines = 1 + RND(40), depth = 0, n_snip = 0, problems = 0;
		size_t open[8], start[64], end[64];
		bool marker[64] = {false};
		for (size_t n = 1; n <= n_lines; n++) {
			size_t line_at = used;
			unsigned r = RND(10);
			const char *indent = RND(3) == 0 ? " \t" : RND(2) ? "    " : "";
			if (r < 2 && depth < 8 && n_snip < 64) {
				used += (size_t)snprintf(text + used, sizeof text - used, "%s//%s snippet: s%zu", indent,
							 RND(2) ? "" : "\t", n_snip);
				start[n_snip] = n, end[n_snip] = 0;
				open[depth++] = n_snip++;
				marker[n] = true;
			} else if (r < 4 && depth > 0) {
				size_t top = open[--depth];
				if (RND(2))
					used += (size_t)snprintf(text + used, sizeof text - used, "%s// end snippet: s%zu  ",
								 indent, top);
				else
					used += (size_t)snprintf(text + used, sizeof text - used, "%s// end snippet", indent);
				end[top] = n;
				marker[n] = true;
			} else if (r == 4) {
				used += (size_t)snprintf(text + used, sizeof text - used, "%s",
							 misspelt[RND(sizeof misspelt / sizeof *misspelt)]);
				problems++;
				marker[n] = true;
			} else {
				used += (size_t)snprintf(text + used, sizeof text - used, "%s", plain[RND(sizeof plain / sizeof *plain)]);
				marker[n] = false;
			}
			/* the last line without its LF, unless empty (it would be no line) */
			if (n < n_lines || RND(2) || used == line_at)
				text[used++] = '\n';
		}
#undef RND
		text[used] = '\0';
		problems += depth; /* each left open */
		struct textfile tf;
		struct snippet_set set;
		assert_int_equal(scan(text, false, &tf, &set), problems);
		assert_int_equal(set.n, n_snip);
		for (size_t i = 0; i < n_snip; i++) {
			char name[32];
			snprintf(name, sizeof name, "s%zu", i);
			const struct snippet *sn = snippet_find(&set, name);
			assert_non_null(sn);
			assert_int_equal(sn->start_line, start[i]);
			assert_int_equal(sn->end_line, end[i]);
			size_t k = 0, last = end[i] ? end[i] : n_lines + 1;
			for (size_t n = start[i] + 1; n < last; n++)
				if (!marker[n]) {
					assert_true(k < sn->n_lines);
					assert_int_equal(sn->lines[k], n);
					k++;
				}
			assert_int_equal(sn->n_lines, k);
			assert_run_is_text(&tf, sn);
		}
		release(&tf, &set);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_plain_snippet),
		T(test_named_end_and_indentation),
		T(test_indented_markers),
		T(test_nested_snippets),
		T(test_nested_with_plain_ends),
		T(test_empty_snippet_and_empty_file),
		T(test_snippet_find),
		T(test_crlf_source),
		T(test_unterminated),
		T(test_unterminated_last_line_without_newline),
		T(test_duplicate),
		T(test_end_without_start),
		T(test_end_after_close_is_unmatched),
		T(test_mismatched_end_name),
		T(test_near_miss_at_file_end),
		T(test_near_misses),
		T(test_ordinary_comments_are_not_flagged),
		T(test_markers_among_other_slashes),
		T(test_report_false_counts_silently),
		T(test_filter_against_model),
	};
	return cmocka_run_group_tests(tests, NULL, release_patterns);
}

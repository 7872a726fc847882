/*
 * test_compare.c - the comparison rule (normalise, equal), the unified
 * diff shown on drift, and transcript excerpt matching with "...".
 *
 * Line lists are stated as their texts joined by "|", so a line too many,
 * too few or with one byte of whitespace left fails the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "re.h"
#include "util.h"

/* ---- helpers ---- */

/* Splits a NUL-terminated text (borrowed) into l, file lines from 1. */
static void split(struct lines *l, const char *text)
{
	memset(l, 0, sizeof *l);
	lines_split(l, text, strlen(text), 1);
}

/* The lines joined by "|". */
static void joined(const struct lines *l, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < l->n && used < outlen; i++)
		used += (size_t)snprintf(out + used, outlen - used, "%s%.*s", i ? "|" : "", (int)l->v[i].len,
					 l->v[i].s);
}

static void assert_normalised(const char *text, const char *expected)
{
	struct lines l;
	split(&l, text);
	lines_normalise(&l);
	char got[1024];
	joined(&l, got, sizeof got);
	lines_free(&l);
	if (strcmp(got, expected) != 0)
		print_error("text: \"%s\"\n", text);
	assert_string_equal(got, expected);
}

static bool equal_after_normalise(const char *a, const char *b)
{
	struct lines x, y;
	split(&x, a);
	split(&y, b);
	lines_normalise(&x);
	lines_normalise(&y);
	bool eq = lines_equal(&x, &y);
	lines_free(&x);
	lines_free(&y);
	return eq;
}

static void assert_diff(const char *a, const char *b, const char *expected)
{
	struct lines x, y;
	split(&x, a);
	split(&y, b);
	char *d = lines_diff(&x, "lessons/day31.md", &y, "programs/day31/scan.cu");
	lines_free(&x);
	lines_free(&y);
	if (strcmp(d, expected) != 0)
		print_error("diff:\n%s\n", d);
	int same = strcmp(d, expected) == 0;
	free(d);
	assert_true(same);
}

/* find_excerpt over texts; *first as returned. */
static bool find(const char *excerpt, const char *hay, size_t *first)
{
	struct lines x, y;
	split(&x, excerpt);
	split(&y, hay);
	lines_normalise(&x);
	bool ok = lines_find_excerpt(&x, &y, first, NULL);
	lines_free(&x);
	lines_free(&y);
	return ok;
}

/* Runs fn in a child process: true when the child exits with status 0.
 * A sanitizer abort then fails one test instead of ending the run. */
static bool runs_cleanly(void (*fn)(void))
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		fn();
		_exit(0);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- split ---- */

static void test_split(void **state)
{
	(void)state;
	struct lines l = {0};
	const char *text = "a\n\nb  \nlast";
	lines_split(&l, text, strlen(text), 40);
	assert_int_equal(l.n, 4);
	assert_ptr_equal(l.v[0].s, text);
	assert_int_equal(l.v[0].len, 1);
	assert_int_equal(l.v[0].src_line, 40);
	assert_int_equal(l.v[1].len, 0);
	assert_int_equal(l.v[2].len, 3);
	assert_int_equal(l.v[3].len, 4);
	assert_int_equal(l.v[3].src_line, 43);
	lines_free(&l);
	assert_null(l.v);
	assert_int_equal(l.n, 0);
	/* a final LF ends the last line; it does not start another */
	lines_split(&l, "x\ny\n", 4, 1);
	assert_int_equal(l.n, 2);
	lines_free(&l);
	lines_split(&l, "", 0, 1);
	assert_int_equal(l.n, 0);
	lines_free(&l);
}

/* ---- normalise ---- */

static void test_trailing_whitespace_trimmed(void **state)
{
	(void)state;
	assert_normalised("a  \nb\t\nc \t \nd", "a|b|c|d");
	assert_normalised("x = 1;   ", "x = 1;");
	/* leading whitespace within a line is kept when not common */
	assert_normalised("a\n  b  ", "a|  b");
}

static void test_leading_and_trailing_blank_lines_dropped(void **state)
{
	(void)state;
	assert_normalised("\n   \n\nx\n\ny\n  \n\t\n", "x||y");
	struct lines l;
	split(&l, "\n\nfirst\nsecond\n\n");
	lines_normalise(&l);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[0].src_line, 3); /* lines keep where they came from */
	assert_int_equal(l.v[1].src_line, 4);
	lines_free(&l);
	assert_normalised("\n \n\t\n", ""); /* all blank: nothing left */
}

static void test_common_indentation_removed(void **state)
{
	(void)state;
	assert_normalised("    a\n      b\n\n    c", "a|  b||c");
	/* blank lines (even whitespace-only ones) do not limit the common indent */
	assert_normalised("        a\n  \n        b", "a||b");
	assert_normalised("\ta\n\t\tb", "a|\tb");
	assert_normalised("  a\nb", "  a|b");
}

static void test_tab_and_spaces_do_not_cancel(void **state)
{
	(void)state;
	/* the common indentation is a common prefix of whitespace characters */
	assert_normalised("\ta\n    b", "\ta|    b");
	assert_normalised("\t  a\n\t b", " a|b");
	assert_normalised("  \ta\n \t b", " \ta|\t b"); /* only the first space is common */
	assert_normalised("    a\n\tb\n    c", "    a|\tb|    c");
}

static void normalise_empty_list(void)
{
	struct lines l = {0};
	lines_normalise(&l);
	if (l.n != 0 || !lines_equal(&l, &l))
		_exit(1);
	lines_free(&l);
}

/*
 * Regression, once a bug in compare.c, lines_normalise: on an empty list (v == NULL, n == 0,
 * what lines_split gives for an empty text) it calls
 * memmove(NULL, NULL + 0, 0), which is undefined behaviour; the project's
 * -fsanitize=undefined -fno-sanitize-recover=all builds abort with
 * "compare.c:57: runtime error: null pointer passed as argument 1".
 * Reachable from check_code.c page_lines() for an empty fenced code block
 * and for an empty snippet (`// snippet: x` directly followed by
 * `// end snippet`).  Expected: an empty list stays empty, no abort.
 * Run in a child process so the abort fails only this test.
 */
static void test_normalise_empty_list(void **state)
{
	(void)state;
	assert_true(runs_cleanly(normalise_empty_list));
}

static void test_lines_equal(void **state)
{
	(void)state;
	assert_true(equal_after_normalise("  int x;\n  return x;\n", "\n\tint x;   \n\treturn x;\n\n"));
	assert_true(equal_after_normalise("\n", "\n  \n"));
	assert_false(equal_after_normalise("int x;\nreturn x;", "int x;\nreturn  x;"));
	assert_false(equal_after_normalise("a\nb", "a\nb\nc"));
	assert_false(equal_after_normalise("a\nb", "a\n\nb"));
	assert_false(equal_after_normalise("a\n\tb", "a\n    b")); /* a tab is not spaces */
	assert_false(equal_after_normalise("A", "a"));
}

/* ---- diff ---- */

static void test_diff_one_line_changed(void **state)
{
	(void)state;
	assert_diff("x\ny\nz\n", "x\nY\nz\n",
		    "--- lessons/day31.md\n"
		    "+++ programs/day31/scan.cu\n"
		    "@@ -1,3 +1,3 @@\n"
		    " x\n"
		    "-y\n"
		    "+Y\n"
		    " z\n");
}

static void test_diff_context_is_two_lines(void **state)
{
	(void)state;
	assert_diff("l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\n", "l1\nl2\nl3\nl4\nL5\nl6\nl7\nl8\nl9\n",
		    "--- lessons/day31.md\n"
		    "+++ programs/day31/scan.cu\n"
		    "@@ -3,5 +3,5 @@\n"
		    " l3\n"
		    " l4\n"
		    "-l5\n"
		    "+L5\n"
		    " l6\n"
		    " l7\n");
}

static void test_diff_insertion(void **state)
{
	(void)state;
	assert_diff("a\nb\nc\nd\n", "a\nb\nnew\nc\nd\n",
		    "--- lessons/day31.md\n"
		    "+++ programs/day31/scan.cu\n"
		    "@@ -1,4 +1,5 @@\n"
		    " a\n"
		    " b\n"
		    "+new\n"
		    " c\n"
		    " d\n");
}

/* A side with no lines has no array at all (v NULL: nothing was ever
 * pushed), and the table diff must not offset it (NULL + 0 is undefined;
 * clang's UBSan stopped the verify fuzz target on a snippet whose program
 * side was empty). */
static void test_diff_side_without_lines(void **state)
{
	(void)state;
	struct lines none = {0}, two;
	split(&two, "x\ny\n");
	char *d = lines_diff(&none, "a", &two, "b");
	assert_string_equal(d, "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n");
	free(d);
	d = lines_diff(&two, "a", &none, "b");
	assert_string_equal(d, "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-x\n-y\n");
	free(d);
	d = lines_diff(&none, "a", &none, "b");
	assert_string_equal(d, "--- a\n+++ b\n");
	free(d);
	lines_free(&two);
}

static void test_diff_deletion(void **state)
{
	(void)state;
	assert_diff("a\nb\ngone\nc\n", "a\nb\nc\n",
		    "--- lessons/day31.md\n"
		    "+++ programs/day31/scan.cu\n"
		    "@@ -1,4 +1,3 @@\n"
		    " a\n"
		    " b\n"
		    "-gone\n"
		    " c\n");
}

static void test_diff_two_hunks(void **state)
{
	(void)state;
	assert_diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\nELEVEN\n12\n",
		    "--- lessons/day31.md\n"
		    "+++ programs/day31/scan.cu\n"
		    "@@ -1,4 +1,4 @@\n"
		    " 1\n"
		    "-2\n"
		    "+TWO\n"
		    " 3\n"
		    " 4\n"
		    "@@ -9,4 +9,4 @@\n"
		    " 9\n"
		    " 10\n"
		    "-11\n"
		    "+ELEVEN\n"
		    " 12\n");
}

static void test_diff_nearby_changes_share_a_hunk(void **state)
{
	(void)state;
	/* four equal lines between two changes: one hunk */
	assert_diff("a\nB\nc\nd\ne\nf\nG\nh\n", "a\nb\nc\nd\ne\nf\ng\nh\n",
		    "--- lessons/day31.md\n"
		    "+++ programs/day31/scan.cu\n"
		    "@@ -1,8 +1,8 @@\n"
		    " a\n"
		    "-B\n"
		    "+b\n"
		    " c\n"
		    " d\n"
		    " e\n"
		    " f\n"
		    "-G\n"
		    "+g\n"
		    " h\n");
}

static void test_diff_of_equal_lists_has_no_hunk(void **state)
{
	(void)state;
	assert_diff("a\nb\n", "a\nb\n", "--- lessons/day31.md\n+++ programs/day31/scan.cu\n");
}

static void test_diff_whitespace_shows(void **state)
{
	(void)state;
	assert_diff("\tx\n", "    x\n",
		    "--- lessons/day31.md\n+++ programs/day31/scan.cu\n@@ -1,1 +1,1 @@\n-\tx\n+    x\n");
}

/* n lines "line i" in one buffer (the caller frees *buf), one changed. */
static void big_lines(struct lines *l, size_t n, size_t changed, char **buf)
{
	*buf = malloc(n * 24);
	assert_non_null(*buf);
	memset(l, 0, sizeof *l);
	char *p = *buf;
	for (size_t i = 0; i < n; i++) {
		int w = sprintf(p, i == changed ? "CHANGED %zu" : "line %zu", i);
		lines_push(l, p, (size_t)w, i + 1);
		p += w;
	}
}

/* Counts the lines of d that start with c, not counting the ---/+++ header. */
static size_t count_op(const char *d, char c)
{
	size_t n = 0;
	const char *p = strchr(d, '\n');
	p = strchr(p + 1, '\n') + 1;
	for (; *p; p = strchr(p, '\n') + 1)
		n += *p == c;
	return n;
}

static void test_diff_large_input_minimal(void **state)
{
	(void)state;
	/* 3000 x 3000: within the table, a minimal diff */
	struct lines a, b;
	char *ab, *bb;
	big_lines(&a, 3000, (size_t)-1, &ab);
	big_lines(&b, 3000, 1500, &bb);
	char *d = lines_diff(&a, "a", &b, "b");
	lines_free(&a);
	lines_free(&b);
	free(ab);
	free(bb);
	size_t minus = count_op(d, '-'), plus = count_op(d, '+'), same = count_op(d, ' ');
	bool header = strstr(d, "@@ -1499,5 +1499,5 @@\n line 1498\n line 1499\n-line 1500\n+CHANGED 1500\n") != NULL;
	free(d);
	assert_int_equal(minus, 1);
	assert_int_equal(plus, 1);
	assert_int_equal(same, 4);
	assert_true(header);
}

static void test_diff_large_input_anchored(void **state)
{
	(void)state;
	/* past the table (compare.c's EDIT_TABLE_MAX): the lines found once
	 * on each side anchor the diff, which stays minimal here */
	struct lines a, b;
	char *ab, *bb;
	big_lines(&a, 4001, (size_t)-1, &ab);
	big_lines(&b, 4002, 2000, &bb);
	clock_t begin = clock();
	char *d = lines_diff(&a, "a", &b, "b");
	double seconds = (double)(clock() - begin) / CLOCKS_PER_SEC;
	lines_free(&a);
	lines_free(&b);
	free(ab);
	free(bb);
	size_t minus = count_op(d, '-'), plus = count_op(d, '+'), same = count_op(d, ' ');
	static const char last[] = "\n+line 4001\n";
	bool changed = strstr(d, "@@ -1999,5 +1999,5 @@\n line 1998\n line 1999\n-line 2000\n+CHANGED 2000\n") != NULL;
	bool end = strlen(d) > strlen(last) && strcmp(d + strlen(d) - strlen(last), last) == 0;
	free(d);
	assert_int_equal(minus, 1);
	assert_int_equal(plus, 2);
	assert_int_equal(same, 6);
	assert_true(changed);
	assert_true(end);
	assert_true(seconds < 5.0);
}

/* n lines "row i took T ms" in one buffer (the caller frees *buf). */
static void timed_rows(struct lines *l, size_t n, const char *t, char **buf)
{
	*buf = malloc(n * 32);
	assert_non_null(*buf);
	memset(l, 0, sizeof *l);
	char *p = *buf;
	for (size_t i = 0; i < n; i++) {
		int w = sprintf(p, "row %zu took %s ms", i, t);
		lines_push(l, p, (size_t)w, i + 1);
		p += w;
		lines_push(l, "", 0, i + 1); /* a blank line between: found many times, never an anchor */
	}
}

static void test_diff_changed_everywhere_is_linear(void **state)
{
	(void)state;
	/* every other line changed, the rest blank (update's dry run of a page
	 * of many numbers): no line anchors, the stretch is far past the
	 * table, so it is diffed line against line: each changed line shows
	 * as its old line then its new one, in linear time (the table would
	 * be 1.6 * 10^9 cells) */
	struct lines a, b;
	char *ab, *bb;
	timed_rows(&a, 20000, "0.5", &ab);
	timed_rows(&b, 20000, "9.5", &bb);
	clock_t begin = clock();
	char *d = lines_diff(&a, "a", &b, "b");
	double seconds = (double)(clock() - begin) / CLOCKS_PER_SEC;
	lines_free(&a);
	lines_free(&b);
	free(ab);
	free(bb);
	size_t minus = count_op(d, '-'), plus = count_op(d, '+');
	bool paired = strstr(d, "\n-row 7 took 0.5 ms\n+row 7 took 9.5 ms\n \n-row 8 took 0.5 ms\n") != NULL;
	free(d);
	assert_int_equal(minus, 20000);
	assert_int_equal(plus, 20000);
	assert_true(paired);
	assert_true(seconds < 5.0);
}

/* ---- excerpts ---- */

#define HAY                                                                                                      \
	"start\n"            /* 0 */                                                                         \
	"n = 1048576\n"      /* 1 */                                                                         \
	"pass 1: 0.2 ms\n"   /* 2 */                                                                         \
	"pass 2: 0.3 ms\n"   /* 3 */                                                                         \
	"pass 3: 0.4 ms\n"   /* 4 */                                                                         \
	"total: 0.9 ms\n"    /* 5 */                                                                         \
	"OK\n"               /* 6 */

static void test_excerpt_exact_run(void **state)
{
	(void)state;
	size_t first = 99;
	assert_true(find("pass 2: 0.3 ms\npass 3: 0.4 ms\n", HAY, &first));
	assert_int_equal(first, 3);
	assert_true(find("start\n", HAY, &first));
	assert_int_equal(first, 0);
	assert_true(find("OK\n", HAY, &first));
	assert_int_equal(first, 6);
	assert_true(find(HAY, HAY, &first));
	assert_int_equal(first, 0);
	/* the excerpt is normalised: its blank edges and indentation do not count */
	assert_true(find("\n    total: 0.9 ms   \n    OK\n\n", HAY, &first));
	assert_int_equal(first, 5);
}

static void test_excerpt_runs_are_consecutive(void **state)
{
	(void)state;
	size_t first;
	assert_false(find("pass 1: 0.2 ms\npass 3: 0.4 ms\n", HAY, &first));
	assert_false(find("pass 3: 0.4 ms\npass 2: 0.3 ms\n", HAY, &first));
	assert_false(find("OK\nextra\n", HAY, &first)); /* runs past the end */
}

static void test_excerpt_ellipsis_one_or_more_lines(void **state)
{
	(void)state;
	size_t first = 99;
	/* "..." for three lines */
	assert_true(find("n = 1048576\n...\ntotal: 0.9 ms\n", HAY, &first));
	assert_int_equal(first, 1);
	/* "..." for exactly one line */
	assert_true(find("pass 1: 0.2 ms\n...\npass 3: 0.4 ms\n", HAY, &first));
	assert_int_equal(first, 2);
	/* two ellipses, indented, with trailing spaces */
	assert_true(find("start\n  ...  \npass 2: 0.3 ms\n\t...\nOK\n", HAY, &first));
	assert_int_equal(first, 0);
}

static void test_excerpt_ellipsis_is_not_zero_lines(void **state)
{
	(void)state;
	size_t first;
	assert_false(find("pass 2: 0.3 ms\n...\npass 3: 0.4 ms\n", HAY, &first));
	assert_false(find("start\n...\nn = 1048576\n", HAY, &first));
	/* the later segment must also come after the earlier one */
	assert_false(find("total: 0.9 ms\n...\nn = 1048576\n", HAY, &first));
}

static void test_excerpt_ellipsis_takes_earliest_later_match(void **state)
{
	(void)state;
	/* "b" occurs twice after "a": either is fine, the excerpt matches */
	size_t first = 99;
	assert_true(find("a\n...\nb\n...\nc\n", "a\nx\nb\nb\ny\nc\n", &first));
	assert_int_equal(first, 0);
	/* a first segment that matches twice: the first run that completes wins */
	assert_true(find("a\n...\nc\n", "a\nc\na\nx\nc\n", &first));
	assert_int_equal(first, 0);
	assert_true(find("a\n...\nc\n", "a\nx\na\nc\n", &first));
	assert_int_equal(first, 0);
}

static void test_excerpt_not_present_gives_closest_run(void **state)
{
	(void)state;
	size_t first = 99;
	/* two of three lines match starting at hay line 2 */
	assert_false(find("pass 1: 0.2 ms\npass 2: 0.3 ms\npass 9: 9.9 ms\n", HAY, &first));
	assert_int_equal(first, 2);
	first = 99;
	assert_false(find("total: 0.9 ms\nFAILED\n", HAY, &first));
	assert_int_equal(first, 5);
	first = 99;
	assert_false(find("nothing like it\n", HAY, &first));
	assert_int_equal(first, 0);
}

static void test_excerpt_empty_hay_and_empty_excerpt(void **state)
{
	(void)state;
	size_t first = 99;
	assert_false(find("OK\n", "", &first));
	assert_int_equal(first, 0);
	first = 99;
	assert_false(find("...\n", HAY, &first)); /* nothing but an ellipsis */
	assert_int_equal(first, 0);
	first = 99;
	assert_false(find("\n  \n", HAY, &first)); /* blank lines only */
	assert_int_equal(first, 0);
}

/*
 * Regression, once a bug in compare.c, lines_find_excerpt: the segments between "..." lines
 * are collected into fixed arrays of 64 and every segment past the 64th
 * is silently dropped (`n_seg < ARRAY_LEN(seg_from)`), so an excerpt whose
 * 65th segment is not in the transcript at all is reported as found.
 * Expected: false (no match) for the excerpt below.
 */
static void test_excerpt_with_more_than_64_segments(void **state)
{
	(void)state;
	char *hay = malloc(65 * 16), *ex = malloc(66 * 24);
	assert_non_null(hay);
	assert_non_null(ex);
	size_t h = 0, e = 0;
	for (int i = 0; i < 64; i++) {
		h += (size_t)sprintf(hay + h, "L%d\ngap\n", i);
		e += (size_t)sprintf(ex + e, "L%d\n...\n", i);
	}
	sprintf(ex + e, "NOT IN THE TRANSCRIPT\n");
	size_t first;
	bool found = find(ex, hay, &first);
	free(hay);
	free(ex);
	assert_false(found);
}

static void test_excerpt_with_64_segments_is_checked(void **state)
{
	(void)state;
	/* up to the limit every segment counts */
	char *hay = malloc(65 * 16), *ex = malloc(66 * 24);
	assert_non_null(hay);
	assert_non_null(ex);
	size_t h = 0, e = 0;
	for (int i = 0; i < 63; i++) {
		h += (size_t)sprintf(hay + h, "L%d\ngap\n", i);
		e += (size_t)sprintf(ex + e, "L%d\n...\n", i);
	}
	sprintf(ex + e, "NOT IN THE TRANSCRIPT\n");
	size_t first;
	bool found = find(ex, hay, &first);
	sprintf(ex + e, "L62\n"); /* L62 is last in hay, already taken: still false */
	bool again = find(ex, hay, &first);
	free(hay);
	free(ex);
	assert_false(found);
	assert_false(again);
}

static int release_patterns(void **state)
{
	(void)state;
	re_release_all();
	return 0;
}

/* the indexed search: a run is equal after each side's own common
 * indentation is removed, and not otherwise */
static void test_excerpt_indentation_relative(void **state)
{
	(void)state;
	size_t first = 99;
	assert_true(find("a\nb\n", "x\n  a\n  b\n", &first));
	assert_int_equal(first, 1);
	assert_true(find("a\nb\n", "\ta\n\tb\n", &first));
	assert_false(find("a\nb\n", "a\n  b\n", &first));
	assert_false(find("a\n  b\n", "a\nb\n", &first));
	/* equal widths, other blanks: a tab is not a space */
	assert_false(find("a\nb\n", " a\n\tb\n", &first));
	assert_true(find("  a\n    b\n", "x\n a\n   b\n", &first));
	assert_int_equal(first, 1);
}

/* a first line that repeats everywhere: still one pass (was every start
 * times every later start) */
static void test_excerpt_many_repeats(void **state)
{
	(void)state;
	struct buf hay = {0};
	for (int i = 0; i < 20000; i++)
		buf_puts(&hay, "ok\n");
	size_t first = 99;
	assert_false(find("ok\n...\nFAIL\n", hay.s, &first));
	assert_int_equal(first, 0);
	buf_puts(&hay, "FAIL\n");
	assert_true(find("ok\n...\nFAIL\n", hay.s, &first));
	assert_int_equal(first, 0);
	assert_true(find("ok\nok\nFAIL\n", hay.s, &first));
	assert_int_equal(first, 19998);
	buf_free(&hay);
}

/* The scan for a segment's first line (within its budget) against the
 * search by keys alone: random hays of few distinct lines (so that first
 * lines repeat and the budget runs out), indented with spaces or tabs,
 * with blank lines and trailing blanks, and excerpts cut from them,
 * re-indented, with "..." for runs and a line changed now and then: the
 * same answer, the same first line and the same place for every line. */
static void test_excerpt_scan_against_keys(void **state)
{
	(void)state;
	static const char *const words[] = {"ok", "step 1", "n = 4", "FAIL", "", "ok  "};
	static const char *const indents[] = {"", "  ", "\t", "    ", " \t"};
	char hay_text[16384], ex_text[4096];
	for (unsigned seed = 1; seed <= 600; seed++) {
		unsigned x = seed * 2654435761u;
#define RND(n) ((x = x * 1103515245u + 12345u), (x >> 16) % (n))
		size_t used = 0, n_hay = 1 + RND(seed % 5 == 0 ? 400 : 40);
		size_t lines_at[512];
		for (size_t i = 0; i < n_hay; i++) {
			lines_at[i] = used;
			const char *indent = indents[RND(sizeof indents / sizeof *indents)];
			const char *word = words[RND(seed % 3 == 0 ? 2 : sizeof words / sizeof *words)];
			used += (size_t)snprintf(hay_text + used, sizeof hay_text - used, "%s%s\n", indent, word);
		}
		lines_at[n_hay] = used;
		/* an excerpt: a window of the hay, each line re-indented by the
		 * same shift, some runs left out as "...", one line changed */
		size_t from = RND(n_hay), len = 1 + RND(n_hay - from < 12 ? n_hay - from : 12), eu = 0;
		const char *shift = RND(2) ? "" : RND(2) ? "  " : "\t";
		for (size_t i = from; i < from + len; i++) {
			unsigned r = RND(12);
			if (r == 0 && i > from && i + 1 < from + len) {
				eu += (size_t)snprintf(ex_text + eu, sizeof ex_text - eu, "...\n");
				i += RND(3);
				continue;
			}
			if (r == 1) {
				eu += (size_t)snprintf(ex_text + eu, sizeof ex_text - eu, "%schanged\n", shift);
				continue;
			}
			eu += (size_t)snprintf(ex_text + eu, sizeof ex_text - eu, "%s%.*s", shift,
					       (int)(lines_at[i + 1] - lines_at[i]), hay_text + lines_at[i]);
		}
#undef RND
		struct lines ex, hay;
		split(&ex, ex_text);
		split(&hay, hay_text);
		lines_normalise(&ex);
		size_t first_scan = 77, first_keys = 88;
		size_t *pos_scan = calloc(ex.n + 1, sizeof *pos_scan), *pos_keys = calloc(ex.n + 1, sizeof *pos_keys);
		struct lines_index scan, keys;
		lines_index_build(&scan, &hay);
		lines_index_build(&keys, &hay);
		keys.keyed = true;
		bool by_scan = lines_find_excerpt_in(&ex, &scan, &first_scan, pos_scan);
		bool by_keys = lines_find_excerpt_in(&ex, &keys, &first_keys, pos_keys);
		if (by_scan != by_keys || first_scan != first_keys)
			print_error("seed %u: excerpt \"%s\"\n", seed, ex_text);
		assert_int_equal(by_scan, by_keys);
		assert_int_equal(first_scan, first_keys);
		if (by_scan)
			assert_memory_equal(pos_scan, pos_keys, ex.n * sizeof *pos_scan);
		lines_index_free(&scan);
		lines_index_free(&keys);
		free(pos_scan);
		free(pos_keys);
		lines_free(&ex);
		lines_free(&hay);
	}
}

/* issue 11: a line missing from the excerpt is shown alone, and located
 * at the page line where it should have been */
static void test_excerpt_miss_missing_line(void **state)
{
	(void)state;
	struct lines x, y;
	split(&x, "start\npass 1: 0.2 ms\npass 2: 0.3 ms\npass 3: 0.4 ms\ntotal: 0.9 ms\nOK\n");
	split(&y, HAY);
	lines_normalise(&x);
	size_t first;
	assert_false(lines_find_excerpt(&x, &y, &first, NULL));
	size_t from, to, near, near_len;
	lines_excerpt_miss(&x, &y, &from, &to, &near, &near_len);
	assert_int_equal(from, 0);
	assert_int_equal(to, 6);
	assert_int_equal(near, 0);
	assert_int_equal(near_len, 7);
	struct lines seg = {0}, win = {0};
	for (size_t i = from; i < to; i++)
		lines_push(&seg, x.v[i].s, x.v[i].len, i + 1);
	for (size_t i = near; i < near + near_len; i++)
		lines_push(&win, y.v[i].s, y.v[i].len, i + 1);
	size_t ai, bi;
	assert_true(lines_first_change(&win, &seg, &ai, &bi));
	assert_int_equal(ai, 1); /* "n = 1048576" is missing */
	assert_int_equal(bi, 1); /* before the page's second line */
	char *diff = lines_diff(&win, "ev", &seg, "page");
	assert_non_null(strstr(diff, "\n-n = 1048576\n"));
	/* that line alone: nothing added, nothing else removed */
	const char *hunk = strstr(diff, "@@");
	assert_non_null(hunk);
	assert_null(strstr(hunk, "\n+"));
	assert_null(strstr(strstr(hunk, "\n-n = ") + 1, "\n-"));
	free(diff);
	lines_free(&seg);
	lines_free(&win);
	lines_free(&x);
	lines_free(&y);
}

/* a changed number keeps the window as long as the excerpt */
static void test_excerpt_miss_changed_line(void **state)
{
	(void)state;
	struct lines x, y;
	split(&x, "pass 1: 0.2 ms\npass 2: 0.7 ms\npass 3: 0.4 ms\n");
	split(&y, HAY);
	lines_normalise(&x);
	size_t from, to, near, near_len;
	lines_excerpt_miss(&x, &y, &from, &to, &near, &near_len);
	assert_int_equal(near, 2);
	assert_int_equal(near_len, 3);
	lines_free(&x);
	lines_free(&y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_trailing_whitespace_trimmed),
		cmocka_unit_test(test_leading_and_trailing_blank_lines_dropped),
		cmocka_unit_test(test_common_indentation_removed),
		cmocka_unit_test(test_tab_and_spaces_do_not_cancel),
		cmocka_unit_test(test_normalise_empty_list),
		cmocka_unit_test(test_lines_equal),
		cmocka_unit_test(test_diff_one_line_changed),
		cmocka_unit_test(test_diff_context_is_two_lines),
		cmocka_unit_test(test_diff_insertion),
		cmocka_unit_test(test_diff_deletion),
		cmocka_unit_test(test_diff_side_without_lines),
		cmocka_unit_test(test_diff_two_hunks),
		cmocka_unit_test(test_diff_nearby_changes_share_a_hunk),
		cmocka_unit_test(test_diff_of_equal_lists_has_no_hunk),
		cmocka_unit_test(test_diff_whitespace_shows),
		cmocka_unit_test(test_diff_large_input_minimal),
		cmocka_unit_test(test_diff_large_input_anchored),
		cmocka_unit_test(test_diff_changed_everywhere_is_linear),
		cmocka_unit_test(test_excerpt_exact_run),
		cmocka_unit_test(test_excerpt_runs_are_consecutive),
		cmocka_unit_test(test_excerpt_ellipsis_one_or_more_lines),
		cmocka_unit_test(test_excerpt_ellipsis_is_not_zero_lines),
		cmocka_unit_test(test_excerpt_ellipsis_takes_earliest_later_match),
		cmocka_unit_test(test_excerpt_not_present_gives_closest_run),
		cmocka_unit_test(test_excerpt_empty_hay_and_empty_excerpt),
		cmocka_unit_test(test_excerpt_with_more_than_64_segments),
		cmocka_unit_test(test_excerpt_with_64_segments_is_checked),
		cmocka_unit_test(test_excerpt_indentation_relative),
		cmocka_unit_test(test_excerpt_many_repeats),
		cmocka_unit_test(test_excerpt_scan_against_keys),
		cmocka_unit_test(test_excerpt_miss_missing_line),
		cmocka_unit_test(test_excerpt_miss_changed_line),
	};
	return cmocka_run_group_tests(tests, NULL, release_patterns);
}

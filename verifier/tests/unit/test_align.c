/* Unit tests of align.c: following a place from one run to the next. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "align.h"
#include "file_tree.h"
#include "numtok.h"
#include "sha256.h"
#include "util.h"

/* An evidence file around stdout lines (hashes are not checked here). */
static void make(struct evidence *ev, const char *const *lines, size_t n)
{
	struct buf b = {0};
	buf_puts(&b, "coursecheck-evidence 1\nlesson: l\nprogram: programs/l/l.cu\n");
	buf_printf(&b, "source-sha256: %064d\nbuild: nvcc -o l l.cu\nrun: ./l\ngpu: NVIDIA H200\n", 0);
	buf_puts(&b, "compute-capability: 9.0\ndriver: 580.159.04\ncuda: 13.0 (V13.0.88)\n");
	buf_printf(&b, "captured: 2026-11-30T10:00:00Z\nnode: n\nexit: 0\nbody-sha256: %064d\n", 0);
	buf_printf(&b, "stdout: %zu\n", n);
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s\n", lines[i]);
	buf_puts(&b, "stderr: 0\n");
	memset(ev, 0, sizeof *ev);
	textfile_from_memory(b.s, b.len, "e.txt", &ev->tf);
	struct evidence_problem prob;
	assert_int_equal(evidence_parse(ev, &prob), 0);
	buf_free(&b);
}

static const char *const OLD[] = {
	"threads  kernel   mismatches   time ms",
	"-------  -------  ----------  --------",
	"     32  racy              0     0.100",
	"     64  racy           2920     0.200",
	"   1024  racy          70320     1.798",
	"all 1049187 checked",
};

/* The new value at the place of the number `number` of old line k. */
static double follow(const struct evidence *a, const struct evidence *b, size_t k, const char *number, size_t *nk)
{
	size_t len;
	const char *line = evidence_stdout(a, k, &len);
	const char *at = strstr(line, number);
	assert_non_null(at);
	size_t col0 = (size_t)(at - line);
	struct alignment al;
	align_runs(a, b, &al);
	size_t idx = align_token_index(a, k, col0);
	struct num_token t;
	bool ok = idx != SIZE_MAX && align_number(&al, a, b, k, idx, nk, &t);
	alignment_free(&al);
	return ok ? t.value : -1;
}

static void test_same_run_aligns_to_itself(void **state)
{
	(void)state;
	struct evidence a;
	make(&a, OLD, 6);
	size_t nk;
	assert_true(follow(&a, &a, 4, "70320", &nk) == 70320);
	assert_int_equal(nk, 4);
	evidence_free(&a);
}

static void test_changed_count_with_wider_column(void **state)
{
	(void)state;
	static const char *const NEW[] = {
		"threads  kernel   mismatches   time ms",
		"-------  -------  ----------  --------",
		"     32  racy              0     0.100",
		"     64  racy           2920     0.200",
		"   1024  racy         170320     1.798",
		"all 1049187 checked",
	};
	struct evidence a, b;
	make(&a, OLD, 6);
	make(&b, NEW, 6);
	size_t nk;
	assert_true(follow(&a, &b, 4, "70320", &nk) == 170320);
	assert_int_equal(nk, 4);
	evidence_free(&a);
	evidence_free(&b);
}

static void test_inserted_line(void **state)
{
	(void)state;
	static const char *const NEW[] = {
		"threads  kernel   mismatches   time ms",
		"-------  -------  ----------  --------",
		"     32  racy              0     0.100",
		"     64  racy           3000     0.200",
		"    256  racy          10000     0.500",
		"   1024  racy          71000     1.800",
		"all 1049187 checked",
	};
	struct evidence a, b;
	make(&a, OLD, 6);
	make(&b, NEW, 7);
	size_t nk;
	assert_true(follow(&a, &b, 4, "70320", &nk) == 71000);
	assert_int_equal(nk, 5);
	assert_true(follow(&a, &b, 3, "2920", &nk) == 3000);
	assert_int_equal(nk, 3);
	evidence_free(&a);
	evidence_free(&b);
}

static void test_removed_line_has_no_place(void **state)
{
	(void)state;
	static const char *const NEW[] = {
		"threads  kernel   mismatches   time ms",
		"-------  -------  ----------  --------",
		"     32  racy              0     0.100",
		"   1024  racy          71000     1.800",
		"all 1049187 checked",
	};
	struct evidence a, b;
	make(&a, OLD, 6);
	make(&b, NEW, 5);
	size_t nk;
	assert_true(follow(&a, &b, 3, "2920", &nk) == -1); /* the 64 row is gone */
	assert_true(follow(&a, &b, 4, "70320", &nk) == 71000);
	assert_int_equal(nk, 3);
	evidence_free(&a);
	evidence_free(&b);
}

static void test_reordered_rows_follow_their_key(void **state)
{
	(void)state;
	static const char *const NEW[] = {
		"threads  kernel   mismatches   time ms",
		"-------  -------  ----------  --------",
		"   1024  racy          71000     1.800",
		"     32  racy              0     0.100",
		"     64  racy           3000     0.200",
		"all 1049187 checked",
	};
	struct evidence a, b;
	make(&a, OLD, 6);
	make(&b, NEW, 6);
	size_t nk;
	assert_true(follow(&a, &b, 4, "70320", &nk) == 71000);
	assert_int_equal(nk, 2);
	assert_true(follow(&a, &b, 3, "2920", &nk) == 3000);
	assert_int_equal(nk, 4);
	evidence_free(&a);
	evidence_free(&b);
}

static void test_place_names(void **state)
{
	(void)state;
	struct evidence a;
	make(&a, OLD, 6);
	size_t len;
	const char *s = evidence_stdout(&a, 4, &len);
	struct num_token *t;
	size_t n = numtok_scan(s, len, &t);
	assert_int_equal(n, 3);
	char row[64], col[64];
	align_place_names(&a, 4, &t[1], row, sizeof row, col, sizeof col);
	assert_string_equal(row, "1024 racy");
	assert_string_equal(col, "mismatches");
	align_place_names(&a, 4, &t[2], row, sizeof row, col, sizeof col);
	assert_string_equal(col, "time ms");
	free(t);
	evidence_free(&a);
}

/* align_header_lines, align_header_words and align_word_over against
 * align_header_line and align_header_word, the general path, on every
 * line of ev and every number of it, and on every span [a, b) of bytes
 * (a number anywhere, over a word or a gap or its edges).  Returns the
 * numbers compared. */
static size_t assert_header_paths_agree(const struct evidence *ev)
{
	size_t compared = 0;
	size_t *hdr = malloc((ev->n_stdout + 1) * sizeof *hdr);
	assert_non_null(hdr);
	align_header_lines(ev, hdr);
	for (size_t k = 0; k < ev->n_stdout; k++) {
		size_t header = align_header_line(ev, k);
		assert_int_equal(hdr[k], header);
		struct align_word *words;
		size_t nw = align_header_words(ev, header, &words), hl = 0;
		if (header != SIZE_MAX)
			evidence_stdout(ev, header, &hl);
		else
			assert_int_equal(nw, 0);
		for (size_t a = 0; a <= hl + 1; a++)
			for (size_t b = a + 1; b <= hl + 2; b++) {
				struct num_token tok = {.start = a, .end = b};
				const char *w = NULL;
				size_t wl = 0;
				bool general = align_header_word(ev, header, &tok, &w, &wl);
				const struct align_word *fast = align_word_over(words, nw, &tok);
				assert_int_equal(general, fast != NULL);
				if (fast) {
					const char *h = evidence_stdout(ev, header, &(size_t){0});
					assert_ptr_equal(w, h + fast->start);
					assert_int_equal(wl, fast->end - fast->start);
				}
				compared++;
			}
		free(words);
	}
	free(hdr);
	return compared;
}

static void test_header_fast_path_agrees(void **state)
{
	(void)state;
	static const char *const HOSTILE[] = {
		"",
		"   ---",
		"a b  c\t d   e f",
		"  --  ",
		"x  y",
		"----",
		" two words  and\tthree   ",
		"  - - -  ",
		"10 20",
		"header  with  spaced  cells  ",
		"-------  -- ------",
		"---",
		"  99  1 2 3",
	};
	struct evidence ev;
	make(&ev, OLD, 6);
	assert_true(assert_header_paths_agree(&ev) > 0);
	evidence_free(&ev);
	make(&ev, HOSTILE, sizeof HOSTILE / sizeof *HOSTILE);
	assert_true(assert_header_paths_agree(&ev) > 0);
	evidence_free(&ev);
}

/* The same over the course's evidence files (a file_tree_fn). */
static size_t compare_evidence_file(const char *path, const struct stat *st)
{
	FILE *f = fopen(path, "rb");
	if (!f || st->st_size > 4 << 20) {
		if (f)
			fclose(f);
		return 0;
	}
	char *text = malloc((size_t)st->st_size + 1);
	assert_non_null(text);
	size_t len = fread(text, 1, (size_t)st->st_size, f);
	fclose(f);
	struct evidence ev;
	memset(&ev, 0, sizeof ev);
	textfile_from_memory(text, len, path, &ev.tf);
	free(text);
	struct evidence_problem prob;
	size_t used = 0;
	if (evidence_parse(&ev, &prob) == 0)
		used = assert_header_paths_agree(&ev) > 0;
	evidence_free(&ev);
	return used;
}

static void test_header_fast_path_agrees_on_course(void **state)
{
	(void)state;
	assert_true(file_tree_visit("evidence", compare_evidence_file) > 0);
	file_tree_visit("verifier/tests/cases", compare_evidence_file);
}

static int release_patterns(void **state)
{
	(void)state;
	numtok_release_patterns();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_run_aligns_to_itself),
		cmocka_unit_test(test_changed_count_with_wider_column),
		cmocka_unit_test(test_inserted_line),
		cmocka_unit_test(test_removed_line_has_no_place),
		cmocka_unit_test(test_reordered_rows_follow_their_key),
		cmocka_unit_test(test_place_names),
		cmocka_unit_test(test_header_fast_path_agrees),
		cmocka_unit_test(test_header_fast_path_agrees_on_course),
	};
	return cmocka_run_group_tests(tests, NULL, release_patterns);
}

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
	};
	return cmocka_run_group_tests(tests, NULL, release_patterns);
}

/*
 * test_bank.c - the bank's stdout view (bank_stdout_entries) against the
 * whole bank: the same entries, in the same order, as the whole bank's
 * entries whose where is NULL; built from deferred files without banking
 * their other streams and command lines; kept at fixed addresses; and
 * refused once evidence is added after it was built.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bank.h"

/* Two runs: the second prints most lines of the first again, plus its
 * own; numbers on the command lines and in stderr too. */
static const char text_a[] =
	"coursecheck-evidence 1\n"
	"lesson: a\nprogram: programs/a/a.cu\n"
	"source-sha256: 0000000000000000000000000000000000000000000000000000000000000000\n"
	"build: nvcc -O3 -o a a.cu\nrun: ./a 128\ngpu: NVIDIA H200\ncompute-capability: 9.0\ndriver: 580.159.04\n"
	"cuda: 13.0 (V13.0.88)\ncaptured: 2026-11-30T10:05:12Z\nnode: n\nexit: 0\n"
	"runs: main check\nrun.check: ./a 64\nexit.check: 0\n"
	"body-sha256: 0000000000000000000000000000000000000000000000000000000000000000\n"
	"stdout: 3\n"
	"elements: 1049187\n"
	"     32  inclusive, in place    0    0.0\n"
	"took 1.810 ms\n"
	"stderr: 1\n"
	"warning 7\n"
	"stdout.check: 3\n"
	"elements: 1049187\n"
	"     64  inclusive, in place    3120    0.3\n"
	"took 1.811 ms\n"
	"stderr.check: 0\n";

static const char text_b[] =
	"coursecheck-evidence 1\n"
	"lesson: b\nprogram: programs/b/b.cu\n"
	"source-sha256: 0000000000000000000000000000000000000000000000000000000000000000\n"
	"build: nvcc -o b b.cu\nrun: ./b 4 256\ngpu: NVIDIA H200\ncompute-capability: 9.0\ndriver: 580.159.04\n"
	"cuda: 13.0 (V13.0.88)\ncaptured: 2026-11-30T10:05:12Z\nnode: n\nexit: 0\n"
	"body-sha256: 0000000000000000000000000000000000000000000000000000000000000000\n"
	"stdout: 2\n"
	"blocks: 4099\n"
	"bandwidth 3.2 TB/s\n"
	"stderr: 0\n";

static struct evidence ev_a, ev_b;
static struct evfile file_a, file_b;

static void load(struct evfile *f, struct evidence *e, const char *text, const char *path)
{
	memset(f, 0, sizeof *f); /* LOAD_OK, outside any course cache: the bank scans lines itself */
	memset(e, 0, sizeof *e);
	f->path = (char *)path;
	f->ev = e;
	textfile_from_memory(text, strlen(text), path, &e->tf);
	struct evidence_problem prob;
	assert_int_equal(evidence_parse(e, &prob), 0);
}

static int setup(void **state)
{
	(void)state;
	load(&file_a, &ev_a, text_a, "evidence/a/run.txt");
	load(&file_b, &ev_b, text_b, "evidence/b/run.txt");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	evidence_free(&ev_a);
	evidence_free(&ev_b);
	return 0;
}

static bool same_entry(const struct bank_entry *x, const struct bank_entry *y)
{
	return x->ev == y->ev && x->line == y->line && x->stdout_index == y->stdout_index &&
	       x->tok.start == y->tok.start && x->tok.end == y->tok.end && x->tok.value == y->tok.value &&
	       x->where == y->where;
}

/* The view equals the whole bank's entries with where NULL, in order. */
static void assert_view_is_filter(const struct bank *b, const struct bank_entry *v, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < b->n; i++) {
		if (b->v[i].where)
			continue;
		assert_true(k < n);
		assert_true(same_entry(&v[k], &b->v[i]));
		k++;
	}
	assert_int_equal(k, n);
}

static void test_view_of_deferred_files(void **state)
{
	(void)state;
	struct bank b = {0};
	bank_defer_evidence(&b, &file_a);
	bank_defer_evidence(&b, &file_b);
	const struct bank_entry *v;
	size_t n;
	assert_true(bank_stdout_entries(&b, &v, &n));
	assert_int_equal(b.n, 0); /* nothing else banked for it */
	/* 13.0 and 9.0 of each header, a's three stdout lines (1049187, 32, 0,
	 * 0.0, 1.810), b's two (4099, 3.2) */
	assert_int_equal(n, 2 * 2 + 5 + 2);
	const struct bank_entry *again;
	size_t n_again;
	assert_true(bank_stdout_entries(&b, &again, &n_again));
	assert_ptr_equal(again, v); /* built once, never moved */
	bank_ready(&b);
	assert_true(b.n > n); /* stderr, the second run, the command lines */
	assert_true(bank_stdout_entries(&b, &again, &n_again));
	assert_ptr_equal(again, v);
	assert_view_is_filter(&b, v, n);
	/* the order is the whole bank's: a's entries before b's */
	assert_ptr_equal(v[0].ev, &file_a);
	assert_ptr_equal(v[n - 1].ev, &file_b);
	bank_free(&b);
}

static void test_view_of_banked_files(void **state)
{
	(void)state;
	struct bank b = {0};
	bank_add_evidence(&b, &file_a);
	bank_defer_evidence(&b, &file_b);
	const struct bank_entry *v;
	size_t n;
	assert_true(bank_stdout_entries(&b, &v, &n));
	bank_ready(&b);
	assert_view_is_filter(&b, v, n);
	bank_free(&b);
}

static void test_view_refused_after_more_evidence(void **state)
{
	(void)state;
	struct bank b = {0};
	bank_defer_evidence(&b, &file_a);
	const struct bank_entry *v = NULL;
	size_t n = 0;
	assert_true(bank_stdout_entries(&b, &v, &n));
	bank_add_evidence(&b, &file_b);
	const struct bank_entry *w = NULL;
	size_t m = 0;
	assert_false(bank_stdout_entries(&b, &w, &m));
	assert_null(w);
	/* the entries handed out before stay readable */
	assert_int_equal(v[0].tok.value, 13.0);
	bank_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_view_of_deferred_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_of_banked_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_refused_after_more_evidence, setup, teardown),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	numtok_release_patterns();
	return rc;
}

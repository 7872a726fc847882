/*
 * test_bank.c - the bank's stdout view (bank_stdout_count) against the
 * whole bank: the same entries, in the same order, as the whole bank's
 * entries whose where is NULL; built from deferred files without banking
 * their other streams and command lines; kept at fixed addresses; and
 * refused once evidence is added after it was built; and
 * bank_find_stdout_first giving bank_find's entry for every kind of
 * number (first stdout, headers, stderr, a later run, a command line,
 * none), banking the rest only when the view has no answer; and
 * bank_find_value_stdout_first doing the same for bank_find_value; and
 * the index by value answering every look-up (bank_find, bank_find_value,
 * bank_traces, bank_nearest, bank_next_stdout_line) exactly as a scan of
 * the whole bank does, over an evidence of random numbers (repeats, ties,
 * zeros, signs, huge and tiny values); and a second bank viewing the
 * same files making its view from the blocks the first kept with them
 * (course_evidence_keep, stood in for here), entry for entry the view a
 * scan makes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bank.h"
#include "numtok.h"

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
	"bandwidth 3.2 TB/s, 7 passes\n"
	"stderr: 0\n";

static struct evidence ev_a, ev_b;
static struct evfile file_a, file_b;

/* The course model's keep for a file's derived block (course.h), stood in
 * for here, one block a file: a test sets keeping, and counts what the
 * bank keeps and finds kept.  Off, the bank scans every view. */
static struct {
	bool on;
	const struct evfile *ev[2];
	void *data[2];
	size_t len[2], kept, found;
} keeper;

static size_t keeper_slot(const struct evfile *ev)
{
	return ev == &file_a ? 0 : 1;
}

void course_evidence_keep(const struct evfile *ev, void *data, size_t len)
{
	if (!keeper.on) {
		free(data);
		return;
	}
	size_t k = keeper_slot(ev);
	free(keeper.data[k]);
	keeper.ev[k] = ev;
	keeper.data[k] = data;
	keeper.len[k] = len;
	keeper.kept++;
}

const void *course_evidence_kept(const struct evfile *ev, size_t *len)
{
	size_t k = keeper_slot(ev);
	*len = keeper.on && keeper.data[k] ? keeper.len[k] : 0;
	if (!*len)
		return NULL;
	keeper.found++;
	return keeper.data[k];
}

static void keeper_off(void)
{
	for (size_t k = 0; k < 2; k++)
		free(keeper.data[k]);
	memset(&keeper, 0, sizeof keeper);
}

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
	keeper_off(); /* a failed test leaves nothing kept for the next */
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
static void assert_view_is_filter(const struct bank *b, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < bank_count(b); i++) {
		if (bank_entry_at(b, i)->where)
			continue;
		assert_true(k < n);
		assert_true(same_entry(bank_stdout_at(b, k), bank_entry_at(b, i)));
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
	size_t n;
	assert_true(bank_stdout_count(&b, &n));
	assert_int_equal(b.all.n, 0); /* nothing else banked for it */
	/* 13.0 and 9.0 of each header, a's three stdout lines (1049187, 32, 0,
	 * 0.0, 1.810), b's two (4099, 3.2, 7) */
	assert_int_equal(n, 2 * 2 + 5 + 3);
	const struct bank_entry *first = bank_stdout_at(&b, 0), *last = bank_stdout_at(&b, n - 1);
	size_t n_again;
	assert_true(bank_stdout_count(&b, &n_again));
	assert_int_equal(n_again, n);
	assert_ptr_equal(bank_stdout_at(&b, 0), first); /* made once, never moved */
	bank_ready(&b);
	assert_true(b.all.n > n); /* stderr, the second run, the command lines */
	assert_true(bank_stdout_count(&b, &n_again));
	assert_ptr_equal(bank_stdout_at(&b, 0), first);
	assert_ptr_equal(bank_stdout_at(&b, n - 1), last);
	assert_view_is_filter(&b, n);
	/* the order is the whole bank's: a's entries before b's */
	assert_ptr_equal(first->ev, &file_a);
	assert_ptr_equal(last->ev, &file_b);
	/* an entry's order is its place: the view's, the bank's */
	assert_int_equal(last->order, n - 1);
	assert_int_equal(bank_entry_at(&b, bank_count(&b) - 1)->order, bank_count(&b) - 1);
	bank_free(&b);
}

static void test_view_of_banked_files(void **state)
{
	(void)state;
	struct bank b = {0};
	bank_add_evidence(&b, &file_a);
	bank_defer_evidence(&b, &file_b);
	size_t n;
	assert_true(bank_stdout_count(&b, &n));
	bank_ready(&b);
	assert_view_is_filter(&b, n);
	bank_free(&b);
}

static void test_view_refused_after_more_evidence(void **state)
{
	(void)state;
	struct bank b = {0};
	bank_defer_evidence(&b, &file_a);
	size_t n = 0;
	assert_true(bank_stdout_count(&b, &n));
	const struct bank_entry *v = bank_stdout_at(&b, 0);
	bank_add_evidence(&b, &file_b);
	size_t m = 12345;
	assert_false(bank_stdout_count(&b, &m));
	assert_int_equal(m, 12345);
	/* the entries handed out before stay readable */
	assert_int_equal(v->tok.value, 13.0);
	bank_free(&b);
}

/* A second bank that views the same files (a page citing the lesson
 * checked just before) makes its view from the blocks the first kept,
 * scanning nothing: the same entries, in the same order, with the same
 * stdout lines, as a view scanned afresh. */
static void test_view_from_kept_blocks(void **state)
{
	(void)state;
	struct bank fresh = {0}, first = {0}, second = {0};
	bank_defer_evidence(&fresh, &file_a);
	bank_defer_evidence(&fresh, &file_b);
	size_t n_fresh, n_first, n_second;
	assert_true(bank_stdout_count(&fresh, &n_fresh));
	keeper.on = true;
	bank_defer_evidence(&first, &file_a);
	bank_defer_evidence(&first, &file_b);
	assert_true(bank_stdout_count(&first, &n_first));
	assert_int_equal(keeper.kept, 2);
	assert_int_equal(keeper.found, 0);
	bank_defer_evidence(&second, &file_a);
	bank_defer_evidence(&second, &file_b);
	assert_true(bank_stdout_count(&second, &n_second));
	assert_int_equal(keeper.kept, 2); /* nothing scanned, nothing kept again */
	assert_int_equal(keeper.found, 2);
	assert_int_equal(n_first, n_fresh);
	assert_int_equal(n_second, n_fresh);
	for (size_t i = 0; i < n_fresh; i++) {
		assert_true(same_entry(bank_stdout_at(&first, i), bank_stdout_at(&fresh, i)));
		assert_true(same_entry(bank_stdout_at(&second, i), bank_stdout_at(&fresh, i)));
	}
	/* and the whole bank still starts from the view it was given */
	bank_ready(&second);
	assert_view_is_filter(&second, n_second);
	bank_free(&fresh);
	bank_free(&first);
	bank_free(&second);
	keeper_off();
}

/* The page number text as the tokenizer reads it (one number). */
static struct num_token page_number(const char *text)
{
	struct num_token *toks;
	size_t n = numtok_scan(text, strlen(text), &toks);
	assert_int_equal(n, 1);
	struct num_token t = toks[0];
	free(toks);
	return t;
}

/* Both files twice: deferred (the lookups under test) and banked whole (the
 * plain lookups they must agree with), streams interleaved in bank order. */
static void bank_two_files(struct bank *deferred, struct bank *whole)
{
	*deferred = (struct bank){0};
	*whole = (struct bank){0};
	bank_defer_evidence(deferred, &file_a);
	bank_defer_evidence(deferred, &file_b);
	bank_add_evidence(whole, &file_a);
	bank_add_evidence(whole, &file_b);
}

/* A lookup the stdout view answered banks nothing; one it could not
 * answer banked the rest of the file to look there. */
static void assert_banked_only_past_view(const struct bank *b, bool in_view)
{
	if (in_view)
		assert_int_equal(b->all.n, 0);
	else
		assert_true(b->all.n > 0);
}

static void assert_same_find(const struct bank_entry *x, const struct bank_entry *y, const char *text)
{
	if (!x || !y) {
		if (x != y)
			fail_msg("%s: one lookup found it, the other did not", text);
		return;
	}
	/* banks of their own: each keeps its where texts, so compare them as text */
	bool same_where = x->where == y->where || (x->where && y->where && strcmp(x->where, y->where) == 0);
	if (x->ev != y->ev || x->line != y->line || x->stdout_index != y->stdout_index || x->tok.start != y->tok.start ||
	    x->tok.end != y->tok.end || x->tok.value != y->tok.value || !same_where)
		fail_msg("%s: line %zu col %zu against line %zu col %zu", text, x->line, (size_t)x->tok.start, y->line, (size_t)y->tok.start);
}

static void test_find_stdout_first(void **state)
{
	(void)state;
	/* first stdout, a header, stderr, the later run only, a command
	 * line only, in both runs (first stdout wins), and nowhere; 7 is in
	 * a's stderr and b's stdout, so a view-first lookup over both files
	 * would take b's where bank order gives a's */
	static const char *const numbers[] = {"1,049,187", "1.810", "32", "9.0", "7", "3120", "64",
					      "128", "1.811", "0.3", "99999"};
	static const bool in_view[] = {true, true, true, true, false, false, false, false, false, false, false};
	struct bank whole = {0};
	bank_add_evidence(&whole, &file_a);
	for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
		struct num_token t = page_number(numbers[i]);
		struct bank one = {0};
		bank_defer_evidence(&one, &file_a);
		const struct bank_entry *fast = bank_find_stdout_first(&one, &t);
		assert_same_find(fast, bank_find(&whole, &t), numbers[i]);
		/* a number the view holds banks nothing more */
		assert_banked_only_past_view(&one, in_view[i]);
		bank_free(&one);
		/* two files interleave their streams: plain bank_find order */
		struct bank two, two_whole;
		bank_two_files(&two, &two_whole);
		assert_same_find(bank_find_stdout_first(&two, &t), bank_find(&two_whole, &t), numbers[i]);
		bank_free(&two);
		bank_free(&two_whole);
	}
	bank_free(&whole);
}

/* bank_find_value_stdout_first gives bank_find_value's entry for the
 * literals of every kind of place (as test_find_stdout_first), at the
 * decimals a derivation writes, and banks the rest only when the view
 * has no answer; two files keep plain bank order. */
static void test_find_value_stdout_first(void **state)
{
	(void)state;
	static const struct {
		double value;
		int decimals;
		bool in_view;
	} literals[] = {
		{1049187, 0, true}, {1.81, 3, true}, {1.81, 2, true}, {32, 0, true}, {9.0, 1, true}, {7, 0, false},
		{3120, 0, false},   {64, 0, false},  {128, 0, false}, {1.811, 3, false}, {0.3, 1, false}, {99999, 0, false},
		{4099, 0, false},
	};
	struct bank whole = {0};
	bank_add_evidence(&whole, &file_a);
	for (size_t i = 0; i < sizeof literals / sizeof *literals; i++) {
		char text[48];
		snprintf(text, sizeof text, "%.*f", literals[i].decimals, literals[i].value);
		struct bank one = {0};
		bank_defer_evidence(&one, &file_a);
		const struct bank_entry *fast = bank_find_value_stdout_first(&one, literals[i].value, literals[i].decimals);
		assert_same_find(fast, bank_find_value(&whole, literals[i].value, literals[i].decimals), text);
		assert_banked_only_past_view(&one, literals[i].in_view);
		bank_free(&one);
		struct bank two, two_whole;
		bank_two_files(&two, &two_whole);
		assert_same_find(bank_find_value_stdout_first(&two, literals[i].value, literals[i].decimals),
				 bank_find_value(&two_whole, literals[i].value, literals[i].decimals), text);
		bank_free(&two);
		bank_free(&two_whole);
	}
	bank_free(&whole);
}

/* ---- the index against scans ------------------------------------------ */

/* The scans the index stands for, as bank.c did them before it. */
static bool scan_traces(const struct num_token *page, const struct num_token *e)
{
	double half = 0.5 * pow(10, -(page->decimals > 300 ? 300 : page->decimals));
	return fabs(e->value - page->value) <= half * (1 + 1e-9) + 1e-12 * fabs(page->value) &&
	       numtok_traces_to(page, e);
}

static bool scan_holds(const struct num_token *e, double value, int decimals)
{
	double scale = pow(10, decimals > 15 ? 15 : decimals);
	return llround(e->value * scale) == llround(value * scale) && fabs(e->value - value) <= 0.5 / scale;
}

static double scan_rel(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));
	return m == 0 ? 0 : fabs(a - b) / m;
}

static size_t scan_nearest(const struct bank *b, double value, const struct bank_entry **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < bank_count(b); i++) {
		const struct bank_entry *e = bank_entry_at(b, i);
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup |= out[k]->tok.value == e->tok.value;
		if (dup)
			continue;
		double d = scan_rel(value, e->tok.value);
		size_t pos = n;
		while (pos > 0 && scan_rel(value, out[pos - 1]->tok.value) > d)
			pos--;
		if (pos >= max)
			continue;
		size_t last = n < max ? n : max - 1;
		for (size_t k = last; k > pos; k--)
			out[k] = out[k - 1];
		out[pos] = e;
		if (n < max)
			n++;
	}
	return n;
}

/* bank_find_row as update read the old run before it: the first stdout
 * entry in bank order row[0] traces to, whose line's later entries take
 * the rest of the row in order. */
static bool scan_row(const struct bank *b, const struct num_token *row, size_t n, const struct bank_entry **at)
{
	for (size_t i = 0; i < bank_count(b); i++) {
		const struct bank_entry *first = bank_entry_at(b, i);
		if (first->stdout_index == SIZE_MAX || !numtok_traces_to(&row[0], &first->tok))
			continue;
		size_t k = 0;
		for (size_t j = i; j < bank_count(b) && k < n && bank_entry_at(b, j)->line == first->line; j++)
			if (numtok_traces_to(&row[k], &bank_entry_at(b, j)->tok))
				at[k++] = bank_entry_at(b, j);
		if (k == n)
			return true;
	}
	return false;
}

/* A number as a page or an evidence line may print it, from a small
 * alphabet of values so that many repeat and many lie near each other. */
static void random_number(char *out, size_t len, unsigned *seed)
{
	static const char *const forms[] = {"%.0f", "%.1f", "%.2f", "%.3f", "%.0f", "%.1f"};
	static const double bases[] = {0, 1, 2.5, 10, 99.5, 100, 1024, 1e6, 3.25e9, 1e15, 7e-5};
	double v = bases[rand_r(seed) % (sizeof bases / sizeof *bases)];
	v *= 1 + (rand_r(seed) % 7) / 100.0;
	if (rand_r(seed) % 4 == 0)
		v = -v;
	snprintf(out, len, forms[rand_r(seed) % (sizeof forms / sizeof *forms)], v);
}

static void test_index_answers_as_scans(void **state)
{
	(void)state;
	unsigned seed = 12345;
	struct buf text = {0};
	buf_puts(&text, "coursecheck-evidence 1\nlesson: r\nprogram: programs/r/r.cu\n"
			"source-sha256: 0000000000000000000000000000000000000000000000000000000000000000\n"
			"build: nvcc -o r r.cu\nrun: ./r 4 256\ngpu: NVIDIA H200\ncompute-capability: 9.0\n"
			"driver: 580.159.04\ncuda: 13.0 (V13.0.88)\ncaptured: 2026-11-30T10:05:12Z\nnode: n\nexit: 0\n"
			"body-sha256: 0000000000000000000000000000000000000000000000000000000000000000\nstdout: 400\n");
	for (int i = 0; i < 400; i++) {
		char a[64], b[64];
		random_number(a, sizeof a, &seed);
		random_number(b, sizeof b, &seed);
		buf_printf(&text, "row %d  %s  x %s\n", i, a, b);
	}
	buf_puts(&text, "stderr: 1\nwarning 12.5\n");
	struct evidence ev;
	struct evfile file;
	load(&file, &ev, text.s, "evidence/r/run.txt");
	struct bank b = {0};
	bank_add_evidence(&b, &file);
	size_t rows_found = 0;
	for (int q = 0; q < 3000; q++) {
		char page_text[64];
		random_number(page_text, sizeof page_text, &seed);
		struct num_token *t;
		assert_int_equal(numtok_scan(page_text, strlen(page_text), &t), 1);
		const struct bank_entry *want = NULL;
		size_t want_count[2] = {0, 0}, want_line = SIZE_MAX, from = (size_t)(rand_r(&seed) % 400);
		for (size_t i = 0; i < bank_count(&b); i++) {
			const struct bank_entry *e = bank_entry_at(&b, i);
			if (scan_traces(t, &e->tok)) {
				want = want ? want : e;
				want_count[e->where != NULL]++;
				if (!e->where && e->stdout_index != SIZE_MAX && e->stdout_index >= from &&
				    e->stdout_index < want_line)
					want_line = e->stdout_index;
			}
		}
		assert_ptr_equal(bank_find(&b, t), want);
		const struct bank_entry *got[4];
		for (int other = 0; other <= 1; other++) {
			size_t n = bank_traces(&b, t, other, got, 4), k = 0;
			assert_int_equal(n, want_count[other]);
			for (size_t i = 0; i < bank_count(&b) && k < 4; i++) /* the first four, in bank order */
				if ((bank_entry_at(&b, i)->where != NULL) == other && scan_traces(t, &bank_entry_at(&b, i)->tok))
					assert_ptr_equal(got[k++], bank_entry_at(&b, i));
		}
		assert_int_equal(bank_next_stdout_line(&b, &file, t, from), want_line);
		const struct bank_entry *want_value = NULL;
		for (size_t i = 0; i < bank_count(&b) && !want_value; i++)
			if (scan_holds(&bank_entry_at(&b, i)->tok, t->value, t->decimals))
				want_value = bank_entry_at(&b, i);
		assert_ptr_equal(bank_find_value(&b, t->value, t->decimals), want_value);
		const struct bank_entry *near[3], *want_near[3];
		size_t nn = bank_nearest(&b, t->value, near, 3);
		assert_int_equal(nn, scan_nearest(&b, t->value, want_near, 3));
		for (size_t i = 0; i < nn; i++)
			assert_ptr_equal(near[i], want_near[i]);
		/* a table row: two numbers of a random line (their values recur
		 * on other lines), or the page number and one of them */
		size_t pick = (size_t)rand_r(&seed) % bank_count(&b);
		const struct bank_entry *e = bank_entry_at(&b, pick);
		if (pick + 1 < bank_count(&b) && bank_entry_at(&b, pick + 1)->line == e->line) {
			struct num_token row[2] = {q % 2 ? e->tok : *t, bank_entry_at(&b, pick + 1)->tok};
			const struct bank_entry *at[2] = {NULL, NULL}, *want_at[2] = {NULL, NULL};
			bool got_row = bank_find_row(&b, row, 2, at), want_row = scan_row(&b, row, 2, want_at);
			assert_int_equal(got_row, want_row);
			if (want_row) {
				assert_ptr_equal(at[0], want_at[0]);
				assert_ptr_equal(at[1], want_at[1]);
			} else {
				assert_null(at[0]); /* untouched */
			}
			rows_found += want_row;
		}
		free(t);
	}
	assert_true(rows_found > 500); /* the row look-ups found rows, not only none */
	bank_free(&b);
	evidence_free(&ev);
	buf_free(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_view_of_deferred_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_of_banked_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_refused_after_more_evidence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_from_kept_blocks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_find_stdout_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_find_value_stdout_first, setup, teardown),
		cmocka_unit_test(test_index_answers_as_scans),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	numtok_release_patterns();
	return rc;
}

/*
 * test_parallel.c - parallel_run (parallel.h): the output of several
 * workers is byte for byte that of one process, in item order, with the
 * counts and checks, whether workers take the items in order or in
 * chunks out of order; a shared file's once region is kept at its first
 * item only; an item of more output than a pipe holds does not hang; a
 * worker killed while it checks an item leaves worker-failed at that
 * item (an error) and the other items' findings whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "diag_internal.h"
#include "diagwire.h"
#include "parallel.h"
#include "util.h"

#define N_ITEMS 9

struct test_job {
	FILE *out;     /* diag's stream too: begin and end lines go between the findings */
	pid_t parent;
	size_t crash;  /* the item that kills its worker (SIZE_MAX: none) */
	char names[N_ITEMS][32];
	size_t ended;
};

static bool loaded; /* the shared file, in this process */

static int run(size_t i, void *ctx)
{
	struct test_job *t = ctx;
	if (i == t->crash && getpid() != t->parent)
		raise(SIGKILL);
	diag_file_begin(t->names[i], NULL);
	/* every item reads the shared file, loaded once a process as course.c
	 * does: one process reports it at item 0, a worker at its first item
	 * and again (touch) at each later one */
	if (!loaded) {
		loaded = true;
		diag_once_begin("evidence", "evidence/shared.txt");
		diag_report(D_EVIDENCE_EDITED, (struct diag_loc){.path = "evidence/shared.txt", .line = 3}, "shared");
		diag_once_end();
	} else {
		diag_once_touch("evidence", "evidence/shared.txt");
	}
	/* item 4 says more than a pipe holds (64 KiB) */
	size_t n = i == 4 ? 3000 : i + 1;
	for (size_t k = 0; k < n; k++) {
		struct diag *d = diag_begin(D_NUMBER_UNTRACED, (struct diag_loc){t->names[i], k + 1, 2, 3, "a 123 b", 7},
					    "%zu is not in the evidence (%zu)", k, i);
		diag_hint(d, "quote the evidence");
		diag_end(d);
	}
	diag_checks_add(i + 1);
	diag_file_end();
	return (int)i;
}

static void begin(size_t i, void *ctx)
{
	struct test_job *t = ctx;
	fprintf(t->out, "begin %zu\n", i);
}

static void end(size_t i, int result, void *ctx)
{
	struct test_job *t = ctx;
	fprintf(t->out, "end %zu: %d\n", i, result);
	t->ended++;
}

static const char *name(size_t i, void *ctx)
{
	return ((struct test_job *)ctx)->names[i];
}

struct outcome {
	char *text;
	size_t errors, checks, failed, worker_failed, ended;
};

/* Chunks of three items each, taken backwards: workers take items out of
 * order.  forwards: in order (one process then replays each item as it
 * ends, and keeps no region). */
static const size_t backwards[N_ITEMS] = {8, 7, 6, 5, 4, 3, 2, 1, 0};
static const size_t forwards[N_ITEMS] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
static const size_t threes[] = {0, 3, 6, 9};

static struct outcome run_with(size_t jobs, size_t crash, const size_t *order)
{
	struct test_job t = {.parent = getpid(), .crash = crash};
	for (size_t i = 0; i < N_ITEMS; i++)
		snprintf(t.names[i], sizeof t.names[i], "pages/p%zu.md", i);
	char *buf = NULL;
	size_t len = 0;
	t.out = open_memstream(&buf, &len);
	assert_non_null(t.out);
	diag_init(t.out, false);
	diag_set_run_policy((struct diag_policy){0});
	diag_release(); /* no key claimed by an earlier run */
	diagwire_release();
	loaded = false;
	size_t e0 = diag_count(DIAG_ERROR), c0 = diag_checks(), w0 = diag_count_kind(D_WORKER_FAILED);
	struct parallel_job job = {.n_items = N_ITEMS, .run = run, .begin = begin, .end = end, .name = name, .ctx = &t};
	if (order) {
		job.order = order;
		job.chunk = threes;
		job.n_chunks = 3;
	}
	struct outcome o = {0};
	o.failed = parallel_run(&job, jobs);
	fclose(t.out);
	diag_init(stderr, false);
	o.text = buf;
	o.errors = diag_count(DIAG_ERROR) - e0;
	o.checks = diag_checks() - c0;
	o.worker_failed = diag_count_kind(D_WORKER_FAILED) - w0;
	o.ended = t.ended;
	return o;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
		n++;
	return n;
}

static void same_as_one_process(void **state)
{
	(void)state;
	struct outcome one = run_with(1, SIZE_MAX, NULL);
	/* one process: the shared file at item 0 only, item 4 capped */
	assert_int_equal(count(one.text, "[evidence-edited]"), 1);
	assert_non_null(strstr(one.text, "begin 0\nevidence/shared.txt:3: error: shared [evidence-edited]"));
	assert_non_null(strstr(one.text, "pages/p4.md: note: 2800 more diagnostics not shown"));
	assert_int_equal(one.failed, 0);
	assert_int_equal(one.ended, N_ITEMS);
	/* 2 and 5 workers, by item and in chunks; then one process in
	 * chunks (the items forwarded and replayed), backwards and forwards */
	static const struct {
		size_t jobs;
		const size_t *order;
	} runs[] = {{2, NULL}, {5, NULL}, {2, backwards}, {5, backwards}, {1, backwards}, {1, forwards}};
	for (size_t run = 0; run < sizeof runs / sizeof *runs; run++) {
		struct outcome many = run_with(runs[run].jobs, SIZE_MAX, runs[run].order);
		assert_string_equal(many.text, one.text);
		assert_int_equal(many.errors, one.errors);
		assert_int_equal(many.checks, one.checks);
		assert_int_equal(many.failed, 0);
		assert_int_equal(many.ended, N_ITEMS);
		free(many.text);
	}
	free(one.text);
	diag_release();
}

static void more_workers_than_items(void **state)
{
	(void)state;
	struct outcome one = run_with(1, SIZE_MAX, NULL), many = run_with(64, SIZE_MAX, NULL);
	assert_string_equal(many.text, one.text);
	free(one.text);
	free(many.text);
	diag_release();
}

static void a_killed_worker_is_an_error(void **state)
{
	(void)state;
	struct outcome one = run_with(1, SIZE_MAX, NULL), many = run_with(3, 6, NULL);
	assert_int_equal(many.failed, 1);
	assert_int_equal(many.worker_failed, 1);
	assert_int_equal(many.ended, N_ITEMS);
	assert_non_null(strstr(many.text, "begin 6\npages/p6.md: error: not checked: the worker process that checked it "
					  "was killed by signal 9"));
	assert_non_null(strstr(many.text, "[worker-failed]\nhint: check it in one process to see what stops it: "
					  "'coursecheck verify -j 1 pages/p6.md'\nend 6: 0\nbegin 7\n"));
	/* everything before and after item 6 is what one process printed */
	const char *cut_one = strstr(one.text, "begin 6\n"), *cut_many = strstr(many.text, "begin 6\n");
	assert_int_equal(cut_one - one.text, cut_many - many.text);
	assert_memory_equal(one.text, many.text, (size_t)(cut_one - one.text));
	assert_string_equal(strstr(one.text, "begin 7\n"), strstr(many.text, "begin 7\n"));
	/* item 6's own 7 errors are gone, its worker-failed is one */
	assert_int_equal(many.errors, one.errors - 7 + 1);
	free(one.text);
	free(many.text);
	diag_release();
}

/* Without -j: one process below two workers' worth of pages, then one a
 * PARALLEL_MIN_PAGES_PER_WORKER pages, never more than the cores. */
static void default_jobs_follow_the_work(void **state)
{
	(void)state;
	assert_int_equal(parallel_default_jobs(2, 0), 1);
	assert_int_equal(parallel_default_jobs(2, 1), 1);
	assert_int_equal(parallel_default_jobs(2, 2 * PARALLEL_MIN_PAGES_PER_WORKER - 1), 1);
	assert_int_equal(parallel_default_jobs(2, 2 * PARALLEL_MIN_PAGES_PER_WORKER), 2);
	assert_int_equal(parallel_default_jobs(2, 10000), 2);
	assert_int_equal(parallel_default_jobs(16, 12 * PARALLEL_MIN_PAGES_PER_WORKER + 3), 12);
	assert_int_equal(parallel_default_jobs(1, 10000), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(default_jobs_follow_the_work),
		cmocka_unit_test(same_as_one_process),
		cmocka_unit_test(more_workers_than_items),
		cmocka_unit_test(a_killed_worker_is_an_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_evjudge.c - the one judgement of a run (evjudge.h), point by point:
 * a run of another lesson or program is judged no further; two names of
 * one file are one program; staleness over the lesson's files, by the
 * program's hash where the files are not the lesson's, and when the files
 * cannot be told; a failed run; a shared GPU; every flag alone.
 *
 * The evidence is parsed from text (evidence_parse), as verify reads it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "evjudge.h"
#include "sha256.h"
#include "textfile.h"

#define PROG "programs/day31-scan-1/scan.cu"
#define SHA_A "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define SHA_B "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define BODY "stdout: 1\nOK\nstderr: 0\n"

/* An evidence file of lesson day31-scan-1 with these fields (NULL: the
 * default), parsed; the caller frees it with evidence_free(). */
static void load(struct evidence *ev, const char *program, const char *exit, const char *extra)
{
	char sha[SHA256_HEX_LEN + 1];
	sha256_hex(BODY, strlen(BODY), sha);
	char text[4096];
	snprintf(text, sizeof text,
		 "%s\nlesson: day31-scan-1\nprogram: %s\nsource-sha256: " SHA_A "\nbuild: nvcc -o scan scan.cu\n"
		 "run: ./scan\ngpu: NVIDIA H200\ncompute-capability: 9.0\ndriver: 580.159.04\ncuda: 12.6\n"
		 "captured: 2026-11-30T10:05:12Z\nnode: gpu-node-07\nexit: %s\n%s%sbody-sha256: %s\n" BODY,
		 EVIDENCE_MAGIC, program ? program : PROG, exit ? exit : "0", extra ? extra : "", extra ? "\n" : "",
		 sha);
	struct evidence_problem prob;
	memset(ev, 0, sizeof *ev);
	textfile_from_memory(text, strlen(text), "evidence/day31-scan-1/run-2026-11-30.txt", &ev->tf);
	int rc = evidence_parse(ev, &prob);
	if (rc != 0)
		print_error("%s\n", prob.message);
	assert_int_equal(rc, 0);
}

/* The lesson's files now: its program alone, with source-sha256 sha. */
static void one_file(struct lesson_files *f, struct lesson_file *v, const char *sha)
{
	memset(v, 0, sizeof *v);
	v->path = (char *)PROG;
	snprintf(v->sha, sizeof v->sha, "%s", sha);
	*f = (struct lesson_files){.v = v, .n = 1, .program = 0};
	snprintf(f->sha, sizeof f->sha, "%s", sha);
}

/* Each test's fixture: a run (the default one of load(), replaced with
 * reload()), the lesson's files (one_file() fills them when a test needs
 * them) and the verdict, judged with judge() and freed at teardown. */
struct fixture {
	struct evidence ev;
	struct lesson_file v;
	struct lesson_files f;
	struct evjudge j;
};

static int setup(void **state)
{
	struct fixture *x = calloc(1, sizeof *x);
	if (!x)
		return -1;
	load(&x->ev, NULL, NULL, NULL);
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *x = *state;
	evjudge_free(&x->j);
	evidence_free(&x->ev);
	free(x);
	return 0;
}

/* The run with these fields instead (load()'s arguments). */
static void reload(struct fixture *x, const char *program, const char *exit, const char *extra)
{
	evidence_free(&x->ev);
	load(&x->ev, program, exit, extra);
}

/* Judges the fixture's run afresh; returns the flags. */
static unsigned judge(struct fixture *x, const struct evjudge_in *in)
{
	evjudge_free(&x->j);
	evjudge_run(&x->ev, in, &x->j);
	return x->j.flags;
}

static void test_current_run_has_no_flag(void **state)
{
	struct fixture *x = *state;
	one_file(&x->f, &x->v, SHA_A);
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, &x->f, NULL, false};
	assert_int_equal(judge(x, &in), 0);
	assert_string_equal(x->j.lesson, "day31-scan-1");
	assert_int_equal(x->j.lesson_line, 2);
	assert_string_equal(x->j.program, PROG);
	assert_int_equal(x->j.program_line, 3);
}

static void test_other_lesson_is_judged_no_further(void **state)
{
	struct fixture *x = *state;
	reload(x, NULL, "1", "gpu-exclusive: no"); /* failed and shared too */
	struct evjudge_in in = {"day32-scan-2", PROG, SHA_B, NULL, NULL, false};
	assert_int_equal(judge(x, &in), EVJ_LESSON_MISMATCH);
	assert_null(x->j.changed);
}

static void test_other_program_is_judged_no_further(void **state)
{
	struct fixture *x = *state;
	reload(x, "programs/day31-scan-1/other.cu", "1", NULL);
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_B, NULL, NULL, false};
	assert_int_equal(judge(x, &in), EVJ_PROGRAM_MISMATCH);
	assert_string_equal(x->j.program, "programs/day31-scan-1/other.cu");
}

static void test_two_names_of_one_file_are_one_program(void **state)
{
	struct fixture *x = *state;
	reload(x, "programs/day31-scan-1/./scan.cu", NULL, NULL);
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, NULL, NULL, false};
	assert_int_equal(judge(x, &in), 0);
}

static void test_stale_by_the_programs_hash(void **state)
{
	struct fixture *x = *state;
	struct evjudge_in in = {NULL, PROG, SHA_B, NULL, NULL, false}; /* no files: the program's hash */
	assert_int_equal(judge(x, &in), EVJ_STALE);
	assert_string_equal(x->j.changed, "'" PROG "' changed");
	assert_int_equal(x->j.stale_line, 4); /* source-sha256: */
	assert_string_equal(x->j.was_sha, SHA_A);
	assert_string_equal(x->j.now_sha, SHA_B);
	assert_int_equal(x->j.n_files, 0);
}

static void test_stale_over_the_lessons_files(void **state)
{
	struct fixture *x = *state;
	one_file(&x->f, &x->v, SHA_B);
	/* the program's own hash would say current: the files decide */
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, &x->f, NULL, false};
	assert_int_equal(judge(x, &in), EVJ_STALE);
	assert_string_equal(x->j.changed, "'" PROG "' changed");
	assert_int_equal(x->j.n_files, 1);
	assert_string_equal(x->j.now_sha, SHA_B);
}

static void test_files_of_another_program_fall_back_to_its_hash(void **state)
{
	struct fixture *x = *state;
	one_file(&x->f, &x->v, SHA_B);
	x->v.path = (char *)"programs/day31-scan-1/main.cu"; /* the lesson's program is another file */
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, &x->f, NULL, false};
	assert_int_equal(judge(x, &in), 0);
}

static void test_files_unknown_still_judges_the_programs_hash(void **state)
{
	struct fixture *x = *state;
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_B, NULL, "a link", true};
	assert_int_equal(judge(x, &in), EVJ_FILES_UNKNOWN | EVJ_FILES_REFUSED | EVJ_STALE);
	assert_string_equal(x->j.files_why, "a link");
	in.program_sha = SHA_A;
	in.files_refused = false;
	assert_int_equal(judge(x, &in), EVJ_FILES_UNKNOWN);
}

static void test_failed_run(void **state)
{
	struct fixture *x = *state;
	reload(x, NULL, "3", NULL);
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, NULL, NULL, false};
	assert_int_equal(judge(x, &in), EVJ_FAILED);
	assert_string_equal(x->j.exit, "3");
	assert_int_equal(x->j.exit_line, 13);
	assert_string_equal(x->j.failed_why, "exit: 3");
}

/* a run kept by --keep-failed whose stdout missed Expect: ended with exit
 * 0: its cause is the missed pattern, at the expect-failed: line */
static void test_failed_expect_names_the_cause(void **state)
{
	struct fixture *x = *state;
	reload(x, NULL, "0", "expect: ^ok$\nexpect-failed: main");
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, NULL, NULL, false};
	assert_int_equal(judge(x, &in), EVJ_FAILED);
	assert_string_equal(x->j.failed_why, "the stdout of run 'main' did not match Expect:");
	assert_int_equal(x->j.exit_line, 15);
}

static void test_shared_gpu(void **state)
{
	struct fixture *x = *state;
	reload(x, NULL, NULL, "gpu-exclusive: no");
	struct evjudge_in in = {0};
	assert_int_equal(judge(x, &in), EVJ_SHARED_GPU);
	assert_string_equal(x->j.exclusive, "no");
	assert_int_equal(x->j.exclusive_line, 14);
	reload(x, NULL, NULL, "gpu-exclusive: yes");
	assert_int_equal(judge(x, &in), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_current_run_has_no_flag, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_lesson_is_judged_no_further, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_program_is_judged_no_further, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_names_of_one_file_are_one_program, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_by_the_programs_hash, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_over_the_lessons_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_files_of_another_program_fall_back_to_its_hash, setup, teardown),
		cmocka_unit_test_setup_teardown(test_files_unknown_still_judges_the_programs_hash, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_expect_names_the_cause, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_gpu, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

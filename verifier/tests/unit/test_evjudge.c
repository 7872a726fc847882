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
	*f = (struct lesson_files){v, 1, 0, {0}};
	snprintf(f->sha, sizeof f->sha, "%s", sha);
}

static unsigned judge(const struct evidence *ev, const struct evjudge_in *in, struct evjudge *j)
{
	evjudge_run(ev, in, j);
	return j->flags;
}

static void test_current_run_has_no_flag(void **state)
{
	(void)state;
	struct evidence ev;
	load(&ev, NULL, NULL, NULL);
	struct lesson_file v;
	struct lesson_files f;
	one_file(&f, &v, SHA_A);
	struct evjudge j;
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, &f, NULL, false};
	assert_int_equal(judge(&ev, &in, &j), 0);
	assert_string_equal(j.lesson, "day31-scan-1");
	assert_int_equal(j.lesson_line, 2);
	assert_string_equal(j.program, PROG);
	assert_int_equal(j.program_line, 3);
	evjudge_free(&j);
	evidence_free(&ev);
}

static void test_other_lesson_is_judged_no_further(void **state)
{
	(void)state;
	struct evidence ev;
	load(&ev, NULL, "1", "gpu-exclusive: no"); /* failed and shared too */
	struct evjudge j;
	struct evjudge_in in = {"day32-scan-2", PROG, SHA_B, NULL, NULL, false};
	assert_int_equal(judge(&ev, &in, &j), EVJ_LESSON_MISMATCH);
	assert_null(j.changed);
	evjudge_free(&j);
	evidence_free(&ev);
}

static void test_other_program_is_judged_no_further(void **state)
{
	(void)state;
	struct evidence ev;
	load(&ev, "programs/day31-scan-1/other.cu", "1", NULL);
	struct evjudge j;
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_B, NULL, NULL, false};
	assert_int_equal(judge(&ev, &in, &j), EVJ_PROGRAM_MISMATCH);
	assert_string_equal(j.program, "programs/day31-scan-1/other.cu");
	evjudge_free(&j);
	evidence_free(&ev);
}

static void test_two_names_of_one_file_are_one_program(void **state)
{
	(void)state;
	struct evidence ev;
	load(&ev, "programs/day31-scan-1/./scan.cu", NULL, NULL);
	struct evjudge j;
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, NULL, NULL, false};
	assert_int_equal(judge(&ev, &in, &j), 0);
	evjudge_free(&j);
	evidence_free(&ev);
}

static void test_stale_by_the_programs_hash(void **state)
{
	(void)state;
	struct evidence ev;
	load(&ev, NULL, NULL, NULL);
	struct evjudge j;
	struct evjudge_in in = {NULL, PROG, SHA_B, NULL, NULL, false}; /* no files: the program's hash */
	assert_int_equal(judge(&ev, &in, &j), EVJ_STALE);
	assert_string_equal(j.changed, "'" PROG "' changed");
	assert_int_equal(j.stale_line, 4); /* source-sha256: */
	assert_string_equal(j.was_sha, SHA_A);
	assert_string_equal(j.now_sha, SHA_B);
	assert_int_equal(j.n_files, 0);
	evjudge_free(&j);
	evidence_free(&ev);
}

static void test_stale_over_the_lessons_files(void **state)
{
	(void)state;
	struct evidence ev;
	load(&ev, NULL, NULL, NULL);
	struct lesson_file v;
	struct lesson_files f;
	one_file(&f, &v, SHA_B);
	struct evjudge j;
	/* the program's own hash would say current: the files decide */
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, &f, NULL, false};
	assert_int_equal(judge(&ev, &in, &j), EVJ_STALE);
	assert_string_equal(j.changed, "'" PROG "' changed");
	assert_int_equal(j.n_files, 1);
	assert_string_equal(j.now_sha, SHA_B);
	evjudge_free(&j);
	evidence_free(&ev);
}

static void test_files_of_another_program_fall_back_to_its_hash(void **state)
{
	(void)state;
	struct evidence ev;
	load(&ev, NULL, NULL, NULL);
	struct lesson_file v;
	struct lesson_files f;
	one_file(&f, &v, SHA_B);
	v.path = (char *)"programs/day31-scan-1/main.cu"; /* the lesson's program is another file */
	struct evjudge j;
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, &f, NULL, false};
	assert_int_equal(judge(&ev, &in, &j), 0);
	evjudge_free(&j);
	evidence_free(&ev);
}

static void test_files_unknown_still_judges_the_programs_hash(void **state)
{
	(void)state;
	struct evidence ev;
	load(&ev, NULL, NULL, NULL);
	struct evjudge j;
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_B, NULL, "a link", true};
	assert_int_equal(judge(&ev, &in, &j), EVJ_FILES_UNKNOWN | EVJ_FILES_REFUSED | EVJ_STALE);
	assert_string_equal(j.files_why, "a link");
	evjudge_free(&j);
	in.program_sha = SHA_A;
	in.files_refused = false;
	assert_int_equal(judge(&ev, &in, &j), EVJ_FILES_UNKNOWN);
	evjudge_free(&j);
	evidence_free(&ev);
}

static void test_failed_run(void **state)
{
	(void)state;
	struct evidence ev;
	load(&ev, NULL, "3", NULL);
	struct evjudge j;
	struct evjudge_in in = {"day31-scan-1", PROG, SHA_A, NULL, NULL, false};
	assert_int_equal(judge(&ev, &in, &j), EVJ_FAILED);
	assert_string_equal(j.exit, "3");
	assert_int_equal(j.exit_line, 13);
	evjudge_free(&j);
	evidence_free(&ev);
}

static void test_shared_gpu(void **state)
{
	(void)state;
	struct evidence ev;
	load(&ev, NULL, NULL, "gpu-exclusive: no");
	struct evjudge j;
	struct evjudge_in in = {0};
	assert_int_equal(judge(&ev, &in, &j), EVJ_SHARED_GPU);
	assert_string_equal(j.exclusive, "no");
	assert_int_equal(j.exclusive_line, 14);
	evjudge_free(&j);
	evidence_free(&ev);
	load(&ev, NULL, NULL, "gpu-exclusive: yes");
	assert_int_equal(judge(&ev, &in, &j), 0);
	evjudge_free(&j);
	evidence_free(&ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_current_run_has_no_flag),
		cmocka_unit_test(test_other_lesson_is_judged_no_further),
		cmocka_unit_test(test_other_program_is_judged_no_further),
		cmocka_unit_test(test_two_names_of_one_file_are_one_program),
		cmocka_unit_test(test_stale_by_the_programs_hash),
		cmocka_unit_test(test_stale_over_the_lessons_files),
		cmocka_unit_test(test_files_of_another_program_fall_back_to_its_hash),
		cmocka_unit_test(test_files_unknown_still_judges_the_programs_hash),
		cmocka_unit_test(test_failed_run),
		cmocka_unit_test(test_shared_gpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_lessonfiles.c - the lesson-file rules that verify and capture
 * share: an Expect: pattern judged by regcomp, through the cache of
 * patterns already seen to compile (which must keep every pattern apart
 * and never turn a bad one good).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence.h"
#include "evidence_build.h"
#include "lessonfiles.h"
#include "repo.h"
#include "sshsig.h"

static void test_expect_valid_and_invalid(void **state)
{
	(void)state;
	char msg[160];
	assert_true(lessonfiles_expect_valid("^ok [0-9]+$", msg, sizeof msg));
	assert_true(lessonfiles_expect_valid("^ok [0-9]+$", msg, sizeof msg)); /* from the cache */
	msg[0] = '\0';
	assert_false(lessonfiles_expect_valid("^ok [0-9+$", msg, sizeof msg)); /* one byte from a kept one */
	assert_true(msg[0] != '\0');
	msg[0] = '\0';
	assert_false(lessonfiles_expect_valid("^ok [0-9+$", msg, sizeof msg)); /* a bad one is never kept */
	assert_true(msg[0] != '\0');
	assert_false(lessonfiles_expect_valid("^ok (", msg, sizeof msg)); /* a prefix of a kept one */
	assert_true(lessonfiles_expect_valid("", msg, sizeof msg));
}

static void test_expect_cache_evicts(void **state)
{
	(void)state;
	char msg[160], pat[64];
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 20; i++) { /* more patterns than the cache keeps */
			snprintf(pat, sizeof pat, "^line %d: [a-z]+$", i);
			assert_true(lessonfiles_expect_valid(pat, msg, sizeof msg));
			snprintf(pat, sizeof pat, "^line %d: [a-z+$", i);
			assert_false(lessonfiles_expect_valid(pat, msg, sizeof msg));
		}
	char longer[400]; /* past what is kept: judged each time */
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	assert_true(lessonfiles_expect_valid(longer, msg, sizeof msg));
	longer[200] = '(';
	assert_false(lessonfiles_expect_valid(longer, msg, sizeof msg));
}

static bool never_known(const char *path, const char *data, size_t len, char sha[SHA256_HEX_LEN + 1], void *arg)
{
	(void)path, (void)data, (void)len, (void)sha, (void)arg;
	return false;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A course in a fresh folder with one lesson, its program text given. */
static char *course_with(const char *program)
{
	char *dir = strdup("/tmp/test-lessonfiles-XXXXXX");
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/pages", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/programs", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/programs/l1", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/programs/l1/a.cu", dir);
	put(path, program);
	snprintf(path, sizeof path, "%s/programs/l1/b.h", dir);
	put(path, "#pragma once\r\n");
	assert_int_equal(repo_open(dir), 0);
	return dir;
}

static void drop_course(char *dir)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -r '%s'", dir);
	assert_int_equal(system(cmd), 0);
	repo_close();
	free(dir);
}

/* A run captured before the tokens rule from f's files as they are:
 * judged by lessonfiles_changed(). */
static void byte_rule_evidence(struct evidence *ev, const struct lesson_files *f)
{
	struct buf h = {0};
	buf_printf(&h, EVIDENCE_MAGIC "\nlesson: l1\nprogram: programs/l1/a.cu\nsource-sha256: %s\n", f->sha);
	lessonfiles_header(&h, f);
	buf_puts(&h, "build: nvcc -o a a.cu\nrun: ./a\n");
	evidence_build(ev, &h, "evidence/l1/run-2026-11-30.txt");
}

/* The program text handed to the course cache (a known function given)
 * is the normalised text, hashed by the byte rule only when the caller
 * asks (program_sha_later), then as the copy is (no known function); the
 * other files keep their bytes as read. */
static void check_program_text(const char *program, bool changes)
{
	char *dir = course_with(program);
	struct lesson_files kept, plain;
	char *why = NULL;
	assert_int_equal(lessonfiles_collect_known("l1", &kept, &why, never_known, NULL), 0);
	assert_int_equal(lessonfiles_collect("l1", &plain, &why), 0);
	assert_int_equal(kept.n, 2);
	assert_int_equal(kept.program, 0);
	assert_true(kept.program_sha_later);
	assert_false(plain.program_sha_later);
	assert_string_equal(kept.v[0].sha, "");           /* not hashed by the byte rule yet */
	assert_string_equal(kept.sha, "");
	assert_string_equal(kept.v[0].tsha, plain.v[0].tsha); /* the tokens rule: at once */
	assert_string_equal(kept.v[1].sha, plain.v[1].sha);
	assert_null(kept.v[0].data);                      /* became the text */
	assert_string_equal(plain.v[0].data, program);    /* capture's bytes as read */
	assert_string_equal(kept.v[1].data, "#pragma once\r\n"); /* not the program: untouched */
	struct textfile tf, want;
	struct proghdr hdr;
	assert_true(lessonfiles_take_program(&kept, &tf, &hdr));
	assert_false(lessonfiles_take_program(&kept, &tf, &hdr)); /* moved once */
	textfile_from_memory(program, strlen(program), "programs/l1/a.cu", &want);
	assert_int_equal(tf.len, want.len);
	assert_memory_equal(tf.data, want.data, want.len);
	assert_int_equal(tf.n_lines, want.n_lines);
	assert_int_equal(tf.had_cr, want.had_cr);
	assert_int_equal(tf.had_bom, want.had_bom);
	assert_int_equal(changes, tf.len != strlen(program));
	assert_null(memchr(tf.data, '\r', tf.len));
	assert_string_equal(tf.path, "programs/l1/a.cu");
	assert_non_null(hdr.build.text);
	assert_string_equal(hdr.build.text, "nvcc -o a a.cu");
	/* incomplete, a judgement by the byte rule says so rather than pass */
	struct evidence ev;
	byte_rule_evidence(&ev, &plain);
	size_t line = 0;
	char *said = lessonfiles_changed(&ev, &kept, &line);
	assert_non_null(said);
	assert_non_null(strstr(said, "not hashed"));
	free(said);
	/* the caller hashes the text it took: the same hashes as the copy's */
	char sha[SHA256_HEX_LEN + 1];
	proghdr_source_sha256_parsed(&tf, &hdr, sha);
	lessonfiles_set_program_sha(&kept, sha);
	assert_false(kept.program_sha_later);
	assert_string_equal(kept.v[0].sha, plain.v[0].sha);
	assert_string_equal(kept.sha, plain.sha);
	assert_null(lessonfiles_changed(&ev, &kept, &line));
	evidence_free(&ev);
	textfile_free(&want);
	textfile_free(&tf);
	proghdr_free(&hdr);
	lessonfiles_free(&kept);
	lessonfiles_free(&plain);
	drop_course(dir);
}

static void test_program_text_lf(void **state)
{
	(void)state;
	check_program_text("// Build: nvcc -o a a.cu\n// Run: ./a\nint main() {}\n", false);
}

static void test_program_text_crlf_bom(void **state)
{
	(void)state;
	check_program_text("\xEF\xBB\xBF// Build: nvcc -o a a.cu\r\n// Run: ./a\r\nint main() {}\r", true);
}

/* repo_resolve_type: the entry's own type, from the resolution's look or
 * an lstat after realpath; a lesson folder that is a link (to a folder
 * inside the repository) is refused as no folder, as before the type
 * came from the resolution. */
static void test_resolve_type_and_linked_lesson(void **state)
{
	(void)state;
	char *dir = course_with("// Build: nvcc -o a a.cu\nint main() {}\n");
	char path[256], *fs;
	const char *why;
	mode_t type = 1;
	assert_int_equal(repo_resolve_type("programs/l1", &fs, &why, &type), REPO_OK);
	assert_true(S_ISDIR(type));
	free(fs);
	assert_int_equal(repo_resolve_type("programs/l1/a.cu", &fs, &why, &type), REPO_OK);
	assert_true(S_ISREG(type));
	free(fs);
	assert_int_equal(repo_resolve_type("programs/none", &fs, &why, &type), REPO_MISSING);
	snprintf(path, sizeof path, "%s/programs/l2", dir);
	assert_int_equal(symlink("l1", path), 0);
	assert_int_equal(repo_resolve_type("programs/l2", &fs, &why, &type), REPO_OK);
	assert_true(S_ISLNK(type));
	free(fs);
	struct lesson_files f;
	char *err = NULL;
	assert_int_equal(lessonfiles_collect("l2", &f, &err), -1);
	assert_string_equal(err, "programs/l2/ is not a folder");
	free(err);
	drop_course(dir);
}

/* Each file is judged for a private key as it is read (verify reports
 * it from the flag, reading nothing again): by its first bytes, blank
 * space before the armour allowed, and not past them. */
static void test_private_key_flag(void **state)
{
	(void)state;
	char *dir = course_with("// Build: nvcc -o a a.cu\nint main() { return 0; }\n");
	char path[300], late[SSHKEY_HEAD_BYTES + 64];
	snprintf(path, sizeof path, "%s/programs/l1/node-key", dir);
	put(path, "\n  -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\n-----END OPENSSH PRIVATE KEY-----\n");
	memset(late, ' ', sizeof late);
	strcpy(late + SSHKEY_HEAD_BYTES, "-----BEGIN PRIVATE KEY-----\n"); /* armour past the head */
	snprintf(path, sizeof path, "%s/programs/l1/notes.txt", dir);
	put(path, late);
	struct lesson_files f;
	char *why = NULL;
	assert_int_equal(lessonfiles_collect("l1", &f, &why), 0);
	assert_int_equal(f.n, 4); /* a.cu b.h node-key notes.txt */
	for (size_t i = 0; i < f.n; i++)
		assert_int_equal(f.v[i].private_key, strcmp(f.v[i].path, "programs/l1/node-key") == 0);
	lessonfiles_free(&f);
	drop_course(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expect_valid_and_invalid),
		cmocka_unit_test(test_expect_cache_evicts),
		cmocka_unit_test(test_program_text_lf),
		cmocka_unit_test(test_program_text_crlf_bom),
		cmocka_unit_test(test_resolve_type_and_linked_lesson),
		cmocka_unit_test(test_private_key_flag),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

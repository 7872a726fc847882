/*
 * test_course.c - the course model's read phase (course.h), point by
 * point: every folder listed once (a file added or removed after
 * course_load() is not seen: nothing lists again); runs oldest first;
 * missing folders (pages/ and programs/ are errors, evidence/ is not);
 * a link out where a lesson or a run folder was meant is refused and
 * reported once; an unreadable lesson file makes the lesson's files
 * unreadable with the file named; a lesson's program read once, its
 * bytes taken from the lesson's files; programs/common/ shared.
 *
 * Each test builds a small course in a temporary folder, opens it with
 * repo_open() and reads what the model says; diagnostics go to a memory
 * stream that the test reads back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "course.h"
#include "diag.h"
#include "diag_internal.h"
#include "lessonfiles.h"
#include "repo.h"
#include "util.h"

struct fixture {
	char dir[64];
	char *out;
	size_t len;
	FILE *diags;
	size_t errors0; /* diag's counts are the process's: each test counts from here */
};

static void put(const struct fixture *f, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", f->dir, rel);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	free(path);
}

static void dir(const struct fixture *f, const char *rel)
{
	char *path = xasprintf("%s/%s", f->dir, rel);
	assert_int_equal(mkdir(path, 0755), 0);
	free(path);
}

static void link_to(const struct fixture *f, const char *target, const char *rel)
{
	char *path = xasprintf("%s/%s", f->dir, rel);
	assert_int_equal(symlink(target, path), 0);
	free(path);
}

static void rm(const struct fixture *f, const char *rel)
{
	char *path = xasprintf("%s/%s", f->dir, rel);
	assert_int_equal(unlink(path), 0);
	free(path);
}

/* A course: pages/a.md, programs/a/a.cu, programs/common/c.h, and
 * evidence/a/ with two runs. */
static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof *f);
	snprintf(f->dir, sizeof f->dir, "/tmp/test_course.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	dir(f, "pages");
	dir(f, "programs");
	dir(f, "programs/a");
	dir(f, "programs/common");
	dir(f, "evidence");
	dir(f, "evidence/a");
	put(f, "pages/a.md", "---\nlesson: a\nstatus: published\nevidence: evidence/a/run-2026-01-02.txt\n---\n# A\n");
	put(f, "programs/a/a.cu", "// a\nint main(void) { return 0; }\n");
	put(f, "programs/common/c.h", "#define C 1\n");
	put(f, "evidence/a/run-2026-01-02.txt", "x\n");
	put(f, "evidence/a/run-2026-01-01.txt", "x\n");
	put(f, "evidence/a/notes.txt", "not a run\n");
	f->diags = open_memstream(&f->out, &f->len);
	diag_init(f->diags, false);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	course_release();
	repo_close();
	diag_release();
	fclose(f->diags);
	free(f->out);
	char *cmd = xasprintf("chmod -R u+rwx '%s' && rm -rf '%s'", f->dir, f->dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(f);
	return 0;
}

static void open_course(struct fixture *f)
{
	assert_int_equal(repo_open(f->dir), 0);
	f->errors0 = diag_count(DIAG_ERROR);
	course_load();
}

static const char *said(struct fixture *f)
{
	fflush(f->diags);
	return f->out ? f->out : "";
}

/* Runs oldest first, names that are not runs left out; the listing is
 * the load's: a run added later, or a page removed, is not seen. */
static void test_listed_once(void **state)
{
	struct fixture *f = *state;
	open_course(f);
	put(f, "evidence/a/run-2026-01-03.txt", "x\n");
	rm(f, "pages/a.md");
	char **runs;
	size_t n = course_list_evidence("a", &runs);
	assert_int_equal(n, 2);
	assert_string_equal(runs[0], "evidence/a/run-2026-01-01.txt");
	assert_string_equal(runs[1], "evidence/a/run-2026-01-02.txt");
	repo_free_list(runs, n);
	char *newest = course_newest_evidence("a");
	assert_string_equal(newest, "evidence/a/run-2026-01-02.txt");
	free(newest);
	char **pages;
	n = course_pages(&pages);
	assert_int_equal(n, 1);
	assert_string_equal(pages[0], "pages/a.md");
	repo_free_list(pages, n);
	char **lessons;
	n = course_lessons(&lessons);
	assert_int_equal(n, 1); /* common is no lesson */
	assert_string_equal(lessons[0], "a");
	repo_free_list(lessons, n);
	assert_true(course_lesson_exists("a"));
	assert_false(course_lesson_exists("b"));
	assert_int_equal(course_list_evidence("b", &runs), 0); /* no folder: no runs, no problem */
	assert_true(course_evidence_folder_usable("b"));
	assert_int_equal(diag_count(DIAG_ERROR) - f->errors0, 0);
}

/* The files beside the runs, found by the load's listings for the
 * private-key scan: regular files only, neither runs, signatures nor
 * hidden, in evidence/ and each plain evidence/LESSON/ (a hidden folder's
 * are the scan's to pass over); none before a load lists evidence/. */
static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_loose_files(void **state)
{
	struct fixture *f = *state;
	char *const *loose;
	size_t n;
	assert_false(course_evidence_loose_files(&loose, &n)); /* no course yet, and none loaded for it */
	put(f, "evidence/a/run-2026-01-02.txt.sig", "sig\n");
	put(f, "evidence/a/.hidden", "x\n");
	dir(f, "evidence/a/sub");
	put(f, "evidence/a/sub/deeper.txt", "x\n");
	put(f, "evidence/allowed_signers", "\n");
	put(f, "evidence/run-2026-01-05.txt", "x\n");
	link_to(f, "../pages/a.md", "evidence/a/link.txt");
	dir(f, "evidence/.git");
	put(f, "evidence/.git/key", "x\n");
	open_course(f);
	assert_true(course_evidence_loose_files(&loose, &n));
	assert_int_equal(n, 2);
	char *sorted[2] = {loose[0], loose[1]};
	qsort(sorted, 2, sizeof *sorted, by_string);
	assert_string_equal(sorted[0], "evidence/a/notes.txt");
	assert_string_equal(sorted[1], "evidence/allowed_signers");
	course_release();
	assert_int_equal(repo_open(f->dir), 0);
	course_open(); /* a page at a time: evidence/ not listed */
	assert_false(course_evidence_loose_files(&loose, &n));
}

/* The lesson's files with programs/common/ read once for all; the
 * program's first read takes the bytes the lesson's files were read with. */
static void test_lesson_files(void **state)
{
	struct fixture *f = *state;
	open_course(f);
	size_t count;
	char *prog = course_lesson_program("a", &count);
	assert_int_equal(count, 1);
	assert_string_equal(prog, "programs/a/a.cu");
	/* the bytes are held from the listing's read: removed from the disk
	 * now, the program still reads */
	rm(f, "programs/a/a.cu");
	struct program *p = course_program(prog);
	assert_int_equal(p->state, LOAD_OK);
	assert_non_null(strstr(p->tf.data, "int main"));
	const char *why;
	bool refused;
	const struct lesson_files *lf = course_lesson_files("a", &why, &refused);
	assert_non_null(lf);
	assert_int_equal(lf->n, 2);
	assert_string_equal(lf->v[0].path, "programs/a/a.cu");
	assert_string_equal(lf->v[1].path, "programs/common/c.h");
	/* the byte rule's hashes wait for an ask (evidence from before the
	 * tokens rule), then the program and its lesson's files get them */
	assert_true(lf->program_sha_later);
	assert_string_equal(p->sha256, "");
	put(f, "programs/a/a.cu", "// a\nint main(void) { return 0; }\n"); /* back, as it was read */
	struct lesson_files plain;
	char *err = NULL;
	assert_int_equal(lessonfiles_collect("a", &plain, &err), 0);
	const char *sha = course_program_sha256(p);
	assert_non_null(sha);
	assert_string_equal(sha, plain.v[0].sha);
	assert_false(lf->program_sha_later);
	assert_string_equal(lf->v[0].sha, plain.v[0].sha);
	assert_string_equal(lf->sha, plain.sha);
	assert_ptr_equal(course_program_sha256(p), sha); /* made once */
	lessonfiles_free(&plain);
	free(prog);
	course_page_done();
}

/* A lesson's files are kept whole for the last few lessons used (a
 * changed file is not seen: nothing reads them again); pushed out by
 * other lessons, the lesson keeps its listing's answers without a read
 * and reads its files again when asked (the change is seen then). */
static void test_lesson_files_pushed_out(void **state)
{
	struct fixture *f = *state;
	char name[32];
	for (int i = 1; i <= 5; i++) {
		snprintf(name, sizeof name, "programs/b%d", i);
		dir(f, name);
		snprintf(name, sizeof name, "programs/b%d/b.cu", i);
		put(f, name, "// b\nint main(void) { return 0; }\n");
	}
	open_course(f);
	const char *why;
	bool refused;
	const struct lesson_files *lf = course_lesson_files("a", &why, &refused);
	assert_non_null(lf);
	char first[SHA256_HEX_LEN + 1];
	memcpy(first, lf->v[0].tsha, sizeof first); /* the byte rule's hash waits for an ask */
	course_page_done();
	put(f, "programs/a/a.cu", "// a, changed\nint main(void) { return 1; }\n");
	lf = course_lesson_files("a", &why, &refused); /* still kept: not read again */
	assert_string_equal(lf->v[0].tsha, first);
	course_page_done();
	for (int i = 1; i <= 5; i++) {
		snprintf(name, sizeof name, "b%d", i);
		assert_non_null(course_lesson_files(name, &why, &refused));
		course_page_done();
	}
	size_t count;
	char *prog = course_lesson_program("a", &count); /* the listing's answer, kept */
	assert_string_equal(prog, "programs/a/a.cu");
	assert_int_equal(count, 1);
	free(prog);
	lf = course_lesson_files("a", &why, &refused); /* read again */
	assert_non_null(lf);
	assert_int_equal(lf->n, 2);
	assert_string_equal(lf->v[0].path, "programs/a/a.cu");
	assert_string_equal(lf->v[1].path, "programs/common/c.h");
	assert_string_not_equal(lf->v[0].tsha, first);
	course_page_done();
	assert_int_equal(diag_count(DIAG_ERROR) - f->errors0, 0);
}

/* No pages/ and no programs/: each an error naming it, once however
 * often asked; no evidence/ is no error. */
static void test_missing_folders(void **state)
{
	struct fixture *f = *state;
	char *cmd = xasprintf("rm -rf '%s/pages' '%s/programs' '%s/evidence'", f->dir, f->dir, f->dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	open_course(f);
	char **names;
	for (int k = 0; k < 2; k++) {
		assert_int_equal(course_pages(&names), 0);
		repo_free_list(names, 0);
		assert_int_equal(course_lessons(&names), 0);
		repo_free_list(names, 0);
	}
	assert_true(course_evidence_folder_usable("a"));
	assert_int_equal(course_list_evidence("a", &names), 0);
	assert_int_equal(diag_count(DIAG_ERROR) - f->errors0, 2);
	assert_non_null(strstr(said(f), "folder 'pages' cannot be read"));
	assert_non_null(strstr(said(f), "folder 'programs' cannot be read"));
}

/* A link out of the repository where a lesson and a run folder were
 * meant: each refused, reported once, and nothing read through it. */
static void test_link_refused(void **state)
{
	struct fixture *f = *state;
	link_to(f, "/tmp", "programs/out");
	link_to(f, "/tmp", "evidence/out");
	open_course(f);
	char **names;
	for (int k = 0; k < 2; k++) {
		size_t n = course_lessons(&names);
		assert_int_equal(n, 1);
		assert_string_equal(names[0], "a");
		repo_free_list(names, n);
	}
	assert_false(course_evidence_folder_usable("out"));
	assert_false(course_evidence_folder_usable("out"));
	assert_int_equal(course_list_evidence("out", &names), 0);
	assert_int_equal(diag_count(DIAG_ERROR) - f->errors0, 2);
	assert_non_null(strstr(said(f), "lesson folder 'programs/out' is refused"));
	assert_non_null(strstr(said(f), "evidence folder 'evidence/out' is refused"));
	/* a link inside a lesson makes its files refused, with the reason */
	link_to(f, "a.cu", "programs/a/b.cu");
	const char *why;
	bool refused;
	assert_null(course_lesson_files("a", &why, &refused));
	assert_true(refused);
	assert_non_null(strstr(why, "programs/a/b.cu is a symbolic link"));
}

/* A file beside a lesson's files (its README) resolved as repo_resolve
 * would: present, missing (ENOENT's reason), a link out refused, a link
 * inside taken; a lesson that is a link or a dotted name the long way. */
static void test_resolve_beside_lesson(void **state)
{
	struct fixture *f = *state;
	put(f, "programs/a/README.md", "# a\n");
	link_to(f, "/etc/passwd", "programs/a/out.md");
	link_to(f, "README.md", "programs/a/in.md");
	link_to(f, "a", "programs/b");
	open_course(f);
	static const char *const paths[] = {"programs/a/README.md", "programs/a/none.md", "programs/a/out.md",
					    "programs/a/in.md", "programs/b/README.md", "programs/b/none.md",
					    "programs/a/../a/README.md", "programs/a/./README.md", "programs/./a/README.md"};
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
		char *fs1 = NULL, *fs2 = NULL;
		const char *why1 = NULL, *why2 = NULL;
		enum repo_status a = course_resolve(paths[i], &fs1, &why1);
		enum repo_status b = repo_resolve(paths[i], &fs2, &why2);
		assert_int_equal(a, b);
		if (a == REPO_OK)
			assert_string_equal(fs1, fs2);
		else
			assert_string_equal(why1, why2);
		free(fs1);
		free(fs2);
	}
	char *fs = NULL;
	const char *why = NULL;
	assert_int_equal(course_resolve("programs/a/none.md", &fs, &why), REPO_MISSING);
	assert_string_equal(why, strerror(ENOENT));
	assert_int_equal(course_resolve("programs/a/out.md", &fs, &why), REPO_REFUSED);
}

/* The lesson's files of f's course, c.h made unreadable first, as seen
 * by the user running this: true when they cannot be told, with the file
 * named, as a read error rather than a refusal. */
static bool unreadable_told(struct fixture *f)
{
	open_course(f);
	const char *why;
	bool refused;
	const struct lesson_files *lf = course_lesson_files("a", &why, &refused);
	return !lf && !refused && why && strstr(why, "cannot read programs/common/c.h") != NULL;
}

/* A lesson file that cannot be read: the lesson's files cannot be told,
 * the file named (not refused: a read error).  Root reads anything, so
 * under root the course is read by a child that has become nobody. */
static void test_unreadable_file(void **state)
{
	struct fixture *f = *state;
	char *path = xasprintf("%s/programs/common/c.h", f->dir);
	assert_int_equal(chmod(path, 0), 0);
	free(path);
	if (geteuid() != 0) {
		assert_true(unreadable_told(f));
		return;
	}
	char *cmd = xasprintf("chmod -R a+rX '%s' && chmod 0 '%s/programs/common/c.h'", f->dir, f->dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(3);
		_exit(unreadable_told(f) ? 0 : 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* Page facts: a page's lesson, status and evidence, read when asked
 * before its check, recorded by its check otherwise. */
static void test_page_facts(void **state)
{
	struct fixture *f = *state;
	put(f, "pages/b.md", "---\nlesson: b\nstatus: draft\n---\n# B\n");
	open_course(f);
	enum page_status st;
	assert_true(course_lesson_status("a", &st));
	assert_int_equal(st, STATUS_PUBLISHED);
	const char *const *ev;
	size_t n;
	assert_true(course_cite_page("a", &ev, &n));
	assert_int_equal(n, 1);
	assert_string_equal(ev[0], "evidence/a/run-2026-01-02.txt");
	assert_true(course_lesson_status("b", &st));
	assert_int_equal(st, STATUS_DRAFT);
	assert_false(course_cite_page("c", &ev, &n));
}

/* A cache of a module over the model (course_cache): one block, zeroed at
 * first, the same block at every ask; course_page_done empties it through
 * the module's function (what it points into goes with the page), and
 * course_release empties it before freeing it (ASan sees no leak). */
struct test_cache {
	char *held;
	int asks;
};
static int test_cache_emptied;

static void test_cache_empty(void *block)
{
	struct test_cache *c = block;
	free(c->held);
	memset(c, 0, sizeof *c);
	test_cache_emptied++;
}

static void test_cache_per_page(void **state)
{
	struct fixture *f = *state;
	open_course(f);
	test_cache_emptied = 0;
	struct test_cache *c = course_cache(COURSE_CACHE_DRIFT, sizeof *c, test_cache_empty);
	assert_null(c->held);
	assert_int_equal(c->asks, 0);
	c->held = xstrdup("a page's");
	c->asks = 1;
	assert_ptr_equal(course_cache(COURSE_CACHE_DRIFT, sizeof *c, test_cache_empty), c);
	assert_int_equal(test_cache_emptied, 0);
	course_page_done();
	assert_int_equal(test_cache_emptied, 1);
	assert_null(c->held);
	assert_int_equal(c->asks, 0);
	c->held = xstrdup("the next page's");
	course_release();
	assert_int_equal(test_cache_emptied, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_listed_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lesson_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loose_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lesson_files_pushed_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_folders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_beside_lesson, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_page_facts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_per_page, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

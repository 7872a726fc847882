/*
 * test_filewrite.c - the one atomic writer, point by point as filewrite.h
 * states it: a new file never replaces one (the next name is taken), a
 * replace keeps the mode and writes through a link, refuses hard links
 * and links out of the repository, leaves no temporary on either path
 * (O_TMPFILE and named), a sweep removes only dead owners' temporaries,
 * and folders are never made through a link that leads out; a file the
 * user names replaces a link in its place and is refused behind a folder
 * link out; a checked replace leaves a file that changed since it was read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filewrite.h"
#include "repo.h"
#include "util.h"

/* ---- a scratch repository per test ---- */

static char *root; /* realpath of the scratch repository */
static char *outside; /* a folder beside it */

static char *at(const char *rel)
{
	return xasprintf("%s/%s", root, rel);
}

static void put(const char *rel, const char *text, mode_t mode)
{
	char *p = at(rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(p, mode);
	free(p);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	struct buf b = {0};
	char chunk[256];
	size_t n;
	buf_append(&b, "", 0);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	return buf_detach(&b);
}

/* How many names in the folder rel start with the temporary prefix. */
static size_t temporaries(const char *rel)
{
	char *p = at(rel);
	DIR *d = opendir(p);
	free(p);
	assert_non_null(d);
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		n += strncmp(e->d_name, FILEWRITE_TMP_PREFIX, strlen(FILEWRITE_TMP_PREFIX)) == 0;
	closedir(d);
	return n;
}

static void rm_rf(const char *path)
{
	char *cmd = xasprintf("rm -rf '%s'", path);
	int r = system(cmd);
	(void)r;
	free(cmd);
}

static int setup(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/test_filewrite.XXXXXX";
	char *base = mkdtemp(tmpl);
	assert_non_null(base);
	char *repo = xasprintf("%s/repo", base);
	outside = xasprintf("%s/outside", base);
	assert_int_equal(mkdir(repo, 0777), 0);
	assert_int_equal(mkdir(outside, 0777), 0);
	assert_int_equal(repo_open(repo), 0);
	root = xstrdup(repo_root());
	free(repo);
	char *pages = at("pages");
	assert_int_equal(mkdir(pages, 0777), 0);
	free(pages);
	unsetenv("COURSECHECK_NO_O_TMPFILE");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char *base = xstrndup(root, strlen(root) - strlen("/repo"));
	rm_rf(base);
	free(base);
	free(root);
	free(outside);
	repo_close();
	return 0;
}

static char *run_name(int seq, void *arg)
{
	(void)arg;
	return seq > 3 ? NULL : seq == 1 ? xstrdup("run.txt") : xasprintf("run-%d.txt", seq);
}

/* ---- filewrite_new ---- */

static void new_takes_next_name(bool named)
{
	if (named)
		setenv("COURSECHECK_NO_O_TMPFILE", "1", 1);
	char *dir = at("pages");
	char *name = NULL, *why = NULL;
	assert_int_equal(filewrite_new(dir, "pages/", "one\n", 4, run_name, NULL, &name, &why), 0);
	assert_string_equal(name, "run.txt");
	free(name);
	assert_int_equal(filewrite_new(dir, "pages/", "two\n", 4, run_name, NULL, &name, &why), 0);
	assert_string_equal(name, "run-2.txt");
	free(name);
	char *p1 = at("pages/run.txt"), *p2 = at("pages/run-2.txt"), *t1 = slurp(p1), *t2 = slurp(p2);
	assert_string_equal(t1, "one\n"); /* never overwritten */
	assert_string_equal(t2, "two\n");
	struct stat st;
	assert_int_equal(stat(p2, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(temporaries("pages"), 0);
	free(p1), free(p2), free(t1), free(t2);
	free(dir);
}

static void test_new_anonymous(void **state)
{
	(void)state;
	new_takes_next_name(false);
}

static void test_new_named(void **state)
{
	(void)state;
	new_takes_next_name(true);
}

static void test_new_no_free_name(void **state)
{
	(void)state;
	put("pages/run.txt", "a", 0644);
	put("pages/run-2.txt", "b", 0644);
	put("pages/run-3.txt", "c", 0644);
	char *dir = at("pages");
	char *name = NULL, *why = NULL;
	assert_int_equal(filewrite_new(dir, "pages/", "d", 1, run_name, NULL, &name, &why), -1);
	assert_non_null(strstr(why, "pages/ has no free name"));
	assert_null(name);
	assert_int_equal(temporaries("pages"), 0);
	free(why);
	free(dir);
}

/* ---- filewrite_replace ---- */

static void test_replace_keeps_mode(void **state)
{
	(void)state;
	put("pages/a.md", "old\n", 0640);
	char *why = NULL;
	assert_int_equal(filewrite_replace_repo("pages/a.md", "new\n", 4, &why), 0);
	char *p = at("pages/a.md"), *t = slurp(p);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_string_equal(t, "new\n");
	assert_int_equal(temporaries("pages"), 0);
	free(p), free(t);
}

static void test_replace_new_file_0644(void **state)
{
	(void)state;
	setenv("COURSECHECK_NO_O_TMPFILE", "1", 1);
	char *why = NULL;
	mode_t old = umask(077); /* the mode is the writer's, not the umask's */
	assert_int_equal(filewrite_replace_repo("pages/b.md", "b\n", 2, &why), 0);
	umask(old);
	char *p = at("pages/b.md");
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(temporaries("pages"), 0);
	free(p);
}

static void test_replace_through_link(void **state)
{
	(void)state;
	put("pages/target.md", "old\n", 0644);
	char *l = at("pages/link.md");
	assert_int_equal(symlink("target.md", l), 0);
	char *why = NULL;
	assert_int_equal(filewrite_replace_repo("pages/link.md", "new\n", 4, &why), 0);
	struct stat st;
	assert_int_equal(lstat(l, &st), 0);
	assert_true(S_ISLNK(st.st_mode)); /* still a link */
	char *t = at("pages/target.md"), *text = slurp(t);
	assert_string_equal(text, "new\n");
	free(l), free(t), free(text);
}

static void test_replace_refuses_link_out(void **state)
{
	(void)state;
	char *o = xasprintf("%s/page.md", outside);
	FILE *f = fopen(o, "w");
	fputs("outside\n", f);
	fclose(f);
	char *l = at("pages/out.md");
	assert_int_equal(symlink(o, l), 0);
	char *why = NULL;
	assert_int_equal(filewrite_replace_repo("pages/out.md", "new\n", 4, &why), -1);
	assert_non_null(strstr(why, "pages/out.md"));
	assert_non_null(strstr(why, "leads outside the repository"));
	char *text = slurp(o);
	assert_string_equal(text, "outside\n");
	free(why), free(o), free(l), free(text);
}

static void test_replace_refuses_hard_link(void **state)
{
	(void)state;
	put("pages/h1.md", "old\n", 0644);
	char *a = at("pages/h1.md"), *b = at("pages/h2.md");
	assert_int_equal(link(a, b), 0);
	char *why = NULL;
	assert_int_equal(filewrite_replace_repo("pages/h1.md", "new\n", 4, &why), -1);
	assert_non_null(strstr(why, "cannot write pages/h1.md: it has 2 hard links"));
	char *text = slurp(b);
	assert_string_equal(text, "old\n");
	struct stat st;
	assert_int_equal(stat(a, &st), 0);
	assert_int_equal(st.st_nlink, 2);
	free(why), free(a), free(b), free(text);
}

static void test_replace_refuses_folder(void **state)
{
	(void)state;
	char *why = NULL;
	assert_int_equal(filewrite_replace_repo("pages", "x", 1, &why), -1);
	assert_string_equal(why, "cannot write pages: it is not a regular file");
	free(why);
}

/* ---- owners and sweeps ---- */

static void test_owner_round_trip(void **state)
{
	(void)state;
	long pid;
	unsigned long long start;
	const char *end;
	assert_true(filewrite_owner_parse(filewrite_owner(), &pid, &start, &end));
	assert_int_equal(pid, (long)getpid());
	assert_int_equal(*end, '\0');
	assert_false(filewrite_owner_gone(pid, start));
	assert_false(filewrite_owner_parse("x-1", &pid, &start, &end));
	assert_false(filewrite_owner_parse("12", &pid, &start, &end));
	assert_true(filewrite_owner_parse("12-34-hello", &pid, &start, &end));
	assert_string_equal(end, "-hello");
}

static void test_sweep_only_dead_owners(void **state)
{
	(void)state;
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	int st;
	waitpid(child, &st, 0); /* an owner that is gone */
	char *dead = xasprintf("pages/" FILEWRITE_TMP_PREFIX "%d-1-1", (int)child);
	char *live = xasprintf("pages/" FILEWRITE_TMP_PREFIX "%s-1", filewrite_owner());
	put(dead, "half", 0600);
	put(live, "being written", 0600);
	put("pages/.tmp-other", "not ours", 0600);
	char *dir = at("pages");
	assert_int_equal(filewrite_sweep(dir), 1);
	char *d = at(dead), *l = at(live), *o = at("pages/.tmp-other");
	assert_int_not_equal(access(d, F_OK), 0);
	assert_int_equal(access(l, F_OK), 0);
	assert_int_equal(access(o, F_OK), 0);
	free(dead), free(live), free(dir), free(d), free(l), free(o);
}

/* ---- folders ---- */

static void test_mkdirs_inside(void **state)
{
	(void)state;
	char *why = NULL;
	char *fs = filewrite_mkdirs_repo("evidence/day01", &why);
	assert_non_null(fs);
	struct stat st;
	assert_int_equal(stat(fs, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	free(fs);
	put("evidence/file", "x", 0644);
	assert_null(filewrite_mkdirs_repo("evidence/file/x", &why));
	assert_string_equal(why, "cannot make the folder evidence/file/: Not a directory");
	free(why);
}

static void test_mkdirs_not_through_link_out(void **state)
{
	(void)state;
	char *l = at("build");
	assert_int_equal(symlink(outside, l), 0);
	char *why = NULL;
	assert_null(filewrite_mkdirs_repo("build/capture", &why));
	assert_string_equal(why, "cannot make the folder build/: a symbolic link on the path leads outside the repository");
	char *made = xasprintf("%s/capture", outside);
	assert_int_not_equal(access(made, F_OK), 0); /* nothing made outside */
	free(why), free(l), free(made);
}

/* ---- files a user names (--output, review pages) ---- */

static char *outside_file(const char *name, const char *text)
{
	char *o = xasprintf("%s/%s", outside, name);
	FILE *f = fopen(o, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return o;
}

/* A link committed in the checkout (coursecheck.sarif -> a file outside)
 * is replaced by the report, never written through. */
static void test_named_replaces_link_in_place(void **state)
{
	(void)state;
	char *o = outside_file("authorized_keys", "precious\n");
	char *l = at("coursecheck.sarif");
	assert_int_equal(symlink(o, l), 0);
	char *why = NULL;
	assert_int_equal(filewrite_replace_named(l, "coursecheck.sarif", "{}\n", 3, &why), 0);
	char *kept = slurp(o), *written = slurp(l);
	assert_string_equal(kept, "precious\n");
	assert_string_equal(written, "{}\n");
	struct stat st;
	assert_int_equal(lstat(l, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(temporaries("."), 0);
	free(o), free(l), free(kept), free(written);
}

/* A folder on the way that is a link out of the repository is refused. */
static void test_named_refuses_folder_link_out(void **state)
{
	(void)state;
	char *l = at("build");
	assert_int_equal(symlink(outside, l), 0);
	char *p = at("build/day01.html"), *why = NULL;
	assert_int_equal(filewrite_replace_named(p, "build/day01.html", "x\n", 2, &why), -1);
	assert_non_null(strstr(why, "cannot write build/day01.html"));
	assert_non_null(strstr(why, "leads outside the repository"));
	char *o = xasprintf("%s/day01.html", outside);
	assert_int_equal(access(o, F_OK), -1);
	free(why);
	char *review = at("build/review");
	assert_int_equal(filewrite_mkdirs_named(review, &why), -1);
	assert_non_null(strstr(why, "leads outside the repository"));
	char *made = xasprintf("%s/review", outside);
	assert_int_equal(access(made, F_OK), -1);
	free(why), free(l), free(p), free(o), free(made), free(review);
}

/* A path the user names outside the repository is written there, its
 * last name replaced, not followed (a link planted in /tmp). */
static void test_named_outside_replaces_link(void **state)
{
	(void)state;
	char *o = outside_file("bashrc", "precious\n");
	char *l = xasprintf("%s/report.xml", outside);
	assert_int_equal(symlink(o, l), 0);
	char *why = NULL;
	assert_int_equal(filewrite_replace_named(l, l, "<x/>\n", 5, &why), 0);
	char *kept = slurp(o), *written = slurp(l);
	assert_string_equal(kept, "precious\n");
	assert_string_equal(written, "<x/>\n");
	free(o), free(l), free(kept), free(written);
}

/* ---- a replace that checks the file is still what was read ---- */

static void test_unchanged_refuses_an_edit(void **state)
{
	(void)state;
	put("pages/p.md", "an edit saved meanwhile\n", 0644);
	char *why = NULL;
	assert_int_equal(filewrite_replace_repo_unchanged("pages/p.md", "as read\n", 8, "rewritten\n", 10, &why), -1);
	assert_non_null(strstr(why, "cannot write pages/p.md: it changed after it was read"));
	char *p = at("pages/p.md"), *text = slurp(p);
	assert_string_equal(text, "an edit saved meanwhile\n");
	assert_int_equal(temporaries("pages"), 0);
	free(why), free(p), free(text);
}

static void test_unchanged_writes_what_was_read(void **state)
{
	(void)state;
	put("pages/p.md", "as read\r\n", 0640); /* a CR is read away: the text is the same */
	char *why = NULL;
	assert_int_equal(filewrite_replace_repo_unchanged("pages/p.md", "as read\n", 8, "rewritten\n", 10, &why), 0);
	char *p = at("pages/p.md"), *text = slurp(p);
	assert_string_equal(text, "rewritten\n");
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(temporaries("pages"), 0);
	free(p), free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_anonymous, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_named, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_no_free_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace_keeps_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace_new_file_0644, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace_through_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace_refuses_link_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace_refuses_hard_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace_refuses_folder, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owner_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_only_dead_owners, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mkdirs_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mkdirs_not_through_link_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_named_replaces_link_in_place, setup, teardown),
		cmocka_unit_test_setup_teardown(test_named_refuses_folder_link_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_named_outside_replaces_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unchanged_refuses_an_edit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unchanged_writes_what_was_read, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

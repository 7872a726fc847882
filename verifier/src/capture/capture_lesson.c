/* capture_lesson.c - see capture_lesson.h. */
#include "capture_lesson.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence.h"
#include "evjudge.h"
#include "filewrite.h"
#include "proghdr.h"
#include "repo.h"
#include "textfile.h"
#include "util.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in folder fspath that pass keep(), sorted.  -1 when the
 * folder cannot be read (errno set). */
static int list_dir(const char *fspath, bool (*keep)(const char *dir, const char *name), char ***names,
		    size_t *n)
{
	*names = NULL;
	*n = 0;
	DIR *dir = opendir(fspath);
	if (!dir)
		return -1;
	size_t cap = 0;
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.' || !keep(fspath, e->d_name))
			continue;
		*names = xgrow(*names, &cap, *n + 1, sizeof **names);
		(*names)[(*n)++] = xstrdup(e->d_name);
	}
	closedir(dir);
	if (*n)
		qsort(*names, *n, sizeof **names, by_name);
	return 0;
}

static bool is_folder(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool yes = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
	free(p);
	return yes;
}

int lesson_names(char ***names, size_t *n, char **why)
{
	char *fs;
	const char *reason;
	if (repo_resolve("programs", &fs, &reason) != REPO_OK) {
		*why = xasprintf("programs/: %s", reason);
		return -1;
	}
	int r = list_dir(fs, is_folder, names, n);
	if (r != 0)
		*why = xasprintf("programs/: %s", strerror(errno));
	free(fs);
	/* the shared folder is no lesson */
	size_t kept = 0;
	for (size_t i = 0; r == 0 && i < *n; i++) {
		if (lessonfiles_is_lesson((*names)[i]))
			(*names)[kept++] = (*names)[i];
		else
			free((*names)[i]);
	}
	if (r == 0)
		*n = kept;
	return r;
}

/* The lesson's program among its files (lessonfiles.h's rule: a .cu at
 * any depth); without one, a message that says what the folder holds and
 * how to name it. */
static int find_program(const char *name, struct lesson *ls, char **why)
{
	if (ls->files.program == SIZE_MAX) {
		char *what = lessonfiles_no_program(&ls->files, name);
		*why = xasprintf("no program: %s; name the program with a '// Build: COMMAND' line in its header "
				 "comment (and the page's program:)", what);
		free(what);
		return -1;
	}
	ls->program = xstrdup(ls->files.v[ls->files.program].path);
	ls->dir = xasprintf("programs/%s", name);
	const char *slash = strrchr(ls->program, '/');
	ls->file = xstrdup(slash ? slash + 1 : ls->program);
	return 0;
}

/* A pattern compiled as capture matches it; -1 with *why naming line. */
static int compile_expect(const struct lesson *ls, const char *what, const struct proghdr_value *v, regex_t *re,
			  char **why)
{
	int e = regcomp(re, v->text, REG_EXTENDED | REG_NEWLINE | REG_NOSUB);
	if (e == 0)
		return 0;
	char msg[160];
	regerror(e, re, msg, sizeof msg);
	*why = xasprintf("the %s line of %s (line %zu) is no POSIX extended regular expression: %s", what, ls->program,
			 v->line, msg);
	return -1;
}

/* Every run, its own Expect NAME: compiled.  -1 with *why when one is no
 * regular expression (the runs taken so far are freed with the lesson). */
static int take_runs(struct lesson *ls, const struct proghdr *h, char **why)
{
	ls->runs = xcalloc(h->n_runs, sizeof *ls->runs);
	for (size_t i = 0; i < h->n_runs; i++) {
		ls->runs[i] = (struct lesson_run){xstrdup(h->runs[i].name), xstrdup(h->runs[i].text), h->runs[i].exit,
						  NULL, {0}};
		ls->n_runs = i + 1;
		if (!h->runs[i].expect.text)
			continue;
		if (compile_expect(ls, "Expect", &h->runs[i].expect, &ls->runs[i].expect_re, why) != 0)
			return -1;
		ls->runs[i].expect = xstrdup(h->runs[i].expect.text);
	}
	ls->run = xstrdup(h->runs[0].text);
	ls->build = xstrdup(h->build.text);
	return 0;
}

/* Build:, the runs, Expect: and source-sha256 from the snapshot. */
static int read_header(struct lesson *ls, char **why)
{
	struct textfile tf;
	textfile_from_memory(ls->source, ls->source_len, ls->program, &tf);
	memcpy(ls->sha, ls->files.sha, sizeof ls->sha);
	struct proghdr h;
	proghdr_parse(&tf, &h);
	int r = -1;
	if (h.n_problems)
		*why = xasprintf("header line %zu of %s cannot be read: %s", h.problems[0].line, ls->program,
				 h.problems[0].message);
	else if (!h.build.text || !h.build.text[0])
		*why = xasprintf("no build command: %s has no '// Build: COMMAND' header line", ls->program);
	else if (!h.n_runs)
		*why = xasprintf("no run command: %s has no '// Run: COMMAND' header line", ls->program);
	else if (h.build.count > 1 || h.run.count > 1 || h.expect.count > 1)
		*why = xasprintf("ambiguous header: %s repeats its %s line (line %zu is the first)", ls->program,
				 h.build.count > 1 ? "Build:" : h.run.count > 1 ? "Run:" : "Expect:",
				 h.build.count > 1 ? h.build.line : h.run.count > 1 ? h.run.line : h.expect.line);
	else
		r = 0;
	if (r == 0 && h.expect.text) {
		r = compile_expect(ls, "Expect:", &h.expect, &ls->expect_re, why);
		if (r == 0)
			ls->expect = xstrdup(h.expect.text);
	}
	if (r == 0 && h.resolution.text)
		ls->resolution = xstrdup(h.resolution.text);
	if (r == 0)
		r = take_runs(ls, &h, why);
	proghdr_free(&h);
	textfile_free(&tf);
	return r;
}

int lesson_load(const char *name, struct lesson *ls, char **why)
{
	memset(ls, 0, sizeof *ls);
	ls->name = xstrdup(name);
	/* The name goes into the evidence header on one line: a line feed
	 * would split it and the file would fail its own parser (F12). */
	unsigned char c = str_control_byte(name);
	if (c) {
		*why = xasprintf("the lesson folder's name holds the control byte 0x%02x, which no evidence header "
				 "can carry: rename the folder",
				 c);
		return -1;
	}
	char *err = NULL;
	if (lessonfiles_collect(name, &ls->files, &err) != 0) {
		*why = xasprintf("cannot read the lesson's files: %s", err);
		free(err);
		return -1;
	}
	if (find_program(name, ls, why) != 0)
		return -1;
	const struct lesson_file *p = &ls->files.v[ls->files.program];
	ls->source = xmalloc(p->len + 1);
	memcpy(ls->source, p->data, p->len + 1);
	ls->source_len = p->len;
	return read_header(ls, why);
}

void lesson_free(struct lesson *ls)
{
	free(ls->name);
	free(ls->program);
	free(ls->file);
	free(ls->source);
	free(ls->build);
	free(ls->run);
	for (size_t i = 0; i < ls->n_runs; i++) {
		free(ls->runs[i].name);
		free(ls->runs[i].command);
		if (ls->runs[i].expect)
			regfree(&ls->runs[i].expect_re);
		free(ls->runs[i].expect);
	}
	free(ls->runs);
	if (ls->expect)
		regfree(&ls->expect_re);
	free(ls->expect);
	free(ls->resolution);
	free(ls->dir);
	lessonfiles_free(&ls->files);
	memset(ls, 0, sizeof *ls);
}

int lesson_copy(const struct lesson *ls, const char *dir, char **why)
{
	for (size_t i = 0; i < ls->files.n; i++) {
		const struct lesson_file *f = &ls->files.v[i];
		const char *below = f->path + strlen("programs/");
		char *copy = xasprintf("%s/%s", dir, below);
		const char *slash = strrchr(below, '/');
		char *folder = slash ? xstrndup(below, (size_t)(slash - below)) : xstrdup("");
		/* the build writes in dir too (a --build-only folder is used
		 * again): a link it left on the way is refused, one at the
		 * file's name replaced, never followed out of the folder */
		int r = filewrite_mkdirs_below(dir, folder, why);
		if (r == 0)
			r = filewrite_replace_named(copy, copy, f->data, f->len, why);
		free(folder);
		free(copy);
		if (r != 0)
			return -1;
	}
	return 0;
}

bool lesson_expect_matches(const struct lesson *ls, size_t k, const char *out, size_t len)
{
	(void)len; /* transcripts are NUL-terminated */
	if (k < ls->n_runs && ls->runs[k].expect)
		return regexec(&ls->runs[k].expect_re, out, 0, NULL, 0) == 0;
	return !ls->expect || regexec(&ls->expect_re, out, 0, NULL, 0) == 0;
}

const char *lesson_expect_of(const struct lesson *ls, size_t k)
{
	return k < ls->n_runs && ls->runs[k].expect ? ls->runs[k].expect : ls->expect;
}

static bool differs(const struct evidence *ev, const char *key, const char *now)
{
	const char *was = evidence_get(ev, key, NULL);
	return !was || strcmp(was, now) != 0;
}

/* The first run whose command or expected exit differs from the
 * evidence, as a sentence, or NULL. */
static char *runs_changed(const struct lesson *ls, const struct evidence *ev)
{
	if (ev->n_runs != ls->n_runs)
		return xasprintf("the header names %zu run%s, its newest evidence %zu", ls->n_runs,
				 ls->n_runs == 1 ? "" : "s", ev->n_runs);
	for (size_t i = 0; i < ls->n_runs; i++) {
		const struct evidence_run *r = &ev->runs[i];
		if (strcmp(r->name, ls->runs[i].name) != 0 || !r->command || strcmp(r->command, ls->runs[i].command) != 0 ||
		    r->expect_exit != ls->runs[i].exit)
			return xasprintf("the run line '%s' changed since its newest evidence", ls->runs[i].name);
	}
	const char *expect = evidence_get(ev, "expect", NULL);
	if ((expect == NULL) != (ls->expect == NULL) || (expect && strcmp(expect, ls->expect) != 0))
		return xstrdup("the Expect: line changed since its newest evidence");
	for (size_t i = 0; i < ls->n_runs; i++) {
		char key[64];
		snprintf(key, sizeof key, "expect.%s", ls->runs[i].name);
		const char *own = evidence_get(ev, key, NULL), *now = ls->runs[i].expect;
		if ((own == NULL) != (now == NULL) || (own && strcmp(own, now) != 0))
			return xasprintf("the Expect %s: line changed since its newest evidence", ls->runs[i].name);
	}
	return NULL;
}

void lesson_report(enum diag_kind kind, const char *lesson, const char *text, const char *fmt, ...)
{
	char *where = xasprintf("programs/%s", lesson);
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = diag_vbegin(kind, (struct diag_loc){.path = where}, fmt, ap);
	va_end(ap);
	if (text)
		diag_text(d, text);
	diag_end(d);
	free(where);
}

/* The run judged as verify judges it (evjudge.h), against the lesson's
 * files as this capture read them. */
static void judge_run(const struct evidence *ev, const struct lesson *ls, struct evjudge *j)
{
	struct evjudge_in in = {.program = ls->program, .program_sha = ls->sha, .files = &ls->files};
	evjudge_run(ev, &in, j);
}

bool lesson_stale(const struct lesson *ls, char **reason)
{
	char *newest = repo_newest_evidence(ls->name);
	if (!newest) {
		*reason = xstrdup("it has no evidence");
		return true;
	}
	char *fs;
	const char *why;
	struct evidence ev;
	struct evidence_problem prob;
	bool stale = true;
	memset(&ev, 0, sizeof ev);
	char *changed = NULL;
	struct evjudge j = {0};
	if (repo_resolve(newest, &fs, &why) != REPO_OK) {
		*reason = xstrdup("its newest evidence cannot be read");
	} else {
		if (evidence_load(fs, newest, &ev, &prob, &why) != 0)
			*reason = xstrdup("its newest evidence cannot be read");
		else if ((judge_run(&ev, ls, &j), j.flags & EVJ_PROGRAM_MISMATCH))
			*reason = xstrdup("its newest evidence is of another program file");
		else if (differs(&ev, "build", ls->build))
			*reason = xstrdup("the Build: line changed since its newest evidence");
		else if ((changed = runs_changed(ls, &ev)) != NULL)
			*reason = changed;
		else if (j.flags & EVJ_STALE)
			*reason = xasprintf("%s since its newest evidence", j.changed);
		else if (j.flags & EVJ_FAILED)
			*reason = xstrdup("its newest evidence records a failed run");
		else {
			*reason = xstrdup("its newest evidence is current");
			stale = false;
		}
		evjudge_free(&j);
		free(fs);
	}
	evidence_free(&ev);
	free(newest);
	return stale;
}

/* ---- scratch folders ---- */

/* Scratch folders are named OWNER-LESSON-XXXXXX (OWNER: filewrite_owner())
 * under build/capture/, or coursecheck-capture-OWNER-LESSON-XXXXXX in
 * $TMPDIR, so that a later capture can tell whose they are. */
#define TMP_SCRATCH_PREFIX "coursecheck-capture-"

/* A Slurm task sets COURSECHECK_SCRATCH to its node's own scratch space, so
 * that builds and runs stay off the shared file system the repository is on. */
static const char *forced_scratch(void)
{
	const char *forced = getenv("COURSECHECK_SCRATCH");
	return forced && *forced ? forced : NULL;
}

static const char *tmp_folder(void)
{
	if (forced_scratch())
		return forced_scratch();
	const char *tmp = getenv("TMPDIR");
	return tmp && *tmp ? tmp : "/tmp";
}

char *lesson_scratch_dir(const char *lesson, char **why)
{
	char *err = NULL;
	char *base = forced_scratch() ? NULL : filewrite_mkdirs_repo("build/capture", &err);
	char *dir = NULL;
	if (base) {
		dir = xasprintf("%s/%s-%s-XXXXXX", base, filewrite_owner(), lesson);
		if (!mkdtemp(dir)) {
			free(dir);
			dir = NULL;
		}
	}
	free(err);
	free(base);
	if (dir)
		return dir;
	/* A read-only checkout, or build/ a link out of it: the system's
	 * temporary folder will do. */
	dir = xasprintf("%s/" TMP_SCRATCH_PREFIX "%s-%s-XXXXXX", tmp_folder(), filewrite_owner(), lesson);
	if (!mkdtemp(dir)) {
		*why = xasprintf("cannot make a scratch folder under build/capture/ or %s: %s", tmp_folder(),
				 strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

/* Removes the folders in dir named prefix+OWNER-... whose owner is gone. */
static size_t sweep_folder(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0, pre = strlen(prefix);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		long pid;
		unsigned long long start;
		const char *rest;
		if (strncmp(e->d_name, prefix, pre) != 0 ||
		    !filewrite_owner_parse(e->d_name + pre, &pid, &start, &rest) || *rest != '-' ||
		    !filewrite_owner_gone(pid, start))
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name);
		lesson_remove_tree(path);
		free(path);
		n++;
	}
	closedir(d);
	return n;
}

size_t lesson_scratch_sweep(void)
{
	size_t n = 0;
	char *fs;
	const char *reason;
	if (repo_resolve("build/capture", &fs, &reason) == REPO_OK) {
		n += sweep_folder(fs, "");
		free(fs);
	}
	return n + sweep_folder(tmp_folder(), TMP_SCRATCH_PREFIX);
}

size_t lesson_sweep_evidence(const char *name)
{
	char *rel = xasprintf("evidence/%s", name);
	char *fs;
	const char *reason;
	size_t n = 0;
	if (!strchr(name, '/') && repo_resolve(rel, &fs, &reason) == REPO_OK) {
		n = filewrite_sweep(fs);
		free(fs);
	}
	free(rel);
	return n;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0; /* carry on: remove as much as can be removed */
}

void lesson_remove_tree(const char *path)
{
	nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* capture_lesson.c - see capture_lesson.h. */
#include "capture_lesson.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence.h"
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

static bool is_cu_file(const char *dir, const char *name)
{
	size_t n = strlen(name);
	if (n < 4 || strcmp(name + n - 3, ".cu") != 0)
		return false;
	char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool yes = stat(p, &st) == 0 && S_ISREG(st.st_mode);
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
	return r;
}

/* Reads a whole file of at most TEXTFILE_MAX_BYTES. */
static int read_all(const char *path, char **data, size_t *len, char **why)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		*why = xstrdup(strerror(errno));
		return -1;
	}
	struct buf b = {0};
	buf_append(&b, "", 0);
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0 && b.len <= TEXTFILE_MAX_BYTES)
		buf_append(&b, chunk, got);
	int failed = ferror(f), e = errno;
	fclose(f);
	if (failed || b.len > TEXTFILE_MAX_BYTES) {
		*why = xstrdup(failed ? strerror(e) : "file is larger than 64 MiB");
		buf_free(&b);
		return -1;
	}
	*len = b.len;
	*data = buf_detach(&b);
	return 0;
}

/* Finds the one .cu file of the lesson folder. */
static int find_program(const char *name, struct lesson *ls, char **why)
{
	char *rel = xasprintf("programs/%s", name);
	char *fs;
	const char *reason;
	int r = -1;
	char **files = NULL;
	size_t n = 0;
	if (repo_resolve(rel, &fs, &reason) != REPO_OK) {
		*why = xasprintf("cannot open programs/%s/: %s", name, reason);
	} else {
		if (list_dir(fs, is_cu_file, &files, &n) != 0)
			*why = xasprintf("cannot list programs/%s/: %s", name, strerror(errno));
		else if (n == 0)
			*why = xasprintf("no program: programs/%s/ holds no .cu file", name);
		else if (n > 1)
			*why = xasprintf("no program: programs/%s/ holds %zu .cu files (%s, %s%s), a lesson has one",
					 name, n, files[0], files[1], n > 2 ? ", ..." : "");
		else
			r = 0;
		free(fs);
	}
	if (r == 0) {
		ls->file = xstrdup(files[0]);
		ls->program = xasprintf("%s/%s", rel, files[0]);
	}
	repo_free_list(files, n);
	free(rel);
	return r;
}

/* Build:, Run: and source-sha256 from the snapshot.  The hash is the
 * verifier's own (proghdr_source_sha256: the text with its Verified
 * paragraph left out), so that writing that paragraph after a capture
 * does not make the evidence stale. */
static int read_header(struct lesson *ls, char **why)
{
	struct textfile tf;
	textfile_from_memory(ls->source, ls->source_len, ls->program, &tf);
	proghdr_source_sha256(&tf, ls->sha);
	struct proghdr h;
	proghdr_parse(&tf, &h);
	int r = -1;
	if (!h.build.text || !h.build.text[0])
		*why = xasprintf("no build command: %s has no '// Build: COMMAND' header line", ls->program);
	else if (!h.run.text || !h.run.text[0])
		*why = xasprintf("no run command: %s has no '// Run: COMMAND' header line", ls->program);
	else if (h.build.count > 1 || h.run.count > 1)
		*why = xasprintf("ambiguous header: %s repeats its %s line (line %zu is the first)", ls->program,
				 h.build.count > 1 ? "Build:" : "Run:", h.build.count > 1 ? h.build.line : h.run.line);
	else
		r = 0;
	if (r == 0) {
		ls->build = xstrdup(h.build.text);
		ls->run = xstrdup(h.run.text);
	}
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
	if (find_program(name, ls, why) != 0)
		return -1;
	char *fs;
	const char *reason;
	if (repo_resolve(ls->program, &fs, &reason) != REPO_OK) {
		*why = xasprintf("cannot read %s: %s", ls->program, reason);
		return -1;
	}
	char *err = NULL;
	int r = read_all(fs, &ls->source, &ls->source_len, &err);
	free(fs);
	if (r != 0) {
		*why = xasprintf("cannot read %s: %s", ls->program, err);
		free(err);
		return -1;
	}
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
	memset(ls, 0, sizeof *ls);
}

static bool differs(const struct evidence *ev, const char *key, const char *now)
{
	const char *was = evidence_get(ev, key, NULL);
	return !was || strcmp(was, now) != 0;
}

bool lesson_stale(const struct lesson *ls, const char **reason)
{
	char *newest = repo_newest_evidence(ls->name);
	if (!newest) {
		*reason = "it has no evidence";
		return true;
	}
	char *fs;
	const char *why;
	struct evidence ev;
	struct evidence_problem prob;
	bool stale = true;
	memset(&ev, 0, sizeof ev);
	if (repo_resolve(newest, &fs, &why) != REPO_OK) {
		*reason = "its newest evidence cannot be read";
	} else {
		if (evidence_load(fs, newest, &ev, &prob, &why) != 0)
			*reason = "its newest evidence cannot be read";
		else if (differs(&ev, "program", ls->program))
			*reason = "its newest evidence is of another program file";
		else if (differs(&ev, "build", ls->build))
			*reason = "the Build: line changed since its newest evidence";
		else if (differs(&ev, "run", ls->run))
			*reason = "the Run: line changed since its newest evidence";
		else if (differs(&ev, "source-sha256", ls->sha))
			*reason = "the program changed since its newest evidence";
		else if (!evidence_exit_ok(&ev))
			*reason = "its newest evidence records a failed run";
		else {
			*reason = "its newest evidence is current";
			stale = false;
		}
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

char *scratch_dir(const char *lesson, char **why)
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
		remove_tree(path);
		free(path);
		n++;
	}
	closedir(d);
	return n;
}

size_t scratch_sweep(void)
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

void remove_tree(const char *path)
{
	nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

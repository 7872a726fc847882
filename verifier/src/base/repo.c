/* repo.c - see repo.h. */
#include "repo.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static char *root;
/* The current folder's path from the root ("" at the root, "pages/" below
 * it): relative operands are taken from there when the root was found
 * upward. */
static char *cwd_prefix;

static void forget_dirs(void);

int repo_open(const char *dir)
{
	char *real = realpath(dir, NULL);
	if (!real)
		return -1;
	forget_dirs();
	free(root);
	root = real;
	return 0;
}

void repo_close(void)
{
	forget_dirs();
	free(root);
	root = NULL;
	free(cwd_prefix);
	cwd_prefix = NULL;
}

/* pages and programs exist as folders, or as links (a link out is then
 * refused by the checks, by name, rather than taken as "no course"). */
static bool course_entry(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool ok = lstat(path, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode));
	free(path);
	return ok;
}

bool repo_holds_course(const char *dir)
{
	return course_entry(dir, "pages") && course_entry(dir, "programs");
}

int repo_find(const char *given, char **why)
{
	*why = NULL;
	if (given) {
		char *real = realpath(given, NULL);
		if (!real) {
			*why = xasprintf("cannot open the course folder '%s': %s", given, strerror(errno));
			return -1;
		}
		if (!repo_holds_course(real)) {
			*why = xasprintf("'%s' holds no course: a course folder has pages/ and programs/", given);
			free(real);
			return -1;
		}
		repo_close();
		root = real;
		cwd_prefix = xstrdup("");
		return 0;
	}
	char *cwd = getcwd(NULL, 0);
	if (!cwd) {
		*why = xasprintf("cannot name the current folder: %s", strerror(errno));
		return -1;
	}
	char *dir = xstrdup(cwd);
	for (;;) {
		if (repo_holds_course(dir[0] ? dir : "/")) {
			repo_close();
			root = realpath(dir[0] ? dir : "/", NULL);
			if (!root)
				root = xstrdup(dir[0] ? dir : "/");
			size_t n = strlen(dir);
			cwd_prefix = cwd[n] == '/' ? xasprintf("%s/", cwd + n + 1) : xstrdup("");
			free(dir);
			free(cwd);
			return 0;
		}
		char *slash = strrchr(dir, '/');
		if (!slash || dir[0] == '\0')
			break;
		*slash = '\0'; /* "/a/b" -> "/a" -> "" (the file-system root) */
	}
	*why = xstrdup("no course found in the current folder or any folder above it (a course folder has "
		       "pages/ and programs/); run it inside the course, or give --root DIR");
	free(dir);
	free(cwd);
	return -1;
}

char *repo_normalize(const char *relpath)
{
	if (relpath[0] == '/' || relpath[0] == '~')
		return NULL;
	size_t len = strlen(relpath);
	char *out = xmalloc(len + 1);
	size_t o = 0;
	const char *p = relpath;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (o == 0) {
				free(out);
				return NULL;
			}
			while (o > 0 && out[o - 1] != '/') /* drop the last component */
				o--;
			if (o > 0)
				o--;
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			if (o > 0)
				out[o++] = '/';
			memcpy(out + o, p, n);
			o += n;
		}
		p += n + (slash ? 1 : 0);
	}
	out[o] = '\0';
	if (o == 0) { /* "." or "a/..": the root itself */
		free(out);
		return xstrdup(".");
	}
	return out;
}

char *repo_operand(const char *arg)
{
	char *joined;
	size_t n = strlen(repo_root());
	if (arg[0] == '/') {
		if (strncmp(arg, repo_root(), n) != 0 || arg[n] != '/')
			return xstrdup(arg);
		joined = xstrdup(arg + n + 1);
	} else {
		joined = xasprintf("%s%s", cwd_prefix ? cwd_prefix : "", arg);
	}
	char *norm = repo_normalize(joined);
	if (!norm)
		return joined;
	free(joined);
	return norm;
}

const char *repo_root(void)
{
	return root ? root : ".";
}

/* Walks the components of relpath without touching the disk: an absolute
 * path, or a .. that would climb above the root, is refused before any
 * file is opened. */
static bool climbs_out(const char *relpath)
{
	int depth = 0;
	const char *p = relpath;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return true;
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n + (slash ? 1 : 0);
	}
	return false;
}

/* A path of plain components only: none empty, ".", or "..". */
static bool plain_components(const char *relpath)
{
	for (const char *p = relpath;;) {
		size_t n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (!p[n])
			return true;
		p += n + 1;
	}
}

/* Folders under the root known this run to be real folders (no link), the
 * last few looked at: the pages of a lesson name paths in the same few
 * folders.  Part of the root's state (the process has one thread, and one
 * root at a time): forgotten when the root changes (repo_open,
 * repo_close).  Fixed size, no allocation. */
#define KNOWN_DIRS 16
#define KNOWN_DIR_MAX 256
static char known_dirs[KNOWN_DIRS][KNOWN_DIR_MAX];
static unsigned known_next;

static bool known_dir(const char *path, size_t len)
{
	for (unsigned i = 0; i < KNOWN_DIRS; i++)
		if (strncmp(known_dirs[i], path, len) == 0 && known_dirs[i][len] == '\0')
			return true;
	return false;
}

static void forget_dirs(void)
{
	for (unsigned i = 0; i < KNOWN_DIRS; i++)
		known_dirs[i][0] = '\0';
	known_next = 0;
}

static void remember_dir(const char *path, size_t len)
{
	if (len >= KNOWN_DIR_MAX)
		return;
	memcpy(known_dirs[known_next], path, len);
	known_dirs[known_next][len] = '\0';
	known_next = (known_next + 1) % KNOWN_DIRS;
}

/* realpath() reads every component of root/relpath as a possible link
 * (ten readlink calls for programs/LESSON/x.cu under a deep root, on
 * every lookup).  The root is already real: when relpath has plain
 * components only and none of them is a link, root/relpath is its own
 * real path, inside the root.  One lstat a component (folders seen
 * recently are known) tells; true when it does.  Anything else (a link, a
 * component that cannot be read) is left to realpath(), which gives the
 * answer and its reason as before; a missing one (ENOENT after real
 * folders: realpath would stop there too) sets *missing. */
static bool resolves_as_is(const char *joined, size_t root_len, int *missing, mode_t *last_type)
{
	*missing = 0;
	for (size_t at = root_len + 1;;) {
		size_t n = strcspn(joined + at, "/");
		size_t end = at + n;
		bool last = joined[end] == '\0';
		if (last || !known_dir(joined, end)) {
			char *prefix = xstrndup(joined, end);
			struct stat st;
			int rc = lstat(prefix, &st), err = errno;
			free(prefix);
			if (rc != 0 && err == ENOENT) /* after real folders only: realpath says the same */
				*missing = ENOENT;
			if (rc != 0 || S_ISLNK(st.st_mode) || (!last && !S_ISDIR(st.st_mode)))
				return false;
			if (last)
				*last_type = st.st_mode & S_IFMT;
			if (!last)
				remember_dir(joined, end);
		}
		if (last)
			return true;
		at = end + 1;
	}
}

/* repo_resolve(), with the type of the path's own entry (lstat's) in
 * *type where the resolution looked at it, else 0. */
static enum repo_status resolve(const char *relpath, char **fspath, const char **why, mode_t *type)
{
	*fspath = NULL;
	*type = 0;
	if (relpath[0] == '\0') {
		*why = "empty path";
		return REPO_REFUSED;
	}
	if (relpath[0] == '/' || relpath[0] == '~') {
		*why = "absolute paths are refused: name files relative to the repository root";
		return REPO_REFUSED;
	}
	if (climbs_out(relpath)) {
		*why = "the path climbs out of the repository";
		return REPO_REFUSED;
	}
	char *joined = xasprintf("%s/%s", repo_root(), relpath);
	int missing = 0;
	if (root && plain_components(relpath) && resolves_as_is(joined, strlen(root), &missing, type)) {
		*fspath = joined;
		return REPO_OK;
	}
	if (root && missing) {
		*why = strerror(missing);
		free(joined);
		errno = missing;
		return REPO_MISSING;
	}
	char *real = realpath(joined, NULL);
	if (!real) {
		*why = strerror(errno);
		free(joined);
		return REPO_MISSING;
	}
	size_t n = strlen(repo_root());
	bool inside = strncmp(real, repo_root(), n) == 0 && (real[n] == '/' || real[n] == '\0');
	free(real);
	if (!inside) {
		*why = "a symbolic link on the path leads outside the repository";
		free(joined);
		return REPO_REFUSED;
	}
	*fspath = joined;
	return REPO_OK;
}

enum repo_status repo_resolve(const char *relpath, char **fspath, const char **why)
{
	mode_t type;
	return resolve(relpath, fspath, why, &type);
}

enum repo_status repo_resolve_type(const char *relpath, char **fspath, const char **why, mode_t *type)
{
	enum repo_status rs = resolve(relpath, fspath, why, type);
	struct stat st;
	if (rs == REPO_OK && *type == 0) /* resolved by realpath: the entry itself not looked at yet */
		*type = lstat(*fspath, &st) == 0 ? st.st_mode & S_IFMT : 0;
	return rs;
}

static bool digits(const char *s, int n, int *value)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*value = v;
	return true;
}

bool repo_evidence_name_parse(const char *name, int *ymd, int *seq)
{
	int y, m, d;
	size_t len = strlen(name);
	if (len < 18 || strncmp(name, "run-", 4) != 0 || strcmp(name + len - 4, ".txt") != 0)
		return false;
	if (!digits(name + 4, 4, &y) || name[8] != '-' || !digits(name + 9, 2, &m) || name[11] != '-' ||
	    !digits(name + 12, 2, &d) || m < 1 || m > 12 || d < 1 || d > 31)
		return false;
	*ymd = y * 10000 + m * 100 + d;
	*seq = 1;
	if (len == 18)
		return true;
	/* run-YYYY-MM-DD-N.txt */
	const char *p = name + 14;
	size_t n = len - 4 - 14;
	if (n < 2 || p[0] != '-' || n - 1 > 6 || p[1] == '0' || !digits(p + 1, (int)(n - 1), seq) || *seq < 2)
		return false;
	return true;
}

struct named {
	char *path;
	int ymd, seq;
	unsigned char type; /* d_type */
};

static int by_age(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	if (x->ymd != y->ymd)
		return x->ymd < y->ymd ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

bool repo_evidence_loose_name(const char *name)
{
	int ymd, seq;
	size_t n = strlen(name);
	return name[0] != '.' && !repo_evidence_name_parse(name, &ymd, &seq) &&
	       !(n > 4 && strcmp(name + n - 4, ".sig") == 0) && !str_control_byte(name);
}

size_t repo_list_runs(DIR *dir, const char *rel, char ***paths, bool **regular)
{
	return repo_list_runs_loose(dir, rel, paths, regular, NULL, NULL);
}

size_t repo_list_runs_loose(DIR *dir, const char *rel, char ***paths, bool **regular, char ***loose,
			    size_t *n_loose)
{
	struct named *list = NULL;
	size_t n = 0, cap = 0, cap_loose = 0;
	if (loose) {
		*loose = NULL;
		*n_loose = 0;
	}
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		int ymd, seq;
		if (!repo_evidence_name_parse(e->d_name, &ymd, &seq)) {
			if (loose && e->d_type == DT_REG && repo_evidence_loose_name(e->d_name)) {
				*loose = xgrow(*loose, &cap_loose, *n_loose + 1, sizeof **loose);
				(*loose)[(*n_loose)++] = xasprintf("%s/%s", rel, e->d_name);
			}
			continue;
		}
		list = xgrow(list, &cap, n + 1, sizeof *list);
		list[n++] = (struct named){xasprintf("%s/%s", rel, e->d_name), ymd, seq, e->d_type};
	}
	closedir(dir);
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(list, n, sizeof *list, by_age);
	*paths = n ? xmalloc(n * sizeof **paths) : NULL;
	if (regular)
		*regular = n ? xmalloc(n * sizeof **regular) : NULL;
	for (size_t i = 0; i < n; i++) {
		(*paths)[i] = list[i].path;
		if (regular)
			(*regular)[i] = list[i].type == DT_REG;
	}
	free(list);
	return n;
}

size_t repo_list_evidence(const char *lesson, char ***paths)
{
	*paths = NULL;
	char *rel = xasprintf("evidence/%s", lesson);
	char *fs;
	const char *why;
	if (strchr(lesson, '/') || repo_resolve(rel, &fs, &why) != REPO_OK) {
		free(rel);
		return 0;
	}
	DIR *dir = opendir(fs);
	free(fs);
	size_t n = dir ? repo_list_runs(dir, rel, paths, NULL) : 0;
	free(rel);
	return n;
}

void repo_free_list(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

char *repo_newest_evidence(const char *lesson)
{
	char **paths;
	size_t n = repo_list_evidence(lesson, &paths);
	char *newest = n ? xstrdup(paths[n - 1]) : NULL;
	repo_free_list(paths, n);
	return newest;
}

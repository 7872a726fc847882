/* repo.c - see repo.h. */
#include "repo.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static char *root;

int repo_open(const char *dir)
{
	char *real = realpath(dir, NULL);
	if (!real)
		return -1;
	free(root);
	root = real;
	return 0;
}

void repo_close(void)
{
	free(root);
	root = NULL;
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

enum repo_status repo_resolve(const char *relpath, char **fspath, const char **why)
{
	*fspath = NULL;
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

bool evidence_name_parse(const char *name, int *ymd, int *seq)
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
};

static int by_age(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	if (x->ymd != y->ymd)
		return x->ymd < y->ymd ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
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
	if (!dir) {
		free(rel);
		return 0;
	}
	struct named *list = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		int ymd, seq;
		if (!evidence_name_parse(e->d_name, &ymd, &seq))
			continue;
		list = xgrow(list, &cap, n + 1, sizeof *list);
		list[n++] = (struct named){xasprintf("%s/%s", rel, e->d_name), ymd, seq};
	}
	closedir(dir);
	free(rel);
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(list, n, sizeof *list, by_age);
	*paths = n ? xmalloc(n * sizeof **paths) : NULL;
	for (size_t i = 0; i < n; i++)
		(*paths)[i] = list[i].path;
	free(list);
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

/*
 * repo.h - the repository: its root, safe path resolution, and the
 * evidence folder's naming (evidence/LESSON/run-YYYY-MM-DD[-N].txt).
 *
 * Every path a page, program or evidence file names is resolved here, and
 * nowhere else, so that no input can make the tool read outside the
 * repository.  The root is process-wide: set it once with repo_open().
 */
#ifndef COURSECHECK_REPO_H
#define COURSECHECK_REPO_H

#include <stdbool.h>
#include <stddef.h>

enum repo_status {
	REPO_OK,
	REPO_REFUSED, /* absolute, climbs out with .., or a link leads outside */
	REPO_MISSING  /* does not exist or cannot be examined (errno reason) */
};

/* Makes dir (its real path) the repository root.  Returns 0, or -1 with
 * errno set. */
int repo_open(const char *dir);
void repo_close(void);
const char *repo_root(void);

/* Resolves a repository-relative path to a file-system path under the
 * root.  On REPO_OK *fspath is a malloc'd path the caller frees; otherwise
 * *why says why in words (static or strerror text). */
enum repo_status repo_resolve(const char *relpath, char **fspath, const char **why);

/* An evidence file name: run-YYYY-MM-DD.txt or run-YYYY-MM-DD-N.txt (N >= 2). */
bool evidence_name_parse(const char *name, int *ymd, int *seq);

/* The evidence files of a lesson, oldest first, as repository-relative
 * paths ("evidence/LESSON/run-...txt").  Returns the count; *paths is a
 * malloc'd array of malloc'd strings, freed with repo_free_list().  A
 * missing folder gives 0. */
size_t repo_list_evidence(const char *lesson, char ***paths);
void repo_free_list(char **paths, size_t n);
/* The newest evidence of a lesson, malloc'd, or NULL when it has none. */
char *repo_newest_evidence(const char *lesson);

#endif

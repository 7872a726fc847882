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

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum repo_status {
	REPO_OK,
	REPO_REFUSED, /* absolute, climbs out with .., or a link leads outside */
	REPO_MISSING  /* does not exist or cannot be examined (errno reason) */
};

/* Makes dir (its real path) the repository root.  Returns 0, or -1 with
 * errno set. */
int repo_open(const char *dir);

/* A folder holds a course when it has pages/ and programs/ (folders, or
 * links that the checks then judge). */
bool repo_holds_course(const char *dir);
/* Opens the course a command works on.  With given (--root DIR), that
 * folder, which must itself hold a course; otherwise the nearest folder at
 * or above the current one that holds one, as git finds its repository.
 * Returns 0, or -1 with *why a malloc'd sentence saying what was looked at
 * (the caller prints it and exits 2; a run that finds no course checks
 * nothing and must not pass). */
int repo_find(const char *given, char **why);
/* A command-line operand as a repository path (malloc'd): an absolute path
 * under the root loses the root; a relative one is taken from the current
 * folder when the root was found upward (from the root with --root).  The
 * result is normalised (repo_normalize); one that climbs out is returned
 * as given, for repo_resolve to refuse. */
char *repo_operand(const char *arg);
/* A repository path with "." components, repeated slashes and "DIR/.."
 * pairs removed, without touching the disk, so that two names of one file
 * compare equal (pages/../programs/x/x.cu is programs/x/x.cu).  Returns a
 * malloc'd path, or NULL when it is absolute or climbs above the root. */
char *repo_normalize(const char *relpath);
void repo_close(void);
const char *repo_root(void);

/* Resolves a repository-relative path to a file-system path under the
 * root.  On REPO_OK *fspath is a malloc'd path the caller frees; otherwise
 * *why says why in words (static or strerror text). */
enum repo_status repo_resolve(const char *relpath, char **fspath, const char **why);
/* As repo_resolve(); on REPO_OK *type is also the type (S_IFMT bits) of
 * the entry itself, as lstat() gives it (a link is S_IFLNK), or 0 when it
 * cannot be read.  The resolution's own look at the entry answers where
 * it took one, so a caller that must refuse links or non-folders asks
 * the disk once, not twice. */
enum repo_status repo_resolve_type(const char *relpath, char **fspath, const char **why, mode_t *type);

/* An evidence file name: run-YYYY-MM-DD.txt or run-YYYY-MM-DD-N.txt (N >= 2). */
bool repo_evidence_name_parse(const char *name, int *ymd, int *seq);

/* The evidence files of a lesson, oldest first, as repository-relative
 * paths ("evidence/LESSON/run-...txt").  Returns the count; *paths is a
 * malloc'd array of malloc'd strings, freed with repo_free_list().  A
 * missing folder gives 0. */
size_t repo_list_evidence(const char *lesson, char ***paths);
/* The runs in dir, the opened folder rel (evidence/LESSON), as
 * repo_list_evidence() orders and names them; closes dir.  With regular,
 * also whether each is a regular file by its directory entry (d_type:
 * DT_UNKNOWN counts as not known to be, and is resolved the long way).
 * The one lister of runs: verify's course model and capture --stale both
 * come here. */
size_t repo_list_runs(DIR *dir, const char *rel, char ***paths, bool **regular);
/* As repo_list_runs(), also naming the regular files of the folder that
 * are no run, no signature (.sig) and not hidden (*loose: rel/NAME,
 * malloc'd array of malloc'd strings, freed with repo_free_list(); names
 * with a control byte left out): what a scan for stray private keys
 * reads, from the same listing. */
size_t repo_list_runs_loose(DIR *dir, const char *rel, char ***paths, bool **regular, char ***loose,
			    size_t *n_loose);
/* Whether a folder entry of evidence/ is one the private-key scan reads:
 * not hidden, no run, no signature, no control byte in its name. */
bool repo_evidence_loose_name(const char *name);
void repo_free_list(char **paths, size_t n);
/* The newest evidence of a lesson, malloc'd, or NULL when it has none. */
char *repo_newest_evidence(const char *lesson);

#endif

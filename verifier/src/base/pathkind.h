/*
 * pathkind.h - what a repository path names, by where it lies: the one
 * classifier verify and update ask before they read a file as a page.
 *
 *   pages/...*.md            PATHKIND_PAGE     a course page
 *   programs/...*.md         PATHKIND_README   a lesson's README (or notes):
 *                                              a page that may omit front matter
 *   programs/...*.cu         PATHKIND_PROGRAM  a lesson's program file
 *   programs/... (other)     PATHKIND_LESSON_FILE  a header, a Makefile, ...
 *   evidence/...             PATHKIND_EVIDENCE a captured run
 *   anything else            PATHKIND_OTHER    read as a page (it says why not)
 *
 * rel is repository-relative and normalised (repo_normalize()).  libc only (and diag for
 * the one diagnostic).
 */
#ifndef COURSECHECK_PATHKIND_H
#define COURSECHECK_PATHKIND_H

#include <stdbool.h>

#include "diag.h"

enum pathkind {
	PATHKIND_PAGE,
	PATHKIND_README,
	PATHKIND_PROGRAM,
	PATHKIND_LESSON_FILE,
	PATHKIND_EVIDENCE,
	PATHKIND_OTHER,
};

enum pathkind pathkind_of(const char *rel);
/* "a program file", "evidence", ...: for messages. */
const char *pathkind_name(enum pathkind kind);

/* Reports (not-a-page) and returns true when rel names a file that is no
 * page: a program file, another file of a lesson, evidence.  With
 * program_ok a lesson's .cu file is accepted (update rewrites its
 * Verified paragraph).  command ("verify", "update") words the hint. */
bool pathkind_refuse_page(const char *rel, const char *command, bool program_ok);

/* The diagnostic kind of a file that cannot be used: path-refused when
 * refused (repo_resolve() said REPO_REFUSED, or a lesson refused), else
 * file-too-large when why is textfile_too_large, else file-unreadable.
 * The one rule from a repository status to a kind. */
enum diag_kind pathkind_unusable_kind(bool refused, const char *why);

#endif

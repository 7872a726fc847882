/*
 * readset.h - the files a run read, as evidence written by this capture
 * records them (source-rule: tokens-1), and whether one of them changed.
 *
 * Capture (capture_sched.c) builds with DEPENDENCIES_OUTPUT set to a file
 * of its scratch folder: gcc and clang then append, for every compile, a
 * make rule naming the non-system files it read (nvcc preprocesses through
 * its host compiler, which inherits the variable; a Makefile or CMake
 * build passes it on to the compilers it runs).  No flag is added to the
 * author's Build: command and nothing is preloaded.  The set:
 *   - each lesson source file (srctok_is_source()) the compiler named,
 *     its path relative to the compile's folder resolved against the
 *     lesson folder (and, for a build in a subfolder such as CMake's
 *     b/, with its leading ../ taken one at a time);
 *   - every other lesson file: data a run may open, a Makefile, a
 *     CMakeLists.txt (the runs' opens are not traced);
 *   - the program.
 * When the compiler named none of the lesson's sources (it ignores the
 * variable, or the output is larger than READSET_MAX_DEPS), every file:
 * `reads: all-files` instead of `reads: compiler-deps`.
 *
 * Header lines (lessonfiles.h's source-file-N, with hashes by srctok.h):
 *   source-rule: tokens-1
 *   reads: compiler-deps
 *   source-file-1: programs/common/cuda_check.h 3f5a...
 * and source-sha256 is the SHA-256 of the lines "PATH SHA\n" of the set.
 * Evidence without source-rule: is judged by lessonfiles_changed() (every
 * file, by its bytes), as it was captured.
 *
 * Judged (readset_changed()): stale when a recorded file is gone or its
 * hash by the tokens rule differs, or when a lesson file that was not
 * recorded is a data file (not a source) or the set is all-files: a new
 * file the program may open.  A new source file the compiler never read
 * is not a change.  libc and libcrypto only (capture links it).
 */
#ifndef COURSECHECK_READSET_H
#define COURSECHECK_READSET_H

#include <stdbool.h>
#include <stddef.h>

#include "evidence.h"
#include "lessonfiles.h"
#include "sha256.h"
#include "util.h"

#define READSET_RULE_KEY "source-rule"
#define READSET_METHOD_KEY "reads"
#define READSET_DEPS "compiler-deps"
#define READSET_ALL "all-files"
#define READSET_MAX_DEPS (16u * 1024u * 1024u)

struct readset {
	size_t *files;  /* indexes into the lesson_files it was made from, in path order */
	size_t n;
	const char *method; /* READSET_DEPS or READSET_ALL */
	char sha[SHA256_HEX_LEN + 1]; /* source-sha256 */
};

/* The set from f and the compiler's dependency output (deps, len bytes;
 * NULL when there is none): paths are resolved against workdir (the
 * lesson folder's copy, absolute) and mapped to lesson files through top
 * (the folder holding the copies LESSON/ and common/).  r is overwritten;
 * free with readset_free(). */
void readset_from_deps(struct readset *r, const struct lesson_files *f, const char *deps, size_t len,
		       const char *top, const char *workdir);
/* Every file of f: the set where no build ran. */
void readset_all(struct readset *r, const struct lesson_files *f);
void readset_free(struct readset *r);

/* Appends source-rule:, reads: and the source-file-N lines to h. */
void readset_header(struct buf *h, const struct readset *r, const struct lesson_files *f);

/* Whether ev was written under the tokens rule (source-rule: tokens-1). */
bool readset_recorded(const struct evidence *ev);

/* The source-file-N lines: lessonfiles_entries() (lessonfiles.h). */

/* For evidence with readset_recorded(): a malloc'd sentence naming the
 * first recorded file that changed or is gone, or the first new data
 * file ("'programs/day31/input.bin' is new"); NULL when none did.  *line
 * gets the evidence line to point at; now gets the set's source-sha256 as
 * the files are now. */
char *readset_changed(const struct evidence *ev, const struct lesson_files *f, size_t *line,
		      char now[SHA256_HEX_LEN + 1]);

#endif

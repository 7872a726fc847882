/*
 * capture_reads.h - what a build read, asked of its compilers (readset.h
 * says how the set is made and recorded).
 *
 * The build runs with DEPENDENCIES_OUTPUT naming a file of the job's
 * scratch folder (capture_reads_env()); once it ends, capture_reads_take()
 * reads that file (at most READSET_MAX_DEPS bytes: more, or none, and the
 * set is every lesson file) and makes the set.  The author's Build:
 * command is run as written.
 */
#ifndef COURSECHECK_CAPTURE_READS_H
#define COURSECHECK_CAPTURE_READS_H

#include "capture_lesson.h"
#include "readset.h"

/* The dependency file of a job whose scratch folder is scratch (malloc'd). */
char *capture_reads_path(const char *scratch);
/* The build's environment: this process's, with DEPENDENCIES_OUTPUT set
 * to deps_path and, where also is not NULL, the NAME=VALUE also (the
 * build's TMPDIR).  Free with proc_env_free(). */
char **capture_reads_env(const char *deps_path, const char *also);
/* The set of the build in workdir (the copy of programs/LESSON/, whose
 * parent holds the copies): r is overwritten; free with readset_free(). */
void capture_reads_take(struct readset *r, const struct lesson *ls, const char *deps_path, const char *workdir);

#endif

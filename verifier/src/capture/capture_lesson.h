/*
 * capture_lesson.h - the lessons capture works on, and the folders it
 * works in.
 *
 * A lesson is its folder programs/LESSON/ plus the shared programs/common/
 * (lessonfiles.h says which files count and which one is the program);
 * the program's header (proghdr.h) names its Build: command, its runs and
 * what a successful run prints (Expect:).  Every file is read once: the
 * hashes, the header and the copies that are built all come from that
 * one snapshot, so the evidence describes the files as built even if
 * someone edits them during the capture.  The hashes are the ones the
 * verifier checks (lessonfiles.h).
 */
#ifndef COURSECHECK_CAPTURE_LESSON_H
#define COURSECHECK_CAPTURE_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include <regex.h>

#include "diag.h"
#include "lessonfiles.h"
#include "sha256.h"

struct lesson_run {
	char *name;    /* "main" for a run line without a name */
	char *command;
	int exit;      /* the exit status it is expected to end with */
	char *expect;  /* its own Expect NAME: pattern, or NULL (then the lesson's Expect: holds) */
	regex_t expect_re; /* compiled when expect is set */
};

struct lesson {
	char *name;        /* the folder under programs/ */
	char *program;     /* "programs/NAME/FILE.cu" */
	char *file;        /* "FILE.cu" */
	char *source;      /* the file's bytes */
	size_t source_len;
	char sha[SHA256_HEX_LEN + 1]; /* source-sha256: proghdr_source_sha256() of the bytes */
	char *build;       /* the header's Build: command */
	char *run;         /* the first run's command */
	struct lesson_run *runs; /* every run, in header order */
	size_t n_runs;
	char *expect;      /* the Expect: pattern, or NULL */
	regex_t expect_re; /* compiled (POSIX ERE, REG_NEWLINE) when expect is set */
	char *resolution;  /* the Resolution: value, or NULL (recorded as resolution:) */
	struct lesson_files files; /* every file of the lesson, read once */
	char *dir;         /* "programs/NAME": where the program's folder starts */
};

/* The lesson folders under programs/ of the repository, sorted by name
 * (malloc'd array of malloc'd names; free with repo_free_list()).  Returns
 * 0, or -1 with *why (malloc'd) when programs/ cannot be read. */
int lesson_names(char ***names, size_t *n, char **why);

/* Loads a lesson.  Returns 0, or -1 with *why (malloc'd, "what went
 * wrong: reason") when the folder holds no program (lessonfiles.h), a
 * file cannot be read, or the header lacks or repeats Build: or Run:,
 * holds a line it cannot read, or an Expect: that is no regular
 * expression. */
int lesson_load(const char *name, struct lesson *ls, char **why);
void lesson_free(struct lesson *ls);

/* Reports a finding about a lesson through diag (diag.def's capture
 * kinds), at programs/LESSON: the one way capture says what went wrong;
 * text (or NULL) is printed under it, each line indented (the end of a
 * failed build's or run's output). */
void lesson_report(enum diag_kind kind, const char *lesson, const char *text, const char *fmt, ...) PRINTF_LIKE(4, 5);

/* Whether --stale must capture the lesson: its newest evidence is missing,
 * unreadable, failed, or was taken of another program, source or command.
 * *reason (malloc'd) says which, naming the file that changed, or why not. */
bool lesson_stale(const struct lesson *ls, char **reason);

/* Copies the lesson's files into dir with their layout below programs/
 * (dir/NAME/..., dir/common/...).  0, or -1 with *why. */
int lesson_copy(const struct lesson *ls, const char *dir, char **why);
/* Whether out (the stdout of run k, len bytes) matches that run's own
 * Expect NAME:, or else the lesson's Expect: (true when neither is set). */
bool lesson_expect_matches(const struct lesson *ls, size_t k, const char *out, size_t len);
/* The pattern run k's stdout must match (its own, or the lesson's), or NULL. */
const char *lesson_expect_of(const struct lesson *ls, size_t k);

/* ---- scratch folders ---- */

/* A fresh private folder for one lesson's build and run: under
 * build/capture/ of the repository (made only where no link leads out of
 * it), or $TMPDIR when that cannot be made.  Its name starts with this
 * process's owner token (filewrite_owner()), so that lesson_scratch_sweep() of a
 * later capture can remove it if this one is killed.  Malloc'd absolute
 * path, or NULL with *why.  Remove with lesson_remove_tree(). */
char *lesson_scratch_dir(const char *lesson, char **why);
/* Removes the scratch folders of captures that are gone (never those of
 * a capture still running).  Returns how many. */
size_t lesson_scratch_sweep(void);
/* Removes the temporaries a killed capture left in evidence/NAME/
 * (filewrite_sweep()).  Returns how many. */
size_t lesson_sweep_evidence(const char *name);
/* rm -rf path (not following links). */
void lesson_remove_tree(const char *path);

#endif

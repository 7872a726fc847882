/*
 * evjudge.h - one run of evidence judged: is it evidence of the lesson and
 * program it is used for, and of their files as they are now?
 *
 * The one judgement that verify (check_page.c, check_program.c), update
 * and capture --stale share.  It reads, it does not report: each command
 * says what the verdict means for it (verify raises evidence-mismatch,
 * evidence-stale, evidence-failed; update raises update-refused; capture
 * --stale captures again), so the rule is written once and the wording
 * stays each command's.  libc and libcrypto only (capture links it);
 * runjudge.h is the same judgement over the verifier's course model.
 *
 * The order is the one verify reports in: a run of another lesson or
 * program is judged no further (its files say nothing about this page);
 * otherwise staleness, a failed run and a shared GPU are each judged.
 * Staleness follows the rule the run was captured under: evidence with
 * source-rule: tokens-1 by the files it read (readset.h), older evidence
 * by every file of the lesson, byte for byte (lessonfiles_changed()).
 */
#ifndef COURSECHECK_EVJUDGE_H
#define COURSECHECK_EVJUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "evidence.h"
#include "lessonfiles.h"

/* What the run is judged against; every field may be NULL ("not known",
 * that part is not judged). */
struct evjudge_in {
	const char *lesson;      /* the lesson it should be of */
	const char *program;     /* the program it should be of (repository path) */
	const char *program_sha; /* that program's source-sha256 now; NULL: it cannot be read */
	const struct lesson_files *files; /* the lesson's files now */
	const char *files_why;   /* with files NULL: why they cannot be told */
	bool files_refused;      /* ...and whether because the lesson is refused (a link, a limit) */
};

enum {
	EVJ_EDITED = 1u << 0,           /* the body does not match body-sha256 (runjudge.h) */
	EVJ_LESSON_MISMATCH = 1u << 1,  /* its header names another lesson */
	EVJ_PROGRAM_MISMATCH = 1u << 2, /* its header names another program */
	EVJ_FILES_UNKNOWN = 1u << 3,    /* the lesson's files cannot be read: staleness cannot be told */
	EVJ_FILES_REFUSED = 1u << 8,    /* ...because the lesson is refused (a link, a limit) */
	EVJ_STALE = 1u << 4,            /* a file it was captured from changed, is new or is gone */
	EVJ_FAILED = 1u << 5,           /* it records a failed run */
	EVJ_SHARED_GPU = 1u << 6,       /* gpu-exclusive: is not yes */
	EVJ_SUPERSEDED = 1u << 7,       /* the lesson has a newer run (runjudge.h) */
};

/* The verdict.  Strings other than changed and newest point into the
 * evidence (or the inputs) and live as long as they do; lines are
 * evidence file lines, for notes.  Free with evjudge_free(). */
struct evjudge {
	unsigned flags;
	const char *lesson;      /* the header's lesson: */
	size_t lesson_line;
	const char *program;     /* the header's program: */
	size_t program_line;
	const char *files_why;   /* EVJ_FILES_UNKNOWN: why (in->files_why) */
	char *changed;           /* EVJ_STALE: "'programs/x/scan.cu' changed" (malloc'd) */
	size_t stale_line;       /* the line that recorded what changed */
	const char *was_sha;     /* source-sha256 recorded */
	const char *now_sha;     /* source-sha256 now */
	char now_buf[SHA256_HEX_LEN + 1]; /* where now_sha is, for evidence of source-rule: tokens-1 */
	size_t n_files;          /* files judged: 0 when judged by the program's hash alone */
	bool by_reads;           /* judged by the files the run read (source-rule: tokens-1) */
	const char *exit;        /* EVJ_FAILED: the exit: field of the run that failed */
	size_t exit_line;        /* ...its line, or the expect-failed: line */
	char *failed_why;        /* EVJ_FAILED: what failed, "exit: 3", "run 'racecheck' exit: 0, expected 1",
				  * "stdout of run 'main' did not match Expect:" (malloc'd) */
	const char *exclusive;   /* EVJ_SHARED_GPU: the gpu-exclusive: field */
	size_t exclusive_line;
	char *newest;            /* EVJ_SUPERSEDED: the lesson's newest run (malloc'd) */
};

/* Judges e against in; j is overwritten.  When the files are unknown
 * (EVJ_FILES_UNKNOWN), staleness is still judged by the program's own
 * hash where it is known: verify says it cannot tell, update (which
 * needs only the program) goes by the hash. */
void evjudge_run(const struct evidence *e, const struct evjudge_in *in, struct evjudge *j);
void evjudge_free(struct evjudge *j);

#endif

/*
 * capture_write.h - composing an evidence file and putting it in place.
 *
 * An evidence file is never overwritten or deleted.  It is written whole
 * through filewrite_new() (filewrite.h): an anonymous file (O_TMPFILE) in
 * the lesson's evidence folder, flushed to disk, then given its final
 * name with linkat(2), which fails rather than replace a file: a taken
 * name moves on to the next -N.  So an interrupted capture, even kill -9,
 * leaves nothing or a complete file, and two captures of one lesson on
 * one day get two names.  Where the file system has no O_TMPFILE, a named
 * temporary (".coursecheck-tmp-OWNER-N", which repo_evidence_name_parse()
 * and git ignore) takes its place, and the next capture in the folder
 * sweeps the ones whose owner is gone.  evidence/ and evidence/LESSON/
 * are made only where no link on the path leads out of the repository.
 */
#ifndef COURSECHECK_CAPTURE_WRITE_H
#define COURSECHECK_CAPTURE_WRITE_H

#include <stddef.h>

#include "capture_text.h"
#include "util.h"

/* Appends "key: value\n" to a header under construction. */
void header_add(struct buf *header, const char *key, const char *value);

/* The whole evidence text: the magic line, the header lines, body-sha256
 * (computed here), then the stdout and stderr sections.  Malloc'd. */
char *evidence_compose(const struct buf *header, const struct transcript *out,
		       const struct transcript *err, size_t *len);

/* The same with n runs (evidence.h): outs[0]/errs[0] the first run's
 * sections, then stdout.NAME / stderr.NAME for names[1..n). */
char *evidence_compose_runs(const struct buf *header, const struct transcript *const *outs,
			    const struct transcript *const *errs, const char *const *names, size_t n, size_t *len);

/* Writes text as evidence/LESSON/run-DATE[-N].txt under the repository
 * root (date: "YYYY-MM-DD"), creating the folders when missing.  Returns
 * 0 with *relpath (malloc'd, repository-relative), or -1 with *why
 * (malloc'd, naming the path and the reason). */
int evidence_write_new(const char *lesson, const char *date, const char *text, size_t len, char **relpath,
		       char **why);

#endif

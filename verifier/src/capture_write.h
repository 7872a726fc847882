/*
 * capture_write.h - composing an evidence file and putting it in place.
 *
 * An evidence file is never overwritten or deleted.  It is written whole
 * to a temporary file (".tmp-run-XXXXXX", a name evidence_name_parse()
 * ignores) in the lesson's evidence folder, flushed to disk, and then
 * given its final name with link(2), which fails rather than replace a
 * file: a taken name moves on to the next -N.  So an interrupted capture
 * leaves nothing or a complete file, and two captures of one lesson on
 * one day get two names.  Every failure path removes the temporary file.
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

/* Writes text as evidence/LESSON/run-DATE[-N].txt under the repository
 * root (date: "YYYY-MM-DD"), creating the folders when missing.  Returns
 * 0 with *relpath (malloc'd, repository-relative), or -1 with *why
 * (malloc'd, naming the path and the reason). */
int evidence_write_new(const char *lesson, const char *date, const char *text, size_t len, char **relpath,
		       char **why);

#endif

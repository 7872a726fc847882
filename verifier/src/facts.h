/*
 * facts.h - the facts of a run stated in prose, checked against the
 * evidence header: the GPU (named exactly), every date (YYYY-MM-DD, the
 * UTC date of captured), `driver X`, `CUDA X.Y` with or without
 * `(VX.Y.Z)`, `compute capability X.Y`, and every nvcc flag (a word that
 * starts with - or --), which must appear in the recorded build command.
 *
 * Used for a page's measured paragraphs and a program's Verified
 * paragraph.  The text is borrowed; map tells where each byte of it sits
 * in file (NULL: byte i is at file offset base + i).
 */
#ifndef COURSECHECK_FACTS_H
#define COURSECHECK_FACTS_H

#include <stddef.h>

#include "course.h"
#include "ledger.h"
#include "textfile.h"

struct fact_text {
	const char *s;
	size_t len;
	const struct textfile *file; /* where the text sits */
	size_t base;                 /* file offset of s[0] when map is NULL */
	const size_t *map;           /* file offset of each byte, or NULL */
};

/* A byte range of the text a fact consumed (so the number checks do not
 * check it again as a prose number). */
struct fact_range {
	size_t start, end;
};

/* Checks every fact against ev (which must be LOAD_OK).  Reports each
 * disagreement and, when lg is given, records each fact in it.  *ranges
 * (malloc'd, may be NULL) receives the consumed ranges.  Returns the
 * number of facts checked. */
size_t facts_check(const struct fact_text *t, const struct evfile *ev, struct ledger *lg, struct fact_range **ranges,
		   size_t *n_ranges);

#endif

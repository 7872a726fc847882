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

#include <stdbool.h>
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

enum fact_kind { FACT_GPU, FACT_DATE, FACT_DRIVER, FACT_CUDA, FACT_CUDA_V, FACT_CC, FACT_FLAG };

/* One fact stated in a text: its kind and the span of its value. */
struct fact {
	enum fact_kind kind;
	size_t start, end;
};

/* Finds every fact of text[0..len): the GPU (where gpu, the evidence's
 * name, occurs; listed first), dates, drivers, CUDA versions (the V part
 * as a FACT_CUDA_V right after its FACT_CUDA), compute capabilities and
 * flags.  *out is malloc'd (NULL when none); returns the count. */
size_t facts_find(const char *s, size_t len, const char *gpu, struct fact **out);
/* The evidence header key a fact is compared with. */
const char *fact_key(enum fact_kind kind);
/* The value the evidence says a fact of this kind must have (the date of
 * captured, the X.Y or the V part of cuda, ...), into buf; returns its
 * length, 0 when the evidence records none. */
size_t fact_expected(const struct evidence *ev, enum fact_kind kind, char *buf, size_t buflen);
/* True when flag is a word, or one comma-joined item, of build. */
bool fact_flag_in_build(const char *build, const char *flag, size_t len);

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

/*
 * The run's facts stated in any prose, not only in a measured paragraph:
 * in each sentence of t that is about the run, every date, driver, CUDA
 * version, compute capability and GPU model named must be one of the
 * evidence's (any of ev[0..n_ev), each LOAD_OK).  A sentence is about the
 * run when it says so -- "captured", "recorded", "measured", "timed",
 * "ran", "the run", "this run" -- and does not say it is about another
 * ("earlier", "previous", "another", "other", "older", "different",
 * "edition").  A GPU model is a word such as A100, H200, L40S, T4, GH200,
 * RTX 4090 or GTX 1080 (after an optional NVIDIA, GeForce, Tesla or
 * Quadro); it must stand in the evidence's gpu field.  Flags are left to
 * measured paragraphs.  Sentences end at '.', '!' or '?' before a blank or
 * the end.  Reports each disagreement as facts_check does, records each
 * fact in lg when given, and gives the consumed ranges; returns the number
 * of facts checked.  Linear in the text.
 */
size_t facts_check_stated(const struct fact_text *t, struct evfile *const *ev, size_t n_ev, struct ledger *lg,
			  struct fact_range **ranges, size_t *n_ranges);

#endif

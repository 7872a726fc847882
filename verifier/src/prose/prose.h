/*
 * prose.h - the numbers of a page's prose, found once for the checks and
 * for update: each number of a text segment (never code spans, HTML or
 * link destinations), where it sits in the page, and the annotation
 * written right after it.  Numbers a measured paragraph's facts consumed
 * are left out.
 */
#ifndef COURSECHECK_PROSE_H
#define COURSECHECK_PROSE_H

#include <stddef.h>

#include "pagectx.h"
#include "numtok.h"

struct pnum {
	struct num_token tok;
	const char *text;        /* the literal the token offsets refer to */
	size_t raw_off;          /* byte offset in the page, SIZE_MAX if unknown */
	const struct seg *annot; /* the annotation written right after it, or NULL */
	size_t low;              /* a range: index of its low number (the one before), else SIZE_MAX */
	bool range_low;          /* this number is the low end of the range after it */
};

/* Collects the numbers of node (a paragraph, heading or table cell),
 * pairing each annotation with the number right before it (a range: with
 * the two numbers before it); an annotation with none is reported
 * (annotation-dangling).  Claim annotations follow words and are left in
 * the segments for the claim checks.  *segs_out and *out are
 * malloc'd and freed by the caller; the numbers point into the segments,
 * so free the segments last. */
size_t prose_collect(struct page_ctx *ctx, cmark_node *node, struct seg **segs_out, size_t *n_segs, struct pnum **out);
/* Where a number is, for diagnostics (its block's line when unknown). */
struct diag_loc prose_loc(const struct page_ctx *ctx, const struct pnum *p, size_t node_line);
/* Where a segment is (its block's line when unknown). */
struct diag_loc prose_seg_loc(const struct page_ctx *ctx, const struct seg *g, size_t node_line);
/* The number as written, malloc'd. */
char *prose_text(const struct pnum *p);
/* An annotation's argument text and length. */
const char *prose_annot_arg(const struct seg *g, size_t *len);
/* Why an unannotated prose number needs no tracing (a year, a whole
 * number under 100 without a unit), or NULL when it must be traced. */
const char *prose_skip_reason(const struct num_token *t);

#endif

/*
 * frontmatter.h - a page's YAML front matter, read with libyaml.
 *
 *   ---
 *   lesson: day31-scan-1
 *   day: 31
 *   title: "..."
 *   status: in-technical-review        # draft | in-technical-review | published
 *   program: programs/day31-scan-1/scan.cu
 *   evidence: evidence/day31-scan-1/run-2026-11-30.txt
 *   ---
 *
 * evidence may instead be a mapping of labels to paths; the first is the
 * default.  Problems are reported as diagnostics at the page's line; the
 * struct owns every string and is released with frontmatter_free().
 *
 * The fields are read from libyaml's events (frontmatter.c).  Limits,
 * checked before libyaml sees the text (frontmatter-limit): at
 * most FM_MAX_BYTES between the --- lines, and flow collections ([ and {)
 * nested at most FM_MAX_FLOW_DEPTH deep.  libyaml 0.2.5, which Debian 12
 * ships, is quadratic in that nesting.
 */
#ifndef COURSECHECK_FRONTMATTER_H
#define COURSECHECK_FRONTMATTER_H

#include <stdbool.h>
#include <stddef.h>

#include "textfile.h"

/* The evidence: value of a page whose lesson has not been captured yet. */
#define FM_EVIDENCE_NOT_YET "none yet"

#define FM_MAX_BYTES 65536
#define FM_MAX_FLOW_DEPTH 16

enum page_status { STATUS_DRAFT, STATUS_REVIEW, STATUS_PUBLISHED };

struct fm_evidence {
	char *label; /* "main" for a plain path */
	char *path;
	size_t line; /* page line of the path's scalar */
	size_t col;  /* 1-based byte column where the scalar starts (its opening quote, if quoted) */
};

struct frontmatter {
	bool present;        /* the page starts with a --- block */
	size_t first_body_line; /* first line after the closing --- (1 when absent) */
	char *lesson;
	long day;
	char *title;
	enum page_status status;
	char *program;
	size_t program_line, program_col;
	struct fm_evidence *evidence;
	size_t n_evidence;
};

/* Parses the front matter of tf.  require: report a page without front
 * matter (program READMEs may omit it).  to: where its problems go
 * (DIAG_DROP when another page's check reads it only for its fields: they
 * are reported when the page is checked itself).  Returns the number of
 * problems found; fields that could not be read stay NULL/0, except
 * status, which stays in-technical-review (the stricter reading of a bad
 * page). */
int frontmatter_parse(const struct textfile *tf, bool require, enum diag_dest to, struct frontmatter *fm);
void frontmatter_free(struct frontmatter *fm);
const char *frontmatter_status_name(enum page_status s);
/* The evidence entry for label (NULL or "" means the default, the first). */
const struct fm_evidence *frontmatter_evidence(const struct frontmatter *fm, const char *label);

#endif

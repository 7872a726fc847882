/*
 * ledger.h - what a page claims and where each claim came from.
 *
 * Every check writes one entry per claim it judged (a code block, a fact,
 * a number, a number it skipped and why).  The ledger is filled once, by
 * check_page(), and then read by two renderers: `coursecheck explain`
 * prints it as text in page order with totals (ledger_print), and
 * `coursecheck review` renders it as HTML beside the page (review.c).
 * So everything a reviewer is shown is recorded here, by the check that
 * judged it, and never worked out a second time.
 *
 * An entry's text (claim, source) is what explain prints.  The structured
 * parts are for review and are optional: the page span of the claim, the
 * evidence or program lines it rests on (refs, with the matched token),
 * and details for people (the rounding, the row and column names).
 * ledger_add() returns the new entry so that the check can attach them
 * right away; the pointer is valid until the next ledger_add().
 *
 * A ledger owns its strings; release with ledger_free().  Every function
 * accepts a NULL ledger or entry (verify runs without one) and does
 * nothing then.
 */
#ifndef COURSECHECK_LEDGER_H
#define COURSECHECK_LEDGER_H

#include <stddef.h>
#include <stdio.h>

#include "util.h"

enum ledger_kind {
	LG_CODE,    /* a code block and its provenance */
	LG_FACT,    /* a fact of a measured paragraph */
	LG_TRACED,  /* a number found in the evidence bank */
	LG_DERIVED, /* a number computed by <!-- = EXPR --> */
	LG_CITED,   /* a number traced in another lesson's bank */
	LG_EXT,     /* a number declared external, with its reason */
	LG_ROW,     /* an evidence table row */
	LG_SKIPPED, /* a number not checked, and why */
	LG_FAILED,  /* a claim that did not hold (the diagnostic says why) */
	LG_CLAIM,   /* a claim annotation: its operands, their values and its truth */
	LG_AMBIGUOUS, /* a traced number whose place nothing settles, with its candidates */
	LG_KIND_COUNT
};

/* One file a claim rests on: evidence lines, or a program's snippet. */
struct ledger_ref {
	char *path;            /* repository-relative */
	size_t line, line_end; /* 1-based file lines, line <= line_end */
	size_t col, len;       /* the matched token on line: 1-based byte column and length; col 0: none */
	char *note;            /* what this reference is, for people ("literal 170530"), or NULL */
};

struct ledger_entry {
	enum ledger_kind kind;
	size_t line, col;
	char *claim;  /* what the page says */
	char *source; /* where it came from, or why it was skipped */
	size_t span;  /* bytes of the claim in the page from (line, col); 0: the whole block at line */
	char *detail; /* for people: rounding, row and column names, ...; NULL when none */
	struct ledger_ref *refs;
	size_t n_refs;
};

/* What the page is, for the header of a review: set by check_page(). */
struct ledger_page {
	char *title, *status, *lesson; /* NULL when the front matter has none */
	char **evidence;               /* the evidence paths the page names, in order */
	size_t n_evidence;
	size_t first_body_line; /* the first line after the front matter */
};

struct ledger {
	struct ledger_entry *v;
	size_t n, cap;
	struct ledger_page page;
};

struct ledger_entry *ledger_add(struct ledger *lg, enum ledger_kind kind, size_t line, size_t col, const char *claim,
				const char *source_fmt, ...) PRINTF_LIKE(6, 7);
/* The claim's length in the page's bytes (a diag_loc's span). */
void ledger_span(struct ledger_entry *e, size_t span);
/* Adds a reference; note_fmt may be NULL. */
void ledger_ref(struct ledger_entry *e, const char *path, size_t line, size_t line_end, size_t col, size_t len,
		const char *note_fmt, ...) PRINTF_LIKE(7, 8);
/* Appends a sentence to the entry's details ("; " between sentences). */
void ledger_detail(struct ledger_entry *e, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Records what the page is (copies everything). */
void ledger_set_page(struct ledger *lg, const char *title, const char *status, const char *lesson,
		     const char *const *evidence, size_t n_evidence);
/* The entries sorted by line and column (entries of one place keep their
 * order); malloc'd array of pointers into lg, freed by the caller. */
const struct ledger_entry **ledger_sorted(const struct ledger *lg);
/* Prints the entries sorted by line and column, then the totals (the kinds
 * from LG_CLAIM on only when the page has some). */
void ledger_print(const struct ledger *lg, const char *page, FILE *out);
size_t ledger_count(const struct ledger *lg, enum ledger_kind kind);
/* The word a kind is printed as ("traced", "FAILED", ...); the JSON report
 * and review use it too. */
const char *ledger_kind_name(enum ledger_kind kind);
void ledger_free(struct ledger *lg);

#endif

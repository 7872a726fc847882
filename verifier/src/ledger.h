/*
 * ledger.h - what a page claims and where each claim came from.
 *
 * Every check writes one entry per claim it judged (a code block, a fact,
 * a number, a number it skipped and why); `coursecheck explain` prints the
 * ledger in page order with totals.  A ledger owns its strings; release
 * with ledger_free().
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

struct ledger_entry {
	enum ledger_kind kind;
	size_t line, col;
	char *claim;  /* what the page says */
	char *source; /* where it came from, or why it was skipped */
};

struct ledger {
	struct ledger_entry *v;
	size_t n, cap;
};

void ledger_add(struct ledger *lg, enum ledger_kind kind, size_t line, size_t col, const char *claim,
		const char *source_fmt, ...) PRINTF_LIKE(6, 7);
/* The entries sorted by line and column: a shallow copy (the strings stay
 * the ledger's); free() the array. */
struct ledger_entry *ledger_sorted(const struct ledger *lg);
/* Prints the entries sorted by line and column, then the totals (the kinds
 * from LG_CLAIM on only when the page has some). */
void ledger_print(const struct ledger *lg, const char *page, FILE *out);
size_t ledger_count(const struct ledger *lg, enum ledger_kind kind);
/* The word a kind is printed as ("traced"); the JSON report uses it too. */
const char *ledger_kind_name(enum ledger_kind kind);
void ledger_free(struct ledger *lg);

#endif

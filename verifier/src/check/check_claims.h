/*
 * check_claims.h - the number checks that read a sentence or a table row
 * as a whole (for check_numbers.c):
 *
 *   - claim annotations, evaluated against the page's default evidence
 *     (claim-false, claim-syntax, and the ledger's claim entries);
 *   - sentences and table cells that state a direction without a claim
 *     (claim-unannotated, under --as published);
 *   - the numbers of one sentence or row traced together, so that each is
 *     bound to the place its neighbours share (number-ambiguous when
 *     nothing settles it);
 *   - the place annotations of a number: at:, range:, min:, max:, one-run:
 *     (number-place-mismatch, and number-volatile for a bare volatile one).
 *
 * A unit is one paragraph (sentences split at '.', '!' or '?' before a
 * blank) or one table row (each cell its own sentence for the direction
 * words; the row one group for tracing).  Everything is borrowed from the
 * caller for the duration of the call; the unit's names are filled as
 * places are named.
 */
#ifndef COURSECHECK_CHECK_CLAIMS_H
#define COURSECHECK_CHECK_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#include "bank.h"
#include "check.h"
#include "prose.h"

/* The written names of a page's bank entries' places, remembered:
 * naming scans the evidence, and a page may name one place thousands of
 * times.  Keyed by the entry (stable for one page's bank): owned by the
 * page's number check beside its bank (check_numbers.c), zero to begin
 * with, freed by claims_names_free() before the bank is. */
struct claims_names {
	struct claims_name_slot *slot; /* CLAIMS_NAME_SLOTS of them, made at the first name */
};
void claims_names_free(struct claims_names *names);

struct claims_unit {
	struct page_ctx *ctx;
	const struct bank *bank;
	const struct seg *segs; /* the unit's segments, in order */
	size_t n_segs;
	const size_t *seg_cell; /* a table row: the cell of each segment; NULL for a paragraph */
	const struct pnum *nums;
	size_t n_nums;
	size_t line;            /* the block's first line (or the row's) */
	struct claims_names *names; /* the names of bank's places (the page's, borrowed) */
};

/* How a plain number of a unit was traced. */
struct claims_trace {
	const struct bank_entry *at; /* the place it is bound to; NULL: untraced */
	bool ambiguous;              /* nothing settles which of cands it is */
	bool off_line;               /* its neighbours share a line it is not on */
	const struct bank_entry *cands[4];
	size_t n_cands;              /* all candidates (cands holds the first 4) */
};

/* Traces the unit's numbers whose want[i] is true together; out[i] for
 * each (untouched where want[i] is false). */
void claims_trace_unit(const struct claims_unit *u, const bool *want, struct claims_trace *out);

/* Ledger entries and, under --as published, number-ambiguous and
 * number-volatile for one traced number. */
void claims_report_trace(const struct claims_unit *u, const struct pnum *p, const struct claims_trace *t);

/* The claims of the unit and its unannotated direction words. */
void claims_check_unit(const struct claims_unit *u);

/* A number with a place annotation (at, range, min, max, one-run); low is
 * the range's low number (NULL otherwise). */
void claims_check_place_number(const struct claims_unit *u, const struct pnum *p, const struct pnum *low);

/* A derived number (check_numbers.c) that does not match its derivation
 * because the run moved it across the line its sentence's direction word
 * states it against (direction.h): reported as claim-false, an error
 * whatever the page's status, and true; false (nothing reported) when it
 * is an ordinary mismatch. */
bool claims_derived_flipped(struct page_ctx *ctx, const struct pnum *p, const char *expr, size_t len, double value,
			    struct diag_loc at);

#endif

/*
 * review_approvals.h - the sign-off's state of a page's items, as the
 * review page shows them (review.h's approvals hook, filled from
 * approvals.h's judgement).
 *
 * review_approvals_load() reads the page again (the items' sentences),
 * makes its items from the ledger its check filled, reads and judges
 * reviews/PAGE.approvals against the trusted keys (evsig's, loaded for
 * the run) and keeps each item's state; review_approvals_lookup() is the
 * review_approval_fn the page calls for every approvable ledger entry: an
 * entry is matched to the first item not yet matched of the same kind at
 * the same line and column (the page's entries come in ledger order, as
 * the items are made).
 *
 * Ownership: the struct owns everything it hands out; the strings a
 * lookup writes into a review_approval stay valid until
 * review_approvals_free().
 */
#ifndef COURSECHECK_REVIEW_APPROVALS_H
#define COURSECHECK_REVIEW_APPROVALS_H
#include "ledger.h"

enum review_approval_state {
	REVIEW_APPROVAL_NONE,     /* never approved (or no lookup set) */
	REVIEW_APPROVAL_APPROVED, /* approved, and nothing it rested on moved */
	REVIEW_APPROVAL_REOPENED, /* approved once; its sentence, expression or values changed since */
};

struct review_approval {
	enum review_approval_state state;
	/* borrowed, each may be NULL; valid until review_render returns */
	const char *by, *when;   /* who approved it, and when */
	const char *old_values;  /* reopened: what was approved (values, evidence run) */
	const char *new_values;  /* reopened: what it rests on now */
	const char *id;          /* the sign-off's id of the item (what approve takes), replacing the page's own */
};

/* Fills *out (zeroed before the call) for the item named id of page. */
typedef void (*review_approval_fn)(void *ctx, const char *page, const char *id, const struct ledger_entry *e,
				   struct review_approval *out);

struct review_approvals;

/* NULL when the page cannot be read again (the review then shows no
 * approval state: every item unapproved, under the page's own ids). */
struct review_approvals *review_approvals_load(const char *page_rel, const struct ledger *lg);
void review_approvals_lookup(void *ctx, const char *page, const char *id, const struct ledger_entry *e,
			     struct review_approval *out);
void review_approvals_free(struct review_approvals *ra);
#endif

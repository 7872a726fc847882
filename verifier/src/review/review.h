/*
 * review.h - `coursecheck review`: the technical review gate as HTML.
 *
 *   coursecheck review [--root DIR] [--output DIR] [PAGE...]
 *
 * For each page (default: every page of pages/ and every program README) the
 * page is checked once at the strictness of --as published, which fills
 * its ledger (ledger.h) and prints its diagnostics; the ledger and the
 * diagnostics are then rendered as one self-contained HTML file, DIR/NAME.html
 * (pages/day31-scan-1.md -> day31-scan-1.html, programs/L/README.md ->
 * programs-L-README.html), and DIR/index.html lists the pages with their
 * verdict and counts.  DIR defaults to build/review.
 *
 * A review file loads nothing: no network, no script, font or image from
 * elsewhere, no link out of the file (the page's own links are shown as
 * text).  Its CSS and its few lines of JavaScript are inline, and without
 * JavaScript every item's evidence is in a table under its block.
 *
 * What is shown comes from the ledger and the diagnostics only: review
 * re-reads the page's text (to render it) and the lines the ledger points
 * at (to quote them), but judges nothing itself.
 *
 * Exit status as verify's: 0 when every page passes the gate, 1 when one
 * has an error (the review files are written all the same), 2 for a usage
 * error, an unreadable page, or a review file that cannot be written
 * (review-write).
 */
#ifndef COURSECHECK_REVIEW_H
#define COURSECHECK_REVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "ledger.h"
#include "review_approvals.h"

int cli_review(int argc, char **argv);

/* ---- approvals: the hook the sign-off fills ------------------------------
 *
 * A review shows each approvable item's approval state when a lookup is
 * set (review_set_approvals): the review itself reads no approval file.
 * Approvable items are the sign-off's items (review_item_approvable:
 * approvals.h's kinds); each is named by its item id, which the page's
 * approve control puts into `coursecheck approve PAGE --item ID...`: the
 * sign-off's id (approvals.h, 8 hex digits that survive a recapture) when
 * the lookup gives one, else the page's own (review_item_id_of). */
/* The approval types (struct review_approval, review_approval_fn):
 * review_approvals.h. */
/* Sets the lookup review_render calls for every approvable item (NULL:
 * none, every item's state is REVIEW_APPROVAL_NONE). */
void review_set_approvals(review_approval_fn fn, void *ctx);

/* Whether the page's approve control is offered for e: an item the
 * sign-off gate asks a reviewer to accept (approvals_kind_gated: a claim,
 * a traced, derived or cited number, an evidence row, an ambiguous
 * number). */
bool review_item_approvable(const struct ledger_entry *e);
/* The stable id of e among the entries of its page, written into
 * buf[REVIEW_ITEM_ID_MAX]: "KIND-LINE-COL" with KIND ledger_kind_name()
 * in lower case (traced-46-51, claim-61-3, failed-20-1), and "-N" after
 * it for the N-th (N >= 2) entry of the same kind at the same place, in
 * ledger order (nth counts from 1).  Letters, digits and '-' only: an
 * HTML id, a URL fragment and a shell word as it is. */
#define REVIEW_ITEM_ID_MAX 64
void review_item_id_of(const struct ledger_entry *e, size_t nth, char buf[REVIEW_ITEM_ID_MAX]);

/* Where links to the course's files (programs, evidence) start, seen
 * from the review folder: "../../" for build/review.  Copied; NULL or
 * unset: no links. */
void review_set_files_prefix(const char *prefix);

/* The outcome of the gate for one page, as the index shows it. */
struct review_verdict {
	size_t errors, warnings; /* under --as published */
};

/* Renders the review of page relpath from its ledger and the diagnostics
 * text printed while checking it (GNU format, no colour; may be empty).
 * Returns malloc'd HTML and its length in *len. */
char *review_render(const char *relpath, const struct ledger *lg, const char *diags,
		    const struct review_verdict *v, size_t *len);

#endif

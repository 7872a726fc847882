/*
 * check_approvals.h - the review gate (issue 36): a published page's
 * claims and traced numbers need a trusted reviewer's approval
 * (approvals.h says what an item, an approvals file and a state are).
 *
 * check_approvals() runs at the end of check_page for every page that has
 * front matter: the page's approvals file is read whatever the page's
 * status, and a block that is malformed or edited (approval-signature-bad)
 * or signed by a key not trusted for reviews (approval-signer-untrusted)
 * is reported at its line; a file that cannot be read is approvals-
 * unreadable.  Only at published strictness (status: published, or
 * --as published) is each item judged: an item no record approves is
 * approval-missing at its place on the page, with the approve command as
 * its hint (while the trusted allowed_signers lists no reviewer and the
 * file approves nothing, one approval-missing for the page, at its first
 * line, says so: nobody could act on one an item); a reopened one is approval-reopened, with the values approved
 * and the values now, the approved sentence where it changed, and the
 * evidence tokens that moved (a note each, at the new run's line).  A
 * draft or a page in review gets neither: approving is the last step
 * before publishing, and its errors would bury the ones an author fixes.
 *
 * check_approvals_report() is the same report over approvals the caller read
 * (`coursecheck approvals --since=REF` reads them at REF) and items it
 * made; approved items say nothing.  It returns the count of items
 * approved, reopened and new, for a summary.
 */
#ifndef COURSECHECK_CHECK_APPROVALS_H
#define COURSECHECK_CHECK_APPROVALS_H

#include <stdbool.h>
#include <stddef.h>

#include "approvals.h"
#include "ledger.h"
#include "pagectx.h"
#include "textfile.h"

struct approvals_tally {
	size_t approved, reopened, unapproved;
};

void check_approvals(struct page_ctx *ctx);

/* The file's problems, then (items true) each item not approved. */
struct approvals_tally check_approvals_report(const char *page_rel, const struct textfile *page,
					      const struct approval_items *it, const struct approvals *a, bool items);

#endif

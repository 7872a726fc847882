/*
 * cli_approve.h - the reviewer's commands of the review gate (issue 36;
 * approvals.h has the items, the file and the states).
 *
 * `coursecheck approve PAGE (--item ID... | --all) --key FILE
 * --principal NAME [--trust=REF]` checks the page as verify does (at its
 * own status; the gate's own items are not reported), refuses a page with
 * errors, makes its items, and appends one block approving the chosen
 * ones (--all: every item not approved; --item: an id as
 * approval-missing names it, or LINE or LINE:COL of the page) to
 * reviews/PAGE.approvals, signed with the key under coursecheck-review,
 * through filewrite.  The key must be an unencrypted Ed25519 key that
 * evidence/allowed_signers (at --trust=REF when given) lists for
 * coursecheck-review with NAME among its principals and never for
 * coursecheck-evidence.  Blocks whose every item the new one approves
 * again are dropped; other reviewers' blocks stay as they were.  --list
 * prints each item (id, state, place on the page, what it is) and
 * approves nothing.  Errors are approve-refused (exit 2).
 *
 * `coursecheck approvals [--since=REF] [--trust=REF] [PAGE...]` is the
 * delta review: for each page (every page without operands) what changed
 * since the approvals (the working tree's, or the file as it was at git
 * revision REF): each new item (approval-missing) and each reopened one
 * (approval-reopened, with the approved and current values side by side
 * and a note at each evidence line that moved), through diag, whatever
 * the page's status; approved items print nothing.  A summary line counts
 * them.  --format=json gives the same as a report.  Exit 1 when anything
 * awaits a reviewer.
 */
#ifndef COURSECHECK_CLI_APPROVE_H
#define COURSECHECK_CLI_APPROVE_H

int cli_approve(int argc, char **argv);
int cli_approvals(int argc, char **argv);

#endif

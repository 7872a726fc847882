/*
 * review_diags.h - a page's diagnostics, read back from the GNU text diag
 * printed while the page was checked (no colour), so that a review shows
 * each one beside the item it explains.  Reading the printed text, not a
 * second path through diag, keeps review's view identical to verify's.
 *
 * A diagnostic starts at a line "PATH:LINE:COL: error: MESSAGE [ID]" (or
 * warning); the caret lines, notes and diff under it are its body; a line
 * "hint: ..." its hint.  Text before the first diagnostic is dropped.
 * Everything is owned by the list; release with review_diags_free().
 */
#ifndef COURSECHECK_REVIEW_DIAGS_H
#define COURSECHECK_REVIEW_DIAGS_H

#include <stdbool.h>
#include <stddef.h>

#include "ledger.h"

struct review_diag {
	size_t line, col; /* on the page; 0 when the diagnostic is about another file */
	char *head;       /* "error: message [id]" */
	char *body;       /* caret lines, notes, diff (may be "") */
	char *hint;       /* or NULL */
	bool error;
	long owner;       /* index into the entries given to attach, or -1 */
};

struct review_diags {
	struct review_diag *v;
	size_t n, cap;
};

/* Splits text into diagnostics; those located on page get line and col. */
void review_diags_parse(struct review_diags *ds, const char *text, const char *page);
/* Sets each diagnostic's owner among v[0..n) (sorted by line): the failed
 * item at its place, or else the failed item nearest before its column on
 * its line (a derivation's literal sits in the annotation after its
 * number), or else a failed item on its line. */
void review_diags_attach(struct review_diags *ds, const struct ledger_entry **v, size_t n);
void review_diags_free(struct review_diags *ds);

#endif

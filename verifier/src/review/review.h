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

#include <stddef.h>

#include "ledger.h"

int cli_review(int argc, char **argv);

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

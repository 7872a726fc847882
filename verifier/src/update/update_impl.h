/*
 * update_impl.h - the update command's own header: the state of one file's
 * update and what its three files share, for them alone (update.h is the
 * interface cli_update.c uses).
 *
 * `update` is one module in three files (tests/arch/layers.py counts them
 * as the module `update`), following a file through its pipeline:
 * - update.c: one file from start to end (the page or program header
 *   read, the runs picked and judged carriable, the body walked block by
 *   block, the edits applied, the diff printed, the file written,
 *   reported), the recording of edits and items left for a person, a
 *   number followed from the old run to the new, prose numbers and
 *   evidence table rows;
 * - update_claims.c: the numbers whose new value is computed, not
 *   followed: bound to a place (at, one-run, min, max, range), derived
 *   (derive: literals followed, the value recomputed, a flip of its
 *   stated direction reported), and claim annotations (re-evaluated on
 *   the new run: a claim flip or a claim the new repeats do not decide);
 * - update_blocks.c: measured paragraphs' facts and the fenced blocks
 *   rewritten whole or line by line (snippet, build, transcript).
 *
 * Ownership: a struct update lives on update_file's stack and is freed by
 * update.c's release(); the edits own their text.  Everything else a
 * function here is given is borrowed for the call.  Every function
 * reports through diag, and counts what it reports in the struct
 * (left, flips, to_replace).
 */
#ifndef COURSECHECK_UPDATE_IMPL_H
#define COURSECHECK_UPDATE_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include <cmark-gfm.h>

#include "align.h"
#include "bank.h"
#include "course.h"
#include "numtok.h"
#include "page.h"
#include "pagectx.h"
#include "prose.h"
#include "util.h"

struct edit {
	size_t start, end; /* byte range of the old text */
	char *text;        /* what replaces it */
	bool dropped;      /* it overlapped an earlier one */
};

struct update {
	struct page_ctx ctx;
	const struct evfile *old, *now; /* the run the page quoted, the newest */
	struct alignment al;
	struct bank old_bank;
	struct bank now_bank; /* the newest run's numbers: what needs no carrying */
	struct edit *edits;
	size_t n_edits, cap_edits;
	size_t left;  /* items left for a person */
	size_t flips; /* claim flips */
	bool first;   /* the page said 'evidence: none yet': old and now are the first run */
	size_t to_replace; /* first capture: numbers the run does not hold */
	int carriable; /* the newest run may be carried: 0 not yet judged, 1 yes, -1 no (update-refused) */
	bool refused;  /* it was refused */
	bool unreadable; /* the file itself cannot be read (exit 2) */
	bool binding;    /* a page of 'evidence: none yet' is bound to the newest run: judged as a new run is */
};


/* ---- update.c -------------------------------------------------------- */

/* Records the rewrite of bytes [start, end) of the file to text (len
 * bytes, copied); an edit that changes nothing is not recorded.  Edits
 * may come in any order; overlapping ones are dropped when applied. */
void update_add_edit(struct update *u, size_t start, size_t end, const char *text, size_t len);

/* Reports an item left for a person (update-left) at byte off of the
 * file, and counts it. */
void update_leave(struct update *u, size_t off, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* The new value at the place of the old run's bank entry e (a header
 * value: the same key; a stdout number: its aligned place).  Fills the
 * new token and its evidence line; false when the new run has no such
 * place. */
bool update_follow(const struct update *u, const struct bank_entry *e, struct num_token *now_tok, size_t *now_line);

/* A number that is in neither the named run's bank nor the newest: the
 * binding verify's note uses (drift.h: the newest older run where it
 * traced, followed to its place in the newest run).  Fills the new token
 * and its evidence line; false when there is no such place, or the
 * newest run may not be carried (reported once, at the run). */
bool update_follow_older(struct update *u, const struct num_token *tok, struct num_token *now_tok, size_t *now_line);

/* Moves a traced prose number p to its new value in its own format: from
 * bank entry e of the old run, or (e NULL) by the older run's binding;
 * on a first capture a number the run does not hold is reported
 * (update-first-capture).  What cannot be moved is left for a person. */
void update_move_number(struct update *u, const struct pnum *p, const struct bank_entry *e);

/* ---- update_claims.c ------------------------------------------------- */

/* A number bound to a place (at, one-run, min, max, range) takes the
 * place's new value, or its new bounds over the repeats (low: the range's
 * lower number, or NULL).  Returns false for the other annotations. */
bool update_place_number(struct update *u, const struct pnum *p, const struct pnum *low);

/* A derived number (derive annotation): its literals follow the new run
 * and the value is computed again; a stated direction that became false
 * is a claim flip, reported and not rewritten. */
void update_derived(struct update *u, const struct pnum *p);

/* Every claim annotation among segs[0..n): evaluated on both runs; its
 * literals carried when it still holds, a flip reported when it does not. */
void update_claims(struct update *u, const struct seg *segs, size_t n);

/* ---- update_blocks.c ------------------------------------------------- */

/* The facts of a measured paragraph or a program's Verified paragraph
 * (s, len): each rewritten from the new run's header.  Offsets in s map
 * to the file by map (when not NULL) or by adding base; the facts' bytes
 * are marked consumed in the page context, so they are not prose. */
void update_facts(struct update *u, const char *s, size_t len, const size_t *map, size_t base);

/* A snippet block rewritten from the program's current source, in the
 * page's own indentation. */
void update_snippet(struct update *u, const struct page_block *b);

/* A build block (one plain line) rewritten to the new run's build command. */
void update_build(struct update *u, const struct page_block *b);

/* A transcript excerpt: each line follows its old line to the aligned
 * line of the new run. */
void update_transcript(struct update *u, const struct page_block *b);

#endif

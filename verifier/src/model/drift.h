/*
 * drift.h - why a number no longer traces: binding it to the older run of
 * its lesson where it did, and following that place into the run the page
 * names now.  The note reads
 *   was 70,320 at evidence/L/run-A.txt:19:52 (row "64 inclusive, in place",
 *   column "mismatches"); that place holds 2920 in evidence/L/run-B.txt:19:52
 * and says whether the place was volatile (it varied between the repeats
 * of that capture: a race count, a timing) or stable in every repeat, in
 * which case the change is a behaviour-change warning of its own.
 *
 * The older runs banked and aligned for a page are kept in the course
 * model (course_cache), emptied when the page is done.
 */
#ifndef COURSECHECK_DRIFT_H
#define COURSECHECK_DRIFT_H

#include <stdbool.h>
#include <stddef.h>

#include "course.h"
#include "numtok.h"

struct drift {
	const struct evfile *old;  /* the older run where the number traced */
	size_t old_line, old_col;  /* its place there (file line, column) */
	char old_text[64];         /* the number as that run printed it */
	const struct evfile *now;  /* the run the page names */
	bool followed;             /* the place exists in that run */
	size_t now_line, now_col;
	char now_text[64];
	char row[96], column[64];  /* names of the place, "" when unknown */
	unsigned repeats;          /* repeats of the older capture (1 when none) */
	bool volatile_place;       /* the place varied between those repeats */
};

/* Looks for the newest run of lesson older than cur in which tok traces.
 * Returns true and fills *out when one is found. */
bool drift_find(const char *lesson, const struct evfile *cur, const struct num_token *tok, struct drift *out);
/* The same for the numbers of one evidence table row (toks[0..n), in
 * order), which rest on one line: finds the newest older run with a stdout
 * line holding all of them in order and binds each to its own place there
 * (out[i] for toks[i]), so that a number repeated elsewhere in the run is
 * not bound to the wrong place.  Returns true when found. */
bool drift_find_row(const char *lesson, const struct evfile *cur, const struct num_token *toks, size_t n,
		    struct drift *out);
/* Adds the note to an open diagnostic. */
void drift_note(struct diag *d, const struct drift *dr);
/* When the place was stable in every repeat of the older capture and now
 * holds another value, reports behaviour-change at page location at. */
void drift_behaviour(const struct drift *dr, struct diag_loc at, const char *claim);

#endif

/*
 * measured.h - claims on measured places, decided by the verdict rule
 * (verdict.h) instead of on the printed values alone.
 *
 * A place is *measured* when its capture listed it volatile (it varied
 * between the repeats) or when it is a time or a rate: its written name
 * or the unit printed after its number holds one of the words ms, us, µs,
 * ns, sec, seconds, time, elapsed, or a word ending in "/s" (GB/s, TB/s,
 * GFLOP/s), FLOPS or GFLOPS.  A comparison of a claim that names a
 * measured place is decided by the rule:
 *   - each side is evaluated once per repeat, every place at its value in
 *     that repeat (min() and max() read as the place itself: the rank test
 *     weighs the whole of the repeats); a side whose places did not vary
 *     is one value;
 *   - the margin is measured between the sides' medians, but for a side
 *     that is one bound alone, "max([P])" or "min([P])": the claim is then
 *     about the recorded range, and the margin is that bound's;
 *   - the uncertainty of one value of a place is its resolution plus half
 *     a unit of its last printed digit; the resolution is the evidence's
 *     `resolution: UNIT VALUE[, UNIT VALUE...]` entry whose UNIT is one
 *     of the place's words (or `*`), from the program's `// Resolution:`
 *     header line, else 0 (print rounding only); a side's uncertainty is
 *     the sum, over its places, of how far one place's uncertainty moves
 *     the side;
 *   - a repeat that printed no number there, or places repeated a
 *     different number of times, leave the comparison undecided.
 * A comparison that names no measured place keeps its exact truth, and so
 * does "max([P]) >= min([Q])" (or "min([Q]) <= max([P])"), each side its
 * bound alone: it says the recorded ranges touch or overlap, a statement
 * about the extremes the capture printed that claims no difference.
 *
 * Lookups read the caller's place_env (its hits, in the order the claim's
 * places were resolved); the figures are kept in struct measured_claim,
 * one entry per comparison in text order.  Allocation failure aborts.
 */
#ifndef COURSECHECK_MEASURED_H
#define COURSECHECK_MEASURED_H

#include <stdbool.h>
#include <stddef.h>

#include "claim.h"
#include "place.h"
#include "verdict.h"

#define MEASURED_MAX_CMPS 64

struct measured_cmp {
	bool measured;            /* decided by the rule */
	struct verdict_figures f; /* its figures (f.why: why undecided) */
	const char *why;          /* undecided before any test (static), or NULL */
	size_t repeats;           /* values a side, the most of the two */
	double resolution;        /* the largest stated resolution among its places, 0: none */
	double u_l, u_r;          /* each side's uncertainty of one value */
	enum verdict_centre centre_l, centre_r; /* what each side's margin is measured from */
	size_t n_l, n_r;          /* each side's values (1: a constant or a place that did not vary) */
	bool has_flip;            /* flip is set (want_flip) */
	struct verdict_flip flip;
};

struct measured_claim {
	struct place_env *pe; /* the claim's places (borrowed) */
	bool want_flip;       /* search the nearest flip (for the ledger) */
	struct measured_cmp cmps[MEASURED_MAX_CMPS];
	size_t n;
};

/* The decider for claim_eval_decide over mc (mc->pe set, mc->n 0). */
struct claim_decider measured_decider(struct measured_claim *mc);

/* Appends the figures of a comparison the rule decided to b (a struct
 * buf of util.h): "median 0.0264 vs 0.0355, margin 0.0091 against a
 * threshold of 0.0011 (...); Mann-Whitney U p = 0.00397 over 5 repeats,
 * needs p <= 0.05", and why it is undecided. */
struct buf;
void measured_describe(const struct measured_cmp *m, struct buf *b);

/* Whether hit is a measured place; text[0..len) is its written name (may be
 * empty). */
bool measured_place(const struct place_hit *hit, const char *text, size_t len);

#endif

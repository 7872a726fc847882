/*
 * verdict.h - whether a comparison of measured values holds beyond their
 * noise and resolution: holds, fails or undecided.
 *
 * The rule (README "Claims on measured places" states it for authors):
 *
 *   A comparison "L OP R" of measured values is given as two samples, the
 *   value of each side in each repeat of the capture (a side with one
 *   value, a constant or a place that did not vary, is one value), and
 *   each side's uncertainty of one printed value u (the timer's stated
 *   resolution plus half a unit of the last printed digit), and which
 *   value of its sample it stands for: its median (a place), or its least
 *   or greatest value (a claim on min() or max(): the ranges themselves).
 *   For L < R (and L <= R: measured values are never told equal):
 *     margin     = centre(R) - centre(L)
 *     threshold  = u(L) + u(R)
 *     p          = the one-sided probability, with no real difference, of
 *                  a rank statistic at least this far the claim's way:
 *                  Mann-Whitney U (U = the pairs l < r, strictly: a tie
 *                  counts against the claim).
 *   holds      when margin > threshold and p <= VERDICT_ALPHA;
 *   fails      when the same holds the other way (R < L decided);
 *   undecided  otherwise.
 *   Against a lone value (one side has one value: a constant, or a place
 *   that did not vary) the margin is that of the repeat nearest the lone
 *   value, and the claim holds when every repeat lies beyond it by more
 *   than the threshold (fails: every repeat beyond it the other way); the
 *   sign test's p is reported, not required (5 repeats cannot reach 0.025
 *   by signs alone).  One value a side (no repeats): undecided.
 *   ">" and ">=" are "<" with the sides swapped; "!=" holds when either
 *   order holds and is otherwise undecided; "==" fails when either order
 *   holds and is otherwise undecided (no sample proves two measurements
 *   equal).
 *
 * U's distribution is exact (counted, as the tables of Mann and Whitney)
 * for samples of up to VERDICT_EXACT_MAX each (the count costs m^2 n / 2
 * steps), and the normal
 * approximation with continuity correction above (p is then reported as
 * a z, `exact` false).  VERDICT_ALPHA = 0.05, one-sided: a claim states
 * its direction before the test is run, so only that tail counts.  Three
 * repeats a side wholly apart is the least that decides (p = 1/20); two
 * never do (1/6); five apart give 1/252.
 *
 * Pure computation on the caller's arrays: libc only (the capture binary
 * links it for --repeat auto), nothing kept between calls, safe from any
 * thread.  Allocation failure aborts.
 */
#ifndef COURSECHECK_VERDICT_H
#define COURSECHECK_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#define VERDICT_ALPHA 0.05
#define VERDICT_EXACT_MAX 20
/* Beyond this many values a side, flips are not searched for (each
 * candidate costs a test). */
#define VERDICT_FLIP_MAX 64

enum verdict { VERDICT_FAILS, VERDICT_HOLDS, VERDICT_UNDECIDED };

/* Exact P(U >= u) for samples of m and n (1..VERDICT_EXACT_MAX each) when
 * no real difference exists; -1 for sizes outside that. */
double verdict_mw_upper_tail(size_t m, size_t n, size_t u);

/* U: the pairs (x[i], y[j]) with x[i] < y[j]. */
size_t verdict_mw_u(const double *x, size_t m, const double *y, size_t n);

/* Which value of a side's sample the margin is measured from. */
enum verdict_centre { VERDICT_MEDIAN, VERDICT_LEAST, VERDICT_GREATEST };

/* One side of a comparison: its value in each repeat (borrowed) and the
 * uncertainty of one of them. */
struct verdict_side {
	const double *v;
	size_t n;  /* at least 1 */
	double u;  /* >= 0 */
	enum verdict_centre centre;
};

/* "median", "least", "greatest" (static). */
const char *verdict_centre_name(enum verdict_centre c);

struct verdict_figures {
	enum verdict verdict;
	double median_l, median_r; /* each side's centre (its median, least or greatest) */
	double margin;    /* signed: > 0 is the claim's way ("<": median_r - median_l) */
	double threshold; /* u(L) + u(R) */
	double p;         /* of the claim's way (of the way that decided, for != and ==) */
	double p_against; /* of the other way */
	bool exact;       /* p counted exactly (false: the normal approximation) */
	const char *test; /* "Mann-Whitney U", "every repeat beyond the threshold ...", "none (one value a side)" (static) */
	const char *why;  /* undecided: which part fell short (static); "" otherwise */
};

/* Decides "L op R" (op: "<", "<=", ">", ">=", "==", "!=").  Returns 0, or
 * -1 for an unknown op or an empty side. */
int verdict_decide(const struct verdict_side *l, const char *op, const struct verdict_side *r,
		   struct verdict_figures *f);

/* How far the verdict is from changing: the smallest change of one value
 * of one side (its index in that side) that gives another verdict, over
 * the candidate values where the test or the median can change (each
 * value of either side, just past it, and where the median crosses the
 * threshold).  Returns false when no candidate changes it or a side has
 * more than VERDICT_FLIP_MAX values. */
struct verdict_flip {
	bool right;      /* the value is R's (else L's) */
	size_t index;    /* in that side */
	double from, to; /* the value, and the value that changes the verdict */
	enum verdict becomes;
};
bool verdict_flip_nearest(const struct verdict_side *l, const char *op, const struct verdict_side *r,
			  struct verdict_flip *out);

#endif

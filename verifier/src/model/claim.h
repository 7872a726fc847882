/*
 * claim.h - the evaluator for claim annotations.
 *
 * A page states a claim about its run in words and writes what would make
 * it true right after them:
 *     the offset pass is faster <!-- claim: [offset pass alone | worst] < [copy, no scan | best] -->
 * and the text after "claim:" is a CLAIM:
 *
 *     claim      := disjunct ("or" disjunct)*
 *     disjunct   := negation ("and" negation)*
 *     negation   := "not" negation | "(" claim ")" | comparison
 *     comparison := EXPR CMP EXPR
 *     CMP        := "<" | "<=" | ">" | ">=" | "==" | "!="
 *
 * EXPR is expr.h's grammar, places and min()/max() included.  A
 * parenthesis opens a claim when it holds a comparison or one of the words
 * and, or, not (outside places); otherwise it is EXPR's own.  Comparisons
 * do not chain ("a < b < c" is refused: write "a < b and b < c").
 * Comparisons are exact on doubles; every comparison is evaluated (no
 * short cut), so every operand is resolved and listed.
 *
 * A caller may decide a comparison otherwise (claim_eval_decide: the
 * verdict of measured values, verdict.h): each comparison then has a
 * verdict, true, false or undecided, and the claim's verdict combines them
 * by Kleene's logic (not undecided is undecided; false and undecided is
 * false; true or undecided is true; else undecided).  Without a decider a
 * comparison's verdict is its exact truth.
 *
 * Limits as expr.h: EXPR_MAX_LEN bytes, EXPR_MAX_DEPTH nested claim
 * parentheses.  Nothing is kept between calls; allocation failure aborts.
 */
#ifndef COURSECHECK_CLAIM_H
#define COURSECHECK_CLAIM_H

#include <stdbool.h>
#include <stddef.h>

#include "expr.h"

enum claim_truth { CLAIM_FALSE, CLAIM_TRUE, CLAIM_UNDECIDED };

struct claim_cmp {
	size_t start, end; /* byte offsets of the comparison in the claim text */
	size_t op_start;   /* of its operator */
	const char *op;    /* "<", "<=", ... (static) */
	double lhs, rhs;
	bool truth;        /* exact, on the values */
	enum claim_truth verdict; /* the decider's, else the exact truth */
	size_t place_from, place_to; /* its place operands: places[place_from .. place_to) */
};

struct claim_result {
	bool truth;             /* exact, on the values */
	enum claim_truth verdict; /* the comparisons' verdicts combined */
	struct claim_cmp *cmps;        /* every comparison, in text order; owned */
	size_t n_cmps;
	struct expr_literal *literals; /* every literal, offsets in the claim text; owned */
	size_t n_literals;
	struct expr_place *places;     /* every place operand, offsets in the claim text; owned */
	size_t n_places;
	/* on error, as expr_result: */
	size_t err_offset;
	char err[160];
};

/* Evaluates text[0..len).  Returns 0 and fills r, or -1 with r->err and
 * r->err_offset.  Always call claim_result_free(r). */
int claim_eval(const char *text, size_t len, const struct expr_env *env, struct claim_result *r);

/* Decides comparison c (every field set, verdict its exact truth) of the
 * claim text; r holds the comparisons and places read so far.  Returns the
 * comparison's verdict.  ctx is the caller's. */
struct claim_decider {
	enum claim_truth (*decide)(void *ctx, const char *text, const struct claim_result *r,
				   const struct claim_cmp *c);
	void *ctx;
};
/* claim_eval with each comparison decided by d (NULL: its exact truth). */
int claim_eval_decide(const char *text, size_t len, const struct expr_env *env, const struct claim_decider *d,
		      struct claim_result *r);
void claim_result_free(struct claim_result *r);

#endif

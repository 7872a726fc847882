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
 * Limits as expr.h: EXPR_MAX_LEN bytes, EXPR_MAX_DEPTH nested claim
 * parentheses.  Nothing is kept between calls; allocation failure aborts.
 */
#ifndef COURSECHECK_CLAIM_H
#define COURSECHECK_CLAIM_H

#include <stdbool.h>
#include <stddef.h>

#include "expr.h"

struct claim_cmp {
	size_t start, end; /* byte offsets of the comparison in the claim text */
	size_t op_start;   /* of its operator */
	const char *op;    /* "<", "<=", ... (static) */
	double lhs, rhs;
	bool truth;
};

struct claim_result {
	bool truth;
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
void claim_result_free(struct claim_result *r);

#endif

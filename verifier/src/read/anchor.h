/*
 * anchor.h - whether a derivation rests on its evidence.
 *
 * "42.5x <!-- = 32 + 8 + 2 + 1/2 -->" evaluates, and every literal in it is
 * small or a power of two, yet the number is invented: a derivation must
 * have an operand from the evidence (a literal the caller traced to it, or
 * a place), and changing that operand must change the value
 * ("0.325 / 0.325 * 64 + ..." uses the evidence only to cancel it out).
 *
 * The test: each evidence operand in turn (a literal together with every
 * other anchored literal of the same value, a place together with every
 * place written the same) is scaled by 3/2 and by 7/10 and the expression
 * evaluated again (places from the values r already holds, nothing looked
 * up again); the derivation depends on the evidence when one of these
 * changes the value by more than a part in 10^9.  Bounded: two
 * evaluations an anchored operand, each linear in the expression.
 * Threads: no state.
 */
#ifndef COURSECHECK_ANCHOR_H
#define COURSECHECK_ANCHOR_H

#include <stdbool.h>
#include <stddef.h>

#include "expr.h"

enum anchor_verdict {
	ANCHOR_OK,          /* an evidence operand moves the value */
	ANCHOR_NONE,        /* no operand is from the evidence: constants only */
	ANCHOR_CANCELS,     /* evidence operands, none of which moves the value */
};

/* text[0..len): the expression r is the (successful) evaluation of;
 * anchored[i]: literal i of r was traced to the evidence. */
enum anchor_verdict anchor_judge(const char *text, size_t len, const struct expr_result *r, const bool *anchored);

#endif

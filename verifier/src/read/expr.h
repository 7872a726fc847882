/*
 * expr.h - the evaluator for derived-number annotations.
 *
 * A page derives a number from evidence with an annotation such as
 *     16 percent <!-- = 100 * 170530 / 1049187 -->
 * and the text after "=" is an EXPR:
 *
 *     expr    := term (("+" | "-") term)*
 *     term    := unary (("*" | "/") unary)*
 *     unary   := "-" unary | primary
 *     primary := NUMBER | PLACE | "(" expr ")" | FUNC "(" expr ")"
 *              | BOUND "(" PLACE ")"
 *     FUNC    := "ceil" | "floor" | "round"        (round: half away from zero)
 *     BOUND   := "min" | "max"    (the least / greatest value over the repeats)
 *     PLACE   := "[" any bytes but "[", "]", LF "]"  (an evidence place, place.h)
 *     NUMBER  := [0-9]+ ("." [0-9]+)?
 *
 * Whitespace (space, tab, LF, CR, FF, VT) may appear between any two tokens,
 * including between a function name and its "(".  Numbers are plain
 * decimals: no separators, units, leading "+", ".5" or "5.", and no
 * exponent ("1e9" is refused with "exponent notation is not supported").
 * "-2" is unary minus applied to the literal 2; the literal list records 2.
 *
 * Limits, each refused with a message rather than a crash: an expression
 * longer than EXPR_MAX_LEN bytes (checked before anything is read), and
 * parentheses or function calls nested deeper than EXPR_MAX_DEPTH.  Runs
 * of unary minus are read in a loop and do not count as nesting.
 *
 * Places are resolved by the caller's expr_env (expr_eval_env); without
 * one, a place is an error ("evidence places are not allowed here").  The
 * text inside the brackets, at most EXPR_MAX_PLACE bytes, is handed over
 * as written.
 *
 * Nothing here keeps state between calls; it is safe from any thread.
 * Allocation failure aborts.
 */
#ifndef COURSECHECK_EXPR_H
#define COURSECHECK_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#define EXPR_MAX_LEN 4096
#define EXPR_MAX_DEPTH 64
#define EXPR_MAX_PLACE 256

/* What a place operand asks for. */
enum expr_place_fn {
	EXPR_PLACE_VALUE, /* [P]: the value the evidence prints there */
	EXPR_PLACE_MIN,   /* min([P]): its least value over the repeats */
	EXPR_PLACE_MAX,   /* max([P]): its greatest */
};

/* Resolves a place: text[0..len) is what stands between the brackets.
 * Returns 0 with *value set, or -1 with a one-line message in err (the
 * resolver may report its own diagnostic too).  ctx is the caller's. */
struct expr_env {
	int (*place)(void *ctx, const char *text, size_t len, enum expr_place_fn fn, double *value, char *err,
		     size_t errlen);
	void *ctx;
};

struct expr_place {
	size_t start, end; /* byte offsets of "[...]" (brackets included) in the expression text */
	enum expr_place_fn fn;
	double value;
};

struct expr_literal {
	size_t start, end; /* byte offsets of the literal in the expression text */
	double value;
	int decimals; /* digits after the point as written ("1.798" -> 3) */
};

struct expr_result {
	double value;                  /* the result; 0 on error (never -0) */
	struct expr_literal *literals; /* every numeric literal in text order; owned by the
	                                * result, NULL when there are none or on error */
	size_t n_literals;
	struct expr_place *places;     /* every place operand in text order; owned, as literals */
	size_t n_places;
	/* on error: */
	size_t err_offset; /* byte offset in the expression of the error */
	char err[160];     /* one-line message, lowercase, no trailing full stop,
	                    * e.g. "division by zero", "unknown function 'sqrt'",
	                    * "expected ')' to close '(' at column 5" (columns count
	                    * bytes from 1); "" on success */
};

/* Evaluates text[0..len) (not NUL-terminated; never read past len).
 * Returns 0 and fills r on success; -1 with r->err and r->err_offset set on
 * any error: empty expression, too long, too deep, syntax error, unknown
 * function, division by zero (including by a computed zero, "1/(2-2)"),
 * a literal too large for a double, or a result that overflows to
 * infinity.  r is overwritten whatever it held; always call
 * expr_result_free(r) afterwards. */
int expr_eval(const char *text, size_t len, struct expr_result *r);
/* The same, resolving places through env (NULL: places are refused). */
int expr_eval_env(const char *text, size_t len, const struct expr_env *env, struct expr_result *r);

/* Frees r's literal and place lists and leaves r empty; safe to call twice. */
void expr_result_free(struct expr_result *r);

/* true for literals that are free in a derivation: powers of ten from
 * 1e-22 to 1e22 (1, 10, 100, 1000, 0.1, 0.01, ...) and powers of two from
 * 1 upwards (2, 4, ..., 1024, ...).  Other fractions (0.5) and negative
 * values are not free. */
bool expr_literal_is_free(double v);

#endif

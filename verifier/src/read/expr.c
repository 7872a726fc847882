/*
 * expr.c - recursive descent over the EXPR grammar in expr.h.
 *
 * Each grammar rule is one function that returns false on error, leaving
 * the first error's message and offset in the result; nothing after the
 * first error is evaluated.  Recursion happens only through parentheses
 * and function calls, which are counted, so no input can overflow the
 * stack.
 */
#include "expr.h"
#include "descent.h"
#include "numtok.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *text;
	size_t len;
	size_t pos;
	int depth; /* parentheses and function calls currently open */
	struct expr_result *r;
	size_t literals_cap, places_cap;
	const struct expr_env *env; /* NULL: places refused */
};

/* Records the error in the result; false. */
#define fail(p, offset, ...) descent_fail((p)->r->err, sizeof (p)->r->err, &(p)->r->err_offset, (offset), __VA_ARGS__)

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The next character after whitespace, or '\0' at the end. */
static char peek(struct parser *p)
{
	return descent_peek(p->text, p->len, &p->pos);
}

static size_t name_end(const struct parser *p, size_t from)
{
	while (from < p->len && descent_is_name_char(p->text[from]))
		from++;
	return from;
}

/* Describes what stands at `at` for a "found ..." message. */
static void describe_token(const struct parser *p, size_t at, char *out, size_t outlen)
{
	descent_describe(p->text, p->len, at, "end of expression", out, outlen);
}

static bool fail_expected(struct parser *p, const char *what)
{
	char found[64];
	describe_token(p, p->pos, found, sizeof found);
	return fail(p, p->pos, "expected %s, found %s", what, found);
}

static void add_literal(struct parser *p, size_t start, size_t end, double value, int decimals)
{
	struct expr_result *r = p->r;
	if (r->n_literals == p->literals_cap) {
		p->literals_cap = p->literals_cap ? p->literals_cap * 2 : 8;
		r->literals = xrealloc(r->literals, p->literals_cap * sizeof *r->literals);
	}
	r->literals[r->n_literals++] = (struct expr_literal){start, end, value, decimals};
}

/* The checks after an operation: every intermediate result stays finite. */
static bool finite_or_fail(struct parser *p, double v, size_t op_offset)
{
	return isfinite(v) ? true : fail(p, op_offset, "result is not finite (overflow)");
}

static bool parse_expr(struct parser *p, double *out);

/*
 * NUMBER := [0-9]+ ("." [0-9]+)?, at p->pos.  The value is the digits
 * times 10^-decimals as numtok values a token (numtok_digits_value: what
 * strtod gives for "DIGITSe-N", which spells no decimal point and so does
 * not depend on the locale).
 */
static bool parse_number(struct parser *p, double *out)
{
	size_t start = p->pos, i = p->pos;
	while (i < p->len && is_digit(p->text[i]))
		i++;
	int decimals = 0;
	if (i < p->len && p->text[i] == '.') {
		size_t frac = ++i;
		while (i < p->len && is_digit(p->text[i]))
			i++;
		if (i == frac)
			return fail(p, i, "expected a digit after '.'");
		decimals = (int)(i - frac);
	}
	if (i < p->len && (p->text[i] == 'e' || p->text[i] == 'E'))
		return fail(p, i, "exponent notation is not supported");

	double value = numtok_digits_value(p->text + start, i - start, -decimals);
	if (!isfinite(value))
		return fail(p, start, "number is too large");
	add_literal(p, start, i, value, decimals);
	p->pos = i;
	*out = value;
	return true;
}

/* PLACE := "[" ... "]" at p->pos, resolved through the environment. */
static bool parse_place(struct parser *p, enum expr_place_fn fn, double *out)
{
	size_t open_at = p->pos, i = p->pos + 1;
	while (i < p->len && p->text[i] != ']' && p->text[i] != '[' && p->text[i] != '\n')
		i++;
	if (i == p->len || p->text[i] != ']')
		return fail(p, i, "expected ']' to close '[' at column %zu", open_at + 1);
	if (i - open_at - 1 > EXPR_MAX_PLACE)
		return fail(p, open_at, "a place is %zu bytes long, over the limit of %d bytes", i - open_at - 1,
			    EXPR_MAX_PLACE);
	if (!p->env || !p->env->place)
		return fail(p, open_at, "evidence places are not allowed here");
	char err[160] = "";
	double value;
	if (p->env->place(p->env->ctx, p->text + open_at + 1, i - open_at - 1, fn, &value, err, sizeof err) != 0)
		return fail(p, open_at, "%s", err[0] ? err : "the place cannot be resolved");
	struct expr_result *r = p->r;
	if (r->n_places == p->places_cap) {
		p->places_cap = p->places_cap ? p->places_cap * 2 : 4;
		r->places = xrealloc(r->places, p->places_cap * sizeof *r->places);
	}
	r->places[r->n_places++] = (struct expr_place){open_at, i + 1, fn, value};
	p->pos = i + 1;
	*out = value;
	return true;
}

/* BOUND "(" PLACE ")" with the '(' at p->pos: a bound takes a place only. */
static bool parse_bound(struct parser *p, const char *name, enum expr_place_fn fn, double *out)
{
	size_t open_at = p->pos++;
	if (peek(p) != '[')
		return fail(p, p->pos, "%s() takes an evidence place: %s([ROW | COLUMN])", name, name);
	if (!parse_place(p, fn, out))
		return false;
	if (peek(p) != ')')
		return fail(p, p->pos, "expected ')' to close '(' at column %zu", open_at + 1);
	p->pos++;
	return true;
}

/* Reads "(" expr ")" at p->pos; `opener` names what opened it in messages. */
static bool parse_parenthesised(struct parser *p, double *out, const char *opener)
{
	size_t open_at = p->pos;
	if (p->depth == EXPR_MAX_DEPTH)
		return fail(p, open_at, "nesting deeper than %d levels", EXPR_MAX_DEPTH);
	p->depth++;
	p->pos++; /* the '(' */
	if (!parse_expr(p, out))
		return false;
	char c = peek(p);
	if (c == ',' && opener != NULL)
		return fail(p, p->pos, "%s() takes one argument", opener);
	if (c != ')')
		return fail(p, p->pos, "expected ')' to close '(' at column %zu", open_at + 1);
	p->pos++;
	p->depth--;
	return true;
}

static double round_half_away(double v)
{
	return round(v); /* C's round() already rounds halfway cases away from zero */
}

/* FUNC "(" expr ")" with the name at p->pos. */
static bool parse_call(struct parser *p, double *out)
{
	static const struct {
		const char *name;
		double (*apply)(double);
	} functions[] = {{"ceil", ceil}, {"floor", floor}, {"round", round_half_away}};

	size_t start = p->pos, end = name_end(p, start);
	size_t name_len = end - start;
	p->pos = end;
	bool has_paren = peek(p) == '(';
	static const struct {
		const char *name;
		enum expr_place_fn fn;
	} bounds[] = {{"min", EXPR_PLACE_MIN}, {"max", EXPR_PLACE_MAX}};
	for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
		if (strlen(bounds[i].name) != name_len || memcmp(bounds[i].name, p->text + start, name_len) != 0)
			continue;
		if (!has_paren)
			return fail(p, p->pos, "expected '(' after '%s'", bounds[i].name);
		return parse_bound(p, bounds[i].name, bounds[i].fn, out);
	}
	for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
		const char *name = functions[i].name;
		if (strlen(name) != name_len || memcmp(name, p->text + start, name_len) != 0)
			continue;
		if (!has_paren)
			return fail(p, p->pos, "expected '(' after '%s'", name);
		double arg;
		if (!parse_parenthesised(p, &arg, name))
			return false;
		*out = functions[i].apply(arg);
		return true;
	}
	int shown = name_len > 40 ? 40 : (int)name_len;
	const char *more = name_len > 40 ? "..." : "";
	if (has_paren)
		return fail(p, start, "unknown function '%.*s%s'", shown, p->text + start, more);
	p->pos = start;
	return fail_expected(p, "a number, '(' or a function");
}

static bool parse_primary(struct parser *p, double *out)
{
	char c = peek(p);
	if (is_digit(c))
		return parse_number(p, out);
	if (c == '(')
		return parse_parenthesised(p, out, NULL);
	if (c == '[')
		return parse_place(p, EXPR_PLACE_VALUE, out);
	if (descent_is_name_char(c))
		return parse_call(p, out);
	return fail_expected(p, "a number, '(' or a function");
}

/* unary := "-" unary | primary, with the minus signs counted in a loop. */
static bool parse_unary(struct parser *p, double *out)
{
	bool negate = false;
	while (peek(p) == '-') {
		negate = !negate;
		p->pos++;
	}
	if (!parse_primary(p, out))
		return false;
	if (negate)
		*out = -*out;
	return true;
}

static bool parse_term(struct parser *p, double *out)
{
	if (!parse_unary(p, out))
		return false;
	for (;;) {
		char op = peek(p);
		if (op != '*' && op != '/')
			return true;
		size_t op_at = p->pos++;
		double rhs;
		if (!parse_unary(p, &rhs))
			return false;
		if (op == '/' && rhs == 0)
			return fail(p, op_at, "division by zero");
		*out = op == '*' ? *out * rhs : *out / rhs;
		if (!finite_or_fail(p, *out, op_at))
			return false;
	}
}

static bool parse_expr(struct parser *p, double *out)
{
	if (!parse_term(p, out))
		return false;
	for (;;) {
		char op = peek(p);
		if (op != '+' && op != '-')
			return true;
		size_t op_at = p->pos++;
		double rhs;
		if (!parse_term(p, &rhs))
			return false;
		*out = op == '+' ? *out + rhs : *out - rhs;
		if (!finite_or_fail(p, *out, op_at))
			return false;
	}
}

static bool parse_whole(struct parser *p, double *out)
{
	if (p->len > EXPR_MAX_LEN)
		return fail(p, EXPR_MAX_LEN, "expression is %zu bytes long, over the limit of %d bytes",
			    p->len, EXPR_MAX_LEN);
	if (peek(p) == '\0' && p->pos == p->len)
		return fail(p, 0, "empty expression");
	if (!parse_expr(p, out))
		return false;
	if (peek(p) != '\0' || p->pos != p->len)
		return fail_expected(p, "an operator or end of expression");
	return true;
}

int expr_eval(const char *text, size_t len, struct expr_result *r)
{
	return expr_eval_env(text, len, NULL, r);
}

int expr_eval_env(const char *text, size_t len, const struct expr_env *env, struct expr_result *r)
{
	memset(r, 0, sizeof *r);
	struct parser p = {text, len, 0, 0, r, 0, 0, env};
	double value = 0;
	if (!parse_whole(&p, &value)) {
		expr_result_free(r);
		r->value = 0;
		return -1;
	}
	r->value = value == 0 ? 0.0 : value; /* no "-0" for callers to print */
	return 0;
}

void expr_result_free(struct expr_result *r)
{
	free(r->literals);
	r->literals = NULL;
	r->n_literals = 0;
	free(r->places);
	r->places = NULL;
	r->n_places = 0;
}

bool expr_literal_is_free(double v)
{
	if (!(v > 0) || !isfinite(v))
		return false;
	int exp2;
	if (frexp(v, &exp2) == 0.5 && exp2 >= 1)
		return true; /* v = 2^(exp2-1) with exp2-1 >= 0 */
	/* 10^k is exact for k <= 22, and 1/10^k is then the double nearest to
	 * 10^-k, the same double strtod gives for "0.01". */
	double power = 1;
	for (int k = 0; k <= 22; k++, power *= 10)
		if (v == power || v == 1 / power)
			return true;
	return false;
}

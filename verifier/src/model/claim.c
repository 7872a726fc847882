/*
 * claim.c - recursive descent over the CLAIM grammar in claim.h.
 *
 * The claim level reads only the logic (or, and, not, claim parentheses,
 * comparison operators); each side of a comparison is the span up to the
 * next operator or logic word outside parentheses and places, handed to
 * expr_eval_env whole.  Recursion happens only through claim parentheses,
 * which are counted; runs of "not" are read in a loop.
 */
#include "claim.h"
#include "descent.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cparser {
	const char *text;
	size_t len, pos;
	int depth;
	const struct expr_env *env;
	const struct claim_decider *decider;
	struct claim_result *r;
	size_t caps[3]; /* of cmps, literals, places */
};

/* Records the error in the result unless one is there: the first error
 * stands.  false. */
#define fail(p, offset, ...)                                                                                           \
	((p)->r->err[0] ? false                                                                                        \
			: descent_fail((p)->r->err, sizeof (p)->r->err, &(p)->r->err_offset, (offset), __VA_ARGS__))

static char peek(struct cparser *p)
{
	return descent_peek(p->text, p->len, &p->pos);
}

/* Is the word w at `at`, standing alone (not part of a longer name)? */
static bool word_at(const struct cparser *p, size_t at, const char *w)
{
	size_t n = strlen(w);
	if (at + n > p->len || memcmp(p->text + at, w, n) != 0)
		return false;
	return (at == 0 || !descent_is_name_char(p->text[at - 1])) && (at + n == p->len || !descent_is_name_char(p->text[at + n]));
}

static bool logic_word_at(const struct cparser *p, size_t at)
{
	/* asked at every byte of every side: the first letter decides for
	 * all but a, o and n */
	char c = at < p->len ? p->text[at] : '\0';
	if (c != 'a' && c != 'o' && c != 'n')
		return false;
	return word_at(p, at, "and") || word_at(p, at, "or") || word_at(p, at, "not");
}

static bool is_cmp_char(char c)
{
	return c == '<' || c == '>' || c == '=' || c == '!';
}

/* Past a place "[...]" opening at `at` (or to the end when unclosed:
 * expr reports that). */
static size_t skip_place(const struct cparser *p, size_t at)
{
	size_t i = at + 1;
	while (i < p->len && p->text[i] != ']')
		i++;
	return i < p->len ? i + 1 : i;
}

/* The end of an arithmetic side starting at `from`: the first comparison
 * operator, logic word or unmatched ')' outside parentheses and places. */
static size_t side_end(const struct cparser *p, size_t from)
{
	int depth = 0;
	for (size_t i = from; i < p->len;) {
		char c = p->text[i];
		if (c == '[') {
			i = skip_place(p, i);
			continue;
		}
		if (c == '(')
			depth++;
		else if (c == ')' && depth-- == 0)
			return i;
		else if (depth == 0 && (is_cmp_char(c) || logic_word_at(p, i)))
			return i;
		i++;
	}
	return p->len;
}

/* Does the parenthesis at `open` hold a claim (a comparison or a logic
 * word anywhere inside, outside places)?  Arithmetic never does. */
static bool holds_claim(const struct cparser *p, size_t open)
{
	int depth = 0;
	for (size_t i = open; i < p->len;) {
		char c = p->text[i];
		if (c == '[') {
			i = skip_place(p, i);
			continue;
		}
		if (c == '(')
			depth++;
		else if (c == ')' && --depth == 0)
			return false;
		else if (is_cmp_char(c) || logic_word_at(p, i))
			return true;
		i++;
	}
	return false;
}

static void describe(const struct cparser *p, size_t at, char *out, size_t outlen)
{
	descent_describe(p->text, p->len, at, "end of claim", out, outlen);
}

static void push(void **v, size_t *n, size_t *cap, size_t elem, const void *item)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		*v = xrealloc(*v, *cap * elem);
	}
	memcpy((char *)*v + *n * elem, item, elem);
	(*n)++;
}

/* One side of a comparison, [a, b) of the claim, through expr. */
static bool eval_side(struct cparser *p, size_t a, size_t b, double *out)
{
	while (a < b && descent_is_space(p->text[a]))
		a++;
	while (b > a && descent_is_space(p->text[b - 1]))
		b--;
	if (a == b) {
		char found[64];
		describe(p, a, found, sizeof found);
		return fail(p, a, "expected an expression, found %s", found);
	}
	struct expr_result er;
	if (expr_eval_env(p->text + a, b - a, p->env, &er) != 0) {
		fail(p, a + er.err_offset, "%s", er.err);
		expr_result_free(&er);
		return false;
	}
	struct claim_result *r = p->r;
	for (size_t i = 0; i < er.n_literals; i++) {
		struct expr_literal l = er.literals[i];
		l.start += a;
		l.end += a;
		push((void **)&r->literals, &r->n_literals, &p->caps[1], sizeof l, &l);
	}
	for (size_t i = 0; i < er.n_places; i++) {
		struct expr_place pl = er.places[i];
		pl.start += a;
		pl.end += a;
		push((void **)&r->places, &r->n_places, &p->caps[2], sizeof pl, &pl);
	}
	*out = er.value;
	expr_result_free(&er);
	return true;
}

/* The comparison operator at p->pos, or NULL. */
static const char *read_op(struct cparser *p)
{
	static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		size_t n = strlen(ops[i]);
		if (p->pos + n <= p->len && memcmp(p->text + p->pos, ops[i], n) == 0) {
			p->pos += n;
			return ops[i];
		}
	}
	return NULL;
}

/* A value of the claim: its exact truth and its verdict. */
struct tv {
	bool exact;
	enum claim_truth v;
};

static enum claim_truth kleene_not(enum claim_truth a)
{
	return a == CLAIM_UNDECIDED ? a : a == CLAIM_TRUE ? CLAIM_FALSE : CLAIM_TRUE;
}

static enum claim_truth kleene_and(enum claim_truth a, enum claim_truth b)
{
	if (a == CLAIM_FALSE || b == CLAIM_FALSE)
		return CLAIM_FALSE;
	return a == CLAIM_TRUE && b == CLAIM_TRUE ? CLAIM_TRUE : CLAIM_UNDECIDED;
}

static enum claim_truth kleene_or(enum claim_truth a, enum claim_truth b)
{
	return kleene_not(kleene_and(kleene_not(a), kleene_not(b)));
}

static bool compare(const char *op, double a, double b)
{
	switch (op[0]) {
	case '<':
		return op[1] ? a <= b : a < b;
	case '>':
		return op[1] ? a >= b : a > b;
	case '=':
		return a == b;
	default:
		return a != b;
	}
}

static bool parse_comparison(struct cparser *p, struct tv *out)
{
	size_t start = p->pos, lhs_end = side_end(p, start);
	struct claim_cmp c = {.start = start, .place_from = p->r->n_places};
	if (!eval_side(p, start, lhs_end, &c.lhs))
		return false;
	p->pos = lhs_end;
	c.op_start = p->pos;
	c.op = read_op(p);
	if (!c.op) {
		if (p->pos < p->len && p->text[p->pos] == '=')
			return fail(p, p->pos, "'=' does not compare: write '=='");
		char found[64];
		describe(p, p->pos, found, sizeof found);
		return fail(p, p->pos, "expected a comparison (<, <=, >, >=, ==, !=), found %s", found);
	}
	size_t rhs_end = side_end(p, p->pos);
	if (!eval_side(p, p->pos, rhs_end, &c.rhs))
		return false;
	p->pos = rhs_end;
	if (p->pos < p->len && is_cmp_char(p->text[p->pos]))
		return fail(p, p->pos, "comparisons do not chain: write 'a < b and b < c'");
	c.end = rhs_end;
	while (c.end > c.start && descent_is_space(p->text[c.end - 1]))
		c.end--;
	c.truth = compare(c.op, c.lhs, c.rhs);
	c.verdict = c.truth ? CLAIM_TRUE : CLAIM_FALSE;
	c.place_to = p->r->n_places;
	if (p->decider)
		c.verdict = p->decider->decide(p->decider->ctx, p->text, p->r, &c);
	push((void **)&p->r->cmps, &p->r->n_cmps, &p->caps[0], sizeof c, &c);
	*out = (struct tv){c.truth, c.verdict};
	return true;
}

static bool parse_claim(struct cparser *p, struct tv *out);

static bool parse_negation(struct cparser *p, struct tv *out)
{
	bool negate = false;
	while (peek(p) == 'n' && word_at(p, p->pos, "not")) {
		negate = !negate;
		p->pos += 3;
	}
	char c = peek(p);
	if (c == '(' && holds_claim(p, p->pos)) {
		size_t open_at = p->pos;
		if (p->depth == EXPR_MAX_DEPTH)
			return fail(p, open_at, "nesting deeper than %d levels", EXPR_MAX_DEPTH);
		p->depth++;
		p->pos++;
		if (!parse_claim(p, out))
			return false;
		if (peek(p) != ')')
			return fail(p, p->pos, "expected ')' to close '(' at column %zu", open_at + 1);
		p->pos++;
		p->depth--;
	} else if (!parse_comparison(p, out)) {
		return false;
	}
	if (negate)
		*out = (struct tv){!out->exact, kleene_not(out->v)};
	return true;
}

static bool parse_disjunct(struct cparser *p, struct tv *out)
{
	if (!parse_negation(p, out))
		return false;
	while (peek(p) == 'a' && word_at(p, p->pos, "and")) {
		p->pos += 3;
		struct tv rhs;
		if (!parse_negation(p, &rhs))
			return false;
		*out = (struct tv){out->exact && rhs.exact, kleene_and(out->v, rhs.v)};
	}
	return true;
}

static bool parse_claim(struct cparser *p, struct tv *out)
{
	if (!parse_disjunct(p, out))
		return false;
	while (peek(p) == 'o' && word_at(p, p->pos, "or")) {
		p->pos += 2;
		struct tv rhs;
		if (!parse_disjunct(p, &rhs))
			return false;
		*out = (struct tv){out->exact || rhs.exact, kleene_or(out->v, rhs.v)};
	}
	return true;
}

int claim_eval(const char *text, size_t len, const struct expr_env *env, struct claim_result *r)
{
	return claim_eval_decide(text, len, env, NULL, r);
}

int claim_eval_decide(const char *text, size_t len, const struct expr_env *env, const struct claim_decider *d,
		      struct claim_result *r)
{
	memset(r, 0, sizeof *r);
	struct cparser p = {.text = text, .len = len, .env = env, .decider = d, .r = r};
	struct tv truth = {false, CLAIM_FALSE};
	bool ok;
	if (len > EXPR_MAX_LEN) {
		ok = fail(&p, EXPR_MAX_LEN, "claim is %zu bytes long, over the limit of %d bytes", len, EXPR_MAX_LEN);
	} else if (peek(&p) == '\0') {
		ok = fail(&p, 0, "empty claim");
	} else {
		ok = parse_claim(&p, &truth);
		if (ok && peek(&p) != '\0') {
			char found[64];
			describe(&p, p.pos, found, sizeof found);
			ok = fail(&p, p.pos, "expected 'and', 'or' or the end of the claim, found %s", found);
		}
	}
	if (!ok) {
		claim_result_free(r);
		return -1;
	}
	r->truth = truth.exact;
	r->verdict = truth.v;
	return 0;
}

void claim_result_free(struct claim_result *r)
{
	free(r->cmps);
	free(r->literals);
	free(r->places);
	r->cmps = NULL;
	r->literals = NULL;
	r->places = NULL;
	r->n_cmps = r->n_literals = r->n_places = 0;
}

/* anchor.c - see anchor.h. */
#include "anchor.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The places of the first evaluation, answered again from r: the one
 * whose text is the target's is scaled. */
struct replay {
	const char *text;
	const struct expr_result *r;
	size_t target; /* index of the place scaled, or SIZE_MAX */
	double factor;
};

static bool same_place(const struct replay *rp, size_t i, const char *text, size_t len)
{
	const struct expr_place *p = &rp->r->places[i];
	size_t plen = p->end - p->start - 2; /* without the brackets */
	return plen == len && memcmp(rp->text + p->start + 1, text, len) == 0;
}

static int replay_place(void *ctx, const char *text, size_t len, enum expr_place_fn fn, double *value, char *err,
			size_t errlen)
{
	const struct replay *rp = ctx;
	for (size_t i = 0; i < rp->r->n_places; i++) {
		if (rp->r->places[i].fn != fn || !same_place(rp, i, text, len))
			continue;
		*value = rp->r->places[i].value;
		if (rp->target != SIZE_MAX && rp->r->places[rp->target].fn == fn && same_place(rp, rp->target, text, len))
			*value *= rp->factor;
		return 0;
	}
	snprintf(err, errlen, "place not seen before");
	return -1;
}

static bool moved(double was, double now)
{
	return fabs(now - was) > 1e-9 * fmax(fabs(was), 1e-300);
}

/* The expression with every anchored literal of value v scaled. */
static char *scaled_literals(const char *text, size_t len, const struct expr_result *r, const bool *anchored, double v,
			     const char *factor)
{
	struct buf b = {0};
	size_t at = 0;
	for (size_t i = 0; i < r->n_literals; i++) {
		const struct expr_literal *l = &r->literals[i];
		if (!anchored[i] || l->value != v)
			continue;
		buf_append(&b, text + at, l->start - at);
		buf_printf(&b, "(%.*s*%s)", (int)(l->end - l->start), text + l->start, factor);
		at = l->end;
	}
	buf_append(&b, text + at, len - at);
	return buf_detach(&b);
}

static bool evaluates_to_other(const char *text, size_t len, struct replay *rp, double was)
{
	struct expr_env env = {replay_place, rp};
	struct expr_result again;
	/* one that no longer evaluates (a divisor scaled to zero, a text
	 * over EXPR_MAX_LEN) is taken to move: never a false accusation */
	bool other = expr_eval_env(text, len, &env, &again) != 0 || moved(was, again.value);
	expr_result_free(&again);
	return other;
}

/* Literal i's value was tried with an earlier anchored literal's. */
static bool seen_value(const struct expr_result *r, const bool *anchored, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (anchored[k] && r->literals[k].value == r->literals[i].value)
			return true;
	return false;
}

enum anchor_verdict anchor_judge(const char *text, size_t len, const struct expr_result *r, const bool *anchored)
{
	static const char *const factors[] = {"3/2", "7/10"};
	static const double factor_values[] = {1.5, 0.7};
	bool any = r->n_places > 0;
	for (size_t i = 0; i < r->n_literals; i++)
		any |= anchored[i];
	if (!any)
		return ANCHOR_NONE;
	struct replay rp = {text, r, SIZE_MAX, 1};
	for (size_t i = 0; i < r->n_literals; i++) {
		if (!anchored[i] || seen_value(r, anchored, i))
			continue;
		for (size_t f = 0; f < 2; f++) {
			char *t = scaled_literals(text, len, r, anchored, r->literals[i].value, factors[f]);
			bool other = evaluates_to_other(t, strlen(t), &rp, r->value);
			free(t);
			if (other)
				return ANCHOR_OK;
		}
	}
	for (size_t i = 0; i < r->n_places; i++)
		for (size_t f = 0; f < 2; f++) {
			rp.target = i;
			rp.factor = factor_values[f];
			if (evaluates_to_other(text, len, &rp, r->value))
				return ANCHOR_OK;
		}
	return ANCHOR_CANCELS;
}

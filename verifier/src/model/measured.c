/* measured.c - see measured.h. */
#include "measured.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "util.h"

/* ---- which places are measurements ---------------------------------------- */

static bool word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c >= 0x80;
}

static bool time_or_rate_word(const char *w, size_t n)
{
	static const char *const words[] = {"ms", "us", "\xc2\xb5s", "\xce\xbcs", "ns", "sec", "secs", "second",
					    "seconds", "time", "elapsed", "FLOPS", "GFLOPS", "TFLOPS"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return true;
	return n > 2 && w[n - 2] == '/' && w[n - 1] == 's'; /* GB/s, GFLOP/s */
}

/* Calls each word of s[0..len) (runs of letters, digits, '/' and non-ASCII
 * bytes) until fn says true. */
static bool any_word(const char *s, size_t len, bool (*fn)(const char *, size_t, const void *), const void *arg)
{
	for (size_t i = 0; i < len;) {
		while (i < len && !word_char((unsigned char)s[i]))
			i++;
		size_t a = i;
		while (i < len && word_char((unsigned char)s[i]))
			i++;
		if (i > a && fn(s + a, i - a, arg))
			return true;
	}
	return false;
}

static bool is_time_word(const char *w, size_t n, const void *arg)
{
	(void)arg;
	return time_or_rate_word(w, n);
}

bool measured_place(const struct place_hit *hit, const char *text, size_t len)
{
	if (place_is_volatile(hit))
		return true;
	if (hit->stdout_index == SIZE_MAX)
		return false; /* a header field: [repeats], [driver] */
	return any_word(text, len, is_time_word, NULL) ||
	       any_word(hit->tok.unit, strlen(hit->tok.unit), is_time_word, NULL);
}

/* ---- resolution -------------------------------------------------------------- */

struct unit_word {
	const char *s;
	size_t n;
};

static bool is_unit(const char *w, size_t n, const void *arg)
{
	const struct unit_word *u = arg;
	return u->n == n && memcmp(u->s, w, n) == 0;
}

/* The resolution the evidence states for a place named text[0..len):
 * the largest entry of "resolution: UNIT VALUE, ..." whose UNIT is one of
 * its words, its printed unit, or "*"; 0 when none. */
static double stated_resolution(const struct place_hit *hit, const char *text, size_t len)
{
	const char *spec = evidence_get(hit->ev->ev, "resolution", NULL);
	double best = 0;
	for (const char *p = spec; p && *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		const char *unit = p;
		while (*p && *p != ' ' && *p != ',')
			p++;
		struct unit_word u = {unit, (size_t)(p - unit)};
		while (*p == ' ')
			p++;
		char *end;
		double v = strtod(p, &end);
		if (end == p || !(v >= 0) || !isfinite(v))
			break; /* a malformed entry ends the list */
		p = end;
		if (u.n == 0)
			continue;
		bool applies = (u.n == 1 && unit[0] == '*') || any_word(text, len, is_unit, &u) ||
			       any_word(hit->tok.unit, strlen(hit->tok.unit), is_unit, &u);
		if (applies && v > best)
			best = v;
	}
	return best;
}

/* Half a unit of the last printed digit. */
static double print_rounding(const struct num_token *t)
{
	int d = t->decimals > 300 ? 300 : t->decimals < -300 ? -300 : t->decimals;
	return 0.5 * pow(10, -d);
}

/* ---- the sides, repeat by repeat ----------------------------------------------- */

/* One comparison's places with their values. */
struct cmp_places {
	const char *text;              /* the claim text */
	const struct claim_result *r;
	size_t from, to;               /* its places in r->places and pe */
	double *vals[PLACE_ENV_MAX];   /* per place: its values (owned) */
	size_t n_vals[PLACE_ENV_MAX];
	double u[PLACE_ENV_MAX];       /* one value's uncertainty */
	/* what the evaluation asks for: */
	size_t repeat;                 /* which repeat's value */
	size_t bump;                   /* add u to this place (SIZE_MAX: none) */
};

static int place_in_repeat(void *ctx, const char *text, size_t len, enum expr_place_fn fn, double *value, char *err,
			   size_t errlen)
{
	(void)len;
	(void)fn; /* min() and max() read as the place: the test weighs every repeat */
	struct cmp_places *cp = ctx;
	size_t at = (size_t)(text - cp->text) - 1; /* the '[' */
	for (size_t i = cp->from; i < cp->to; i++)
		if (cp->r->places[i].start == at) {
			size_t k = cp->n_vals[i] == 1 ? 0 : cp->repeat;
			*value = cp->vals[i][k] + (cp->bump == i ? cp->u[i] : 0);
			return 0;
		}
	snprintf(err, errlen, "place not among the comparison's");
	return -1;
}

static bool eval_side(struct cmp_places *cp, size_t a, size_t b, size_t repeat, size_t bump, double *out)
{
	cp->repeat = repeat;
	cp->bump = bump;
	struct expr_env env = {place_in_repeat, cp};
	struct expr_result er;
	bool ok = expr_eval_env(cp->text + a, b - a, &env, &er) == 0;
	*out = er.value;
	expr_result_free(&er);
	return ok;
}

/* Whether any place of [a, b) varies (has more than one value). */
static bool side_varies(const struct cmp_places *cp, size_t a, size_t b)
{
	for (size_t i = cp->from; i < cp->to; i++)
		if (cp->r->places[i].start >= a && cp->r->places[i].end <= b && cp->n_vals[i] > 1)
			return true;
	return false;
}

/* The side [a, b) as a sample: its value in each repeat, and its
 * uncertainty (each place's moved in turn, at the first repeat). */
static bool side_sample(struct cmp_places *cp, size_t a, size_t b, size_t repeats, double *v, size_t *n, double *u)
{
	*n = side_varies(cp, a, b) ? repeats : 1;
	for (size_t k = 0; k < *n; k++)
		if (!eval_side(cp, a, b, k, SIZE_MAX, &v[k]))
			return false;
	*u = 0;
	for (size_t i = cp->from; i < cp->to; i++) {
		if (cp->r->places[i].start < a || cp->r->places[i].end > b)
			continue;
		double moved;
		if (!eval_side(cp, a, b, 0, i, &moved))
			return false;
		*u += fabs(moved - v[0]);
	}
	return true;
}

static void cmp_places_free(struct cmp_places *cp)
{
	for (size_t i = cp->from; i < cp->to; i++)
		free(cp->vals[i]);
}

/* ---- words --------------------------------------------------------------------- */

/* "median 0.0264 vs 0.0355, margin 0.0091 over a threshold of 0.0001
 * (resolution 0.0005 and print rounding); Mann-Whitney U p = 0.004 over
 * 5 repeats" of one comparison decided by the verdict rule. */
void measured_describe(const struct measured_cmp *m, struct buf *b)
{
	if (m->why) {
		buf_printf(b, "%s", m->why);
		return;
	}
	const struct verdict_figures *f = &m->f;
	buf_printf(b, "%s %.6g vs %s %.6g, margin %.3g against a threshold of %.3g (",
		   m->n_l == 1 ? "value" : verdict_centre_name(m->centre_l), f->median_l,
		   m->n_r == 1 ? "value" : verdict_centre_name(m->centre_r), f->median_r, f->margin, f->threshold);
	if (m->resolution > 0)
		buf_printf(b, "stated resolution %.6g and print rounding", m->resolution);
	else
		buf_printf(b, "print rounding; no resolution stated");
	bool rank = strcmp(f->test, "Mann-Whitney U") == 0, none = strcmp(f->test, "none (one value a side)") == 0;
	buf_printf(b, "); %s", rank ? f->test : none ? "no test (one value a side)" : "every repeat beyond the threshold");
	if (rank)
		buf_printf(b, " p = %.3g%s", f->p, f->exact ? "" : " (normal approximation)");
	if (!none)
		buf_printf(b, " over %zu repeats", m->repeats);
	if (rank)
		buf_printf(b, ", needs p <= %g", VERDICT_ALPHA);
	if (f->verdict == VERDICT_UNDECIDED && f->why && f->why[0])
		buf_printf(b, ": %s", f->why);
}

/* ---- the decider ------------------------------------------------------------------ */

static enum claim_truth as_truth(enum verdict v)
{
	return v == VERDICT_HOLDS ? CLAIM_TRUE : v == VERDICT_FAILS ? CLAIM_FALSE : CLAIM_UNDECIDED;
}

/* Reads each place's values and uncertainty; the count of repeats, or 0
 * with *why set. */
static size_t read_places(struct measured_claim *mc, struct cmp_places *cp, struct measured_cmp *m)
{
	size_t repeats = 1;
	for (size_t i = cp->from; i < cp->to; i++) {
		const struct place_hit *h = &mc->pe->hits[i];
		const struct expr_place *pl = &cp->r->places[i];
		const char *name = cp->text + pl->start;
		size_t name_len = pl->end - pl->start;
		double res = stated_resolution(h, name, name_len);
		m->resolution = fmax(m->resolution, res);
		cp->u[i] = res + print_rounding(&h->tok);
		cp->vals[i] = xmalloc(1024 * sizeof *cp->vals[i]); /* the first n_vals[i] are read */
		cp->n_vals[i] = place_repeat_values(h, cp->vals[i], 1024);
		if (cp->n_vals[i] == 0) {
			m->why = "a repeat printed no number at one of its places";
			return 0;
		}
		if (cp->n_vals[i] > 1 && repeats > 1 && cp->n_vals[i] != repeats) {
			m->why = "its places were repeated a different number of times";
			return 0;
		}
		if (cp->n_vals[i] > 1)
			repeats = cp->n_vals[i];
	}
	return repeats;
}

static bool names_measured(const struct measured_claim *mc, const char *text, const struct claim_result *r,
			   const struct claim_cmp *c)
{
	for (size_t i = c->place_from; i < c->place_to; i++)
		if (measured_place(&mc->pe->hits[i], text + r->places[i].start + 1,
				   r->places[i].end - r->places[i].start - 2))
			return true;
	return false;
}

/* A side that is one bound and nothing else, "max([P])" or "min([P])",
 * stands for that bound of its repeats (the claim is about the recorded
 * range); any other side for its median. */
static enum verdict_centre side_centre(const char *text, const struct claim_result *r, size_t a, size_t b)
{
	const struct expr_place *only = NULL;
	for (size_t i = 0; i < r->n_places; i++)
		if (r->places[i].start >= a && r->places[i].end <= b) {
			if (only)
				return VERDICT_MEDIAN;
			only = &r->places[i];
		}
	for (size_t i = 0; i < r->n_literals; i++)
		if (r->literals[i].start >= a && r->literals[i].end <= b)
			return VERDICT_MEDIAN;
	if (!only || only->fn == EXPR_PLACE_VALUE)
		return VERDICT_MEDIAN;
	while (a < b && (text[a] == ' ' || text[a] == '\t'))
		a++;
	while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t'))
		b--;
	/* "max(" ... ")" around the place, blanks allowed inside */
	if (b - a > only->end - only->start + 8 || text[a] != 'm' || text[b - 1] != ')')
		return VERDICT_MEDIAN;
	return only->fn == EXPR_PLACE_MIN ? VERDICT_LEAST : VERDICT_GREATEST;
}

/* The comparison by the rule, into m; its verdict. */
static enum claim_truth decide_measured(struct measured_claim *mc, const char *text, const struct claim_result *r,
					const struct claim_cmp *c, struct measured_cmp *m)
{
	struct cmp_places cp = {.text = text, .r = r, .from = c->place_from, .to = c->place_to};
	size_t repeats = read_places(mc, &cp, m);
	enum claim_truth out = CLAIM_UNDECIDED;
	if (repeats) {
		double *lv = xcalloc(repeats, sizeof *lv), *rv = xcalloc(repeats, sizeof *rv);
		size_t ln, rn;
		double lu, ru;
		size_t op_end = c->op_start + strlen(c->op);
		if (!side_sample(&cp, c->start, c->op_start, repeats, lv, &ln, &lu) ||
		    !side_sample(&cp, op_end, c->end, repeats, rv, &rn, &ru)) {
			m->why = "a side does not evaluate in every repeat";
		} else {
			struct verdict_side ls = {lv, ln, lu, side_centre(text, r, c->start, c->op_start)},
					    rs = {rv, rn, ru, side_centre(text, r, op_end, c->end)};
			m->centre_l = ls.centre;
			m->centre_r = rs.centre;
			m->n_l = ln;
			m->n_r = rn;
			m->u_l = lu;
			m->u_r = ru;
			m->repeats = ln > rn ? ln : rn;
			verdict_decide(&ls, c->op, &rs, &m->f);
			out = as_truth(m->f.verdict);
			if (mc->want_flip)
				m->has_flip = verdict_flip_nearest(&ls, c->op, &rs, &m->flip);
		}
		free(lv);
		free(rv);
	}
	cmp_places_free(&cp);
	return out;
}

/* "max([P]) >= min([Q])" (or "min([Q]) <= max([P])"): the recorded ranges
 * touch or overlap.  A statement about the extremes the capture printed,
 * which says no difference: it keeps its exact truth. */
static bool ranges_overlap_form(const char *text, const struct claim_result *r, const struct claim_cmp *c)
{
	if (c->place_to - c->place_from != 2 || (strcmp(c->op, ">=") != 0 && strcmp(c->op, "<=") != 0))
		return false;
	for (size_t i = 0; i < r->n_literals; i++)
		if (r->literals[i].start >= c->start && r->literals[i].end <= c->end)
			return false;
	const struct expr_place *a = &r->places[c->place_from], *b = &r->places[c->place_from + 1];
	enum expr_place_fn hi = c->op[0] == '>' ? a->fn : b->fn, lo = c->op[0] == '>' ? b->fn : a->fn;
	if (hi != EXPR_PLACE_MAX || lo != EXPR_PLACE_MIN || a->end > c->op_start || b->start < c->op_start)
		return false;
	/* each side is its bound and nothing else: "max(" ... ")" */
	size_t l0 = c->start, l1 = c->op_start, r0 = c->op_start + strlen(c->op), r1 = c->end;
	while (l1 > l0 && (text[l1 - 1] == ' ' || text[l1 - 1] == '\t'))
		l1--;
	while (r0 < r1 && (text[r0] == ' ' || text[r0] == '\t'))
		r0++;
	return l1 - l0 <= a->end - a->start + 6 && r1 - r0 <= b->end - b->start + 6 && memcmp(text + l0, "m", 1) == 0 &&
	       memcmp(text + r0, "m", 1) == 0;
}

static enum claim_truth decide(void *ctx, const char *text, const struct claim_result *r, const struct claim_cmp *c)
{
	struct measured_claim *mc = ctx;
	if (mc->n == MEASURED_MAX_CMPS)
		return c->verdict;
	struct measured_cmp *m = &mc->cmps[mc->n++];
	memset(m, 0, sizeof *m);
	/* places past what the env kept have no hits: exact */
	if (c->place_to > mc->pe->n || c->place_to == c->place_from || !names_measured(mc, text, r, c) ||
	    ranges_overlap_form(text, r, c))
		return c->verdict;
	m->measured = true;
	return decide_measured(mc, text, r, c, m);
}

struct claim_decider measured_decider(struct measured_claim *mc)
{
	return (struct claim_decider){decide, mc};
}

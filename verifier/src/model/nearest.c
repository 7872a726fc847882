/* nearest.c - see nearest.h. */
#include "nearest.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Enough for any digits compared: a page's number is cut to its first
 * DIGITS_MAX significant digits (a slip is in the digits an author
 * typed, and no one types 40). */
#define DIGITS_MAX 24
/* Near in value: within 5 %. */
#define NEAR_REL 0.05

/* The significant digits of v printed with `decimals` decimals (or, for
 * a negative count, `sig` significant digits): leading zeros left out. */
static size_t sig_digits_of(double v, int decimals, int sig, char out[DIGITS_MAX + 1])
{
	char buf[400];
	v = fabs(v);
	if (decimals >= 0 && decimals <= 30 && v < 1e30)
		snprintf(buf, sizeof buf, "%.*f", decimals, v);
	else
		snprintf(buf, sizeof buf, "%.*e", sig > 1 && sig < 30 ? sig - 1 : 0, v);
	size_t n = 0;
	bool lead = true;
	for (const char *s = buf; *s && *s != 'e' && n < DIGITS_MAX; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (lead && *s == '0')
			continue;
		lead = false;
		out[n++] = *s;
	}
	while (n > 1 && out[n - 1] == '0') /* 11.0 is the digits 11 */
		n--;
	out[n] = '\0';
	return n;
}

/* Optimal string alignment distance of a and b (at most DIGITS_MAX each). */
static size_t osa(const char *a, size_t na, const char *b, size_t nb)
{
	size_t d[DIGITS_MAX + 1][DIGITS_MAX + 1];
	for (size_t i = 0; i <= na; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= nb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= na; i++)
		for (size_t j = 1; j <= nb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[na][nb];
}

/* The power of ten of |v|'s leading digit (0 for 0). */
static int magnitude(double v)
{
	v = fabs(v);
	return v > 0 && isfinite(v) ? (int)floor(log10(v)) : 0;
}

struct cand {
	const struct bank_entry *e;
	size_t pos;   /* bank order */
	bool unit;    /* the page number's unit */
	size_t slips; /* digit distance */
	double rel;   /* relative difference */
};

static double rel_diff(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));
	return m == 0 ? 0 : fabs(a - b) / m;
}

/* How a candidate is judged against the page's number; false when it is
 * not close (nearest.h). */
static bool judge(const struct num_token *tok, const char *pd, size_t np, const struct bank_entry *e,
		  struct cand *c)
{
	double v = e->tok.value;
	if (!isfinite(v) || isnan(v))
		return false;
	c->rel = rel_diff(tok->value, v);
	char ed[DIGITS_MAX + 1], rd[DIGITS_MAX + 1];
	size_t ne = sig_digits_of(v, e->tok.decimals, e->tok.sig_digits, ed);
	size_t nr = sig_digits_of(v, tok->decimals, tok->sig_digits, rd);
	size_t cut = ne < np ? ne : np;
	size_t prefix = osa(pd, np, ed, cut);
	size_t rounded = osa(pd, np, rd, nr);
	c->slips = prefix < rounded ? prefix : rounded;
	bool same_mag = magnitude(tok->value) == magnitude(v) && (tok->value < 0) == (v < 0);
	/* two digits: only their swap (any other slip of two digits leaves
	 * half the values of the magnitude one slip away) */
	bool swap2 = np == 2 && ((cut == 2 && pd[0] == ed[1] && pd[1] == ed[0]) ||
				 (nr == 2 && pd[0] == rd[1] && pd[1] == rd[0]));
	bool slip = same_mag && ((np >= 3 && c->slips <= 1) || swap2);
	c->unit = tok->unit[0] && strcmp(tok->unit, e->tok.unit) == 0;
	return c->rel <= NEAR_REL || slip;
}

/* Best first: the page's unit, then fewer slips (a value within 1 % counts
 * as none), then nearer, then bank order. */
static int cand_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	if (a->unit != b->unit)
		return a->unit ? -1 : 1;
	size_t sa = a->rel <= 0.01 ? 0 : a->slips, sb = b->rel <= 0.01 ? 0 : b->slips;
	if (sa != sb)
		return sa < sb ? -1 : 1;
	if (a->rel != b->rel)
		return a->rel < b->rel ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* The entries a number one slip from the page's digits (pd, np) would
 * name, at the page's magnitude mag and sign: for each digit string one
 * substitution, swap, deletion or insertion away, the values whose
 * leading digits are it or that round to it. */
#define PER_RANGE 8

static void add_unique(struct cand **c, size_t *n, size_t *cap, const struct bank_entry *e,
		       const struct num_token *tok, const char *pd, size_t np)
{
	if (e->line < e->ev->ev->stdout_first)
		return; /* a header line's value (the driver, the CUDA version, the command lines) */
	for (size_t k = 0; k < *n; k++)
		if ((*c)[k].e->tok.value == e->tok.value) {
			if (e->order < (*c)[k].pos) /* the value's first entry in bank order stands for it */
				(*c)[k].e = e, (*c)[k].pos = e->order;
			return;
		}
	struct cand one = {e, e->order, false, 0, 0};
	if (!judge(tok, pd, np, e, &one))
		return;
	*c = xgrow(*c, cap, *n + 1, sizeof **c);
	(*c)[(*n)++] = one;
}

static void add_variant(const struct bank *b, const struct num_token *tok, const char *pd, size_t np,
			const char *var, size_t nv, struct cand **c, size_t *n, size_t *cap)
{
	if (nv == 0 || var[0] == '0')
		return;
	double digits = 0;
	for (size_t i = 0; i < nv; i++)
		digits = digits * 10 + (var[i] - '0');
	int mag = magnitude(tok->value);
	double unit = pow(10.0, mag - (int)nv + 1), base = digits * unit;
	double lo = base - unit / 2, hi = base + unit;
	if (tok->value < 0) {
		double t = -hi;
		hi = -lo;
		lo = t;
	}
	const struct bank_entry *hit[PER_RANGE];
	size_t k = bank_in_range(b, lo, hi, hit, PER_RANGE);
	for (size_t i = 0; i < k; i++)
		add_unique(c, n, cap, hit[i], tok, pd, np);
}

/* Every digit string one slip from pd. */
static void add_slips(const struct bank *b, const struct num_token *tok, const char *pd, size_t np, struct cand **c,
		      size_t *n, size_t *cap)
{
	char v[DIGITS_MAX + 2];
	for (size_t i = 0; i < np; i++) { /* substitutions */
		memcpy(v, pd, np);
		for (char d = '0'; d <= '9'; d++)
			if (d != pd[i]) {
				v[i] = d;
				add_variant(b, tok, pd, np, v, np, c, n, cap);
			}
	}
	for (size_t i = 0; i + 1 < np; i++) { /* swaps of neighbours */
		memcpy(v, pd, np);
		v[i] = pd[i + 1];
		v[i + 1] = pd[i];
		if (v[i] != v[i + 1])
			add_variant(b, tok, pd, np, v, np, c, n, cap);
	}
	for (size_t i = 0; i < np && np > 1; i++) { /* deletions */
		memcpy(v, pd, i);
		memcpy(v + i, pd + i + 1, np - i - 1);
		add_variant(b, tok, pd, np, v, np - 1, c, n, cap);
	}
	for (size_t i = 0; i <= np && np < DIGITS_MAX; i++) /* insertions */
		for (char d = '0'; d <= '9'; d++) {
			memcpy(v, pd, i);
			v[i] = d;
			memcpy(v + i + 1, pd + i, np - i);
			add_variant(b, tok, pd, np, v, np + 1, c, n, cap);
		}
}

size_t nearest_candidates(const struct bank *b, const struct num_token *tok, const struct bank_entry **out,
			  size_t max)
{
	bank_ready(b);
	char pd[DIGITS_MAX + 1];
	size_t np = sig_digits_of(tok->value, tok->decimals, tok->sig_digits, pd);
	struct cand *c = NULL;
	size_t n = 0, cap = 0;
	/* within 5 %: the nearest few values (the bank's index walks to them) */
	const struct bank_entry *near[PER_RANGE];
	size_t k = isfinite(tok->value) ? bank_nearest(b, tok->value, near, PER_RANGE) : 0;
	for (size_t i = 0; i < k; i++)
		add_unique(&c, &n, &cap, near[i], tok, pd, np);
	if (np >= 2 && isfinite(tok->value) && tok->value != 0)
		add_slips(b, tok, pd, np, &c, &n, &cap);
	if (n > 1)
		qsort(c, n, sizeof *c, cand_cmp);
	for (k = 0; k < n && k < max; k++)
		out[k] = c[k].e;
	free(c);
	return k;
}

/* verdict.c - see verdict.h.  libc only: the few functions of libm it
 * needs (a square root, the normal tail) are written here, since the
 * capture binary links no libm. */
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- small numerics without libm ----------------------------------------- */

static double root(double x)
{
	if (x <= 0)
		return 0;
	double r = x > 1 ? x : 1;
	for (int i = 0; i < 200; i++) {
		double next = 0.5 * (r + x / r);
		if (next == r)
			break;
		r = next;
	}
	return r;
}

/* e^x for x <= 0: halved until small, a Taylor series, squared back. */
static double exp_neg(double x)
{
	if (x < -700)
		return 0;
	int k = 0;
	while (x < -0.5) {
		x /= 2;
		k++;
	}
	double term = 1, sum = 1;
	for (int i = 1; i < 30; i++) {
		term *= x / i;
		sum += term;
	}
	while (k-- > 0)
		sum *= sum;
	return sum;
}

/* P(Z >= z) for a standard normal Z (Abramowitz and Stegun 26.2.17,
 * absolute error under 7.5e-8). */
static double normal_upper(double z)
{
	bool neg = z < 0;
	double x = neg ? -z : z;
	double t = 1 / (1 + 0.2316419 * x);
	double poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
	double q = 0.3989422804014327 * exp_neg(-x * x / 2) * poly;
	return neg ? 1 - q : q;
}

/* ---- Mann-Whitney U -------------------------------------------------------- */

size_t verdict_mw_u(const double *x, size_t m, const double *y, size_t n)
{
	size_t u = 0;
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			u += x[i] < y[j];
	return u;
}

/* The counts of each U for samples of m and n, into out (m*n+1
 * doubles): the coefficients of the Gaussian binomial [m+n, m] in q (U
 * counts the pairs an interleaving of the two samples puts in order, and
 * [m+n, m] is the generating function of those counts).  Built as the
 * product over i = 1..m of (1 - q^(n+i)) / (1 - q^i): after step i the
 * polynomial is [n+i, i], of degree i*n, so the division by (1 - q^i),
 * g[k] = h[k] + g[k-i], is exact and needs h only up to that degree.
 * Every value is an integer below C(40, 20) < 2^53: exact in a double, so
 * the counts are exactly those of the recurrence over both sample sizes
 * (f(i, j, u) = f(i-1, j, u) + f(i, j-1, u-i)), to which the unit test
 * holds them for every m and n up to VERDICT_EXACT_MAX, in m*m*n/2 steps
 * where that recurrence takes m*m*n*n. */
static void mw_counts(size_t m, size_t n, double *out)
{
	double *f = xcalloc(m * n + 1, sizeof *f);
	f[0] = 1; /* [n, 0] = 1 */
	for (size_t i = 1; i <= m; i++) {
		size_t was = (i - 1) * n, deg = i * n; /* the degrees before and after */
		for (size_t k = 0; k <= deg; k++) {
			double h = (k <= was ? f[k] : 0) - (k >= n + i ? f[k - n - i] : 0);
			out[k] = h + (k >= i ? out[k - i] : 0);
		}
		memcpy(f, out, (deg + 1) * sizeof *f);
	}
	free(f);
}

double verdict_mw_upper_tail(size_t m, size_t n, size_t u)
{
	if (m < 1 || n < 1 || m > VERDICT_EXACT_MAX || n > VERDICT_EXACT_MAX)
		return -1;
	if (u > m * n)
		return 0;
	double *f = xcalloc(m * n + 1, sizeof *f);
	mw_counts(m, n, f);
	double total = 0, tail = 0;
	for (size_t k = 0; k <= m * n; k++) {
		total += f[k];
		if (k >= u)
			tail += f[k];
	}
	free(f);
	return tail / total;
}

/* P(U >= u), exact or by the normal approximation; *exact says which. */
static double mw_tail(size_t m, size_t n, size_t u, bool *exact)
{
	*exact = m <= VERDICT_EXACT_MAX && n <= VERDICT_EXACT_MAX;
	if (*exact)
		return verdict_mw_upper_tail(m, n, u);
	double mn = (double)m * (double)n;
	double z = ((double)u - mn / 2 - 0.5) / root(mn * (double)(m + n + 1) / 12);
	return normal_upper(z);
}

/* ---- the sign test --------------------------------------------------------- */

/* P(at least k of n fair coin flips come up heads). */
static double sign_tail(size_t n, size_t k)
{
	double c = 1, tail = 0, all = 0; /* c = C(n, i) as i runs; exact below 2^53 */
	for (size_t i = 0; i <= n; i++) {
		if (i)
			c = c * (double)(n - i + 1) / (double)i;
		all += c;
		if (i >= k)
			tail += c;
	}
	return tail / all;
}

/* ---- the rule -------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

const char *verdict_centre_name(enum verdict_centre c)
{
	return c == VERDICT_LEAST ? "least" : c == VERDICT_GREATEST ? "greatest" : "median";
}

static double median(const struct verdict_side *s);

/* The value of s the margin is measured from. */
static double centre(const struct verdict_side *s)
{
	if (s->centre == VERDICT_MEDIAN)
		return median(s);
	double c = s->v[0];
	for (size_t i = 1; i < s->n; i++)
		if (s->centre == VERDICT_LEAST ? s->v[i] < c : s->v[i] > c)
			c = s->v[i];
	return c;
}

static double median(const struct verdict_side *s)
{
	double local[64], *v = s->n <= 64 ? local : xcalloc(s->n, sizeof *v);
	memcpy(v, s->v, s->n * sizeof *v);
	qsort(v, s->n, sizeof *v, cmp_double);
	double m = s->n % 2 ? v[s->n / 2] : (v[s->n / 2 - 1] + v[s->n / 2]) / 2;
	if (v != local)
		free(v);
	return m;
}

/* The one-sided p of "the values of a lie below those of b" by
 * Mann-Whitney U (both sides several values). */
static double p_below(const struct verdict_side *a, const struct verdict_side *b, bool *exact)
{
	return mw_tail(a->n, b->n, verdict_mw_u(a->v, a->n, b->v, b->n), exact);
}

/* Against a lone value: the sign test's p (for reference), and the
 * margins of the repeats nearest to and farthest from the claim's way:
 * *dmin and *dmax of (R - L) over the repeats. */
static void lone_below(const struct verdict_side *l, const struct verdict_side *r, struct verdict_figures *f,
		       double *dmin, double *dmax)
{
	const struct verdict_side *many = l->n > 1 ? l : r;
	double lone = l->n > 1 ? r->v[0] : l->v[0];
	size_t k = 0, k_against = 0;
	for (size_t i = 0; i < many->n; i++) {
		double d = l->n > 1 ? lone - many->v[i] : many->v[i] - lone; /* > 0: the claim's way */
		k += d > 0;
		k_against += d < 0;
		if (i == 0 || d < *dmin)
			*dmin = d;
		if (i == 0 || d > *dmax)
			*dmax = d;
	}
	f->test = "every repeat beyond the threshold (sign test p for reference)";
	f->p = sign_tail(many->n, k);
	f->p_against = sign_tail(many->n, k_against);
}

/* "L < R": fills f as the rule says. */
static void decide_below(const struct verdict_side *l, const struct verdict_side *r, struct verdict_figures *f)
{
	f->median_l = centre(l);
	f->median_r = centre(r);
	f->margin = f->median_r - f->median_l;
	/* printed values carry binary error: a margin equal to the threshold
	 * as printed (0.0154 - 0.0153 against 2 x 0.00005) does not exceed it */
	double scale = (f->median_l < 0 ? -f->median_l : f->median_l) + (f->median_r < 0 ? -f->median_r : f->median_r);
	f->threshold = (l->u + r->u) + 1e-9 * scale;
	f->exact = true;
	f->why = "";
	bool holds, fails;
	if (l->n == 1 && r->n == 1) {
		f->test = "none (one value a side)";
		f->p = f->p_against = 1;
		holds = fails = false;
		f->why = "the capture was not repeated, so its noise is unknown";
	} else if (l->n == 1 || r->n == 1) {
		double dmin = 0, dmax = 0;
		lone_below(l, r, f, &dmin, &dmax);
		holds = dmin > f->threshold;
		fails = dmax < -f->threshold;
		f->margin = f->margin >= 0 ? dmin : dmax; /* the repeat that decides */
	} else {
		bool exact_against;
		f->test = "Mann-Whitney U";
		f->p = p_below(l, r, &f->exact);
		f->p_against = p_below(r, l, &exact_against);
		holds = f->margin > f->threshold && f->p <= VERDICT_ALPHA;
		fails = -f->margin > f->threshold && f->p_against <= VERDICT_ALPHA;
	}
	if (holds)
		f->verdict = VERDICT_HOLDS;
	else if (fails)
		f->verdict = VERDICT_FAILS;
	else {
		f->verdict = VERDICT_UNDECIDED;
		if (f->why[0])
			return;
		bool small = f->margin <= f->threshold && -f->margin <= f->threshold;
		bool noisy = (f->margin > 0 ? f->p : f->p_against) > VERDICT_ALPHA;
		f->why = l->n == 1 || r->n == 1 ? "the repeats do not all lie beyond the lone value by more than the resolution"
			 : small && noisy ? "the two are apart by no more than the resolution, and the repeats do not tell them apart"
			 : small          ? "the two are apart by no more than the resolution"
					  : "the repeats do not tell the two apart";
	}
}

static void swap_sides(struct verdict_figures *f)
{
	double t = f->median_l;
	f->median_l = f->median_r;
	f->median_r = t;
}

int verdict_decide(const struct verdict_side *l, const char *op, const struct verdict_side *r,
		   struct verdict_figures *f)
{
	memset(f, 0, sizeof *f);
	if (!l || !r || l->n == 0 || r->n == 0 || !op)
		return -1;
	if (op[0] == '<') {
		decide_below(l, r, f);
		return 0;
	}
	if (op[0] == '>') {
		decide_below(r, l, f);
		swap_sides(f);
		return 0;
	}
	if (strcmp(op, "==") != 0 && strcmp(op, "!=") != 0)
		return -1;
	/* either order decided: the two differ */
	decide_below(l, r, f);
	if (f->verdict == VERDICT_FAILS) { /* R < L: report that way */
		double p = f->p;
		f->p = f->p_against;
		f->p_against = p;
		f->margin = -f->margin;
	}
	bool differ = f->verdict != VERDICT_UNDECIDED;
	if (op[0] == '=')
		f->verdict = differ ? VERDICT_FAILS : VERDICT_UNDECIDED;
	else
		f->verdict = differ ? VERDICT_HOLDS : VERDICT_UNDECIDED;
	if (op[0] == '=' && !differ)
		f->why = "measured values are never shown equal: only a difference is decided";
	return 0;
}

/* ---- how far from flipping ------------------------------------------------- */

struct flip_search {
	const struct verdict_side *l, *r;
	const char *op;
	enum verdict now;
	struct verdict_flip best;
	bool found;
};

/* Tries value `to` in place of side s's value at k. */
static void try_value(struct flip_search *fs, bool right, size_t k, double to)
{
	const struct verdict_side *s = right ? fs->r : fs->l;
	double from = s->v[k];
	double dist = to > from ? to - from : from - to;
	double best = fs->best.to > fs->best.from ? fs->best.to - fs->best.from : fs->best.from - fs->best.to;
	if (to == from || (fs->found && dist >= best))
		return;
	double local[VERDICT_FLIP_MAX];
	memcpy(local, s->v, s->n * sizeof *local);
	local[k] = to;
	struct verdict_side changed = {local, s->n, s->u, s->centre};
	struct verdict_figures f;
	verdict_decide(right ? fs->l : &changed, fs->op, right ? &changed : fs->r, &f);
	if (f.verdict == fs->now)
		return;
	fs->best = (struct verdict_flip){right, k, from, to, f.verdict};
	fs->found = true;
}

/* Just past x either way: the comparisons are strict, so the value
 * itself changes nothing a tie does not. */
static void try_around(struct flip_search *fs, bool right, size_t k, double x, double eps)
{
	try_value(fs, right, k, x - eps);
	try_value(fs, right, k, x + eps);
}

static void flip_candidates(struct flip_search *fs, bool right, size_t k, double eps, double med_other,
			    double threshold)
{
	const struct verdict_side *own = right ? fs->r : fs->l, *other = right ? fs->l : fs->r;
	for (size_t j = 0; j < other->n; j++)
		try_around(fs, right, k, other->v[j], eps);
	for (size_t j = 0; j < own->n; j++)
		try_around(fs, right, k, own->v[j], eps);
	double targets[2] = {med_other - threshold, med_other + threshold};
	for (int t = 0; t < 2; t++) {
		try_around(fs, right, k, targets[t], eps);
		/* an even count's median is the mean of two: the other one fixed */
		for (size_t j = 0; own->n % 2 == 0 && j < own->n; j++)
			if (j != k)
				try_around(fs, right, k, 2 * targets[t] - own->v[j], eps);
	}
}

bool verdict_flip_nearest(const struct verdict_side *l, const char *op, const struct verdict_side *r,
			  struct verdict_flip *out)
{
	struct verdict_figures f;
	if (verdict_decide(l, op, r, &f) != 0 || l->n > VERDICT_FLIP_MAX || r->n > VERDICT_FLIP_MAX)
		return false;
	struct flip_search fs = {.l = l, .r = r, .op = op, .now = f.verdict};
	double scale = 0;
	for (size_t i = 0; i < l->n; i++)
		scale = scale > (l->v[i] < 0 ? -l->v[i] : l->v[i]) ? scale : (l->v[i] < 0 ? -l->v[i] : l->v[i]);
	for (size_t i = 0; i < r->n; i++)
		scale = scale > (r->v[i] < 0 ? -r->v[i] : r->v[i]) ? scale : (r->v[i] < 0 ? -r->v[i] : r->v[i]);
	double eps = (scale > 0 ? scale : 1) * 1e-9;
	for (size_t k = 0; k < l->n; k++)
		flip_candidates(&fs, false, k, eps, centre(r), l->u + r->u);
	for (size_t k = 0; k < r->n; k++)
		flip_candidates(&fs, true, k, eps, centre(l), l->u + r->u);
	if (fs.found)
		*out = fs.best;
	return fs.found;
}

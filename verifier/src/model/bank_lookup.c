/* bank_lookup.c - see bank.h: the look-ups of a bank (bank_find and the
 * rest), through its index by value once it pays (bank_impl.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bank.h"
#include "bank_impl.h"
#include "util.h"

/* ---- the index by value ---------------------------------------------------
 * Every look-up asks for the entries near one value: those a page number
 * could trace to, those holding a literal's value, the nearest few.  A
 * scan of the bank per look-up made a page of N numbers on N rows cost
 * N x N; the index sorts the references by value once, so that a look-up
 * reads only those in its window of values.  The answers are the scans'
 * exactly: the window is wider than the test the scan applied, the same
 * test then picks among the references in it, and the first in bank
 * order wins as it did. */

/* (value, position) pairs: bank_in_range's scan before the index */
struct keyed {
	double value;
	size_t pos; /* in the list indexed */
};

struct distinct {
	double value;
	size_t first; /* the first reference holding it, in bank order */
};

struct bank_index {
	size_t n;               /* references indexed (the list's first n) */
	uint32_t *keys;         /* positions by (value, pos); NaN left out: it equals nothing.
				 * 4 bytes a key, the value read from the reference: the index
				 * of 59 MiB of evidence is millions of keys (issue 32) */
	size_t n_keys;
	struct distinct *vals;  /* the distinct values, ascending */
	size_t n_vals;
	size_t *by_first;       /* indices into vals, by their first reference */
	bool all_finite;        /* no infinite value (bank_nearest's walk needs it) */
	size_t scanned;         /* references the look-ups read before the index was made */
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* by_first is sorted as (first, index) pairs: qsort has no context */
struct first_pair {
	size_t first, index;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct first_pair *x = a, *y = b;
	return x->first < y->first ? -1 : x->first > y->first;
}

void bank_index_free(struct bank_index *ix)
{
	if (!ix)
		return;
	free(ix->keys);
	free(ix->vals);
	free(ix->by_first);
	free(ix);
}

/* Sorts keys[0..n) by their references' values, stably (so by position
 * within a value: they come in ascending): a merge sort of the 4-byte
 * positions, where qsort would want each value beside its position (16
 * bytes a key) and a buffer of as many. */
static void sort_keys(uint32_t *keys, size_t n, const struct bank_ref *refs)
{
	uint32_t *tmp = xmalloc((n ? n : 1) * sizeof *tmp), *from = keys, *to = tmp;
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = n - lo > width ? lo + width : n, hi = n - mid > width ? mid + width : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				to[k++] = refs[from[j]].value < refs[from[i]].value ? from[j++] : from[i++];
			while (i < mid)
				to[k++] = from[i++];
			while (j < hi)
				to[k++] = from[j++];
		}
		uint32_t *t = from;
		from = to;
		to = t;
	}
	if (from != keys)
		memcpy(keys, from, n * sizeof *keys);
	free(tmp);
}

/* NULL when the list is too long for 4-byte keys (never, for evidence
 * under TEXTFILE_MAX_BYTES a file): the look-ups then scan. */
static struct bank_index *index_build(const struct bank_list *l)
{
	if (l->n > UINT32_MAX)
		return NULL;
	struct bank_index *ix = xcalloc(1, sizeof *ix);
	ix->n = l->n;
	ix->all_finite = true;
	ix->keys = xmalloc((l->n ? l->n : 1) * sizeof *ix->keys);
	for (size_t i = 0; i < l->n; i++) {
		double v = l->refs[i].value;
		if (isnan(v))
			continue;
		ix->all_finite &= isfinite(v) != 0;
		ix->keys[ix->n_keys++] = (uint32_t)i;
	}
	sort_keys(ix->keys, ix->n_keys, l->refs);
	return ix;
}

/* The value of the i-th key. */
static double key_value(const struct bank_index *ix, const struct bank_ref *refs, size_t i)
{
	return refs[ix->keys[i]].value;
}

/* The distinct values of ix and their order by first reference, made at
 * the first bank_nearest (the other look-ups need the keys alone). */
static const struct bank_index *index_values(const struct bank_index *cix, const struct bank_ref *refs)
{
	struct bank_index *ix = (struct bank_index *)cix; /* logically const, as the bank */
	if (ix->vals)
		return ix;
	ix->vals = xmalloc((ix->n_keys ? ix->n_keys : 1) * sizeof *ix->vals);
	for (size_t i = 0; i < ix->n_keys; i++) /* sorted by pos within a value */
		if (i == 0 || key_value(ix, refs, i) != key_value(ix, refs, i - 1))
			ix->vals[ix->n_vals++] = (struct distinct){key_value(ix, refs, i), ix->keys[i]};
	struct first_pair *pairs = xmalloc((ix->n_vals ? ix->n_vals : 1) * sizeof *pairs);
	for (size_t i = 0; i < ix->n_vals; i++)
		pairs[i] = (struct first_pair){ix->vals[i].first, i};
	qsort(pairs, ix->n_vals, sizeof *pairs, pair_cmp);
	ix->by_first = xmalloc((ix->n_vals ? ix->n_vals : 1) * sizeof *ix->by_first);
	for (size_t i = 0; i < ix->n_vals; i++)
		ix->by_first[i] = pairs[i].index;
	free(pairs);
	return ix;
}

/* The index of list l, built (or built again, for more references) once
 * it pays: NULL while the look-ups so far have read fewer than
 * SCANS_BEFORE_INDEX times the references, and the caller then reads
 * them all.  A bank looked in a few times (a page quoting a few numbers
 * of a large evidence) so costs no index (16 bytes a reference and a
 * sort), and a bank looked in many times costs a few scans more than the
 * index alone: linear either way. */
#define SCANS_BEFORE_INDEX 16
static const struct bank_index *index_of(const struct bank_list *cl)
{
	struct bank_list *l = (struct bank_list *)cl; /* logically const, as the bank */
	if (!l->by_value)
		l->by_value = xcalloc(1, sizeof *l->by_value);
	if (l->by_value->keys && l->by_value->n == l->n)
		return l->by_value;
	size_t scanned = l->by_value->scanned;
	if (scanned < SCANS_BEFORE_INDEX * (l->n + 64)) {
		l->by_value->scanned = scanned + l->n + 1;
		return NULL;
	}
	struct bank_index *ix = index_build(l);
	if (!ix) {
		l->by_value->scanned = scanned;
		return NULL;
	}
	bank_index_free(l->by_value);
	l->by_value = ix;
	ix->scanned = scanned;
	return ix;
}

/* The first key whose value is at least lo. */
static size_t keys_from(const struct bank_index *ix, const struct bank_ref *refs, double lo)
{
	size_t a = 0, b = ix->n_keys;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (key_value(ix, refs, m) < lo)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* The first of vals whose value is at least x (above: more than x). */
static size_t vals_from(const struct bank_index *ix, double x, bool above)
{
	size_t a = 0, b = ix->n_vals;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (ix->vals[m].value < x || (above && ix->vals[m].value == x))
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* The positions a look-up reads, in order: the keys in the window
 * [lo, hi] once the list is indexed, else every reference. */
struct cursor {
	const struct bank_index *ix;
	const struct bank_ref *refs;
	size_t i, n;
	double hi;
};

static bool cursor_next(struct cursor *c, size_t *pos)
{
	if (!c->ix) {
		if (c->i >= c->n)
			return false;
		*pos = c->i++;
		return true;
	}
	if (c->i >= c->ix->n_keys || key_value(c->ix, c->refs, c->i) > c->hi)
		return false;
	*pos = c->ix->keys[c->i++];
	return true;
}

/* What a look-up accepts: a reference near enough to the value asked. */
struct wanted {
	const struct num_token *page; /* a page number to trace, or NULL */
	double half;                  /* its trace_half */
	double value, scale;          /* else a value at a scale (bank_find_value) */
};

/* Half a unit of page's last digit, the most a bank value that rounds
 * to it can differ by (computed once a page number, not once a
 * reference). */
static double trace_half(const struct num_token *page)
{
	return 0.5 * pow(10, -(page->decimals > 300 ? 300 : page->decimals));
}

/* Tracing needs the bank value to round to the page's, so it lies within
 * half a unit of the page's last digit: a cheap test on doubles that
 * spares the exact decimal comparison (and reading the token again) for
 * all but a few candidates. */
static bool could_trace(const struct num_token *page, double half, double value)
{
	return fabs(value - page->value) <= half * (1 + 1e-9) + 1e-12 * fabs(page->value);
}

/* Whether a number of this value holds value at this many decimals (scale
 * 10^decimals, as bank_find_value computes it). */
static bool holds_value(double held, double value, double scale)
{
	return llround(held * scale) == llround(value * scale) && fabs(held - value) <= 0.5 / scale;
}

static bool accepts(const struct wanted *w, const struct bank_ref *r)
{
	if (w->page)
		return could_trace(w->page, w->half, r->value) && numtok_traces_to_value(w->page, r->value, r->decimals);
	return holds_value(r->value, w->value, w->scale);
}

/* The window of values an accepted reference lies in, twice as wide as
 * the tests above allow (so rounding in computing it loses none); false
 * when it cannot be computed (an infinite or NaN value): then every
 * reference is read, as before the index. */
static bool window(const struct wanted *w, double *lo, double *hi)
{
	double at = w->page ? w->page->value : w->value;
	double tol = w->page ? w->half * (1 + 1e-9) + 1e-12 * fabs(at) : 0.5 / w->scale;
	*lo = at - 2 * tol;
	*hi = at + 2 * tol;
	return isfinite(*lo) && isfinite(*hi);
}

/* The cursor over the references w may accept: its window of values
 * when the list is indexed (and the window computable), else all. */
static struct cursor cursor_for(const struct bank_list *l, const struct wanted *w)
{
	double lo, hi;
	const struct bank_index *ix = window(w, &lo, &hi) ? index_of(l) : NULL;
	return (struct cursor){ix, l->refs, ix ? keys_from(ix, l->refs, lo) : 0, l->n, ix ? hi : 0};
}

/* The position of the first reference of l in bank order that w
 * accepts, or SIZE_MAX. */
static size_t find_first(const struct bank_list *l, const struct wanted *w)
{
	struct cursor c = cursor_for(l, w);
	size_t best = SIZE_MAX, pos;
	while (cursor_next(&c, &pos)) {
		if (pos > best || !accepts(w, &l->refs[pos]))
			continue;
		best = pos;
		if (!c.ix)
			break; /* bank order: the first is the answer */
		/* the rest of this value's references come later in bank order */
		while (c.i < c.ix->n_keys && key_value(c.ix, l->refs, c.i) == key_value(c.ix, l->refs, c.i - 1))
			c.i++;
	}
	return best;
}

static const struct bank_entry *found(const struct bank *b, const struct bank_list *l, size_t pos)
{
	return pos == SIZE_MAX ? NULL : bank_entry_made(b, l, pos);
}

static struct wanted wanted_page(const struct num_token *page)
{
	return (struct wanted){page, trace_half(page), 0, 0};
}

static double value_scale(int decimals)
{
	return pow(10, decimals > 15 ? 15 : decimals);
}

static struct wanted wanted_value(double value, int decimals)
{
	return (struct wanted){NULL, 0, value, value_scale(decimals)};
}

const struct bank_entry *bank_find(const struct bank *b, const struct num_token *page)
{
	bank_ready(b);
	struct wanted w = wanted_page(page);
	return found(b, &b->all, find_first(&b->all, &w));
}

/* The stdout view's answer for w (bank_find_stdout_first), or NULL when
 * the view does not stand for the bank's first entries. */
static const struct bank_entry *find_in_view(const struct bank *b, const struct wanted *w)
{
	size_t n;
	/* one file and nothing banked: add_evidence would put the view's
	 * entries first, in the view's order (more files interleave) */
	if (!(b->all.n == 0 && b->n_pending == 1 && bank_stdout_count(b, &n)))
		return NULL;
	return found(b, &b->view, find_first(&b->view, w));
}

const struct bank_entry *bank_find_stdout_first(const struct bank *b, const struct num_token *page)
{
	struct wanted w = wanted_page(page);
	const struct bank_entry *e = find_in_view(b, &w);
	return e ? e : bank_find(b, page);
}

const struct bank_entry *bank_find_value(const struct bank *b, double value, int decimals)
{
	bank_ready(b);
	struct wanted w = wanted_value(value, decimals);
	return found(b, &b->all, find_first(&b->all, &w));
}

const struct bank_entry *bank_find_value_stdout_first(const struct bank *b, double value, int decimals)
{
	struct wanted w = wanted_value(value, decimals);
	/* as bank_find_stdout_first: one deferred file, nothing banked */
	const struct bank_entry *e = find_in_view(b, &w);
	return e ? e : bank_find_value(b, value, decimals);
}

/* Keeps pos among the least max positions seen (kept[0..*n), ascending). */
static void keep_least(size_t *kept, size_t *n, size_t max, size_t pos)
{
	if (*n == max && (max == 0 || kept[max - 1] < pos))
		return;
	size_t k = *n < max ? (*n)++ : max - 1;
	for (; k > 0 && kept[k - 1] > pos; k--)
		kept[k] = kept[k - 1];
	kept[k] = pos;
}

/* Every reference of l that page traces to and whose where is NULL (kind
 * 0), not NULL (kind 1) or either (kind -1): the entries of the first max
 * in bank order to out, the count of all returned. */
static size_t traces_in(const struct bank *b, const struct bank_list *l, const struct num_token *page, int kind,
			const struct bank_entry **out, size_t max)
{
	struct wanted w = wanted_page(page);
	size_t count = 0, kept_n = 0, pos;
	size_t *kept = xmalloc((max ? max : 1) * sizeof *kept);
	struct cursor c = cursor_for(l, &w);
	while (cursor_next(&c, &pos))
		if ((kind < 0 || (bank_span_of(l, pos)->where != NULL) == kind) && accepts(&w, &l->refs[pos])) {
			count++;
			keep_least(kept, &kept_n, max, pos);
		}
	for (size_t k = 0; k < kept_n; k++)
		out[k] = bank_entry_made(b, l, kept[k]);
	free(kept);
	return count;
}

size_t bank_traces_in_view(const struct bank *b, const struct num_token *page, const struct bank_entry **out,
			   size_t max, bool *viewed)
{
	size_t n;
	*viewed = bank_stdout_count(b, &n);
	return *viewed ? traces_in(b, &b->view, page, -1, out, max) : 0;
}

size_t bank_traces(const struct bank *b, const struct num_token *page, bool other, const struct bank_entry **out,
		   size_t max)
{
	bank_ready(b);
	return traces_in(b, &b->all, page, other, out, max);
}

size_t bank_traces_run_lines(const struct bank *cb, const struct num_token *page, const struct bank_entry **out,
			     size_t max)
{
	struct bank *b = (struct bank *)cb; /* logically const, as in bank_ready */
	bank_run_lines_ready(b);
	size_t count = 0, kept = 0;
	for (size_t f = 0; f < b->n_run_lines; f++) {
		const struct bank_list *l = &b->run_lines[f];
		if (l->n == 0)
			continue;
		size_t c = traces_in(b, l, page, -1, out + kept, max - kept);
		count += c;
		kept += c < max - kept ? c : max - kept;
	}
	return count;
}

/* The stdout index of refs[pos] when it is a number of ev's first run's
 * stdout, else SIZE_MAX. */
static size_t stdout_index_in(const struct bank_list *l, size_t pos, const struct evfile *ev)
{
	const struct bank_span *sp = bank_span_of(l, pos);
	return sp->ev == ev && sp->first_stdout ? l->refs[pos].line - ev->ev->stdout_first : SIZE_MAX;
}

size_t bank_next_stdout_line(const struct bank *b, const struct evfile *ev, const struct num_token *page, size_t from)
{
	bank_ready(b);
	struct wanted w = wanted_page(page);
	struct cursor c = cursor_for(&b->all, &w);
	size_t best = SIZE_MAX, pos;
	while (cursor_next(&c, &pos)) {
		size_t k = stdout_index_in(&b->all, pos, ev);
		if (k != SIZE_MAX && k >= from && k < best && accepts(&w, &b->all.refs[pos]))
			best = k;
	}
	return best;
}

/* Whether the numbers of the line from refs[pos] on take row[1..n) in
 * order (each the next number it traces to): their positions to at. */
static bool row_from(const struct bank *b, size_t pos, const struct num_token *row, size_t n, size_t *at)
{
	const struct bank_list *l = &b->all;
	size_t k = 1;
	at[0] = pos;
	for (size_t j = pos + 1; j < l->n && k < n && l->refs[j].line == l->refs[pos].line; j++)
		if (numtok_traces_to_value(&row[k], l->refs[j].value, l->refs[j].decimals))
			at[k++] = j;
	return k == n;
}

bool bank_find_row(const struct bank *b, const struct num_token *row, size_t n, const struct bank_entry **at)
{
	if (n == 0)
		return false;
	bank_ready(b);
	size_t *pos = xmalloc(n * sizeof *pos), best = SIZE_MAX, p;
	size_t *best_at = xmalloc(n * sizeof *best_at);
	struct wanted w = wanted_page(&row[0]);
	struct cursor c = cursor_for(&b->all, &w);
	while (cursor_next(&c, &p)) {
		if (p > best || bank_span_of(&b->all, p)->where || !bank_span_of(&b->all, p)->first_stdout ||
		    !accepts(&w, &b->all.refs[p]) || !row_from(b, p, row, n, pos))
			continue;
		best = p;
		memcpy(best_at, pos, n * sizeof *pos);
		if (!c.ix)
			break; /* bank order: the first is the answer */
	}
	for (size_t k = 0; best != SIZE_MAX && k < n; k++)
		at[k] = bank_entry_made(b, &b->all, best_at[k]);
	free(pos);
	free(best_at);
	return best != SIZE_MAX;
}

static double rel_diff(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));
	return m == 0 ? 0 : fabs(a - b) / m;
}

/* The scan bank_nearest's index stands for: each distinct value once (its
 * first reference), nearest first, ties in bank order; positions to at. */
static size_t nearest_scan(const struct bank_list *l, double value, size_t *at, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++) {
		double v = l->refs[i].value;
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup |= l->refs[at[k]].value == v;
		if (dup)
			continue;
		double d = rel_diff(value, v);
		size_t pos = n;
		while (pos > 0 && rel_diff(value, l->refs[at[pos - 1]].value) > d)
			pos--;
		if (pos >= max)
			continue;
		size_t last = n < max ? n : max - 1;
		for (size_t k = last; k > pos; k--)
			at[k] = at[k - 1];
		at[pos] = i;
		if (n < max)
			n++;
	}
	return n;
}

/* A run of distinct values along which the relative difference to the
 * value asked only grows (in exact arithmetic): from `at`, `step` at a
 * time, `left` values. */
struct walk {
	size_t at, left;
	int step;
};

struct near {
	double d;
	size_t val; /* index into vals */
};

static int near_cmp(const void *a, const void *b, const struct bank_index *ix)
{
	const struct near *x = a, *y = b;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	size_t fx = ix->vals[x->val].first, fy = ix->vals[y->val].first;
	return fx < fy ? -1 : fx > fy;
}

/* The walks of the distinct values around value > 0, each in order of
 * growing relative difference: up from value; down from value to 0
 * (exclusive); 0; down from 0 to -value; and up from the least value to
 * -value (exclusive), whose difference falls towards 1 as they grow
 * large.  value < 0 is the mirror image. */
static size_t walks_around(const struct bank_index *ix, double value, struct walk *w)
{
	bool pos = value > 0;
	double m = fabs(value);
	size_t z_lo = vals_from(ix, 0, false), z_hi = vals_from(ix, 0, true);
	size_t n = ix->n_vals, k = 0;
	if (pos) {
		size_t p = vals_from(ix, m, false), neg_mid = vals_from(ix, -m, false);
		w[k++] = (struct walk){p, n - p, 1};
		w[k++] = (struct walk){p - 1, p - z_hi, -1};
		w[k++] = (struct walk){z_lo, z_hi - z_lo, 1};
		w[k++] = (struct walk){z_lo - 1, z_lo - neg_mid, -1};
		w[k++] = (struct walk){0, neg_mid, 1};
	} else {
		size_t q = vals_from(ix, value, true), pos_mid = vals_from(ix, m, true);
		w[k++] = (struct walk){q - 1, q, -1};
		w[k++] = (struct walk){q, z_lo - q, 1};
		w[k++] = (struct walk){z_lo, z_hi - z_lo, 1};
		w[k++] = (struct walk){z_hi, pos_mid - z_hi, 1};
		w[k++] = (struct walk){n - 1, n - pos_mid, -1};
	}
	return k;
}

/* Takes values from walk w into c while there are `take` more to take or
 * their difference is at most limit. */
static void walk_take(const struct bank_index *ix, double value, struct walk *w, size_t take, double limit,
		      struct near **c, size_t *n, size_t *cap)
{
	while (w->left > 0) {
		double d = rel_diff(value, ix->vals[w->at].value);
		if (take == 0 && !(d <= limit))
			break;
		*c = xgrow(*c, cap, *n + 1, sizeof **c);
		(*c)[(*n)++] = (struct near){d, w->at};
		take -= take > 0;
		w->at += (size_t)w->step;
		w->left--;
	}
}

static void sort_near(struct near *c, size_t n, const struct bank_index *ix)
{
	/* insertion sort: c holds a few candidates (max per walk, and ties) */
	for (size_t i = 1; i < n; i++) {
		struct near x = c[i];
		size_t j = i;
		while (j > 0 && near_cmp(&c[j - 1], &x, ix) > 0) {
			c[j] = c[j - 1];
			j--;
		}
		c[j] = x;
	}
}

/* bank_nearest's positions, through the index: each distinct value's
 * first reference. */
static size_t nearest_indexed(const struct bank_index *ix, double value, size_t *at, size_t max)
{
	size_t n = 0;
	if (value == 0) { /* 0 itself, then every other value at difference 1, in bank order */
		size_t z = vals_from(ix, 0, false);
		if (z < ix->n_vals && ix->vals[z].value == 0)
			at[n++] = ix->vals[z].first;
		for (size_t i = 0; i < ix->n_vals && n < max; i++)
			if (ix->vals[ix->by_first[i]].value != 0)
				at[n++] = ix->vals[ix->by_first[i]].first;
		return n;
	}
	struct walk w[5];
	size_t n_walks = walks_around(ix, value, w), cn = 0, cap = 0;
	struct near *c = NULL;
	/* max from each walk holds the nearest max; then every value of a
	 * walk up to the max-th difference found (and rounding's slack), so
	 * that ties are all there to be put in bank order */
	for (size_t i = 0; i < n_walks; i++)
		walk_take(ix, value, &w[i], max, 0, &c, &cn, &cap);
	sort_near(c, cn, ix);
	if (cn >= max) {
		double limit = c[max - 1].d * (1 + 1e-9);
		for (size_t i = 0; i < n_walks; i++)
			walk_take(ix, value, &w[i], 0, limit, &c, &cn, &cap);
		sort_near(c, cn, ix);
	}
	for (; n < max && n < cn; n++)
		at[n] = ix->vals[c[n].val].first;
	free(c);
	return n;
}

size_t bank_nearest(const struct bank *b, double value, const struct bank_entry **out, size_t max)
{
	bank_ready(b);
	if (max == 0)
		return 0;
	const struct bank_index *ix = index_of(&b->all);
	size_t *at = xmalloc(max * sizeof *at), n;
	if (!ix || !ix->all_finite || !isfinite(value) || ix->n_keys != b->all.n)
		n = nearest_scan(&b->all, value, at, max); /* no index yet, or no order to walk: every value read */
	else
		n = nearest_indexed(index_values(ix, b->all.refs), value, at, max);
	for (size_t i = 0; i < n; i++)
		out[i] = bank_entry_made(b, &b->all, at[i]);
	free(at);
	return n;
}

size_t bank_in_range(const struct bank *b, double lo, double hi, const struct bank_entry **out, size_t max)
{
	bank_ready(b);
	const struct bank_index *ix = index_of(&b->all);
	size_t n = 0;
	if (ix && ix->n_keys == b->all.n) {
		for (size_t i = keys_from(ix, b->all.refs, lo); i < ix->n_keys && key_value(ix, b->all.refs, i) <= hi && n < max;
		     i++)
			out[n++] = bank_entry_made(b, &b->all, ix->keys[i]);
		return n;
	}
	/* no index yet: the same answer from a scan (the first max by value,
	 * then bank order), sorted as the index holds them */
	struct keyed *all = NULL;
	size_t n_all = 0, cap = 0;
	for (size_t i = 0; i < b->all.n; i++) {
		double v = b->all.refs[i].value;
		if (v >= lo && v <= hi) {
			all = xgrow(all, &cap, n_all + 1, sizeof *all);
			all[n_all++] = (struct keyed){v, i};
		}
	}
	if (n_all > 1)
		qsort(all, n_all, sizeof *all, keyed_cmp);
	for (; n < n_all && n < max; n++)
		out[n] = bank_entry_made(b, &b->all, all[n].pos);
	free(all);
	return n;
}

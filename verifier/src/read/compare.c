/* compare.c - see compare.h. */
#include "compare.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "util.h"

void lines_push(struct lines *l, const char *s, size_t len, size_t src_line)
{
	/* every line of every code block and transcript is pushed: xgrow is
	 * called only when the array is full, not once a line */
	if (l->n == l->cap)
		l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = (struct line){s, len, src_line};
}

void lines_split(struct lines *l, const char *text, size_t len, size_t first_src_line)
{
	size_t p = 0, n = first_src_line;
	/* room for lines of about 24 bytes (a code block's) at once, not
	 * regrown from 8 a doubling at a time */
	if (l->cap - l->n < len / 24 + 8)
		l->v = xgrow(l->v, &l->cap, l->n + len / 24 + 8, sizeof *l->v);
	while (p < len) {
		const char *nl = memchr(text + p, '\n', len - p);
		size_t e = nl ? (size_t)(nl - text) : len;
		lines_push(l, text + p, e - p, n++);
		p = e + 1;
	}
}

void lines_free(struct lines *l)
{
	free(l->v);
	memset(l, 0, sizeof *l);
}

static bool blank(const struct line *x)
{
	return x->len == 0;
}

static size_t leading_ws(const struct line *x)
{
	size_t i = 0;
	/* code is indented in spaces: eight of them at a time, then the rest
	 * (the lines of every code block and snippet pass here) */
	static const char spaces[8] = "        ";
	while (x->len - i >= 8 && memcmp(x->s + i, spaces, 8) == 0)
		i += 8;
	while (i < x->len && (x->s[i] == ' ' || x->s[i] == '\t'))
		i++;
	return i;
}

void lines_normalise(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct line *x = &l->v[i];
		while (x->len && (x->s[x->len - 1] == ' ' || x->s[x->len - 1] == '\t' || x->s[x->len - 1] == '\r'))
			x->len--;
	}
	if (l->n == 0)
		return;
	size_t first = 0, last = l->n;
	while (first < last && blank(&l->v[first]))
		first++;
	while (last > first && blank(&l->v[last - 1]))
		last--;
	memmove(l->v, l->v + first, (last - first) * sizeof *l->v);
	l->n = last - first;

	/* The common indentation is a common prefix of whitespace characters:
	 * a tab and spaces never cancel out. */
	const struct line *ref = NULL;
	size_t common = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct line *x = &l->v[i];
		if (blank(x))
			continue;
		size_t w = leading_ws(x);
		if (!ref) {
			ref = x;
			common = w;
			continue;
		}
		size_t k = 0;
		while (k < common && k < w && x->s[k] == ref->s[k])
			k++;
		common = k;
	}
	for (size_t i = 0; i < l->n; i++)
		if (!blank(&l->v[i])) {
			l->v[i].s += common;
			l->v[i].len -= common;
		}
}

static bool line_eq(const struct line *a, const struct line *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

bool lines_equal(const struct lines *a, const struct lines *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!line_eq(&a->v[i], &b->v[i]))
			return false;
	return true;
}

/* One edit script entry: ' ' both, '-' only in a, '+' only in b. */
struct edit {
	char op;
	size_t ai, bi;
};

/* The exact diff is a longest common subsequence by dynamic programming,
 * a table of (n + 1) x (m + 1) cells: taken whole while the table is at
 * most EDIT_TABLE_MAX cells (a page quotes tens of lines, and update's
 * dry run shows a page of a few hundred).  Past that the work must stay
 * linear in the lines (issue 32: a page of many changed numbers), so the
 * diff is bounded instead: the lines both sides share at their start and
 * end are kept, the lines that occur once on each side anchor the rest in
 * the order both keep (a patience diff), and each stretch between two
 * anchors is diffed exactly when its own table is within EDIT_TABLE_MAX,
 * else line against line.  Still a correct script of a into b, less tidy
 * where the lines changed everywhere. */
#define EDIT_TABLE_MAX 65536

struct script {
	const struct lines *a, *b;
	struct edit *e;
	size_t count;
};

static void emit(struct script *sc, char op, size_t ai, size_t bi)
{
	sc->e[sc->count++] = (struct edit){op, ai, bi};
}

/* The exact script of a[a0, a1) into b[b0, b1) from its table (the cells
 * at most EDIT_TABLE_MAX). */
static void script_table(struct script *sc, size_t a0, size_t a1, size_t b0, size_t b1)
{
	size_t n = a1 - a0, m = b1 - b0;
	/* indexed, never offset: a side without lines has no array (v NULL),
	 * and NULL + 0 is undefined */
#define AV(i) (&sc->a->v[a0 + (i)])
#define BV(j) (&sc->b->v[b0 + (j)])
	unsigned *t = xcalloc((n + 1) * (m + 1), sizeof *t);
#define T(i, j) t[(i) * (m + 1) + (j)]
	for (size_t i = n; i-- > 0;)
		for (size_t j = m; j-- > 0;)
			T(i, j) = line_eq(AV(i), BV(j)) ? T(i + 1, j + 1) + 1
				  : T(i + 1, j) >= T(i, j + 1) ? T(i + 1, j)
							       : T(i, j + 1);
	size_t i = 0, j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && line_eq(AV(i), BV(j))) {
			emit(sc, ' ', a0 + i++, b0 + j++);
		} else if (i < n && (j == m || T(i + 1, j) >= T(i, j + 1))) {
			emit(sc, '-', a0 + i++, b0 + j);
		} else {
			emit(sc, '+', a0 + i, b0 + j++);
		}
	}
#undef T
#undef AV
#undef BV
	free(t);
}

/* a[a0, a1) into b[b0, b1) line against line: an equal pair kept, any
 * other pair one line removed and one added, then the longer side's
 * rest. */
static void script_lockstep(struct script *sc, size_t a0, size_t a1, size_t b0, size_t b1)
{
	size_t i = a0, j = b0;
	for (; i < a1 && j < b1; i++, j++) {
		if (line_eq(&sc->a->v[i], &sc->b->v[j])) {
			emit(sc, ' ', i, j);
		} else {
			emit(sc, '-', i, j);
			emit(sc, '+', i + 1, j);
		}
	}
	for (; i < a1; i++)
		emit(sc, '-', i, j);
	for (; j < b1; j++)
		emit(sc, '+', i, j);
}

static bool table_fits(size_t n, size_t m)
{
	return n + 1 <= EDIT_TABLE_MAX / (m + 1);
}

/* A stretch between anchors: its shared start and end kept, the middle
 * exact when small, else line against line. */
static void script_gap(struct script *sc, size_t a0, size_t a1, size_t b0, size_t b1)
{
	size_t s1 = a1, t1 = b1;
	while (a0 < a1 && b0 < b1 && line_eq(&sc->a->v[a0], &sc->b->v[b0]))
		emit(sc, ' ', a0++, b0++);
	while (a1 > a0 && b1 > b0 && line_eq(&sc->a->v[a1 - 1], &sc->b->v[b1 - 1]))
		a1--, b1--;
	if (table_fits(a1 - a0, b1 - b0))
		script_table(sc, a0, a1, b0, b1);
	else
		script_lockstep(sc, a0, a1, b0, b1);
	while (a1 < s1 && b1 < t1)
		emit(sc, ' ', a1++, b1++);
}

/* The lines of a[a0, a1) and b[b0, b1) that occur exactly once on each
 * side, as pairs (ai, bi) in a's order: the anchors' candidates.  Returns
 * their count; *out is malloc'd. */
static size_t unique_pairs(const struct script *sc, size_t a0, size_t a1, size_t b0, size_t b1, size_t **out)
{
	struct strmap ids = {0};
	size_t n = a1 - a0, k = 0;
	/* per distinct line of a: its count on each side and its place */
	size_t *ca = xcalloc(n + 1, sizeof *ca), *cb = xcalloc(n + 1, sizeof *cb);
	size_t *pa = xmalloc((n + 1) * sizeof *pa), *pb = xmalloc((n + 1) * sizeof *pb), id;
	for (size_t i = a0; i < a1; i++) {
		const struct line *x = &sc->a->v[i];
		if (strmap_add(&ids, x->s, x->len, k, &id))
			id = k++;
		ca[id]++;
		pa[id] = i;
	}
	for (size_t j = b0; j < b1; j++) {
		const struct line *y = &sc->b->v[j];
		if (strmap_get(&ids, y->s, y->len, &id)) {
			cb[id]++;
			pb[id] = j;
		}
	}
	size_t *pairs = xmalloc(2 * (n + 1) * sizeof *pairs), np = 0;
	for (size_t i = a0; i < a1; i++) {
		const struct line *x = &sc->a->v[i];
		if (strmap_get(&ids, x->s, x->len, &id) && ca[id] == 1 && cb[id] == 1) {
			pairs[2 * np] = i;
			pairs[2 * np + 1] = pb[id];
			np++;
		}
	}
	strmap_free(&ids);
	free(ca);
	free(cb);
	free(pa);
	free(pb);
	*out = pairs;
	return np;
}

/* Of the pairs (in a's order), the longest run whose b indices rise too
 * (patience sorting, O(k log k)): written over the front of pairs, its
 * length returned. */
static size_t rising_pairs(size_t *pairs, size_t np)
{
	if (np == 0)
		return 0;
	size_t *tail = xmalloc(np * sizeof *tail), *prev = xmalloc(np * sizeof *prev), len = 0;
	for (size_t k = 0; k < np; k++) {
		size_t lo = 0, hi = len;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (pairs[2 * tail[mid] + 1] < pairs[2 * k + 1])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[k] = lo > 0 ? tail[lo - 1] : SIZE_MAX;
		tail[lo] = k;
		if (lo == len)
			len++;
	}
	size_t *keep = xmalloc(len * 2 * sizeof *keep);
	for (size_t k = tail[len - 1], q = len; q-- > 0; k = prev[k]) {
		keep[2 * q] = pairs[2 * k];
		keep[2 * q + 1] = pairs[2 * k + 1];
	}
	memcpy(pairs, keep, len * 2 * sizeof *keep);
	free(keep);
	free(tail);
	free(prev);
	return len;
}

static void script_anchored(struct script *sc)
{
	size_t n = sc->a->n, m = sc->b->n, *pairs;
	size_t np = unique_pairs(sc, 0, n, 0, m, &pairs);
	np = rising_pairs(pairs, np);
	size_t ai = 0, bi = 0;
	for (size_t k = 0; k < np; k++) {
		script_gap(sc, ai, pairs[2 * k], bi, pairs[2 * k + 1]);
		emit(sc, ' ', pairs[2 * k], pairs[2 * k + 1]);
		ai = pairs[2 * k] + 1;
		bi = pairs[2 * k + 1] + 1;
	}
	script_gap(sc, ai, n, bi, m);
	free(pairs);
}

/* The edit script of a into b (see above); *out is malloc'd. */
static size_t edit_script(const struct lines *a, const struct lines *b, struct edit **out)
{
	struct script sc = {a, b, xmalloc((a->n + b->n + 1) * sizeof *sc.e), 0};
	if (table_fits(a->n, b->n))
		script_table(&sc, 0, a->n, 0, b->n);
	else
		script_anchored(&sc);
	*out = sc.e;
	return sc.count;
}

char *lines_diff(const struct lines *a, const char *a_name, const struct lines *b, const char *b_name)
{
	struct edit *e;
	size_t n = edit_script(a, b, &e);
	struct buf out = {0};
	buf_printf(&out, "--- %s\n+++ %s\n", a_name, b_name);
	const size_t context = 2;
	size_t k = 0;
	while (k < n) {
		while (k < n && e[k].op == ' ')
			k++;
		if (k == n)
			break;
		/* a hunk: from context lines before this change to context lines
		 * after the last change that is within 2*context of the next */
		size_t from = k >= context ? k - context : 0;
		size_t to = k;
		for (size_t q = k; q < n; q++) {
			if (e[q].op != ' ')
				to = q;
			else if (q - to > 2 * context)
				break;
		}
		size_t end = to + context + 1 < n ? to + context + 1 : n;
		size_t a_start = e[from].ai, b_start = e[from].bi, a_len = 0, b_len = 0;
		for (size_t q = from; q < end; q++) {
			a_len += e[q].op != '+';
			b_len += e[q].op != '-';
		}
		/* an empty range is named by the line before it, as diff -u
		 * and patch have it: "-0,0" for a side without lines */
		buf_printf(&out, "@@ -%zu,%zu +%zu,%zu @@\n", a_start + (a_len > 0), a_len, b_start + (b_len > 0), b_len);
		for (size_t q = from; q < end; q++) {
			const struct line *x = e[q].op == '+' ? &b->v[e[q].bi] : &a->v[e[q].ai];
			buf_putc(&out, e[q].op);
			buf_append(&out, x->s, x->len);
			buf_putc(&out, '\n');
		}
		k = end;
	}
	free(e);
	return buf_detach(&out);
}

static bool is_ellipsis(const struct line *x)
{
	size_t a = 0, b = x->len;
	str_trim(x->s, &a, &b);
	return b - a == 3 && memcmp(x->s + a, "...", 3) == 0;
}

/* Two lines alike but for their digits and the width of their blanks: the
 * same row of a table in another run. */
static bool same_shape(const struct line *a, const struct line *b)
{
	size_t i = 0, j = 0;
	for (;;) {
		bool da = i < a->len && a->s[i] >= '0' && a->s[i] <= '9';
		bool db = j < b->len && b->s[j] >= '0' && b->s[j] <= '9';
		bool sa = i < a->len && (a->s[i] == ' ' || a->s[i] == '\t');
		bool sb = j < b->len && (b->s[j] == ' ' || b->s[j] == '\t');
		if ((da && db) || (sa && sb)) {
			while (i < a->len && (da ? (a->s[i] >= '0' && a->s[i] <= '9') || a->s[i] == '.' || a->s[i] == ','
						 : (a->s[i] == ' ' || a->s[i] == '\t')))
				i++;
			while (j < b->len && (db ? (b->s[j] >= '0' && b->s[j] <= '9') || b->s[j] == '.' || b->s[j] == ','
						 : (b->s[j] == ' ' || b->s[j] == '\t')))
				j++;
			continue;
		}
		if (i == a->len || j == b->len)
			return i == a->len && j == b->len;
		if (a->s[i] != b->s[j])
			return false;
		i++;
		j++;
	}
}

/* Compares excerpt lines [from, to) with hay lines starting at at, after
 * removing each side's own common indentation.  Returns a likeness score
 * (two for each equal line, one for each line of the same shape); *all
 * tells whether every line was equal. */
static size_t segment_match(const struct lines *ex, size_t from, size_t to, const struct lines *hay, size_t at,
			    bool *all)
{
	struct lines x = {0}, y = {0};
	for (size_t i = from; i < to; i++) {
		lines_push(&x, ex->v[i].s, ex->v[i].len, ex->v[i].src_line);
		if (at + (i - from) < hay->n) {
			const struct line *h = &hay->v[at + (i - from)];
			lines_push(&y, h->s, h->len, h->src_line);
		}
	}
	size_t want = x.n;
	lines_normalise(&x);
	lines_normalise(&y);
	/* a score: two for an equal line, one for a line of the same shape */
	size_t same = 0;
	for (size_t i = 0; i < x.n && i < y.n; i++)
		same += line_eq(&x.v[i], &y.v[i]) ? 2 : same_shape(&x.v[i], &y.v[i]) ? 1 : 0;
	*all = y.n == want && lines_equal(&x, &y);
	lines_free(&x);
	lines_free(&y);
	return same;
}

/* ---- indexed excerpt search ------------------------------------------
 *
 * Each line gets a key: the id of its core (the text without leading and
 * trailing blanks, ids handed out by a hash map) and how much more or less
 * it is indented than the line before it that is not blank.  Two runs of
 * lines that are equal after each side's own common indentation is removed
 * have equal keys (the first line's indentation aside), so a segment is
 * found with Knuth-Morris-Pratt over the keys: linear in the hay and the
 * segment, however often the segment's first line repeats.  Each key match
 * is confirmed by segment_match (a tab is not spaces).
 */

#define KEY_BLANK SIZE_MAX

struct key {
	size_t core; /* KEY_BLANK for a blank line */
	long step;   /* indentation minus that of the previous non-blank line */
};

struct keyed {
	struct key *k;
	size_t n;
};

/* struct lines_index (compare.h): the hay's keys and the map of core ids */
struct key_ids {
	struct strmap map;
	size_t next;
};

static void line_core(const struct line *x, size_t *a, size_t *b)
{
	*a = 0;
	*b = x->len;
	while (*b && (x->s[*b - 1] == ' ' || x->s[*b - 1] == '\t' || x->s[*b - 1] == '\r'))
		(*b)--;
	while (*a < *b && (x->s[*a] == ' ' || x->s[*a] == '\t'))
		(*a)++;
}

static void make_keys(struct key_ids *ids, const struct lines *l, size_t from, size_t to, struct keyed *out)
{
	out->n = to - from;
	out->k = xmalloc((out->n + 1) * sizeof *out->k);
	long prev = 0;
	for (size_t i = from; i < to; i++) {
		size_t a, b;
		line_core(&l->v[i], &a, &b);
		struct key *k = &out->k[i - from];
		if (a == b) {
			*k = (struct key){KEY_BLANK, 0};
			continue;
		}
		size_t id; /* one probe: the line's id when known, else the next one */
		if (strmap_add(&ids->map, l->v[i].s + a, b - a, ids->next, &id))
			id = ids->next++;
		*k = (struct key){id, (long)a - prev};
		prev = (long)a;
	}
}

/* Pattern position i against key y: the first line's step is free. */
static bool key_eq(const struct key *p, size_t i, const struct key *y)
{
	return p[i].core == y->core && (i == 0 || p[i].core == KEY_BLANK || p[i].step == y->step);
}

static size_t *kmp_table(const struct key *p, size_t m)
{
	size_t *fail = xmalloc((m + 1) * sizeof *fail);
	fail[0] = 0;
	if (m)
		fail[1] = 0;
	size_t q = 0;
	for (size_t i = 1; i < m; i++) {
		while (q && !key_eq(p, q, &p[i]))
			q = fail[q];
		if (key_eq(p, q, &p[i]))
			q++;
		fail[i + 1] = q;
	}
	return fail;
}

/* The earliest start >= from where excerpt lines [sf, st) match hay
 * exactly, by Knuth-Morris-Pratt over the keys, or SIZE_MAX. */
static size_t find_segment_keyed(const struct lines *ex, size_t sf, size_t st, const struct lines *hay,
				 const struct keyed *hk, struct key_ids *ids, size_t from)
{
	size_t m = st - sf;
	struct keyed pk;
	make_keys(ids, ex, sf, st, &pk);
	size_t found = SIZE_MAX;
	/* a segment with blank edges never matches (see segment_match) */
	if (m == 0 || pk.k[0].core == KEY_BLANK || pk.k[m - 1].core == KEY_BLANK) {
		free(pk.k);
		return found;
	}
	size_t *fail = kmp_table(pk.k, m);
	size_t q = 0;
	for (size_t j = from; j < hk->n; j++) {
		while (q && !key_eq(pk.k, q, &hk->k[j]))
			q = fail[q];
		if (key_eq(pk.k, q, &hk->k[j]))
			q++;
		if (q == m) {
			bool all;
			segment_match(ex, sf, st, hay, j + 1 - m, &all);
			if (all) {
				found = j + 1 - m;
				break;
			}
			q = fail[q];
		}
	}
	free(fail);
	free(pk.k);
	return found;
}

/*
 * The same search without keys, for as long as it stays cheap: a start
 * is tried (segment_match) only where the hay line's core is the
 * segment's first line's core, as it is wherever the segment matches
 * (its lines are equal once each side's common indentation is gone, so
 * their cores are), and every start is looked at in order: the first
 * that matches is the one the keyed search finds.  A transcript excerpt
 * usually has one such start, so the hay's keys are never made.  Tries
 * cost the segment's length each; past SCAN_BUDGET lines of them (a hay
 * of many equal lines) it stops, true with *at the start to go on from,
 * and the keyed search takes over: linear either way.  Returns false when
 * it decided: *at is the match or SIZE_MAX.
 */
#define SCAN_BUDGET(hay_n, m) (2 * ((hay_n) + (m)) + 64)

/*
 * The hay's lines by their core (the line without its indentation and
 * trailing blanks), so that the scan below goes straight to the lines
 * whose core is the segment's first: a page of N one-line excerpts of
 * a transcript of N lines read every hay line for each, N x N.  Each
 * core's lines in order, as the scan meets them.  Keys borrow the hay.
 */
struct cores {
	struct strmap map; /* core -> id */
	size_t *start;     /* id's lines: at[start[id] .. start[id + 1]) */
	size_t *at;
};

static struct cores *cores_of(struct lines_index *ix)
{
	if (ix->cores)
		return ix->cores;
	const struct lines *hay = ix->hay;
	struct cores *c = xcalloc(1, sizeof *c);
	size_t *id = xmalloc((hay->n + 1) * sizeof *id), n_ids = 0;
	strmap_reserve(&c->map, hay->n + 1);
	for (size_t h = 0; h < hay->n; h++) {
		size_t a, b;
		line_core(&hay->v[h], &a, &b);
		if (strmap_add(&c->map, hay->v[h].s + a, b - a, n_ids, &id[h]))
			id[h] = n_ids++;
	}
	c->start = xcalloc(n_ids + 2, sizeof *c->start);
	for (size_t h = 0; h < hay->n; h++)
		c->start[id[h] + 2]++;
	for (size_t k = 2; k < n_ids + 2; k++)
		c->start[k] += c->start[k - 1];
	c->at = xmalloc((hay->n + 1) * sizeof *c->at);
	for (size_t h = 0; h < hay->n; h++) /* start[id + 1] is the next free slot of id */
		c->at[c->start[id[h] + 1]++] = h;
	free(id);
	ix->cores = c;
	return c;
}

static void cores_free(struct cores *c)
{
	if (!c)
		return;
	strmap_free(&c->map);
	free(c->start);
	free(c->at);
	free(c);
}

static bool scan_segment(const struct lines *ex, size_t sf, size_t st, struct lines_index *ix, size_t from,
			 size_t *at)
{
	const struct lines *hay = ix->hay;
	size_t m = st - sf, a0, b0, a1, b1;
	*at = SIZE_MAX;
	if (m == 0)
		return false;
	line_core(&ex->v[sf], &a0, &b0);
	line_core(&ex->v[st - 1], &a1, &b1);
	if (a0 == b0 || a1 == b1)
		return false; /* blank edges never match (see segment_match) */
	const char *core = ex->v[sf].s + a0;
	size_t core_len = b0 - a0, spent = 0, id;
	/* the hay lines of this core from `from` on, in order */
	struct cores *c = cores_of(ix);
	if (!strmap_get(&c->map, core, core_len, &id))
		return false;
	size_t lo = c->start[id], hi = c->start[id + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->at[mid] < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k < c->start[id + 1] && c->at[k] + m <= hay->n; k++) {
		size_t h = c->at[k];
		if (spent > SCAN_BUDGET(hay->n, m)) {
			*at = h;
			return true;
		}
		spent += m;
		bool all;
		segment_match(ex, sf, st, hay, h, &all);
		if (all) {
			*at = h;
			return false;
		}
	}
	return false;
}

static void index_keys(struct lines_index *ix);

/* The earliest start >= from where excerpt lines [sf, st) match the
 * indexed hay exactly, or SIZE_MAX. */
static size_t find_segment(const struct lines *ex, size_t sf, size_t st, struct lines_index *ix, size_t from)
{
	size_t at = from;
	if (!ix->keyed && !scan_segment(ex, sf, st, ix, from, &at))
		return at;
	index_keys(ix);
	return find_segment_keyed(ex, sf, st, ix->hay, ix->keys, ix->ids, at);
}

/* Work allowed to the search for the closest run, in line comparisons
 * (the exact search above is linear; this one scores windows). */
#define CLOSEST_BUDGET 4000000

/* The start of the run of hay most like excerpt lines [sf, st) (two for
 * each equal line, one for each of the same shape), the earliest of the
 * best.  Every start is scored while that fits the budget; past it only
 * the starts whose first line is equal or of the same shape, as many as
 * fit. */
static size_t closest_run(const struct lines *ex, size_t sf, size_t st, const struct lines *hay)
{
	size_t m = st - sf, best = 0, at = 0;
	if (m == 0 || hay->n == 0)
		return 0;
	bool every = hay->n <= CLOSEST_BUDGET / m;
	size_t spent = 0;
	const struct line *x0 = &ex->v[sf];
	for (size_t h = 0; h < hay->n && spent <= CLOSEST_BUDGET; h++) {
		if (!every && !line_eq(x0, &hay->v[h]) && !same_shape(x0, &hay->v[h]))
			continue;
		bool all;
		size_t same = segment_match(ex, sf, st, hay, h, &all);
		spent += m;
		if (same > best) {
			best = same;
			at = h;
		}
	}
	return at;
}

/* The segments between "..." lines, placed greedily: each at its earliest
 * exact match after the one before (and at least one omitted line).  If
 * any placement exists the greedy one does, so this is the whole search. */
void lines_index_build(struct lines_index *ix, const struct lines *hay)
{
	ix->hay = hay;
	ix->ids = NULL;
	ix->keys = NULL; /* made by the first search that needs them (index_keys) */
	ix->keyed = false;
	ix->cores = NULL;
}

/* The hay's keys, made once. */
static void index_keys(struct lines_index *ix)
{
	if (ix->keys)
		return;
	const struct lines *hay = ix->hay;
	struct key_ids *ids = xcalloc(1, sizeof *ids);
	struct keyed *hk = xcalloc(1, sizeof *hk);
	strmap_reserve(&ids->map, hay->n); /* an id a hay line at most: never regrown */
	make_keys(ids, hay, 0, hay->n, hk);
	ix->ids = ids;
	ix->keys = hk;
}

void lines_index_free(struct lines_index *ix)
{
	if (ix->keys)
		free(ix->keys->k);
	if (ix->ids)
		strmap_free(&ix->ids->map);
	free(ix->keys);
	free(ix->ids);
	cores_free(ix->cores);
	memset(ix, 0, sizeof *ix);
}

static bool place_segments(const struct lines *excerpt, struct lines_index *ix, const size_t *seg_from,
			   const size_t *seg_to, size_t n_seg, size_t *seg_at, size_t *failed)
{
	size_t next = 0, g = 0;
	for (; g < n_seg; g++) {
		size_t at = find_segment(excerpt, seg_from[g], seg_to[g], ix, next);
		if (at == SIZE_MAX)
			break;
		seg_at[g] = at;
		next = at + (seg_to[g] - seg_from[g]) + 1;
	}
	*failed = g;
	return g == n_seg;
}

/* The segments of an excerpt: [from[i], to[i]) between "..." lines. */
static size_t excerpt_segments(const struct lines *excerpt, size_t **from, size_t **to)
{
	*from = xmalloc((excerpt->n + 1) * sizeof **from);
	*to = xmalloc((excerpt->n + 1) * sizeof **to);
	size_t n_seg = 0, s = 0;
	for (size_t i = 0; i <= excerpt->n; i++) {
		if (i == excerpt->n || is_ellipsis(&excerpt->v[i])) {
			if (i > s) {
				(*from)[n_seg] = s;
				(*to)[n_seg++] = i;
			}
			s = i + 1;
		}
	}
	return n_seg;
}

bool lines_find_excerpt(const struct lines *excerpt, const struct lines *hay, size_t *first, size_t *line_pos)
{
	struct lines_index ix;
	lines_index_build(&ix, hay);
	bool found = lines_find_excerpt_in(excerpt, &ix, first, line_pos);
	lines_index_free(&ix);
	return found;
}

bool lines_find_excerpt_in(const struct lines *excerpt, struct lines_index *ix, size_t *first, size_t *line_pos)
{
	const struct lines *hay = ix->hay;
	size_t *seg_from, *seg_to;
	size_t n_seg = excerpt_segments(excerpt, &seg_from, &seg_to);
	*first = 0;
	size_t *seg_at = xmalloc((n_seg + 1) * sizeof *seg_at);
	size_t failed = 0;
	bool found = n_seg > 0 && place_segments(excerpt, ix, seg_from, seg_to, n_seg, seg_at, &failed);
	if (found) {
		*first = seg_at[0];
		if (line_pos) {
			for (size_t i = 0; i < excerpt->n; i++)
				line_pos[i] = SIZE_MAX;
			for (size_t g = 0; g < n_seg; g++)
				for (size_t i = seg_from[g]; i < seg_to[g]; i++)
					line_pos[i] = seg_at[g] + (i - seg_from[g]);
		}
	} else if (n_seg > 0) {
		*first = closest_run(excerpt, seg_from[0], seg_to[0], hay);
	}
	free(seg_at);
	free(seg_from);
	free(seg_to);
	return found;
}

/* Changes between hay[at, at + len) and excerpt lines [sf, st), both
 * normalised as the comparison does; SIZE_MAX when too large to count. */
static size_t window_edits(const struct lines *ex, size_t sf, size_t st, const struct lines *hay, size_t at,
			   size_t len)
{
	struct lines x = {0}, y = {0};
	for (size_t i = sf; i < st; i++)
		lines_push(&x, ex->v[i].s, ex->v[i].len, ex->v[i].src_line);
	for (size_t i = at; i < at + len && i < hay->n; i++)
		lines_push(&y, hay->v[i].s, hay->v[i].len, hay->v[i].src_line);
	lines_normalise(&x);
	lines_normalise(&y);
	size_t edits = SIZE_MAX;
	if ((x.n + 1) * (y.n + 1) <= 1000000) {
		/* in a run of removed and added lines, a removed line paired
		 * with an added one of the same shape (its digits changed) is
		 * one change; every other line of the run is one more */
		struct edit *e;
		size_t n = edit_script(&y, &x, &e);
		edits = 0;
		for (size_t q = 0; q < n;) {
			size_t r = q;
			while (r < n && e[r].op != ' ')
				r++;
			size_t mi = q, pi = q, changes = 0;
			for (;;) {
				while (mi < r && e[mi].op != '-')
					mi++;
				while (pi < r && e[pi].op != '+')
					pi++;
				if (mi == r || pi == r)
					break;
				changes += same_shape(&y.v[e[mi].ai], &x.v[e[pi].bi]) ? 1 : 2;
				mi++;
				pi++;
			}
			for (; mi < r; mi++)
				changes += e[mi].op == '-';
			for (; pi < r; pi++)
				changes += e[pi].op == '+';
			edits += changes;
			q = r;
			while (q < n && e[q].op == ' ')
				q++;
		}
		free(e);
	}
	lines_free(&x);
	lines_free(&y);
	return edits;
}

void lines_excerpt_miss(const struct lines *excerpt, const struct lines *hay, size_t *from, size_t *to, size_t *near,
			size_t *near_len)
{
	size_t *seg_from, *seg_to;
	size_t n_seg = excerpt_segments(excerpt, &seg_from, &seg_to);
	size_t *seg_at = xmalloc((n_seg + 1) * sizeof *seg_at);
	size_t g = 0;
	*from = 0;
	*to = excerpt->n;
	*near = 0;
	*near_len = excerpt->n;
	if (n_seg > 0) {
		struct lines_index ix;
		lines_index_build(&ix, hay);
		place_segments(excerpt, &ix, seg_from, seg_to, n_seg, seg_at, &g);
		lines_index_free(&ix);
		if (g == n_seg)
			g = n_seg - 1; /* all placed: nothing is missing (not called so) */
		*from = seg_from[g];
		*to = seg_to[g];
		size_t m = *to - *from;
		size_t start = closest_run(excerpt, *from, *to, hay);
		*near = start;
		*near_len = m;
		/* A line missing from the page, or one too many, shifts the
		 * rest: of the windows near the closest run, the one with the
		 * fewest edits makes the diff show only the line that differs. */
		size_t best = window_edits(excerpt, *from, *to, hay, start, m);
		for (size_t d = 0; d <= 4 && best != SIZE_MAX; d++) {
			if (d == 2)
				continue;
			for (size_t dl = 0; dl <= 4; dl++) {
				if (start + d < 2 || m + dl < 2 || m + dl - 2 == 0)
					continue;
				size_t s0 = start + d - 2, len = m + dl - 2;
				if (s0 >= hay->n)
					continue;
				size_t e = window_edits(excerpt, *from, *to, hay, s0, len);
				if (e < best) {
					best = e;
					*near = s0;
					*near_len = len;
				}
			}
		}
		for (size_t dl = 0; dl <= 4 && best != SIZE_MAX; dl++) {
			if (dl == 2 || m + dl < 2 || m + dl - 2 == 0)
				continue;
			size_t e = window_edits(excerpt, *from, *to, hay, start, m + dl - 2);
			if (e < best) {
				best = e;
				*near = start;
				*near_len = m + dl - 2;
			}
		}
		if (*near + *near_len > hay->n)
			*near_len = hay->n > *near ? hay->n - *near : 0;
	}
	free(seg_at);
	free(seg_from);
	free(seg_to);
}

bool lines_first_change(const struct lines *a, const struct lines *b, size_t *ai, size_t *bi)
{
	struct edit *e;
	size_t n = edit_script(a, b, &e);
	bool changed = false;
	*ai = *bi = 0;
	for (size_t q = 0; q < n; q++)
		if (e[q].op != ' ') {
			*ai = e[q].ai;
			*bi = e[q].bi;
			changed = true;
			break;
		}
	free(e);
	return changed;
}

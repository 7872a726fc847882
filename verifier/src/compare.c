/* compare.c - see compare.h. */
#include "compare.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void lines_push(struct lines *l, const char *s, size_t len, size_t src_line)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = (struct line){s, len, src_line};
}

void lines_split(struct lines *l, const char *text, size_t len, size_t first_src_line)
{
	size_t p = 0, n = first_src_line;
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

/* Longest common subsequence by dynamic programming.  Blocks are short
 * (a page quotes tens of lines); past 4,000 x 4,000 cells the diff falls
 * back to "all of a removed, all of b added", still correct, less tidy. */
static size_t edit_script(const struct lines *a, const struct lines *b, struct edit **out)
{
	size_t n = a->n, m = b->n, count = 0;
	struct edit *e = xmalloc((n + m + 1) * sizeof *e);
	if ((n + 1) * (m + 1) > 16000000) {
		for (size_t i = 0; i < n; i++)
			e[count++] = (struct edit){'-', i, 0};
		for (size_t j = 0; j < m; j++)
			e[count++] = (struct edit){'+', 0, j};
		*out = e;
		return count;
	}
	unsigned *t = xcalloc((n + 1) * (m + 1), sizeof *t);
#define T(i, j) t[(i) * (m + 1) + (j)]
	for (size_t i = n; i-- > 0;)
		for (size_t j = m; j-- > 0;)
			T(i, j) = line_eq(&a->v[i], &b->v[j]) ? T(i + 1, j + 1) + 1
				  : T(i + 1, j) >= T(i, j + 1) ? T(i + 1, j)
							       : T(i, j + 1);
	size_t i = 0, j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && line_eq(&a->v[i], &b->v[j])) {
			e[count++] = (struct edit){' ', i++, j++};
		} else if (i < n && (j == m || T(i + 1, j) >= T(i, j + 1))) {
			e[count++] = (struct edit){'-', i++, j};
		} else {
			e[count++] = (struct edit){'+', i, j++};
		}
	}
#undef T
	free(t);
	*out = e;
	return count;
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
		buf_printf(&out, "@@ -%zu,%zu +%zu,%zu @@\n", a_start + 1, a_len, b_start + 1, b_len);
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

static bool find_segments(const struct lines *excerpt, const struct lines *hay, const size_t *seg_from,
			  const size_t *seg_to, size_t n_seg, size_t *first, size_t *seg_at);

bool lines_find_excerpt(const struct lines *excerpt, const struct lines *hay, size_t *first, size_t *line_pos)
{
	/* the segments between "..." lines */
	size_t *seg_from = xmalloc((excerpt->n + 1) * sizeof *seg_from);
	size_t *seg_to = xmalloc((excerpt->n + 1) * sizeof *seg_to);
	size_t n_seg = 0, s = 0;
	for (size_t i = 0; i <= excerpt->n; i++) {
		if (i == excerpt->n || is_ellipsis(&excerpt->v[i])) {
			if (i > s) {
				seg_from[n_seg] = s;
				seg_to[n_seg++] = i;
			}
			s = i + 1;
		}
	}
	*first = 0;
	size_t *seg_at = xmalloc((n_seg + 1) * sizeof *seg_at);
	bool found = n_seg > 0 && find_segments(excerpt, hay, seg_from, seg_to, n_seg, first, seg_at);
	if (found && line_pos) {
		for (size_t i = 0; i < excerpt->n; i++)
			line_pos[i] = SIZE_MAX;
		for (size_t g = 0; g < n_seg; g++)
			for (size_t i = seg_from[g]; i < seg_to[g]; i++)
				line_pos[i] = seg_at[g] + (i - seg_from[g]);
	}
	free(seg_at);
	free(seg_from);
	free(seg_to);
	return found;
}

static bool find_segments(const struct lines *excerpt, const struct lines *hay, const size_t *seg_from,
			  const size_t *seg_to, size_t n_seg, size_t *first, size_t *seg_at)
{
	size_t best_same = 0;
	for (size_t start = 0; start < hay->n; start++) {
		bool all;
		size_t same = segment_match(excerpt, seg_from[0], seg_to[0], hay, start, &all);
		if (same > best_same) {
			best_same = same;
			*first = start;
		}
		if (!all)
			continue;
		/* later segments: the earliest match after at least one omitted line */
		size_t next = start + (seg_to[0] - seg_from[0]) + 1;
		bool ok = true;
		seg_at[0] = start;
		for (size_t g = 1; g < n_seg && ok; g++) {
			ok = false;
			for (size_t at = next; at < hay->n; at++) {
				segment_match(excerpt, seg_from[g], seg_to[g], hay, at, &all);
				if (all) {
					seg_at[g] = at;
					next = at + (seg_to[g] - seg_from[g]) + 1;
					ok = true;
					break;
				}
			}
		}
		if (ok) {
			*first = start;
			return true;
		}
	}
	return false;
}

void lines_excerpt_miss(const struct lines *excerpt, const struct lines *hay, size_t *from, size_t *to, size_t *near)
{
	*from = 0;
	*to = excerpt->n;
	*near = 0;
	size_t next = 0, s = 0;
	for (size_t i = 0; i <= excerpt->n; i++) {
		if (i < excerpt->n && !is_ellipsis(&excerpt->v[i]))
			continue;
		if (i > s) {
			/* segment [s, i): its earliest full match at or after next */
			bool all = false;
			size_t at = next;
			for (; at < hay->n; at++) {
				segment_match(excerpt, s, i, hay, at, &all);
				if (all)
					break;
			}
			if (!all) {
				size_t best = 0;
				for (size_t h = 0; h < hay->n; h++) {
					bool whole;
					size_t same = segment_match(excerpt, s, i, hay, h, &whole);
					if (same > best) {
						best = same;
						*near = h;
					}
				}
				*from = s;
				*to = i;
				return;
			}
			next = at + (i - s) + 1; /* "..." stands for at least one line */
			*from = s;
			*to = i;
			*near = at;
		}
		s = i + 1;
	}
}

/* align.c - see align.h. */
#include "align.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "util.h"

/* Appends text with every run of spaces and tabs made one space: a table
 * pads its columns to the width of their numbers, and a wider number must
 * not change the shape of its row. */
static void append_squeezed(struct buf *b, const char *s, size_t len)
{
	/* room for all of it at once: the squeezed text is never longer */
	b->s = xgrow(b->s, &b->cap, b->len + len + 1, 1);
	for (size_t i = 0; i < len; i++) {
		bool space = s[i] == ' ' || s[i] == '\t';
		if (space && b->len && b->s[b->len - 1] == ' ')
			continue;
		b->s[b->len++] = space ? ' ' : s[i];
	}
	b->s[b->len] = '\0';
}

/* The shape of a line: numbers replaced by '#', keeping a number that
 * opens the line when keep_key, and runs of blanks squeezed. */
static char *shape(const char *s, size_t len, bool keep_key)
{
	struct num_token *t;
	size_t n = numtok_scan(s, len, &t);
	struct buf b = {0};
	buf_putc(&b, '|'); /* so a leading blank run squeezes like any other */
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		bool key = keep_key && i == 0 && str_is_blank(s, t[i].start);
		append_squeezed(&b, s + at, t[i].start - at);
		if (key)
			buf_append(&b, s + t[i].start, t[i].end - t[i].start);
		else
			buf_putc(&b, '#');
		at = t[i].end;
	}
	append_squeezed(&b, s + at, len - at);
	free(t);
	return buf_detach(&b);
}

static char **shapes(const struct evidence *ev, bool keep_key)
{
	char **v = xmalloc((ev->n_stdout + 1) * sizeof *v);
	for (size_t k = 0; k < ev->n_stdout; k++) {
		size_t len;
		const char *s = evidence_stdout(ev, k, &len);
		v[k] = shape(s, len, keep_key);
	}
	return v;
}

static void free_shapes(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void lcs(char **a, size_t n, char **b, size_t m, size_t *map)
{
	/* the common head first, matched as the table's walk below would
	 * match it (it takes equal lines whenever it meets them): two runs of
	 * one program print the same lines for long, and the table is then
	 * only as large as the part after them */
	size_t head = 0;
	while (head < n && head < m && strcmp(a[head], b[head]) == 0) {
		map[head] = head;
		head++;
	}
	a += head, n -= head, b += head, m -= head, map += head;
	/* Transcripts are tens to hundreds of lines; past 4,000 x 4,000 cells
	 * only the equal-shape passes below align them. */
	if ((n + 1) * (m + 1) > 16000000)
		return;
	unsigned *t = xcalloc((n + 1) * (m + 1), sizeof *t);
#define T(i, j) t[(i) * (m + 1) + (j)]
	for (size_t i = n; i-- > 0;)
		for (size_t j = m; j-- > 0;)
			T(i, j) = strcmp(a[i], b[j]) == 0 ? T(i + 1, j + 1) + 1
				  : T(i + 1, j) >= T(i, j + 1) ? T(i + 1, j)
							       : T(i, j + 1);
	for (size_t i = 0, j = 0; i < n && j < m;) {
		if (strcmp(a[i], b[j]) == 0)
			map[i++] = head + j++;
		else if (T(i + 1, j) >= T(i, j + 1))
			i++;
		else
			j++;
	}
#undef T
	free(t);
}

/* Pairs leftover lines whose shapes agree and are unique among leftovers:
 * a shape held by exactly one leftover line on each side pairs the two
 * (pairing one shape's lines changes no other shape's counts, so every
 * shape is judged at once, by a map of the shapes, not line by line). */
static void pair_unique(char **a, size_t n, char **b, size_t m, size_t *map, bool *taken)
{
	struct count {
		size_t in_a, a, in_b, b;
	} *cls = xcalloc(n + 1, sizeof *cls);
	struct strmap shapes_a = {0};
	strmap_reserve(&shapes_a, n + 1);
	size_t n_cls = 0, c;
	for (size_t i = 0; i < n; i++) {
		if (map[i] != SIZE_MAX)
			continue;
		if (strmap_add(&shapes_a, a[i], strlen(a[i]), n_cls, &c))
			c = n_cls++;
		cls[c].in_a++;
		cls[c].a = i;
	}
	for (size_t j = 0; j < m; j++)
		if (!taken[j] && strmap_get(&shapes_a, b[j], strlen(b[j]), &c)) {
			cls[c].in_b++;
			cls[c].b = j;
		}
	for (c = 0; c < n_cls; c++)
		if (cls[c].in_a == 1 && cls[c].in_b == 1) {
			map[cls[c].a] = cls[c].b;
			taken[cls[c].b] = true;
		}
	strmap_free(&shapes_a);
	free(cls);
}

void align_runs(const struct evidence *old, const struct evidence *new_ev, struct alignment *a)
{
	size_t n = old->n_stdout, m = new_ev->n_stdout;
	a->n_old = n;
	a->n_new = m;
	a->old_to_new = xmalloc((n + 1) * sizeof *a->old_to_new);
	for (size_t i = 0; i < n; i++)
		a->old_to_new[i] = SIZE_MAX;
	char **sa = shapes(old, true), **sb = shapes(new_ev, true);
	lcs(sa, n, sb, m, a->old_to_new);
	bool *taken = xcalloc(m + 1, sizeof *taken);
	for (size_t i = 0; i < n; i++)
		if (a->old_to_new[i] != SIZE_MAX)
			taken[a->old_to_new[i]] = true;
	pair_unique(sa, n, sb, m, a->old_to_new, taken);
	free_shapes(sa, n);
	free_shapes(sb, m);
	sa = shapes(old, false);
	sb = shapes(new_ev, false);
	pair_unique(sa, n, sb, m, a->old_to_new, taken);
	free_shapes(sa, n);
	free_shapes(sb, m);
	free(taken);
}

void alignment_free(struct alignment *a)
{
	free(a->old_to_new);
	memset(a, 0, sizeof *a);
}

size_t align_token_index(const struct evidence *ev, size_t k, size_t col0)
{
	size_t len;
	const char *s = evidence_stdout(ev, k, &len);
	struct num_token *t;
	size_t n = numtok_scan(s, len, &t), found = SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		if (t[i].start == col0)
			found = i;
	free(t);
	return found;
}

bool align_number(const struct alignment *a, const struct evidence *old, const struct evidence *new_ev, size_t k,
		  size_t tok, size_t *new_line, struct num_token *new_tok)
{
	if (k >= a->n_old || a->old_to_new[k] == SIZE_MAX)
		return false;
	size_t nk = a->old_to_new[k], la, lb;
	const char *sa = evidence_stdout(old, k, &la);
	const char *sb = evidence_stdout(new_ev, nk, &lb);
	struct num_token *ta, *tb;
	size_t na = numtok_scan(sa, la, &ta), nb = numtok_scan(sb, lb, &tb);
	bool ok = na == nb && tok < nb;
	if (ok) {
		*new_line = nk;
		*new_tok = tb[tok];
	}
	free(ta);
	free(tb);
	return ok;
}

static bool is_rule(const char *s, size_t len)
{
	size_t dashes = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '-')
			dashes++;
		else if (s[i] != ' ' && s[i] != '\t')
			return false;
	}
	return dashes >= 3;
}

void align_header_lines(const struct evidence *ev, size_t *hdr)
{
	size_t rule = SIZE_MAX; /* the last rule among lines 1 .. k-1 */
	for (size_t k = 0; k < ev->n_stdout; k++) {
		hdr[k] = rule == SIZE_MAX ? SIZE_MAX : rule - 1;
		size_t rl;
		const char *rs = evidence_stdout(ev, k, &rl);
		if (k >= 1 && is_rule(rs, rl))
			rule = k;
	}
}

size_t align_header_line(const struct evidence *cev, size_t k)
{
	/* every line's answer found in one pass at the first call and kept
	 * with the evidence: naming the numbers of a table of N rows walked
	 * back to its header for each, N x N (the evidence is logically
	 * const: what it holds does not change, only when it was computed) */
	struct evidence *ev = (struct evidence *)cev;
	if (k < ev->n_stdout) {
		if (!ev->header_lines) {
			ev->header_lines = xmalloc((ev->n_stdout + 1) * sizeof *ev->header_lines);
			align_header_lines(ev, ev->header_lines);
		}
		return ev->header_lines[k];
	}
	for (size_t r = k; r-- > 1;) {
		size_t rl;
		const char *rs = evidence_stdout(ev, r, &rl);
		if (is_rule(rs, rl))
			return r - 1;
	}
	return SIZE_MAX;
}

/* The header word at or after *p in h[0..hl): [*p, *q), one span of
 * align_header_word's walk (*q == *p past the last word). */
static void next_header_word(const char *h, size_t hl, size_t *p, size_t *q)
{
	while (*p < hl && h[*p] == ' ')
		(*p)++;
	*q = *p;
	while (*q < hl && h[*q] != ' ')
		(*q)++;
	/* words of one header cell are one space apart */
	while (*q + 1 < hl && h[*q] == ' ' && h[*q + 1] != ' ')
		for ((*q)++; *q < hl && h[*q] != ' '; (*q)++)
			;
}

bool align_header_word(const struct evidence *ev, size_t header, const struct num_token *tok, const char **word,
		       size_t *len)
{
	if (header == SIZE_MAX)
		return false;
	size_t hl;
	const char *h = evidence_stdout(ev, header, &hl);
	/* the header word whose span overlaps [tok->start, tok->end) */
	for (size_t p = 0, q; p < hl; p = q) {
		next_header_word(h, hl, &p, &q);
		if (q > p && p < tok->end && q > tok->start) {
			*word = h + p;
			*len = q - p;
			return true;
		}
	}
	return false;
}

size_t align_header_words(const struct evidence *ev, size_t header, struct align_word **out)
{
	*out = NULL;
	if (header == SIZE_MAX)
		return 0;
	size_t hl, n = 0, cap = 0;
	const char *h = evidence_stdout(ev, header, &hl);
	for (size_t p = 0, q; p < hl; p = q) {
		next_header_word(h, hl, &p, &q);
		if (q > p) {
			*out = xgrow(*out, &cap, n + 1, sizeof **out);
			(*out)[n++] = (struct align_word){p, q};
		}
	}
	return n;
}

const struct align_word *align_word_over(const struct align_word *words, size_t n, const struct num_token *tok)
{
	/* the words are in line order and apart: the first overlapping one
	 * is align_header_word's */
	for (size_t i = 0; i < n; i++) {
		if (words[i].start >= tok->end)
			return NULL;
		if (words[i].end > tok->start)
			return &words[i];
	}
	return NULL;
}

void align_column_name(const struct evidence *ev, size_t k, const struct num_token *tok, char *col, size_t col_len)
{
	/* the column: the header word over the number, above the nearest rule */
	const char *w;
	size_t wl;
	if (align_header_word(ev, align_header_line(ev, k), tok, &w, &wl))
		snprintf(col, col_len, "%.*s", (int)wl, w);
	else
		col[0] = '\0';
}

void align_place_names(const struct evidence *ev, size_t k, const struct num_token *tok, char *row, size_t row_len,
		       char *col, size_t col_len)
{
	size_t len;
	const char *s = evidence_stdout(ev, k, &len);
	/* the row: the line up to the first number after some label text */
	struct num_token *t;
	size_t n = numtok_scan(s, len, &t);
	size_t end = len;
	for (size_t i = 0; i < n; i++) {
		bool after_label = false;
		for (size_t p = i ? t[i - 1].end : 0; p < t[i].start; p++)
			after_label |= (s[p] | 32) >= 'a' && (s[p] | 32) <= 'z';
		if (after_label) {
			end = t[i].start;
			break;
		}
	}
	free(t);
	size_t a = 0, b = end;
	str_trim(s, &a, &b);
	while (b > a && (s[b - 1] == ',' || s[b - 1] == ':' || s[b - 1] == ' '))
		b--;
	struct buf name = {0};
	append_squeezed(&name, s + a, b - a);
	snprintf(row, row_len, "%s", name.s ? name.s : "");
	buf_free(&name);
	align_column_name(ev, k, tok, col, col_len);
}

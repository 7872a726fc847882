/* review_diff.c - see review_diff.h. */
#include "review_diff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "review_html.h"

/* A continuation byte of UTF-8 takes the mark of the byte before it, so
 * that a mark never cuts a character in two. */
static void whole_chars(const char *s, size_t n, bool *mark)
{
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && ((unsigned char)s[j] & 0xC0) == 0x80)
			j++;
		bool any = false;
		for (size_t k = i; k < j; k++)
			any |= mark[k];
		for (size_t k = i; k < j; k++)
			mark[k] = any;
		i = j;
	}
}

/* The longest common subsequence of a[0..an) and b[0..bn) (both at most
 * REVIEW_DIFF_LCS_MAX): the bytes outside it are marked. */
static void lcs_marks(const char *a, size_t an, const char *b, size_t bn, bool *amark, bool *bmark)
{
	size_t w = bn + 1;
	uint16_t *t = xcalloc((an + 1) * w, sizeof *t);
	for (size_t i = an; i-- > 0;)
		for (size_t j = bn; j-- > 0;)
			t[i * w + j] = a[i] == b[j] ? (uint16_t)(t[(i + 1) * w + j + 1] + 1)
				       : t[(i + 1) * w + j] > t[i * w + j + 1] ? t[(i + 1) * w + j] : t[i * w + j + 1];
	size_t i = 0, j = 0;
	while (i < an && j < bn) {
		if (a[i] == b[j]) {
			amark[i++] = false;
			bmark[j++] = false;
		} else if (t[(i + 1) * w + j] >= t[i * w + j + 1]) {
			amark[i++] = true;
		} else {
			bmark[j++] = true;
		}
	}
	while (i < an)
		amark[i++] = true;
	while (j < bn)
		bmark[j++] = true;
	free(t);
}

/* Pairs of one diagnostic's diff compared by LCS; the pairs after them
 * get the prefix and suffix alone, so that a diff of many changed lines
 * stays linear in its size. */
#define LCS_PAIRS_MAX 64

static void chars_marks(const char *a, size_t an, const char *b, size_t bn, bool *amark, bool *bmark, bool lcs);

void review_diff_chars(const char *a, size_t an, const char *b, size_t bn, bool *amark, bool *bmark)
{
	chars_marks(a, an, b, bn, amark, bmark, true);
}

static void chars_marks(const char *a, size_t an, const char *b, size_t bn, bool *amark, bool *bmark, bool lcs)
{
	size_t pre = 0;
	while (pre < an && pre < bn && a[pre] == b[pre])
		pre++;
	size_t suf = 0;
	while (suf < an - pre && suf < bn - pre && a[an - 1 - suf] == b[bn - 1 - suf])
		suf++;
	memset(amark, 0, an * sizeof *amark);
	memset(bmark, 0, bn * sizeof *bmark);
	size_t am = an - pre - suf, bm = bn - pre - suf;
	if (lcs && am && bm && am <= REVIEW_DIFF_LCS_MAX && bm <= REVIEW_DIFF_LCS_MAX) {
		lcs_marks(a + pre, am, b + pre, bm, amark + pre, bmark + pre);
	} else { /* one side empty, or too long to compare: the middle is the change */
		for (size_t i = pre; i < pre + am; i++)
			amark[i] = true;
		for (size_t j = pre; j < pre + bm; j++)
			bmark[j] = true;
	}
	whole_chars(a, an, amark);
	whole_chars(b, bn, bmark);
}

void review_diff_put_marked(struct buf *out, const char *s, size_t n, const bool *mark, bool ins)
{
	const char *tag = ins ? "ins" : "del";
	size_t i = 0;
	while (i < n) {
		size_t j = i;
		while (j < n && mark[j] == mark[i])
			j++;
		if (mark[i])
			buf_printf(out, "<%s>", tag);
		review_esc(out, s + i, j - i);
		if (mark[i])
			buf_printf(out, "</%s>", tag);
		i = j;
	}
}

/* ---- a diagnostic's body ------------------------------------------------ */

struct bline {
	const char *s;
	size_t n;
};

static size_t split_lines(const char *body, struct bline **out)
{
	struct bline *v = NULL;
	size_t n = 0, cap = 0;
	for (const char *p = body; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		v = xgrow(v, &cap, n + 1, sizeof *v);
		v[n++] = (struct bline){p, len};
		p = nl ? nl + 1 : p + len;
	}
	*out = v;
	return n;
}

/* A diff line as diag indents it: four spaces, then the line. */
static struct bline undent(struct bline l)
{
	if (l.n >= 4 && memcmp(l.s, "    ", 4) == 0)
		return (struct bline){l.s + 4, l.n - 4};
	return l;
}

static bool starts(struct bline l, const char *p)
{
	size_t k = strlen(p);
	return l.n >= k && memcmp(l.s, p, k) == 0;
}

/* One changed pair, its characters compared. */
static void put_pair(struct buf *out, struct bline a, struct bline b, size_t *pairs)
{
	bool *am = xmalloc(a.n + 1), *bm = xmalloc(b.n + 1);
	chars_marks(a.s + 1, a.n - 1, b.s + 1, b.n - 1, am, bm, (*pairs)++ < LCS_PAIRS_MAX);
	buf_puts(out, "<span class=\"dl dl-del\">-");
	review_diff_put_marked(out, a.s + 1, a.n - 1, am, false);
	buf_puts(out, "</span>\n<span class=\"dl dl-add\">+");
	review_diff_put_marked(out, b.s + 1, b.n - 1, bm, true);
	buf_puts(out, "</span>\n");
	free(am);
	free(bm);
}

static void put_whole(struct buf *out, struct bline l, const char *cls)
{
	buf_printf(out, "<span class=\"dl %s\">", cls);
	review_esc(out, l.s, l.n);
	buf_puts(out, "</span>\n");
}

/* The lines of a unified diff v[0..n) (undented). */
static void put_unified(struct buf *out, const struct bline *v, size_t n)
{
	put_whole(out, v[0], "dl-file");
	put_whole(out, v[1], "dl-file");
	size_t i = 2, compared = 0;
	while (i < n) {
		struct bline l = v[i];
		if (l.n && l.s[0] == '-') {
			size_t d0 = i, d1 = i;
			while (d1 < n && v[d1].n && v[d1].s[0] == '-')
				d1++;
			size_t a1 = d1;
			while (a1 < n && v[a1].n && v[a1].s[0] == '+')
				a1++;
			size_t pairs = d1 - d0 < a1 - d1 ? d1 - d0 : a1 - d1;
			for (size_t k = 0; k < pairs; k++)
				put_pair(out, v[d0 + k], v[d1 + k], &compared);
			for (size_t k = d0 + pairs; k < d1; k++)
				put_whole(out, v[k], "dl-del");
			for (size_t k = d1 + pairs; k < a1; k++)
				put_whole(out, v[k], "dl-add");
			i = a1;
			continue;
		}
		put_whole(out, l, l.n && l.s[0] == '+' ? "dl-add" : l.n && l.s[0] == '@' ? "dl-hunk" : "dl-ctx");
		i++;
	}
}

/* "   NN | text": the quoted text, or false. */
static bool quoted(struct bline l, struct bline *text)
{
	size_t i = 0;
	while (i < l.n && l.s[i] == ' ')
		i++;
	size_t d = i;
	while (i < l.n && l.s[i] >= '0' && l.s[i] <= '9')
		i++;
	if (i == d || l.n - i < 2 || memcmp(l.s + i, " |", 2) != 0)
		return false;
	i += 2;
	if (i < l.n && l.s[i] == ' ')
		i++;
	*text = (struct bline){l.s + i, l.n - i};
	return true;
}

bool review_diff_put_body(struct buf *out, const char *body, bool pair_quotes)
{
	struct bline *v;
	size_t n = split_lines(body, &v);
	size_t from = n;
	for (size_t i = 0; i + 1 < n && from == n; i++)
		if (starts(undent(v[i]), "--- ") && starts(undent(v[i + 1]), "+++ "))
			from = i;
	buf_puts(out, "<pre class=\"diagtext\">");
	for (size_t i = 0; i < from; i++) {
		review_esc(out, v[i].s, v[i].n);
		buf_putc(out, '\n');
	}
	bool shown = false;
	if (from < n) {
		for (size_t i = from; i < n; i++)
			v[i] = undent(v[i]);
		buf_puts(out, "</pre><pre class=\"diff\">");
		put_unified(out, v + from, n - from);
		shown = true;
	} else if (pair_quotes) {
		/* the page's quoted line, then the line a note quotes */
		struct bline page = {0}, other = {0}, t;
		bool have_page = false, in_note = false;
		for (size_t i = 0; i < n; i++) {
			if (memmem(v[i].s, v[i].n, ": note: ", 8) && v[i].s[0] != ' ') {
				in_note = true;
				continue;
			}
			if (!quoted(v[i], &t))
				continue;
			if (!have_page && !in_note) {
				page = t;
				have_page = true;
			} else if (have_page && in_note) {
				other = t;
				shown = true;
				break;
			}
		}
		if (shown) {
			buf_puts(out, "</pre><pre class=\"diff\">");
			char *a = xasprintf("-%.*s", (int)other.n, other.s), *b = xasprintf("+%.*s", (int)page.n, page.s);
			size_t compared = 0;
			put_pair(out, (struct bline){a, strlen(a)}, (struct bline){b, strlen(b)}, &compared);
			free(a);
			free(b);
		}
	}
	buf_puts(out, "</pre>");
	free(v);
	return shown;
}

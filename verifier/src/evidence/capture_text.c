/* capture_text.c - see capture_text.h. */
#include "capture_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture_repeats.h"
#include "strmap.h"
#include "util.h"

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

void transcript_from_memory(const char *data, size_t len, struct transcript *t)
{
	memset(t, 0, sizeof *t);
	struct buf b = {0};
	buf_append(&b, "", 0);
	for (size_t i = 0; i < len; i++) {
		char c = data[i];
		if (c == '\0') {
			t->nul_replaced = true;
			buf_append(&b, replacement, 3);
			continue;
		}
		if (c == '\r') {
			t->cr_replaced = true;
			if (i + 1 < len && data[i + 1] == '\n')
				continue; /* CRLF: the LF follows */
			c = '\n';
		}
		if (c == '\n')
			t->n_lines++;
		buf_putc(&b, c);
	}
	if (b.len && b.s[b.len - 1] != '\n') {
		t->newline_added = true;
		t->n_lines++;
		buf_putc(&b, '\n');
	}
	t->len = b.len;
	t->text = buf_detach(&b);
}

int transcript_read(const char *path, size_t max_bytes, struct transcript *t, char **why)
{
	memset(t, 0, sizeof *t);
	FILE *f = fopen(path, "rb");
	if (!f) {
		*why = xasprintf("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	struct buf raw = {0};
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (raw.len + got > max_bytes) {
			fclose(f);
			buf_free(&raw);
			*why = xasprintf("the output is larger than %zu MiB, more than an evidence file may hold",
					 max_bytes / (1024 * 1024));
			return -1;
		}
		buf_append(&raw, chunk, got);
	}
	bool failed = ferror(f);
	int e = errno;
	fclose(f);
	if (failed) {
		buf_free(&raw);
		*why = xasprintf("cannot read %s: %s", path, strerror(e));
		return -1;
	}
	transcript_from_memory(raw.s ? raw.s : "", raw.len, t);
	buf_free(&raw);
	return 0;
}

void transcript_free(struct transcript *t)
{
	free(t->text);
	memset(t, 0, sizeof *t);
}

char *transcript_tail(const struct transcript *t, size_t n)
{
	size_t start = t->len, seen = 0;
	while (start > 0) {
		/* start - 1 is the LF that ends a line; look for the one before */
		size_t p = start - 1;
		while (p > 0 && t->text[p - 1] != '\n')
			p--;
		if (++seen > n)
			break;
		start = p;
	}
	return xstrndup(t->text + start, t->len - start);
}

/* ---- numbers ---- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Where a number starts and ends, by the rule of numtok.h (the verifier's
 * tokenizer, which capture cannot link: it needs PCRE2), so that the
 * volatile: header names the column where the verifier's token starts:
 * a sign counts after the start of the line, whitespace or "(" ("-5" starts
 * at the "-"); digits may be grouped by "," or U+2009 / U+202F in threes;
 * a fraction is "." and digits; an exponent is "e" or "E", a sign and one
 * to three digits (4.2e+09, 9.115e-05ms).  Where numtok reads no number at
 * all (glued to letters) capture may still see one: an extra place in the
 * header names no token and is harmless.
 */
#define THIN_SPACE "\xE2\x80\x89"
#define NARROW_NBSP "\xE2\x80\xAF"
#define MINUS_SIGN "\xE2\x88\x92"

static size_t digits_at(const char *s, size_t j, size_t end)
{
	size_t k = j;
	while (k < end && is_digit(s[k]))
		k++;
	return k - j;
}

/* The separator at s[j] ("," or a 3-byte space), its length, or 0. */
static size_t separator_at(const char *s, size_t j, size_t end)
{
	if (j < end && s[j] == ',')
		return 1;
	if (j + 3 <= end && (memcmp(s + j, THIN_SPACE, 3) == 0 || memcmp(s + j, NARROW_NBSP, 3) == 0))
		return 3;
	return 0;
}

/* One past the number whose first digit is s[i], within [i, end). */
static size_t number_end(const char *s, size_t i, size_t end)
{
	size_t j = i + digits_at(s, i, end);
	size_t sep = separator_at(s, j, end);
	if (j - i <= 3 && sep && digits_at(s, j + sep, end) == 3) {
		/* groups of three, one separator throughout */
		const char *first = s + j;
		while (separator_at(s, j, end) == sep && memcmp(s + j, first, sep) == 0 &&
		       digits_at(s, j + sep, end) == 3)
			j += sep + 3;
	}
	if (j + 1 < end && s[j] == '.' && is_digit(s[j + 1]))
		j += 1 + digits_at(s, j + 1, end);
	if (j < end && (s[j] == 'e' || s[j] == 'E')) {
		size_t k = j + 1;
		if (k < end && (s[k] == '+' || s[k] == '-'))
			k++;
		size_t n = digits_at(s, k, end);
		if (n >= 1 && n <= 3)
			j = k + n;
	}
	return j;
}

/* Where the number whose first digit is s[i] starts: at its sign when the
 * sign stands where numtok reads one (line start, whitespace or "("). */
static size_t number_start(const char *s, size_t line_start, size_t i)
{
	size_t sign = 0;
	if (i > line_start && (s[i - 1] == '-' || s[i - 1] == '+'))
		sign = 1;
	else if (i >= line_start + 3 && memcmp(s + i - 3, MINUS_SIGN, 3) == 0)
		sign = 3;
	if (!sign)
		return i;
	size_t at = i - sign;
	if (at == line_start || s[at - 1] == ' ' || s[at - 1] == '\t' || s[at - 1] == '(')
		return at;
	return i;
}

struct span {
	size_t off, len;
};

/* Collects the numbers of the line [start, end) into *out; returns their count. */
static size_t numbers_of_line(const char *s, size_t start, size_t end, struct span **out, size_t *cap)
{
	size_t n = 0;
	for (size_t i = start; i < end;) {
		if (!is_digit(s[i])) {
			i++;
			continue;
		}
		size_t from = number_start(s, start, i), to = number_end(s, i, end);
		*out = xgrow(*out, cap, n + 1, sizeof **out);
		(*out)[n++] = (struct span){from, to - from};
		i = to;
	}
	return n;
}

/* Two numbers are equal when their values are: "007" == "7", "1.50" == "1.5".
 * A sign, a separator or an exponent makes the text itself the value. */
static void canonical(const char *s, size_t len, size_t *a, size_t *b)
{
	*a = 0;
	*b = len;
	for (size_t i = 0; i < len; i++)
		if (!is_digit(s[i]) && s[i] != '.')
			return;
	while (*a + 1 < len && s[*a] == '0' && s[*a + 1] != '.')
		(*a)++;
	if (memchr(s, '.', len)) {
		while (*b > *a && s[*b - 1] == '0')
			(*b)--;
		if (*b > *a && s[*b - 1] == '.')
			(*b)--;
	}
}

static bool same_value(const char *x, size_t xl, const char *y, size_t yl)
{
	size_t xa, xb, ya, yb;
	canonical(x, xl, &xa, &xb);
	canonical(y, yl, &ya, &yb);
	return xb - xa == yb - ya && memcmp(x + xa, y + ya, xb - xa) == 0;
}

/* The line after the one starting at *pos: returns its end (the LF) and
 * moves *pos past it.  false at the end of the text. */
static bool next_line(const struct transcript *t, size_t *pos, size_t *end)
{
	if (*pos >= t->len)
		return false;
	const char *nl = memchr(t->text + *pos, '\n', t->len - *pos);
	*end = nl ? (size_t)(nl - t->text) : t->len;
	return true;
}

/* The bytes of an entry's "LINE:COL=" and the blank before it: counted
 * with its values, so the budget bounds the header value itself. */
static size_t entry_prefix(const struct number_pos *p)
{
	return (size_t)snprintf(NULL, 0, " %zu:%zu=", p->line, p->col);
}

/* Over the budget: the lists of the last places in stdout order go,
 * each place once in the whole capture, so the work stays linear. */
static void drop_last_values(struct volatility *v)
{
	while (v->values_bytes > VOLATILITY_MAX_VALUES && v->keep_below > 0) {
		struct number_pos *q = &v->nums[--v->keep_below];
		if (q->values) {
			v->values_bytes -= entry_prefix(q) + strlen(q->values);
			free(q->values);
			q->values = NULL;
		}
		v->values_dropped = true;
	}
}

/* Keeps run `run`'s value of number m (NULL: that run printed none there):
 * a number that varies for the first time gets the first value for every
 * run before, the ones it did not differ in. */
static void record_value(struct volatility *v, size_t m, const struct transcript *first, const char *other,
			 size_t other_len)
{
	struct number_pos *p = &v->nums[m];
	if (m >= v->keep_below || (!p->varies && !p->values))
		return;
	struct buf b = {0};
	size_t had = p->values ? strlen(p->values) : 0;
	if (p->values) {
		buf_puts(&b, p->values);
		free(p->values);
	} else {
		for (size_t r = 1; r < v->runs; r++) {
			if (r > 1)
				buf_putc(&b, REPEATS_JOIN);
			buf_append(&b, first->text + p->off, p->len);
		}
	}
	buf_putc(&b, REPEATS_JOIN);
	if (other)
		buf_append(&b, other, other_len);
	else
		buf_putc(&b, '-');
	v->values_bytes += b.len - had + (had ? 0 : entry_prefix(p));
	p->values = buf_detach(&b);
	drop_last_values(v);
}

void volatility_init(struct volatility *v, const struct transcript *first)
{
	memset(v, 0, sizeof *v);
	v->runs = 1;
	struct span *spans = NULL;
	size_t cap = 0, pos = 0, end, line = 0;
	while (next_line(first, &pos, &end)) {
		line++;
		size_t k = numbers_of_line(first->text, pos, end, &spans, &cap);
		for (size_t i = 0; i < k; i++) {
			v->nums = xgrow(v->nums, &v->cap, v->n + 1, sizeof *v->nums);
			v->nums[v->n++] = (struct number_pos){line, spans[i].off - pos + 1, spans[i].off, spans[i].len, false, NULL};
		}
		pos = end + 1;
	}
	free(spans);
	v->keep_below = v->n;
}

/* ---- rows aligned by their label ---- */

static bool is_letter(char c)
{
	return (c | 32) >= 'a' && (c | 32) <= 'z';
}

/* The row label of the line [start, end) whose numbers are sp[0..k): the
 * line up to its first number after a letter, trimmed (as a place's row
 * name is read, place.h): "64  add, racy" of "   64  add, racy  2920
 * 0.412".  A line with no number after a letter is its own label. */
static void row_label(const char *s, size_t start, size_t end, const struct span *sp, size_t k, size_t *a, size_t *b)
{
	size_t stop = end;
	for (size_t i = 0; i < k && stop == end; i++) {
		for (size_t p = i ? sp[i - 1].off + sp[i - 1].len : start; p < sp[i].off; p++)
			if (is_letter(s[p])) {
				stop = sp[i].off;
				break;
			}
	}
	*a = start;
	while (*a < stop && (s[*a] == ' ' || s[*a] == '\t'))
		(*a)++;
	*b = stop;
	while (*b > *a && (s[*b - 1] == ' ' || s[*b - 1] == '\t' || s[*b - 1] == ',' || s[*b - 1] == ':'))
		(*b)--;
}

/* Every line of a transcript with its label, and the labels as a map to
 * the line that holds them (dup: the label stands on more than one line,
 * so it names no row). */
struct row_index {
	struct span *line;   /* each line's bytes, LF excluded */
	struct span *label;  /* each line's label */
	bool *dup;
	size_t n;
	struct strmap map;   /* label -> 0-based line */
};

static void index_rows(const struct transcript *t, struct row_index *x)
{
	memset(x, 0, sizeof *x);
	size_t cap = 0, lcap = 0, dcap = 0, spcap = 0, pos = 0, end;
	struct span *sp = NULL;
	while (next_line(t, &pos, &end)) {
		size_t k = numbers_of_line(t->text, pos, end, &sp, &spcap), a, b;
		row_label(t->text, pos, end, sp, k, &a, &b);
		x->line = xgrow(x->line, &cap, x->n + 1, sizeof *x->line);
		x->label = xgrow(x->label, &lcap, x->n + 1, sizeof *x->label);
		x->dup = xgrow(x->dup, &dcap, x->n + 1, sizeof *x->dup);
		x->line[x->n] = (struct span){pos, end - pos};
		x->label[x->n] = (struct span){a, b - a};
		x->dup[x->n] = false;
		size_t old;
		if (!strmap_add(&x->map, t->text + a, b - a, x->n, &old))
			x->dup[old] = x->dup[x->n] = true;
		x->n++;
		pos = end + 1;
	}
	free(sp);
}

static void free_rows(struct row_index *x)
{
	free(x->line);
	free(x->label);
	free(x->dup);
	strmap_free(&x->map);
}

static bool same_label(const struct transcript *ft, const struct row_index *f, size_t i, const struct transcript *ot,
		       const struct row_index *o, size_t j)
{
	return f->label[i].len == o->label[j].len &&
	       memcmp(ft->text + f->label[i].off, ot->text + o->label[j].off, f->label[i].len) == 0;
}

/* The other run's line for the first run's line i (0-based): the same
 * line when its label is the same; else the one line whose label is the
 * same, when the label names one row in both runs (the rows were printed
 * in another order: reordering is not variation); else the same line
 * (a row that changed is); SIZE_MAX when the other run is shorter. */
static size_t aligned_line(const struct transcript *ft, const struct row_index *f, size_t i, const struct transcript *ot,
			   const struct row_index *o)
{
	if (i < o->n && same_label(ft, f, i, ot, o, i))
		return i;
	size_t j;
	if (!f->dup[i] && strmap_get(&o->map, ft->text + f->label[i].off, f->label[i].len, &j) && !o->dup[j])
		return j;
	return i < o->n ? i : SIZE_MAX;
}

void volatility_compare(struct volatility *v, const struct transcript *first, const struct transcript *other)
{
	v->runs++;
	struct row_index f, o;
	index_rows(first, &f);
	index_rows(other, &o);
	struct span *spans = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < v->n;) {
		size_t j = i;
		while (j < v->n && v->nums[j].line == v->nums[i].line)
			j++;
		size_t ol = v->nums[i].line - 1 < f.n ? aligned_line(first, &f, v->nums[i].line - 1, other, &o) : SIZE_MAX;
		bool have = ol != SIZE_MAX;
		size_t k = have ? numbers_of_line(other->text, o.line[ol].off, o.line[ol].off + o.line[ol].len, &spans, &cap) : 0;
		for (size_t m = i; m < j; m++) {
			const struct number_pos *p = &v->nums[m];
			if (!have || k != j - i || !spans ||
			    !same_value(first->text + p->off, p->len, other->text + spans[m - i].off, spans[m - i].len))
				v->nums[m].varies = true;
			bool present = have && k == j - i && spans;
			record_value(v, m, first, present ? other->text + spans[m - i].off : NULL,
				     present ? spans[m - i].len : 0);
		}
		i = j;
	}
	free(spans);
	free_rows(&f);
	free_rows(&o);
}

char *volatility_describe(const struct volatility *v)
{
	struct buf b = {0};
	for (size_t i = 0; i < v->n; i++)
		if (v->nums[i].varies)
			buf_printf(&b, "%s%zu:%zu", b.len ? " " : "", v->nums[i].line, v->nums[i].col);
	if (!b.len)
		buf_puts(&b, "none");
	return buf_detach(&b);
}

char *volatility_describe_values(const struct volatility *v)
{
	struct buf b = {0};
	for (size_t i = 0; i < v->n; i++)
		if (v->nums[i].varies && v->nums[i].values) {
			buf_printf(&b, "%s%zu:%zu=", b.len ? " " : "", v->nums[i].line, v->nums[i].col);
			repeats_put_list(&b, v->nums[i].values);
		}
	return buf_detach(&b);
}

size_t volatility_dropped(const struct volatility *v, size_t *first_line)
{
	size_t n = 0;
	*first_line = 0;
	for (size_t i = v->keep_below; i < v->n; i++)
		if (v->nums[i].varies) {
			if (!n)
				*first_line = v->nums[i].line;
			n++;
		}
	return n;
}

void volatility_free(struct volatility *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->nums[i].values);
	free(v->nums);
	memset(v, 0, sizeof *v);
}

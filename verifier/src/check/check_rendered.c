/* check_rendered.c - see check_rendered.h. */
#include "check_rendered.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "re.h"
#include "util.h"

/* The invisible characters, as UTF-8, with their names. */
static const struct invisible {
	const char *utf8;
	const char *name;
} invisibles[] = {
	{"\xc2\xad", "U+00AD SOFT HYPHEN"},
	{"\xe2\x80\x8b", "U+200B ZERO WIDTH SPACE"},
	{"\xe2\x80\x8c", "U+200C ZERO WIDTH NON-JOINER"},
	{"\xe2\x80\x8d", "U+200D ZERO WIDTH JOINER"},
	{"\xe2\x81\xa0", "U+2060 WORD JOINER"},
	{"\xe2\x81\xa1", "U+2061 FUNCTION APPLICATION"},
	{"\xe2\x81\xa2", "U+2062 INVISIBLE TIMES"},
	{"\xe2\x81\xa3", "U+2063 INVISIBLE SEPARATOR"},
	{"\xe2\x81\xa4", "U+2064 INVISIBLE PLUS"},
	{"\xef\xbb\xbf", "U+FEFF ZERO WIDTH NO-BREAK SPACE"},
};

static const struct invisible *invisible_at(const char *s, size_t len)
{
	if ((unsigned char)s[0] < 0xc2)
		return NULL;
	for (size_t i = 0; i < ARRAY_LEN(invisibles); i++) {
		size_t k = strlen(invisibles[i].utf8);
		if (k <= len && memcmp(s, invisibles[i].utf8, k) == 0)
			return &invisibles[i];
	}
	return NULL;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

#define SEEN_MAX 64

/* The rendered text read so far: the number-like characters just before
 * (what a reader sees), and the first place since the last visible
 * character that shows nothing (the joiner). */
struct reading {
	struct page_ctx *ctx;
	size_t node_line;
	char seen[SEEN_MAX];
	size_t n_seen;    /* digits, and '.' or ',' after a digit; 0: no number is open */
	bool joiner;      /* something invisible since the last visible character */
	const char *what; /* what it is, for the message */
	size_t at, span;  /* its raw offset (SIZE_MAX: unknown) and length */
	bool reported;    /* this number was reported already */
};

static void close_number(struct reading *r)
{
	r->n_seen = 0;
	r->joiner = false;
	r->reported = false;
}

static void set_joiner(struct reading *r, const char *what, size_t at, size_t span)
{
	if (r->joiner || r->n_seen == 0)
		return; /* only the first, and only inside a number */
	r->joiner = true;
	r->what = what;
	r->at = at;
	r->span = span;
}

static void report_split(struct reading *r, const char *rest, size_t rest_len)
{
	struct buf shown = {0};
	buf_append(&shown, r->seen, r->n_seen);
	size_t k = 0;
	while (k < rest_len && k < SEEN_MAX && (is_digit(rest[k]) || ((rest[k] == '.' || rest[k] == ',') &&
								 k + 1 < rest_len && is_digit(rest[k + 1]))))
		k++;
	buf_append(&shown, rest, k);
	struct diag_loc loc = r->at != SIZE_MAX ? textfile_loc(&r->ctx->tf, r->at, r->span ? r->span : 1)
						: textfile_loc_line(&r->ctx->tf, r->node_line, 0, 0);
	struct diag *d = diag_begin_to(r->ctx->to, D_NUMBER_SPLIT, loc,
				    "%s inside a number: a reader sees %s, which is not checked", r->what, shown.s);
	diag_hint(d, "write the number's digits together, with nothing between them");
	diag_end(d);
	buf_free(&shown);
	r->reported = true;
}

/* One visible character c of s[i..len) at raw offset raw (SIZE_MAX:
 * unknown). */
static void visible(struct reading *r, const char *s, size_t i, size_t len)
{
	char c = s[i];
	bool digitish = is_digit(c) || ((c == '.' || c == ',') && i + 1 < len && is_digit(s[i + 1]));
	if (r->joiner && digitish && !r->reported && (is_digit(c) || is_digit(r->seen[r->n_seen - 1])))
		report_split(r, s + i, len - i);
	r->joiner = false;
	if (is_digit(c) || ((c == '.' || c == ',') && r->n_seen && is_digit(r->seen[r->n_seen - 1]))) {
		if (r->n_seen == SEEN_MAX)
			memmove(r->seen, r->seen + 1, --r->n_seen);
		r->seen[r->n_seen++] = c;
	} else {
		close_number(r);
	}
}

static struct re other_digits = RE_INIT("(?:(?=\\p{Nd})[^0-9])+(?:[.,](?:(?=\\p{Nd})[^0-9])+)*", 0);

/* Digits other than 0-9 in s (a segment known to be UTF-8); wide: s
 * holds a byte of 0x80 or more (read_text saw one), without which it
 * holds no such digit. */
static void other_digit_runs(struct reading *r, const struct seg *g, bool wide)
{
	if (!wide || re_utf8_invalid_at(g->s, g->len) != g->len)
		return;
	struct re_match m;
	for (size_t off = 0; off < g->len && re_search_valid(&other_digits, g->s, g->len, off, &m); off = m.end[0]) {
		size_t a = m.start[0], b = m.end[0];
		struct diag_loc loc = g->raw_off != SIZE_MAX && !g->decoded
					      ? textfile_loc(&r->ctx->tf, g->raw_off + a, b - a)
					      : textfile_loc_line(&r->ctx->tf, r->node_line, 0, 0);
		struct diag *d = diag_begin_to(r->ctx->to, D_NUMBER_DIGITS, loc,
					    "'%.*s' is a number in digits other than 0-9: the verifier cannot trace it",
					    (int)(b - a), g->s + a);
		diag_hint(d, "write the number in the digits 0-9");
		diag_end(d);
	}
}

/* Whether c, read with no number open and nothing invisible pending,
 * leaves the reading as it is: plain text, neither digit, separator nor
 * the first byte of an invisible character. */
static bool inert(unsigned char c)
{
	return c < 0x80 && !is_digit((char)c) && c != '.' && c != ',';
}

static void read_text(struct reading *r, const struct seg *g)
{
	bool wide = false; /* a byte of 0x80 or more: never inert, so met below */
	for (size_t i = 0; i < g->len;) {
		if (r->n_seen == 0 && !r->joiner && inert((unsigned char)g->s[i])) {
			/* a run of prose between numbers: what visible() would
			 * make of each byte, once */
			while (i < g->len && inert((unsigned char)g->s[i]))
				i++;
			close_number(r);
			continue;
		}
		wide |= (unsigned char)g->s[i] >= 0x80;
		const struct invisible *inv = invisible_at(g->s + i, g->len - i);
		if (inv) {
			size_t k = strlen(inv->utf8);
			set_joiner(r, inv->name, g->raw_off != SIZE_MAX ? g->raw_off + i : SIZE_MAX, k);
			i += k;
			continue;
		}
		visible(r, g->s, i, g->len);
		i++;
	}
	other_digit_runs(r, g, wide);
}

/* The raw length of the character reference at raw offset at ("&shy;",
 * "&#173;"): to its ';', at most 40 bytes; 1 when none is found. */
static size_t reference_len(const struct textfile *tf, size_t at)
{
	for (size_t k = 1; k < 40 && at + k < tf->len; k++)
		if (tf->data[at + k] == ';')
			return k + 1;
	return 1;
}

/* A character reference's decoded text: what it shows, and what it
 * hides (an invisible character written "&shy;", "&ZeroWidthSpace;",
 * "&#8203;" splits a number as the character itself does), located at
 * the reference. */
static void decoded_text(struct reading *r, const struct seg *g)
{
	for (size_t k = 0; k < g->len;) {
		const struct invisible *inv = invisible_at(g->s + k, g->len - k);
		if (inv) {
			set_joiner(r, inv->name, g->raw_off,
				   g->raw_off != SIZE_MAX ? reference_len(&r->ctx->tf, g->raw_off) : 0);
			k += strlen(inv->utf8);
			continue;
		}
		visible(r, g->s, k, g->len);
		k++;
	}
}

/* Whether an opaque segment is markup (shows nothing) rather than a code
 * span (shows its text). */
static bool is_markup(const struct page_ctx *ctx, const struct seg *g)
{
	if (g->len == 0 || g->s[0] != '<')
		return false;
	return g->raw_off == SIZE_MAX || g->raw_off == 0 || ctx->tf.data[g->raw_off - 1] != '`';
}

/* <sup> and <sub> set their digits apart: an edge of one is no join. */
static bool is_script_markup(const struct seg *g)
{
	static const char *const tags[] = {"<sup", "<sub", "</sup", "</sub", "<SUP", "<SUB", "</SUP", "</SUB"};
	for (size_t i = 0; i < ARRAY_LEN(tags); i++)
		if (str_starts_with(g->s, g->len, tags[i]))
			return true;
	return false;
}

void check_rendered_unit(struct page_ctx *ctx, const struct seg *segs, size_t n_segs, size_t node_line)
{
	struct reading r = {.ctx = ctx, .node_line = node_line};
	size_t prev_end = SIZE_MAX; /* raw end of the last text segment */
	for (size_t i = 0; i < n_segs; i++) {
		const struct seg *g = &segs[i];
		switch (g->kind) {
		case SEG_BREAK:
			close_number(&r);
			prev_end = SIZE_MAX;
			continue;
		case SEG_ANNOT:
			set_joiner(&r, "an HTML comment", g->raw_off, g->len);
			prev_end = SIZE_MAX;
			continue;
		case SEG_OPAQUE:
			if (is_script_markup(g)) {
				close_number(&r); /* 10<sup>9</sup> shows 10 and a raised 9 */
			} else if (is_markup(ctx, g)) {
				set_joiner(&r, "markup that shows nothing", g->raw_off, g->len);
			} else {
				/* a code span: its text shows, but it is code */
				set_joiner(&r, "the edge of a code span", g->raw_off, g->len);
				for (size_t k = 0; k < g->len; k++)
					visible(&r, g->s, k, g->len);
				set_joiner(&r, "the edge of a code span", g->raw_off, g->len);
			}
			prev_end = SIZE_MAX;
			continue;
		case SEG_TEXT:
			break;
		}
		if (g->decoded) {
			bool digit = false;
			for (size_t k = 0; k < g->len; k++)
				digit |= is_digit(g->s[k]);
			if (digit) {
				/* a digit the number tokenizer never sees */
				struct diag_loc loc = g->raw_off != SIZE_MAX ? textfile_loc(&ctx->tf, g->raw_off, 1)
									     : textfile_loc_line(&ctx->tf, node_line, 0, 0);
				struct diag *d = diag_begin_to(ctx->to, D_NUMBER_SPLIT, loc,
							    "a digit written as a character reference shows '%.*s' to a reader: "
							    "the number it is part of is not checked",
							    (int)g->len, g->s);
				diag_hint(d, "write the number's digits as they are, 0-9");
				diag_end(d);
				close_number(&r);
			} else {
				decoded_text(&r, g);
			}
			prev_end = SIZE_MAX;
			continue;
		}
		/* two texts not side by side in the page: emphasis markup between */
		if (prev_end != SIZE_MAX && g->raw_off != SIZE_MAX && g->raw_off > prev_end)
			set_joiner(&r, "markup that shows only as style", prev_end, g->raw_off - prev_end);
		read_text(&r, g);
		prev_end = g->raw_off != SIZE_MAX ? g->raw_off + g->len : SIZE_MAX;
	}
}

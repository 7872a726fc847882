/* marker.c - see marker.h. */
#include "marker.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "re.h"
#include "textfile.h"
#include "util.h"

/* What each keyword takes after it. */
enum arg_rule { ARG_NONE, ARG_OPTIONAL, ARG_REQUIRED };

/* Each word with its length (every comment of a page is looked up here:
 * the length is compared before the bytes, not found by strlen). */
#define KEYWORD(w, kind, rule) {w, sizeof w - 1, kind, rule}

static const struct {
	const char *word;
	size_t len;
	enum marker_kind kind;
	enum arg_rule rule;
} keywords[] = {
	KEYWORD("snippet", MK_SNIPPET, ARG_REQUIRED),   KEYWORD("transcript", MK_TRANSCRIPT, ARG_OPTIONAL),
	KEYWORD("build", MK_BUILD, ARG_NONE),           KEYWORD("quote", MK_QUOTE, ARG_REQUIRED),
	KEYWORD("measured", MK_MEASURED, ARG_OPTIONAL), KEYWORD("table", MK_TABLE, ARG_OPTIONAL),
	KEYWORD("=", MK_DERIVE, ARG_REQUIRED),          KEYWORD("cite", MK_CITE, ARG_REQUIRED),
	/* ext's reason is required too, but a missing one has its own id
	 * (ext-no-reason), raised by the number checks */
	KEYWORD("ext", MK_EXT, ARG_OPTIONAL),
	KEYWORD("at", MK_AT, ARG_REQUIRED),             KEYWORD("range", MK_RANGE, ARG_REQUIRED),
	KEYWORD("min", MK_MIN, ARG_REQUIRED),           KEYWORD("max", MK_MAX, ARG_REQUIRED),
	KEYWORD("one-run", MK_ONE_RUN, ARG_OPTIONAL),   KEYWORD("claim", MK_CLAIM, ARG_REQUIRED),
	KEYWORD("src", MK_SRC, ARG_REQUIRED),
};

const char *marker_kind_name(enum marker_kind kind)
{
	for (size_t i = 0; i < ARRAY_LEN(keywords); i++)
		if (keywords[i].kind == kind)
			return keywords[i].word;
	return "comment";
}

bool marker_is_block(enum marker_kind kind)
{
	return kind >= MK_SNIPPET && kind <= MK_TABLE;
}

bool marker_is_inline(enum marker_kind kind)
{
	return kind >= MK_DERIVE && kind <= MK_CLAIM;
}

/* Optimal string alignment distance (Damerau: a swap costs one), capped:
 * enough to catch "snipet" and "tabel" without flagging an author's
 * "note:" as a misspelt "quote:". */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	if (la > 24 || lb > 24)
		return 99;
	size_t d[25][25];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = (a[i - 1] | 32) == (b[j - 1] | 32) ? 0 : 1;
			size_t best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && (a[i - 1] | 32) == (b[j - 2] | 32) && (a[i - 2] | 32) == (b[j - 1] | 32) &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

static int nearest_keyword(const char *w, size_t n)
{
	size_t allowed = n <= 5 ? 1 : 2;
	int best = -1;
	size_t best_d = allowed + 1;
	for (size_t i = 0; i < ARRAY_LEN(keywords); i++) {
		/* "=" and the short place words ("at", "min", "max") are too
		 * near to every short word of an author's note to suggest */
		if (keywords[i].kind == MK_DERIVE || strlen(keywords[i].word) < 4)
			continue;
		size_t d = edit_distance(w, n, keywords[i].word, strlen(keywords[i].word));
		if (d < best_d) {
			best_d = d;
			best = (int)i;
		}
	}
	return best;
}

static void suggest(struct marker *m, const char *word, bool colon, const char *arg, size_t arg_len)
{
	if (colon || arg_len)
		snprintf(m->suggest, sizeof m->suggest, "<!-- %s: %.*s -->", word, (int)(arg_len > 100 ? 100 : arg_len),
			 arg);
	else
		snprintf(m->suggest, sizeof m->suggest, "<!-- %s -->", word);
}

/* A comment's shape: its keyword, whether a ':' follows it, and its
 * argument (trimmed). */
struct shape {
	size_t word_start, word_end;
	bool colon;
	size_t arg_start, arg_end;
};

/* The shape as the pattern reads it; false when the comment is not
 * word-shaped. */
static bool shape_by_pattern(const char *text, size_t len, struct shape *sh)
{
	/* 1 keyword, 2 colon, 3 argument (lazy, trimmed by the pattern) */
	static struct re shape = RE_INIT("^<!--[ \\t]*(=|[A-Za-z][A-Za-z_-]*)[ \\t]*(:)?[ \\t]*(.*?)[ \\t]*-->$",
					  PCRE2_DOTALL);
	struct re_match g;
	if (!re_search(&shape, text, len, 0, &g))
		return false;
	*sh = (struct shape){g.start[1], g.end[1], re_group_set(&g, 2), g.start[3], g.end[3]};
	return true;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* No byte of text[0..len) past ASCII (nearly every comment): a word at a
 * time, before utf8_first_invalid is asked. */
static bool ascii(const char *text, size_t len)
{
	uint64_t any = 0;
	size_t i = 0;
	for (; len - i >= 8; i += 8) {
		uint64_t w;
		memcpy(&w, text + i, sizeof w);
		any |= w;
	}
	for (; i < len; i++)
		any |= (unsigned char)text[i];
	return (any & UINT64_C(0x8080808080808080)) == 0;
}

/* The first "--" in text[from, to) (the pair wholly inside), or NULL. */
static const char *double_dash(const char *text, size_t from, size_t to)
{
	const char *p = text + from, *end = text + to;
	while (end - p >= 2 && (p = memchr(p, '-', (size_t)(end - p) - 1)) != NULL) {
		if (p[1] == '-')
			return p;
		p += 2; /* p[1] is no dash: no pair starts there either */
	}
	return NULL;
}

/*
 * The same shape read by hand, in one pass: the pattern's lazy argument
 * retries its tail at every byte, some 2,700 instructions a claim.  The
 * pattern is anchored at both ends and its argument takes any byte, so
 * its match is fixed by the ends alone: the keyword is the longest run
 * of [A-Za-z_-] after the blanks (or "=") that stops before the closing
 * "-->" (the greedy run backs off out of it), then blanks, an optional
 * ':', blanks, and the argument up to the closing "-->" less its
 * trailing blanks.  What the hand reading does not cover is left to the
 * pattern: a text ending in a line break (where "$" also matches before
 * it) and one that is not valid UTF-8 (which re_search refuses loudly).
 * test_marker.c compares the two on generated comments.
 */
static bool shape_by_hand(const char *text, size_t len, struct shape *sh)
{
	if (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		return shape_by_pattern(text, len, sh);
	if (len < 7 || memcmp(text, "<!--", 4) != 0 || memcmp(text + len - 3, "-->", 3) != 0)
		return false;
	if (!ascii(text, len) && utf8_first_invalid(text, len) < len)
		return shape_by_pattern(text, len, sh);
	size_t body_end = len - 3, p = 4;
	while (p < body_end && blank(text[p]))
		p++;
	if (p >= body_end)
		return false;
	size_t q = p + 1;
	if (text[p] != '=') {
		char c = text[p];
		if (!((c | 32) >= 'a' && (c | 32) <= 'z'))
			return false;
		while (q < body_end && (((text[q] | 32) >= 'a' && (text[q] | 32) <= 'z') || text[q] == '_' || text[q] == '-'))
			q++;
	}
	size_t r = q;
	while (r < body_end && blank(text[r]))
		r++;
	bool colon = r < body_end && text[r] == ':';
	if (colon)
		r++;
	while (r < body_end && blank(text[r]))
		r++;
	size_t e = body_end;
	while (e > r && blank(text[e - 1]))
		e--;
	*sh = (struct shape){p, q, colon, r, e};
	return true;
}

static void parse(const char *text, size_t len, struct marker *m, bool by_hand)
{
	/* every field, the texts as "" (not a memset of their 320 bytes) */
	m->kind = MK_PLAIN;
	m->status = MARKER_OK;
	m->arg_start = m->arg_end = 0;
	m->problem[0] = m->suggest[0] = '\0';
	struct shape sh;
	if (!(by_hand ? shape_by_hand(text, len, &sh) : shape_by_pattern(text, len, &sh)))
		return; /* not word-shaped: an ordinary comment */
	const char *word = text + sh.word_start;
	size_t wlen = sh.word_end - sh.word_start;
	bool colon = sh.colon;
	const char *arg = text + sh.arg_start;
	size_t alen = sh.arg_end - sh.arg_start;
	m->arg_start = sh.arg_start;
	m->arg_end = sh.arg_end;

	int k = -1;
	for (size_t i = 0; i < ARRAY_LEN(keywords) && k < 0; i++)
		if (keywords[i].len == wlen && memcmp(keywords[i].word, word, wlen) == 0)
			k = (int)i; /* the words are distinct: the first is the only one */
	if (k < 0) {
		int near = nearest_keyword(word, wlen);
		if (near < 0)
			return; /* an author's note */
		m->kind = keywords[near].kind;
		m->status = MARKER_UNKNOWN;
		snprintf(m->problem, sizeof m->problem, "'%.*s' is not a marker", (int)(wlen > 40 ? 40 : wlen), word);
		suggest(m, keywords[near].word, colon, arg, alen);
		return;
	}
	m->kind = keywords[k].kind;
	bool multi_line = memchr(text, '\n', len) != NULL;
	const char *dashes = double_dash(text, 4, len - 3); /* the closing "-->" aside */
	if (multi_line) {
		/* a marker is one line: one wrapped over two is joined in the
		 * hint; a comment whose first line has no "-->" runs on to the
		 * next one, and what lies between is hidden from the page */
		size_t lines = 0;
		for (size_t i = 0; i < len; i++)
			lines += text[i] == '\n';
		m->status = MARKER_MALFORMED;
		snprintf(m->problem, sizeof m->problem,
			 "this %s marker is not closed on its line: it runs on to the '-->' %zu line%s below (what "
			 "stands between is hidden from the page)",
			 keywords[k].word, lines, lines == 1 ? "" : "s");
		char joined[101];
		size_t n = 0;
		for (size_t i = 0; i < alen && n < sizeof joined - 1; i++) {
			if (arg[i] == '\n') {
				if (lines > 1)
					break; /* the hidden lines are no part of it */
				while (i + 1 < alen && (arg[i + 1] == ' ' || arg[i + 1] == '\t'))
					i++;
				joined[n++] = ' ';
				continue;
			}
			joined[n++] = arg[i];
		}
		while (n && (joined[n - 1] == ' ' || joined[n - 1] == '\t'))
			n--;
		suggest(m, keywords[k].word, colon, joined, n);
	} else if (dashes) {
		m->status = MARKER_MALFORMED;
		snprintf(m->problem, sizeof m->problem, "a marker must not hold '--' before its end");
	} else if (keywords[k].rule == ARG_NONE && (colon || alen)) {
		m->status = MARKER_MALFORMED;
		snprintf(m->problem, sizeof m->problem, "the %s marker takes no argument", keywords[k].word);
		suggest(m, keywords[k].word, false, "", 0);
	} else if (alen && !colon && keywords[k].kind != MK_DERIVE) {
		m->status = MARKER_MALFORMED;
		snprintf(m->problem, sizeof m->problem, "'%s' must be followed by ':' before its argument",
			 keywords[k].word);
		suggest(m, keywords[k].word, true, arg, alen);
	} else if (keywords[k].rule == ARG_REQUIRED && alen == 0) {
		m->status = MARKER_MALFORMED;
		snprintf(m->problem, sizeof m->problem, "the %s marker needs %s", keywords[k].word,
			 m->kind == MK_SNIPPET  ? "a snippet name (snippet: NAME or snippet: PATH#NAME)"
			 : m->kind == MK_QUOTE  ? "the source of the quotation (quote: WHERE IT COMES FROM)"
			 : m->kind == MK_CITE   ? "a lesson id (cite: LESSON)"
			 : m->kind == MK_CLAIM  ? "a claim (claim: [ROW | COLUMN] < [ROW | COLUMN])"
			 : m->kind == MK_DERIVE ? "an expression (= EXPR)"
						: "an evidence place ([ROW | COLUMN] or [KEY])");
	} else if (keywords[k].kind == MK_DERIVE && colon) {
		m->status = MARKER_MALFORMED;
		snprintf(m->problem, sizeof m->problem, "a derivation is written '<!-- = EXPR -->', without ':'");
	}
}

void marker_parse(const char *text, size_t len, struct marker *m)
{
	parse(text, len, m, true);
}

void marker_parse_pattern_only(const char *text, size_t len, struct marker *m)
{
	parse(text, len, m, false);
}

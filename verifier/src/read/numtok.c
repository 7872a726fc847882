/*
 * numtok.c - the number tokenizer described in numtok.h.
 *
 * One PCRE2 pattern holds every rule about where a number starts and ends;
 * the C around it only walks the matches, turns the matched digits into a
 * value and copies the unit.  Values are compared and printed as decimal
 * digit strings (never as doubles within a tolerance), so 1.80 and 1.81
 * stay different and 1.005 rounds the way it was written.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include "numtok.h"
#include "re.h"
#include "textfile.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

/*
 * Compiled with UTF, UCP (so \w and \s know Unicode letters and spaces)
 * and EXTENDED (layout and comments below are ignored).
 *
 * At any position the first branch wins, so things that look numeric but
 * are not numbers (dates, times) are matched first and thrown away whole;
 * the number branch then relies on lookarounds to refuse glued digits.
 * Every quantifier over digits is possessive or atomic so a long run of
 * digits is read once, never backtracked into.
 *
 * Cheap guards go first: a lookahead for the one character a branch
 * needs (a sign, the ":" of a time, the first letter of a unit, the "-"
 * of a hyphen-joined word) before the Unicode lookbehinds and the list
 * of units, so that the common number (digits, a blank, more text) fails
 * them at once.  The guards are zero-width and only repeat what the
 * branch after them requires: the matches and every group are the same
 * (checked against the unguarded pattern on millions of random strings
 * of digits, signs, separators, units and letters).
 */
static const char number_pattern_source[] =
	/* ISO date, optionally with a time: none of its parts is a number,
	 * even when letters are glued to it ("v2026-11-30", "2026-11-30T"). */
	"(?= [-+\\x{2212}]?+ [0-9]{4}+ - | [0-9]{1,2}+ : )" /* what a date or a time starts with */
	"(?<skip>"
	"    (?<![0-9.]) [-+\\x{2212}]?"
	"    [0-9]{4}+ - [0-9]{2}+ - [0-9]{2}+"
	"    (?: T [0-9]{2}+ : [0-9]{2}+ (?: : [0-9]{2}+ (?: \\. [0-9]++ )? )?"
	"        (?: Z | [-+] [0-9]{2}+ (?: :? [0-9]{2}+ )? )? )?"
	"    (?![0-9])"
	/* Clock time 10:05, 10:05:12, 10:05:12.5. */
	"  | (?= [0-9]{1,2}+ : ) (?<![\\w.:]) [0-9]{1,2}+ : [0-9]{2}+ (?: : [0-9]{2}+ (?: \\. [0-9]++ )? )? (?![\\w:])"
	")"
	"|"
	/* A sign only where it cannot be a hyphen or a binary minus. */
	"(?<sign> (?=[-+\\x{2212}]) (?<=^|[\\s(]) [-+\\x{2212}] )?"
	/* Not glued to a word, a decimal point or a digit group on the left. */
	"(?<![\\w.]) (?<![0-9][,\\x{2009}\\x{202F}])"
	"(?: (?<=-) (?<=[\\p{L}_]-) (?<hyphen_before>) )?"
	"(?<digits>"
	"    (?> [0-9]{1,3}+ (?<sep>[,\\x{2009}\\x{202F}]) [0-9]{3}+ (?: \\k<sep> [0-9]{3}+ )*+ (?![0-9])"
	"      | [0-9]++ )"
	"    (?: \\. [0-9]++ )?+"
	")"
	/* Exponent notation, as printf's %e and %g write it: 4.2e+09,
	 * 1.5E-3, 9.115e-05ms.  At most three exponent digits; more, and the
	 * letter is glued to the digits and nothing is read. */
	"(?<exponent> [eE] [-+]?+ [0-9]{1,3}+ (?![0-9]) )?+"
	/* A second point or a malformed group means a version or garbage. */
	"(?! [.,\\x{2009}\\x{202F}] [0-9] )"
	"(?(<hyphen_before>)"
	"    (?!\\w)"
	"  | (?: (?<unit_attached> (?=[%\\x{D7}xpnu\\x{B5}\\x{3BC}msKMGTB]) (?: % | \\x{D7} | x (?!\\w) | (?&letter_unit) ) )"
	"      | [\\x{20}\\x{A0}\\x{202F}] (?<unit_spaced> (?=[%pnu\\x{B5}\\x{3BC}msKMGTB]) (?: % | (?&letter_unit) ) )"
	"      | (?!\\w) (?: (?=-[\\p{L}_]) (?<hyphen_after>) )? )"
	")"
	/* A unit ending in a letter ends at a word boundary ("20 second" has
	 * none).  The boundary sits inside the group so a failed long spelling
	 * falls back to a shorter one ("5 MB/sec" is MB) even if the subroutine
	 * call were atomic. */
	"(?(DEFINE) (?<letter_unit>"
	"    (?=[pnu\\x{B5}\\x{3BC}msKMGTB])"
	"    (?: percent | ns | us | \\x{B5}s | \\x{3BC}s | ms | s"
	"      | KiB | KB | MiB | MB/s | MB | GiB/s | GiB | GB/s | GB | TB/s | B ) (?!\\w) ) )";

/* Group numbers of the named groups, looked up once with the compile. */
struct pattern_groups {
	int skip, sign, digits, exponent, unit_attached, unit_spaced, hyphen_before, hyphen_after;
};

struct number_pattern {
	pcre2_code *code;
	bool jit; /* compiled to machine code: pcre2_jit_match runs it */
	struct pattern_groups groups;
};

/* The compiled pattern and its group numbers, made by the first scan and
 * kept until numtok_release_patterns (the program has one thread). */
static struct number_pattern *number_pattern_cache;

static struct pattern_groups find_groups(const pcre2_code *code);

/* The match block, made on first use and kept: every line of every file
 * is scanned, and a block a call cost a malloc and a free. */
static pcre2_match_data *scan_md;

static pcre2_code *compile_number_pattern(bool *jit)
{
	int err;
	PCRE2_SIZE err_off;
	uint32_t options = PCRE2_UTF | PCRE2_UCP | PCRE2_EXTENDED;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)number_pattern_source, PCRE2_ZERO_TERMINATED,
					 options, &err, &err_off, NULL);
	if (code == NULL) {
		/* The pattern is a constant, so this is a bug, never bad input. */
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof msg);
		fprintf(stderr, "numtok: pattern does not compile at %zu: %s\n", (size_t)err_off,
			(const char *)msg);
		abort();
	}
	/* JIT is only a speed-up; the interpreter gives the same answers. */
	*jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
	return code;
}

static const struct number_pattern *number_pattern(void)
{
	struct number_pattern *np = number_pattern_cache;
	if (np == NULL) {
		np = number_pattern_cache = xmalloc(sizeof *np);
		np->code = compile_number_pattern(&np->jit);
		np->groups = find_groups(np->code);
	}
	return np;
}

void numtok_release_patterns(void)
{
	pcre2_match_data_free(scan_md);
	scan_md = NULL;
	struct number_pattern *np = number_pattern_cache;
	number_pattern_cache = NULL;
	if (np)
		pcre2_code_free(np->code);
	free(np);
}

static int group_number(const pcre2_code *code, const char *name)
{
	int n = pcre2_substring_number_from_name(code, (PCRE2_SPTR)name);
	if (n < 0)
		abort(); /* a name in this file's pattern is missing: a bug */
	return n;
}

static struct pattern_groups find_groups(const pcre2_code *code)
{
	struct pattern_groups g;
	g.skip = group_number(code, "skip");
	g.sign = group_number(code, "sign");
	g.digits = group_number(code, "digits");
	g.exponent = group_number(code, "exponent");
	g.unit_attached = group_number(code, "unit_attached");
	g.unit_spaced = group_number(code, "unit_spaced");
	g.hyphen_before = group_number(code, "hyphen_before");
	g.hyphen_after = group_number(code, "hyphen_after");
	return g;
}

static bool group_matched(const PCRE2_SIZE *ov, int group)
{
	return ov[2 * group] != PCRE2_UNSET;
}

/* ---- turning matched digits into a token ---- */

/*
 * The digits of a number without separators or point, and where the point
 * was.  The value of up to 15 digits is read from `mantissa`; longer ones
 * are written out as "1810e-3" for strtod, which reads that without
 * consulting the locale's decimal point, so the value is the correctly
 * rounded double whatever setlocale the program made.
 */
struct digit_string {
	uint64_t mantissa; /* the digits as an integer, exact while n_digits <= 15 */
	int n_digits;
	int decimals;
	int sig_digits;
	bool has_separator;
};

/* "eN" after the digits, without printf. */
static void put_exponent(char *at, int e)
{
	char tmp[12];
	size_t n = 0;
	unsigned u = e < 0 ? 0u - (unsigned)e : (unsigned)e;
	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	*at++ = 'e';
	if (e < 0)
		*at++ = '-';
	while (n)
		*at++ = tmp[--n];
	*at = '\0';
}

/* false when the number has too many digits to be read.  Every number of
 * every line passes here, so the digits are counted and summed in one
 * pass, without a copy. */
static bool collect_digits(const char *s, size_t len, struct digit_string *d)
{
	bool after_point = false, seen_nonzero = false;
	d->mantissa = 0;
	d->n_digits = d->decimals = d->sig_digits = 0;
	d->has_separator = false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '.') {
			after_point = true;
		} else if (c >= '0' && c <= '9') {
			if (d->n_digits == NUMTOK_MAX_DIGITS)
				return false;
			if (d->n_digits < 16) /* 16 digits fit in 64 bits; only 15 are used */
				d->mantissa = d->mantissa * 10 + (uint64_t)(c - '0');
			d->n_digits++;
			d->decimals += after_point;
			seen_nonzero = seen_nonzero || c != '0';
			d->sig_digits += seen_nonzero; /* leading zeros are not significant */
		} else {
			d->has_separator = true; /* ',' or a byte of U+2009 / U+202F */
		}
	}
	if (d->sig_digits == 0)
		d->sig_digits = 1; /* "0" and "0.00" still show one digit */
	return true;
}

/* The correctly rounded double of the digits of s[0..len) (mantissa:
 * the first of them as an integer, exact while n_digits <= 15) times
 * 10^e.  Up to 15 digits and a power of ten up to 22 both are exact
 * doubles, so one IEEE multiplication or division rounds correctly
 * (Clinger's fast path), the common case; anything else goes to strtod
 * on "DIGITSeN". */
static double value_of(uint64_t mantissa, int n_digits, const char *s, size_t len, int e)
{
	static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
				       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	if (n_digits <= 15 && e >= -22 && e <= 22) {
		double v = (double)mantissa;
		return e < 0 ? v / pow10[-e] : v * pow10[e];
	}
	char local[NUMTOK_MAX_DIGITS + 16]; /* the digits, then "eN" */
	char *text = (size_t)n_digits <= NUMTOK_MAX_DIGITS ? local : xmalloc((size_t)n_digits + 16);
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] >= '0' && s[i] <= '9')
			text[n++] = s[i];
	put_exponent(text + n, e);
	double v = strtod(text, NULL);
	if (text != local)
		free(text);
	return v;
}

/* The value of the digits s[0..len) that d describes. */
static double digits_value(const char *s, size_t len, const struct digit_string *d, int exponent)
{
	return value_of(d->mantissa, d->n_digits, s, len, exponent - d->decimals);
}

double numtok_digits_value(const char *s, size_t len, int exponent)
{
	uint64_t mantissa = 0;
	int n_digits = 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] >= '0' && s[i] <= '9') {
			if (n_digits < 16) /* as scan_digits: only 15 are used */
				mantissa = mantissa * 10 + (uint64_t)(s[i] - '0');
			if (n_digits < INT_MAX)
				n_digits++;
		}
	return value_of(mantissa, n_digits, s, len, exponent);
}

#define MINUS_SIGN_UTF8 "\xE2\x88\x92" /* U+2212 */

static bool is_negative_sign(const char *s, size_t len)
{
	return (len == 1 && s[0] == '-') || (len == 3 && memcmp(s, MINUS_SIGN_UTF8, 3) == 0);
}

/* Copies the unit, spelling U+03BC mu as U+00B5 micro so "µs" is one unit. */
static void copy_unit(char unit[8], const char *s, size_t len)
{
	if (len >= 2 && memcmp(s, "\xCE\xBC", 2) == 0) {
		memcpy(unit, "\xC2\xB5", 2);
		memcpy(unit + 2, s + 2, len - 2);
	} else {
		memcpy(unit, s, len);
	}
	unit[len] = '\0'; /* every unit in the pattern is at most 7 bytes */
}

/*
 * What make_token reads of one number match: the offsets of the match and
 * of its groups, NO_SPAN for a group that took no part.  Filled from
 * PCRE2's ovector.
 */
#define NO_SPAN SIZE_MAX
struct number_match {
	size_t start, end;                  /* the whole match */
	size_t digits_start, digits_end;    /* (?<digits>) */
	size_t exponent_start, exponent_end; /* (?<exponent>), or NO_SPAN */
	size_t sign_start, sign_end;        /* (?<sign>), or NO_SPAN */
	size_t unit_start, unit_end;        /* (?<unit_attached>) or (?<unit_spaced>), or NO_SPAN */
	bool hyphen_joined;                 /* (?<hyphen_before>) or (?<hyphen_after>) took part */
};

static void span_from(const PCRE2_SIZE *ov, int group, size_t *start, size_t *end)
{
	bool set = group_matched(ov, group);
	*start = set ? ov[2 * group] : NO_SPAN;
	*end = set ? ov[2 * group + 1] : NO_SPAN;
}

/* The match PCRE2 found (the skip branch excluded: the caller drops it). */
static void match_from_ovector(const PCRE2_SIZE *ov, const struct pattern_groups *g, struct number_match *m)
{
	m->start = ov[0];
	m->end = ov[1];
	m->digits_start = ov[2 * g->digits];
	m->digits_end = ov[2 * g->digits + 1];
	span_from(ov, g->exponent, &m->exponent_start, &m->exponent_end);
	span_from(ov, g->sign, &m->sign_start, &m->sign_end);
	span_from(ov, group_matched(ov, g->unit_attached) ? g->unit_attached : g->unit_spaced, &m->unit_start,
		  &m->unit_end);
	m->hyphen_joined = group_matched(ov, g->hyphen_before) || group_matched(ov, g->hyphen_after);
}

/* Builds the token for one number match; false when it cannot be read. */
static bool make_token(const char *text, const struct number_match *m, struct num_token *t)
{
	struct digit_string d;
	size_t dstart = m->digits_start, dend = m->digits_end;
	int exponent = 0;
	bool has_exponent = m->exponent_start != NO_SPAN;
	if (has_exponent) {
		/* "e+09": read within the match only (the text need not end in a
		 * NUL there); at most three digits, so no overflow */
		size_t p = m->exponent_start + 1, end = m->exponent_end;
		bool negative = p < end && text[p] == '-';
		if (p < end && (text[p] == '+' || text[p] == '-'))
			p++;
		for (; p < end && text[p] >= '0' && text[p] <= '9'; p++)
			exponent = exponent * 10 + (text[p] - '0');
		if (negative)
			exponent = -exponent;
	}
	if (!collect_digits(text + dstart, dend - dstart, &d))
		return false;
	/* the place of the last printed digit, as decimals: 4.2e+09 -> -8 */
	int decimals = d.decimals - exponent;
	if (decimals > NUMTOK_MAX_DIGITS || decimals < -NUMTOK_MAX_DIGITS)
		return false;
	double value = digits_value(text + dstart, dend - dstart, &d, exponent);
	if (!isfinite(value))
		return false;
	if (has_exponent)
		dend = m->exponent_end;

	memset(t, 0, sizeof *t);
	t->start = m->start;
	t->end = m->end;
	t->digits_start = dstart;
	t->digits_end = dend;
	bool negative = m->sign_start != NO_SPAN && is_negative_sign(text + m->sign_start, m->sign_end - m->sign_start);
	t->value = negative && value != 0 ? -value : value;
	t->decimals = decimals;
	t->sig_digits = d.sig_digits;
	t->has_exponent = has_exponent;
	t->exponent = exponent;
	t->exponent_start = has_exponent ? m->exponent_start : dend;
	t->has_separator = d.has_separator;
	t->hyphen_joined = m->hyphen_joined;
	if (m->unit_start != NO_SPAN)
		copy_unit(t->unit, text + m->unit_start, m->unit_end - m->unit_start);
	return true;
}

/* ---- UTF-8 ---- */

/*
 * PCRE2 checks a subject's UTF-8 from the start offset to the end on every
 * call, which makes a scan of a long text with many numbers quadratic (its
 * MATCH_INVALID_UTF mode does the same in the interpreter).  So the text
 * is checked once here and matched with PCRE2_NO_UTF_CHECK; a text with
 * invalid sequences is matched as a copy in which each byte of them reads
 * SUBSTITUTE (U+001A): neither a letter, a digit nor a space, so a stray
 * byte ends a number like punctuation, and every offset stays the same.
 */
#define INVALID_UTF8_STANDIN '\x1A'

/* utf8_sequence_length() and utf8_first_invalid() are textfile's: one
 * definition of valid UTF-8 for the whole tool. */
static size_t first_invalid_utf8(const char *text, size_t len)
{
	return utf8_first_invalid(text, len);
}

/* A malloc'd copy of text with every byte of an invalid sequence replaced. */
static char *valid_utf8_copy(const char *text, size_t len, size_t first_bad)
{
	char *copy = xmalloc(len);
	memcpy(copy, text, len);
	for (size_t i = first_bad; i < len;) {
		size_t n = utf8_sequence_length((const unsigned char *)copy + i, len - i);
		if (n == 0) {
			copy[i] = INVALID_UTF8_STANDIN;
			n = 1;
		}
		i += n;
	}
	return copy;
}

/* Where a scan puts its tokens: the caller's buffer first, then (past
 * its room) one growing malloc'd array that holds them all. */
struct token_sink {
	struct num_token *buf; /* the caller's, room for cap_buf */
	size_t cap_buf;
	struct num_token *heap; /* NULL until buf is full */
	size_t n, cap_heap;
};

/* The slot the next token is made in (the scan fills it, then keeps it
 * by counting it: a token is written once, never copied in). */
static struct num_token *next_slot(struct token_sink *k)
{
	if (!k->heap && k->n < k->cap_buf)
		return &k->buf[k->n];
	if (!k->heap || k->n == k->cap_heap) {
		bool first = k->heap == NULL;
		k->cap_heap = first ? 2 * (k->cap_buf + 8) : k->cap_heap * 2;
		k->heap = xrealloc(k->heap, k->cap_heap * sizeof *k->heap);
		if (first)
			memcpy(k->heap, k->buf, k->n * sizeof *k->buf);
	}
	return &k->heap[k->n];
}

/* The first ASCII digit at or after from, or len: every branch of the
 * pattern reads one, so no match starts before it. */
static size_t next_digit(const char *s, size_t from, size_t len)
{
	while (from < len && (unsigned char)(s[from] - '0') > 9)
		from++;
	return from;
}

/* Where a match that reads the digit at `digit` can start, at or after
 * offset: every branch of the pattern starts with an optional sign ("-",
 * "+" or U+2212) and then a digit, so only the sign right before the
 * digit, if any, can start one earlier (a sign that the pattern then
 * refuses leaves the match to start at the digit, as before). */
static size_t sign_before(const char *s, size_t offset, size_t digit)
{
	if (digit == offset)
		return digit;
	unsigned char c = (unsigned char)s[digit - 1];
	if (c == '-' || c == '+')
		return digit - 1;
	if (c == 0x92 && digit >= offset + 3 && memcmp(s + digit - 3, MINUS_SIGN_UTF8, 3) == 0)
		return digit - 3;
	return digit;
}

/* One scan's subject and match state: the text, or its stand-in when it
 * holds invalid UTF-8 (made at the scan's start). */
struct pattern_scan {
	const char *subject; /* the text or its stand-in */
	size_t len;
	char *standin;
	const struct number_pattern *np;
	const PCRE2_SIZE *ov;
};

static void pattern_scan_start(struct pattern_scan *ps, const char *text, size_t len)
{
	*ps = (struct pattern_scan){.subject = text, .len = len};
	size_t first_bad = first_invalid_utf8(text, len);
	if (first_bad < len)
		ps->subject = ps->standin = valid_utf8_copy(text, len, first_bad);
	ps->np = number_pattern();
	if (!scan_md && !(scan_md = pcre2_match_data_create_from_pattern(ps->np->code, NULL)))
		abort(); /* out of memory: callers are promised they never see NULL */
	ps->ov = pcre2_get_ovector_pointer(scan_md);
}

/* What the pattern found from a position. */
enum found {
	FOUND_NUMBER, /* a number: the token is made */
	FOUND_NONE,   /* a date or a time skipped whole, or a match make_token refuses */
	FOUND_END,    /* no match up to the end of the text */
};

/* The pattern's next match from `from`, *offset past it. */
static enum found pattern_next(struct pattern_scan *ps, size_t from, size_t *offset, struct num_token *t)
{
	/* the subject is valid UTF-8 (pattern_scan_start made sure) */
	int rc = re_match_code(ps->np->code, ps->np->jit, ps->subject, ps->len, from, scan_md);
	if (rc == PCRE2_ERROR_NOMATCH)
		return FOUND_END;
	if (rc < 0)
		abort(); /* no input can exhaust this pattern's limits: a bug or no memory */
	*offset = ps->ov[1]; /* every branch consumes at least one digit */
	if (group_matched(ps->ov, ps->np->groups.skip))
		return FOUND_NONE;
	struct number_match m;
	match_from_ovector(ps->ov, &ps->np->groups, &m);
	return make_token(ps->subject, &m, t) ? FOUND_NUMBER : FOUND_NONE;
}

/* numtok_scan into sink; digit is the text's first digit (the callers'
 * own first test: no digit, no number, as in most lines of prose and
 * code). */
static void scan(const char *text, size_t len, size_t digit, struct token_sink *sink)
{
	struct pattern_scan ps;
	pattern_scan_start(&ps, text, len);
	for (size_t offset = 0; offset < len;) {
		/* A match starts at its first digit or at the sign just before
		 * it: the search starts there (the lookbehinds still see what
		 * precedes it), the same leftmost match without trying the
		 * bytes before it, none of which can start one.  A stand-in
		 * has its digits where the text has them. */
		if (offset)
			digit = next_digit(ps.subject, offset, len);
		if (digit == len)
			break;
		struct num_token *t = next_slot(sink);
		enum found got = pattern_next(&ps, sign_before(ps.subject, offset, digit), &offset, t);
		if (got == FOUND_END)
			break;
		if (got == FOUND_NUMBER) {
			offset = t->end;
			sink->n++;
		}
	}
	free(ps.standin);
}

/* The tokens of a finished sink as numtok_scan hands them out. */
static size_t sink_malloced(struct token_sink *k, struct num_token **out)
{
	if (k->n && !k->heap) { /* all of them in the buffer */
		k->heap = xmalloc(k->n * sizeof *k->heap);
		memcpy(k->heap, k->buf, k->n * sizeof *k->buf);
	}
	*out = k->heap;
	return k->n;
}

/* Most lines hold a few numbers: they are gathered on the stack and
 * handed out as one malloc of the exact count (a growing array cost a
 * realloc past the small-size caches). */
#define SCAN_LOCAL 32

size_t numtok_scan(const char *text, size_t len, struct num_token **out)
{
	*out = NULL;
	size_t digit = next_digit(text, 0, len);
	if (digit == len)
		return 0;
	struct num_token local[SCAN_LOCAL];
	struct token_sink k = {local, SCAN_LOCAL, NULL, 0, 0};
	scan(text, len, digit, &k);
	return sink_malloced(&k, out);
}

size_t numtok_scan_into(const char *text, size_t len, struct num_token *buf, size_t cap, struct num_token **out)
{
	*out = buf;
	size_t digit = next_digit(text, 0, len);
	if (digit == len)
		return 0;
	struct token_sink k = {buf, cap, NULL, 0, 0};
	scan(text, len, digit, &k);
	*out = k.heap ? k.heap : buf;
	return k.n;
}

size_t numtok_first_digit(const char *text, size_t len)
{
	return next_digit(text, 0, len);
}

/* ---- decimal rounding and formatting ---- */

/*
 * A value as a decimal string: `digits` are |value| rounded half away from
 * zero and scaled by 10^decimals ("180" for 1.798 at 2 decimals); negative
 * only when that rounded magnitude is not zero, so no "-0.00" appears.
 */
#define DECIMAL_CAP (310 + NUMTOK_MAX_DIGITS + 8)
struct rounded_decimal {
	char digits[DECIMAL_CAP];
	size_t len;
	int decimals;
	bool negative;
};

/*
 * The shortest digit string that reads back as exactly mag (so a value
 * parsed from "1.005" is the decimal 1.005 again, not its binary
 * neighbour); mag = DIGITS * 10^(*exp10).  Returns the number of digits.
 */
static size_t shortest_digits(double mag, char digits[20], int *exp10)
{
	if (mag == 0) {
		digits[0] = '0';
		*exp10 = 0;
		return 1;
	}
	if (mag < 9007199254740992.0 && mag == floor(mag)) {
		/* An integer below 2^53: doubles are spaced at most 1 apart
		 * there, so its shortest digits are its own digits with the
		 * trailing zeros taken into the exponent (what the printf loop
		 * below finds, without it). */
		uint64_t v = (uint64_t)mag;
		int zeros = 0;
		while (v % 10 == 0) {
			v /= 10;
			zeros++;
		}
		char rev[20];
		size_t n = 0;
		while (v) {
			rev[n++] = (char)('0' + v % 10);
			v /= 10;
		}
		for (size_t i = 0; i < n; i++)
			digits[i] = rev[n - 1 - i];
		*exp10 = zeros;
		return n;
	}
	for (int precision = 1;; precision++) {
		char sci[48], back[48];
		snprintf(sci, sizeof sci, "%.*e", precision - 1, mag);
		/* "d.ddde+XX", the point in the locale's spelling: keep digits only. */
		const char *e = strchr(sci, 'e');
		size_t n = 0;
		for (const char *p = sci; p < e; p++)
			if (*p >= '0' && *p <= '9')
				digits[n++] = *p;
		*exp10 = atoi(e + 1) - (int)(n - 1);
		snprintf(back, sizeof back, "%.*se%d", (int)n, digits, *exp10);
		if (strtod(back, NULL) == mag || precision == 17)
			return n; /* 17 significant digits always read back */
	}
}

/* Adds one to the decimal string s[0..*len), growing it by a digit on carry out. */
static void increment_digits(char *s, size_t *len)
{
	for (size_t i = *len; i-- > 0;) {
		if (s[i] != '9') {
			s[i]++;
			return;
		}
		s[i] = '0';
	}
	memmove(s + 1, s, *len);
	s[0] = '1';
	(*len)++;
}

static bool all_zeros(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != '0')
			return false;
	return true;
}

/* value rounded half away from zero at the 10^-decimals place; decimals
 * may be negative (4215000000 at -8 is "42": 42 x 10^8). */
static bool round_decimal(double value, int decimals, struct rounded_decimal *r)
{
	if (!isfinite(value) || decimals < -NUMTOK_MAX_DIGITS || decimals > NUMTOK_MAX_DIGITS)
		return false;
	char digits[20];
	int exp10;
	size_t n = shortest_digits(fabs(value), digits, &exp10);
	long shift = (long)exp10 + decimals; /* power of ten the digits are scaled by */
	r->decimals = decimals;
	if (shift >= 0) {
		memcpy(r->digits, digits, n);
		memset(r->digits + n, '0', (size_t)shift);
		r->len = n + (size_t)shift;
	} else if ((size_t)-shift > n) {
		r->digits[0] = '0'; /* below half a unit of the last place */
		r->len = 1;
	} else {
		size_t keep = n - (size_t)-shift;
		bool round_up = digits[keep] >= '5'; /* the dropped part is at least half */
		if (keep == 0) {
			r->digits[0] = '0';
			keep = 1;
		} else {
			memcpy(r->digits, digits, keep);
		}
		r->len = keep;
		if (round_up)
			increment_digits(r->digits, &r->len);
	}
	r->negative = value < 0 && !all_zeros(r->digits, r->len);
	return true;
}

/* The integer part's length in r->digits; the fraction is the last r->decimals digits. */
static size_t integer_digits(const struct rounded_decimal *r)
{
	return r->len > (size_t)r->decimals ? r->len - (size_t)r->decimals : 0;
}

/* Writes r as plain text ("-0.05"): sign, integer part (leading zeros
 * dropped, at least one digit), point and fraction.  Returns the length. */
static size_t decimal_text(const struct rounded_decimal *r, char *out)
{
	size_t n = 0, int_len = integer_digits(r);
	size_t skip = 0;
	while (skip + 1 < int_len && r->digits[skip] == '0')
		skip++;
	if (r->negative)
		out[n++] = '-';
	if (int_len == 0)
		out[n++] = '0';
	memcpy(out + n, r->digits + skip, int_len - skip);
	n += int_len - skip;
	if (r->decimals > 0) {
		out[n++] = '.';
		for (size_t i = (size_t)r->decimals; i > r->len; i--)
			out[n++] = '0'; /* fraction digits the scaled integer is too short to hold */
		size_t frac = r->len - int_len;
		memcpy(out + n, r->digits + int_len, frac);
		n += frac;
	}
	out[n] = '\0';
	return n;
}

/* true when a rounded to `decimals` and b rounded to `decimals` are the
 * same decimal (the same sign and the same digits, leading zeros aside). */
static bool same_at_decimals(double a, double b, int decimals)
{
	struct rounded_decimal ra, rb;
	if (!round_decimal(a, decimals, &ra) || !round_decimal(b, decimals, &rb))
		return false;
	size_t za = 0, zb = 0;
	while (za + 1 < ra.len && ra.digits[za] == '0')
		za++;
	while (zb + 1 < rb.len && rb.digits[zb] == '0')
		zb++;
	return ra.negative == rb.negative && ra.len - za == rb.len - zb &&
	       memcmp(ra.digits + za, rb.digits + zb, ra.len - za) == 0;
}

bool numtok_traces_to(const struct num_token *page, const struct num_token *bank)
{
	return numtok_traces_to_value(page, bank->value, bank->decimals);
}

bool numtok_traces_to_value(const struct num_token *page, double value, int decimals)
{
	int finest = page->decimals > decimals ? page->decimals : decimals;
	/* Cheap answers before the exact decimal rounding: both roundings
	 * below put the two values within one unit of the page's last place
	 * (finest is at least as fine), so values further apart than that
	 * (with slack for binary error) trace at neither; one double rounds
	 * the same way twice. */
	if (page->decimals >= -NUMTOK_MAX_DIGITS && page->decimals <= NUMTOK_MAX_DIGITS &&
	    finest <= NUMTOK_MAX_DIGITS && isfinite(page->value) && isfinite(value)) {
		if (page->value == value)
			return true;
		double unit = pow(10, -page->decimals);
		double big = fmax(fabs(page->value), fabs(value));
		if (fabs(page->value - value) > 2 * unit + 1e-9 * big)
			return false;
	}
	if (same_at_decimals(page->value, value, finest))
		return true;
	/* The page is exact at its own decimals, so rounding both there is
	 * rounding the bank to the page's precision. */
	return page->decimals < decimals && page->sig_digits >= 2 && same_at_decimals(page->value, value, page->decimals);
}

/* A bounded writer: remembers when something did not fit instead of cutting it. */
struct bounded_out {
	char *buf;
	size_t cap;
	size_t len;
	bool overflow;
};

static void put_bytes(struct bounded_out *o, const char *s, size_t n)
{
	if (o->overflow || n >= o->cap - o->len) { /* keep a byte for the NUL */
		o->overflow = true;
		return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

/* The end of a number printed like like: what followed its digits in
 * orig (a unit, a percent sign), then the NUL.  Returns the length, or 0
 * with an empty buffer when the whole did not fit. */
static size_t put_suffix_end(struct bounded_out *o, const struct num_token *like, const char *orig)
{
	put_bytes(o, orig + like->digits_end, like->end - like->digits_end);
	if (o->overflow) {
		o->buf[0] = '\0';
		return 0;
	}
	o->buf[o->len] = '\0';
	return o->len;
}

/* The sign to print: like's own kind of minus or plus where it fits. */
static const char *sign_like(const struct num_token *like, const char *orig, bool negative)
{
	const char *sign = orig + like->start;
	size_t sign_len = like->digits_start - like->start;
	if (negative)
		return sign_len == 3 && memcmp(sign, MINUS_SIGN_UTF8, 3) == 0 ? MINUS_SIGN_UTF8 : "-";
	return sign_len == 1 && sign[0] == '+' ? "+" : "";
}

/* The bytes like put between digit groups: "," or a 3-byte U+2009 / U+202F. */
static size_t separator_like(const struct num_token *like, const char *orig, const char **sep)
{
	if (!like->has_separator)
		return 0;
	for (size_t i = like->digits_start; i < like->digits_end; i++) {
		unsigned char c = (unsigned char)orig[i];
		if (c == ',' || c >= 0x80) {
			*sep = orig + i;
			return c == ',' ? 1 : 3;
		}
	}
	return 0;
}

/* Writes the integer digits, a separator before every group of three. */
static void put_grouped(struct bounded_out *o, const char *digits, size_t n, const char *sep,
			size_t sep_len)
{
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && sep_len > 0 && (n - i) % 3 == 0)
			put_bytes(o, sep, sep_len);
		put_bytes(o, digits + i, 1);
	}
}

/* The exponent as like wrote it: its letter, a "+" when like had one
 * (a "-" always for a negative one), and at least as many digits. */
static void put_exponent_like(struct bounded_out *o, const struct num_token *like, const char *orig, int exponent)
{
	const char *e = orig + like->exponent_start;
	size_t n = like->digits_end - like->exponent_start;
	bool plus = n > 1 && e[1] == '+';
	size_t width = n - 1 - (n > 1 && (e[1] == '+' || e[1] == '-'));
	char text[16];
	int len = snprintf(text, sizeof text, "%c%s%0*d", e[0], exponent < 0 ? "-" : plus ? "+" : "", (int)width,
			   exponent < 0 ? -exponent : exponent);
	put_bytes(o, text, (size_t)len);
}

/* The mantissa digits of value for like's precision at a chosen exponent:
 * value rounded at 10^(exponent - mantissa decimals).  Picks the exponent
 * that puts one nonzero digit before the point, starting from like's own
 * so that an unchanged magnitude keeps its form. */
static size_t mantissa_int_digits(const struct num_token *like, const char *orig)
{
	size_t n = 0;
	bool lead = true;
	for (size_t i = like->digits_start; i < like->exponent_start && orig[i] != '.'; i++) {
		if (orig[i] < '0' || orig[i] > '9' || (lead && orig[i] == '0'))
			continue;
		lead = false;
		n++;
	}
	return n ? n : 1;
}

static bool exponent_digits(const struct num_token *like, const char *orig, double value, struct rounded_decimal *r,
			    int *exponent)
{
	int mdec = like->decimals + like->exponent; /* the mantissa's own decimals */
	size_t want = mantissa_int_digits(like, orig); /* 1 for 4.2e+09 */
	int ex = like->exponent;
	for (int tries = 0; tries < 700; tries++) {
		if (!round_decimal(value, mdec - ex, r))
			return false;
		size_t z = 0;
		while (z + 1 < r->len && r->digits[z] == '0')
			z++;
		size_t int_len = r->len - z > (size_t)mdec ? r->len - z - (size_t)mdec : 0;
		if (all_zeros(r->digits, r->len) || int_len == want) {
			if (z) { /* keep exactly mdec + want digits */
				memmove(r->digits, r->digits + z, r->len - z);
				r->len -= z;
			}
			*exponent = all_zeros(r->digits, r->len) ? like->exponent : ex;
			return true;
		}
		ex += int_len > want ? 1 : -1; /* 10.0e9 -> 1.00e10; 0.42e9 -> 4.2e8 */
		if (ex > 999 || ex < -999)
			return false;
	}
	return false;
}

/* numtok_format_like for a number written in exponent notation. */
static size_t format_exponent_like(const struct num_token *like, const char *orig_text, double value, char *buf,
				   size_t buflen)
{
	struct rounded_decimal r;
	int exponent;
	if (!exponent_digits(like, orig_text, value, &r, &exponent))
		return 0;
	size_t want = mantissa_int_digits(like, orig_text);
	int mdec = like->decimals + like->exponent;
	struct bounded_out o = {buf, buflen, 0, false};
	const char *sign = sign_like(like, orig_text, r.negative);
	put_bytes(&o, sign, strlen(sign));
	/* r holds want + mdec digits, or the single "0" of a zero value */
	bool zero = all_zeros(r.digits, r.len);
	if (zero)
		put_bytes(&o, "0", 1);
	else
		put_bytes(&o, r.digits, want);
	if (mdec > 0) {
		put_bytes(&o, ".", 1);
		for (int i = 0; i < mdec; i++)
			put_bytes(&o, zero ? "0" : r.digits + want + i, 1);
	}
	put_exponent_like(&o, like, orig_text, exponent);
	return put_suffix_end(&o, like, orig_text);
}

size_t numtok_format_like(const struct num_token *like, const char *orig_text, double value,
			  char *buf, size_t buflen)
{
	if (buflen == 0)
		return 0;
	buf[0] = '\0';
	if (like->has_exponent)
		return format_exponent_like(like, orig_text, value, buf, buflen);
	if (like->decimals < 0)
		return 0;
	struct rounded_decimal r;
	if (!round_decimal(value, like->decimals, &r))
		return 0;
	bool negative = r.negative;
	r.negative = false; /* the sign is printed in like's style below */
	char plain[DECIMAL_CAP + 4];
	size_t plain_len = decimal_text(&r, plain);
	size_t int_len = strcspn(plain, ".");

	const char *sep = NULL;
	size_t sep_len = separator_like(like, orig_text, &sep);
	struct bounded_out o = {buf, buflen, 0, false};
	const char *sign = sign_like(like, orig_text, negative);
	put_bytes(&o, sign, strlen(sign));
	put_grouped(&o, plain, int_len, sep, sep_len);
	put_bytes(&o, plain + int_len, plain_len - int_len);
	return put_suffix_end(&o, like, orig_text);
}

/* capture_repeats.c - see capture_repeats.h. */
#include "capture_repeats.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void repeats_seal(const char *values, const char *stdout_text, size_t stdout_len, char out[SHA256_HEX_LEN + 1])
{
	/* the pieces fed in turn: the stdout lines are not copied after the
	 * values to be hashed (the digest is that of the joined bytes) */
	struct sha256_ctx *c = sha256_begin();
	sha256_update(c, values, strlen(values));
	sha256_update(c, "\n", 1);
	sha256_update(c, stdout_text, stdout_len);
	sha256_end(c, out);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Reads digits at *p into *v; false when there are none or too many. */
static bool read_count(const char **p, size_t *v)
{
	const char *s = *p;
	size_t n = 0, k = 0;
	while (is_digit(*s) && k < 12) {
		n = n * 10 + (size_t)(*s - '0');
		s++;
		k++;
	}
	if (k == 0 || is_digit(*s))
		return false;
	*p = s;
	*v = n;
	return true;
}

/* The entry of spec at *p ("LINE:COL=VALUES", up to the next space, or
 * the end), and *p moved past it; false at the end of spec.  *ok says
 * whether the entry is well formed, and only then is *e filled. */
static bool next_entry(const char **p, struct repeats_entry *e, bool *ok)
{
	if (!*p || !**p)
		return false;
	const char *q = *p;
	*ok = read_count(&q, &e->line) && *q == ':' && (q++, read_count(&q, &e->col)) && *q == '=';
	const char *end = strchr(*p, ' ');
	if (!end)
		end = *p + strlen(*p);
	if (*ok) {
		e->vals = q + 1;
		e->len = (size_t)(end - (q + 1));
	}
	*p = *end ? end + 1 : end;
	return true;
}

bool repeats_lookup(const char *spec, size_t line, size_t col, const char **vals, size_t *len)
{
	struct repeats_entry e;
	bool ok;
	for (const char *p = spec; next_entry(&p, &e, &ok);)
		if (ok && e.line == line && e.col == col) {
			*vals = e.vals;
			*len = e.len;
			return true;
		}
	return false;
}

size_t repeats_entries(const char *spec, struct repeats_entry **out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	struct repeats_entry e;
	bool ok;
	for (const char *p = spec; next_entry(&p, &e, &ok);)
		if (ok) {
			*out = xgrow(*out, &cap, n + 1, sizeof **out);
			(*out)[n++] = e;
		}
	return n;
}

char repeats_separator(const char *vals, size_t len)
{
	return memchr(vals, ';', len) ? ';' : ',';
}

void repeats_put_list(struct buf *b, const char *joined)
{
	bool grouped = strchr(joined, ',') != NULL; /* then the values stay ';' apart */
	for (const char *p = joined; *p; p++)
		buf_putc(b, *p == REPEATS_JOIN && !grouped ? ',' : *p);
}

/* The bytes a number as capture reads it holds (capture_text.c): digits,
 * sign, '.', ',', exponent, and U+2009, U+202F (groups) and U+2212 (minus)
 * as UTF-8. */
static size_t number_byte(const char *s)
{
	if (is_digit(*s) || *s == '-' || *s == '+' || *s == '.' || *s == ',' || *s == 'e' || *s == 'E')
		return 1;
	if (strncmp(s, "\xE2\x80\x89", 3) == 0 || strncmp(s, "\xE2\x80\xAF", 3) == 0 || strncmp(s, "\xE2\x88\x92", 3) == 0)
		return 3;
	return 0;
}

/* One value up to sep: "-" (no number there), or a number's bytes holding
 * a digit.  The seal, not this, is what tells an edited value; this only
 * tells a value from garbage. */
static bool read_value(const char **p, char sep)
{
	const char *s = *p;
	if (s[0] == '-' && (s[1] == sep || s[1] == ' ' || s[1] == '\0')) {
		*p = s + 1;
		return true;
	}
	bool digit = false;
	for (size_t k; *s != sep && (k = number_byte(s)) != 0; s += k)
		digit |= is_digit(*s);
	if (!digit)
		return false;
	*p = s;
	return true;
}

bool repeats_well_formed(const char *spec, size_t *at)
{
	size_t want = 0;
	const char *p = spec;
	while (*p) {
		size_t l, c, n = 0;
		if (!read_count(&p, &l) || *p++ != ':' || !read_count(&p, &c) || *p++ != '=')
			break;
		const char *end = strchr(p, ' ');
		char sep = repeats_separator(p, end ? (size_t)(end - p) : strlen(p));
		do {
			if (!read_value(&p, sep))
				goto bad;
			n++;
		} while (*p == sep && p++);
		if (n < 2 || (want && n != want))
			goto bad;
		want = n;
		if (*p == '\0')
			return true;
		if (*p++ != ' ')
			break;
	}
bad:
	*at = (size_t)(p - spec);
	return false;
}

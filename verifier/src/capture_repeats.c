/* capture_repeats.c - see capture_repeats.h. */
#include "capture_repeats.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void repeats_seal(const char *values, const char *stdout_text, size_t stdout_len, char out[SHA256_HEX_LEN + 1])
{
	struct buf b = {0};
	buf_puts(&b, values);
	buf_putc(&b, '\n');
	buf_append(&b, stdout_text, stdout_len);
	sha256_hex(b.s, b.len, out);
	buf_free(&b);
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

bool repeats_lookup(const char *spec, size_t line, size_t col, const char **vals, size_t *len)
{
	for (const char *p = spec; p && *p;) {
		size_t l, c;
		const char *q = p;
		bool ok = read_count(&q, &l) && *q == ':' && (q++, read_count(&q, &c)) && *q == '=';
		const char *end = strchr(p, ' ');
		if (!end)
			end = p + strlen(p);
		if (ok && l == line && c == col) {
			*vals = q + 1;
			*len = (size_t)(end - (q + 1));
			return true;
		}
		p = *end ? end + 1 : end;
	}
	return false;
}

/* One value: a number as capture reads it (digits, at most one '.' inside)
 * or "-". */
static bool read_value(const char **p)
{
	const char *s = *p;
	if (*s == '-') {
		*p = s + 1;
		return true;
	}
	if (!is_digit(*s))
		return false;
	while (is_digit(*s))
		s++;
	if (*s == '.' && is_digit(s[1]))
		for (s++; is_digit(*s); s++)
			;
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
		do {
			if (!read_value(&p))
				goto bad;
			n++;
		} while (*p == ',' && p++);
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

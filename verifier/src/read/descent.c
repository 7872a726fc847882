/* descent.c - see descent.h. */
#include "descent.h"

#include <stdarg.h>
#include <stdio.h>

bool descent_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool descent_is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
}

char descent_peek(const char *text, size_t len, size_t *pos)
{
	size_t i = *pos;
	while (i < len && descent_is_space(text[i]))
		i++;
	*pos = i;
	return i < len ? text[i] : '\0';
}

void descent_describe(const char *text, size_t len, size_t at, const char *at_end, char *out, size_t outlen)
{
	if (at >= len) {
		snprintf(out, outlen, "%s", at_end);
		return;
	}
	unsigned char c = (unsigned char)text[at];
	if (descent_is_name_char((char)c)) {
		size_t end = at;
		while (end < len && descent_is_name_char(text[end]))
			end++;
		int shown = end - at > 40 ? 40 : (int)(end - at);
		snprintf(out, outlen, "'%.*s%s'", shown, text + at, end - at > 40 ? "..." : "");
	} else if (c >= 0x21 && c < 0x7f) {
		snprintf(out, outlen, "'%c'", c);
	} else {
		snprintf(out, outlen, "byte 0x%02x", c);
	}
}

bool descent_fail(char *err, size_t err_size, size_t *err_offset, size_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, err_size, fmt, ap);
	va_end(ap);
	*err_offset = offset;
	return false;
}

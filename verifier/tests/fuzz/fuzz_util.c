/* fuzz_util.c - see fuzz.h. */
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

int fuzz_report_fd = 2;

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	dprintf(fuzz_report_fd, "\n%s:%d: property failed: %s\n  ", file, line, cond);
	va_list ap;
	va_start(ap, fmt);
	vdprintf(fuzz_report_fd, fmt, ap);
	va_end(ap);
	dprintf(fuzz_report_fd, "\n");
	abort();
}

void fuzz_quiet(void)
{
	static FILE *null;
	if (!null) {
		null = fopen("/dev/null", "w");
		if (!null)
			abort();
	}
	diag_init(null, false);
}

size_t fuzz_split(const uint8_t *data, size_t size, struct fuzz_part *parts, size_t max)
{
	static const char sep[] = "\n@@@@\n";
	const char *s = (const char *)data;
	size_t n = 0, start = 0;
	/* a separator on the very first line counts too */
	if (size >= 5 && memcmp(s, "@@@@\n", 5) == 0 && max > 1) {
		parts[n++] = (struct fuzz_part){s, 0};
		start = 5;
	}
	while (n + 1 < max) {
		const char *hit = size > start ? memmem(s + start, size - start, sep, sizeof sep - 1) : NULL;
		if (!hit)
			break;
		size_t end = (size_t)(hit - s) + 1; /* the part keeps its final LF */
		parts[n++] = (struct fuzz_part){s + start, end - start};
		start = end + 5;
	}
	parts[n++] = (struct fuzz_part){s + start, size - start};
	return n;
}

bool fuzz_is_text(const uint8_t *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		uint8_t c = s[i];
		if (c == 0)
			return false;
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
		if (len == 0 || i + len > n)
			return false;
		/* the second byte's range rules out overlong forms, surrogates
		 * and code points past U+10FFFF */
		uint8_t lo = 0x80, hi = 0xBF, c1 = s[i + 1];
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
		else if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
		if (c1 < lo || c1 > hi)
			return false;
		for (size_t k = 2; k < len; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xBF)
				return false;
		i += len;
	}
	return true;
}

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

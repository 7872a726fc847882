/* util.c - see util.h. */
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t size)
{
	fprintf(stderr, "coursecheck: out of memory (%zu bytes)\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *xgrow(void *array, size_t *cap, size_t need, size_t elem_size)
{
	if (need <= *cap)
		return array;
	size_t n = *cap ? *cap : 8;
	while (n < need)
		n *= 2;
	if (n > (size_t)-1 / elem_size)
		out_of_memory((size_t)-1);
	*cap = n;
	return xrealloc(array, n * elem_size);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	/* most results are short: formatted once into the stack and copied,
	 * instead of once to measure and once more to write */
	char small[256];
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(small, sizeof small, fmt, copy);
	va_end(copy);
	if (n < 0)
		out_of_memory(0);
	char *p = xmalloc((size_t)n + 1);
	if ((size_t)n < sizeof small)
		memcpy(p, small, (size_t)n + 1);
	else
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void buf_append(struct buf *b, const char *s, size_t n)
{
	b->s = xgrow(b->s, &b->cap, b->len + n + 1, 1);
	if (n)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

void buf_putc(struct buf *b, char c)
{
	buf_append(b, &c, 1);
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = xvasprintf(fmt, ap);
	va_end(ap);
	buf_puts(b, p);
	free(p);
}

char *buf_detach(struct buf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void buf_free(struct buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

bool str_starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

void str_trim(const char *s, size_t *start, size_t *end)
{
	while (*start < *end && (s[*start] == ' ' || s[*start] == '\t'))
		(*start)++;
	while (*end > *start && (s[*end - 1] == ' ' || s[*end - 1] == '\t'))
		(*end)--;
}

bool str_is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return false;
	return true;
}

unsigned char str_control_byte(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return *p;
	return 0;
}

char *str_escape_controls(const char *s)
{
	struct buf b = {0};
	buf_puts(&b, "");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\n')
			buf_puts(&b, "\\n");
		else if (*p == '\t')
			buf_puts(&b, "\\t");
		else if (*p == '\\')
			buf_puts(&b, "\\\\");
		else if (*p < 0x20 || *p == 0x7f)
			buf_printf(&b, "\\x%02x", *p);
		else
			buf_putc(&b, (char)*p);
	}
	return buf_detach(&b);
}

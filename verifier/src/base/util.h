/*
 * util.h - allocation that cannot fail, and a growable byte buffer.
 *
 * Allocation failure is fatal inside these wrappers (as in mandoc), so no
 * caller checks for NULL.  Everything returned is owned by the caller and
 * released with free(), except a struct buf, released with buf_free().
 */
#ifndef COURSECHECK_UTIL_H
#define COURSECHECK_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grows *array (of *cap elements of elem_size bytes) so that it holds at
 * least need elements.  Returns the possibly moved array. */
void *xgrow(void *array, size_t *cap, size_t need, size_t elem_size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);
char *xvasprintf(const char *fmt, va_list ap);

/* A growable byte string, always NUL-terminated after the first append. */
struct buf {
	char *s;
	size_t len;
	size_t cap;
};
void buf_append(struct buf *b, const char *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Hands the string to the caller (who frees it); the buffer is left empty. */
char *buf_detach(struct buf *b);
void buf_free(struct buf *b);

/* Small string helpers over explicit lengths (inputs are not NUL-terminated). */
bool str_starts_with(const char *s, size_t len, const char *prefix);
/* Bounds [*start, *end) shrunk past spaces and tabs on both sides. */
void str_trim(const char *s, size_t *start, size_t *end);
bool str_is_blank(const char *s, size_t len);
/* The first control byte of s (below 0x20, or 0x7f), or 0 when it has
 * none: a name that holds one cannot be written on one header line. */
unsigned char str_control_byte(const char *s);
/* s with each control byte written as \n, \t or \xHH (and \ as \\), so
 * that a hostile name prints on one line.  Malloc'd. */
char *str_escape_controls(const char *s);

#endif

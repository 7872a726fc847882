/*
 * descent.h - what the two recursive-descent parsers (expr.c's EXPR,
 * claim.c's CLAIM) share: the character classes of their tokens, the
 * step over white space, and the one way an error is recorded (a
 * one-line message and the byte offset it points at, in the caller's
 * result).  Nothing is allocated; nothing is kept between calls.
 */
#ifndef COURSECHECK_DESCENT_H
#define COURSECHECK_DESCENT_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* ' ', '\t', '\n', '\r', '\f', '\v' (isspace in the C locale). */
bool descent_is_space(char c);
/* ASCII letters, digits and '_': what a function or place name is made of. */
bool descent_is_name_char(char c);
/* Moves *pos past white space in text[0..len); returns the character
 * there, or '\0' at the end (a NUL byte in the text is never a valid
 * token either, so the two need not differ). */
char descent_peek(const char *text, size_t len, size_t *pos);
/* What stands at text[at] for a "found ..." message, into out: a name
 * (cut to 40 bytes and "..."), a printable character, a byte in hex, or
 * at_end past the text. */
void descent_describe(const char *text, size_t len, size_t at, const char *at_end, char *out, size_t outlen);
/* Formats the message into err[0..err_size) (cut to fit, NUL-terminated)
 * and sets *err_offset to offset.  Returns false, for `return fail(...)`. */
bool descent_fail(char *err, size_t err_size, size_t *err_offset, size_t offset, const char *fmt, ...)
	PRINTF_LIKE(5, 6);

#endif

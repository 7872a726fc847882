/*
 * direction.h - when a derived number's stated direction turns false.
 *
 * A sentence that states a direction ("5.53x slower", "4.9 percent
 * faster") is only true while the derived number stays on its side: a
 * ratio (printed with x, or an expression whose last operation is a
 * division and that carries no unit) on its side of 1, any other derived
 * value on its side of 0.  update never rewrites a number across that line
 * (claim-flip), and verify fails at one left across it (claim-false),
 * whatever the page's status.  One rule for both.
 *
 * Reads only: nothing is kept but the compiled pattern (re.h).
 */
#ifndef COURSECHECK_DIRECTION_H
#define COURSECHECK_DIRECTION_H

#include <stdbool.h>
#include <stddef.h>

/* The sentence of text[0..len) around byte off (split at ". " and at a
 * blank line) as [*a, *b), and whether it holds a direction word (slower,
 * faster, fewer, more, less, larger, smaller, wins, loses, beats, higher,
 * lower): *word and *word_len then name it, relative to text. */
bool direction_word(const char *text, size_t len, size_t off, size_t *a, size_t *b, size_t *word, size_t *word_len);

/* Whether was and now lie on two sides of the line the number's direction
 * is stated against (unit: the number's unit, "" for none; expr: its
 * derivation).  *what is "ratio" or "value". */
bool direction_crossed(const char *unit, const char *expr, size_t len, double was, double now, const char **what);

#endif

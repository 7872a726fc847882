/*
 * capture_repeats.h - the value of every volatile number in every repeat,
 * kept in the evidence header by `capture --repeat K`:
 *
 *   repeats: 3
 *   volatile: 28:44 32:43
 *   repeat-values: 28:44=2920,3464,3824 32:43=299266,301113,320204
 *   repeat-values-sha256: <SHA-256, below>
 *
 * Each entry is a stdout place as in volatile: (1-based stdout line, ':',
 * 1-based byte column of the number as capture reads it), '=', and the
 * number as each repeat printed it (sign, digit groups, fraction and
 * exponent included: -26708, 1.708e-05), in run order, ',' between; "-"
 * for a repeat that printed no number there.  Where a value is grouped
 * with ',' itself (1,049,708), the entry's values are ';' apart instead
 * ("3:21=1,049,708;1,049,712"), since ',' could then end a value or a
 * group.  Entries are ' ' apart, in stdout order.  The header is outside body-sha256, so it carries its own seal:
 * repeat-values-sha256 is the SHA-256 of the repeat-values value, one LF,
 * and the stdout lines (each with its LF) exactly as the evidence holds
 * them, which ties the values to this file's stdout.
 *
 * This module links nothing but libc and libcrypto: capture writes with
 * it, the verifier reads with it.
 */
#ifndef COURSECHECK_CAPTURE_REPEATS_H
#define COURSECHECK_CAPTURE_REPEATS_H

#include <stdbool.h>
#include <stddef.h>

#include "sha256.h"

/* The seal of values (the header value) over stdout text (whole LF-ended
 * lines, stdout_len bytes). */
void repeats_seal(const char *values, const char *stdout_text, size_t stdout_len, char out[SHA256_HEX_LEN + 1]);

/* The values of the entry for stdout place line:col (1-based) in the
 * header value spec: true with [*vals, *vals + *len) ("2920,3464,3824"),
 * false when spec has no such entry. */
bool repeats_lookup(const char *spec, size_t line, size_t col, const char **vals, size_t *len);

/* Every entry of spec, in order, as repeats_lookup reads them (so that
 * the first entry of a place found in them is its answer): *out
 * malloc'd, freed by the caller; returns the count. */
struct repeats_entry {
	size_t line, col;
	const char *vals; /* into spec */
	size_t len;
};
size_t repeats_entries(const char *spec, struct repeats_entry **out);

/* Whether spec is well formed (entries "L:C=V,V,..." or "L:C=V;V;..."
 * ' ' apart, every entry with the same count of values, at least two; a
 * value is "-" or a number's characters with a digit among them).  On
 * false, *at is the byte offset of the first fault. */
bool repeats_well_formed(const char *spec, size_t *at);

/* The separator of an entry's values [vals, vals + len) (from
 * repeats_lookup): ';' when the list holds one, else ','. */
char repeats_separator(const char *vals, size_t len);

/* Appends the values list of one place as capture writes it to b (a
 * struct buf of util.h), from the values joined by REPEATS_JOIN, a byte
 * no number holds: ',' apart, or ';' apart when a value holds a ','. */
#define REPEATS_JOIN ';'
struct buf;
void repeats_put_list(struct buf *b, const char *joined);

#endif

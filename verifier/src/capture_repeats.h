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
 * number as each repeat printed it, in run order, ',' between; "-" for a
 * repeat that printed no number there.  Entries are ' ' apart, in stdout
 * order.  The header is outside body-sha256, so it carries its own seal:
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

/* Whether spec is well formed (entries "L:C=V,V,..." ' ' apart, every entry
 * with the same count of values, at least two).  On false, *at is the byte
 * offset of the first fault. */
bool repeats_well_formed(const char *spec, size_t *at);

#endif

/*
 * fuzz_numtok.c - the number tokenizer (numtok.h).
 *
 * Properties: tokens are in text order, do not overlap and lie inside the
 * text with start <= digits_start < digits_end <= end; every value is
 * finite; every token traces to itself; and a token formatted back with
 * numtok_format_like at its own value rescans, alone, as one token of the
 * same value, decimals and unit that traces to the original.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "numtok.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct num_token *t = NULL;
	size_t n = numtok_scan(size ? text : NULL, size, &t);
	size_t prev_end = 0;
	for (size_t i = 0; i < n; i++) {
		const struct num_token *k = &t[i];
		FUZZ_CHECK(k->start >= prev_end, "token %zu starts at %zu, before the last one ended (%zu)", i,
			   k->start, prev_end);
		FUZZ_CHECK(k->start <= k->digits_start && k->digits_start < k->digits_end && k->digits_end <= k->end &&
				   k->end <= size,
			   "token %zu offsets %zu %zu %zu %zu, text %zu", i, k->start, k->digits_start, k->digits_end,
			   k->end, size);
		FUZZ_CHECK(text[k->digits_start] >= '0' && text[k->digits_start] <= '9', "token %zu starts with no digit",
			   i);
		FUZZ_CHECK(isfinite(k->value), "token %zu is not finite", i);
		FUZZ_CHECK(k->decimals >= 0 && k->decimals <= NUMTOK_MAX_DIGITS, "token %zu decimals %d", i,
			   k->decimals);
		FUZZ_CHECK(k->sig_digits >= 1, "token %zu sig_digits %d", i, k->sig_digits);
		FUZZ_CHECK(memchr(k->unit, '\0', sizeof k->unit) != NULL, "token %zu unit not terminated", i);
		FUZZ_CHECK(numtok_traces_to(k, k), "token %zu does not trace to itself", i);
		prev_end = k->end;

		char buf[2 * NUMTOK_MAX_DIGITS + 64];
		size_t m = numtok_format_like(k, text, k->value, buf, sizeof buf);
		FUZZ_CHECK(m > 0 && m < sizeof buf && strlen(buf) == m, "token %zu cannot be formatted back (%zu)", i,
			   m);
		struct num_token *r = NULL;
		size_t rn = numtok_scan(buf, m, &r);
		FUZZ_CHECK(rn == 1, "token %zu formatted as '%s' rescans as %zu tokens", i, buf, rn);
		FUZZ_CHECK(r[0].value == k->value && r[0].decimals == k->decimals,
			   "token %zu formatted as '%s' rescans as %.17g with %d decimals, not %.17g with %d", i, buf,
			   r[0].value, r[0].decimals, k->value, k->decimals);
		FUZZ_CHECK(strcmp(r[0].unit, k->unit) == 0, "token %zu formatted as '%s' has unit '%s', not '%s'", i, buf,
			   r[0].unit, k->unit);
		FUZZ_CHECK(numtok_traces_to(&r[0], k) && numtok_traces_to(k, &r[0]),
			   "token %zu formatted as '%s' does not trace both ways", i, buf);
		free(r);
	}
	free(t);
	return 0;
}

/*
 * fuzz_numtok.c - the number tokenizer (numtok.h).
 *
 * Properties: tokens are in text order, do not overlap and lie inside the
 * text with start <= digits_start < digits_end <= end; every value is
 * finite; every token traces to itself; and a token formatted back with
 * numtok_format_like at its own value rescans, alone, as one token of the
 * same value, decimals (where numtok.h promises them) and unit that
 * traces to the original.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "numtok.h"

/* False for a number in exponent notation whose mantissa is not in
 * [1, 10) ("0.1e9", "6000e3"): numtok.h moves the exponent of those when
 * formatting, so the place of the last digit may change.  Read from the
 * text, so the target builds whether or not numtok reads exponents. */
static bool plain_mantissa(const char *text, const struct num_token *k)
{
	size_t e = k->digits_start;
	while (e < k->digits_end && text[e] != 'e' && text[e] != 'E')
		e++;
	if (e == k->digits_end)
		return true;
	size_t int_digits = 0;
	for (size_t i = k->digits_start; i < e && text[i] != '.'; i++)
		int_digits += text[i] >= '0' && text[i] <= '9';
	return int_digits == 1 && text[k->digits_start] != '0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct num_token *t = NULL;
	size_t n = numtok_scan(size ? text : NULL, size, &t);
	size_t prev_end = 0;
	for (size_t i = 0; i < n; i++) {
		const struct num_token *k = &t[i];
		FUZZ_CHECK(k->start >= prev_end, "token %zu starts at %zu, before the last one ended (%zu)", i,
			   (size_t)k->start, prev_end);
		FUZZ_CHECK(k->start <= k->digits_start && k->digits_start < k->digits_end && k->digits_end <= k->end &&
				   k->end <= size,
			   "token %zu offsets %zu %zu %zu %zu, text %zu", i, (size_t)k->start, (size_t)k->digits_start,
			   (size_t)k->digits_end, (size_t)k->end, size);
		FUZZ_CHECK(text[k->digits_start] >= '0' && text[k->digits_start] <= '9', "token %zu starts with no digit",
			   i);
		FUZZ_CHECK(isfinite(k->value), "token %zu is not finite", i);
		/* decimals is the place of the last digit printed: below 0 for
		 * "4.2e+09" where numbers in exponent notation are read */
		FUZZ_CHECK(k->decimals >= -2 * NUMTOK_MAX_DIGITS && k->decimals <= 2 * NUMTOK_MAX_DIGITS,
			   "token %zu decimals %d", i, k->decimals);
		FUZZ_CHECK(k->sig_digits >= 1, "token %zu sig_digits %d", i, k->sig_digits);
		FUZZ_CHECK(memchr(k->unit, '\0', sizeof k->unit) != NULL, "token %zu unit not terminated", i);
		FUZZ_CHECK(numtok_traces_to(k, k), "token %zu does not trace to itself", i);
		prev_end = k->end;

		char buf[2 * NUMTOK_MAX_DIGITS + 64];
		size_t m = numtok_format_like(k, text, k->value, buf, sizeof buf);
		if (m == 0) {
			/* refused only where the header says so: decimals out of
			 * range, or a mantissa in exponent notation that is not one
			 * digit before the point ("00.000…06e00" moves the exponent
			 * by as many places as it has zeros) */
			FUZZ_CHECK(k->decimals < 0 || k->decimals > NUMTOK_MAX_DIGITS || !plain_mantissa(text, k),
				   "token %zu cannot be formatted back", i);
			continue;
		}
		FUZZ_CHECK(m < sizeof buf && strlen(buf) == m, "token %zu formatted to %zu bytes", i, m);
		struct num_token *r = NULL;
		size_t rn = numtok_scan(buf, m, &r);
		FUZZ_CHECK(rn == 1, "token %zu formatted as '%s' rescans as %zu tokens", i, buf, rn);
		/* a mantissa that rounds up to the next power of ten ("9.99e00"
		 * whose double is 10) comes back one exponent up, so with one
		 * decimal place less: the same value, the same digits shown */
		bool carried = k->has_exponent && r[0].decimals == k->decimals - 1;
		FUZZ_CHECK(r[0].value == k->value && (r[0].decimals == k->decimals || !plain_mantissa(text, k) || carried),
			   "token %zu formatted as '%s' rescans as %.17g with %d decimals, not %.17g with %d", i, buf,
			   r[0].value, r[0].decimals, k->value, k->decimals);
		FUZZ_CHECK(strcmp(r[0].unit, k->unit) == 0, "token %zu formatted as '%s' has unit '%s', not '%s'", i, buf,
			   r[0].unit, k->unit);
		FUZZ_CHECK(r[0].decimals != k->decimals || (numtok_traces_to(&r[0], k) && numtok_traces_to(k, &r[0])),
			   "token %zu formatted as '%s' does not trace both ways", i, buf);
		free(r);
	}
	free(t);
	return 0;
}

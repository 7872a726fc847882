/*
 * fuzz_expr.c - the derivation evaluator (expr.h).
 *
 * Properties: success gives a finite value, never -0, an empty message and
 * literals in text order inside the text, each a plain decimal whose value
 * is what its digits say; failure gives value 0, a message, an error
 * offset inside the text and no literals; anything over EXPR_MAX_LEN
 * fails; and evaluating twice gives the same answer.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct expr_result r, again;
	memset(&r, 0xA5, sizeof r); /* every field must be set, whatever it held */
	int rc = expr_eval(text, size, &r);
	FUZZ_CHECK(rc == 0 || rc == -1, "rc %d", rc);
	FUZZ_CHECK(memchr(r.err, '\0', sizeof r.err) != NULL, "message not terminated");
	if (size > EXPR_MAX_LEN)
		FUZZ_CHECK(rc == -1, "an expression of %zu bytes was evaluated", size);
	if (rc == 0) {
		FUZZ_CHECK(isfinite(r.value), "result not finite");
		FUZZ_CHECK(!(r.value == 0 && signbit(r.value)), "result is -0");
		FUZZ_CHECK(r.err[0] == '\0', "success with message '%s'", r.err);
		FUZZ_CHECK((r.n_literals == 0) == (r.literals == NULL), "%zu literals, array %p", r.n_literals,
			   (void *)r.literals);
		size_t prev = 0;
		for (size_t i = 0; i < r.n_literals; i++) {
			const struct expr_literal *l = &r.literals[i];
			FUZZ_CHECK(l->start >= prev && l->start < l->end && l->end <= size, "literal %zu at %zu..%zu", i,
				   l->start, l->end);
			FUZZ_CHECK(isfinite(l->value) && l->value >= 0 && l->decimals >= 0, "literal %zu value %g", i,
				   l->value);
			char digits[EXPR_MAX_LEN + 1];
			memcpy(digits, text + l->start, l->end - l->start);
			digits[l->end - l->start] = '\0';
			FUZZ_CHECK(strspn(digits, "0123456789.") == l->end - l->start, "literal %zu is '%s'", i, digits);
			const char *dot = strchr(digits, '.');
			FUZZ_CHECK(l->decimals == (dot ? (int)strlen(dot + 1) : 0), "literal %zu '%s' decimals %d", i,
				   digits, l->decimals);
			FUZZ_CHECK(strtod(digits, NULL) == l->value, "literal %zu '%s' has value %.17g", i, digits,
				   l->value);
			(void)expr_literal_is_free(l->value);
			prev = l->end;
		}
	} else {
		FUZZ_CHECK(r.value == 0 && !signbit(r.value), "failure with value %g", r.value);
		FUZZ_CHECK(r.err[0] != '\0', "failure without a message");
		FUZZ_CHECK(r.err_offset <= size, "error offset %zu past the text (%zu)", r.err_offset, size);
		FUZZ_CHECK(r.literals == NULL && r.n_literals == 0, "failure with %zu literals", r.n_literals);
	}
	int rc2 = expr_eval(text, size, &again);
	FUZZ_CHECK(rc2 == rc && memcmp(&again.value, &r.value, sizeof r.value) == 0 && again.n_literals == r.n_literals &&
			   strcmp(again.err, r.err) == 0 && (rc == 0 || again.err_offset == r.err_offset),
		   "a second evaluation differs");
	expr_result_free(&again);
	expr_result_free(&r);
	expr_result_free(&r); /* safe to call twice */
	return 0;
}

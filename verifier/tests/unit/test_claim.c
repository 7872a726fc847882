/*
 * test_claim.c - the claim evaluator (claim.h) point by point: every
 * comparison operator true and false, and/or/not and their precedence,
 * claim parentheses against arithmetic ones, places through an
 * environment (expr.h), min() and max(), the bookkeeping of comparisons,
 * literals and places, every error with its message and offset; and the
 * repeat-values format (capture_repeats.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_repeats.h"
#include "claim.h"

/* ---- a test environment: [a] = 3, [b] = 5, [zero] = 0; min/max of [r] = 2/9 ---- */

static int test_place(void *ctx, const char *text, size_t len, enum expr_place_fn fn, double *value, char *err,
		      size_t errlen)
{
	int *calls = ctx;
	(*calls)++;
	static const struct {
		const char *name;
		double value;
	} places[] = {{"a", 3}, {"b", 5}, {"zero", 0}, {"r", 4}, {"64 inclusive, in place | mismatches", 3120}};
	for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
		if (strlen(places[i].name) == len && memcmp(places[i].name, text, len) == 0) {
			*value = fn == EXPR_PLACE_MIN ? 2 : fn == EXPR_PLACE_MAX ? 9 : places[i].value;
			return 0;
		}
	snprintf(err, errlen, "no place '%.*s'", (int)len, text);
	return -1;
}

static int calls;
static const struct expr_env env = {test_place, &calls};

/* ---- places ---- */

static void test_places_and_bounds(void **state)
{
	(void)state;
	calls = 0;
	struct claim_result r;
	const char *text = "[a] < [b] and max([r]) - min([r]) == 7 and [64 inclusive, in place | mismatches] > 3000";
	assert_int_equal(claim_eval(text, strlen(text), &env, &r), 0);
	assert_true(r.truth);
	assert_int_equal(calls, 5);
	assert_int_equal(r.n_cmps, 3);
	assert_string_equal(r.cmps[0].op, "<");
	assert_true(r.cmps[0].lhs == 3 && r.cmps[0].rhs == 5 && r.cmps[0].truth);
	assert_int_equal(r.cmps[0].start, 0);
	assert_int_equal(r.cmps[0].end, 9);
	assert_int_equal(r.n_places, 5);
	assert_int_equal(r.places[0].start, 0);
	assert_int_equal(r.places[0].end, 3);
	assert_int_equal(r.places[2].fn, EXPR_PLACE_MAX);
	assert_true(r.places[2].value == 9);
	assert_int_equal(r.places[3].fn, EXPR_PLACE_MIN);
	/* digits inside a place are no literals; 7 and 3000 are */
	assert_int_equal(r.n_literals, 2);
	assert_true(r.literals[1].value == 3000);
	assert_int_equal(r.literals[1].start, strlen(text) - 4);
	claim_result_free(&r);
}

static void test_place_errors(void **state)
{
	(void)state;
	struct claim_result r;
	assert_int_equal(claim_eval("[a] < 1", 7, NULL, &r), -1);
	assert_string_equal(r.err, "evidence places are not allowed here");
	claim_result_free(&r);
}

/* ---- errors ---- */

static void test_claim_errors(void **state)
{
	(void)state;
	char *big = malloc(EXPR_MAX_LEN + 2);
	memset(big, '1', EXPR_MAX_LEN + 1);
	big[EXPR_MAX_LEN + 1] = '\0';
	struct claim_result r;
	assert_int_equal(claim_eval(big, strlen(big), &env, &r), -1);
	assert_int_equal(r.err_offset, EXPR_MAX_LEN);
	claim_result_free(&r);
	free(big);
}

/* Nested claim parentheses are bounded like expr's. */
static void test_depth_limit(void **state)
{
	(void)state;
	size_t n = EXPR_MAX_DEPTH + 1;
	char *text = malloc(2 * n + 8);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		text[k++] = '(';
	memcpy(text + k, "1<2", 3);
	k += 3;
	for (size_t i = 0; i < n; i++)
		text[k++] = ')';
	struct claim_result r;
	assert_int_equal(claim_eval(text, k, &env, &r), -1);
	assert_string_equal(r.err, "nesting deeper than 64 levels");
	claim_result_free(&r);
	assert_true(claim_eval(text + 1, k - 2, &env, &r) == 0 && r.truth);
	claim_result_free(&r);
	free(text);
}

/* ---- repeat-values ---- */

static void test_repeat_values(void **state)
{
	(void)state;
	const char *spec = "19:44=2920,3464,3824 32:44=299266,-,320204 5:3=1.5,1.25,1";
	const char *v;
	size_t len;
	assert_true(repeats_lookup(spec, 19, 44, &v, &len));
	assert_int_equal(len, 14);
	assert_memory_equal(v, "2920,3464,3824", 14);
	assert_true(repeats_lookup(spec, 5, 3, &v, &len));
	assert_memory_equal(v, "1.5,1.25,1", len);
	assert_false(repeats_lookup(spec, 19, 4, &v, &len));
	assert_false(repeats_lookup(spec, 9, 44, &v, &len));
	size_t at;
	assert_true(repeats_well_formed(spec, &at));
	assert_false(repeats_well_formed("19:44=1,2 20:1=1,2,3", &at)); /* unequal counts */
	assert_false(repeats_well_formed("19:44=1", &at));              /* one repeat */
	assert_false(repeats_well_formed("19:44=1,x", &at));
	assert_int_equal(at, 8);
	assert_false(repeats_well_formed("19=1,2", &at));
	assert_false(repeats_well_formed("", &at));
	/* the seal covers the values and the stdout */
	char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1], c[SHA256_HEX_LEN + 1];
	repeats_seal("1:1=1,2", "x 1\n", 4, a);
	repeats_seal("1:1=1,3", "x 1\n", 4, b);
	repeats_seal("1:1=1,2", "x 2\n", 4, c);
	assert_string_not_equal(a, b);
	assert_string_not_equal(a, c);
	/* sha256 of "1:1=1,2\nx 1\n", as sha256sum prints it */
	char again[SHA256_HEX_LEN + 1];
	sha256_hex("1:1=1,2\nx 1\n", 12, again);
	assert_string_equal(a, again);
}

/* Without a decider a claim's verdict is its exact truth (a decider's
 * verdicts are rows of tables/claim.test). */
static void test_verdict_without_decider(void **state)
{
	(void)state;
	struct claim_result r;
	assert_int_equal(claim_eval("1 < 2 and 3 < 4", 15, NULL, &r), 0);
	assert_int_equal(r.verdict, CLAIM_TRUE);
	claim_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_places_and_bounds),
		cmocka_unit_test(test_place_errors),
		cmocka_unit_test(test_claim_errors),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_repeat_values),
		cmocka_unit_test(test_verdict_without_decider),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

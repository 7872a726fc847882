/*
 * test_expr.c - the derivation expression evaluator: values, literal
 * bookkeeping, the free-literal predicate, and every error with its
 * message and offset.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

/* ---- helpers ---- */

static double eval_ok(const char *text)
{
	struct expr_result r;
	int rc = expr_eval(text, strlen(text), &r);
	if (rc != 0)
		print_error("\"%s\": %s at %zu\n", text, r.err, r.err_offset);
	assert_int_equal(rc, 0);
	assert_string_equal(r.err, "");
	double v = r.value;
	expr_result_free(&r);
	return v;
}

static void assert_value(const char *text, double expected)
{
	double v = eval_ok(text);
	if (v != expected)
		print_error("\"%s\" = %.17g, expected %.17g\n", text, v, expected);
	assert_true(v == expected);
}

static void assert_error_len(const char *text, size_t len, const char *message, size_t offset)
{
	struct expr_result r;
	assert_int_equal(expr_eval(text, len, &r), -1);
	assert_string_equal(r.err, message);
	assert_int_equal(r.err_offset, offset);
	assert_null(r.literals);
	assert_int_equal(r.n_literals, 0);
	assert_true(r.value == 0);
	expr_result_free(&r);
}

static void assert_error(const char *text, const char *message, size_t offset)
{
	assert_error_len(text, strlen(text), message, offset);
}

/* A string of n copies of unit; the caller frees it. */
static char *repeat(const char *unit, size_t n, const char *tail)
{
	size_t ulen = strlen(unit), tlen = strlen(tail);
	char *s = malloc(ulen * n + tlen + 1);
	assert_non_null(s);
	for (size_t i = 0; i < n; i++)
		memcpy(s + i * ulen, unit, ulen);
	memcpy(s + ulen * n, tail, tlen + 1);
	return s;
}

/* "((((1))))" with depth levels of parentheses; the caller frees it. */
static char *nested(size_t depth)
{
	char *s = malloc(2 * depth + 2);
	assert_non_null(s);
	memset(s, '(', depth);
	s[depth] = '1';
	memset(s + depth + 1, ')', depth);
	s[2 * depth + 1] = '\0';
	return s;
}

/* ---- values ---- */

static void test_unary_minus(void **state)
{
	(void)state;
	assert_false(signbit(eval_ok("-0"))); /* no negative zero for callers to print */
}

static void test_explicit_length(void **state)
{
	(void)state;
	struct expr_result r;
	assert_int_equal(expr_eval("1+2junk", 3, &r), 0);
	assert_true(r.value == 3);
	expr_result_free(&r);
}

/* ---- literals ---- */

static void test_literal_list_and_offsets(void **state)
{
	(void)state;
	const char *text = "  12.5 + (3 * 0.250) - -7";
	struct expr_result r;
	assert_int_equal(expr_eval(text, strlen(text), &r), 0);
	assert_true(r.value == 12.5 + 3 * 0.25 + 7);
	assert_int_equal(r.n_literals, 4);
	assert_non_null(r.literals);
	const struct expr_literal want[] = {{2, 6, 12.5, 1}, {10, 11, 3, 0}, {14, 19, 0.25, 3}, {24, 25, 7, 0}};
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(r.literals[i].start, want[i].start);
		assert_int_equal(r.literals[i].end, want[i].end);
		assert_true(r.literals[i].value == want[i].value);
		assert_int_equal(r.literals[i].decimals, want[i].decimals);
	}
	expr_result_free(&r);
	assert_null(r.literals);
	assert_int_equal(r.n_literals, 0);
	expr_result_free(&r); /* twice is harmless */
}

static void test_literals_inside_functions(void **state)
{
	(void)state;
	const char *text = "round(100 * 170530 / 1049187)";
	struct expr_result r;
	assert_int_equal(expr_eval(text, strlen(text), &r), 0);
	assert_true(r.value == 16);
	assert_int_equal(r.n_literals, 3);
	assert_true(r.literals[0].value == 100);
	assert_int_equal(r.literals[1].start, 12);
	assert_int_equal(r.literals[1].end, 18);
	assert_true(r.literals[2].value == 1049187);
	expr_result_free(&r);
}

static void test_many_literals_grow_the_list(void **state)
{
	(void)state;
	char *text = repeat("1+", 1000, "1"); /* 2001 bytes, 1001 literals */
	struct expr_result r;
	assert_int_equal(expr_eval(text, strlen(text), &r), 0);
	assert_true(r.value == 1001);
	assert_int_equal(r.n_literals, 1001);
	assert_int_equal(r.literals[1000].start, 2000);
	expr_result_free(&r);
	free(text);
}

static void test_free_literals(void **state)
{
	(void)state;
	static const double free_ones[] = {1, 10, 100, 1000, 1e6, 1e22, 0.1, 0.01, 0.001, 1e-9,
					   2, 4, 8, 64, 1024, 4096, 65536, 1099511627776.0};
	for (size_t i = 0; i < sizeof free_ones / sizeof free_ones[0]; i++) {
		if (!expr_literal_is_free(free_ones[i]))
			print_error("%g should be free\n", free_ones[i]);
		assert_true(expr_literal_is_free(free_ones[i]));
	}
	static const double costly[] = {3, 1049187, 96, 0, -100, -2, 0.5, 0.25, 12, 1000.5,
					0.02, 1023, 1025, 20, 200};
	for (size_t i = 0; i < sizeof costly / sizeof costly[0]; i++) {
		if (expr_literal_is_free(costly[i]))
			print_error("%g should not be free\n", costly[i]);
		assert_false(expr_literal_is_free(costly[i]));
	}
	assert_false(expr_literal_is_free(INFINITY));
	assert_false(expr_literal_is_free(NAN));
}

static void test_free_literals_as_parsed(void **state)
{
	(void)state;
	/* The predicate must agree with the values the parser produces. */
	const char *text = "0.01 * 1000 * 1024 * 0.001 * 3";
	struct expr_result r;
	assert_int_equal(expr_eval(text, strlen(text), &r), 0);
	assert_int_equal(r.n_literals, 5);
	assert_true(expr_literal_is_free(r.literals[0].value));
	assert_true(expr_literal_is_free(r.literals[1].value));
	assert_true(expr_literal_is_free(r.literals[2].value));
	assert_true(expr_literal_is_free(r.literals[3].value));
	assert_false(expr_literal_is_free(r.literals[4].value));
	expr_result_free(&r);
}

/* ---- errors ---- */

static void test_empty_expression(void **state)
{
	(void)state;
	assert_error_len(NULL, 0, "empty expression", 0);
}

static void test_garbage(void **state)
{
	(void)state;
	assert_error_len("1\0", 2, "expected an operator or end of expression, found byte 0x00", 1);
}

static void test_non_finite_results(void **state)
{
	(void)state;
	/* 1e200 * 1e200 overflows a double. */
	char *big = repeat("0", 200, "");
	char text[1024];
	snprintf(text, sizeof text, "1%s * 1%s", big, big);
	assert_error(text, "result is not finite (overflow)", 202);
	snprintf(text, sizeof text, "1%s + 1%s * 1%s", big, big, big);
	assert_error(text, "result is not finite (overflow)", 406);
	free(big);
	/* A literal beyond the double range is refused where it stands. */
	char *huge = repeat("9", 400, "");
	snprintf(text, sizeof text, "2 + %s", huge);
	assert_error(text, "number is too large", 4);
	free(huge);
}

static void test_too_long_expression(void **state)
{
	(void)state;
	char *text = repeat("1+", 5000, ""); /* 10,000 characters */
	assert_int_equal(strlen(text), 10000);
	assert_error(text, "expression is 10000 bytes long, over the limit of 4096 bytes", 4096);
	free(text);

	/* Exactly at the limit is still read. */
	text = repeat("1+", 2047, "1 "); /* 4094 + 2 = 4096 bytes */
	assert_int_equal(strlen(text), EXPR_MAX_LEN);
	assert_value(text, 2048);
	free(text);
	text = repeat("1+", 2047, "1  ");
	assert_error(text, "expression is 4097 bytes long, over the limit of 4096 bytes", 4096);
	free(text);
}

static void test_nesting_limit(void **state)
{
	(void)state;
	char *text = nested(60);
	assert_value(text, 1);
	free(text);
	text = nested(EXPR_MAX_DEPTH);
	assert_value(text, 1);
	free(text);
	text = nested(EXPR_MAX_DEPTH + 1);
	assert_error(text, "nesting deeper than 64 levels", EXPR_MAX_DEPTH);
	free(text);
	text = nested(100);
	assert_error(text, "nesting deeper than 64 levels", EXPR_MAX_DEPTH);
	free(text);
	/* 2000 unclosed parentheses: stops at the limit, no deep recursion. */
	text = repeat("(", 2000, "");
	assert_error(text, "nesting deeper than 64 levels", EXPR_MAX_DEPTH);
	free(text);
}

static void test_function_calls_count_as_nesting(void **state)
{
	(void)state;
	char *open = repeat("round(", 65, "1");
	char *text = repeat(")", 65, "");
	char *whole = malloc(strlen(open) + strlen(text) + 1);
	assert_non_null(whole);
	strcpy(whole, open);
	strcat(whole, text);
	assert_error(whole, "nesting deeper than 64 levels", 64 * strlen("round(") + strlen("round"));
	free(open);
	free(text);
	free(whole);
}

static void test_long_unary_minus_run(void **state)
{
	(void)state;
	char *text = repeat("-", 4000, "7"); /* read in a loop, not by recursion */
	assert_value(text, 7);
	free(text);
	text = repeat("-", 4001, "7");
	assert_value(text, -7);
	free(text);
}

static void test_result_is_reset_by_eval(void **state)
{
	(void)state;
	struct expr_result r;
	memset(&r, 0x5a, sizeof r); /* garbage from an earlier use */
	assert_int_equal(expr_eval("1 + 1", 5, &r), 0);
	assert_string_equal(r.err, "");
	assert_int_equal(r.n_literals, 2);
	expr_result_free(&r);
	/* An error after some literals were read leaves none behind. */
	assert_int_equal(expr_eval("1 + 2 + (3", 10, &r), -1);
	assert_null(r.literals);
	expr_result_free(&r);
}

/* A literal's value is strtod's of its digits as "DIGITSe-N" (the general
 * path, which the evaluator takes past 15 digits or 22 decimals), bit for
 * bit, on both sides of those limits: literals of 1 to 24 digits with the
 * point anywhere, leading zeros, and the limits' own edges. */
static void test_literal_values_match_strtod(void **state)
{
	(void)state;
	static const char *const edges[] = {
		"0", "0.0", "000.000", "1", "9", "0.1", "0.3", "2.675", "1.005", "123456789012345",
		"1234567890123456", "999999999999999", "9999999999999999", "0.0000000000000000000001",
		"0.00000000000000000000001", "1.7976931348623157", "4503599627370497", "9007199254740993",
		"0.000000000000000000000123456789012345", "100000000000000000000000",
	};
	unsigned long long seed = 88172645463325252ULL;
	size_t checked = 0;
	for (size_t round = 0; round < 20000 + sizeof edges / sizeof *edges; round++) {
		char text[64];
		if (round < sizeof edges / sizeof *edges) {
			snprintf(text, sizeof text, "%s", edges[round]);
		} else {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			size_t n = 1 + seed % 24, point = (seed >> 8) % (n + 1), k = 0;
			for (size_t d = 0; d < n; d++) {
				if (d == point && d > 0)
					text[k++] = '.';
				seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
				text[k++] = (char)('0' + (seed >> 20) % 10);
			}
			text[k] = '\0';
		}
		char spelled[80];
		size_t n = 0;
		int decimals = 0;
		const char *dot = strchr(text, '.');
		if (dot)
			decimals = (int)strlen(dot + 1);
		for (const char *c = text; *c; c++)
			if (*c != '.')
				spelled[n++] = *c;
		snprintf(spelled + n, sizeof spelled - n, "e-%d", decimals);
		double want = strtod(spelled, NULL);
		struct expr_result r;
		assert_int_equal(expr_eval(text, strlen(text), &r), 0);
		assert_memory_equal(&r.value, &want, sizeof want);
		assert_int_equal(r.n_literals, 1);
		assert_memory_equal(&r.literals[0].value, &want, sizeof want);
		expr_result_free(&r);
		checked++;
	}
	assert_true(checked > 20000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unary_minus),
		cmocka_unit_test(test_explicit_length),
		cmocka_unit_test(test_literal_list_and_offsets),
		cmocka_unit_test(test_literals_inside_functions),
		cmocka_unit_test(test_many_literals_grow_the_list),
		cmocka_unit_test(test_free_literals),
		cmocka_unit_test(test_free_literals_as_parsed),
		cmocka_unit_test(test_empty_expression),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_non_finite_results),
		cmocka_unit_test(test_too_long_expression),
		cmocka_unit_test(test_nesting_limit),
		cmocka_unit_test(test_function_calls_count_as_nesting),
		cmocka_unit_test(test_long_unary_minus_run),
		cmocka_unit_test(test_result_is_reset_by_eval),
		cmocka_unit_test(test_literal_values_match_strtod),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_direction.c - when a derived number's stated direction turns false
 * (direction.h): a ratio by its unit or its last division crosses 1, any
 * other value crosses 0 (a percentage whose subtraction is inside
 * parentheses included, the case update once rewrote as "-4.9 percent ...
 * slower"); and the direction word of the sentence around a byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "direction.h"

static bool crossed(const char *unit, const char *expr, double was, double now, const char **what)
{
	return direction_crossed(unit, expr, strlen(expr), was, now, what);
}

static void test_ratio_crosses_one(void **state)
{
	(void)state;
	const char *what;
	assert_true(crossed("x", "1.798 / 0.325", 5.53, 0.92, &what));
	assert_string_equal(what, "ratio");
	assert_false(crossed("x", "1.798 / 0.325", 5.53, 1.2, &what));
	assert_true(crossed("", "1.798 / 0.325", 5.53, 1, &what)); /* unitless, last a division */
	assert_false(crossed("x", "1.798 / 0.325", 1, 1, &what));
}

static void test_value_crosses_zero(void **state)
{
	(void)state;
	const char *what;
	/* the percentage: its last operation a division, but it has a unit */
	assert_true(crossed("percent", "100 * (1.798 - 0.325) / 0.325", 453, -7.7, &what));
	assert_string_equal(what, "value");
	assert_false(crossed("percent", "100 * (1.798 - 0.325) / 0.325", 453, 12, &what));
	assert_true(crossed("ms", "0.4 - 0.3", 0.1, 0, &what));
	/* a sign is no operation: -0.3 / 2 is a division, unitless */
	assert_true(crossed("", "-0.3 / 2", 0.9, 1.4, &what));
	assert_string_equal(what, "ratio");
	assert_false(crossed("", "2 - -0.3", 2.3, 1.5, &what));
}

static void test_direction_word_of_the_sentence(void **state)
{
	(void)state;
	const char *t = "It took 2 ms. It is 3x slower than that. Fine.";
	size_t a, b, w, wl;
	assert_true(direction_word(t, strlen(t), 20, &a, &b, &w, &wl));
	assert_int_equal(a, 13); /* at the blank after the full stop, as update always cut it */
	assert_int_equal(wl, 6);
	assert_memory_equal(t + w, "slower", 6);
	assert_false(direction_word(t, strlen(t), 5, &a, &b, &w, &wl));
	const char *p = "A first paragraph, faster.\n\nA second at 4x.";
	assert_false(direction_word(p, strlen(p), 40, &a, &b, &w, &wl));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratio_crosses_one),
		cmocka_unit_test(test_value_crosses_zero),
		cmocka_unit_test(test_direction_word_of_the_sentence),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

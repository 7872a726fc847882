/*
 * test_lessonfiles.c - the lesson-file rules that verify and capture
 * share: an Expect: pattern judged by regcomp, through the cache of
 * patterns already seen to compile (which must keep every pattern apart
 * and never turn a bad one good).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lessonfiles.h"

static void test_expect_valid_and_invalid(void **state)
{
	(void)state;
	char msg[160];
	assert_true(lessonfiles_expect_valid("^ok [0-9]+$", msg, sizeof msg));
	assert_true(lessonfiles_expect_valid("^ok [0-9]+$", msg, sizeof msg)); /* from the cache */
	msg[0] = '\0';
	assert_false(lessonfiles_expect_valid("^ok [0-9+$", msg, sizeof msg)); /* one byte from a kept one */
	assert_true(msg[0] != '\0');
	msg[0] = '\0';
	assert_false(lessonfiles_expect_valid("^ok [0-9+$", msg, sizeof msg)); /* a bad one is never kept */
	assert_true(msg[0] != '\0');
	assert_false(lessonfiles_expect_valid("^ok (", msg, sizeof msg)); /* a prefix of a kept one */
	assert_true(lessonfiles_expect_valid("", msg, sizeof msg));
}

static void test_expect_cache_evicts(void **state)
{
	(void)state;
	char msg[160], pat[64];
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 20; i++) { /* more patterns than the cache keeps */
			snprintf(pat, sizeof pat, "^line %d: [a-z]+$", i);
			assert_true(lessonfiles_expect_valid(pat, msg, sizeof msg));
			snprintf(pat, sizeof pat, "^line %d: [a-z+$", i);
			assert_false(lessonfiles_expect_valid(pat, msg, sizeof msg));
		}
	char longer[400]; /* past what is kept: judged each time */
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	assert_true(lessonfiles_expect_valid(longer, msg, sizeof msg));
	longer[200] = '(';
	assert_false(lessonfiles_expect_valid(longer, msg, sizeof msg));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expect_valid_and_invalid),
		cmocka_unit_test(test_expect_cache_evicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

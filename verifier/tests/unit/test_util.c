/*
 * test_util.c - xasprintf's results, short (formatted on the stack and
 * copied) and past its 256-byte stack buffer (formatted again).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void test_asprintf_joins(void **state)
{
	(void)state;
	/* the shapes the checks use, spelt out */
	char *p = xasprintf("%s/%s", "programs", "l1/scan.cu");
	assert_string_equal(p, "programs/l1/scan.cu");
	free(p);
	p = xasprintf("programs/%s/%.*s", "l1", 4, "scan.cu");
	assert_string_equal(p, "programs/l1/scan");
	free(p);
	p = xasprintf("100%% %s", "");
	assert_string_equal(p, "100% ");
	free(p);
	p = xasprintf("%.*s|", 9, "ab"); /* a precision past the string's NUL */
	assert_string_equal(p, "ab|");
	free(p);
}

static void test_asprintf_long(void **state)
{
	(void)state;
	char part[300];
	memset(part, 'a', sizeof part - 1);
	part[sizeof part - 1] = '\0';
	char *p = xasprintf("%s/%d/%s", part, -42, part);
	assert_int_equal(strlen(p), 2 * (sizeof part - 1) + 5);
	assert_memory_equal(p + sizeof part - 1, "/-42/", 5);
	assert_int_equal(p[strlen(p) - 1], 'a');
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asprintf_joins),
		cmocka_unit_test(test_asprintf_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

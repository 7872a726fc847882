/*
 * test_repeats.c - the repeat-values header (capture_repeats.h) as capture
 * writes it and the verifier reads it: every kind of number capture reads
 * (signed, exponent, grouped) is well formed, a grouped value's list is
 * ';' apart and looked up whole, and malformed lists name their fault.
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
#include "util.h"

static void assert_formed(const char *spec)
{
	size_t at = 12345;
	if (!repeats_well_formed(spec, &at))
		fail_msg("'%s' is not well formed (fault at byte %zu)", spec, at);
}

static void assert_fault(const char *spec, size_t want_at)
{
	size_t at = 12345;
	assert_false(repeats_well_formed(spec, &at));
	assert_int_equal(at, want_at);
}

static void test_plain_values(void **state)
{
	(void)state;
	assert_formed("28:44=2920,3464,3824 32:43=299266,301113,320204");
	assert_formed("1:1=0.0368,0.0371");
	assert_formed("2:5=17,-,19"); /* a repeat that printed no number there */
}

/* Each kind of number capture records (capture_text.c's span rule). */
static void test_every_number_capture_reads(void **state)
{
	(void)state;
	assert_formed("3:7=-26708,-26712,-26716");
	assert_formed("2:9=1.708e-05,1.712e-05,1.716e-05");
	assert_formed("4:1=+3,+4");
	assert_formed("3:21=1,049,708;1,049,712;1,049,716");
	assert_formed("3:21=1,049,708;-;1,049,716");
	assert_formed("5:2=1\xE2\x80\x89" "049\xE2\x80\x89" "708,1\xE2\x80\x89" "049\xE2\x80\x89" "712");
	assert_formed("6:1=\xE2\x88\x92" "5,\xE2\x88\x92" "6");
	assert_formed("2:9=1.708e-05,1.712e-05 3:21=1,049,708;1,049,712");
}

static void test_malformed(void **state)
{
	(void)state;
	assert_fault("1:1=5", 5);              /* one value: nothing varied */
	assert_fault("1:1=5,6 2:1=5,6,7", 17); /* counts differ */
	assert_fault("1:1=5,x", 6);
	assert_fault("1:1=5,,6", 6);
	assert_fault("1:1=a,b", 4);
}

static void test_separator(void **state)
{
	(void)state;
	const char *grouped = "1,049,708;1,049,712", *plain = "-26708,-26712";
	assert_int_equal(repeats_separator(grouped, strlen(grouped)), ';');
	assert_int_equal(repeats_separator(plain, strlen(plain)), ',');
}

/* Capture joins values by REPEATS_JOIN and writes ',' unless a value is grouped. */
static void test_put_list(void **state)
{
	(void)state;
	struct buf b = {0};
	repeats_put_list(&b, "-26708;-26712;-");
	assert_string_equal(b.s, "-26708,-26712,-");
	buf_free(&b);
	struct buf g = {0};
	repeats_put_list(&g, "1,049,708;1,049,712");
	assert_string_equal(g.s, "1,049,708;1,049,712");
	buf_free(&g);
}

/* A grouped entry is found and given back whole, not cut at its commas. */
static void test_lookup_grouped(void **state)
{
	(void)state;
	const char *spec = "3:7=-26708,-26712 3:21=1,049,708;1,049,712";
	const char *v;
	size_t len;
	assert_true(repeats_lookup(spec, 3, 21, &v, &len));
	assert_int_equal(len, strlen("1,049,708;1,049,712"));
	assert_memory_equal(v, "1,049,708;1,049,712", len);
	assert_true(repeats_lookup(spec, 3, 7, &v, &len));
	assert_memory_equal(v, "-26708,-26712", len);
	assert_false(repeats_lookup(spec, 3, 8, &v, &len));
}

/* The seal is the SHA-256 of the values, one LF and the stdout lines
 * joined, as evidence already committed records it (digests from
 * sha256sum): fed in pieces, it must come out the same. */
static void test_seal_digest(void **state)
{
	(void)state;
	char out[SHA256_HEX_LEN + 1];
	repeats_seal("3:21=1,049,708;1,049,712", "sum 1,049,708\nok\n", 17, out);
	assert_string_equal(out, "999b5823c3fd8d7bbcc16045adf66b3037908e4a6d0f7630cdbf77826a4cc99b");
	repeats_seal("1:1=1,2", "", 0, out);
	assert_string_equal(out, "3bffbc120414eb2838b7bf362b440c170ecd68139b08bd9e38524a41766d787e");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_values),
		cmocka_unit_test(test_seal_digest),
		cmocka_unit_test(test_every_number_capture_reads),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_separator),
		cmocka_unit_test(test_put_list),
		cmocka_unit_test(test_lookup_grouped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

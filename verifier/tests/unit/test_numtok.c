/*
 * test_numtok.c - the number tokenizer against every rule in numtok.h.
 *
 * Most tests state the whole tokenization of a text as the source spans of
 * its tokens joined by "|", so a token too many, too few or one byte off
 * fails the test.
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
#include <time.h>

#include "numtok.h"

#define THIN "\u2009"   /* THIN SPACE */
#define NNBSP "\u202F"  /* NARROW NO-BREAK SPACE */
#define NBSP "\u00A0"   /* NO-BREAK SPACE */
#define MINUS "\u2212"  /* MINUS SIGN */
#define MICRO "\u00B5"  /* MICRO SIGN */
#define MU "\u03BC"     /* GREEK SMALL LETTER MU */
#define TIMES "\u00D7"  /* MULTIPLICATION SIGN */

/* ---- helpers ---- */

/* The source text of every token of `text`, joined by "|". */
static void token_spans(const char *text, size_t len, char *out, size_t outlen)
{
	struct num_token *t;
	size_t n = numtok_scan(text, len, &t);
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(out + used, outlen - used, "%s%.*s", i ? "|" : "",
				 (int)(t[i].end - t[i].start), text + t[i].start);
		used += (size_t)w < outlen - used ? (size_t)w : outlen - used - 1;
	}
	free(t);
}

static void assert_spans(const char *text, const char *expected)
{
	char got[4096];
	token_spans(text, strlen(text), got, sizeof got);
	if (strcmp(got, expected) != 0)
		print_error("text: \"%s\"\n", text);
	assert_string_equal(got, expected);
}

static void assert_no_tokens(const char *text)
{
	assert_spans(text, "");
}

/* Scans text that must hold exactly one token and returns it. */
static struct num_token only_token(const char *text)
{
	struct num_token *t;
	size_t n = numtok_scan(text, strlen(text), &t);
	if (n != 1)
		print_error("text: \"%s\" gave %zu tokens\n", text, n);
	assert_int_equal(n, 1);
	struct num_token one = t[0];
	free(t);
	return one;
}

/* The first token of text; the text must hold at least one. */
static struct num_token first_token(const char *text)
{
	struct num_token *t;
	size_t n = numtok_scan(text, strlen(text), &t);
	assert_true(n >= 1);
	struct num_token one = t[0];
	free(t);
	return one;
}

/* ---- separators ---- */

static void test_comma_separator(void **state)
{
	(void)state;
	struct num_token t = only_token("1,049,187");
	assert_true(t.value == 1049187);
	assert_true(t.has_separator);
	assert_int_equal(t.decimals, 0);
	assert_int_equal(t.sig_digits, 7);
	assert_int_equal(t.start, 0);
	assert_int_equal(t.end, 9);
	assert_int_equal(t.digits_end, 9);
	assert_string_equal(t.unit, "");
}

static void test_thin_space_separator(void **state)
{
	(void)state;
	const char *text = "n = 1" THIN "049" THIN "187 rows";
	struct num_token t = only_token(text);
	assert_true(t.value == 1049187);
	assert_true(t.has_separator);
	assert_int_equal(t.start, 4);
	assert_int_equal(t.end, 4 + 1 + 3 + 3 + 3 + 3); /* each U+2009 is 3 bytes */
	assert_int_equal(t.sig_digits, 7);
}

static void test_narrow_nbsp_separator(void **state)
{
	(void)state;
	struct num_token t = only_token("70" NNBSP "320.5");
	assert_true(t.value == 70320.5);
	assert_true(t.has_separator);
	assert_int_equal(t.decimals, 1);
	assert_int_equal(t.end, strlen("70" NNBSP "320.5"));
}

static void test_plain_number_has_no_separator(void **state)
{
	(void)state;
	struct num_token t = only_token("1049187");
	assert_true(t.value == 1049187);
	assert_false(t.has_separator);
}

static void test_separated_number_with_decimals(void **state)
{
	(void)state;
	struct num_token t = only_token("-1,234.5");
	assert_true(t.value == -1234.5);
	assert_int_equal(t.decimals, 1);
	assert_int_equal(t.sig_digits, 5);
}

/* ---- decimals and significant digits ---- */

static void test_decimals_as_printed(void **state)
{
	(void)state;
	struct num_token t = only_token("1.810");
	assert_true(t.value == 1.81);
	assert_int_equal(t.decimals, 3);
	assert_int_equal(t.sig_digits, 4);
	assert_int_equal(only_token("0.325").decimals, 3);
	assert_int_equal(only_token("42").decimals, 0);
}

static void test_significant_digits(void **state)
{
	(void)state;
	assert_int_equal(only_token("0.0325").sig_digits, 3);
	assert_int_equal(only_token("1,200").sig_digits, 4);
	assert_int_equal(only_token("1200").sig_digits, 4);
	assert_int_equal(only_token("0").sig_digits, 1);
	assert_int_equal(only_token("0.00").sig_digits, 1);
	assert_int_equal(only_token("007").sig_digits, 1);
	assert_int_equal(only_token("10.50").sig_digits, 4);
}

/* ---- signs ---- */

static void test_minus_at_start_and_after_space(void **state)
{
	(void)state;
	struct num_token t = only_token("-5");
	assert_true(t.value == -5);
	assert_int_equal(t.start, 0);
	assert_int_equal(t.digits_start, 1);
	t = only_token("delta -0.25 s");
	assert_true(t.value == -0.25);
	assert_int_equal(t.start, 6);
	assert_string_equal(t.unit, "s");
	assert_true(only_token("\t-7").value == -7);
	assert_true(only_token("x\n-7").value == -7);
}

static void test_minus_after_parenthesis(void **state)
{
	(void)state;
	struct num_token t = only_token("(-3)");
	assert_true(t.value == -3);
	assert_int_equal(t.start, 1);
	assert_int_equal(t.end, 3);
}

static void test_unicode_minus_sign(void **state)
{
	(void)state;
	struct num_token t = only_token("(" MINUS "3.5%)");
	assert_true(t.value == -3.5);
	assert_int_equal(t.start, 1);
	assert_int_equal(t.digits_start, 4); /* U+2212 is 3 bytes */
	assert_string_equal(t.unit, "%");
	/* Glued to a letter, U+2212 is not a sign either. */
	t = only_token("a" MINUS "3");
	assert_true(t.value == 3);
}

static void test_plus_sign(void **state)
{
	(void)state;
	struct num_token t = only_token("gain +12%");
	assert_true(t.value == 12);
	assert_int_equal(t.start, 5);
	assert_int_equal(t.digits_start, 6);
	t = only_token("a+12");
	assert_true(t.value == 12);
	assert_int_equal(t.start, 2);
}

static void test_minus_elsewhere_is_not_a_sign(void **state)
{
	(void)state;
	struct num_token *t;
	size_t n = numtok_scan("10-20", 5, &t);
	assert_int_equal(n, 2);
	assert_true(t[0].value == 10 && t[1].value == 20);
	assert_false(t[0].hyphen_joined || t[1].hyphen_joined); /* a range, not a word */
	free(t);
	assert_true(only_token("x=-5").value == 5);
	assert_true(only_token("--5").value == 5);
	assert_true(only_token("- 5").value == 5);
	assert_int_equal(only_token("- 5").start, 2);
}

/* ---- units ---- */

static void test_every_unit_attached_and_spaced(void **state)
{
	(void)state;
	static const char *const units[] = {"%",  "percent", "ns", "us", MICRO "s", "ms",
					    "s",  "B",       "KB", "KiB", "MB",       "MiB",
					    "GB", "GiB",     "GB/s", "GiB/s", "TB/s", "MB/s"};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		char text[64];
		snprintf(text, sizeof text, "took 12.5%s.", units[i]);
		struct num_token t = only_token(text);
		assert_string_equal(t.unit, units[i]);
		assert_int_equal(t.digits_end, 9);
		assert_int_equal(t.end, 9 + strlen(units[i]));

		snprintf(text, sizeof text, "took 12.5 %s, then", units[i]);
		t = only_token(text);
		assert_string_equal(t.unit, units[i]);
		assert_int_equal(t.digits_end, 9);
		assert_int_equal(t.end, 10 + strlen(units[i]));
		assert_true(t.value == 12.5);
	}
}

static void test_unit_after_one_space_only(void **state)
{
	(void)state;
	struct num_token t = only_token("0.325 ms");
	assert_string_equal(t.unit, "ms");
	assert_int_equal(t.digits_end, 5);
	assert_int_equal(t.end, 8);
	t = only_token("0.325  ms");
	assert_string_equal(t.unit, "");
	assert_int_equal(t.end, 5);
	t = only_token("5" NBSP "ms");
	assert_string_equal(t.unit, "ms");
	assert_int_equal(t.end, 1 + 2 + 2);
	t = only_token("5" NNBSP "GB/s");
	assert_string_equal(t.unit, "GB/s");
}

static void test_unit_must_end_at_word_boundary(void **state)
{
	(void)state;
	struct num_token t = only_token("20 second");
	assert_string_equal(t.unit, "");
	assert_int_equal(t.end, 2);
	assert_string_equal(only_token("5 Bytes").unit, "");
	assert_string_equal(only_token("Figure 5 shows").unit, "");
	assert_string_equal(only_token("5 MB/sec").unit, "MB"); /* "MB" then "/" */
	assert_string_equal(only_token("5 GB/s.").unit, "GB/s");
	assert_string_equal(only_token("5 kb").unit, ""); /* units are case-sensitive */
}

static void test_percent(void **state)
{
	(void)state;
	assert_string_equal(only_token("16%").unit, "%");
	assert_string_equal(only_token("16 %").unit, "%");
	assert_string_equal(only_token("16 percent of").unit, "percent");
	assert_string_equal(only_token("16 percentage").unit, "");
	assert_string_equal(only_token("50%off").unit, "%"); /* % ends itself */
}

static void test_micro_sign_and_greek_mu(void **state)
{
	(void)state;
	struct num_token t = only_token("7" MICRO "s");
	assert_string_equal(t.unit, MICRO "s");
	assert_int_equal(t.end, 4);
	t = only_token("8 " MU "s");
	assert_string_equal(t.unit, MICRO "s"); /* one spelling for callers to compare */
	assert_int_equal(t.end, 5);
	assert_string_equal(only_token("9 us").unit, "us");
}

static void test_ratio_only_when_attached(void **state)
{
	(void)state;
	struct num_token t = only_token("1.25x faster");
	assert_string_equal(t.unit, "x");
	assert_int_equal(t.end, 5);
	t = only_token("1.25" TIMES " faster");
	assert_string_equal(t.unit, TIMES);
	assert_int_equal(t.end, 6);

	struct num_token *toks;
	size_t n = numtok_scan("3 x 4", 5, &toks);
	assert_int_equal(n, 2);
	assert_string_equal(toks[0].unit, "");
	assert_int_equal(toks[0].end, 1);
	assert_true(toks[1].value == 4);
	free(toks);
}

/* ---- hyphen-joined ---- */

static void test_hyphen_joined_after_number(void **state)
{
	(void)state;
	struct num_token t = only_token("a 4,096-element array");
	assert_true(t.value == 4096);
	assert_true(t.hyphen_joined);
	assert_true(t.has_separator);
	assert_string_equal(t.unit, "");
	assert_int_equal(t.end, 7);
}

static void test_hyphen_joined_before_number(void **state)
{
	(void)state;
	struct num_token t = only_token("stride-33");
	assert_true(t.value == 33); /* the hyphen is not a minus */
	assert_true(t.hyphen_joined);
	assert_int_equal(t.start, 7);
	t = only_token("stride-33 ms");
	assert_string_equal(t.unit, ""); /* hyphen-joined numbers carry no unit */
	assert_int_equal(t.end, 9);
	assert_false(only_token("stride 33").hyphen_joined);
}

/* ---- things that are not numbers ---- */

static void test_digits_glued_to_letters_or_underscores(void **state)
{
	(void)state;
	static const char *const glued[] = {"sm_75", "log2", "V12.6.85", "1.0f", "x86", "0x1F",
					    "2nd", "5_000", "_42", "caf\u00e95", "5\u00e9"};
	for (size_t i = 0; i < sizeof glued / sizeof glued[0]; i++)
		assert_no_tokens(glued[i]);
}

/* ---- sentence ends, offsets, input edges ---- */

static void test_sentence_ending_dot(void **state)
{
	(void)state;
	struct num_token t = only_token("The answer was 42.");
	assert_true(t.value == 42);
	assert_int_equal(t.end, 17);
	assert_int_equal(t.decimals, 0);
	t = only_token("It was 1,234.");
	assert_true(t.value == 1234);
	assert_int_equal(t.end, 12);
	t = only_token("It took 3.5 ms.");
	assert_true(t.value == 3.5);
	assert_int_equal(t.end, 14);
}

static void test_offsets_in_multibyte_text(void **state)
{
	(void)state;
	/* "→" is 3 bytes, "é" 2, "…" 3. */
	const char *text = "\u2192 d\u00e9j\u00e0 5 \u00b5s \u2026 6" TIMES " (" MINUS "1" THIN "000)";
	struct num_token *t;
	size_t n = numtok_scan(text, strlen(text), &t);
	assert_int_equal(n, 3);
	size_t five = strlen("\u2192 d\u00e9j\u00e0 ");
	assert_int_equal(t[0].start, five);
	assert_int_equal(t[0].digits_end, five + 1);
	assert_int_equal(t[0].end, five + 1 + 1 + 3);
	size_t six = five + strlen("5 \u00b5s \u2026 ");
	assert_int_equal(t[1].start, six);
	assert_int_equal(t[1].end, six + 1 + 2);
	size_t minus = six + strlen("6" TIMES " (");
	assert_int_equal(t[2].start, minus);
	assert_int_equal(t[2].digits_start, minus + 3);
	assert_int_equal(t[2].end, minus + 3 + 1 + 3 + 3);
	assert_true(t[2].value == -1000);
	free(t);
}

static void test_empty_input(void **state)
{
	(void)state;
	struct num_token *t = (struct num_token *)&t; /* any non-NULL value */
	assert_int_equal(numtok_scan(NULL, 0, &t), 0);
	assert_null(t);
	t = (struct num_token *)&t;
	assert_int_equal(numtok_scan("", 0, &t), 0);
	assert_null(t);
}

static void test_input_without_numbers(void **state)
{
	(void)state;
	struct num_token *t = (struct num_token *)&t;
	const char *text = "No numbers here, only words - and (signs) + punctuation.";
	assert_int_equal(numtok_scan(text, strlen(text), &t), 0);
	assert_null(t);
}

static void test_explicit_length_is_respected(void **state)
{
	(void)state;
	char text[] = {'1', '2', '3', '4', '5'}; /* not NUL-terminated */
	struct num_token *t;
	size_t n = numtok_scan(text, 3, &t);
	assert_int_equal(n, 1);
	assert_true(t[0].value == 123);
	assert_int_equal(t[0].end, 3);
	free(t);
	/* A NUL byte is just a byte that is not part of a number. */
	n = numtok_scan("5\0 6ms", 6, &t);
	assert_int_equal(n, 2);
	assert_true(t[0].value == 5 && t[1].value == 6);
	assert_string_equal(t[1].unit, "ms");
	free(t);
}

static void test_invalid_utf8_is_never_part_of_a_number(void **state)
{
	(void)state;
	struct num_token t = only_token("\xff" "-5");
	assert_true(t.value == 5);
	assert_int_equal(t.start, 2);
	assert_string_equal(only_token("5\xff" "ms").unit, "");
}

static void test_too_many_digits_are_not_read(void **state)
{
	(void)state;
	char text[NUMTOK_MAX_DIGITS + 8];
	/* 0.000...1 with NUMTOK_MAX_DIGITS digits is finite and read ... */
	memset(text, '0', NUMTOK_MAX_DIGITS + 1);
	text[1] = '.';
	text[NUMTOK_MAX_DIGITS] = '1';
	text[NUMTOK_MAX_DIGITS + 1] = '\0';
	struct num_token t = only_token(text);
	assert_int_equal(t.decimals, NUMTOK_MAX_DIGITS - 1);
	/* ... one digit more is not, nor an integer that overflows a double. */
	text[NUMTOK_MAX_DIGITS + 1] = '1';
	text[NUMTOK_MAX_DIGITS + 2] = '\0';
	assert_no_tokens(text);
	memset(text, '9', 320);
	text[320] = '\0';
	assert_no_tokens(text);
}

/* ---- exponent notation ---- */

static void test_exponent_is_read(void **state)
{
	(void)state;
	struct num_token t = only_token("4.2e+09");
	assert_true(t.value == 4.2e9);
	assert_true(t.has_exponent);
	assert_int_equal(t.exponent, 9);
	assert_int_equal(t.decimals, -8);
	assert_int_equal(t.sig_digits, 2);
	assert_int_equal(t.exponent_start, 3);
	assert_int_equal(t.digits_end, 7);
	t = only_token("1.5E-3");
	assert_true(t.value == 1.5e-3);
	assert_int_equal(t.decimals, 4);
	t = only_token("took 9.115e-05ms");
	assert_true(t.value == 9.115e-05);
	assert_int_equal(t.start, 5);
	assert_int_equal(t.digits_end, 14);
	assert_string_equal(t.unit, "ms");
	t = only_token("-2.5e-3");
	assert_true(t.value == -2.5e-3);
	/* the plain part of a number is unchanged by the new rule */
	t = only_token("1.810 ms");
	assert_false(t.has_exponent);
	assert_int_equal(t.exponent_start, t.digits_end);
}

static void test_exponent_traces_by_mantissa_digits(void **state)
{
	(void)state;
	struct num_token page = only_token("4.2e+09"), bank = only_token("4215000000");
	assert_true(numtok_traces_to(&page, &bank));
	page = only_token("9.99e+09");
	assert_false(numtok_traces_to(&page, &bank));
	page = only_token("4.22e9"); /* 4.215e9 rounds to 4.22e9 half away from zero */
	assert_true(numtok_traces_to(&page, &bank));
	page = only_token("4e9"); /* one significant digit does not trace by rounding */
	assert_false(numtok_traces_to(&page, &bank));
	/* both sides in exponent notation, and mixed the other way */
	page = only_token("9.12e-05");
	bank = only_token("9.115e-05ms");
	assert_true(numtok_traces_to(&page, &bank));
	page = only_token("0.0000912");
	assert_true(numtok_traces_to(&page, &bank));
	page = only_token("9.11e-05");
	assert_false(numtok_traces_to(&page, &bank));
}

static void test_exponent_formats_in_its_own_form(void **state)
{
	(void)state;
	const char *text = "4.2e+09";
	struct num_token like = only_token(text);
	char buf[64];
	assert_true(numtok_format_like(&like, text, 4.46e9, buf, sizeof buf) > 0);
	assert_string_equal(buf, "4.5e+09");
	assert_true(numtok_format_like(&like, text, 9.96e9, buf, sizeof buf) > 0);
	assert_string_equal(buf, "1.0e+10"); /* the mantissa stays in [1, 10) */
	assert_true(numtok_format_like(&like, text, 4.2e8, buf, sizeof buf) > 0);
	assert_string_equal(buf, "4.2e+08");
	text = "1.5E-3 ms";
	like = only_token(text);
	assert_true(numtok_format_like(&like, text, 2.25e-3, buf, sizeof buf) > 0);
	assert_string_equal(buf, "2.3E-3 ms");
	text = "9.115e-05ms";
	like = only_token(text);
	assert_true(numtok_format_like(&like, text, 1.2345e-4, buf, sizeof buf) > 0);
	assert_string_equal(buf, "1.235e-04ms");
}

static void test_megabyte_input_is_fast(void **state)
{
	(void)state;
	static const char chunk[] = "run 1,234.5 ms on sm_75, 2026-11-30 at 10:05 gives 12% of "
				    "580.159.04 (" MINUS "3) x86 4,096-element ";
	const size_t chunk_tokens = 4; /* 1,234.5 ms | 12% | −3 | 4,096 */
	const size_t size = 1u << 20;
	char *text = malloc(size);
	assert_non_null(text);
	size_t len = 0, expected = 0;
	while (len + sizeof chunk - 1 <= size / 2) {
		memcpy(text + len, chunk, sizeof chunk - 1);
		len += sizeof chunk - 1;
		expected += chunk_tokens;
	}
	memset(text + len, '7', size - len); /* then one half-megabyte run of digits */
	len = size;

	clock_t begin = clock();
	struct num_token *t;
	size_t n = numtok_scan(text, len, &t);
	double seconds = (double)(clock() - begin) / CLOCKS_PER_SEC;
	assert_int_equal(n, expected);
	assert_true(t[n - 1].value == 4096);
	assert_true(seconds < 5.0); /* linear: a quadratic scan takes minutes */
	free(t);

	memset(text, '1', size); /* digits only */
	n = numtok_scan(text, size, &t);
	assert_int_equal(n, 0);
	free(text);
}

static void test_megabyte_input_with_invalid_bytes_is_fast(void **state)
{
	(void)state;
	static const char chunk[] = "run \xff" "1,234.5 ms \xe2\x80 gives 12%\xc0 ";
	const size_t size = 1u << 20;
	char *text = malloc(size);
	assert_non_null(text);
	size_t len = 0, expected = 0;
	while (len + sizeof chunk - 1 <= size) {
		memcpy(text + len, chunk, sizeof chunk - 1);
		len += sizeof chunk - 1;
		expected += 2;
	}
	clock_t begin = clock();
	struct num_token *t;
	size_t n = numtok_scan(text, len, &t);
	double seconds = (double)(clock() - begin) / CLOCKS_PER_SEC;
	assert_int_equal(n, expected);
	assert_true(t[n - 2].value == 1234.5);
	assert_string_equal(t[n - 1].unit, "%");
	assert_true(seconds < 5.0);
	free(t);
	free(text);
}

static void test_patterns_can_be_released_and_rebuilt(void **state)
{
	(void)state;
	numtok_release_patterns();
	numtok_release_patterns(); /* twice is harmless */
	assert_true(only_token("after release 7").value == 7);
}

/* ---- traces_to ---- */

static bool traces(const char *page, const char *bank)
{
	struct num_token p = only_token(page), b = only_token(bank);
	return numtok_traces_to(&p, &b);
}

static void test_traces_by_rounding(void **state)
{
	(void)state;
	assert_true(traces("1.8", "1.798"));
	assert_true(traces("1.80", "1.798")); /* round(1.798, 2) = 1.80 */
	assert_false(traces("1.81", "1.798"));
	assert_false(traces("1.79", "1.798"));
	assert_true(traces("16", "16.2535"));
	assert_true(traces("1,049", "1049.187"));
	assert_true(traces("-1.8", "-1.798"));
	assert_false(traces("1.8", "-1.798"));
}

static void test_rounding_is_half_away_from_zero_on_decimals(void **state)
{
	(void)state;
	assert_true(traces("1.3", "1.25"));
	assert_false(traces("1.2", "1.25"));
	assert_true(traces("-1.3", "-1.25"));
	assert_false(traces("-1.2", "-1.25"));
	/* 1.005 is 1.00499999999999989... as a double; the printed decimal rounds up. */
	assert_true(traces("1.01", "1.005"));
	assert_false(traces("1.00", "1.005"));
	assert_true(traces("2.68", "2.675"));
}

static void test_one_significant_digit_does_not_trace(void **state)
{
	(void)state;
	assert_false(traces("2", "1.798"));
	assert_false(traces("0.03", "0.0325"));
	assert_false(traces("0.0", "0.03"));
	assert_true(traces("0.033", "0.0325"));
}

static void test_equal_values_trace(void **state)
{
	(void)state;
	assert_true(traces("1.25", "1.250"));
	assert_true(traces("1.250", "1.25"));
	assert_true(traces("1,049,187", "1049187"));
	assert_true(traces("2", "2.0"));
	assert_true(traces("7", "7")); /* equal needs no second significant digit */
	assert_false(traces("1.799", "1.8")); /* more decimals than the bank: must be equal */
	assert_false(traces("1.80", "1.81"));
	assert_true(traces("-0.0", "0"));
}

/* ---- format_like ---- */

static void assert_formats(const char *like_text, double value, const char *expected)
{
	struct num_token like = first_token(like_text);
	char buf[256];
	size_t n = numtok_format_like(&like, like_text, value, buf, sizeof buf);
	assert_string_equal(buf, expected);
	assert_int_equal(n, strlen(expected));
}

static void test_format_keeps_comma_grouping(void **state)
{
	(void)state;
	assert_formats("70,320", 2920, "2,920");
	assert_formats("70,320", 1049187, "1,049,187");
	assert_formats("70,320", 920, "920");
	assert_formats("70,320", 1000, "1,000");
	assert_formats("7032", 1049187, "1049187"); /* no separator when like had none */
}

static void test_format_keeps_unicode_separator(void **state)
{
	(void)state;
	assert_formats("70" THIN "320", 1234567, "1" THIN "234" THIN "567");
	assert_formats("70" NNBSP "320.5 ms", 1234.25, "1" NNBSP "234.3 ms");
}

static void test_format_keeps_decimals_and_unit(void **state)
{
	(void)state;
	assert_formats("1.25x", 0.9712, "0.97x");
	assert_formats("0.325 ms", 1.5, "1.500 ms");
	assert_formats("16 percent", 16.2535, "16 percent");
	assert_formats("8 " MU "s", 12, "12 " MU "s"); /* the unit's bytes as written */
	assert_formats("1.2", 0.25, "0.3");
	assert_formats("1.2", -0.25, "-0.3");
	assert_formats("1.00", 1.005, "1.01");
	assert_formats("5", 1e20, "100000000000000000000");
	assert_formats("0.001", 0.0000004, "0.000");
}

static void test_format_keeps_sign_style(void **state)
{
	(void)state;
	assert_formats("(" MINUS "3)", -4, MINUS "4");
	assert_formats("(" MINUS "3)", 4, "4");
	assert_formats("+4%", 5, "+5%");
	assert_formats("+4%", -5, "-5%");
	assert_formats("-5", 6, "6");
	assert_formats("1.00", -0.001, "0.00"); /* no negative zero */
}

static void test_format_refuses_what_cannot_be_written(void **state)
{
	(void)state;
	const char *text = "70,320";
	struct num_token like = only_token(text);
	char buf[6];
	assert_int_equal(numtok_format_like(&like, text, 1049187, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	assert_int_equal(numtok_format_like(&like, text, 70320, buf, sizeof buf), 0); /* 6 bytes + NUL */
	assert_int_equal(numtok_format_like(&like, text, 7032, buf, sizeof buf), 5);
	assert_string_equal(buf, "7,032");
	assert_int_equal(numtok_format_like(&like, text, INFINITY, buf, sizeof buf), 0);
	assert_int_equal(numtok_format_like(&like, text, NAN, buf, sizeof buf), 0);
	assert_int_equal(numtok_format_like(&like, text, 1, buf, 0), 0);
}

static int release_patterns(void **state)
{
	(void)state;
	numtok_release_patterns(); /* so LeakSanitizer sees a clean exit */
	return 0;
}

/* A line of more numbers than numtok_scan gathers on its stack (32):
 * every one comes back, in order, at its place. */
static void test_many_numbers_on_one_line(void **state)
{
	(void)state;
	char line[1024];
	size_t len = 0, want_start[100];
	for (int i = 0; i < 100; i++) {
		want_start[i] = len;
		len += (size_t)snprintf(line + len, sizeof line - len, "%d ", 1000 + i);
	}
	for (size_t n = 31; n <= 100; n += n < 34 ? 1 : 33) {
		size_t cut = n < 100 ? want_start[n] : len; /* the first n numbers */
		struct num_token *t;
		size_t got = numtok_scan(line, cut, &t);
		assert_int_equal(got, n);
		for (size_t i = 0; i < n; i++) {
			assert_true(t[i].value == 1000 + (double)i);
			assert_int_equal(t[i].start, want_start[i]);
		}
		free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_numbers_on_one_line),
		cmocka_unit_test(test_comma_separator),
		cmocka_unit_test(test_thin_space_separator),
		cmocka_unit_test(test_narrow_nbsp_separator),
		cmocka_unit_test(test_plain_number_has_no_separator),
		cmocka_unit_test(test_separated_number_with_decimals),
		cmocka_unit_test(test_decimals_as_printed),
		cmocka_unit_test(test_significant_digits),
		cmocka_unit_test(test_minus_at_start_and_after_space),
		cmocka_unit_test(test_minus_after_parenthesis),
		cmocka_unit_test(test_unicode_minus_sign),
		cmocka_unit_test(test_plus_sign),
		cmocka_unit_test(test_minus_elsewhere_is_not_a_sign),
		cmocka_unit_test(test_every_unit_attached_and_spaced),
		cmocka_unit_test(test_unit_after_one_space_only),
		cmocka_unit_test(test_unit_must_end_at_word_boundary),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_micro_sign_and_greek_mu),
		cmocka_unit_test(test_ratio_only_when_attached),
		cmocka_unit_test(test_hyphen_joined_after_number),
		cmocka_unit_test(test_hyphen_joined_before_number),
		cmocka_unit_test(test_digits_glued_to_letters_or_underscores),
		cmocka_unit_test(test_sentence_ending_dot),
		cmocka_unit_test(test_offsets_in_multibyte_text),
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_input_without_numbers),
		cmocka_unit_test(test_explicit_length_is_respected),
		cmocka_unit_test(test_invalid_utf8_is_never_part_of_a_number),
		cmocka_unit_test(test_too_many_digits_are_not_read),
		cmocka_unit_test(test_exponent_is_read),
		cmocka_unit_test(test_exponent_traces_by_mantissa_digits),
		cmocka_unit_test(test_exponent_formats_in_its_own_form),
		cmocka_unit_test(test_megabyte_input_is_fast),
		cmocka_unit_test(test_megabyte_input_with_invalid_bytes_is_fast),
		cmocka_unit_test(test_patterns_can_be_released_and_rebuilt),
		cmocka_unit_test(test_traces_by_rounding),
		cmocka_unit_test(test_rounding_is_half_away_from_zero_on_decimals),
		cmocka_unit_test(test_one_significant_digit_does_not_trace),
		cmocka_unit_test(test_equal_values_trace),
		cmocka_unit_test(test_format_keeps_comma_grouping),
		cmocka_unit_test(test_format_keeps_unicode_separator),
		cmocka_unit_test(test_format_keeps_decimals_and_unit),
		cmocka_unit_test(test_format_keeps_sign_style),
		cmocka_unit_test(test_format_refuses_what_cannot_be_written),
	};
	return cmocka_run_group_tests(tests, NULL, release_patterns);
}

/*
 * test_marker.c - classifying one HTML comment: every keyword with and
 * without its argument, the exact argument span, near misses with their
 * suggestion, author's notes, and each malformed shape; and the shape
 * read by hand against the shape read by the pattern (marker_parse
 * against marker_parse_pattern_only), on edge texts and generated ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "marker.h"
#include "re.h"

/* ---- helpers ---- */

static struct marker parse(const char *text)
{
	struct marker m;
	memset(&m, 0x5A, sizeof m); /* marker_parse must set every field */
	marker_parse(text, strlen(text), &m);
	return m;
}

/* The argument of m within text. */
static void arg_of(const char *text, const struct marker *m, char *out, size_t outlen)
{
	assert_true(m->arg_start <= m->arg_end);
	assert_true(m->arg_end <= strlen(text));
	snprintf(out, outlen, "%.*s", (int)(m->arg_end - m->arg_start), text + m->arg_start);
}

/* text is a well-formed marker of kind with argument arg ("" for none). */
static void assert_ok(const char *text, enum marker_kind kind, const char *arg)
{
	struct marker m = parse(text);
	if (m.status != MARKER_OK || m.kind != kind)
		print_error("\"%s\": kind %d status %d problem \"%s\"\n", text, m.kind, m.status, m.problem);
	assert_int_equal(m.status, MARKER_OK);
	assert_int_equal(m.kind, kind);
	char got[256];
	arg_of(text, &m, got, sizeof got);
	assert_string_equal(got, arg);
	assert_string_equal(m.problem, "");
	assert_string_equal(m.suggest, "");
}

/* ---- every keyword ---- */

static void test_snippet_argument_span(void **state)
{
	(void)state;
	const char *text = "<!-- snippet: scan_kernel -->";
	struct marker m = parse(text);
	assert_int_equal(m.arg_start, 14);
	assert_int_equal(m.arg_end, 25);
	/* spaces and tabs around the argument are not part of it */
	text = "<!--\tsnippet:   \t scan_kernel \t  -->";
	m = parse(text);
	assert_int_equal(m.status, MARKER_OK);
	assert_int_equal(m.arg_start, 18);
	assert_int_equal(m.arg_end, 29);
	/* nor is anything when there is no space at all */
	text = "<!--snippet:k-->";
	m = parse(text);
	assert_int_equal(m.status, MARKER_OK);
	assert_int_equal(m.kind, MK_SNIPPET);
	assert_int_equal(m.arg_start, 12);
	assert_int_equal(m.arg_end, 13);
}

static void test_transcript(void **state)
{
	(void)state;
	struct marker m = parse("<!-- transcript: cuda13 -->");
	assert_int_equal(m.arg_start, 17);
	assert_int_equal(m.arg_end, 23);
	m = parse("<!-- transcript -->");
	assert_int_equal(m.arg_start, m.arg_end);
}

static void test_quote(void **state)
{
	(void)state;
	const char *text = "<!-- quote: CUDA C++ Programming Guide, section 7.2 -->";
	assert_ok(text, MK_QUOTE, "CUDA C++ Programming Guide, section 7.2");
	struct marker m = parse(text);
	assert_int_equal(m.arg_start, 12);
	assert_int_equal(m.arg_end, strlen(text) - 4);
}

static void test_derive(void **state)
{
	(void)state;
	const char *text = "<!-- = 1049187 / 0.325e-3 / 1e9 -->";
	assert_ok(text, MK_DERIVE, "1049187 / 0.325e-3 / 1e9");
	struct marker m = parse(text);
	assert_int_equal(m.arg_start, 7);
	assert_int_equal(m.arg_end, 31);
}

static void test_cite(void **state)
{
	(void)state;
	struct marker m = parse("<!-- cite: day12-reduction -->");
	assert_int_equal(m.arg_start, 11);
	assert_int_equal(m.arg_end, 26);
}

/* ---- near misses ---- */

/* The place annotations and claims (issue 13). */
static void test_places_and_claims(void **state)
{
	(void)state;
	struct marker m = parse("<!-- claim: -->");
	assert_int_equal(m.status, MARKER_MALFORMED);
	assert_string_equal(m.problem, "the claim marker needs a claim (claim: [ROW | COLUMN] < [ROW | COLUMN])");
	m = parse("<!-- at: -->");
	assert_int_equal(m.status, MARKER_MALFORMED);
	assert_string_equal(m.problem, "the at marker needs an evidence place ([ROW | COLUMN] or [KEY])");
	m = parse("<!-- claims: 1 < 2 -->");
	assert_int_equal(m.status, MARKER_UNKNOWN);
	assert_string_equal(m.suggest, "<!-- claim: 1 < 2 -->");
	assert_true(marker_is_inline(MK_CLAIM) && marker_is_inline(MK_AT) && marker_is_inline(MK_DERIVE));
	assert_false(marker_is_inline(MK_TABLE) || marker_is_inline(MK_PLAIN));
}

/* ---- malformed markers ---- */

static void test_length_is_respected(void **state)
{
	(void)state;
	/* only text[0..len) is the comment */
	const char *text = "<!-- build --> and <!-- snippet: x -->";
	struct marker m;
	marker_parse(text, 14, &m);
	assert_int_equal(m.kind, MK_BUILD);
	assert_int_equal(m.status, MARKER_OK);
}

/* ---- kinds ---- */

static void test_marker_is_block(void **state)
{
	(void)state;
	assert_false(marker_is_block(MK_PLAIN));
	assert_true(marker_is_block(MK_SNIPPET));
	assert_true(marker_is_block(MK_TRANSCRIPT));
	assert_true(marker_is_block(MK_BUILD));
	assert_true(marker_is_block(MK_QUOTE));
	assert_true(marker_is_block(MK_MEASURED));
	assert_true(marker_is_block(MK_TABLE));
	assert_false(marker_is_block(MK_DERIVE));
	assert_false(marker_is_block(MK_CITE));
	assert_false(marker_is_block(MK_EXT));
}

static void test_marker_kind_name(void **state)
{
	(void)state;
	assert_string_equal(marker_kind_name(MK_PLAIN), "comment");
	assert_string_equal(marker_kind_name(MK_SNIPPET), "snippet");
	assert_string_equal(marker_kind_name(MK_TRANSCRIPT), "transcript");
	assert_string_equal(marker_kind_name(MK_BUILD), "build");
	assert_string_equal(marker_kind_name(MK_QUOTE), "quote");
	assert_string_equal(marker_kind_name(MK_MEASURED), "measured");
	assert_string_equal(marker_kind_name(MK_TABLE), "table");
	assert_string_equal(marker_kind_name(MK_DERIVE), "=");
	assert_string_equal(marker_kind_name(MK_CITE), "cite");
	assert_string_equal(marker_kind_name(MK_EXT), "ext");
}

static int release_patterns(void **state)
{
	(void)state;
	re_release_all();
	return 0;
}

/* ---- the hand reading against the pattern ---- */

static void assert_same_as_pattern(const char *text, size_t len)
{
	struct marker a, b;
	memset(&a, 0x5A, sizeof a);
	memset(&b, 0xA5, sizeof b);
	marker_parse(text, len, &a);
	marker_parse_pattern_only(text, len, &b);
	bool same = a.kind == b.kind && a.status == b.status && a.arg_start == b.arg_start && a.arg_end == b.arg_end &&
		    strcmp(a.problem, b.problem) == 0 && strcmp(a.suggest, b.suggest) == 0;
	if (!same)
		print_error("text: \"%.*s\": hand %d/%d [%zu,%zu) '%s', pattern %d/%d [%zu,%zu) '%s'\n", (int)len, text,
			    a.kind, a.status, a.arg_start, a.arg_end, a.problem, b.kind, b.status, b.arg_start, b.arg_end,
			    b.problem);
	assert_true(same);
}

/* The edges of the hand reading: where the keyword stops before the
 * closing "-->", blanks and ':' around it, a closing line break, text
 * that is not a comment at both ends, overlapping ends. */
static void test_hand_shape_edges(void **state)
{
	(void)state;
	static const char *const edges[] = {
		"<!--a-->", "<!--ab-c-->", "<!--note-->", "<!-- note-- -->", "<!--claim:-->", "<!-- claim : [a] < [b] -->",
		"<!--\tat:\t[x]\t-->", "<!-- = 1 + 2 -->", "<!--=-->", "<!--==-->", "<!-- =: x -->", "<!-- -->", "<!---->",
		"<!--->", "<!-->", "<!-- at: [x] -->\n", "<!-- at: [x] -->\r\n", "<!-- at: [x] -->x", "x<!-- at -->",
		"<!-- at: [x] --> -->", "<!-- at: a -- b -->", "<!-- snipet: k -->", "<!-- 5 -->", "<!-- _a -->",
		"<!-- a_b-c: d -->", "<!-- at: \xC2\xB5s -->", "<!-- at: \xFF -->", "<!-- at:\n[x] -->",
		"<!-- transcript -->", "<!-- build: x -->", "<!-- at [x] -->", "<!--at:[x]-->", "<!-- at:  -->",
		"<!-- quote -->", "<!-- range: [a] -->",
	};
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
		if (!strstr(edges[i], "\xFF")) /* the pattern refuses invalid UTF-8 loudly: both do */
			assert_same_as_pattern(edges[i], strlen(edges[i]));
}

static void test_hand_shape_generated(void **state)
{
	(void)state;
	static const char *const pieces[] = {
		"<!--", "-->", " ", "\t", ":", "=", "-", "_", "a", "at", "claim", "cite", "range", "snippet", "build",
		"[x | y]", "1", "\n", "--", ">", "<", "note", "Z", "\xC2\xB5",
	};
	uint64_t x = 0x9E3779B97F4A7C15u;
	char text[256];
	for (int round = 0; round < 200000; round++) {
		size_t len = 0;
		/* most texts shaped like comments: an opening, pieces, a closing */
		bool framed = round % 4 != 0;
		if (framed) {
			memcpy(text, "<!--", 4);
			len = 4;
		}
		x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
		size_t count = (x * 0x2545F4CB4F6CDD1Du) % 10;
		for (size_t k = 0; k < count; k++) {
			x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
			const char *p = pieces[(x * 0x2545F4CB4F6CDD1Du) % (sizeof pieces / sizeof pieces[0])];
			memcpy(text + len, p, strlen(p));
			len += strlen(p);
		}
		if (framed) {
			memcpy(text + len, "-->", 3);
			len += 3;
		}
		assert_same_as_pattern(text, len);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snippet_argument_span),
		cmocka_unit_test(test_transcript),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_cite),
		cmocka_unit_test(test_places_and_claims),
		cmocka_unit_test(test_length_is_respected),
		cmocka_unit_test(test_marker_is_block),
		cmocka_unit_test(test_marker_kind_name),
		cmocka_unit_test(test_hand_shape_edges),
		cmocka_unit_test(test_hand_shape_generated),
	};
	return cmocka_run_group_tests(tests, NULL, release_patterns);
}

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

/* text is an ordinary comment. */
static void assert_plain(const char *text)
{
	struct marker m = parse(text);
	if (m.kind != MK_PLAIN || m.status != MARKER_OK)
		print_error("\"%s\": kind %d status %d problem \"%s\"\n", text, m.kind, m.status, m.problem);
	assert_int_equal(m.kind, MK_PLAIN);
	assert_int_equal(m.status, MARKER_OK);
	assert_string_equal(m.problem, "");
	assert_string_equal(m.suggest, "");
}

static void assert_unknown(const char *text, enum marker_kind nearest, const char *problem, const char *suggest)
{
	struct marker m = parse(text);
	if (m.status != MARKER_UNKNOWN)
		print_error("\"%s\": kind %d status %d\n", text, m.kind, m.status);
	assert_int_equal(m.status, MARKER_UNKNOWN);
	assert_int_equal(m.kind, nearest);
	assert_string_equal(m.problem, problem);
	assert_string_equal(m.suggest, suggest);
}

static void assert_malformed(const char *text, enum marker_kind kind, const char *problem, const char *suggest)
{
	struct marker m = parse(text);
	if (m.status != MARKER_MALFORMED)
		print_error("\"%s\": kind %d status %d\n", text, m.kind, m.status);
	assert_int_equal(m.status, MARKER_MALFORMED);
	assert_int_equal(m.kind, kind);
	assert_string_equal(m.problem, problem);
	assert_string_equal(m.suggest, suggest);
}

/* ---- every keyword ---- */

static void test_snippet_name_and_path(void **state)
{
	(void)state;
	assert_ok("<!-- snippet: scan_kernel -->", MK_SNIPPET, "scan_kernel");
	assert_ok("<!-- snippet: programs/day31-scan-1/scan.cu#scan_kernel -->", MK_SNIPPET,
		  "programs/day31-scan-1/scan.cu#scan_kernel");
}

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
	assert_ok("<!-- transcript -->", MK_TRANSCRIPT, "");
	assert_ok("<!-- transcript: cuda13 -->", MK_TRANSCRIPT, "cuda13");
	struct marker m = parse("<!-- transcript: cuda13 -->");
	assert_int_equal(m.arg_start, 17);
	assert_int_equal(m.arg_end, 23);
	m = parse("<!-- transcript -->");
	assert_int_equal(m.arg_start, m.arg_end);
}

static void test_build(void **state)
{
	(void)state;
	assert_ok("<!-- build -->", MK_BUILD, "");
	assert_ok("<!--build-->", MK_BUILD, "");
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

static void test_measured(void **state)
{
	(void)state;
	assert_ok("<!-- measured -->", MK_MEASURED, "");
	assert_ok("<!-- measured: cuda13 -->", MK_MEASURED, "cuda13");
}

static void test_table(void **state)
{
	(void)state;
	assert_ok("<!-- table -->", MK_TABLE, "");
	assert_ok("<!-- table: cuda13 -->", MK_TABLE, "cuda13");
}

static void test_derive(void **state)
{
	(void)state;
	const char *text = "<!-- = 1049187 / 0.325e-3 / 1e9 -->";
	assert_ok(text, MK_DERIVE, "1049187 / 0.325e-3 / 1e9");
	struct marker m = parse(text);
	assert_int_equal(m.arg_start, 7);
	assert_int_equal(m.arg_end, 31);
	assert_ok("<!--=2*3-->", MK_DERIVE, "2*3");
}

static void test_cite(void **state)
{
	(void)state;
	assert_ok("<!-- cite: day12-reduction -->", MK_CITE, "day12-reduction");
	struct marker m = parse("<!-- cite: day12-reduction -->");
	assert_int_equal(m.arg_start, 11);
	assert_int_equal(m.arg_end, 26);
}

static void test_ext(void **state)
{
	(void)state;
	assert_ok("<!-- ext: H200 datasheet, memory bandwidth -->", MK_EXT, "H200 datasheet, memory bandwidth");
	/* a missing reason is for the number checks (ext-no-reason), not a parse error */
	assert_ok("<!-- ext: -->", MK_EXT, "");
	assert_ok("<!-- ext -->", MK_EXT, "");
}

/* ---- near misses ---- */

/* The place annotations and claims (issue 13). */
static void test_places_and_claims(void **state)
{
	(void)state;
	assert_ok("<!-- at: [256 | scan adds] -->", MK_AT, "[256 | scan adds]");
	assert_ok("<!-- range: [64 inclusive, in place | mismatches] -->", MK_RANGE, "[64 inclusive, in place | mismatches]");
	assert_ok("<!-- min: [repeats] -->", MK_MIN, "[repeats]");
	assert_ok("<!-- max: [repeats] -->", MK_MAX, "[repeats]");
	assert_ok("<!-- one-run -->", MK_ONE_RUN, "");
	assert_ok("<!-- one-run: [a | b] -->", MK_ONE_RUN, "[a | b]");
	assert_ok("<!-- claim: [a | b] < [c | d] -->", MK_CLAIM, "[a | b] < [c | d]");
	struct marker m = parse("<!-- claim: -->");
	assert_int_equal(m.status, MARKER_MALFORMED);
	assert_string_equal(m.problem, "the claim marker needs a claim (claim: [ROW | COLUMN] < [ROW | COLUMN])");
	m = parse("<!-- at: -->");
	assert_int_equal(m.status, MARKER_MALFORMED);
	assert_string_equal(m.problem, "the at marker needs an evidence place ([ROW | COLUMN] or [KEY])");
	/* short place words are never suggested for an author's short words */
	assert_plain("<!-- a note -->");
	assert_plain("<!-- an aside -->");
	assert_plain("<!-- mix: later -->");
	m = parse("<!-- claims: 1 < 2 -->");
	assert_int_equal(m.status, MARKER_UNKNOWN);
	assert_string_equal(m.suggest, "<!-- claim: 1 < 2 -->");
	assert_true(marker_is_inline(MK_CLAIM) && marker_is_inline(MK_AT) && marker_is_inline(MK_DERIVE));
	assert_false(marker_is_inline(MK_TABLE) || marker_is_inline(MK_PLAIN));
}

static void test_unknown_with_suggestion(void **state)
{
	(void)state;
	assert_unknown("<!-- snipet: scan_kernel -->", MK_SNIPPET, "'snipet' is not a marker",
		       "<!-- snippet: scan_kernel -->");
	assert_unknown("<!-- transcrpt -->", MK_TRANSCRIPT, "'transcrpt' is not a marker", "<!-- transcript -->");
	assert_unknown("<!-- transcrpt: cuda13 -->", MK_TRANSCRIPT, "'transcrpt' is not a marker",
		       "<!-- transcript: cuda13 -->");
	assert_unknown("<!-- tabel -->", MK_TABLE, "'tabel' is not a marker", "<!-- table -->");
	assert_unknown("<!-- tabel: cuda13 -->", MK_TABLE, "'tabel' is not a marker", "<!-- table: cuda13 -->");
	assert_unknown("<!-- Snippet: scan_kernel -->", MK_SNIPPET, "'Snippet' is not a marker",
		       "<!-- snippet: scan_kernel -->");
	assert_unknown("<!-- mesured -->", MK_MEASURED, "'mesured' is not a marker", "<!-- measured -->");
	assert_unknown("<!-- Build -->", MK_BUILD, "'Build' is not a marker", "<!-- build -->");
}

static void test_authors_notes_are_plain(void **state)
{
	(void)state;
	assert_plain("<!-- note: x -->");
	assert_plain("<!-- TODO fix -->");
	assert_plain("<!-- TODO: check this number against the H200 run -->");
	assert_plain("<!-- This paragraph needs a figure. -->");
	assert_plain("<!-- -->");
	assert_plain("<!---->");
	assert_plain("<!-- 42 -->");
	assert_plain("<!-- #region -->");
	assert_plain("<!--\nsome lines\nof notes\n-->");
}

/* ---- malformed markers ---- */

static void test_argument_without_colon(void **state)
{
	(void)state;
	assert_malformed("<!-- transcript x -->", MK_TRANSCRIPT, "'transcript' must be followed by ':' before its argument",
			 "<!-- transcript: x -->");
	assert_malformed("<!-- snippet scan_kernel -->", MK_SNIPPET,
			 "'snippet' must be followed by ':' before its argument", "<!-- snippet: scan_kernel -->");
}

static void test_build_takes_no_argument(void **state)
{
	(void)state;
	assert_malformed("<!-- build: x -->", MK_BUILD, "the build marker takes no argument", "<!-- build -->");
	assert_malformed("<!-- build x -->", MK_BUILD, "the build marker takes no argument", "<!-- build -->");
	assert_malformed("<!-- build: -->", MK_BUILD, "the build marker takes no argument", "<!-- build -->");
}

static void test_required_argument_missing(void **state)
{
	(void)state;
	assert_malformed("<!-- snippet: -->", MK_SNIPPET,
			 "the snippet marker needs a snippet name (snippet: NAME or snippet: PATH#NAME)", "");
	assert_malformed("<!-- snippet -->", MK_SNIPPET,
			 "the snippet marker needs a snippet name (snippet: NAME or snippet: PATH#NAME)", "");
	assert_malformed("<!-- quote: -->", MK_QUOTE,
			 "the quote marker needs the source of the quotation (quote: WHERE IT COMES FROM)", "");
	assert_malformed("<!-- cite -->", MK_CITE, "the cite marker needs a lesson id (cite: LESSON)", "");
	assert_malformed("<!-- = -->", MK_DERIVE, "the = marker needs an expression (= EXPR)", "");
}

static void test_double_dash_inside(void **state)
{
	(void)state;
	assert_malformed("<!-- snippet: scan--kernel -->", MK_SNIPPET, "a marker must not hold '--' before its end", "");
	assert_malformed("<!-- = 10 -- 3 -->", MK_DERIVE, "a marker must not hold '--' before its end", "");
	/* a single dash is fine */
	assert_ok("<!-- cite: day12-reduction -->", MK_CITE, "day12-reduction");
}

static void test_multi_line_marker(void **state)
{
	(void)state;
	/* one wrapped line: the joined marker is the suggestion */
	assert_malformed("<!-- snippet: scan\n     kernel -->", MK_SNIPPET,
			 "this snippet marker is not closed on its line: it runs on to the '-->' 1 line below (what "
			 "stands between is hidden from the page)",
			 "<!-- snippet: scan kernel -->");
	assert_malformed("<!-- quote: NVIDIA CUDA Guide,\nsection 7.2 -->", MK_QUOTE,
			 "this quote marker is not closed on its line: it runs on to the '-->' 1 line below (what "
			 "stands between is hidden from the page)",
			 "<!-- quote: NVIDIA CUDA Guide, section 7.2 -->");
	assert_malformed("<!-- build\n-->", MK_BUILD,
			 "this build marker is not closed on its line: it runs on to the '-->' 1 line below (what "
			 "stands between is hidden from the page)",
			 "<!-- build -->");
	/* an unclosed marker hiding lines: only its own line is suggested */
	assert_malformed("<!-- snippet: add\n```cuda\nx\n```\n-->", MK_SNIPPET,
			 "this snippet marker is not closed on its line: it runs on to the '-->' 4 lines below (what "
			 "stands between is hidden from the page)",
			 "<!-- snippet: add -->");
}

static void test_derive_with_colon(void **state)
{
	(void)state;
	assert_malformed("<!-- =: x -->", MK_DERIVE, "a derivation is written '<!-- = EXPR -->', without ':'", "");
	assert_malformed("<!-- = : 2*3 -->", MK_DERIVE, "a derivation is written '<!-- = EXPR -->', without ':'", "");
}

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
		cmocka_unit_test(test_snippet_name_and_path),
		cmocka_unit_test(test_snippet_argument_span),
		cmocka_unit_test(test_transcript),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_measured),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_cite),
		cmocka_unit_test(test_ext),
		cmocka_unit_test(test_places_and_claims),
		cmocka_unit_test(test_unknown_with_suggestion),
		cmocka_unit_test(test_authors_notes_are_plain),
		cmocka_unit_test(test_argument_without_colon),
		cmocka_unit_test(test_build_takes_no_argument),
		cmocka_unit_test(test_required_argument_missing),
		cmocka_unit_test(test_double_dash_inside),
		cmocka_unit_test(test_multi_line_marker),
		cmocka_unit_test(test_derive_with_colon),
		cmocka_unit_test(test_length_is_respected),
		cmocka_unit_test(test_marker_is_block),
		cmocka_unit_test(test_marker_kind_name),
		cmocka_unit_test(test_hand_shape_edges),
		cmocka_unit_test(test_hand_shape_generated),
	};
	return cmocka_run_group_tests(tests, NULL, release_patterns);
}

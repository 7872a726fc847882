/*
 * test_rawalign.c - decoded text placed back in raw bytes (rawalign.h),
 * what a raw HTML block shows (htmltext.h), and whether a derivation
 * rests on its evidence (anchor.h), point by point as their headers say.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anchor.h"
#include "htmltext.h"
#include "html5ent.h"
#include "rawalign.h"

/* The raw bytes of each piece, joined: what the text was written as. */
static void assert_pieces_cover(const char *raw, const char *lit, const struct rawalign_piece *pc, size_t n)
{
	size_t lit_at = 0;
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(pc[i].lit_off, lit_at);
		if (pc[i].verbatim)
			assert_memory_equal(raw + pc[i].raw_off, lit + pc[i].lit_off, pc[i].lit_len);
		lit_at += pc[i].lit_len;
		if (i)
			assert_true(pc[i].raw_off >= pc[i - 1].raw_off + pc[i - 1].raw_len);
	}
	assert_int_equal(lit_at, strlen(lit));
}

static void test_entity_and_escape_keep_columns(void **state)
{
	(void)state;
	const char *raw = "The racy &amp; co. get 70,320 \\*wrong\\* &#44;x &#x39; &eacute;.";
	const char *lit = "The racy & co. get 70,320 *wrong* ,x 9 \xc3\xa9.";
	struct rawalign_piece *pc;
	size_t end;
	size_t n = rawalign(raw, 0, strlen(raw), lit, strlen(lit), &pc, &end);
	assert_true(n > 1);
	assert_pieces_cover(raw, lit, pc, n);
	assert_int_equal(end, strlen(raw));
	/* "70,320" sits where the page has it */
	const char *num = strstr(lit, "70,320");
	size_t at = (size_t)(num - lit);
	size_t k = 0;
	while (!(pc[k].lit_off <= at && at < pc[k].lit_off + pc[k].lit_len))
		k++;
	assert_true(pc[k].verbatim);
	assert_int_equal(pc[k].raw_off + (at - pc[k].lit_off), (size_t)(strstr(raw, "70,320") - raw));
	/* the reference is its own decoded piece */
	size_t decoded = 0;
	for (size_t i = 0; i < n; i++)
		decoded += !pc[i].verbatim;
	assert_int_equal(decoded, 6); /* &amp; \* \* &#44; &#x39; &eacute; */
	free(pc);
}

static void test_html5_names_keep_columns(void **state)
{
	(void)state;
	/* HTML5-only names, as cmark-gfm decodes them (html5ent.h): one code
	 * point, two, and two ASCII letters; the number after them keeps its
	 * column */
	const char *raw = "ok &check; &NotEqualTilde; &fjlig; took 0.325 ms";
	const char *lit = "ok \xe2\x9c\x93 \xe2\x89\x82\xcc\xb8 fj took 0.325 ms";
	struct rawalign_piece *pc;
	size_t end;
	size_t n = rawalign(raw, 0, strlen(raw), lit, strlen(lit), &pc, &end);
	assert_true(n > 1);
	assert_pieces_cover(raw, lit, pc, n);
	size_t at = (size_t)(strstr(lit, "0.325") - lit), k = 0;
	while (!(pc[k].lit_off <= at && at < pc[k].lit_off + pc[k].lit_len))
		k++;
	assert_true(pc[k].verbatim);
	assert_int_equal(pc[k].raw_off + (at - pc[k].lit_off), (size_t)(strstr(raw, "0.325") - raw));
	free(pc);
	/* the table's ends and a name one letter off */
	const char *text;
	assert_int_equal(html5ent_lookup("AElig", 5, &text), 2);
	assert_int_equal(html5ent_lookup("zwnj", 4, &text), 3);
	assert_int_equal(html5ent_lookup("amp", 3, &text), 1);
	assert_int_equal(text[0], '&');
	assert_int_equal(html5ent_lookup("am", 2, &text), 0);
	assert_int_equal(html5ent_lookup("ampx", 4, &text), 0);
	assert_int_equal(html5ent_lookup("CHECK", 5, &text), 0);
}

static void test_not_found_and_bounds(void **state)
{
	(void)state;
	struct rawalign_piece *pc = (void *)1;
	size_t end;
	/* a name HTML5 does not have is not aligned */
	const char *raw = "a &NotAnEntity; b";
	assert_int_equal(rawalign(raw, 0, strlen(raw), "a ? b", 5, &pc, &end), 0);
	assert_null(pc);
	/* the limit is never passed: the text runs one byte past it */
	assert_int_equal(rawalign("abcd", 0, 3, "abcd", 4, &pc, &end), 0);
	assert_int_equal(rawalign("x &amp;", 0, 6, "x &", 3, &pc, &end), 1); /* "&amp" cut: a plain '&' */
	assert_true(pc[0].verbatim && end == 3);
	free(pc);
	/* nor is an empty text found */
	assert_int_equal(rawalign("abc", 0, 3, "", 0, &pc, &end), 0);
	char u[8];
	size_t ul;
	assert_int_equal(rawalign_reference("&#0;", 0, 4, u, &ul), 4);
	assert_int_equal(ul, 3); /* U+FFFD */
	assert_int_equal(rawalign_reference("&#xD800;", 0, 8, u, &ul), 8);
	assert_memory_equal(u, "\xef\xbf\xbd", 3);
	assert_int_equal(rawalign_reference("&#;", 0, 3, u, &ul), 0);
	assert_int_equal(rawalign_reference("&amp", 0, 4, u, &ul), 0);
}

static size_t count_kind(const struct htmltext *ht, enum htmltext_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < ht->n; i++)
		n += ht->v[i].kind == k;
	return n;
}

static void test_html_text_placed(void **state)
{
	(void)state;
	const char *raw = "<div><p>The kernel takes <b>1.8</b> ms &amp; <code>256</code>.</p>"
			  "<script>var x = 99999;</script><td>1</td><td>2</td><!-- = 1 --></div>";
	struct htmltext ht;
	htmltext_read(raw, strlen(raw), raw, 0, strlen(raw), &ht);
	assert_false(ht.unreadable);
	int saw_number = 0, saw_script = 0;
	for (size_t i = 0; i < ht.n; i++) {
		const struct htmltext_item *it = &ht.v[i];
		const char *s = ht.text + it->off;
		if (it->kind == HTMLTEXT_TEXT && it->len == 3 && memcmp(s, "1.8", 3) == 0) {
			saw_number = 1;
			assert_int_equal(it->raw_off, (size_t)(strstr(raw, "1.8") - raw));
		}
		if (it->len && memmem(s, it->len, "99999", 5))
			saw_script = 1;
		if (it->kind == HTMLTEXT_TEXT && !it->decoded && it->raw_off != SIZE_MAX)
			assert_memory_equal(raw + it->raw_off, s, it->len);
	}
	assert_true(saw_number);
	assert_false(saw_script); /* never shown, never read */
	assert_int_equal(count_kind(&ht, HTMLTEXT_CODE), 1);
	assert_int_equal(count_kind(&ht, HTMLTEXT_COMMENT), 1);
	/* 1 and 2 in two cells are never one number: a break between them */
	size_t one = SIZE_MAX, two = SIZE_MAX;
	for (size_t i = 0; i < ht.n; i++) {
		if (ht.v[i].kind == HTMLTEXT_TEXT && ht.v[i].len == 1 && ht.text[ht.v[i].off] == '1')
			one = i;
		if (ht.v[i].kind == HTMLTEXT_TEXT && ht.v[i].len == 1 && ht.text[ht.v[i].off] == '2')
			two = i;
	}
	assert_true(one != SIZE_MAX && two == one + 2 && ht.v[one + 1].kind == HTMLTEXT_BREAK);
	htmltext_free(&ht);
}

static void test_html_deep_is_unreadable(void **state)
{
	(void)state;
	size_t n = 400;
	char *raw = malloc(n * 13 + 16);
	assert_non_null(raw);
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(raw + len, "<span>");
	len += (size_t)sprintf(raw + len, "9.99");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(raw + len, "</span>");
	struct htmltext ht;
	htmltext_read(raw, len, raw, 0, len, &ht);
	assert_true(ht.unreadable);
	assert_true(ht.why[0] != '\0');
	assert_int_equal(ht.n, 0);
	htmltext_free(&ht);
	free(raw);
}

static enum anchor_verdict judge(const char *text, const bool *anchored)
{
	struct expr_result r;
	assert_int_equal(expr_eval(text, strlen(text), &r), 0);
	enum anchor_verdict v = anchor_judge(text, strlen(text), &r, anchored);
	expr_result_free(&r);
	return v;
}

static void test_anchor(void **state)
{
	(void)state;
	bool none[8] = {0};
	assert_int_equal(judge("32 + 8 + 2 + 1/2", none), ANCHOR_NONE);
	assert_int_equal(judge("99 * 99", none), ANCHOR_NONE);
	bool first[8] = {true};
	assert_int_equal(judge("1.798 / 0.325", first), ANCHOR_OK);
	bool both[8] = {true, true};
	/* the evidence number cancels itself out */
	assert_int_equal(judge("0.325 / 0.325 * 64 + 8", both), ANCHOR_CANCELS);
	/* ...and only the same value scales together */
	assert_int_equal(judge("1.798 / 0.325 * 64", both), ANCHOR_OK);
	assert_int_equal(judge("1024 * 0 + 42", first), ANCHOR_CANCELS);
	assert_int_equal(judge("100 * 70320 / 1049187", (bool[8]){false, true, true}), ANCHOR_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entity_and_escape_keep_columns),
		cmocka_unit_test(test_html5_names_keep_columns),
		cmocka_unit_test(test_not_found_and_bounds),
		cmocka_unit_test(test_html_text_placed),
		cmocka_unit_test(test_html_deep_is_unreadable),
		cmocka_unit_test(test_anchor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_review_page.c - the review page's parts that are functions: the
 * characters two lines differ in (review_diff_chars: prefix and suffix,
 * the LCS in between, the cap on long lines, UTF-8 kept whole), a
 * diagnostic's diff rendered with its changed characters marked, the item
 * ids (review_item_id_of), and the approvals hook: a page rendered with a
 * lookup that says one claim is approved and one reopened shows the
 * badge, the old and new values, and "approve again" (a mock of what the
 * sign-off fills).  With REVIEW_PAGE_HTML set, that page is also written
 * there (the browser test's screenshot of a reopened claim).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "course.h"
#include "diag.h"
#include "repo.h"
#include "review.h"
#include "review_diff.h"
#include "util.h"

static char *marks(const char *a, const char *b)
{
	size_t an = strlen(a), bn = strlen(b);
	bool *am = xcalloc(an + 1, 1), *bm = xcalloc(bn + 1, 1);
	review_diff_chars(a, an, b, bn, am, bm);
	struct buf out = {0};
	review_diff_put_marked(&out, a, an, am, false);
	buf_puts(&out, " | ");
	review_diff_put_marked(&out, b, bn, bm, true);
	free(am);
	free(bm);
	return buf_detach(&out);
}

static void chars(void **state)
{
	(void)state;
	char *s = marks("c[i] = a[i] + b[i];", "c[i] = a[i] - b[i];");
	assert_string_equal(s, "c[i] = a[i] <del>+</del> b[i]; | c[i] = a[i] <ins>-</ins> b[i];");
	free(s);
	s = marks("256  add, plain  0  0.325", "256  add, plain  1  0.325");
	assert_string_equal(s, "256  add, plain  <del>0</del>  0.325 | 256  add, plain  <ins>1</ins>  0.325");
	free(s);
	/* in the middle, the longest common subsequence */
	s = marks("x 1.798 ms y", "x 1.8 ms y");
	assert_string_equal(s, "x 1.<del>79</del>8 ms y | x 1.8 ms y");
	free(s);
	s = marks("same", "same");
	assert_string_equal(s, "same | same");
	free(s);
	s = marks("", "new");
	assert_string_equal(s, " | <ins>new</ins>");
	free(s);
	/* UTF-8: a changed character is marked whole (é vs è share a lead byte) */
	s = marks("caf\xC3\xA9!", "caf\xC3\xA8!");
	assert_string_equal(s, "caf<del>\xC3\xA9</del>! | caf<ins>\xC3\xA8</ins>!");
	free(s);
	/* escaped */
	s = marks("a<b", "a>b");
	assert_string_equal(s, "a<del>&lt;</del>b | a<ins>&gt;</ins>b");
	free(s);
}

/* Past the cap, the middle is marked whole, in time linear in the line. */
static void long_lines(void **state)
{
	(void)state;
	size_t n = 200000;
	char *a = xmalloc(n + 1), *b = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++) {
		a[i] = (char)('a' + i % 26);
		b[i] = (char)('a' + (i * 7) % 26);
	}
	a[n] = b[n] = '\0';
	a[0] = b[0] = 'X';
	bool *am = xcalloc(n, 1), *bm = xcalloc(n, 1);
	review_diff_chars(a, n, b, n, am, bm);
	assert_false(am[0]);
	assert_true(am[1]);
	assert_true(bm[n / 2]);
	free(am);
	free(bm);
	free(a);
	free(b);
}

static void body_diff(void **state)
{
	(void)state;
	const char body[] = "    20 |         c[i] = a[i] - b[i];\n"
			    "       | ^\n"
			    "    --- programs/p.cu (snippet add)\n"
			    "    +++ pages/p.md\n"
			    "    @@ -3,2 +3,2 @@\n"
			    "         if (i < n)\n"
			    "    -        c[i] = a[i] + b[i];\n"
			    "    +        c[i] = a[i] - b[i];\n";
	struct buf out = {0};
	assert_true(review_diff_put_body(&out, body, false));
	assert_non_null(strstr(out.s, "<span class=\"dl dl-del\">-        c[i] = a[i] <del>+</del> b[i];</span>"));
	assert_non_null(strstr(out.s, "<span class=\"dl dl-add\">+        c[i] = a[i] <ins>-</ins> b[i];</span>"));
	assert_non_null(strstr(out.s, "<span class=\"dl dl-ctx\">     if (i &lt; n)</span>"));
	assert_non_null(strstr(out.s, "<span class=\"dl dl-hunk\">@@ -3,2 +3,2 @@</span>"));
	buf_free(&out);
	/* a table row's: the row and the line a note quotes */
	const char row[] = "    55 | | 1024 | 2,921 |\n"
			   "       | ^\n"
			   "evidence/r.txt:23: note: the closest line\n"
			   "    23 | 1024 2920\n";
	out = (struct buf){0};
	assert_true(review_diff_put_body(&out, row, true));
	assert_non_null(strstr(out.s, "<ins>,</ins>"));
	buf_free(&out);
	out = (struct buf){0};
	assert_false(review_diff_put_body(&out, row, false)); /* not a table row's: no pairing */
	assert_null(strstr(out.s, "class=\"diff\""));
	buf_free(&out);
}

/* A diff of many changed lines: every pair marked, the LCS for the first
 * ones only (review_diff.h), so the time stays linear in the diff. */
static void many_pairs(void **state)
{
	(void)state;
	struct buf body = {0};
	buf_puts(&body, "    --- a\n    +++ b\n    @@ -1,20000 +1,20000 @@\n");
	for (int k = 0; k < 20000; k++) {
		buf_puts(&body, "    -");
		for (int c = 0; c < 200; c++)
			buf_putc(&body, (char)('a' + (c * 3 + k) % 26));
		buf_putc(&body, '\n');
	}
	for (int k = 0; k < 20000; k++) {
		buf_puts(&body, "    +");
		for (int c = 0; c < 200; c++)
			buf_putc(&body, (char)('a' + (c * 5 + k) % 26));
		buf_putc(&body, '\n');
	}
	struct buf out = {0};
	assert_true(review_diff_put_body(&out, body.s, false));
	/* one line a span: count the lines that open a deleted one (not with
	 * strstr: ASan's reads the whole rest of the text a call) */
	size_t del = 0;
	static const char open[] = "<span class=\"dl dl-del\">";
	for (size_t i = 0; i < out.len; i++)
		if ((i == 0 || out.s[i - 1] == '\n' || out.s[i - 1] == '>') && out.len - i >= sizeof open - 1 &&
		    memcmp(out.s + i, open, sizeof open - 1) == 0)
			del++;
	assert_int_equal(del, 20000);
	buf_free(&out);
	buf_free(&body);
}

static void ids(void **state)
{
	(void)state;
	struct ledger_entry e = {.kind = LG_TRACED, .line = 46, .col = 51};
	char id[REVIEW_ITEM_ID_MAX];
	review_item_id_of(&e, 1, id);
	assert_string_equal(id, "traced-46-51");
	review_item_id_of(&e, 2, id);
	assert_string_equal(id, "traced-46-51-2");
	e.kind = LG_FAILED;
	review_item_id_of(&e, 1, id);
	assert_string_equal(id, "failed-46-51");
	e.kind = LG_CLAIM;
	assert_true(review_item_approvable(&e));
	e.kind = LG_SKIPPED;
	assert_false(review_item_approvable(&e));
}

/* The mock of the sign-off: 1.8 ms was approved at 1.7 ms, and has moved;
 * every other traced number is approved. */
static void signoff_mock(void *ctx, const char *page, const char *id, const struct ledger_entry *e, struct review_approval *out)
{
	(void)page;
	(*(int *)ctx)++;
	if (strcmp(e->claim, "1.8 ms") == 0) {
		out->state = REVIEW_APPROVAL_REOPENED;
		out->by = "reviewer-ana";
		out->when = "2026-12-04T18:02Z";
		out->old_values = "1.7 ms = 1.712 (evidence/day01-demo/run-2026-11-29.txt:23:39)";
		out->new_values = "1.8 ms = 1.798 (evidence/day01-demo/run-2026-11-30.txt:23:39)";
	} else if (e->kind == LG_TRACED && strncmp(id, "traced-", 7) == 0) {
		out->state = REVIEW_APPROVAL_APPROVED;
		out->by = "reviewer-ana";
		out->when = "2026-12-04T18:02Z";
	}
}

static char *render(size_t *len)
{
	char *text = NULL;
	size_t tl = 0;
	FILE *mem = open_memstream(&text, &tl);
	diag_init(mem, false);
	struct check_opts opts = {.strict = true};
	struct ledger lg = {0};
	assert_int_equal(check_page("pages/day01-demo.md", &opts, &lg), 0);
	fclose(mem);
	struct review_verdict v = {0};
	char *html = review_render("pages/day01-demo.md", &lg, text ? text : "", &v, len);
	ledger_free(&lg);
	free(text);
	course_page_done();
	return html;
}

static void approvals(void **state)
{
	(void)state;
	char *why = NULL;
	assert_int_equal(repo_find("verifier/tests/fixtures/demo", &why), 0);
	size_t len;
	char *plain = render(&len);
	assert_null(strstr(plain, "<div class=\"appr "));
	assert_null(strstr(plain, " appr-approved\" data-id="));
	assert_non_null(strstr(plain, ">approve</button>"));
	free(plain);

	int calls = 0;
	review_set_approvals(signoff_mock, &calls);
	char *html = render(&len);
	review_set_approvals(NULL, NULL);
	assert_true(calls > 3);
	assert_non_null(strstr(html, "<div class=\"appr appr-reopened\"><p><span class=\"appr-badge\">REOPENED</span> approved "
				     "before by reviewer-ana on 2026-12-04T18:02Z"));
	assert_non_null(strstr(html, "<del>1.7 ms = 1.712 (evidence/day01-demo/run-2026-11-29.txt:23:39)</del>"));
	assert_non_null(strstr(html, "<ins>1.8 ms = 1.798 (evidence/day01-demo/run-2026-11-30.txt:23:39)</ins>"));
	assert_non_null(strstr(html, ">approve again</button>"));
	assert_non_null(strstr(html, "class=\"item k-traced appr-reopened\""));
	assert_non_null(strstr(html, "class=\"item k-traced appr-approved\""));
	assert_non_null(strstr(html, "<span class=\"appr-badge\">approved</span> by reviewer-ana"));
	const char *out = getenv("REVIEW_PAGE_HTML");
	if (out && *out) {
		FILE *f = fopen(out, "w");
		assert_non_null(f);
		fwrite(html, 1, len, f);
		fclose(f);
	}
	free(html);
	course_release();
	repo_close();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chars),
		cmocka_unit_test(long_lines),
		cmocka_unit_test(body_diff),
		cmocka_unit_test(many_pairs),
		cmocka_unit_test(ids),
		cmocka_unit_test(approvals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

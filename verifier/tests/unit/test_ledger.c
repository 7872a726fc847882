/*
 * test_ledger.c - the ledger as a data structure: what ledger_add records
 * and returns, the structured parts review reads (span, references,
 * details, the page), the order both renderers use, explain's text, and
 * that a NULL ledger or entry (verify) is a no-op.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"

static void add_returns_the_entry(void **state)
{
	(void)state;
	struct ledger lg = {0};
	struct ledger_entry *e = ledger_add(&lg, LG_TRACED, 82, 37, "1,793", "%s:%d:%d", "evidence/x/run.txt", 35, 22);
	assert_non_null(e);
	assert_ptr_equal(e, &lg.v[0]);
	assert_int_equal(e->kind, LG_TRACED);
	assert_int_equal(e->line, 82);
	assert_int_equal(e->col, 37);
	assert_string_equal(e->claim, "1,793");
	assert_string_equal(e->source, "evidence/x/run.txt:35:22");
	/* the optional parts start empty */
	assert_int_equal(e->span, 0);
	assert_null(e->detail);
	assert_int_equal(e->n_refs, 0);
	ledger_free(&lg);
	assert_int_equal(lg.n, 0);
	assert_null(lg.v);
}

static void structured_parts(void **state)
{
	(void)state;
	struct ledger lg = {0};
	struct ledger_entry *e = ledger_add(&lg, LG_DERIVED, 46, 1, "7 percent", "= 100 * 70320 / 1049187");
	ledger_span(e, 9);
	ledger_ref(e, "evidence/d/run.txt", 24, 24, 29, 5, "literal %s", "70320");
	ledger_ref(e, "programs/d/demo.cu", 12, 9, 0, 0, NULL); /* an end before the start is the start */
	ledger_detail(e, "literal %d: a power of ten", 100);
	ledger_detail(e, "7 percent = 6.70233 rounded to 1 significant digit");
	assert_int_equal(e->span, 9);
	assert_int_equal(e->n_refs, 2);
	assert_string_equal(e->refs[0].path, "evidence/d/run.txt");
	assert_int_equal(e->refs[0].line, 24);
	assert_int_equal(e->refs[0].line_end, 24);
	assert_int_equal(e->refs[0].col, 29);
	assert_int_equal(e->refs[0].len, 5);
	assert_string_equal(e->refs[0].note, "literal 70320");
	assert_int_equal(e->refs[1].line_end, 12);
	assert_null(e->refs[1].note);
	assert_string_equal(e->detail, "literal 100: a power of ten; 7 percent = 6.70233 rounded to 1 significant digit");
	const char *ev[] = {"evidence/d/a.txt", "evidence/d/b.txt"};
	ledger_set_page(&lg, "Title", "draft", "day01-demo", ev, 2);
	assert_string_equal(lg.page.title, "Title");
	assert_string_equal(lg.page.status, "draft");
	assert_string_equal(lg.page.lesson, "day01-demo");
	assert_int_equal(lg.page.n_evidence, 2);
	assert_string_equal(lg.page.evidence[1], "evidence/d/b.txt");
	assert_ptr_not_equal(lg.page.evidence[0], ev[0]); /* copied */
	ledger_free(&lg); /* ASan: everything released */
}

static void null_is_a_no_op(void **state)
{
	(void)state;
	assert_null(ledger_add(NULL, LG_TRACED, 1, 1, "1", "x"));
	ledger_span(NULL, 3);
	ledger_ref(NULL, "p", 1, 1, 1, 1, "n");
	ledger_detail(NULL, "d");
	ledger_set_page(NULL, "t", "s", "l", NULL, 0);
}

/* By line, then column; entries of one place keep the order they were added. */
static void sorted_is_stable(void **state)
{
	(void)state;
	struct ledger lg = {0};
	ledger_add(&lg, LG_TRACED, 9, 5, "b", "2");
	ledger_add(&lg, LG_ROW, 3, 1, "table row", "1");
	ledger_add(&lg, LG_TRACED, 9, 5, "c", "3");
	ledger_add(&lg, LG_SKIPPED, 9, 1, "a", "why");
	ledger_add(&lg, LG_TRACED, 9, 5, "d", "4");
	const struct ledger_entry **v = ledger_sorted(&lg);
	const char *want[] = {"table row", "a", "b", "c", "d"};
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(v[i]->claim, want[i]);
	free(v);
	struct ledger empty = {0};
	v = ledger_sorted(&empty);
	assert_non_null(v);
	free(v);
	ledger_free(&lg);
}

/* explain's text is the same whatever review reads beside it. */
static void print_format(void **state)
{
	(void)state;
	struct ledger lg = {0};
	struct ledger_entry *e = ledger_add(&lg, LG_TRACED, 2, 3, "256", "ev.txt:35:5");
	ledger_detail(e, "row \"256\"");
	ledger_ref(e, "ev.txt", 35, 35, 5, 3, NULL);
	ledger_add(&lg, LG_FAILED, 1, 1, "numbers", "not checked");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ledger_print(&lg, "pages/p.md", f);
	fclose(f);
	assert_string_equal(text, "ledger of pages/p.md\n"
				  "pages/p.md:1:1: FAILED  numbers <- not checked\n"
				  "pages/p.md:2:3: traced  256 <- ev.txt:35:5\n"
				  "totals: code 0, fact 0, traced 1, derived 0, cited 0, ext 0, row 0, skipped 0, FAILED 1\n");
	free(text);
	assert_string_equal(ledger_kind_name(LG_EXT), "ext");
	assert_int_equal(ledger_count(&lg, LG_TRACED), 1);
	ledger_free(&lg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(add_returns_the_entry), cmocka_unit_test(structured_parts),
		cmocka_unit_test(null_is_a_no_op),       cmocka_unit_test(sorted_is_stable),
		cmocka_unit_test(print_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_review_diags.c - reading diag's GNU text back: heads with and
 * without a column, bodies (caret lines, notes, diffs), hints, warnings,
 * diagnostics about other files, text before the first head; and which
 * ledger item each one explains.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review_diags.h"

static const char text[] =
	"stray line before any diagnostic\n"
	"pages/p.md:45:22: error: 70,329 is not in the evidence [number-untraced]\n"
	"    45 | The racy kernel gets 70,329 elements\n"
	"       |                      ^~~~~~\n"
	"evidence/p/run.txt:24:29: note: the nearest evidence value: 70320\n"
	"hint: quote the number the evidence holds\n"
	"pages/p.md:46:24: error: literal 70321 of the derivation of 7 percent is not in the evidence [derive-unanchored]\n"
	"pages/p.md:55: warning: a whole line [table-row-untraced]\n"
	"evidence/p/run.txt:3:1: error: an evidence file's own problem [evidence-malformed]\n"
	"pages/p.mdx:9:9: error: another page whose name starts the same [number-untraced]\n";

static void parse(void **state)
{
	(void)state;
	struct review_diags ds = {0};
	review_diags_parse(&ds, text, "pages/p.md");
	assert_int_equal(ds.n, 5);
	assert_int_equal(ds.v[0].line, 45);
	assert_int_equal(ds.v[0].col, 22);
	assert_true(ds.v[0].error);
	assert_string_equal(ds.v[0].head, "error: 70,329 is not in the evidence [number-untraced]");
	assert_non_null(strstr(ds.v[0].body, "^~~~~~"));
	assert_non_null(strstr(ds.v[0].body, "note: the nearest evidence value: 70320"));
	assert_null(strstr(ds.v[0].body, "hint:"));
	assert_string_equal(ds.v[0].hint, "quote the number the evidence holds");
	assert_int_equal(ds.v[1].col, 24);
	assert_null(ds.v[1].hint);
	assert_string_equal(ds.v[1].body, "");
	assert_int_equal(ds.v[2].line, 55); /* no column: the whole line */
	assert_int_equal(ds.v[2].col, 0);
	assert_false(ds.v[2].error);
	assert_int_equal(ds.v[3].line, 0); /* about another file */
	assert_int_equal(ds.v[4].line, 0); /* pages/p.mdx is not pages/p.md */
	for (size_t i = 0; i < ds.n; i++)
		assert_int_equal(ds.v[i].owner, -1);
	review_diags_free(&ds);
}

static void parse_empty(void **state)
{
	(void)state;
	struct review_diags ds = {0};
	review_diags_parse(&ds, "", "pages/p.md");
	assert_int_equal(ds.n, 0);
	review_diags_parse(&ds, "no newline at the end", "pages/p.md");
	assert_int_equal(ds.n, 0);
	review_diags_free(&ds);
}

static void attach(void **state)
{
	(void)state;
	struct ledger_entry e[] = {
		{.kind = LG_TRACED, .line = 45, .col = 5},  {.kind = LG_FAILED, .line = 45, .col = 22},
		{.kind = LG_FAILED, .line = 46, .col = 1},  {.kind = LG_TRACED, .line = 46, .col = 40},
		{.kind = LG_FAILED, .line = 55, .col = 1},
	};
	const struct ledger_entry *v[] = {&e[0], &e[1], &e[2], &e[3], &e[4]};
	struct review_diags ds = {0};
	review_diags_parse(&ds, text, "pages/p.md");
	review_diags_attach(&ds, v, 5);
	assert_int_equal(ds.v[0].owner, 1); /* the failed item at its place */
	assert_int_equal(ds.v[1].owner, 2); /* the literal's derivation, before it on the line */
	assert_int_equal(ds.v[2].owner, 4); /* a failed item on its line */
	assert_int_equal(ds.v[3].owner, -1);
	assert_int_equal(ds.v[4].owner, -1);
	review_diags_free(&ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(parse_empty),
		cmocka_unit_test(attach),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

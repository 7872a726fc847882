/*
 * test_diag.c - the reporter's per-document policy and dropped
 * diagnostics (diag.h): a file region reads the policy its document lends
 * it, at each diagnostic, and forgets it at its end; a diagnostic begun
 * for DIAG_DROP is neither printed nor counted, whatever is attached.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "diag.h"
#include "diag_capture.h"

static const struct diag_loc at = {.path = "pages/a.md", .line = 3};

/* A STAT kind is an error on a page of unknown status, a warning once the
 * page's own policy says draft, and an error again past the region. */
static void test_region_reads_the_document_policy(void **state)
{
	(void)state;
	struct diag_policy policy = {0};
	diag_file_begin("pages/a.md", &policy);
	assert_int_equal(diag_level_of(D_NUMBER_UNTRACED), DIAG_ERROR);
	policy.draft = true; /* the front matter was read */
	assert_int_equal(diag_level_of(D_NUMBER_UNTRACED), DIAG_WARNING);
	diag_report(D_NUMBER_UNTRACED, at, "n");
	assert_output_has("pages/a.md:3: warning: n [number-untraced]");
	diag_file_end();
	assert_int_equal(diag_level_of(D_NUMBER_UNTRACED), DIAG_ERROR);
	assert_int_equal(errors(), 0);
}

/* strict turns warnings into errors, in the region and as the run's
 * policy outside any region. */
static void test_strict_makes_warnings_errors(void **state)
{
	(void)state;
	assert_int_equal(diag_level_of(D_NUMBER_AMBIGUOUS), DIAG_WARNING);
	struct diag_policy strict = {.strict = true};
	diag_file_begin("pages/a.md", &strict);
	assert_int_equal(diag_level_of(D_NUMBER_AMBIGUOUS), DIAG_ERROR);
	diag_file_end();
	diag_set_run_policy(strict);
	assert_int_equal(diag_level_of(D_NUMBER_AMBIGUOUS), DIAG_ERROR);
	diag_set_run_policy((struct diag_policy){0});
	assert_int_equal(diag_level_of(D_NUMBER_AMBIGUOUS), DIAG_WARNING);
}

static void test_dropped_is_not_printed_or_counted(void **state)
{
	(void)state;
	struct diag *d = diag_begin_to(DIAG_DROP, D_FM_FIELD, at, "dropped %d", 1);
	diag_note(d, at, "a note");
	diag_text(d, "text\n");
	diag_hint(d, "a hint");
	diag_end(d);
	diag_report_to(DIAG_DROP, D_FM_FIELD, at, "dropped %d", 2);
	assert_int_equal(reported(D_FM_FIELD), 0);
	assert_int_equal(errors(), 0);
	assert_string_equal(output(), "");
	/* and the same begun for DIAG_REPORT is both */
	diag_report_to(DIAG_REPORT, D_FM_FIELD, at, "kept");
	assert_int_equal(reported(D_FM_FIELD), 1);
	assert_output_has("pages/a.md:3: error: kept [frontmatter-field]");
}

/* A dropped diagnostic takes no place under the file's cap. */
static void test_dropped_leaves_the_cap(void **state)
{
	(void)state;
	diag_file_begin("pages/a.md", NULL);
	for (int i = 0; i < DIAG_MAX_PER_FILE + 5; i++)
		diag_report_to(DIAG_DROP, D_FM_FIELD, at, "dropped");
	assert_false(diag_quiet());
	diag_report(D_FM_FIELD, at, "shown");
	diag_file_end();
	assert_output_has("error: shown");
	assert_null(strstr(output(), "not shown"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_region_reads_the_document_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_strict_makes_warnings_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dropped_is_not_printed_or_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dropped_leaves_the_cap, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

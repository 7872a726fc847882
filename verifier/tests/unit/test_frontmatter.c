/*
 * test_frontmatter.c - a page's YAML front matter: every field, the
 * evidence forms, and each problem with its diagnostic kind, line and
 * column.
 *
 * Diagnostics go to an in-memory stream set up per test; counts are taken
 * relative to the counters at the start of the test, so a diagnostic too
 * many or too few fails the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "frontmatter.h"
#include "re.h"
#include "textfile.h"

#define PAGE_PATH "lessons/day31-scan-1.md"

#include "diag_capture.h"

/* ---- helpers ---- */

static int parse_len(const char *text, size_t len, bool require, struct textfile *tf, struct frontmatter *fm)
{
	textfile_from_memory(text, len, PAGE_PATH, tf);
	return frontmatter_parse(tf, require, DIAG_REPORT, fm);
}

static int parse(const char *text, bool require, struct textfile *tf, struct frontmatter *fm)
{
	return parse_len(text, strlen(text), require, tf, fm);
}

static void release(struct textfile *tf, struct frontmatter *fm)
{
	frontmatter_free(fm);
	textfile_free(tf);
}

#define VALID_PAGE                                                                                               \
	"---\n"                                                                                                  \
	"lesson: day31-scan-1\n"                                                                                 \
	"day: 31\n"                                                                                              \
	"title: \"Scan, part 1: Hillis-Steele\"\n"                                                               \
	"status: in-technical-review\n"                                                                          \
	"program: programs/day31-scan-1/scan.cu\n"                                                               \
	"evidence: evidence/day31-scan-1/run-2026-11-30.txt\n"                                                   \
	"---\n"                                                                                                  \
	"\n"                                                                                                     \
	"# Scan\n"

/* A valid page whose line 3 (the day field) is day_line. */
static int parse_with_day_line(const char *day_line, struct textfile *tf, struct frontmatter *fm)
{
	char text[1024];
	snprintf(text, sizeof text,
		 "---\n"
		 "lesson: day31-scan-1\n"
		 "%s\n"
		 "title: Scan\n"
		 "status: draft\n"
		 "program: programs/day31-scan-1/scan.cu\n"
		 "evidence: evidence/day31-scan-1/run.txt\n"
		 "---\n",
		 day_line);
	return parse(text, true, tf, fm);
}

/* ---- valid front matter ---- */

static void test_full_valid_front_matter(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(VALID_PAGE, true, &tf, &fm), 0);
	assert_int_equal(errors(), 0);
	assert_string_equal(output(), "");
	assert_true(fm.present);
	assert_int_equal(fm.first_body_line, 9);
	assert_string_equal(fm.lesson, "day31-scan-1");
	assert_int_equal(fm.day, 31);
	assert_string_equal(fm.title, "Scan, part 1: Hillis-Steele");
	assert_int_equal(fm.status, STATUS_REVIEW);
	assert_string_equal(fm.program, "programs/day31-scan-1/scan.cu");
	assert_int_equal(fm.program_line, 6);
	assert_int_equal(fm.program_col, 10);
	assert_int_equal(fm.n_evidence, 1);
	assert_string_equal(fm.evidence[0].label, "main");
	assert_string_equal(fm.evidence[0].path, "evidence/day31-scan-1/run-2026-11-30.txt");
	assert_int_equal(fm.evidence[0].line, 7);
	assert_int_equal(fm.evidence[0].col, 11);
	release(&tf, &fm);
}

static void test_every_status_value(void **state)
{
	(void)state;
	static const struct {
		const char *word;
		enum page_status status;
	} cases[] = {
		{"draft", STATUS_DRAFT},
		{"in-technical-review", STATUS_REVIEW},
		{"published", STATUS_PUBLISHED},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[512];
		snprintf(text, sizeof text,
			 "---\nlesson: l\nday: 2\ntitle: t\nstatus: %s\nprogram: p.cu\nevidence: e.txt\n---\n",
			 cases[i].word);
		struct textfile tf;
		struct frontmatter fm;
		assert_int_equal(parse(text, true, &tf, &fm), 0);
		assert_int_equal(fm.status, cases[i].status);
		assert_string_equal(frontmatter_status_name(fm.status), cases[i].word);
		release(&tf, &fm);
	}
	assert_int_equal(errors(), 0);
}

static void test_day_range_edges_accepted(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse_with_day_line("day: 1", &tf, &fm), 0);
	assert_int_equal(fm.day, 1);
	release(&tf, &fm);
	assert_int_equal(parse_with_day_line("day: 100", &tf, &fm), 0);
	assert_int_equal(fm.day, 100);
	release(&tf, &fm);
	assert_int_equal(errors(), 0);
}

static void test_unknown_extra_fields_are_ignored(void **state)
{
	(void)state;
	const char *text = "---\n"
			   "lesson: day31-scan-1\n"
			   "tags: [cuda, scan]\n"
			   "day: 31\n"
			   "authors:\n"
			   "  - Ada\n"
			   "  - Grace\n"
			   "title: Scan\n"
			   "status: published\n"
			   "reviewers: {tech: Linus}\n"
			   "program: programs/day31-scan-1/scan.cu\n"
			   "evidence: evidence/day31-scan-1/run.txt\n"
			   "---\n"
			   "body\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 0);
	assert_int_equal(errors(), 0);
	assert_int_equal(fm.day, 31);
	assert_int_equal(fm.status, STATUS_PUBLISHED);
	assert_int_equal(fm.program_line, 11);
	assert_int_equal(fm.first_body_line, 14);
	release(&tf, &fm);
}

static void test_first_body_line_after_dots_close(void **state)
{
	(void)state;
	/* YAML's document end "..." closes the block too. */
	const char *text = "---\nlesson: l\nday: 3\ntitle: t\nstatus: draft\nprogram: p.cu\nevidence: e.txt\n...\n# H\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 0);
	assert_int_equal(fm.first_body_line, 9);
	release(&tf, &fm);
}

static void test_quoted_program_line_and_column(void **state)
{
	(void)state;
	const char *text = "---\n"
			   "lesson: l\n"
			   "day: 3\n"
			   "title: t\n"
			   "status: draft\n"
			   "evidence: e.txt\n"
			   "\n"
			   "program:    'programs/x/y.cu'\n"
			   "---\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 0);
	assert_string_equal(fm.program, "programs/x/y.cu");
	assert_int_equal(fm.program_line, 8);
	assert_int_equal(fm.program_col, 13); /* the opening quote */
	release(&tf, &fm);
}

/* ---- evidence forms ---- */

static void test_evidence_mapping_keeps_order(void **state)
{
	(void)state;
	const char *text = "---\n"
			   "lesson: day31-scan-1\n"
			   "day: 31\n"
			   "title: Scan\n"
			   "status: draft\n"
			   "program: programs/day31-scan-1/scan.cu\n"
			   "evidence:\n"
			   "  main: evidence/day31-scan-1/a.txt\n"
			   "  cuda13: evidence/day31-scan-1/b.txt\n"
			   "---\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 0);
	assert_int_equal(errors(), 0);
	assert_int_equal(fm.n_evidence, 2);
	assert_string_equal(fm.evidence[0].label, "main");
	assert_string_equal(fm.evidence[0].path, "evidence/day31-scan-1/a.txt");
	assert_int_equal(fm.evidence[0].line, 8);
	assert_int_equal(fm.evidence[0].col, 9);
	assert_string_equal(fm.evidence[1].label, "cuda13");
	assert_string_equal(fm.evidence[1].path, "evidence/day31-scan-1/b.txt");
	assert_int_equal(fm.evidence[1].line, 9);
	assert_int_equal(fm.evidence[1].col, 11);

	assert_ptr_equal(frontmatter_evidence(&fm, NULL), &fm.evidence[0]);
	assert_ptr_equal(frontmatter_evidence(&fm, ""), &fm.evidence[0]);
	assert_ptr_equal(frontmatter_evidence(&fm, "main"), &fm.evidence[0]);
	assert_ptr_equal(frontmatter_evidence(&fm, "cuda13"), &fm.evidence[1]);
	assert_null(frontmatter_evidence(&fm, "cuda12"));
	assert_null(frontmatter_evidence(&fm, "Main"));
	release(&tf, &fm);
}

static void test_evidence_mapping_first_is_default_not_sorted(void **state)
{
	(void)state;
	const char *text = "---\nlesson: l\nday: 3\ntitle: t\nstatus: draft\nprogram: p.cu\n"
			   "evidence: {zeta: z.txt, alpha: a.txt, mid: m.txt}\n---\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 0);
	assert_int_equal(fm.n_evidence, 3);
	assert_string_equal(fm.evidence[0].label, "zeta");
	assert_string_equal(fm.evidence[1].label, "alpha");
	assert_string_equal(fm.evidence[2].label, "mid");
	assert_string_equal(frontmatter_evidence(&fm, NULL)->path, "z.txt");
	assert_string_equal(frontmatter_evidence(&fm, "mid")->path, "m.txt");
	release(&tf, &fm);
}

static void test_evidence_plain_path_lookup(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(VALID_PAGE, true, &tf, &fm), 0);
	assert_ptr_equal(frontmatter_evidence(&fm, NULL), &fm.evidence[0]);
	assert_ptr_equal(frontmatter_evidence(&fm, ""), &fm.evidence[0]);
	assert_ptr_equal(frontmatter_evidence(&fm, "main"), &fm.evidence[0]);
	assert_null(frontmatter_evidence(&fm, "cuda13"));
	release(&tf, &fm);
}

static void test_evidence_lookup_without_evidence(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse("# no front matter\n", false, &tf, &fm), 0);
	assert_null(frontmatter_evidence(&fm, NULL));
	assert_null(frontmatter_evidence(&fm, ""));
	assert_null(frontmatter_evidence(&fm, "main"));
	release(&tf, &fm);
}

static void test_evidence_sequence_is_rejected(void **state)
{
	(void)state;
	const char *text = "---\nlesson: l\nday: 3\ntitle: t\nstatus: draft\nprogram: p.cu\n"
			   "evidence: [a.txt, b.txt]\n---\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_FIELD), 1);
	assert_int_equal(errors(), 1);
	assert_int_equal(fm.n_evidence, 0);
	assert_output_has(PAGE_PATH ":7:11: error: front matter field 'evidence' must be a path or a mapping of "
				    "labels to paths [frontmatter-field]");
	release(&tf, &fm);
}

static void test_evidence_repeated_label(void **state)
{
	(void)state;
	const char *text = "---\nlesson: l\nday: 3\ntitle: t\nstatus: draft\nprogram: p.cu\n"
			   "evidence:\n  main: a.txt\n  main: b.txt\n---\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_FIELD), 1);
	assert_int_equal(fm.n_evidence, 1);
	assert_string_equal(fm.evidence[0].path, "a.txt");
	assert_output_has(PAGE_PATH ":9:3: error: evidence label 'main' is repeated [frontmatter-field]");
	release(&tf, &fm);
}

/* ---- missing or unclosed ---- */

static void test_missing_front_matter_required(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse("# Scan\n\nText.\n", true, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_MISSING), 1);
	assert_int_equal(errors(), 1);
	assert_false(fm.present);
	assert_int_equal(fm.first_body_line, 1);
	assert_null(fm.lesson);
	assert_null(fm.program);
	assert_int_equal(fm.n_evidence, 0);
	assert_output_has(PAGE_PATH ":1:1: error: page has no front matter [frontmatter-missing]");
	assert_output_has("hint: start the page with a '---' line");
	release(&tf, &fm);
}

static void test_missing_front_matter_empty_page(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse("", true, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_MISSING), 1);
	assert_false(fm.present);
	/* an empty file has no line 1 column to point at */
	assert_output_has(PAGE_PATH ":1: error: page has no front matter [frontmatter-missing]");
	release(&tf, &fm);
}

static void test_missing_front_matter_not_required(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse("# README\n\n---\nlesson: x\n---\n", false, &tf, &fm), 0);
	assert_int_equal(errors(), 0);
	assert_string_equal(output(), "");
	assert_false(fm.present);
	assert_int_equal(fm.first_body_line, 1);
	assert_null(fm.lesson);
	release(&tf, &fm);
}

static void test_dashes_not_on_first_line_is_missing(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse("\n---\nlesson: x\n---\n", true, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_MISSING), 1);
	assert_false(fm.present);
	release(&tf, &fm);
}

static void test_unclosed_front_matter(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse("---\nlesson: day31-scan-1\nday: 31\n\n# Scan\n", true, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_MISSING), 1);
	assert_int_equal(errors(), 1);
	assert_false(fm.present);
	assert_int_equal(fm.first_body_line, 1);
	assert_null(fm.lesson);
	assert_output_has(PAGE_PATH ":1:1: error: front matter opened here is never closed with a '---' line "
				    "[frontmatter-missing]");
	release(&tf, &fm);
}

static void test_unclosed_front_matter_not_required_still_reported(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse("---\nlesson: x\n", false, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_MISSING), 1);
	release(&tf, &fm);
}

/* ---- syntax and field problems ---- */

static void test_yaml_syntax_error_line(void **state)
{
	(void)state;
	const char *text = "---\n"
			   "lesson: day31-scan-1\n"
			   "day: 31\n"
			   "title: Scan: part 1\n" /* a second ": " in a plain scalar (col 12) */
			   "status: draft\n"
			   "program: p.cu\n"
			   "evidence: e.txt\n"
			   "---\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_true(parse(text, true, &tf, &fm) >= 1);
	assert_int_equal(reported(D_FM_SYNTAX), 1);
	assert_int_equal(reported(D_FM_FIELD), 0); /* no "missing field" noise after a syntax error */
	assert_int_equal(errors(), 1);
	assert_true(fm.present);
	assert_output_has(PAGE_PATH ":4:12: error: front matter is not valid YAML: mapping values are not "
				    "allowed in this context [frontmatter-syntax]");
	release(&tf, &fm);
}

static void test_yaml_syntax_error_unclosed_flow(void **state)
{
	(void)state;
	const char *text = "---\nlesson: l\nday: 3\ntitle: t\nstatus: draft\n"
			   "program: [p.cu\n"
			   "evidence: e.txt\n---\n";
	struct textfile tf;
	struct frontmatter fm;
	parse(text, true, &tf, &fm);
	assert_int_equal(reported(D_FM_SYNTAX), 1);
	assert_int_equal(errors(), 1);
	/* libyaml notices on line 7, at the ':' that cannot be in a flow sequence */
	assert_output_has(PAGE_PATH ":7:9: error: front matter is not valid YAML: did not find expected ',' or "
				    "']' [frontmatter-syntax]");
	release(&tf, &fm);
}

static void test_front_matter_not_a_mapping(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse("---\n- a\n- b\n---\n", true, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_SYNTAX), 1);
	assert_output_has(PAGE_PATH ":2:1: error: front matter must be a mapping of fields");
	release(&tf, &fm);
}

static void test_missing_field(void **state)
{
	(void)state;
	const char *text = "---\n"
			   "lesson: day31-scan-1\n"
			   "day: 31\n"
			   "title: Scan\n"
			   "status: draft\n"
			   "evidence: e.txt\n"
			   "---\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_FIELD), 1);
	assert_int_equal(errors(), 1);
	assert_null(fm.program);
	assert_int_equal(fm.program_line, 0);
	assert_string_equal(fm.lesson, "day31-scan-1"); /* the rest is still read */
	assert_int_equal(fm.n_evidence, 1);
	assert_output_has(PAGE_PATH ":7:1: error: front matter lacks the field 'program' [frontmatter-field]");
	release(&tf, &fm);
}

static void test_every_missing_field_is_reported(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse("---\nauthor: x\n---\n", true, &tf, &fm), 6);
	assert_int_equal(reported(D_FM_FIELD), 6);
	static const char *const fields[] = {"lesson", "day", "title", "status", "program", "evidence"};
	for (size_t i = 0; i < 6; i++) {
		char want[128];
		snprintf(want, sizeof want, PAGE_PATH ":3:1: error: front matter lacks the field '%s'", fields[i]);
		assert_output_has(want);
	}
	release(&tf, &fm);
}

static void test_repeated_field(void **state)
{
	(void)state;
	const char *text = "---\n"
			   "lesson: day31-scan-1\n"
			   "day: 31\n"
			   "title: Scan\n"
			   "lesson: day32-scan-2\n"
			   "status: draft\n"
			   "program: p.cu\n"
			   "evidence: e.txt\n"
			   "---\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_FIELD), 1);
	assert_int_equal(errors(), 1);
	assert_string_equal(fm.lesson, "day31-scan-1"); /* the first one stands */
	assert_output_has(PAGE_PATH ":5:1: error: front matter field 'lesson' is repeated [frontmatter-field]");
	release(&tf, &fm);
}

static void test_bad_status(void **state)
{
	(void)state;
	const char *text = "---\nlesson: l\nday: 3\ntitle: t\nstatus: Published\nprogram: p.cu\nevidence: e.txt\n---\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 1);
	assert_int_equal(reported(D_FM_FIELD), 1);
	assert_int_equal(errors(), 1);
	assert_output_has(PAGE_PATH ":5:9: error: status 'Published' is not one of draft, in-technical-review, "
				    "published [frontmatter-field]");
	release(&tf, &fm);
}

static void test_bad_day_values(void **state)
{
	(void)state;
	static const char *const bad[] = {"one", "0", "101", "-3", "31.5", "31x"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		size_t before = reported(D_FM_FIELD);
		char line[64], want[256];
		snprintf(line, sizeof line, "day: %s", bad[i]);
		struct textfile tf;
		struct frontmatter fm;
		assert_int_equal(parse_with_day_line(line, &tf, &fm), 1);
		assert_int_equal(reported(D_FM_FIELD), before + 1);
		assert_int_equal(fm.day, 0);
		snprintf(want, sizeof want,
			 PAGE_PATH ":3:6: error: front matter field 'day' must be a whole number from 1 to 100, not "
				   "'%s' [frontmatter-field]",
			 bad[i]);
		assert_output_has(want);
		release(&tf, &fm);
	}
	assert_int_equal(errors(), 6);
}

static void test_non_scalar_title(void **state)
{
	(void)state;
	static const char *const titles[] = {"title: [Scan, part 1]", "title: {a: b}", "title:", "title: ''"};
	for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++) {
		char text[512];
		snprintf(text, sizeof text,
			 "---\nlesson: l\nday: 3\n%s\nstatus: draft\nprogram: p.cu\nevidence: e.txt\n---\n", titles[i]);
		size_t before = reported(D_FM_FIELD);
		struct textfile tf;
		struct frontmatter fm;
		assert_int_equal(parse(text, true, &tf, &fm), 1);
		assert_int_equal(reported(D_FM_FIELD), before + 1);
		assert_null(fm.title);
		release(&tf, &fm);
	}
	assert_output_has(PAGE_PATH ":4:8: error: front matter field 'title' must be a non-empty plain value "
				    "[frontmatter-field]");
	assert_int_equal(errors(), 4);
}

/* ---- normalised input ---- */

static void test_crlf_and_bom(void **state)
{
	(void)state;
	const char *text = "\xEF\xBB\xBF---\r\n"
			   "lesson: day31-scan-1\r\n"
			   "day: 31\r\n"
			   "title: Scan\r\n"
			   "status: published\r\n"
			   "program: programs/day31-scan-1/scan.cu\r\n"
			   "evidence:\r\n"
			   "  main: a.txt\r\n"
			   "---\r\n"
			   "# Scan\r\n";
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(text, true, &tf, &fm), 0);
	assert_int_equal(errors(), 0);
	assert_true(tf.had_bom);
	assert_true(tf.had_cr);
	assert_true(fm.present);
	assert_int_equal(fm.first_body_line, 10);
	assert_string_equal(fm.lesson, "day31-scan-1");
	assert_string_equal(fm.title, "Scan");
	assert_int_equal(fm.status, STATUS_PUBLISHED);
	assert_string_equal(fm.program, "programs/day31-scan-1/scan.cu");
	assert_int_equal(fm.program_line, 6);
	assert_int_equal(fm.program_col, 10); /* the BOM is not a column */
	assert_string_equal(fm.evidence[0].path, "a.txt");
	assert_int_equal(fm.evidence[0].line, 8);
	assert_int_equal(fm.evidence[0].col, 9);
	release(&tf, &fm);
}

/* DIAG_DROP: the same fields and the same count of problems, nothing
 * reported (another page's check reading this one for its lesson). */
static void test_dropped_problems_are_counted_not_reported(void **state)
{
	(void)state;
	static const char text[] = "---\nlesson: day31-scan-1\nday: 400\nstatus: nonsense\n---\n";
	struct textfile tf;
	struct frontmatter fm;
	textfile_from_memory(text, strlen(text), PAGE_PATH, &tf);
	int dropped = frontmatter_parse(&tf, true, DIAG_DROP, &fm);
	assert_true(dropped > 0);
	assert_int_equal(errors(), 0);
	assert_string_equal(output(), "");
	assert_string_equal(fm.lesson, "day31-scan-1");
	release(&tf, &fm);
	assert_int_equal(parse(text, true, &tf, &fm), dropped);
	assert_int_equal(errors(), (size_t)dropped);
	release(&tf, &fm);
}

static void test_free_leaves_zeroed_struct(void **state)
{
	(void)state;
	struct textfile tf;
	struct frontmatter fm;
	assert_int_equal(parse(VALID_PAGE, true, &tf, &fm), 0);
	frontmatter_free(&fm);
	assert_null(fm.lesson);
	assert_null(fm.evidence);
	assert_int_equal(fm.n_evidence, 0);
	frontmatter_free(&fm); /* twice is harmless */
	textfile_free(&tf);
}

static int release_patterns(void **state)
{
	(void)state;
	re_release_all();
	return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_full_valid_front_matter),
		T(test_every_status_value),
		T(test_day_range_edges_accepted),
		T(test_unknown_extra_fields_are_ignored),
		T(test_first_body_line_after_dots_close),
		T(test_quoted_program_line_and_column),
		T(test_evidence_mapping_keeps_order),
		T(test_evidence_mapping_first_is_default_not_sorted),
		T(test_evidence_plain_path_lookup),
		T(test_evidence_lookup_without_evidence),
		T(test_evidence_sequence_is_rejected),
		T(test_evidence_repeated_label),
		T(test_missing_front_matter_required),
		T(test_dropped_problems_are_counted_not_reported),
		T(test_missing_front_matter_empty_page),
		T(test_missing_front_matter_not_required),
		T(test_dashes_not_on_first_line_is_missing),
		T(test_unclosed_front_matter),
		T(test_unclosed_front_matter_not_required_still_reported),
		T(test_yaml_syntax_error_line),
		T(test_yaml_syntax_error_unclosed_flow),
		T(test_front_matter_not_a_mapping),
		T(test_missing_field),
		T(test_every_missing_field_is_reported),
		T(test_repeated_field),
		T(test_bad_status),
		T(test_bad_day_values),
		T(test_non_scalar_title),
		T(test_crlf_and_bom),
		T(test_free_leaves_zeroed_struct),
	};
	return cmocka_run_group_tests(tests, NULL, release_patterns);
}

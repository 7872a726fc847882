/*
 * test_cliopt.c - the one option parser: shared and own options, values
 * given both ways, abbreviations, `--`, options after operands, missing
 * values and unknown options, --help and --version; the colour rule from
 * the environment; and diag's records for a sink, whose columns count
 * code points.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cliopt.h"
#include "diag.h"

/* ---- the parser ---- */

enum { OWN_FLAG = 0x200, OWN_VALUE };
static const struct option own_longs[] = {
	{"flag", no_argument, NULL, OWN_FLAG},
	{"value", required_argument, NULL, OWN_VALUE},
	{NULL, 0, NULL, 0},
};
static const struct cliopt_cmd cmd = {"coursecheck test", "usage: coursecheck test [OPTION...]\nmore\n", "j:",
				      own_longs, CLIOPT_REPORT};

struct own {
	int flag;
	const char *value, *j;
};

static int own(int ch, const char *arg, void *ctx)
{
	struct own *o = ctx;
	switch (ch) {
	case OWN_FLAG:
		o->flag++;
		return 0;
	case OWN_VALUE:
		o->value = arg;
		return 0;
	case 'j':
		o->j = arg;
		return 0;
	default:
		return -1;
	}
}

/* Parses a NULL-terminated list with standard error and output caught. */
static int parse(struct cliopt *o, struct own *w, char **out, char **err, char *first, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	va_start(ap, first);
	for (char *a = first; a && argc < 31; a = va_arg(ap, char *))
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	memset(w, 0, sizeof *w);
	fflush(stdout);
	fflush(stderr);
	FILE *fo = tmpfile(), *fe = tmpfile();
	int so = dup(STDOUT_FILENO), se = dup(STDERR_FILENO);
	dup2(fileno(fo), STDOUT_FILENO);
	dup2(fileno(fe), STDERR_FILENO);
	int r = cliopt_parse(argc, argv, &cmd, o, own, w);
	fflush(stdout);
	fflush(stderr);
	dup2(so, STDOUT_FILENO);
	dup2(se, STDERR_FILENO);
	close(so);
	close(se);
	FILE *fs[2] = {fo, fe};
	char **dst[2] = {out, err};
	for (int i = 0; i < 2; i++) {
		long n = ftell(fs[i]);
		rewind(fs[i]);
		*dst[i] = calloc((size_t)n + 1, 1);
		if (n > 0 && fread(*dst[i], 1, (size_t)n, fs[i]) != (size_t)n)
			fail();
		fclose(fs[i]);
	}
	return r;
}

static void test_shared_and_own_options(void **state)
{
	(void)state;
	struct cliopt o;
	struct own w;
	char *out, *err;
	int r = parse(&o, &w, &out, &err, "test", "--root=/tmp", "-q", "--color", "never", "--format=json",
		      "--output", "r.json", "--flag", "--value=v", "-j4", "page", NULL);
	assert_int_equal(r, 11);
	assert_string_equal(o.root, "/tmp");
	assert_true(o.quiet);
	assert_int_equal(o.color, CLIOPT_COLOR_NEVER);
	assert_string_equal(o.format, "json");
	assert_string_equal(o.output, "r.json");
	assert_int_equal(w.flag, 1);
	assert_string_equal(w.value, "v");
	assert_string_equal(w.j, "4");
	assert_string_equal(err, "");
	free(out);
	free(err);
}

static void test_operands_first_and_double_dash(void **state)
{
	(void)state;
	struct cliopt o;
	struct own w;
	char *out, *err;
	/* GNU permutes: options after operands count; after --, nothing does */
	char a0[] = "test", a1[] = "page", a2[] = "--flag", a3[] = "--", a4[] = "--value=x";
	int r = parse(&o, &w, &out, &err, a0, a1, a2, a3, a4, NULL);
	assert_int_equal(w.flag, 1);
	assert_null(w.value);
	assert_int_equal(r, 3);
	free(out);
	free(err);
}

static void test_abbreviation(void **state)
{
	(void)state;
	struct cliopt o;
	struct own w;
	char *out, *err;
	assert_int_equal(parse(&o, &w, &out, &err, "test", "--fo=sarif", "--val", "z", NULL), 4);
	assert_string_equal(o.format, "sarif");
	assert_string_equal(w.value, "z");
	free(out);
	free(err);
}

static void test_missing_value(void **state)
{
	(void)state;
	struct cliopt o;
	struct own w;
	char *out, *err;
	assert_int_equal(parse(&o, &w, &out, &err, "test", "--value", NULL), CLIOPT_USAGE);
	assert_string_equal(err, "coursecheck test: error: option '--value' requires an argument [usage]\n"
				 "usage: coursecheck test [OPTION...]\n"
				 "Try 'coursecheck test --help' for more information.\n");
	free(out);
	free(err);
	assert_int_equal(parse(&o, &w, &out, &err, "test", "-j", NULL), CLIOPT_USAGE);
	assert_non_null(strstr(err, "option '-j' requires an argument"));
	free(out);
	free(err);
}

static void test_unknown_and_bad_values(void **state)
{
	(void)state;
	struct cliopt o;
	struct own w;
	char *out, *err;
	assert_int_equal(parse(&o, &w, &out, &err, "test", "--frob=1", NULL), CLIOPT_USAGE);
	assert_non_null(strstr(err, "unknown option '--frob'"));
	free(out);
	free(err);
	assert_int_equal(parse(&o, &w, &out, &err, "test", "-x", NULL), CLIOPT_USAGE);
	assert_non_null(strstr(err, "unknown option '-x'"));
	free(out);
	free(err);
	assert_int_equal(parse(&o, &w, &out, &err, "test", "--color=sometimes", NULL), CLIOPT_USAGE);
	assert_non_null(strstr(err, "--color takes auto, always or never"));
	free(out);
	free(err);
	assert_int_equal(parse(&o, &w, &out, &err, "test", "--root=", NULL), CLIOPT_USAGE);
	free(out);
	free(err);
}

static void test_help_and_version(void **state)
{
	(void)state;
	struct cliopt o;
	struct own w;
	char *out, *err;
	assert_int_equal(parse(&o, &w, &out, &err, "test", "--flag", "--help", NULL), CLIOPT_DONE);
	assert_string_equal(out, cmd.usage);
	assert_string_equal(err, "");
	free(out);
	free(err);
	assert_int_equal(parse(&o, &w, &out, &err, "test", "--version", NULL), CLIOPT_DONE);
	assert_string_equal(out, "coursecheck " COURSECHECK_VERSION "\n");
	free(out);
	free(err);
}

/* ---- colour ---- */

static void test_color_rule(void **state)
{
	(void)state;
	FILE *f = tmpfile(); /* not a terminal */
	assert_non_null(f);
	int fd = fileno(f);
	unsetenv("NO_COLOR");
	unsetenv("CLICOLOR_FORCE");
	setenv("TERM", "xterm", 1);
	assert_false(cliopt_use_color(CLIOPT_COLOR_AUTO, fd));
	assert_true(cliopt_use_color(CLIOPT_COLOR_ALWAYS, fd));
	setenv("CLICOLOR_FORCE", "1", 1);
	assert_true(cliopt_use_color(CLIOPT_COLOR_AUTO, fd));
	assert_false(cliopt_use_color(CLIOPT_COLOR_NEVER, fd));
	setenv("TERM", "dumb", 1);
	assert_true(cliopt_use_color(CLIOPT_COLOR_AUTO, fd)); /* forced */
	setenv("CLICOLOR_FORCE", "0", 1);
	assert_false(cliopt_use_color(CLIOPT_COLOR_AUTO, fd));
	setenv("NO_COLOR", "1", 1);
	assert_false(cliopt_use_color(CLIOPT_COLOR_ALWAYS, fd));
	setenv("NO_COLOR", "", 1); /* empty: as if unset */
	assert_true(cliopt_use_color(CLIOPT_COLOR_ALWAYS, fd));
	unsetenv("NO_COLOR");
	unsetenv("CLICOLOR_FORCE");
	fclose(f);
}

/* ---- diag's records, as a sink sees them ---- */

static struct diag_where seen, seen_note;
static char seen_message[200], seen_rendered[600];
static size_t seen_notes;

static void keep(const struct diag_record *r, void *ctx)
{
	(void)ctx;
	seen = r->at;
	seen.line_text = NULL;
	snprintf(seen_message, sizeof seen_message, "%s", r->message);
	snprintf(seen_rendered, sizeof seen_rendered, "%s", r->rendered);
	seen_notes = r->n_notes;
	if (r->n_notes)
		seen_note = r->notes[0].at;
}

/* First in the group: no error has been counted yet.  A warning leaves
 * the status at its floor; an error raises 0 to 1, never 2 to 1. */
static void test_status_is_the_worst_level(void **state)
{
	(void)state;
	static const struct diag_sink sink = {keep, NULL};
	assert_int_equal(diag_count(DIAG_ERROR), 0);
	assert_int_equal(cliopt_status(0), 0);
	assert_int_equal(cliopt_status(2), 2);
	diag_set_sink(&sink);
	diag_report(D_EVIDENCE_NONE, (struct diag_loc){.path = "programs/x"}, "a warning");
	assert_int_equal(cliopt_status(0), 0);
	diag_report(D_FM_FIELD, (struct diag_loc){.path = "pages/p.md"}, "an error");
	diag_set_sink(NULL);
	assert_int_equal(cliopt_status(0), 1);
	assert_int_equal(cliopt_status(1), 1);
	assert_int_equal(cliopt_status(2), 2);
}

static void test_record_columns_count_code_points(void **state)
{
	(void)state;
	static const struct diag_sink sink = {keep, NULL};
	diag_set_sink(&sink);
	/* "é" is two bytes: byte column 8 ("1,5") is character column 7 */
	const char line[] = "Le débit 1,5 ms\n";
	struct diag_loc at = {"pages/p.md", 3, 10, 3, line, sizeof line - 1};
	struct diag *d = diag_begin(D_NUMBER_UNTRACED, at, "%s is not in the evidence", "1,5");
	struct diag_loc ev = {"evidence/x/run.txt", 9, 0, 0, NULL, 0};
	diag_note(d, ev, "the nearest value");
	diag_hint(d, "fix it");
	diag_end(d);
	diag_set_sink(NULL);
	assert_string_equal(seen.path, "pages/p.md");
	assert_int_equal(seen.line, 3);
	assert_int_equal(seen.col, 9);
	assert_int_equal(seen.end_col, 12);
	assert_string_equal(seen_message, "1,5 is not in the evidence");
	assert_int_equal(seen_notes, 1);
	assert_int_equal(seen_note.line, 9);
	assert_int_equal(seen_note.col, 0);
	/* the text report counts code points too: one unit in every format */
	assert_non_null(strstr(seen_rendered, "pages/p.md:3:9: error: 1,5 is not in the evidence [number-untraced]"));
	assert_non_null(strstr(seen_rendered, "hint: fix it\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_is_the_worst_level),
		cmocka_unit_test(test_shared_and_own_options),
		cmocka_unit_test(test_operands_first_and_double_dash),
		cmocka_unit_test(test_abbreviation),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_unknown_and_bad_values),
		cmocka_unit_test(test_help_and_version),
		cmocka_unit_test(test_color_rule),
		cmocka_unit_test(test_record_columns_count_code_points),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

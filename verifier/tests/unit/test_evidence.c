/*
 * test_evidence.c - reading "coursecheck-evidence 1" files: every field of
 * a valid file, the body hash, and each malformed or truncated shape with
 * the kind, line and column of the first problem.
 *
 * The files are built in memory from a table of header fields; the
 * body-sha256 line is computed here over the body with sha256_hex, so a
 * test can change any one field or line and keep the rest valid.
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
#include "evidence.h"
#include "re.h"
#include "sha256.h"
#include "textfile.h"

#define EV_PATH "evidence/day31-scan-1/run-2026-11-30.txt"
#define SOURCE_SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* The header in file order; line i + 2 of the file.  body-sha256 is
 * computed when its value is NULL. */
static const struct {
	const char *key;
	const char *value;
} header[] = {
	{"lesson", "day31-scan-1"},                              /* 2 */
	{"program", "programs/day31-scan-1/scan.cu"},            /* 3 */
	{"source-sha256", SOURCE_SHA},                           /* 4 */
	{"build", "nvcc -O3 -arch=sm_90 -o scan scan.cu"},       /* 5 */
	{"run", "./scan 1048576"},                               /* 6 */
	{"gpu", "NVIDIA H200"},                                  /* 7 */
	{"compute-capability", "9.0"},                           /* 8 */
	{"driver", "580.159.04"},                                /* 9 */
	{"cuda", "12.6"},                                        /* 10 */
	{"captured", "2026-11-30T10:05:12Z"},                    /* 11 */
	{"node", "gpu-node-07"},                                 /* 12 */
	{"exit", "0"},                                           /* 13 */
	{"wall-seconds", "1.25"},                                /* 14: not required, kept */
	{"body-sha256", NULL},                                   /* 15 */
};
#define N_HEADER (sizeof header / sizeof header[0])
#define STDOUT_LINE 16

#define BODY                                                                                                     \
	"stdout: 3\n"       /* 16 */                                                                         \
	"n = 1048576\n"     /* 17 */                                                                         \
	"scan: 0.325 ms\n"  /* 18 */                                                                         \
	"OK\n"              /* 19 */                                                                         \
	"stderr: 1\n"       /* 20 */                                                                         \
	"warning: slow\n"   /* 21 */

/* How to change the standard file. */
struct edit {
	const char *skip;      /* leave this header key out */
	const char *key;       /* give this key ... */
	const char *value;     /* ... this value instead */
	const char *raw_line;  /* a header line written as is, after the others */
	const char *body;      /* another body (NULL: BODY) */
	const char *magic;     /* another first line */
};

/* The file text; the caller frees it. */
static char *evidence_text(struct edit e)
{
	const char *body = e.body ? e.body : BODY;
	char sha[SHA256_HEX_LEN + 1];
	sha256_hex(body, strlen(body), sha);
	size_t cap = 4096 + strlen(body);
	char *text = malloc(cap);
	assert_non_null(text);
	size_t used = (size_t)snprintf(text, cap, "%s\n", e.magic ? e.magic : EVIDENCE_MAGIC);
	for (size_t i = 0; i < N_HEADER; i++) {
		const char *key = header[i].key;
		if (e.skip && strcmp(key, e.skip) == 0)
			continue;
		const char *value = header[i].value ? header[i].value : sha;
		if (e.key && strcmp(key, e.key) == 0)
			value = e.value;
		used += (size_t)snprintf(text + used, cap - used, "%s: %s\n", key, value);
	}
	if (e.raw_line)
		used += (size_t)snprintf(text + used, cap - used, "%s\n", e.raw_line);
	snprintf(text + used, cap - used, "%s", body);
	return text;
}

static int parse_text(const char *text, size_t len, struct evidence *ev, struct evidence_problem *prob)
{
	memset(ev, 0, sizeof *ev);
	memset(prob, 0, sizeof *prob);
	textfile_from_memory(text, len, EV_PATH, &ev->tf);
	return evidence_parse(ev, prob);
}

static int parse_edit(struct edit e, struct evidence *ev, struct evidence_problem *prob)
{
	char *text = evidence_text(e);
	int rc = parse_text(text, strlen(text), ev, prob);
	free(text);
	return rc;
}

/* The parse of e fails with kind at line:col and a message holding what. */
static void assert_problem(struct edit e, enum diag_kind kind, size_t line, size_t col, const char *what)
{
	struct evidence ev;
	struct evidence_problem prob;
	int rc = parse_edit(e, &ev, &prob);
	evidence_free(&ev); /* before any assertion, so a failure leaks nothing */
	if (rc != -2 || prob.kind != kind || prob.line != line || prob.col != col || !strstr(prob.message, what))
		print_error("rc %d, kind %s at %zu:%zu: %s\n", rc, diag_id(prob.kind), prob.line, prob.col,
			    prob.message);
	assert_int_equal(rc, -2);
	assert_int_equal(prob.kind, kind);
	assert_int_equal(prob.line, line);
	assert_int_equal(prob.col, col);
	assert_non_null(strstr(prob.message, what));
}

static void assert_line(const struct evidence *ev, size_t k, const char *expected)
{
	size_t len;
	const char *s = evidence_stdout(ev, k, &len);
	assert_int_equal(len, strlen(expected));
	assert_memory_equal(s, expected, len);
}

/* ---- a valid file ---- */

static void test_valid_file(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit((struct edit){0}, &ev, &prob), 0);
	assert_int_equal(ev.n_fields, N_HEADER);
	for (size_t i = 0; i < N_HEADER; i++) {
		assert_string_equal(ev.fields[i].key, header[i].key);
		assert_int_equal(ev.fields[i].line, i + 2);
	}
	assert_int_equal(ev.stdout_line, STDOUT_LINE);
	assert_int_equal(ev.stdout_first, 17);
	assert_int_equal(ev.n_stdout, 3);
	assert_int_equal(ev.stderr_line, 20);
	assert_int_equal(ev.stderr_first, 21);
	assert_int_equal(ev.n_stderr, 1);
	assert_int_equal(ev.tf.n_lines, 21);
	assert_memory_equal(ev.tf.data + ev.body_offset, "stdout: 3\n", 10);
	assert_line(&ev, 0, "n = 1048576");
	assert_line(&ev, 1, "scan: 0.325 ms");
	assert_line(&ev, 2, "OK");
	size_t len;
	const char *err = textfile_line(&ev.tf, ev.stderr_first, &len);
	assert_int_equal(len, 13);
	assert_memory_equal(err, "warning: slow", 13);
	evidence_free(&ev);
	assert_int_equal(ev.n_fields, 0);
	assert_null(ev.fields);
}

static void test_evidence_get(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit((struct edit){0}, &ev, &prob), 0);
	size_t line = 0;
	assert_string_equal(evidence_get(&ev, "gpu", &line), "NVIDIA H200");
	assert_int_equal(line, 7);
	assert_string_equal(evidence_get(&ev, "build", &line), "nvcc -O3 -arch=sm_90 -o scan scan.cu");
	assert_int_equal(line, 5);
	assert_string_equal(evidence_get(&ev, "wall-seconds", &line), "1.25"); /* unknown keys are kept */
	assert_int_equal(line, 14);
	assert_string_equal(evidence_get(&ev, "lesson", NULL), "day31-scan-1");
	line = 99;
	assert_null(evidence_get(&ev, "GPU", &line));
	assert_null(evidence_get(&ev, "stdout", &line));
	assert_null(evidence_get(&ev, "", &line));
	assert_int_equal(line, 99); /* untouched when absent */
	evidence_free(&ev);
}

static void test_body_intact_then_edited(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit((struct edit){0}, &ev, &prob), 0);
	char actual[SHA256_HEX_LEN + 1];
	char expected[SHA256_HEX_LEN + 1];
	sha256_hex(BODY, strlen(BODY), expected);
	assert_true(evidence_body_intact(&ev, actual));
	assert_string_equal(actual, expected);
	assert_string_equal(evidence_get(&ev, "body-sha256", NULL), expected);

	/* one byte of one stdout line: "0.325" becomes "0.326" */
	size_t len;
	const char *s = evidence_stdout(&ev, 1, &len);
	char *five = strchr(s, '5');
	assert_non_null(five);
	*five = '6';
	assert_false(evidence_body_intact(&ev, actual));
	assert_string_not_equal(actual, expected);
	*five = '5';
	assert_true(evidence_body_intact(&ev, actual));
	/* the last byte (the final newline) is part of the body too */
	ev.tf.data[ev.tf.len - 1] = ' ';
	assert_false(evidence_body_intact(&ev, actual));
	evidence_free(&ev);
}

static void test_header_is_not_part_of_the_body(void **state)
{
	(void)state;
	/* A different header value with the same body hashes the same. */
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit((struct edit){.key = "node", .value = "another-node"}, &ev, &prob), 0);
	char actual[SHA256_HEX_LEN + 1];
	assert_true(evidence_body_intact(&ev, actual));
	evidence_free(&ev);
}

static void test_wrong_body_sha_is_not_intact(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	/* well-formed hex, wrong digest: parses (judging is the checks' business), not intact */
	assert_int_equal(parse_edit((struct edit){.key = "body-sha256", .value = SOURCE_SHA}, &ev, &prob), 0);
	char actual[SHA256_HEX_LEN + 1];
	assert_false(evidence_body_intact(&ev, actual));
	evidence_free(&ev);
}

static void test_crlf_file_is_normalised_and_intact(void **state)
{
	(void)state;
	char *lf = evidence_text((struct edit){0});
	size_t n = strlen(lf), lines = 0;
	for (size_t i = 0; i < n; i++)
		lines += lf[i] == '\n';
	char *crlf = malloc(n + lines + 1);
	assert_non_null(crlf);
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (lf[i] == '\n')
			crlf[o++] = '\r';
		crlf[o++] = lf[i];
	}
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_text(crlf, o, &ev, &prob), 0);
	assert_true(ev.tf.had_cr);
	assert_int_equal(ev.n_stdout, 3);
	assert_line(&ev, 1, "scan: 0.325 ms");
	assert_string_equal(evidence_get(&ev, "gpu", NULL), "NVIDIA H200");
	char actual[SHA256_HEX_LEN + 1];
	assert_true(evidence_body_intact(&ev, actual));
	evidence_free(&ev);
	free(crlf);
	free(lf);
}

static void test_counts_drive_the_parse(void **state)
{
	(void)state;
	/* stdout lines that read like the stderr header are still stdout */
	struct edit e = {.body = "stdout: 2\n"
				 "stderr: 5\n"
				 "stdout: 0\n"
				 "stderr: 2\n"
				 "stdout: 1\n"
				 "coursecheck-evidence 1\n"};
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit(e, &ev, &prob), 0);
	assert_int_equal(ev.n_stdout, 2);
	assert_line(&ev, 0, "stderr: 5");
	assert_line(&ev, 1, "stdout: 0");
	assert_int_equal(ev.stderr_line, STDOUT_LINE + 3);
	assert_int_equal(ev.n_stderr, 2);
	assert_int_equal(ev.stderr_first, STDOUT_LINE + 4);
	evidence_free(&ev);
}

static void test_empty_streams(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit((struct edit){.body = "stdout: 0\nstderr: 0\n"}, &ev, &prob), 0);
	assert_int_equal(ev.n_stdout, 0);
	assert_int_equal(ev.n_stderr, 0);
	assert_int_equal(ev.stderr_line, STDOUT_LINE + 1);
	assert_int_equal(ev.stderr_first, STDOUT_LINE + 2);
	evidence_free(&ev);
	/* empty and blank stdout lines are lines */
	assert_int_equal(parse_edit((struct edit){.body = "stdout: 2\n\n   \nstderr: 0\n"}, &ev, &prob), 0);
	assert_line(&ev, 0, "");
	assert_line(&ev, 1, "   ");
	evidence_free(&ev);
}

static void test_captured_date(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit((struct edit){0}, &ev, &prob), 0);
	char date[11];
	memset(date, 'x', sizeof date);
	assert_true(evidence_captured_date(&ev, date));
	assert_string_equal(date, "2026-11-30");
	evidence_free(&ev);
}

static void test_exit_ok(void **state)
{
	(void)state;
	static const struct {
		const char *exit;
		bool ok;
	} cases[] = {{"0", true}, {"1", false}, {"signal 11 (SIGSEGV)", false}, {"00", false}, {"timeout", false}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct evidence ev;
		struct evidence_problem prob;
		assert_int_equal(parse_edit((struct edit){.key = "exit", .value = cases[i].exit}, &ev, &prob), 0);
		assert_string_equal(evidence_get(&ev, "exit", NULL), cases[i].exit);
		if (evidence_exit_ok(&ev) != cases[i].ok)
			print_error("exit: %s\n", cases[i].exit);
		assert_int_equal(evidence_exit_ok(&ev), cases[i].ok);
		evidence_free(&ev);
	}
}

static void test_load_missing_file(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob = {.line = 77};
	const char *why = NULL;
	assert_int_equal(evidence_load("/nonexistent/coursecheck/evidence.txt", EV_PATH, &ev, &prob, &why), -1);
	assert_non_null(why);
	assert_string_equal(why, "No such file or directory");
	assert_int_equal(prob.line, 77); /* untouched */
	evidence_free(&ev);
}

/* ---- malformed and truncated ---- */

static void test_wrong_magic(void **state)
{
	(void)state;
	assert_problem((struct edit){.magic = "coursecheck-evidence 2"}, D_EVIDENCE_MALFORMED, 1, 1,
		       "first line is not 'coursecheck-evidence 1'");
	assert_problem((struct edit){.magic = "coursecheck-evidence 1 "}, D_EVIDENCE_MALFORMED, 1, 1,
		       "first line is not");
	assert_problem((struct edit){.magic = "lesson: day31-scan-1"}, D_EVIDENCE_MALFORMED, 1, 1, "first line is not");
}

static void test_header_line_without_colon_space(void **state)
{
	(void)state;
	/* the column is where ": " was expected */
	assert_problem((struct edit){.raw_line = "gpu=NVIDIA H200"}, D_EVIDENCE_MALFORMED, STDOUT_LINE, 4,
		       "header line is not 'key: value'");
	assert_problem((struct edit){.raw_line = "notes:plain"}, D_EVIDENCE_MALFORMED, STDOUT_LINE, 6,
		       "header line is not 'key: value'");
	assert_problem((struct edit){.raw_line = "Gpu: x"}, D_EVIDENCE_MALFORMED, STDOUT_LINE, 1,
		       "header line is not 'key: value'");
	assert_problem((struct edit){.raw_line = ""}, D_EVIDENCE_MALFORMED, STDOUT_LINE, 1,
		       "header line is not 'key: value'");
	assert_problem((struct edit){.raw_line = "notes:"}, D_EVIDENCE_MALFORMED, STDOUT_LINE, 6,
		       "header line is not 'key: value'");
}

static void test_repeated_key(void **state)
{
	(void)state;
	assert_problem((struct edit){.raw_line = "exit: 1"}, D_EVIDENCE_MALFORMED, STDOUT_LINE, 1,
		       "header field 'exit' is repeated");
}

static void test_each_required_key_missing(void **state)
{
	(void)state;
	size_t n = 0;
	for (const char *const *k = evidence_required_keys; *k; k++, n++) {
		char what[128];
		snprintf(what, sizeof what, "required header field '%s' is missing", *k);
		/* one line fewer: the stdout line moves up */
		assert_problem((struct edit){.skip = *k}, D_EVIDENCE_MALFORMED, STDOUT_LINE - 1, 1, what);
	}
	assert_int_equal(n, 13);
}

static void test_unknown_key_is_not_required(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit((struct edit){.skip = "wall-seconds"}, &ev, &prob), 0);
	assert_int_equal(ev.n_fields, N_HEADER - 1);
	evidence_free(&ev);
}

static void test_bad_sha_hex(void **state)
{
	(void)state;
	char upper[] = SOURCE_SHA;
	for (char *p = upper; *p; p++)
		if (*p >= 'a' && *p <= 'f')
			*p = (char)(*p - 'a' + 'A');
	assert_problem((struct edit){.key = "source-sha256", .value = upper}, D_EVIDENCE_MALFORMED, 4, 16,
		       "source-sha256 is not 64 lowercase hex digits");
	assert_problem((struct edit){.key = "source-sha256", .value = SOURCE_SHA "0"}, D_EVIDENCE_MALFORMED, 4, 16,
		       "source-sha256 is not 64 lowercase hex digits");
	assert_problem((struct edit){.key = "body-sha256", .value = "0123456789abcdef"}, D_EVIDENCE_MALFORMED, 15,
		       14, "body-sha256 is not 64 lowercase hex digits");
	assert_problem((struct edit){.key = "body-sha256",
				     .value = "g123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
		       D_EVIDENCE_MALFORMED, 15, 14, "body-sha256 is not 64 lowercase hex digits");
}

static void test_bad_captured_shape(void **state)
{
	(void)state;
	static const char *const bad[] = {"2026-11-30 10:05:12Z", "2026-11-30T10:05:12+02:00", "2026-11-30",
					  "2026-11-30T10:05:12", "2026-1x-30T10:05:12Z", "26-11-30T10:05:12Z"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_problem((struct edit){.key = "captured", .value = bad[i]}, D_EVIDENCE_MALFORMED, 11, 11,
			       "captured is not a UTC time like 2026-11-30T10:05:12Z");
}

static void test_truncated_stdout(void **state)
{
	(void)state;
	/* 5 stdout lines counted, 2 present: the file ends at line 18 */
	assert_problem((struct edit){.body = "stdout: 5\na\nb\n"}, D_EVIDENCE_TRUNCATED, STDOUT_LINE + 2, 1,
		       "stdout counts 5 lines but the file ends after 2 of them");
}

static void test_truncated_stderr(void **state)
{
	(void)state;
	assert_problem((struct edit){.body = "stdout: 1\na\nstderr: 3\nx\n"}, D_EVIDENCE_TRUNCATED, STDOUT_LINE + 3,
		       1, "stderr counts 3 lines but the file ends after 1 of them");
}

static void test_missing_stderr_line(void **state)
{
	(void)state;
	/* something else where stderr: M belongs */
	assert_problem((struct edit){.body = "stdout: 1\na\nb\nstderr: 0\n"}, D_EVIDENCE_MALFORMED, STDOUT_LINE + 2,
		       1, "expected 'stderr: M' after the 1 stdout lines");
	assert_problem((struct edit){.body = "stdout: 1\na\nstderr:0\n"}, D_EVIDENCE_MALFORMED, STDOUT_LINE + 2, 1,
		       "expected 'stderr: M'");
	/* the file ends where stderr: M belongs */
	assert_problem((struct edit){.body = "stdout: 1\na\n"}, D_EVIDENCE_TRUNCATED, STDOUT_LINE + 1, 1,
		       "the file ends before its 'stderr: M' line");
	/* the file ends inside the stdout lines */
	assert_problem((struct edit){.body = "stdout: 2\na\n"}, D_EVIDENCE_TRUNCATED, STDOUT_LINE + 1, 1,
		       "stdout counts 2 lines but the file ends after 1 of them");
}

static void test_text_after_stderr(void **state)
{
	(void)state;
	assert_problem((struct edit){.body = "stdout: 0\nstderr: 1\nx\ntrailing\n"}, D_EVIDENCE_MALFORMED,
		       STDOUT_LINE + 3, 1, "text after the 1 stderr lines the header counts");
	/* an empty line at the end is a line too */
	assert_problem((struct edit){.body = "stdout: 0\nstderr: 0\n\n"}, D_EVIDENCE_MALFORMED, STDOUT_LINE + 2, 1,
		       "text after the 0 stderr lines");
}

static void test_last_line_without_newline(void **state)
{
	(void)state;
	assert_problem((struct edit){.body = "stdout: 1\na\nstderr: 1\nwarning"}, D_EVIDENCE_TRUNCATED,
		       STDOUT_LINE + 3, 1, "the last line has no newline");
	assert_problem((struct edit){.body = "stdout: 0\nstderr: 0"}, D_EVIDENCE_TRUNCATED, STDOUT_LINE + 1, 1,
		       "the last line has no newline");
}

static void test_empty_file(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_text("", 0, &ev, &prob), -2);
	assert_int_equal(prob.kind, D_EVIDENCE_TRUNCATED);
	assert_int_equal(prob.line, 1);
	assert_int_equal(prob.col, 1);
	assert_string_equal(prob.message, "evidence file is empty");
	evidence_free(&ev);
}

static void test_header_without_stdout_line(void **state)
{
	(void)state;
	const char *text = EVIDENCE_MAGIC "\nlesson: x\ngpu: y\n";
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_text(text, strlen(text), &ev, &prob), -2);
	assert_int_equal(prob.kind, D_EVIDENCE_TRUNCATED);
	assert_int_equal(prob.line, 3);
	assert_string_equal(prob.message, "the header has no 'stdout: N' line: the file ends at line 3");
	evidence_free(&ev);
}

/*
 * Regression, once a bug in evidence.c, evidence_parse: a "stdout:" line whose count is not
 * plain digits is taken as an ordinary header field named "stdout", and
 * the parser keeps reading the program's output as header lines.  The
 * problem is then reported at a later line with a misleading message:
 * here "header line is not 'key: value'" at line 17 (the first stdout
 * line), and when the output lines happen to look like "key: value" (as
 * "scan: 0.325 ms" does) the file is even called truncated ("the header
 * has no 'stdout: N' line").  Expected: D_EVIDENCE_MALFORMED at the
 * stdout line itself (16).
 */
static void test_stdout_count_not_numeric(void **state)
{
	(void)state;
	assert_problem((struct edit){.body = "stdout: three\nn = 1048576\nscan: 0.325 ms\nOK\nstderr: 0\n"},
		       D_EVIDENCE_MALFORMED, STDOUT_LINE, 1, "stdout");
	assert_problem((struct edit){.body = "stdout: 2 \nscan: 0.325 ms\nexit-code: 0\nstderr: 0\n"},
		       D_EVIDENCE_MALFORMED, STDOUT_LINE, 1, "stdout");
}

static void test_stdout_count_not_numeric_is_an_error(void **state)
{
	(void)state;
	/* whatever the line reported, such a file is never accepted */
	static const char *const bodies[] = {
		"stdout: three\nn = 1048576\nstderr: 0\n",
		"stdout: -1\nstderr: 0\n",
		"stdout: 0x2\na\nb\nstderr: 0\n",
		"stdout:\nstderr: 0\n",
	};
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		struct evidence ev;
		struct evidence_problem prob;
		assert_int_equal(parse_edit((struct edit){.body = bodies[i]}, &ev, &prob), -2);
		evidence_free(&ev);
	}
}

static int release_patterns(void **state)
{
	(void)state;
	re_release_all();
	return 0;
}


/* ---- several runs ---- */

#define TWO_RUNS_BODY                                                                                            \
	BODY                                                                                                     \
	"stdout.racecheck: 2\n"                                                                                  \
	"========= Error: Race reported\n"                                                                       \
	"========= RACECHECK SUMMARY: 1 hazard\n"                                                                \
	"stderr.racecheck: 1\n"                                                                                  \
	"racecheck: done\n"

static int parse_two_runs(const char *exit_racecheck, const char *expect_exit, struct evidence *ev,
			  struct evidence_problem *prob)
{
	char raw[512];
	snprintf(raw, sizeof raw, "runs: main racecheck\nrun.racecheck: compute-sanitizer ./scan\nexit.racecheck: %s%s%s",
		 exit_racecheck, expect_exit ? "\nexpect-exit.racecheck: " : "", expect_exit ? expect_exit : "");
	return parse_edit((struct edit){.raw_line = raw, .body = TWO_RUNS_BODY}, ev, prob);
}

static void test_two_runs(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_two_runs("1", "1", &ev, &prob), 0);
	assert_int_equal(ev.n_runs, 2);
	assert_string_equal(ev.runs[0].name, "main");
	assert_string_equal(ev.runs[0].command, "./scan 1048576");
	assert_int_equal(ev.runs[0].n_stdout, 3);
	assert_string_equal(ev.runs[1].name, "racecheck");
	assert_string_equal(ev.runs[1].command, "compute-sanitizer ./scan");
	assert_int_equal(ev.runs[1].expect_exit, 1);
	assert_int_equal(ev.runs[1].n_stdout, 2);
	assert_int_equal(ev.runs[1].n_stderr, 1);
	size_t len;
	const char *s = evidence_run_line(&ev, &ev.runs[1], true, 0, &len);
	assert_int_equal(len, strlen("racecheck: done"));
	assert_memory_equal(s, "racecheck: done", len);
	s = evidence_run_line(&ev, &ev.runs[1], false, 1, &len);
	assert_memory_equal(s, "========= RACECHECK SUMMARY: 1 hazard", len);
	assert_true(evidence_exit_ok(&ev));
	assert_ptr_equal(evidence_run_named(&ev, "racecheck"), &ev.runs[1]);
	assert_ptr_equal(evidence_run_named(&ev, NULL), &ev.runs[0]);
	assert_null(evidence_run_named(&ev, "memcheck"));
	char actual[SHA256_HEX_LEN + 1];
	assert_true(evidence_body_intact(&ev, actual)); /* the hash covers every section */
	evidence_free(&ev);
}

static void test_run_expected_to_fail_that_passed(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_two_runs("0", "1", &ev, &prob), 0);
	assert_false(evidence_exit_ok(&ev));
	assert_ptr_equal(evidence_failed_run(&ev), &ev.runs[1]);
	evidence_free(&ev);
	assert_int_equal(parse_two_runs("1", NULL, &ev, &prob), 0); /* exit 1, none expected */
	assert_false(evidence_exit_ok(&ev));
	evidence_free(&ev);
}

/* A run ended as expected exactly when its exit is the expected status as
 * "%d" prints it (snprintf here, the parser's own by hand): every status
 * 0-255 against itself, with a leading zero or '+', and one more. */
static void test_expect_exit_as_printed(void **state)
{
	(void)state;
	for (int want = 0; want <= 255; want++) {
		char expect[16], exits[4][16];
		snprintf(expect, sizeof expect, "%d", want);
		snprintf(exits[0], sizeof exits[0], "%d", want);
		snprintf(exits[1], sizeof exits[1], "0%d", want);
		snprintf(exits[2], sizeof exits[2], "+%d", want);
		snprintf(exits[3], sizeof exits[3], "%d", want + 1);
		for (int k = 0; k < 4; k++) {
			struct evidence ev;
			struct evidence_problem prob;
			assert_int_equal(parse_two_runs(exits[k], expect, &ev, &prob), 0);
			bool ok = strcmp(exits[k], expect) == 0;
			if (evidence_exit_ok(&ev) != ok)
				print_error("exit %s, expect-exit %s\n", exits[k], expect);
			assert_int_equal(evidence_exit_ok(&ev), ok);
			assert_ptr_equal(evidence_failed_run(&ev), ok ? NULL : &ev.runs[1]);
			evidence_free(&ev);
		}
	}
}

/* A header key is a-z, 0-9, '-' and '.': every byte 1-255 between two key letters, a line of its own
 * after the header, is read as part of the key exactly when it is one
 * of those; any other ends the key at column 2 (a newline too: "x" is
 * then a line of its own). */
static void test_key_chars_as_listed(void **state)
{
	(void)state;
	for (int c = 1; c <= 255; c++) {
		char raw[16] = {'x', (char)c, 'y', ':', ' ', 'v', '\0'};
		struct evidence ev;
		struct evidence_problem prob;
		int rc = parse_edit((struct edit){.raw_line = raw}, &ev, &prob);
		bool listed = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
		if (listed != (rc == 0))
			print_error("byte 0x%02x: rc %d, %s\n", (unsigned)c, rc, prob.message);
		assert_int_equal(rc, listed ? 0 : -2);
		if (!listed) {
			assert_int_equal(prob.line, STDOUT_LINE);
			assert_int_equal(prob.col, 2);
			assert_non_null(strstr(prob.message, "is not 'key: value'"));
		}
		evidence_free(&ev);
	}
}

static void test_expect_failed_marks_a_run(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit((struct edit){.raw_line = "expect-failed: main"}, &ev, &prob), 0);
	assert_false(evidence_exit_ok(&ev));
	evidence_free(&ev);
}

static void test_one_run_reads_as_before(void **state)
{
	(void)state;
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit((struct edit){0}, &ev, &prob), 0);
	assert_int_equal(ev.n_runs, 1);
	assert_string_equal(ev.runs[0].name, "main");
	assert_int_equal(ev.runs[0].stdout_first, ev.stdout_first);
	assert_int_equal(ev.runs[0].n_stderr, ev.n_stderr);
	evidence_free(&ev);
}

static void test_runs_section_missing(void **state)
{
	(void)state;
	/* the runs: line names a second run whose sections are not there */
	assert_problem((struct edit){.raw_line = "runs: main racecheck\nrun.racecheck: x\nexit.racecheck: 0"},
		       D_EVIDENCE_TRUNCATED, 24, 1, "stdout.racecheck");
	assert_problem((struct edit){.raw_line = "runs: main racecheck", .body = TWO_RUNS_BODY}, D_EVIDENCE_MALFORMED,
		       STDOUT_LINE + 1, 1, "run 'racecheck' has no");
	assert_problem((struct edit){.raw_line = "runs: main Race"}, D_EVIDENCE_MALFORMED, 16, 7, "run names");
	assert_problem((struct edit){.raw_line = "runs: main main"}, D_EVIDENCE_MALFORMED, 16, 7, "twice");
}

/* The runs are allocated for the names the runs: line holds (one more
 * than its spaces): 64 names are read (the next problem is the second
 * run's missing fields), 65 refused at the limit, and runs of spaces
 * or a space at the end never write past the names counted (ASan). */
static void test_runs_sized_by_names(void **state)
{
	(void)state;
	char raw[1024];
	size_t used = (size_t)snprintf(raw, sizeof raw, "runs: main");
	for (int i = 1; i < 64; i++)
		used += (size_t)snprintf(raw + used, sizeof raw - used, " r%d", i);
	assert_problem((struct edit){.raw_line = raw}, D_EVIDENCE_MALFORMED, STDOUT_LINE + 1, 1,
		       "run 'r1' has no");
	snprintf(raw + used, sizeof raw - used, " r64");
	assert_problem((struct edit){.raw_line = raw}, D_EVIDENCE_MALFORMED, 16, 7, "at most 64 run names");
	assert_problem((struct edit){.raw_line = "runs: main  racecheck"}, D_EVIDENCE_MALFORMED, 16, 7, "run names");
	assert_problem((struct edit){.raw_line = "runs:  main"}, D_EVIDENCE_MALFORMED, 16, 7, "run names");
	struct evidence ev;
	struct evidence_problem prob;
	assert_int_equal(parse_edit((struct edit){.raw_line = "runs: main "}, &ev, &prob), 0);
	assert_int_equal(ev.n_runs, 1);
	evidence_free(&ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_file),
		cmocka_unit_test(test_two_runs),
		cmocka_unit_test(test_run_expected_to_fail_that_passed),
		cmocka_unit_test(test_expect_exit_as_printed),
		cmocka_unit_test(test_key_chars_as_listed),
		cmocka_unit_test(test_expect_failed_marks_a_run),
		cmocka_unit_test(test_one_run_reads_as_before),
		cmocka_unit_test(test_runs_section_missing),
		cmocka_unit_test(test_evidence_get),
		cmocka_unit_test(test_body_intact_then_edited),
		cmocka_unit_test(test_header_is_not_part_of_the_body),
		cmocka_unit_test(test_wrong_body_sha_is_not_intact),
		cmocka_unit_test(test_crlf_file_is_normalised_and_intact),
		cmocka_unit_test(test_counts_drive_the_parse),
		cmocka_unit_test(test_empty_streams),
		cmocka_unit_test(test_captured_date),
		cmocka_unit_test(test_exit_ok),
		cmocka_unit_test(test_load_missing_file),
		cmocka_unit_test(test_wrong_magic),
		cmocka_unit_test(test_header_line_without_colon_space),
		cmocka_unit_test(test_repeated_key),
		cmocka_unit_test(test_runs_sized_by_names),
		cmocka_unit_test(test_each_required_key_missing),
		cmocka_unit_test(test_unknown_key_is_not_required),
		cmocka_unit_test(test_bad_sha_hex),
		cmocka_unit_test(test_bad_captured_shape),
		cmocka_unit_test(test_truncated_stdout),
		cmocka_unit_test(test_truncated_stderr),
		cmocka_unit_test(test_missing_stderr_line),
		cmocka_unit_test(test_text_after_stderr),
		cmocka_unit_test(test_last_line_without_newline),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_header_without_stdout_line),
		cmocka_unit_test(test_stdout_count_not_numeric),
		cmocka_unit_test(test_stdout_count_not_numeric_is_an_error),
	};
	return cmocka_run_group_tests(tests, NULL, release_patterns);
}

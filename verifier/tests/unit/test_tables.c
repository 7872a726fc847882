/*
 * test_tables.c - the table-driven unit tests: every file of
 * verifier/tests/unit/tables/ (TABLES_DIR to read another folder) is a
 * list of cases for the number tokenizer (numtok.h), the derivation
 * expressions (expr.h), the claims (claim.h) and the markers (marker.h),
 * one cmocka test a file.  A row that fails prints FILE:LINE and what it
 * got, and the file's other rows still run.
 *
 * The format, after jq's tests/jq.test: plain text, a case is a group of
 * lines ended by a blank line (or the end of the file), its first line
 * its kind and each next line one field.  A line starting with '#' is a
 * comment.  A field is taken as written but for the escapes \\, \n, \t,
 * \xHH (a byte) and \uXXXX (a code point, as UTF-8); a field written ""
 * is empty.  The kinds and their fields:
 *
 *   spans      TEXT, SPANS         numtok_scan's tokens' source text, joined by |
 *   value      EXPR, NUMBER        expr_eval's value, == strtod(NUMBER)
 *   error      EXPR, MESSAGE, OFFSET   expr_eval fails so, with nothing kept
 *   true       CLAIM               claim_eval's truth, with the places below
 *   false      CLAIM
 *   claim-error CLAIM, MESSAGE, OFFSET
 *   decide     CLAIM, VERDICT, EXACT   claim_eval_decide with a decider that
 *                                  leaves a comparison of lhs 1 undecided, calls
 *                                  lhs 2 true and lhs 3 false (VERDICT true,
 *                                  false or undecided; EXACT true or false)
 *   marker     TEXT, KIND, ARG     marker_parse: well formed, KIND as
 *                                  marker_kind_name writes it, its argument
 *   plain      TEXT                an ordinary comment
 *   unknown    TEXT, NEAREST, PROBLEM, SUGGEST
 *   malformed  TEXT, KIND, PROBLEM, SUGGEST
 *
 * The claims' places: [a] = 3, [b] = 5, [zero] = 0, [r] = 4,
 * [64 inclusive, in place | mismatches] = 3120; min() of any of them 2 and
 * max() 9; any other place is an error "no place 'NAME'".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claim.h"
#include "expr.h"
#include "marker.h"
#include "numtok.h"

#define MAX_FIELDS 6
#define FIELD_MAX 4096

struct row {
	const char *file;
	int line;                         /* the kind's line */
	char kind[32];
	int n;                            /* fields after the kind */
	char field[MAX_FIELDS][FIELD_MAX];
	size_t len[MAX_FIELDS];           /* a field may hold a NUL byte (\x00) */
};

static int failures;

static void row_fail(const struct row *r, const char *fmt, ...)
{
	va_list ap;
	char msg[FIELD_MAX * 2];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	print_error("%s:%d: %s: %s\n", r->file, r->line, r->kind, msg);
	failures++;
}

/* ---- the format ---- */

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static size_t put_utf8(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	out[0] = (char)(0xE0 | (cp >> 12));
	out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[2] = (char)(0x80 | (cp & 0x3F));
	return 3;
}

/* The escapes of src decoded into out (room for FIELD_MAX); its length, or
 * (size_t)-1 for a bad escape. */
static size_t unescape(const char *src, char *out)
{
	size_t n = 0;
	if (strcmp(src, "\"\"") == 0) {
		out[0] = '\0';
		return 0;
	}
	for (const char *p = src; *p; p++) {
		if (n + 4 >= FIELD_MAX)
			return (size_t)-1;
		if (*p != '\\') {
			out[n++] = *p;
			continue;
		}
		p++;
		if (*p == '\\' || *p == 'n' || *p == 't') {
			out[n++] = *p == 'n' ? '\n' : *p == 't' ? '\t' : '\\';
		} else if (*p == 'x' && hex_digit(p[1]) >= 0 && hex_digit(p[2]) >= 0) {
			out[n++] = (char)(hex_digit(p[1]) * 16 + hex_digit(p[2]));
			p += 2;
		} else if (*p == 'u') {
			unsigned long cp = 0;
			for (int i = 1; i <= 4; i++) {
				if (hex_digit(p[i]) < 0)
					return (size_t)-1;
				cp = cp * 16 + (unsigned long)hex_digit(p[i]);
			}
			n += put_utf8(out + n, cp);
			p += 4;
		} else {
			return (size_t)-1;
		}
	}
	out[n] = '\0';
	return n;
}

/* ---- the kinds ---- */

static void check_spans(const struct row *r)
{
	struct num_token *t;
	size_t n = numtok_scan(r->field[0], r->len[0], &t);
	char got[FIELD_MAX];
	size_t used = 0;
	got[0] = '\0';
	for (size_t i = 0; i < n && used < sizeof got - 1; i++) {
		int w = snprintf(got + used, sizeof got - used, "%s%.*s", i ? "|" : "", (int)(t[i].end - t[i].start),
				 r->field[0] + t[i].start);
		used += (size_t)w < sizeof got - used ? (size_t)w : sizeof got - used - 1;
	}
	free(t);
	if (strcmp(got, r->field[1]) != 0)
		row_fail(r, "\"%s\" gave \"%s\", expected \"%s\"", r->field[0], got, r->field[1]);
}

static void check_value(const struct row *r)
{
	struct expr_result res;
	char *end;
	double want = strtod(r->field[1], &end);
	if (*end != '\0' || end == r->field[1]) {
		row_fail(r, "\"%s\" is not a number", r->field[1]);
		return;
	}
	if (expr_eval(r->field[0], r->len[0], &res) != 0)
		row_fail(r, "\"%s\": %s at %zu", r->field[0], res.err, res.err_offset);
	else if (res.value != want || res.err[0] != '\0')
		row_fail(r, "\"%s\" = %.17g, expected %.17g", r->field[0], res.value, want);
	expr_result_free(&res);
}

/* OFFSET, a decimal field; -1 where it is not one */
static long offset_of(const struct row *r, int i)
{
	char *end;
	long v = strtol(r->field[i], &end, 10);
	return *end == '\0' && end != r->field[i] ? v : -1;
}

static void check_error(const struct row *r)
{
	struct expr_result res;
	int rc = expr_eval(r->field[0], r->len[0], &res);
	if (rc != -1 || strcmp(res.err, r->field[1]) != 0 || (long)res.err_offset != offset_of(r, 2))
		row_fail(r, "\"%s\": rc %d, \"%s\" at %zu, expected \"%s\" at %s", r->field[0], rc, res.err,
			 res.err_offset, r->field[1], r->field[2]);
	else if (res.literals != NULL || res.n_literals != 0 || res.value != 0)
		row_fail(r, "\"%s\": an error keeps literals or a value", r->field[0]);
	expr_result_free(&res);
}

static int test_place(void *ctx, const char *text, size_t len, enum expr_place_fn fn, double *value, char *err,
		      size_t errlen)
{
	(void)ctx;
	static const struct {
		const char *name;
		double value;
	} places[] = {{"a", 3}, {"b", 5}, {"zero", 0}, {"r", 4}, {"64 inclusive, in place | mismatches", 3120}};
	for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
		if (strlen(places[i].name) == len && memcmp(places[i].name, text, len) == 0) {
			*value = fn == EXPR_PLACE_MIN ? 2 : fn == EXPR_PLACE_MAX ? 9 : places[i].value;
			return 0;
		}
	snprintf(err, errlen, "no place '%.*s'", (int)len, text);
	return -1;
}

static const struct expr_env places_env = {test_place, NULL};

static void check_truth(const struct row *r, bool want)
{
	struct claim_result res;
	int rc = claim_eval(r->field[0], r->len[0], &places_env, &res);
	if (rc != 0)
		row_fail(r, "\"%s\": %s at %zu", r->field[0], res.err, res.err_offset);
	else if (res.truth != want)
		row_fail(r, "\"%s\" is %s", r->field[0], res.truth ? "true" : "false");
	claim_result_free(&res);
}

static void check_claim_error(const struct row *r)
{
	struct claim_result res;
	int rc = claim_eval(r->field[0], r->len[0], &places_env, &res);
	if (rc != -1 || strcmp(res.err, r->field[1]) != 0 || (long)res.err_offset != offset_of(r, 2))
		row_fail(r, "\"%s\": rc %d, \"%s\" at %zu, expected \"%s\" at %s", r->field[0], rc, res.err,
			 res.err_offset, r->field[1], r->field[2]);
	else if (res.cmps != NULL || res.literals != NULL || res.places != NULL)
		row_fail(r, "\"%s\": an error keeps its comparisons, literals or places", r->field[0]);
	claim_result_free(&res);
}

static enum claim_truth decide_by_lhs(void *ctx, const char *text, const struct claim_result *r,
				      const struct claim_cmp *c)
{
	(void)ctx, (void)text, (void)r;
	return c->lhs == 1 ? CLAIM_UNDECIDED : c->lhs == 2 ? CLAIM_TRUE : c->lhs == 3 ? CLAIM_FALSE : c->verdict;
}

static void check_decide(const struct row *r)
{
	static const char *const names[] = {"false", "true", "undecided"};
	struct claim_decider d = {decide_by_lhs, NULL};
	struct claim_result res;
	if (claim_eval_decide(r->field[0], r->len[0], NULL, &d, &res) != 0)
		row_fail(r, "\"%s\": %s at %zu", r->field[0], res.err, res.err_offset);
	else if (strcmp(names[res.verdict], r->field[1]) != 0 || strcmp(names[res.truth], r->field[2]) != 0)
		row_fail(r, "\"%s\": verdict %s, exact %s", r->field[0], names[res.verdict], names[res.truth]);
	claim_result_free(&res);
}

static const char *marker_status_name(enum marker_status s)
{
	return s == MARKER_OK ? "ok" : s == MARKER_UNKNOWN ? "unknown" : "malformed";
}

/* kind "marker", "plain", "unknown" or "malformed": the status and fields
 * the row states */
static void check_marker(const struct row *r)
{
	struct marker m;
	memset(&m, 0x5A, sizeof m); /* marker_parse must set every field */
	marker_parse(r->field[0], r->len[0], &m);
	bool plain = strcmp(r->kind, "plain") == 0;
	const char *status = plain || strcmp(r->kind, "marker") == 0 ? "ok" : r->kind;
	const char *kind = plain ? "comment" : r->field[1];
	char arg[FIELD_MAX] = "";
	const char *problem = "", *suggest = "";
	if (strcmp(r->kind, "unknown") == 0 || strcmp(r->kind, "malformed") == 0)
		problem = r->field[2], suggest = r->field[3];
	if (strcmp(status, marker_status_name(m.status)) != 0 || strcmp(kind, marker_kind_name(m.kind)) != 0) {
		row_fail(r, "\"%s\": %s %s, problem \"%s\"", r->field[0], marker_status_name(m.status),
			 marker_kind_name(m.kind), m.problem);
		return;
	}
	if (strcmp(r->kind, "marker") == 0) {
		if (m.arg_start > m.arg_end || m.arg_end > r->len[0]) {
			row_fail(r, "\"%s\": argument %zu..%zu out of the text", r->field[0], m.arg_start, m.arg_end);
			return;
		}
		snprintf(arg, sizeof arg, "%.*s", (int)(m.arg_end - m.arg_start), r->field[0] + m.arg_start);
		if (strcmp(arg, r->field[2]) != 0)
			row_fail(r, "\"%s\": argument \"%s\", expected \"%s\"", r->field[0], arg, r->field[2]);
	}
	if (strcmp(m.problem, problem) != 0 || strcmp(m.suggest, suggest) != 0)
		row_fail(r, "\"%s\": problem \"%s\" suggest \"%s\", expected \"%s\" and \"%s\"", r->field[0], m.problem,
			 m.suggest, problem, suggest);
}

static const struct kind {
	const char *name;
	int fields;
	void (*check)(const struct row *r);
} kinds[] = {
	{"spans", 2, check_spans},
	{"value", 2, check_value},
	{"error", 3, check_error},
	{"true", 1, NULL},
	{"false", 1, NULL},
	{"claim-error", 3, check_claim_error},
	{"decide", 3, check_decide},
	{"marker", 3, check_marker},
	{"plain", 1, check_marker},
	{"unknown", 4, check_marker},
	{"malformed", 4, check_marker},
};

static void run_row(const struct row *r)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (strcmp(kinds[i].name, r->kind) != 0)
			continue;
		if (r->n != kinds[i].fields)
			row_fail(r, "%d fields, the kind takes %d", r->n, kinds[i].fields);
		else if (kinds[i].check)
			kinds[i].check(r);
		else
			check_truth(r, strcmp(r->kind, "true") == 0);
		return;
	}
	row_fail(r, "no such kind");
}

/* ---- a file ---- */

/* Every row of path run; the number of rows, -1 where it cannot be read */
static int run_file(const char *path, int *rows)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	static struct row r;
	char line[FIELD_MAX];
	int lineno = 0, in_row = 0;
	*rows = 0;
	for (;;) {
		char *got = fgets(line, sizeof line, f);
		if (got) {
			lineno++;
			line[strcspn(line, "\n")] = '\0';
			if (line[0] == '#')
				continue;
		}
		if (!got || line[0] == '\0') {
			if (in_row) {
				run_row(&r);
				(*rows)++;
			}
			in_row = 0;
			if (!got)
				break;
			continue;
		}
		if (!in_row) {
			memset(&r, 0, sizeof r);
			r.file = path, r.line = lineno, in_row = 1;
			snprintf(r.kind, sizeof r.kind, "%.31s", line);
			continue;
		}
		if (r.n == MAX_FIELDS) {
			row_fail(&r, "more than %d fields", MAX_FIELDS);
			continue;
		}
		r.len[r.n] = unescape(line, r.field[r.n]);
		if (r.len[r.n] == (size_t)-1)
			print_error("%s:%d: a bad escape\n", path, lineno), failures++, r.len[r.n] = 0;
		r.n++;
	}
	fclose(f);
	return 0;
}

static void test_table_file(void **state)
{
	const char *path = *state;
	int rows;
	failures = 0;
	if (run_file(path, &rows) != 0)
		fail_msg("%s: %s", path, strerror(errno));
	print_message("%s: %d rows\n", path, rows);
	if (failures)
		fail_msg("%s: %d of %d rows failed", path, failures, rows);
	assert_true(rows > 0);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *dir = getenv("TABLES_DIR") ? getenv("TABLES_DIR") : "verifier/tests/unit/tables";
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "test_tables: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	char *paths[64];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < sizeof paths / sizeof paths[0]) {
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".test") == 0) {
			paths[n] = malloc(strlen(dir) + len + 2);
			assert_non_null(paths[n]);
			sprintf(paths[n], "%s/%s", dir, e->d_name);
			n++;
		}
	}
	closedir(d);
	qsort(paths, n, sizeof paths[0], by_name);
	struct CMUnitTest tests[64];
	for (size_t i = 0; i < n; i++)
		tests[i] = (struct CMUnitTest){paths[i], test_table_file, NULL, NULL, paths[i]};
	int rc = _cmocka_run_group_tests("tables", tests, n, NULL, NULL);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	return rc;
}

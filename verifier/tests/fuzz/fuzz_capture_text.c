/*
 * fuzz_capture_text.c - capture's side of the evidence format
 * (capture_text.h, capture_write.h) read back by the verifier's reader
 * (evidence.h).
 *
 * Input: STDOUT @@@@ STDERR @@@@ REPEAT, a program's raw output.
 * Properties: a transcript is whole LF-terminated lines with no NUL and
 * no CR, counted right, each change flagged; the evidence text composed
 * from it parses, is intact, and gives back every stdout and stderr line
 * exactly; the tail is a suffix of whole lines; a run compared with
 * itself varies nowhere, every number found holds a digit, lies within
 * one line and sits at its column, and the description lists exactly the
 * numbers that vary, and the repeat-values header made of them is well
 * formed to the verifier's reader with an entry for exactly those places.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_repeats.h"
#include "capture_text.h"
#include "capture_write.h"
#include "evidence.h"
#include "fuzz.h"
#include "textfile.h"
#include "util.h"

static void check_transcript(const struct fuzz_part *p, const struct transcript *t)
{
	FUZZ_CHECK(t->text && t->text[t->len] == '\0' && strlen(t->text) == t->len, "transcript has a NUL byte");
	FUZZ_CHECK(!memchr(t->text, '\r', t->len), "transcript has a CR");
	FUZZ_CHECK(t->len == 0 || t->text[t->len - 1] == '\n', "transcript does not end with LF");
	size_t lines = 0;
	for (size_t i = 0; i < t->len; i++)
		lines += t->text[i] == '\n';
	FUZZ_CHECK(lines == t->n_lines, "%zu lines counted as %zu", lines, t->n_lines);
	FUZZ_CHECK(t->nul_replaced == (memchr(p->s, '\0', p->len) != NULL), "nul_replaced wrong");
	FUZZ_CHECK(t->cr_replaced == (memchr(p->s, '\r', p->len) != NULL), "cr_replaced wrong");
	bool ends = p->len && (p->s[p->len - 1] == '\n' || p->s[p->len - 1] == '\r');
	FUZZ_CHECK(t->newline_added == (p->len && !ends), "newline_added wrong");
	FUZZ_CHECK((t->len == 0) == (p->len == 0), "empty output gives %zu bytes", t->len);

	char *tail = transcript_tail(t, 3);
	size_t tl = strlen(tail), tn = 0;
	for (size_t i = 0; i < tl; i++)
		tn += tail[i] == '\n';
	FUZZ_CHECK(tl <= t->len && memcmp(tail, t->text + t->len - tl, tl) == 0, "tail is not a suffix");
	FUZZ_CHECK(tn == (t->n_lines < 3 ? t->n_lines : 3), "tail of %zu lines", tn);
	FUZZ_CHECK(tl == t->len || t->text[t->len - tl - 1] == '\n', "tail starts inside a line");
	free(tail);
}

/* Section lines back from the parsed file must be the transcript's lines. */
static void check_section(const struct evidence *ev, size_t first, size_t n, const struct transcript *t)
{
	FUZZ_CHECK(n == t->n_lines, "read back %zu lines of %zu", n, t->n_lines);
	size_t pos = 0;
	for (size_t k = 0; k < n; k++) {
		size_t len;
		const char *s = textfile_line(&ev->tf, first + k, &len);
		const char *nl = memchr(t->text + pos, '\n', t->len - pos);
		size_t want = (size_t)(nl - (t->text + pos));
		FUZZ_CHECK(len == want && memcmp(s, t->text + pos, len) == 0, "line %zu read back differently", k);
		pos += want + 1;
	}
}

static bool has_digit(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] >= '0' && s[i] <= '9')
			return true;
	return false;
}

static void check_volatility(const struct transcript *first, const struct transcript *other)
{
	struct volatility v;
	volatility_init(&v, first);
	for (size_t i = 0; i < v.n; i++) {
		const struct number_pos *p = &v.nums[i];
		FUZZ_CHECK(p->off + p->len <= first->len && p->len > 0 && !p->varies &&
				   !memchr(first->text + p->off, '\n', p->len) &&
				   has_digit(first->text + p->off, p->len),
			   "number %zu at %zu+%zu is not a number within a line", i, p->off, p->len);
		size_t bol = p->off - (p->col - 1);
		FUZZ_CHECK(p->line >= 1 && p->line <= first->n_lines && p->col >= 1 && p->col <= p->off + 1 &&
				   (bol == 0 || first->text[bol - 1] == '\n'),
			   "number %zu at %zu:%zu does not sit at its column", i, p->line, p->col);
	}
	volatility_compare(&v, first, first);
	for (size_t i = 0; i < v.n; i++)
		FUZZ_CHECK(!v.nums[i].varies, "number %zu varies against its own run", i);
	volatility_compare(&v, first, other);
	char *d = volatility_describe(&v);
	size_t varying = 0;
	struct buf want = {0};
	for (size_t i = 0; i < v.n; i++)
		if (v.nums[i].varies)
			buf_printf(&want, "%s%zu:%zu", varying++ ? " " : "", v.nums[i].line, v.nums[i].col);
	FUZZ_CHECK(strcmp(d, varying ? want.s : "none") == 0, "described as '%.80s'", d);
	/* the repeat-values header as the verifier reads it back: well formed,
	 * one entry a varying place, each found at its place */
	char *vals = volatility_describe_values(&v);
	size_t at;
	if (vals && *vals) {
		FUZZ_CHECK(repeats_well_formed(vals, &at), "repeat-values '%.80s' malformed at byte %zu", vals, at);
		for (size_t i = 0; i < v.n; i++) {
			const char *e;
			size_t elen;
			FUZZ_CHECK(repeats_lookup(vals, v.nums[i].line, v.nums[i].col, &e, &elen) == v.nums[i].varies,
				   "place %zu:%zu is %s in repeat-values", v.nums[i].line, v.nums[i].col,
				   v.nums[i].varies ? "missing" : "listed though stable");
		}
	} else {
		FUZZ_CHECK(!varying || v.values_dropped, "repeat-values empty with %zu places varying", varying);
	}
	free(vals);
	buf_free(&want);
	free(d);
	volatility_free(&v);
}

static const char *value_of(const char *key)
{
	static const char *const values[][2] = {
		{"lesson", "fz"},
		{"program", "programs/fz/fz.cu"},
		{"source-sha256", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
		{"build", "nvcc -O3 -arch=sm_90 -o fz fz.cu"},
		{"run", "./fz"},
		{"gpu", "NVIDIA H200"},
		{"compute-capability", "9.0"},
		{"driver", "580.159.04"},
		{"cuda", "13.0"},
		{"captured", "2026-11-30T10:05:12Z"},
		{"node", "gpu-node-1"},
		{"exit", "0"},
	};
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
		if (strcmp(values[i][0], key) == 0)
			return values[i][1];
	return "1";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	struct fuzz_part parts[3];
	size_t np = fuzz_split(data, size, parts, 3);
	for (size_t i = np; i < 3; i++)
		parts[i] = (struct fuzz_part){"", 0};
	struct transcript t[3];
	for (size_t i = 0; i < 3; i++) {
		transcript_from_memory(parts[i].s, parts[i].len, &t[i]);
		check_transcript(&parts[i], &t[i]);
	}

	/* every key the reader requires (body-sha256 is compose's), with a
	 * plausible value where one is known, so a new required key does not
	 * break the round trip */
	struct buf header = {0};
	for (const char *const *k = evidence_required_keys; *k; k++)
		if (strcmp(*k, "body-sha256") != 0)
			header_add(&header, *k, value_of(*k));
	size_t len;
	char *text = evidence_compose(&header, &t[0], &t[1], &len);
	FUZZ_CHECK(strlen(text) == len, "composed evidence holds a NUL byte");
	struct evidence ev;
	memset(&ev, 0, sizeof ev);
	textfile_from_memory(text, len, "evidence/fz/run-2026-11-30.txt", &ev.tf);
	FUZZ_CHECK(!ev.tf.has_nul && !ev.tf.had_cr, "composed evidence has NUL or CR");
	struct evidence_problem prob;
	int rc = evidence_parse(&ev, &prob);
	FUZZ_CHECK(rc == 0, "composed evidence does not parse: %zu:%zu: %s", prob.line, prob.col, prob.message);
	char actual[SHA256_HEX_LEN + 1];
	FUZZ_CHECK(evidence_body_intact(&ev, actual), "composed evidence is not intact");
	check_section(&ev, ev.stdout_first, ev.n_stdout, &t[0]);
	check_section(&ev, ev.stderr_first, ev.n_stderr, &t[1]);
	FUZZ_CHECK(ev.stderr_first + ev.n_stderr == ev.tf.n_lines + 1, "text after the stderr section");
	for (const char *const *k = evidence_required_keys; *k; k++) {
		const char *v = evidence_get(&ev, *k, NULL);
		FUZZ_CHECK(v && (strcmp(*k, "body-sha256") == 0 || strcmp(v, value_of(*k)) == 0),
			   "header '%s' read back as '%s'", *k, v ? v : "");
	}
	evidence_free(&ev);
	free(text);
	buf_free(&header);

	check_volatility(&t[0], &t[2]);
	for (size_t i = 0; i < 3; i++)
		transcript_free(&t[i]);
	return 0;
}

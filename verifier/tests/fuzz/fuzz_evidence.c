/*
 * fuzz_evidence.c - an evidence file (evidence.h), its bank of numbers
 * (bank.h) and the alignment of two runs (align.h).
 *
 * Input: OLD, or OLD @@@@ NEW.  Each is parsed as evidence_load does
 * (NUL bytes refused first).  Properties of a parsed file: the sections
 * follow the header in order and end inside the file; header fields
 * precede the stdout line in order, and evidence_get finds the first of
 * a key; stdout line k is file line stdout_first + k; the body hash is
 * the hash of the text from the stdout line on, and intact says whether
 * it is the recorded one.  A failure names a line of the file.  The bank:
 * every entry points at its digits in the file and traces to its own
 * bank, by token and by value.  The alignment: a run aligned with itself
 * maps every line to itself; two runs map old lines to distinct new
 * lines, and a number followed into the new run lands on a number of
 * its line.
 */
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "bank.h"
#include "course.h"
#include "evidence.h"
#include "fuzz.h"
#include "numtok.h"
#include "sha256.h"

static int parse(const struct fuzz_part *p, const char *path, struct evidence *ev)
{
	memset(ev, 0, sizeof *ev);
	textfile_from_memory(p->s, p->len, path, &ev->tf);
	struct evidence_problem prob;
	memset(&prob, 0xA5, sizeof prob);
	if (ev->tf.has_nul)
		return -2;
	int rc = evidence_parse(ev, &prob);
	FUZZ_CHECK(rc == 0 || rc == -2, "evidence_parse returned %d", rc);
	if (rc != 0) {
		FUZZ_CHECK(prob.kind == D_EVIDENCE_MALFORMED || prob.kind == D_EVIDENCE_TRUNCATED, "problem kind %d",
			   (int)prob.kind);
		FUZZ_CHECK(prob.line >= 1 && prob.line <= ev->tf.n_lines + 1, "problem at line %zu of %zu", prob.line,
			   ev->tf.n_lines);
		FUZZ_CHECK(memchr(prob.message, '\0', sizeof prob.message) && prob.message[0], "problem without message");
	}
	return rc;
}

static void check_parsed(const struct evidence *ev)
{
	const struct textfile *tf = &ev->tf;
	FUZZ_CHECK(ev->stdout_line >= 2 && ev->stdout_first == ev->stdout_line + 1 &&
			   ev->stderr_line == ev->stdout_first + ev->n_stdout && ev->stderr_first == ev->stderr_line + 1 &&
			   ev->stderr_first + ev->n_stderr <= tf->n_lines + 1,
		   "sections at %zu/%zu+%zu, %zu/%zu+%zu of %zu lines", ev->stdout_line, ev->stdout_first, ev->n_stdout,
		   ev->stderr_line, ev->stderr_first, ev->n_stderr, tf->n_lines);
	FUZZ_CHECK(ev->body_offset == tf->line_start[ev->stdout_line - 1], "body at %zu, stdout line at %zu",
		   ev->body_offset, tf->line_start[ev->stdout_line - 1]);
	size_t prev = 1;
	for (size_t i = 0; i < ev->n_fields; i++) {
		const struct evidence_field *f = &ev->fields[i];
		FUZZ_CHECK(f->key && f->value && f->line > prev && f->line < ev->stdout_line, "field %zu at line %zu", i,
			   f->line);
		prev = f->line;
		size_t line;
		const char *v = evidence_get(ev, f->key, &line);
		FUZZ_CHECK(v && line <= f->line, "field '%s' not found first", f->key);
	}
	for (const char *const *k = evidence_required_keys; *k; k++)
		FUZZ_CHECK(evidence_get(ev, *k, NULL), "parsed without the key '%s'", *k);
	for (size_t k = 0; k < ev->n_stdout; k++) {
		size_t a, b;
		const char *s = evidence_stdout(ev, k, &a);
		const char *t = textfile_line(tf, ev->stdout_first + k, &b);
		FUZZ_CHECK(a == b && memcmp(s, t, a) == 0, "stdout line %zu is not file line %zu", k, ev->stdout_first + k);
	}
	char actual[SHA256_HEX_LEN + 1], want[SHA256_HEX_LEN + 1];
	bool intact = evidence_body_intact(ev, actual);
	sha256_hex(tf->data + ev->body_offset, tf->len - ev->body_offset, want);
	FUZZ_CHECK(strcmp(actual, want) == 0, "body hash is not the hash of the text from the stdout line on");
	FUZZ_CHECK(intact == (strcmp(evidence_get(ev, "body-sha256", NULL), actual) == 0),
		   "intact says %d for a body hash that %s", intact, intact ? "differs" : "matches");
	char date[11];
	if (evidence_captured_date(ev, date))
		FUZZ_CHECK(strlen(date) == 10 && date[4] == '-' && date[7] == '-', "captured date '%s'", date);
	(void)evidence_exit_ok(ev);
}

static void check_bank(struct evfile *evf)
{
	struct bank b = {0};
	bank_add_evidence(&b, evf);
	const struct evidence *ev = evf->ev;
	/* each lookup is a scan of the bank: look up at most 256 entries,
	 * spread over it, so a page of digits does not make the run quadratic */
	size_t n = bank_count(&b), step = n > 256 ? n / 256 : 1;
	for (size_t i = 0; i < n; i += step) {
		const struct bank_entry *e = bank_entry_at(&b, i);
		FUZZ_CHECK(e->ev == evf, "entry %zu of another file", i);
		FUZZ_CHECK(e->order == i && bank_entry_at(&b, i) == e, "entry %zu not kept at its place", i);
		FUZZ_CHECK(e->stdout_index == SIZE_MAX || (e->stdout_index < ev->n_stdout &&
							   e->line == ev->stdout_first + e->stdout_index),
			   "entry %zu at stdout %zu, line %zu", i, e->stdout_index, e->line);
		size_t len;
		const char *line = textfile_line(&ev->tf, e->line, &len);
		FUZZ_CHECK(e->tok.end <= len && line[e->tok.digits_start] >= '0' && line[e->tok.digits_start] <= '9',
			   "entry %zu does not point at its digits in line %zu", i, e->line);
		FUZZ_CHECK(bank_entry_col(e) >= 1 && bank_entry_col(e) <= len, "entry %zu column %zu", i,
			   bank_entry_col(e));
		const struct bank_entry *f = bank_find(&b, &e->tok);
		FUZZ_CHECK(f && numtok_traces_to(&e->tok, &f->tok), "entry %zu does not trace to its bank", i);
		const struct bank_entry *g = bank_find_value(&b, e->tok.value, e->tok.decimals);
		FUZZ_CHECK(g != NULL, "entry %zu (%.17g, %d decimals) not found by its value", i, e->tok.value,
			   e->tok.decimals);
		const struct bank_entry *near[4];
		size_t nn = bank_nearest(&b, e->tok.value, near, 4);
		FUZZ_CHECK(nn >= 1 && nn <= 4 && near[0]->tok.value == e->tok.value, "entry %zu not nearest to itself",
			   i);
	}
	bank_free(&b);
}

static void check_alignment(const struct evidence *old, const struct evidence *new_ev)
{
	struct alignment a;
	align_runs(old, new_ev, &a);
	FUZZ_CHECK(a.n_old == old->n_stdout && a.n_new == new_ev->n_stdout, "alignment of %zu and %zu lines", a.n_old,
		   a.n_new);
	bool *taken = xcalloc(a.n_new + 1, 1);
	for (size_t k = 0; k < a.n_old; k++) {
		size_t m = a.old_to_new[k];
		if (old == new_ev)
			FUZZ_CHECK(m == k, "a run aligned with itself maps line %zu to %zu", k, m);
		if (m == SIZE_MAX)
			continue;
		FUZZ_CHECK(m < a.n_new && !taken[m], "old line %zu maps to %zu (of %zu), taken %d", k, m, a.n_new,
			   m < a.n_new ? taken[m] : -1);
		taken[m] = true;
		size_t len;
		const char *s = evidence_stdout(old, k, &len);
		struct num_token *t = NULL;
		size_t nt = numtok_scan(s, len, &t);
		for (size_t i = 0; i < nt; i++) {
			FUZZ_CHECK(align_token_index(old, k, t[i].start) == i, "token %zu of line %zu not found by column", i,
				   k);
			size_t nl;
			struct num_token nk;
			if (align_number(&a, old, new_ev, k, i, &nl, &nk)) {
				size_t l2;
				(void)evidence_stdout(new_ev, nl, &l2);
				FUZZ_CHECK(nl == m && nk.start < nk.end && nk.end <= l2,
					   "number %zu of line %zu followed to line %zu at %zu..%zu", i, k, nl, (size_t)nk.start,
					   (size_t)nk.end);
				if (old == new_ev)
					FUZZ_CHECK(nk.start == t[i].start && nk.value == t[i].value,
						   "number %zu of line %zu does not follow to itself", i, k);
			}
			char row[64], col[64];
			memset(row, 'r', sizeof row);
			memset(col, 'c', sizeof col);
			align_place_names(old, k, &t[i], row, sizeof row, col, sizeof col);
			FUZZ_CHECK(memchr(row, '\0', sizeof row) && memchr(col, '\0', sizeof col), "place names unterminated");
		}
		free(t);
	}
	free(taken);
	alignment_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	struct fuzz_part parts[2];
	size_t np = fuzz_split(data, size, parts, 2);
	struct evfile files[2];
	struct evidence texts[2]; /* what each file's ev points at */
	memset(files, 0, sizeof files);
	memset(texts, 0, sizeof texts);
	files[0].ev = &texts[0];
	files[1].ev = &texts[1];
	int rc[2] = {-2, -2};
	for (size_t i = 0; i < np; i++) {
		files[i].path = i ? "evidence/fz/run-2026-12-01.txt" : "evidence/fz/run-2026-11-30.txt";
		files[i].lesson = "fz";
		rc[i] = parse(&parts[i], files[i].path, files[i].ev);
		if (rc[i] != 0)
			continue;
		files[i].state = LOAD_OK;
		check_parsed(files[i].ev);
		char actual[SHA256_HEX_LEN + 1];
		files[i].intact = evidence_body_intact(files[i].ev, actual);
		check_bank(&files[i]);
		check_alignment(files[i].ev, files[i].ev);
	}
	if (np == 2 && rc[0] == 0 && rc[1] == 0) {
		check_alignment(files[0].ev, files[1].ev);
		check_alignment(files[1].ev, files[0].ev);
	}
	for (size_t i = 0; i < np; i++)
		evidence_free(files[i].ev);
	return 0;
}

/*
 * fuzz_snippet.c - a lesson program: its snippets (snippet.h), its header
 * comment (proghdr.h), its source-sha256 and the evidence path of its
 * Verified paragraph (course.h).
 *
 * Properties: scanning with and without reporting finds the same
 * snippets and problems; each snippet's lines are in order, strictly
 * between its marker lines, and it is found by its name; the header's
 * lines are in range and each Build:/Run: value is the text at its line
 * and column; the Verified paragraph's byte map points at the same bytes
 * of the file (a joining space excepted) and moves forward; the recorded
 * source-sha256 is 64 hex digits and does not depend on the Verified
 * paragraph's text; the evidence path lies in the paragraph and starts
 * with "evidence/".
 */
#include <stdlib.h>
#include <string.h>

#include "course.h"
#include "fuzz.h"
#include "proghdr.h"
#include "snippet.h"
#include "textfile.h"
#include "util.h"

static void check_snippets(const struct textfile *tf)
{
	struct snippet_set a, b;
	size_t pa = snippet_scan(tf, false, &a);
	size_t pb = snippet_scan(tf, true, &b);
	FUZZ_CHECK(pa == pb && a.n == b.n && a.problems == pa, "reporting changes the scan: %zu/%zu problems, %zu/%zu",
		   pa, pb, a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		const struct snippet *s = &a.v[i];
		FUZZ_CHECK(s->name != NULL && strcmp(s->name, b.v[i].name) == 0, "snippet %zu differs", i);
		FUZZ_CHECK(s->start_line >= 1 && s->start_line <= tf->n_lines, "snippet %zu starts at %zu", i,
			   s->start_line);
		FUZZ_CHECK(s->end_line == 0 || (s->end_line > s->start_line && s->end_line <= tf->n_lines),
			   "snippet %zu at %zu..%zu", i, s->start_line, s->end_line);
		size_t prev = s->start_line;
		for (size_t k = 0; k < s->n_lines; k++) {
			FUZZ_CHECK(s->lines[k] > prev && s->lines[k] <= tf->n_lines, "snippet %zu line %zu is %zu", i, k,
				   s->lines[k]);
			if (s->end_line)
				FUZZ_CHECK(s->lines[k] < s->end_line, "snippet %zu line %zu past its end", i, k);
			prev = s->lines[k];
		}
		const struct snippet *f = snippet_find(&a, s->name);
		FUZZ_CHECK(f && strcmp(f->name, s->name) == 0, "snippet '%s' not found by its name", s->name);
	}
	FUZZ_CHECK(snippet_find(&a, "\x01 no such snippet") == NULL, "found a snippet that is not there");
	snippet_set_free(&a);
	snippet_set_free(&b);
}

static void check_value(const struct textfile *tf, const struct proghdr *h, const struct proghdr_value *v)
{
	/* a line that counts but cannot be read (a broken continuation) is
	 * one of the header's problems; the run value is the first run line,
	 * named or not, while its count is of the unnamed ones (proghdr.h) */
	if (!v->text) {
		FUZZ_CHECK(v->count == 0 || h->n_problems > 0, "an absent value counted %zu times with no problem",
			   v->count);
		return;
	}
	FUZZ_CHECK((v->count >= 1 || (v == &h->run && h->n_runs >= 1)) && v->line >= h->first_line &&
			   v->line <= h->last_line,
		   "value at line %zu", v->line);
	size_t len;
	const char *line = textfile_line(tf, v->line, &len);
	size_t n = strlen(v->text);
	FUZZ_CHECK(v->col >= 1 && v->col - 1 <= len, "value '%s' at column %zu of a %zu-byte line", v->text, v->col, len);
	const char *at = line + v->col - 1;
	size_t avail = len - (v->col - 1);
	bool verbatim = n <= avail && memcmp(at, v->text, n) == 0;
	/* a value continued on the next comment line (a trailing '\') is
	 * joined: what its first line holds before the '\' must begin it */
	bool continued = false;
	if (!verbatim) {
		size_t k = avail;
		while (k && (at[k - 1] == ' ' || at[k - 1] == '\t' || at[k - 1] == '\r'))
			k--;
		if (k && at[k - 1] == '\\') {
			k--;
			while (k && (at[k - 1] == ' ' || at[k - 1] == '\t'))
				k--;
			continued = k <= n && memcmp(at, v->text, k) == 0;
		}
	}
	FUZZ_CHECK(verbatim || continued, "value '%s' is not at %zu:%zu", v->text, v->line, v->col);
}

static void check_header(const struct textfile *tf)
{
	struct proghdr h;
	memset(&h, 0xA5, sizeof h);
	proghdr_parse(tf, &h);
	FUZZ_CHECK(h.first_line <= h.last_line && h.last_line <= tf->n_lines && (h.first_line == 0) == (h.last_line == 0),
		   "header at lines %zu..%zu of %zu", h.first_line, h.last_line, tf->n_lines);
	check_value(tf, &h, &h.build);
	check_value(tf, &h, &h.run);
	FUZZ_CHECK((h.verified != NULL) == (h.verified_line != 0), "Verified text without its line or the reverse");
	if (h.verified) {
		FUZZ_CHECK(h.verified_line >= h.first_line && h.verified_line <= h.verified_last &&
				   h.verified_last <= h.last_line,
			   "Verified at %zu..%zu, header %zu..%zu", h.verified_line, h.verified_last, h.first_line,
			   h.last_line);
		size_t prev = 0;
		for (size_t i = 0; i < h.verified_len; i++) {
			size_t src = h.verified_src[i];
			FUZZ_CHECK(src < tf->len, "Verified byte %zu maps to %zu, past the file (%zu)", i, src, tf->len);
			FUZZ_CHECK(tf->data[src] == h.verified[i] || h.verified[i] == ' ',
				   "Verified byte %zu (0x%02x) maps to a different byte (0x%02x at %zu)", i,
				   (unsigned char)h.verified[i], (unsigned char)tf->data[src], src);
			FUZZ_CHECK(src >= prev, "Verified byte %zu maps backwards", i);
			prev = src;
		}
		size_t s, e;
		if (course_verified_path(&h, &s, &e))
			FUZZ_CHECK(s < e && e <= h.verified_len && strncmp(h.verified + s, "evidence/", 9) == 0,
				   "evidence path at %zu..%zu of %zu", s, e, h.verified_len);
	}
	char sum[65];
	memset(sum, 'z', sizeof sum);
	proghdr_source_sha256(tf, sum);
	FUZZ_CHECK(sum[64] == '\0' && strspn(sum, "0123456789abcdef") == 64, "source-sha256 is not 64 hex digits");

	/* The same program with other digits in its Verified paragraph (a
	 * new date, driver or path: nothing else of the structure changes)
	 * records the same source-sha256: the paragraph is written after the
	 * capture. */
	if (h.verified) {
		char *copy = xmalloc(tf->len + 1);
		memcpy(copy, tf->data, tf->len + 1);
		for (size_t i = 0; i < h.verified_len; i++) {
			char *c = &copy[h.verified_src[i]];
			if (h.verified[i] == *c && *c >= '0' && *c <= '9')
				*c = *c == '7' ? '1' : '7';
		}
		struct textfile t2;
		textfile_from_memory(copy, tf->len, tf->path, &t2);
		struct proghdr h2;
		proghdr_parse(&t2, &h2);
		if (h2.verified_line == h.verified_line && h2.verified_last == h.verified_last) {
			char sum2[65];
			proghdr_source_sha256(&t2, sum2);
			FUZZ_CHECK(strcmp(sum, sum2) == 0, "source-sha256 depends on the Verified paragraph's text");
		}
		proghdr_free(&h2);
		textfile_free(&t2);
		free(copy);
	}
	proghdr_free(&h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_is_text(data, size))
		return 0; /* refused at read: no parser sees it (fuzz.h) */
	fuzz_quiet();
	struct textfile tf;
	textfile_from_memory((const char *)data, size, "programs/fz/fz.cu", &tf);
	check_snippets(&tf);
	check_header(&tf);
	textfile_free(&tf);
	return 0;
}

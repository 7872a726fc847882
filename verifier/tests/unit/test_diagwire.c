/*
 * test_diagwire.c - a worker's findings as bytes (diagwire.h): what diag
 * forwards comes back field by field, in order; the cap leaves kind and
 * level of what it hides and nothing of a once region; a buffer cut
 * anywhere inside an event, or damaged, reads as an error, never past
 * its end.
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
#include "diagwire.h"

static const char line[] = "a line with 1,793 ms in it\n";

/* The findings of one small page, encoded. */
static void encode_page(struct diagwire_encoder *e)
{
	diagwire_encoder_init(e);
	diag_set_forward(&e->fwd);
	diag_file_begin("pages/a.md", NULL);
	diag_checks_add(2);
	struct diag *d = diag_begin(D_NUMBER_UNTRACED, (struct diag_loc){"pages/a.md", 7, 13, 5, line, sizeof line - 1},
				    "%s is not in the evidence", "1,793");
	diag_note(d, (struct diag_loc){"evidence/x/run.txt", 3, 1, 0, NULL, 0}, "the nearest: %d", 1790);
	diag_note(d, (struct diag_loc){.path = "evidence/x/run.txt"}, "a second note");
	diag_text(d, "-old\n+new\n");
	diag_hint(d, "quote what the evidence holds");
	diag_end(d);
	diag_once_begin("evidence", "evidence/x/run.txt");
	diag_report(D_EVIDENCE_EDITED, (struct diag_loc){.path = "evidence/x/run.txt", .line = 2}, "edited");
	diag_once_end();
	diag_file_end();
	diagwire_flush_checks(e);
	diag_set_forward(NULL);
}

static void expect(struct diagwire_reader *r, struct diagwire_event *ev, enum diagwire_type type)
{
	assert_int_equal(diagwire_next(r, ev), 1);
	assert_int_equal(ev->type, type);
}

static void round_trip(void **state)
{
	(void)state;
	struct diagwire_encoder e;
	encode_page(&e);
	struct diagwire_reader r;
	struct diagwire_event ev;
	diagwire_reader_init(&r, e.out.s, e.out.len);
	expect(&r, &ev, DW_FILE);
	assert_string_equal(ev.str, "pages/a.md");
	expect(&r, &ev, DW_CHECKS);
	assert_int_equal(ev.checks, 2);
	expect(&r, &ev, DW_RECORD);
	const struct diag_record *rec = &ev.rec;
	assert_int_equal(rec->kind, D_NUMBER_UNTRACED);
	assert_int_equal(rec->level, DIAG_ERROR);
	assert_string_equal(rec->message, "1,793 is not in the evidence");
	assert_string_equal(rec->at.path, "pages/a.md");
	assert_int_equal(rec->at.line, 7);
	assert_int_equal(rec->at.col, 13);
	assert_int_equal(rec->at.end_col, 18);
	assert_int_equal(rec->at.line_len, sizeof line - 2);
	assert_memory_equal(rec->at.line_text, line, sizeof line - 2);
	assert_int_equal(rec->at.line_col, 1);
	assert_false(rec->at.line_cut);
	assert_int_equal(rec->n_notes, 2);
	assert_string_equal(rec->notes[0].message, "the nearest: 1790");
	assert_string_equal(rec->notes[0].at.path, "evidence/x/run.txt");
	assert_int_equal(rec->notes[0].at.line, 3);
	assert_null(rec->notes[0].at.line_text);
	assert_string_equal(rec->notes[1].message, "a second note");
	assert_int_equal(rec->notes[1].at.line, 0);
	assert_string_equal(rec->text, "-old\n+new\n");
	assert_string_equal(rec->hint, "quote what the evidence holds");
	assert_non_null(strstr(rec->rendered, "pages/a.md:7:13: error: 1,793 is not in the evidence [number-untraced]\n"));
	assert_non_null(strstr(rec->rendered, "    +new\nhint: quote what the evidence holds\n"));
	expect(&r, &ev, DW_ONCE);
	assert_string_equal(ev.str, "evidence:evidence/x/run.txt");
	expect(&r, &ev, DW_RECORD);
	assert_int_equal(ev.rec.kind, D_EVIDENCE_EDITED);
	assert_null(ev.rec.hint);
	assert_null(ev.rec.text);
	assert_int_equal(ev.rec.n_notes, 0);
	expect(&r, &ev, DW_ONCE_END);
	expect(&r, &ev, DW_FILE_END);
	assert_int_equal(diagwire_next(&r, &ev), 0);
	assert_int_equal(diagwire_next(&r, &ev), 0);
	diagwire_reader_free(&r);
	diagwire_encoder_free(&e);
}

/* Every cut inside an event is an error; a cut between events is an end. */
static void truncated_is_an_error(void **state)
{
	(void)state;
	struct diagwire_encoder e;
	encode_page(&e);
	bool *boundary = calloc(e.out.len + 1, sizeof *boundary);
	struct diagwire_reader r;
	struct diagwire_event ev;
	diagwire_reader_init(&r, e.out.s, e.out.len);
	boundary[0] = true;
	while (diagwire_next(&r, &ev) == 1)
		boundary[r.off] = true;
	assert_true(boundary[e.out.len]);
	diagwire_reader_free(&r);
	size_t errors = 0;
	for (size_t cut = 0; cut < e.out.len; cut++) {
		/* a copy of exactly cut bytes: ASan sees any read past it */
		char *copy = malloc(cut ? cut : 1);
		memcpy(copy, e.out.s, cut);
		diagwire_reader_init(&r, copy, cut);
		int rc;
		while ((rc = diagwire_next(&r, &ev)) == 1)
			;
		assert_int_equal(rc, boundary[cut] ? 0 : -1);
		errors += rc == -1;
		diagwire_reader_free(&r);
		free(copy);
	}
	assert_true(errors > e.out.len / 2);
	free(boundary);
	diagwire_encoder_free(&e);
}

static int read_all(const char *data, size_t len)
{
	struct diagwire_reader r;
	struct diagwire_event ev;
	diagwire_reader_init(&r, data, len);
	int rc;
	while ((rc = diagwire_next(&r, &ev)) == 1)
		;
	diagwire_reader_free(&r);
	return rc;
}

static void damaged_is_an_error(void **state)
{
	(void)state;
	struct diagwire_encoder e;
	encode_page(&e);
	assert_int_equal(read_all(e.out.s, e.out.len), 0);
	char *copy = malloc(e.out.len);
	/* an unknown event */
	memcpy(copy, e.out.s, e.out.len);
	copy[0] = 'x';
	assert_int_equal(read_all(copy, e.out.len), -1);
	/* a string without its NUL: the FILE path's last byte */
	memcpy(copy, e.out.s, e.out.len);
	copy[2 + 8 + strlen("pages/a.md")] = 'x';
	assert_int_equal(read_all(copy, e.out.len), -1);
	/* a kind out of range: the record's kind follows FILE and CHECKS */
	memcpy(copy, e.out.s, e.out.len);
	size_t at = 2 + 8 + strlen("pages/a.md") + 1 + 1 + 8 + 1;
	uint64_t kind;
	memcpy(&kind, copy + at, sizeof kind);
	assert_int_equal(kind, D_NUMBER_UNTRACED);
	kind = DIAG_KIND_COUNT;
	memcpy(copy + at, &kind, sizeof kind);
	assert_int_equal(read_all(copy, e.out.len), -1);
	/* a count of notes far beyond the bytes */
	memcpy(copy, e.out.s, e.out.len);
	at += 2 * 8;
	const char *notes = memmem(copy + at, e.out.len - at, "\002\0\0\0\0\0\0\0", 8); /* past the record's kind */
	assert_non_null(notes);
	memset(copy + (notes - copy), 0xff, 8);
	assert_int_equal(read_all(copy, e.out.len), -1);
	free(copy);
	diagwire_encoder_free(&e);
}

/* Past the cap a worker sends kind and level only; a once region is never
 * hidden, nor counted toward the cap (the parent caps it). */
static void cap_and_once(void **state)
{
	(void)state;
	struct diagwire_encoder e;
	diagwire_encoder_init(&e);
	diag_set_forward(&e.fwd);
	static const struct diag_policy draft = {.draft = true};
	diag_file_begin("pages/b.md", &draft);
	for (int i = 0; i < DIAG_MAX_PER_FILE + 3; i++)
		diag_report(D_NUMBER_UNTRACED, (struct diag_loc){.path = "pages/b.md", .line = 1}, "n%d", i);
	diag_once_begin("program", "programs/x/x.cu");
	diag_report(D_SNIPPET_MISSPELT, (struct diag_loc){.path = "programs/x/x.cu", .line = 4}, "once");
	diag_once_end();
	diag_file_end();
	diag_set_forward(NULL);
	struct diagwire_reader r;
	struct diagwire_event ev;
	diagwire_reader_init(&r, e.out.s, e.out.len);
	size_t shown = 0, hidden = 0;
	int rc;
	bool once_seen = false;
	while ((rc = diagwire_next(&r, &ev)) == 1) {
		if (ev.type == DW_RECORD && ev.rec.kind == D_SNIPPET_MISSPELT)
			once_seen = true;
		else if (ev.type == DW_RECORD)
			shown++;
		if (ev.type == DW_HIDDEN) {
			hidden++;
			assert_int_equal(ev.rec.kind, D_NUMBER_UNTRACED);
			assert_int_equal(ev.rec.level, DIAG_WARNING); /* a draft page: the worker's policy */
		}
	}
	assert_int_equal(rc, 0);
	assert_int_equal(shown, DIAG_MAX_PER_FILE);
	assert_int_equal(hidden, 3);
	assert_true(once_seen);
	diagwire_reader_free(&r);
	diagwire_encoder_free(&e);
}

/* A long line crosses the wire as its window around the place (diag.h):
 * a worker's findings on a 10,000-character line are not 10,000
 * characters each. */
static void long_line_window(void **state)
{
	(void)state;
	size_t n = 10000, col = 5001;
	char *text = malloc(n + 1);
	assert_non_null(text);
	memset(text, 'x', n);
	memcpy(text + col - 1, "1,793", 5);
	text[n] = '\0';
	struct diagwire_encoder e;
	diagwire_encoder_init(&e);
	diag_set_forward(&e.fwd);
	diag_file_begin("pages/a.md", NULL);
	diag_report(D_NUMBER_UNTRACED, (struct diag_loc){"pages/a.md", 1, col, 5, text, n}, "untraced");
	diag_file_end();
	diag_set_forward(NULL);
	assert_true(e.out.len < 2000);
	struct diagwire_reader r;
	struct diagwire_event ev;
	diagwire_reader_init(&r, e.out.s, e.out.len);
	expect(&r, &ev, DW_FILE);
	expect(&r, &ev, DW_RECORD);
	assert_int_equal(ev.rec.at.col, col);
	assert_int_equal(ev.rec.at.end_col, col + 5);
	assert_true(ev.rec.at.line_cut);
	assert_int_equal(ev.rec.at.line_col, col - DIAG_WINDOW_BEFORE);
	assert_int_equal(ev.rec.at.line_len, DIAG_LINE_WINDOW);
	assert_memory_equal(ev.rec.at.line_text + DIAG_WINDOW_BEFORE, "1,793", 5);
	diagwire_reader_free(&r);
	diagwire_encoder_free(&e);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(long_line_window),
		cmocka_unit_test(truncated_is_an_error),
		cmocka_unit_test(damaged_is_an_error),
		cmocka_unit_test(cap_and_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

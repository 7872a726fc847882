/*
 * test_place.c - evidence places (place.h): [ROW | COLUMN] and [KEY] found
 * once, not found, found twice; blanks squeezed and "\|" read as "|"; the
 * written name of a place agrees with the drift notes' names (align.h) and
 * resolves back to it; repeat values and volatility from the header.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "place.h"

static const char text[] =
	"coursecheck-evidence 1\n"
	"lesson: l\nprogram: programs/l/l.cu\n"
	"source-sha256: 0000000000000000000000000000000000000000000000000000000000000000\n"
	"build: b\nrun: r\ngpu: NVIDIA H200\ncompute-capability: 9.0\ndriver: 580.159.04\ncuda: 13.0 (V13.0.88)\n"
	"captured: 2026-11-30T10:05:12Z\nnode: n\nexit: 0\nrepeats: 3\nvolatile: 6:44\n"
	"repeat-values: 6:44=3120,2920,3824\n"
	"body-sha256: 0000000000000000000000000000000000000000000000000000000000000000\n"
	"stdout: 9\n"
	"max threads per block: 1024, shared memory per block: 49152 bytes\n"
	"\n"
	"threads  kernel                      mismatches  first bad\n"
	"-------  --------------------------  ----------  ---------\n"
	"     32  inclusive, in place                  0          -\n"
	"     64  inclusive, in place               3120      89696\n"
	"threads  kernel                      mismatches  first bad\n"
	"-------  --------------------------  ----------  ---------\n"
	"     64  inclusive, in place               3121      89697\n"
	"stderr: 0\n";

static struct evfile ev;
static struct evidence ev_text; /* what ev.ev points at */

static int setup(void **state)
{
	(void)state;
	memset(&ev, 0, sizeof ev);
	ev.path = "evidence/l/run.txt";
	memset(&ev_text, 0, sizeof ev_text);
	ev.ev = &ev_text;
	textfile_from_memory(text, strlen(text), "evidence/l/run.txt", &ev.ev->tf);
	struct evidence_problem prob;
	assert_int_equal(evidence_parse(ev.ev, &prob), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	evidence_free(ev.ev);
	return 0;
}

static size_t find(const char *place, struct place_hit *hits, size_t max)
{
	char err[160] = "";
	return place_find(&ev, place, strlen(place), hits, max, err, sizeof err);
}

static void test_cell_found_once(void **state)
{
	(void)state;
	struct place_hit h[4];
	assert_int_equal(find("32 inclusive, in place | mismatches", h, 4), 1);
	assert_true(h[0].tok.value == 0);
	assert_int_equal(h[0].stdout_index, 4);
	/* runs of blanks count as one, "\|" as "|" */
	assert_int_equal(find("  32   inclusive,  in place \\| mismatches ", h, 4), 1);
	/* case matters; a column that is not there names nothing */
	assert_int_equal(find("32 Inclusive, in place | mismatches", h, 4), 0);
	assert_int_equal(find("32 inclusive, in place | mismatch", h, 4), 0);
	/* the same row and column in two tables */
	assert_int_equal(find("64 inclusive, in place | mismatches", h, 4), 2);
	assert_true(h[0].tok.value == 3120 && h[1].tok.value == 3121);
}

static void test_keys(void **state)
{
	(void)state;
	struct place_hit h[4];
	assert_int_equal(find("max threads per block", h, 4), 1);
	assert_true(h[0].tok.value == 1024);
	assert_int_equal(find("shared memory per block", h, 4), 1);
	assert_true(h[0].tok.value == 49152);
	/* header fields are keys too */
	assert_int_equal(find("repeats", h, 4), 1);
	assert_int_equal(h[0].stdout_index, SIZE_MAX);
	assert_true(h[0].tok.value == 3);
	assert_int_equal(find("compute-capability", h, 4), 1);
	assert_int_equal(find("threads per block", h, 4), 0);
	char err[160];
	assert_int_equal(place_find(&ev, "a |", 3, h, 4, err, sizeof err), SIZE_MAX);
	assert_string_equal(err, "a place is [ROW | COLUMN] or [KEY], with no part empty");
	assert_int_equal(place_find(&ev, "a | b | c", 9, h, 4, err, sizeof err), SIZE_MAX);
}

/* The written name of every number agrees with the drift notes' names and
 * names that number again (or is "" when nothing picks it out alone). */
static void test_names_round_trip(void **state)
{
	(void)state;
	size_t named = 0;
	for (size_t k = 0; k < ev.ev->n_stdout; k++) {
		size_t len;
		const char *s = evidence_stdout(ev.ev, k, &len);
		struct num_token *t;
		size_t n = numtok_scan(s, len, &t);
		for (size_t i = 0; i < n; i++) {
			struct place_hit hit = {&ev, k, ev.ev->stdout_first + k, t[i]};
			char name[400], row[256], col[256];
			place_name(&hit, name, sizeof name);
			align_place_names(ev.ev, k, &t[i], row, sizeof row, col, sizeof col);
			if (!name[0])
				continue;
			named++;
			struct place_hit back;
			assert_int_equal(find(name[0] == '[' ? (name[strlen(name) - 1] = '\0', name + 1) : name, &back, 1), 1);
			assert_int_equal(back.line, hit.line);
			assert_int_equal(back.tok.start, hit.tok.start);
			char both[520];
			snprintf(both, sizeof both, "%s | %s", row, col);
			if (strchr(name + 1, '|'))
				assert_string_equal(name + 1, both);
		}
		free(t);
	}
	assert_int_equal(named, 4); /* 1024, 49152, and the 32 row's 32 and 0; the two 64 rows name nothing alone */
}

static void test_repeats(void **state)
{
	(void)state;
	struct place_hit h[2];
	assert_int_equal(find("64 inclusive, in place | first bad", h, 2), 2);
	double v[8];
	assert_int_equal(place_repeat_values(&h[0], v, 8), 1); /* stable: its one value */
	assert_false(place_is_volatile(&h[0]));
	assert_int_equal(find("64 inclusive, in place | mismatches", h, 2), 2);
	assert_true(place_is_volatile(&h[0]));
	assert_false(place_is_volatile(&h[1]));
	assert_int_equal(place_repeat_values(&h[0], v, 8), 3);
	assert_true(v[0] == 3120 && v[1] == 2920 && v[2] == 3824);
	assert_int_equal(place_repeats(&h[0]), 3);
}

/* A place fills its row and column arrays to the limit and no further:
 * EXPR_MAX_PLACE bytes of blanks around one part, or of one part, are
 * read (and name nothing here); a byte more is refused before any copy. */
static void test_place_at_the_length_limit(void **state)
{
	(void)state;
	struct place_hit h[4];
	char text[EXPR_MAX_PLACE + 2], err[160] = "";
	memset(text, 'a', sizeof text);
	assert_int_equal(place_find(&ev, text, EXPR_MAX_PLACE, h, 4, err, sizeof err), 0);
	text[EXPR_MAX_PLACE / 2] = '|';
	assert_int_equal(place_find(&ev, text, EXPR_MAX_PLACE, h, 4, err, sizeof err), 0);
	memset(text, ' ', sizeof text);
	memcpy(text + EXPR_MAX_PLACE - 7, "repeats", 7);
	assert_int_equal(place_find(&ev, text, EXPR_MAX_PLACE, h, 4, err, sizeof err), 1);
	assert_true(h[0].tok.value == 3);
	assert_int_equal(place_find(&ev, text, EXPR_MAX_PLACE + 1, h, 4, err, sizeof err), SIZE_MAX);
	assert_string_equal(err, "a place is 257 bytes long, over the limit of 256 bytes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cell_found_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_repeats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_place_at_the_length_limit, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

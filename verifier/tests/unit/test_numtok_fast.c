/*
 * test_numtok_fast.c - numtok_scan's plain-number path against the pattern.
 *
 * numtok_scan decides the plainest numbers without PCRE2 and must give,
 * token for token and field for field, what numtok_scan_pattern_only (every
 * number through the pattern) gives.  Compared on: texts built to sit on
 * each edge of the shortcut (one byte either way and a wrong shortcut would
 * differ); every file of the fuzz corpus and regressions for numtok, and
 * the course's own evidence and pages, whole and line by line; and a few
 * hundred thousand random texts made of the pieces the pattern cares about.
 * numtok_plain_decisions() shows each edge case took the path it is meant to,
 * so a shortcut that silently stopped firing fails too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "numtok.h"
#include "file_tree.h"

static void print_text(const char *text, size_t len)
{
	print_error("text (%zu bytes): \"", len);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c >= 0x20 && c < 0x7F && c != '\\' && c != '"')
			print_error("%c", c);
		else
			print_error("\\x%02X", c);
	}
	print_error("\"\n");
}

static bool same_token(const struct num_token *a, const struct num_token *b)
{
	return a->start == b->start && a->end == b->end && a->digits_start == b->digits_start &&
	       a->digits_end == b->digits_end && a->exponent_start == b->exponent_start &&
	       memcmp(&a->value, &b->value, sizeof a->value) == 0 && a->decimals == b->decimals &&
	       a->exponent == b->exponent && a->has_exponent == b->has_exponent && a->sig_digits == b->sig_digits &&
	       a->has_separator == b->has_separator && a->hyphen_joined == b->hyphen_joined &&
	       strcmp(a->unit, b->unit) == 0;
}

/* Both scans of text[0..len) agree; returns how many runs of digits the
 * fast scan decided without the pattern. */
static size_t assert_same_scan(const char *text, size_t len)
{
	struct num_token *fast, *slow;
	size_t before = numtok_plain_decisions();
	size_t nf = numtok_scan(text, len, &fast);
	size_t plain = numtok_plain_decisions() - before;
	size_t ns = numtok_scan_pattern_only(text, len, &slow);
	bool same = nf == ns;
	size_t bad = 0;
	for (size_t i = 0; same && i < nf; i++)
		if (!same_token(&fast[i], &slow[i])) {
			same = false;
			bad = i;
		}
	if (!same) {
		print_text(text, len);
		print_error("fast: %zu tokens, pattern: %zu; first difference at token %zu\n", nf, ns, bad);
		for (size_t i = 0; i < nf; i++)
			print_error("  fast    [%u,%u) unit '%s'\n", fast[i].start, fast[i].end, fast[i].unit);
		for (size_t i = 0; i < ns; i++)
			print_error("  pattern [%u,%u) unit '%s'\n", slow[i].start, slow[i].end, slow[i].unit);
	}
	free(fast);
	free(slow);
	assert_true(same);
	return plain;
}

/* ---- the edges of the shortcut ---- */

struct edge {
	const char *text;
	size_t plain; /* runs of digits the shortcut must decide itself */
};

static void test_edges_agree_and_take_their_path(void **state)
{
	(void)state;
	static const struct edge edges[] = {
		/* taken: blanks, punctuation, the two attached units */
		{"32788", 1},
		{"   32   32788       32787          3", 4},
		{"took 1.810 and", 1},
		{"4.16x", 1},
		{"4.16x faster", 1},
		{"4.16x.", 1},
		{"59.4%", 1},
		{"59.4% of", 1},
		{"59.4%s", 1},               /* "%" needs no boundary */
		{"59.4 %", 1},
		{"was 42.", 1},
		{"was 42. Then", 1},
		{"1, 2, 3", 3},
		{"(12)", 1},
		{"[12]", 1},
		{"12;13", 2},
		{"a = 12\t", 1},
		{"12\n", 1},
		{"12/13", 2},
		{"12+", 1},
		{"12 + 13", 2},
		{"5%3", 2},
		{"28:44 28:66", 0},          /* clock-like: the skip branch decides */
		{"x 12 y", 1},
		{"12 x 4", 2},               /* a spaced "x" is no unit */
		/* taken: units spelled in ASCII, attached or after a space */
		{"took 1.810 ms", 1},
		{"5 ms", 1},
		{"5 s", 1},
		{"5 percent", 1},
		{"5 KB", 1},
		{"5 B", 1},
		{"12ms", 1},
		{"12 MB/sec", 1},            /* MB/s needs a boundary: MB */
		{"12 MB/s", 1},
		{"12 GiB/s.", 1},
		{"4 MiBs", 1},               /* no unit: MiB is glued to "s" */
		{"12 KiBx", 1},
		{"12 percentage", 1},
		{"12 msec", 1},
		{"12 Bytes", 1},
		{"12 sx", 1},
		{"(32 steps)", 1},           /* "s" might start a unit, "st" starts none */
		{"5 steps", 1},
		{"1,024x", 1},
		/* taken: thousands groups with a comma */
		{"1,234", 1},
		{"1,024 threads", 1},
		{"1,024,000", 1},
		{"1,024.5", 1},
		{"1,024,", 1},
		/* taken: hyphens and colons no date or clock can start at */
		{"12-element", 1},
		{"12-_a", 1},
		{"2026-element", 1},
		{"1,024-element", 1},
		{"10-20", 1},                /* 10 here; the 20 after "-" goes to the pattern */
		{"123:45", 2},
		{"3: two", 1},
		{"1.5:30", 2},
		{"12:5", 1},                 /* 12 may start a clock: the pattern's; 5 is plain */
		/* decided as none: glued on the right, versions, dates */
		{"4.16xs", 1},
		{"4.16x1", 2},
		{"0x1F", 2},
		{"5x5", 2},
		{"12th", 1},
		{"12sx", 1},
		{"12_", 1},
		{"1.0f", 1},
		{"12.5.6", 2},
		{"580.159.04", 2},
		{"1.5.6.7", 3},
		{"2026-11-30", 1},
		{"2026-12-01 on", 1},
		{"2026-12-01x", 1},          /* the date branch needs no boundary but a non-digit */
		/* declined: each byte the pattern reads differently */
		{"12 \xC2\xB5s", 0},
		{"12 \xCE\xBCs", 0},
		{"12\xC2\xA0ms", 0},
		{"12\xE2\x80\xAFms", 0},
		{"12 s\xC3\xA9", 0},
		{"12 MB\xC3\xA9", 0},
		{"12MB\xC3\xA9", 0},
		{"12-\xC3\xA9", 0},
		{"4.16x\xC3\xA9", 0},
		{"1,2", 0},
		{"1234,567", 0},
		{"1,0245", 0},
		{"1,024,56", 0},
		{"1,234.5.6", 0},
		{"2026-11-30T10:05:12Z", 0},
		{"2026-12-01T10:05", 0},
		{"2026-12-011", 0},
		{"2026-1x", 0},
		{"10:05", 0},
		{"1:30", 0},
		{"3:30", 0},
		{"stride-33", 0},
		{"-12", 0},
		{"+12", 0},
		{"\xE2\x88\x92" "12", 0},
		{",5", 0},
		{"1e5", 0},
		{"12e", 0},
		{"12E5", 0},
		{"1.5E-3 s", 0},
		{"1234567890123456", 0},     /* 16 digits: not Clinger's fast path */
		{"0.00000000000000000000001", 0},
		{"12\xC3\xA9", 0},
		{"\xC3\xA9" "12", 0},
		{"12\xE2\x80\x89" "345", 0},
		/* invalid UTF-8: the shortcut declines a byte of 0x80 and up next to
		 * digits; the pattern reads it as SUBSTITUTE */
		{"12" "\xFF", 0},
		{"5 and 12" "\xFF", 1},
		{"\xFF" " 5 6", 2},         /* decided without ever checking the text's UTF-8 */
		{"\xFF" " 5 6" "\xFF", 1},
		/* glued on the left: no number in the run, decided without the pattern */
		{"a12", 1},
		{"_12", 1},
		{".5", 1},
		{"sm_90", 1},
		{"V13.0.88", 3},
		{"H200 and 5", 2},
		{"a12345-6", 1},             /* five digits: no date; the 6 after "-" goes to the pattern */
		{"v2026-11-30", 0},          /* a date may follow a letter: declined */
		{"x2026-", 0},
		{"_1234-5", 0},
	};
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
		size_t len = strlen(edges[i].text);
		size_t plain = assert_same_scan(edges[i].text, len);
		if (plain != edges[i].plain) {
			print_text(edges[i].text, len);
			print_error("the shortcut decided %zu numbers, expected %zu\n", plain, edges[i].plain);
		}
		assert_int_equal(plain, edges[i].plain);
	}
}

/* A NUL byte inside the text is a character like any other. */
static void test_embedded_nul_agrees(void **state)
{
	(void)state;
	static const char text[] = "12\0" "34 \0" "5.5\0%";
	assert_same_scan(text, sizeof text - 1);
}

/* Too many digits: the shortcut reads the run, make_token refuses it. */
static void test_long_digit_runs_agree(void **state)
{
	(void)state;
	size_t len = NUMTOK_MAX_DIGITS * 3;
	char *text = malloc(len);
	assert_non_null(text);
	for (size_t i = 0; i < len; i++)
		text[i] = (char)('0' + i % 10);
	text[NUMTOK_MAX_DIGITS] = ' ';
	text[NUMTOK_MAX_DIGITS + 1 + 5] = '.';
	assert_same_scan(text, len);
	free(text);
}

/* ---- random texts ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t next_random(void)
{
	/* xorshift64*: fixed seed, so a failure reproduces */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4CB4F6CDD1Du;
}

/* 300,000 texts, each MIN_COUNT to MIN_COUNT + SPREAD - 1 pieces drawn at
 * random, each scanned both ways; returns how many the shortcut decided. */
static size_t scan_random_texts(const char *const *pieces, size_t n_pieces, size_t min_count, size_t spread)
{
	char text[256];
	size_t plain = 0;
	for (int round = 0; round < 300000; round++) {
		size_t len = 0, count = min_count + next_random() % spread;
		for (size_t k = 0; k < count; k++) {
			const char *p = pieces[next_random() % n_pieces];
			size_t pl = strlen(p);
			memcpy(text + len, p, pl);
			len += pl;
		}
		plain += assert_same_scan(text, len);
	}
	return plain;
}

/* numtok_scan_into gives numtok_scan's tokens whatever the room in the
 * caller's buffer: none, less than the tokens, exactly them, more; *out
 * is the buffer when they fit, a heap array otherwise. */
static void test_scan_into_agrees_at_every_room(void **state)
{
	(void)state;
	char text[64 * 8 + 1];
	size_t len = 0;
	for (int i = 0; i < 64; i++)
		len += (size_t)sprintf(text + len, "%d.5x ", i * 7);
	struct num_token *whole;
	size_t n = numtok_scan(text, len, &whole);
	assert_int_equal(n, 64);
	struct num_token buf[80];
	for (size_t cap = 0; cap <= 80; cap++) {
		memset(buf, 0xA5, sizeof buf);
		struct num_token *out;
		size_t got = numtok_scan_into(text, len, buf, cap, &out);
		assert_int_equal(got, n);
		assert_true(cap >= n ? out == buf : out != buf);
		for (size_t i = 0; i < n; i++)
			assert_true(same_token(&out[i], &whole[i]));
		if (out != buf)
			free(out);
	}
	free(whole);
	struct num_token *out;
	assert_int_equal(numtok_scan_into("no digits", 9, buf, 4, &out), 0);
	assert_ptr_equal(out, buf);
}

/* numtok_first_digit (the scan's first test, and where both scans
 * compared here look for the next number) against a byte loop: every
 * length and position across the widths it reads at once (16, 8, the
 * last 16 bytes of the text), with the bytes either side of '0'..'9' and
 * every byte value as filler. */
static void test_first_digit_is_the_first_digit(void **state)
{
	(void)state;
	char text[80];
	for (size_t len = 0; len <= sizeof text; len++)
		for (size_t at = 0; at <= len; at++)
			for (int fill = 0; fill < 256; fill += (fill < 0x3A ? 1 : 7)) {
				if (fill >= '0' && fill <= '9')
					continue;
				memset(text, fill, sizeof text);
				if (at < len)
					text[at] = (char)('0' + (at + len) % 10);
				if (at + 1 < len)
					text[at + 1] = '5'; /* a later digit must not win */
				assert_int_equal(numtok_first_digit(text, len), at);
			}
	for (int round = 0; round < 20000; round++) {
		size_t len = next_random() % sizeof text, want = len;
		for (size_t i = 0; i < len; i++) {
			text[i] = (char)(next_random() % 256);
			if (want == len && text[i] >= '0' && text[i] <= '9')
				want = i;
		}
		assert_int_equal(numtok_first_digit(text, len), want);
	}
}

/* ---- files: the fuzz corpus, the course ---- */

static char *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	assert_non_null(buf);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

/* Compares the file whole and each of its lines (a file_tree_fn). */
static size_t compare_file(const char *path, const struct stat *st)
{
	(void)st;
	size_t len;
	char *text = read_whole(path, &len);
	if (!text)
		return 0;
	assert_same_scan(text, len);
	for (size_t from = 0; from < len;) {
		const char *nl = memchr(text + from, '\n', len - from);
		size_t end = nl ? (size_t)(nl - text) : len;
		assert_same_scan(text + from, end - from);
		from = end + 1;
	}
	free(text);
	return 1;
}

/* Run from the repository root, as make unit does. */
static void test_corpus_and_course_agree(void **state)
{
	(void)state;
	assert_true(file_tree_visit("verifier/tests/fuzz/corpus/numtok", compare_file) > 0);
	file_tree_visit("verifier/tests/fuzz/regressions/numtok", compare_file);
	assert_true(file_tree_visit("evidence", compare_file) > 0);
	assert_true(file_tree_visit("pages", compare_file) > 0);
	file_tree_visit("verifier/tests/cases", compare_file);
}

static void test_random_texts_agree(void **state)
{
	(void)state;
	static const char *const pieces[] = {
		"0", "1", "2", "5", "9", "12", "123", "1234", "2026", ".", ",", " ", "  ", "\t", "\n", "-", "+",
		":", "x", "e", "E", "%", "m", "s", "ms", "us", "K", "KB", "B", "p", "n", "u", "T", "G", "M", "a",
		"_", "(", ")", "/", "T10", "Z", "\xE2\x80\x89", "\xE2\x80\xAF", "\xC2\xA0", "\xE2\x88\x92", "\xC2\xB5",
		"\xCE\xBC", "\xC3\x97", "\xC3\xA9", "\xFF", "\xC2", "percent", "GB/s", "sec",
	};
	size_t plain = scan_random_texts(pieces, sizeof pieces / sizeof pieces[0], 0, 16);
	assert_true(plain > 10000); /* the shortcut was exercised, not only declined */
}

/* Texts dense in what the shortcut reads past the digits: groups, second
 * points, dates and clocks, every unit spelling and its near misses,
 * hyphens before words and digits, letters glued on either side. */
static void test_random_numbers_agree(void **state)
{
	(void)state;
	static const char *const pieces[] = {
		"0", "7", "12", "024", "2026", "12345", ",", ",000", ",0", ".", ".5", "-", "-12", "-01", ":", ":30",
		" ", "  ", "\t", "(", "T", "T10", "Z", "e", "E", "e5", "E-3", "x", "%", "_", "f", "a", "s", "ms", "ns",
		"us", "m", "percent", "per", "KiB", "KB", "MiB", "MB", "MB/s", "MB/", "GiB/s", "GiB", "GB/s", "GB",
		"TB/s", "TB", "B", "Bx", "sec", "steps", "needs", "minutes", "bytes", "\xC2\xB5s", "\xCE\xBCs",
		"\xC3\x97", "\xC3\xA9", "\xC2\xA0", "\xE2\x80\xAF", "\xE2\x80\x89", "\xE2\x88\x92", "\xFF",
	};
	size_t plain = scan_random_texts(pieces, sizeof pieces / sizeof pieces[0], 1, 10);
	assert_true(plain > 100000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges_agree_and_take_their_path),
		cmocka_unit_test(test_embedded_nul_agrees),
		cmocka_unit_test(test_long_digit_runs_agree),
		cmocka_unit_test(test_scan_into_agrees_at_every_room),
		cmocka_unit_test(test_first_digit_is_the_first_digit),
		cmocka_unit_test(test_corpus_and_course_agree),
		cmocka_unit_test(test_random_texts_agree),
		cmocka_unit_test(test_random_numbers_agree),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	numtok_release_patterns();
	return rc;
}

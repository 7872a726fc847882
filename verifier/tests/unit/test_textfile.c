/*
 * test_textfile.c - reading text: the UTF-8 rule (RFC 3629, as PCRE2
 * applies it) and where the first byte outside it is, in the normalised
 * text the rest of the tool sees.
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

#include "textfile.h"

static void assert_first_invalid(const char *text, size_t len, size_t want)
{
	assert_int_equal(utf8_first_invalid(text, len), want);
}

static void test_valid_text(void **state)
{
	(void)state;
	const char s[] = "caf\xC3\xA9, \xE2\x88\x92" "3, \xF0\x9F\x98\x80 and \xF4\x8F\xBF\xBF";
	assert_first_invalid(s, sizeof s - 1, sizeof s - 1);
	assert_first_invalid("", 0, 0);
}

static void test_invalid_sequences(void **state)
{
	(void)state;
	assert_first_invalid("caf\xE9!", 5, 3);         /* Latin-1 e-acute */
	assert_first_invalid("a\xC0\x80", 3, 1);        /* overlong NUL */
	assert_first_invalid("a\xE0\x80\xAF", 4, 1);    /* overlong 3-byte */
	assert_first_invalid("a\xED\xA0\x80", 4, 1);    /* a surrogate */
	assert_first_invalid("a\xF4\x90\x80\x80", 5, 1); /* past U+10FFFF */
	assert_first_invalid("ab\xC3", 3, 2);           /* cut short at the end */
	assert_first_invalid("a\xC3(", 3, 1);           /* a lead byte without its continuation */
	assert_first_invalid("a\x80", 2, 1);            /* a lone continuation byte */
}

/* The first bad byte at every offset of a long ASCII run, and valid
 * multi-byte sequences across the block steps the scan takes. */
static void test_first_invalid_in_long_text(void **state)
{
	(void)state;
	char text[300];
	for (size_t at = 0; at < sizeof text; at++) {
		memset(text, 'a', sizeof text);
		text[at] = (char)0xFF;
		assert_first_invalid(text, sizeof text, at);
		memset(text, 'a', sizeof text);
		if (at + 1 < sizeof text) {
			text[at] = (char)0xC3; /* U+00E9, valid, straddling any step */
			text[at + 1] = (char)0xA9;
			assert_first_invalid(text, sizeof text, sizeof text);
		}
	}
}

static void test_file_flags_first_bad_byte(void **state)
{
	(void)state;
	struct textfile tf;
	/* CRLF becomes LF first: the offset is in the text every parser sees */
	const char s[] = "line one\r\nline \xE9two\r\n";
	textfile_from_memory(s, sizeof s - 1, "pages/x.md", &tf);
	assert_true(tf.not_utf8);
	assert_int_equal(tf.not_utf8_at, 14);
	assert_int_equal(textfile_line_of(&tf, tf.not_utf8_at), 2);
	textfile_free(&tf);
	textfile_from_memory("fine \xC3\xA9\n", 8, "pages/y.md", &tf);
	assert_false(tf.not_utf8);
	textfile_free(&tf);
}

/* textfile_read (one read of the stat'd size) gives what
 * textfile_from_memory gives for the same bytes: the whole file, however
 * large, normalised (BOM dropped, CR and CRLF made LF); an empty file is
 * empty; a folder or a missing file is refused with its reason. */
static void read_back(const char *bytes, size_t len)
{
	char path[] = "/tmp/test-textfile-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, len), (ssize_t)len);
	close(fd);
	struct textfile got, want;
	const char *why = NULL;
	assert_int_equal(textfile_read(path, "x.txt", &got, &why), 0);
	textfile_from_memory(bytes, len, "x.txt", &want);
	assert_int_equal(got.len, want.len);
	assert_memory_equal(got.data, want.data, want.len + 1);
	assert_int_equal(got.n_lines, want.n_lines);
	assert_int_equal(got.had_bom, want.had_bom);
	assert_int_equal(got.had_cr, want.had_cr);
	textfile_free(&got);
	textfile_free(&want);
	unlink(path);
}

static void test_read_whole_file(void **state)
{
	(void)state;
	read_back("", 0);
	read_back("one line, no LF", 15);
	read_back("\xEF\xBB\xBF" "a\r\nb\rc\n", 10);
	size_t n = 300000; /* past any single buffer a reader might use */
	char *big = malloc(n);
	for (size_t i = 0; i < n; i++)
		big[i] = i % 61 == 60 ? '\n' : i % 97 == 96 ? '\r' : (char)('a' + i % 26);
	read_back(big, n);
	free(big);
	struct textfile tf;
	const char *why = NULL;
	assert_int_equal(textfile_read("/tmp", "tmp", &tf, &why), -1);
	assert_string_equal(why, "is a directory");
	assert_int_equal(textfile_read("/nonexistent/x", "x", &tf, &why), -1);
	assert_non_null(why);
}

/* The line index against the rule it keeps (a line starts at 0 and after
 * every LF but a final one), for LFs at every place around the 64-byte
 * steps the index takes: first, last, doubled, at a step's edge,
 * and past the index's first size (every other byte an LF). */
static void test_line_index(void **state)
{
	(void)state;
	char text[150];
	for (unsigned seed = 0; seed < 3000; seed++) {
		size_t len = seed % 141;
		unsigned x = seed * 2654435761u;
		for (size_t i = 0; i < len; i++) {
			x = x * 1103515245u + 12345u;
			text[i] = (x >> 16) % (seed % 5 + 2) == 0 ? '\n' : 'a';
		}
		struct textfile tf;
		textfile_from_memory(text, len, "x", &tf);
		size_t want = 0;
		for (size_t p = 0; p < len; p++) {
			if (p == 0 || (text[p - 1] == '\n')) {
				assert_true(want < tf.n_lines);
				assert_int_equal(tf.line_start[want], p);
				want++;
			}
		}
		assert_int_equal(tf.n_lines, want);
		textfile_free(&tf);
	}
}

/* Reading a text against its rules written out plainly here: BOM
 * dropped, CRLF and lone CR made LF, a NUL flagged, the first byte
 * outside UTF-8 searched from the start, lines indexed.  Random texts of
 * LF, CR, NUL, valid and broken UTF-8 at every place around the 64-byte
 * steps of the line index and the UTF-8 check, with and without a BOM. */
static void test_read_as_plain_passes(void **state)
{
	(void)state;
	static const char *const pieces[] = {"a", "bc", "\n", "\r", "\r\n", "\0", "\xC3\xA9", "\xFF", "\xE2\x82",
					     "\xF0\x9F\x98\x80", "0123456789abcdef0123456789abcdef"};
	static const size_t piece_len[] = {1, 2, 1, 1, 2, 1, 2, 1, 2, 4, 32};
	unsigned x = 11;
#define RND(n) ((x = x * 1103515245u + 12345u), (x >> 16) % (n))
	for (int round = 0; round < 4000; round++) {
		char text[2048];
		size_t len = 0;
		if (RND(4) == 0) {
			memcpy(text, "\xEF\xBB\xBF", 3);
			len = 3;
		}
		/* mostly ASCII, so that the odd byte falls in a later block */
		unsigned odd_every = 1 + RND(40);
		for (unsigned k = 0, pieces_n = RND(40); k < pieces_n; k++) {
			size_t which = RND(odd_every) == 0 ? RND(10) : RND(2) ? 10 : RND(3);
			memcpy(text + len, pieces[which], piece_len[which]);
			len += piece_len[which];
		}
		/* the passes it replaced */
		char want[2048];
		size_t i = 0, o = 0;
		bool bom = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0, cr = false, nul = false;
		for (i = bom ? 3 : 0; i < len; i++) {
			char c = text[i];
			if (c == '\r') {
				cr = true;
				if (i + 1 < len && text[i + 1] == '\n')
					continue;
				c = '\n';
			}
			nul |= c == '\0';
			want[o++] = c;
		}
		struct textfile tf;
		textfile_from_memory(text, len, "x", &tf);
		assert_int_equal(tf.len, o);
		assert_memory_equal(tf.data, want, o);
		assert_int_equal(tf.data[o], '\0');
		assert_int_equal(tf.had_bom, bom);
		assert_int_equal(tf.had_cr, cr);
		assert_int_equal(tf.has_nul, nul);
		size_t bad = utf8_first_invalid(want, o);
		assert_int_equal(tf.not_utf8_at, bad);
		assert_int_equal(tf.not_utf8, bad < o);
		size_t lines = 0;
		for (size_t p = 0; p < o; p++)
			if (p == 0 || want[p - 1] == '\n') {
				assert_true(lines < tf.n_lines);
				assert_int_equal(tf.line_start[lines], p);
				lines++;
			}
		assert_int_equal(tf.n_lines, lines);
		textfile_free(&tf);
	}
#undef RND
}

/* textfile_read_fd, the one whole-file read of textfile_read and the
 * lesson files: the bytes whatever size the caller was told (a file that
 * grew or shrank since its stat), a NUL after them, and more than max
 * refused, nothing kept. */
static void test_read_fd_sizes_and_limit(void **state)
{
	(void)state;
	char path[] = "/tmp/test_textfile_fd.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	char bytes[300];
	for (size_t i = 0; i < sizeof bytes; i++)
		bytes[i] = (char)('a' + i % 26);
	assert_int_equal(write(fd, bytes, sizeof bytes), (ssize_t)sizeof bytes);
	static const size_t told[] = {0, 1, 10, 299, 300, 301, 5000};
	for (size_t t = 0; t < sizeof told / sizeof *told; t++) {
		char *data = NULL;
		size_t len = 0;
		assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
		assert_int_equal(textfile_read_fd(fd, told[t], 300, &data, &len), 0);
		assert_int_equal(len, sizeof bytes);
		assert_memory_equal(data, bytes, sizeof bytes);
		assert_int_equal(data[len], '\0');
		free(data);
		/* one byte over the limit, whatever the size said */
		data = NULL;
		assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
		assert_int_equal(textfile_read_fd(fd, told[t], 299, &data, &len), 1);
		assert_null(data);
	}
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_text),
		cmocka_unit_test(test_invalid_sequences),
		cmocka_unit_test(test_first_invalid_in_long_text),
		cmocka_unit_test(test_file_flags_first_bad_byte),
		cmocka_unit_test(test_read_whole_file),
		cmocka_unit_test(test_line_index),
		cmocka_unit_test(test_read_as_plain_passes),
		cmocka_unit_test(test_read_fd_sizes_and_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_srctok.c - the tokens rule of srctok.h as tables: pairs of sources
 * that hash alike (a comment, blank space, a splice) or differently (code,
 * a macro, a string), the tokens of a few lines, and the file rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srctok.h"

/* Before, after, and whether the rule calls them the same. */
static const struct {
	const char *a, *b;
	bool same;
} pairs[] = {
	{"int x = 1;\n", "int x = 1; // one\n", true},
	{"int x = 1;\n", "/* note */ int x = 1;\n", true},
	{"int x = 1;\n", "int   x=1 ;\n\n\n", true},
	{"int x = 1;\n", "int x \\\n= 1;\n", true},
	{"int x = 1;\n", "int x = 1;\r\n", true},
	{"int x = 1;\n", "in\\\nt x = 1;\n", true},
	{"// Verified on an H200\nint x;\n", "// Verified on an H100, 3 runs\n//\nint x;\n", true},
	{"// <<< snippet: kernel >>>\nint x;\n// <<< end >>>\n", "// <<< snippet: body >>>\nint x;\n// <<< end >>>\n", true},
	{"#define N 4\n", "#define N 4 /* four */\n", true},
	{"#define N 4\n", "#  define   N   4\n", true},
	{"int x = 1;\n", "int x = 2;\n", false},
	{"int x = 1;\n", "int y = 1;\n", false},
	{"#define N 4\n", "#define N 8\n", false},
	{"#define N 4\nint y;\n", "#define N 4 int y;\n", false},
	{"puts(\"a b\");\n", "puts(\"a  b\");\n", false},
	{"puts(\"// no comment\");\n", "puts(\"\");\n", false},
	{"char c = '/';\n", "char c = '*';\n", false},
	{"a >> b;\n", "a > > b;\n", false},
	{"a+++b;\n", "a+ ++b;\n", false},
	{"x = 1e+5;\n", "x = 1e +5;\n", false},
	{"x = 1'000;\n", "x = 1000;\n", false},
	{"s = R\"(a // b)\";\n", "s = R\"(a )\";\n", false},
	{"s = L\"x\";\n", "s = \"x\";\n", false},
	{"ab\n", "a b\n", false},
	{"#include \"../common/x.h\"\n", "#include \"../common/y.h\"\n", false},
	{"int x; /* open", "int x;", true},
};

static void test_pairs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1];
		srctok_sha256(pairs[i].a, strlen(pairs[i].a), a);
		srctok_sha256(pairs[i].b, strlen(pairs[i].b), b);
		if ((strcmp(a, b) == 0) != pairs[i].same)
			fail_msg("pair %zu: '%s' and '%s' should hash %s", i, pairs[i].a, pairs[i].b,
				 pairs[i].same ? "alike" : "differently");
	}
}

/* A source and its tokens, joined with '|' ("\n" ends a directive), each
 * with its line after '@'. */
static const struct {
	const char *src, *tokens;
} lists[] = {
	{"#include \"a.h\"\nint x;\n", "#@1|include@1|\"a.h\"@1|\n@1|int@2|x@2|;@2"},
	{"a = \"x\\\"y\" + 'q';", "a@1|=@1|\"x\\\"y\"@1|+@1|'q'@1|;@1"},
	{"/* one\n two */ x\n", "x@2"},
	{"y = 0x1p-3f >>= 2", "y@1|=@1|0x1p-3f@1|>>=@1|2@1"},
	{"#if A\\\n && B\nz", "#@1|if@1|A@1|&&@2|B@2|\n@2|z@3"},
	{"s = \"open\nt", "s@1|=@1|\"open@1|t@2"},
	{"#define E", "#@1|define@1|E@1|\n@1"},
	{"x /= 2; // tail\n", "x@1|/=@1|2@1|;@1"},
	/* splices: lines of the file, not of the text without them */
	{"in\\\nt x\\\r\n = 1;\nfo\\\n\\\no();\n", "int@1|x@2|=@3|1@3|;@3|foo@4|(@6|)@6|;@6"},
	{"a /* x *\\\n/ b\n", "a@1|b@2"},
	{"#define A\\\r\n", "#@1|define@1|A@1|\n@2"},
	{"s = R\"d(a\\\nb)d\\\n\";\n", "s@1|=@1|R\"d(ab)d\"@1|;@3"},
	{"%:define X <: 1 :>\n x", "%:@1|define@1|X@1|<:@1|1@1|:>@1|\n@1|x@2"},
};

static void test_lists(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		char got[512] = "";
		size_t n = 0;
		struct srctok lx;
		struct srctok_token t;
		srctok_init(&lx, lists[i].src, strlen(lists[i].src));
		while (srctok_next(&lx, &t)) {
			if (t.text[t.len] != '\0') /* callers compare it as a string */
				fail_msg("list %zu: token '%.*s' is not a string", i, (int)t.len, t.text);
			n += (size_t)snprintf(got + n, sizeof got - n, "%s%.*s@%zu", n ? "|" : "", (int)t.len, t.text,
					      t.line);
		}
		srctok_free(&lx);
		if (strcmp(got, lists[i].tokens) != 0)
			fail_msg("list %zu: got '%s', want '%s'", i, got, lists[i].tokens);
	}
}

static void test_file_rule(void **state)
{
	(void)state;
	static const struct {
		const char *path;
		bool source;
	} files[] = {{"programs/a/scan.cu", true},     {"programs/common/cuda_check.h", true},
		     {"programs/a/src/main.cpp", true}, {"programs/a/k.cuh", true},
		     {"programs/a/input.txt", false},   {"programs/a/CMakeLists.txt", false},
		     {"programs/a/Makefile", false},    {"programs/a/cu", false}};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		assert_int_equal(srctok_is_source(files[i].path), files[i].source);
	char tok[SHA256_HEX_LEN + 1], bytes[SHA256_HEX_LEN + 1], got[SHA256_HEX_LEN + 1];
	const char *data = "x = 1; // c\n";
	srctok_sha256(data, strlen(data), tok);
	sha256_hex(data, strlen(data), bytes);
	srctok_file_sha256("a.cu", data, strlen(data), got);
	assert_string_equal(got, tok);
	srctok_file_sha256("a.txt", data, strlen(data), got);
	assert_string_equal(got, bytes);
	/* the rule's own text: tokens each followed by a space */
	sha256_hex("x = 1 ; ", 8, bytes);
	assert_string_equal(tok, bytes);
}

/* A raw string whose delimiter holds a NUL, left open with ")" as the
 * file's last byte: 39c04bf's lexer compared the delimiter's NUL with the
 * "byte" past the end (0) and took it into the token, a read one byte
 * past the file (ASan: heap-buffer-overflow).  The token stops at the
 * end; the buffer is exactly the file, so ASan sees any read past it. */
static void test_raw_string_open_at_end(void **state)
{
	(void)state;
	static const char text[] = {'R', '"', '\0', '(', 'x', ')'};
	char *data = malloc(sizeof text);
	assert_non_null(data);
	memcpy(data, text, sizeof text);
	struct srctok lx;
	struct srctok_token t;
	srctok_init(&lx, data, sizeof text);
	size_t total = 0, n = 0;
	while (srctok_next(&lx, &t))
		total += t.len, n++;
	srctok_free(&lx);
	assert_int_equal(n, 1);
	assert_int_equal(total, sizeof text); /* the whole file, nothing past it */
	char out[SHA256_HEX_LEN + 1];
	srctok_sha256(data, sizeof text, out);
	assert_int_equal(strlen(out), SHA256_HEX_LEN);
	free(data);
}

/* srctok_sha256 joins the tokens by its own loop (short ones copied in
 * fixed 16-byte moves): its hash must be that of the tokens srctok_next
 * gives, each and a space, a directive's end as a line feed.  Sources are
 * made from pieces chosen by a fixed generator, each in a buffer of
 * exactly its length, so that a token at the end is copied from the last
 * bytes of an allocation (ASan reports a move past it). */
static void joined_hash(const char *data, size_t len, char out[SHA256_HEX_LEN + 1])
{
	char *joined = malloc(2 * len + 2);
	assert_non_null(joined);
	size_t n = 0;
	struct srctok lx;
	struct srctok_token t;
	srctok_init(&lx, data, len);
	while (srctok_next(&lx, &t)) {
		memcpy(joined + n, t.text, t.len);
		n += t.len;
		if (!(t.len == 1 && t.text[0] == '\n'))
			joined[n++] = ' ';
	}
	srctok_free(&lx);
	sha256_hex(joined, n, out);
	free(joined);
}

static void test_hash_is_the_tokens_joined(void **state)
{
	(void)state;
	static const char *const pieces[] = {
		"x", "identifier_longer_than_sixteen_bytes", "1", "0x1p-3f", "1'000", ".5", " ", "\t", "\n",
		"\\\n", "\\\r\n", "// note\n", "/* c */", "/* open", "\"s\"", "\"a b\\\"c\"", "'q'",
		"\"open", "R\"(raw ) text)\"", "R\"d(x)d\"", "u8\"u\"", "L'w'", ">>=", "<=>", "->*", "::",
		"...", "#", "#define N 4\n", "%:", "<:", "+", "-", "\xc3\xa9t\xc3\xa9"};
	uint32_t seed = 12345;
	for (int round = 0; round < 4000; round++) {
		char text[512];
		size_t len = 0;
		int parts = round % 24;
		for (int k = 0; k < parts; k++) {
			seed = seed * 1664525u + 1013904223u;
			const char *p = pieces[(seed >> 8) % (sizeof pieces / sizeof pieces[0])];
			size_t n = strlen(p);
			if (len + n > sizeof text)
				break;
			memcpy(text + len, p, n);
			len += n;
		}
		char *exact = malloc(len ? len : 1);
		assert_non_null(exact);
		memcpy(exact, text, len);
		char got[SHA256_HEX_LEN + 1], want[SHA256_HEX_LEN + 1];
		srctok_sha256(exact, len, got);
		joined_hash(exact, len, want);
		if (strcmp(got, want) != 0)
			fail_msg("round %d: the hash of '%.*s' is not that of its tokens joined", round, (int)len, text);
		free(exact);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_file_rule),
		cmocka_unit_test(test_raw_string_open_at_end),
		cmocka_unit_test(test_hash_is_the_tokens_joined),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * fuzz_srctok.c - the tokens rule (srctok.h).
 *
 * Properties: srctok_sha256 is the SHA-256 of the tokens srctok_next
 * gives, each followed by one space, a directive's end as one line feed
 * (the hash joins tokens by its own loop, copying short ones in fixed
 * 16-byte moves: this holds that loop to the lexer's tokens); every token
 * is at least one byte and a string (a NUL after it); the tokens' lines
 * never go back and stay within the file's lines; the tokens, without
 * their separators, are no longer than the input (a token is bytes of the
 * input without splices); and srctok_file_sha256 hashes a source file by
 * its tokens and any other by its bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sha256.h"
#include "srctok.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	size_t lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';

	struct buf joined = {0};
	struct srctok lx;
	struct srctok_token t;
	size_t last_line = 1, token_bytes = 0;
	srctok_init(&lx, text, size);
	while (srctok_next(&lx, &t)) {
		FUZZ_CHECK(t.len >= 1, "an empty token at line %zu", t.line);
		FUZZ_CHECK(t.text[t.len] == '\0', "token at line %zu is not a string", t.line);
		FUZZ_CHECK(t.line >= last_line && t.line <= lines, "token at line %zu after line %zu, of %zu lines",
			   t.line, last_line, lines);
		last_line = t.line;
		bool directive_end = t.len == 1 && t.text[0] == '\n';
		if (!directive_end)
			token_bytes += t.len;
		buf_append(&joined, t.text, t.len);
		if (!directive_end)
			buf_append(&joined, " ", 1);
	}
	srctok_free(&lx);
	FUZZ_CHECK(token_bytes <= size, "%zu bytes of tokens from %zu bytes", token_bytes, size);

	char want[SHA256_HEX_LEN + 1], got[SHA256_HEX_LEN + 1], bytes[SHA256_HEX_LEN + 1];
	sha256_hex(joined.s ? joined.s : "", joined.len, want);
	srctok_sha256(text, size, got);
	FUZZ_CHECK(strcmp(got, want) == 0, "srctok_sha256 is not the hash of the %zu joined bytes of the tokens",
		   joined.len);
	srctok_file_sha256("programs/x/k.cu", text, size, got);
	FUZZ_CHECK(strcmp(got, want) == 0, "a .cu file is not hashed by its tokens");
	sha256_hex(text, size, bytes);
	srctok_file_sha256("programs/x/input.txt", text, size, got);
	FUZZ_CHECK(strcmp(got, bytes) == 0, "a .txt file is not hashed by its bytes");
	buf_free(&joined);
	return 0;
}

/*
 * test_sha256.c - the digests through the SHA-256 fetched once: the
 * published vectors, and the same digest as libcrypto's EVP_sha256()
 * (the handle they replaced), whole and in pieces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "sha256.h"

static void legacy_hex(const void *data, size_t len, char out[SHA256_HEX_LEN + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	assert_true(EVP_Digest(data, len, md, &n, EVP_sha256(), NULL));
	assert_int_equal(n, 32);
	for (unsigned i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
}

static void test_vectors(void **state)
{
	(void)state;
	char got[SHA256_HEX_LEN + 1];
	sha256_hex("", 0, got);
	assert_string_equal(got, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha256_hex("abc", 3, got);
	assert_string_equal(got, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	struct sha256_ctx *c = sha256_begin();
	sha256_update(c, "a", 1);
	sha256_update(c, "", 0);
	sha256_update(c, "bc", 2);
	sha256_end(c, got);
	assert_string_equal(got, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* Lengths around the 64-byte block and its padding, cut at every place. */
static void test_same_as_legacy_handle(void **state)
{
	(void)state;
	unsigned char buf[300];
	unsigned x = 7;
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)((x = x * 1103515245u + 12345u) >> 16);
	for (size_t len = 0; len <= sizeof buf; len += len < 130 ? 1 : 17) {
		char want[SHA256_HEX_LEN + 1], got[SHA256_HEX_LEN + 1];
		legacy_hex(buf, len, want);
		sha256_hex(buf, len, got);
		assert_string_equal(got, want);
		size_t cut = len * 5 / 11;
		struct sha256_ctx *c = sha256_begin();
		sha256_update(c, buf, cut);
		sha256_update(c, buf + cut, len - cut);
		sha256_end(c, got);
		assert_string_equal(got, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_same_as_legacy_handle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* sha256.c - see sha256.h. */
#include "sha256.h"

#include <stdio.h>
#include <stdlib.h>

#include <pthread.h>

#include <openssl/evp.h>

/* The digest fetched from the provider once.  EVP_sha256() is a legacy
 * handle that OpenSSL 3 looks up again (an implicit fetch) each time a
 * context is started with it: about 2,500 instructions a digest, three
 * digests a lesson.  A fetched EVP_MD is safe to share between threads. */
static EVP_MD *sha256_md;
static pthread_once_t sha256_once = PTHREAD_ONCE_INIT;

static void fetch_md(void)
{
	sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
}

static const EVP_MD *md_sha256(void)
{
	pthread_once(&sha256_once, fetch_md);
	if (!sha256_md) {
		fputs("coursecheck: libcrypto has no SHA-256\n", stderr);
		abort();
	}
	return sha256_md;
}

static void to_hex(const unsigned char *md, unsigned n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (unsigned i = 0; i < n; i++) {
		out[2 * i] = digits[md[i] >> 4];
		out[2 * i + 1] = digits[md[i] & 15];
	}
	out[2 * n] = '\0';
}

void sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	if (!EVP_Digest(data, len, md, &n, md_sha256(), NULL)) {
		fputs("coursecheck: libcrypto failed to compute SHA-256\n", stderr);
		abort();
	}
	to_hex(md, n, out);
}

struct sha256_ctx *sha256_begin(void)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex2(ctx, md_sha256(), NULL)) {
		fputs("coursecheck: libcrypto failed to start SHA-256\n", stderr);
		abort();
	}
	return (struct sha256_ctx *)ctx;
}

void sha256_update(struct sha256_ctx *c, const void *data, size_t len)
{
	if (len && !EVP_DigestUpdate((EVP_MD_CTX *)c, data, len)) {
		fputs("coursecheck: libcrypto failed to compute SHA-256\n", stderr);
		abort();
	}
}

void sha256_end(struct sha256_ctx *c, char out[SHA256_HEX_LEN + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	if (!EVP_DigestFinal_ex((EVP_MD_CTX *)c, md, &n)) {
		fputs("coursecheck: libcrypto failed to compute SHA-256\n", stderr);
		abort();
	}
	EVP_MD_CTX_free((EVP_MD_CTX *)c);
	to_hex(md, n, out);
}

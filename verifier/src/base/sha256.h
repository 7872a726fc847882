/*
 * sha256.h - SHA-256 as 64 lowercase hex digits, through OpenSSL's libcrypto.
 */
#ifndef COURSECHECK_SHA256_H
#define COURSECHECK_SHA256_H

#include <stddef.h>

#define SHA256_HEX_LEN 64

/* Writes 64 hex digits and a NUL into out. */
void sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN + 1]);
/* The same digest over pieces fed one after another (no copy of them
 * joined): begin, update for each piece, end (which frees the context). */
struct sha256_ctx;
struct sha256_ctx *sha256_begin(void);
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
void sha256_end(struct sha256_ctx *c, char out[SHA256_HEX_LEN + 1]);

#endif

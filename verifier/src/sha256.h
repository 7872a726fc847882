/*
 * sha256.h - SHA-256 as 64 lowercase hex digits, through OpenSSL's libcrypto.
 */
#ifndef COURSECHECK_SHA256_H
#define COURSECHECK_SHA256_H

#include <stddef.h>

#define SHA256_HEX_LEN 64

/* Writes 64 hex digits and a NUL into out. */
void sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN + 1]);
/* Hashes the file's bytes as they are on disk.  Returns 0, or -1 with errno set. */
int sha256_file_hex(const char *path, char out[SHA256_HEX_LEN + 1]);

#endif

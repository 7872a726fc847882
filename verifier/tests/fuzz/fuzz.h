/*
 * fuzz.h - what every fuzz target of verifier/tests/fuzz/ shares.
 *
 * A target is one file fuzz_NAME.c defining LLVMFuzzerTestOneInput (and,
 * when it needs one, LLVMFuzzerInitialize).  It is built twice (fuzz.mk):
 * with clang and libFuzzer for `make fuzz`, and with gcc and the plain
 * driver replay.c for `make test-slow`, which feeds it every committed corpus
 * and regression file once.  So a target uses the product's public
 * headers only, and nothing of libFuzzer's.
 *
 * A target checks properties, not only memory safety: FUZZ_CHECK prints
 * what failed and aborts, which both drivers report as a finding.
 *
 * Inputs made of several texts are split at lines "@@@@" (fuzz_split);
 * the dictionaries hold the separator, so the fuzzer finds it.
 */
#ifndef COURSECHECK_FUZZ_H
#define COURSECHECK_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_CHECK(cond, ...)                                                   \
	do {                                                                    \
		if (!(cond))                                                    \
			fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);      \
	} while (0)

/* Where property failures are written: standard error, or a copy of it
 * kept by a target that silences standard error around noisy calls. */
extern int fuzz_report_fd;

_Noreturn void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Diagnostics go to /dev/null (opened once, before any path oracle is
 * armed): the targets judge the parsers' results, not their wording. */
void fuzz_quiet(void);

/* True when data is text the reader lets through to a parser: no NUL
 * byte and valid UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF).  Pages and programs that are not are refused
 * when read (file-encoding) before cmark-gfm, libyaml or PCRE2 sees them,
 * so the parser targets skip them too; fuzz_verify, which reads from
 * disk, feeds them to the reader itself. */
bool fuzz_is_text(const uint8_t *data, size_t size);

/* One piece of an input split at "@@@@" lines. */
struct fuzz_part {
	const char *s;
	size_t len;
};
/* Splits data at lines that are exactly "@@@@" into at most max parts
 * (the last part keeps any further separators).  Returns the count
 * (at least 1). */
size_t fuzz_split(const uint8_t *data, size_t size, struct fuzz_part *parts, size_t max);

#endif

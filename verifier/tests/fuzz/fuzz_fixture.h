/*
 * fuzz_fixture.h - the small course fuzz_verify checks pages in: the
 * files of verifier/tests/fixtures/demo, embedded at build time by
 * embed-fixture.sh (paths relative to the course root).
 */
#ifndef COURSECHECK_FUZZ_FIXTURE_H
#define COURSECHECK_FUZZ_FIXTURE_H

#include <stddef.h>

struct fuzz_fixture_file {
	const char *path;
	const unsigned char *data;
	size_t len;
};

extern const struct fuzz_fixture_file fuzz_fixture[];
extern const size_t fuzz_fixture_n;

#endif

/*
 * diag_capture.h - for unit tests: every diagnostic of a test is printed
 * into memory, so a test can count what was reported since its setup and
 * read the exact text.  Include once per test program; use setup and
 * teardown as the group's (or each test's) fixtures.
 */
#ifndef COURSECHECK_TEST_DIAG_CAPTURE_H
#define COURSECHECK_TEST_DIAG_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

static FILE *diag_stream;
static char *diag_buf;
static size_t diag_len;
static size_t base_kind[DIAG_KIND_COUNT];
static size_t base_errors;

static inline int setup(void **state)
{
	(void)state;
	diag_stream = open_memstream(&diag_buf, &diag_len);
	if (!diag_stream)
		return -1;
	diag_init(diag_stream, false);
	diag_set_run_policy((struct diag_policy){0});
	for (int k = 0; k < DIAG_KIND_COUNT; k++)
		base_kind[k] = diag_count_kind((enum diag_kind)k);
	base_errors = diag_count(DIAG_ERROR);
	return 0;
}

static inline int teardown(void **state)
{
	(void)state;
	diag_init(stderr, false);
	fclose(diag_stream);
	free(diag_buf);
	diag_buf = NULL;
	diag_len = 0;
	return 0;
}

static inline size_t reported(enum diag_kind kind)
{
	return diag_count_kind(kind) - base_kind[kind];
}

static inline size_t errors(void)
{
	return diag_count(DIAG_ERROR) - base_errors;
}

/* Everything printed so far in this test. */
static inline const char *output(void)
{
	fflush(diag_stream);
	return diag_buf ? diag_buf : "";
}

static inline void assert_output_has(const char *needle)
{
	const char *out = output();
	if (!strstr(out, needle))
		print_error("diagnostics:\n%s\nlack: %s\n", out, needle);
	assert_non_null(strstr(out, needle));
}

#endif

/*
 * fuzz_approvals.c - a page's approvals file (approvals.h): its blocks,
 * their signatures and the trust judged of them.
 *
 * Properties: every block starts on a line of the file, after the one
 * before it; a block that does not count says why; no block counts (a
 * fuzzer cannot sign with a key allowed_signers lists, so a trusted block
 * would be a signature check that passed without a signature), so no item
 * is recorded; and judging the same text twice gives the same blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "approvals.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > APPROVALS_MAX_FILE || memchr(data, '\0', size))
		return 0; /* the reader refuses these before parsing */
	struct approvals a, again;
	approvals_parse("reviews/fuzz.approvals", (const char *)data, size, &a);
	size_t prev = 0;
	for (size_t i = 0; i < a.n_blocks; i++) {
		const struct approval_block *b = &a.blocks[i];
		FUZZ_CHECK(b->line > prev && b->line <= a.tf.n_lines, "block %zu at line %zu (previous %zu, %zu lines)", i,
			   b->line, prev, a.tf.n_lines);
		prev = b->line;
		FUZZ_CHECK(b->trust != APPROVAL_TRUSTED, "block %zu at line %zu is trusted", i, b->line);
		FUZZ_CHECK(b->why && b->why[0], "block %zu at line %zu does not count and says no why", i, b->line);
	}
	FUZZ_CHECK(a.n_records == 0, "%zu records from blocks no one signed", a.n_records);
	approvals_parse("reviews/fuzz.approvals", (const char *)data, size, &again);
	FUZZ_CHECK(again.n_blocks == a.n_blocks, "a second reading found %zu blocks, not %zu", again.n_blocks, a.n_blocks);
	for (size_t i = 0; i < a.n_blocks && i < again.n_blocks; i++)
		FUZZ_CHECK(again.blocks[i].line == a.blocks[i].line && again.blocks[i].trust == a.blocks[i].trust,
			   "block %zu judged differently the second time", i);
	approvals_free(&again);
	approvals_free(&a);
	return 0;
}

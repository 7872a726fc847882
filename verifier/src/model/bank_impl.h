/*
 * bank_impl.h - the bank's own parts, shared by its two files: bank.c
 * (the lists: a file's numbers banked as references, the entries handed
 * out, freeing) and bank_lookup.c (the index by value and every look-up).
 * Nothing outside the bank includes it; bank.h is the interface.
 */
#ifndef COURSECHECK_BANK_IMPL_H
#define COURSECHECK_BANK_IMPL_H

#include <stdint.h>

#include "bank.h"

/* A banked number: 24 bytes where a whole entry is 80 (issue 32). */
struct bank_ref {
	double value;
	uint32_t line;    /* file line (files are under TEXTFILE_MAX_BYTES) */
	uint32_t start;   /* the token's start in its line */
	int16_t decimals; /* the token's: with the value, all a trace test reads
			   * (numtok_traces_to_value), so a look-up never reads a
			   * line again to test a number, only to hand one out */
};

/* refs[first..] up to the next span's first: one file, one where */
struct bank_span {
	size_t first;
	const struct evfile *ev;
	const char *where;
	bool first_stdout; /* lines of the first run's stdout (stdout_index) */
};

/* The span holding l->refs[pos]. */
const struct bank_span *bank_span_of(const struct bank_list *l, size_t pos);
/* The entry of l->refs[pos] (its token read again from its line), made
 * at its first call and kept at its address until bank_free. */
const struct bank_entry *bank_entry_made(const struct bank *b, const struct bank_list *l, size_t pos);
/* b->run_lines made for the files added since the last call: a list of
 * each file's run-line numbers. */
void bank_run_lines_ready(struct bank *b);
/* Frees an index (bank_lookup.c's; NULL is nothing). */
void bank_index_free(struct bank_index *ix);

#endif

/*
 * align.h - lining up the stdout of two runs of one lesson, an old and a
 * new evidence file, so that a number quoted from the old run can be
 * followed to the same place in the new one.
 *
 * Lines are compared by their shape: the line with its numbers masked,
 * except a number that opens the line (a table's row key such as the
 * thread count).  A longest common subsequence of shapes aligns the runs
 * in order, so inserted and removed lines fall out; lines left over are
 * then paired when their shape is the same on both sides and unique, which
 * finds reordered rows; a last pass pairs leftovers whose shapes agree
 * with every number masked (a row whose key itself changed).  Within two
 * aligned lines, numbers are paired in order when both have as many.
 */
#ifndef COURSECHECK_ALIGN_H
#define COURSECHECK_ALIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "evidence.h"
#include "numtok.h"

struct alignment {
	size_t *old_to_new; /* per old stdout line: new stdout index, or SIZE_MAX */
	size_t n_old, n_new;
};

void align_runs(const struct evidence *old, const struct evidence *new_ev, struct alignment *a);
void alignment_free(struct alignment *a);

/* The place in the new run of number index tok of old stdout line k:
 * true with *new_line (stdout index) and *new_tok filled when it exists. */
bool align_number(const struct alignment *a, const struct evidence *old, const struct evidence *new_ev, size_t k,
		  size_t tok, size_t *new_line, struct num_token *new_tok);
/* The index among the numbers of stdout line k of the number starting at
 * byte col0 (0-based), or SIZE_MAX. */
size_t align_token_index(const struct evidence *ev, size_t k, size_t col0);

/* Names for a place, for people: the row (the line's first words, up to
 * its first number after a label) and the column (the header word above
 * the number, from the nearest header line ruled with dashes).  Empty
 * strings when none can be found. */
void align_place_names(const struct evidence *ev, size_t k, const struct num_token *tok, char *row, size_t row_len,
		       char *col, size_t col_len);
/* The column half of align_place_names alone (it needs no tokens). */
void align_column_name(const struct evidence *ev, size_t k, const struct num_token *tok, char *col, size_t col_len);
/* Its two steps, for a caller naming many numbers of one line: the stdout
 * index of the header line over line k (the line above the nearest rule
 * of dashes above k), or SIZE_MAX; and the header word over tok in that
 * line, borrowed from the evidence (false when none, or header is
 * SIZE_MAX).  The word is as written: its runs of blanks not squeezed. */
size_t align_header_line(const struct evidence *ev, size_t k);
bool align_header_word(const struct evidence *ev, size_t header, const struct num_token *tok, const char **word,
		       size_t *len);
/* The same answers once per evidence or header line, for a caller asking
 * about many lines and numbers (place.c's memo): hdr[k] is
 * align_header_line(ev, k) for every stdout line k (hdr holds n_stdout),
 * found in one pass; the words of header line `header` in line order, as
 * align_header_word walks them (*out malloc'd, freed by the caller; NULL
 * and 0 when none or header is SIZE_MAX); and of those the one
 * align_header_word gives for tok, or NULL. */
struct align_word {
	size_t start, end; /* byte offsets in the header line */
};
void align_header_lines(const struct evidence *ev, size_t *hdr);
size_t align_header_words(const struct evidence *ev, size_t header, struct align_word **out);
const struct align_word *align_word_over(const struct align_word *words, size_t n, const struct num_token *tok);

#endif

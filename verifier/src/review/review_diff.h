/*
 * review_diff.h - the diffs a review shows: a diagnostic's body with its
 * unified diff coloured line by line and the changed characters of each
 * changed line marked, and the characters that differ between two lines.
 *
 * The lines of a diff are the ones compare.c's lines_diff() printed into
 * the diagnostic (read back from its body, as review_diags.h reads the
 * rest), so that a review shows the diff verify showed.  Within a pair of
 * changed lines (the k-th '-' line of a run and the k-th '+' line after
 * it) the characters are compared: common prefix and suffix first (linear),
 * then a longest common subsequence of what is left when both sides are at
 * most REVIEW_DIFF_LCS_MAX bytes; a longer middle is marked whole.  Time
 * and memory are bounded by the line's length plus REVIEW_DIFF_LCS_MAX^2,
 * and in one diff only the first 64 pairs get the LCS (the others their
 * prefix and suffix): linear in the diff's size.
 */
#ifndef COURSECHECK_REVIEW_DIFF_H
#define COURSECHECK_REVIEW_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

#define REVIEW_DIFF_LCS_MAX 256

/* Marks which bytes of a[0..an) and b[0..bn) are not common to both:
 * amark[i] (bn: bmark[j]) is set to true for a changed byte, false for a
 * kept one.  Whole UTF-8 characters: a continuation byte takes its lead
 * byte's mark. */
void review_diff_chars(const char *a, size_t an, const char *b, size_t bn, bool *amark, bool *bmark);

/* Appends s[0..n) escaped, the bytes with mark[i] set inside <del> (or
 * <ins> when ins). */
void review_diff_put_marked(struct buf *out, const char *s, size_t n, const bool *mark, bool ins);

/* Appends a diagnostic's body as <pre class="diagtext">: the lines of its
 * unified diff (from a "--- " line followed by "+++ ") as spans of class
 * dl-del, dl-add, dl-hunk, dl-ctx, each changed pair's characters marked.
 * With pair_quotes (a table row's diagnostic: the row and the closest
 * transcript line), a body without a diff whose first quoted line is the
 * page's ("NN | ...") and whose note quotes another file's line gets a
 * two-line diff of them after it (the other file's line '-', the page's
 * '+').  Returns whether a diff was shown. */
bool review_diff_put_body(struct buf *out, const char *body, bool pair_quotes);

#endif

/*
 * compare.h - comparing a page's code block with its source, and the diff
 * shown when they differ.
 *
 * Both sides are lists of lines (borrowed text, with the file line each
 * came from).  The rule: line endings normalised (done by textfile),
 * trailing whitespace per line ignored, leading and trailing blank lines
 * ignored, and a common indentation removed from each side; everything
 * else exact (a tab is not spaces).
 */
#ifndef COURSECHECK_COMPARE_H
#define COURSECHECK_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

struct line {
	const char *s;
	size_t len;
	size_t src_line; /* the file line it came from, for notes */
};

struct lines {
	struct line *v;
	size_t n;
	size_t cap;
};

void lines_push(struct lines *l, const char *s, size_t len, size_t src_line);
/* Splits text[0..len) at LF into l (borrowing the text). */
void lines_split(struct lines *l, const char *text, size_t len, size_t first_src_line);
void lines_free(struct lines *l);

/* Applies the comparison rule in place: trims trailing whitespace of each
 * line, drops leading and trailing blank lines, removes the indentation
 * common to all non-blank lines. */
void lines_normalise(struct lines *l);
/* Equal after normalisation (both must already be normalised). */
bool lines_equal(const struct lines *a, const struct lines *b);
/* A minimal unified diff from a (---) to b (+++), lines prefixed with
 * ' ', '-' or '+', grouped into hunks with two lines of context.  The
 * caller frees the result. */
char *lines_diff(const struct lines *a, const char *a_name, const struct lines *b, const char *b_name);

/* Transcript matching.  The excerpt (normalised) may hold lines that are
 * only "..." standing for one or more omitted lines.  Returns true when it
 * matches runs of consecutive lines of hay (taken as they are); *first
 * receives the index in hay of the excerpt's first line and, when
 * line_pos is given (excerpt->n entries), the hay index of every excerpt
 * line (SIZE_MAX for a "..." line).  On a mismatch *first is the start of
 * the closest run (most equal lines). */
bool lines_find_excerpt(const struct lines *excerpt, const struct lines *hay, size_t *first, size_t *line_pos);

/* An index of hay for many excerpt searches in it.  A search first scans
 * hay for the segment's first line (compare.c: a transcript excerpt
 * usually has one place to try); where that passes a budget, it goes on
 * by the keys of hay's lines, made then, once for all searches (linear
 * in hay).  hay is borrowed and must outlive the index, as must the
 * excerpts searched with it (the keys keep their lines' text).
 * lines_index_build makes nothing yet; keyed (false unless set after it)
 * skips the scan: the keys alone, what test_compare compares it with. */
struct lines_index {
	const struct lines *hay;
	struct key_ids *ids;
	struct keyed *keys;
	bool keyed;
	struct cores *cores; /* the hay's lines by their core, made at the first search */
};
void lines_index_build(struct lines_index *ix, const struct lines *hay);
void lines_index_free(struct lines_index *ix);
/* lines_find_excerpt in an indexed hay. */
bool lines_find_excerpt_in(const struct lines *excerpt, struct lines_index *ix, size_t *first, size_t *line_pos);

/* After lines_find_excerpt failed: the first segment of the excerpt (its
 * lines [*from, *to)) that has no place after the segments before it, and
 * the run of hay closest to it, hay[*near, *near + *near_len): its length
 * may differ from the segment's by a line or two, so that a line missing
 * from the page (or one too many) shows in a diff as that line alone. */
void lines_excerpt_miss(const struct lines *excerpt, const struct lines *hay, size_t *from, size_t *to, size_t *near,
			size_t *near_len);

/* The first edit of the minimal diff from a to b: *ai and *bi are the
 * indices in a and b where the two first part (a line only in a is at
 * *ai, before b's line *bi).  Returns false when they are equal. */
bool lines_first_change(const struct lines *a, const struct lines *b, size_t *ai, size_t *bi);

/* Work is linear in the excerpt and the hay: the exact search is a scan
 * for the first line within a budget, then Knuth-Morris-Pratt over line
 * keys (compare.c); the closest run, only looked for after a mismatch,
 * scores windows within a fixed budget. */

#endif

/*
 * capture_text.h - a program's output made into an evidence section, and
 * the numbers that change between repeated runs.
 *
 * The verifier reads evidence through textfile.c, which turns CRLF and a
 * lone CR into LF and refuses NUL bytes.  So a transcript is normalised
 * the same way here before it is counted and hashed (what capture writes
 * is exactly what the verifier will see): NUL becomes U+FFFD, CR as
 * textfile does, and a missing final newline is added.  Every change is
 * flagged so that the evidence header can say so.  Other bytes, invalid
 * UTF-8 included, are kept as they are.
 */
#ifndef COURSECHECK_CAPTURE_TEXT_H
#define COURSECHECK_CAPTURE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Evidence files over 64 MiB cannot be read back (textfile.h): both
 * transcripts together must leave room for the header. */
#define TRANSCRIPT_MAX_BYTES (60u * 1024u * 1024u)

struct transcript {
	char *text;         /* whole LF-terminated lines, NUL-terminated; owned */
	size_t len;
	size_t n_lines;
	bool newline_added; /* the output did not end with a newline */
	bool nul_replaced;  /* it held NUL bytes, now U+FFFD */
	bool cr_replaced;   /* it held CR bytes, now LF as the verifier reads them */
};

/* Reads the output file at path.  Returns 0, or -1 with *why (malloc'd)
 * when it cannot be read or is larger than max_bytes. */
int transcript_read(const char *path, size_t max_bytes, struct transcript *t, char **why);
void transcript_from_memory(const char *data, size_t len, struct transcript *t);
void transcript_free(struct transcript *t);
/* The last n lines (for showing why a run failed), malloc'd. */
char *transcript_tail(const struct transcript *t, size_t n);

/* The numbers of a first run's stdout, and which of them varied in any
 * other run.  A number is a maximal run of digits, with at most one '.'
 * inside (followed by a digit).  Runs are aligned row by row and number
 * by number: a line is compared with the other run's line of the same
 * row label (the line up to its first number after a letter, as a place's
 * row is named), the same line when it has that label, else the one line
 * that has it when the label names one row in both runs, so rows printed
 * in another order are no variation; else the same line.  A line that
 * another run lacks, or where it holds a different count of numbers, has
 * all its numbers marked volatile. */
struct number_pos {
	size_t line; /* 1-based stdout line */
	size_t col;  /* 1-based byte column */
	size_t off, len;
	bool varies;
	char *values; /* once it varies: every run's value so far, REPEATS_JOIN apart ("-": none); owned */
};
struct volatility {
	struct number_pos *nums;
	size_t n, cap;
	size_t runs;          /* runs taken in, the first included */
	size_t values_bytes;  /* kept in the values lists */
	size_t keep_below;    /* values are kept for nums[0..keep_below), in stdout order */
	bool values_dropped;  /* over VOLATILITY_MAX_VALUES: the lists of nums[keep_below..] are dropped */
};
/* The most bytes of repeat values kept for the header (capture_repeats.h):
 * past it the lists of the last places in stdout order are dropped, one
 * place at a time, until the rest fit, so that the places before keep
 * theirs (a page's range or bound over the repeats needs them; the
 * verifier refuses one over a place whose values were dropped). */
#define VOLATILITY_MAX_VALUES (1u << 20)
void volatility_init(struct volatility *v, const struct transcript *first);
void volatility_compare(struct volatility *v, const struct transcript *first, const struct transcript *other);
/* "none" or "3:10 5:1 ...", malloc'd. */
char *volatility_describe(const struct volatility *v);
/* The repeat-values header value ("3:10=1,2,3 5:1=..."), malloc'd, or
 * NULL or "" when nothing varied or every list was dropped as too large. */
char *volatility_describe_values(const struct volatility *v);
/* How many varying places had their lists dropped, and the stdout line of
 * the first of them (0 when none). */
size_t volatility_dropped(const struct volatility *v, size_t *first_line);
void volatility_free(struct volatility *v);

#endif

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
 * inside (followed by a digit).  Runs are aligned line by line and number
 * by number; a line that another run lacks, or where it holds a different
 * count of numbers, has all its numbers marked volatile. */
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
	bool values_dropped;  /* over VOLATILITY_MAX_VALUES: no lists are kept */
};
/* The most bytes of repeat values kept for the header (capture_repeats.h). */
#define VOLATILITY_MAX_VALUES (1u << 20)
void volatility_init(struct volatility *v, const struct transcript *first);
void volatility_compare(struct volatility *v, const struct transcript *first, const struct transcript *other);
/* "none" or "3:10 5:1 ...", malloc'd. */
char *volatility_describe(const struct volatility *v);
/* The repeat-values header value ("3:10=1,2,3 5:1=..."), malloc'd, or NULL
 * when nothing varied or the lists were dropped as too large. */
char *volatility_describe_values(const struct volatility *v);
void volatility_free(struct volatility *v);

#endif

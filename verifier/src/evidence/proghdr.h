/*
 * proghdr.h - the header comment of a lesson program.
 *
 * The header comment is the run of `//` lines at the top of the file
 * (blank lines before it are allowed).  It carries one `// Build: CMD`
 * line, one or more run lines, an optional `// Expect: REGEX` line and,
 * once evidence exists, a `Verified`
 * paragraph: from the line holding the word Verified to the next blank
 * comment line, its lines joined with the `//` removed so that a fact may
 * wrap.  Plain C with no pattern library: capture reads Build and Run on
 * GPU nodes that have nothing but libc and libcrypto.
 *
 * Run lines:
 *   // Run: CMD                     the run called "main"
 *   // Run NAME: CMD                a run with a name ([a-z][a-z0-9-]*, at most 32)
 *   // Run NAME (exit N): CMD       a run expected to end with exit status N (1-255)
 *   // Run (exit N): CMD            "main", expected to exit N
 * Expect lines:
 *   // Expect: REGEX                what every run's stdout must match,
 *                                   unless the run has its own:
 *   // Expect NAME: REGEX           what run NAME's stdout must match
 *                                   (`main` for the unnamed run); a NAME
 *                                   no run line names, or named twice, is
 *                                   a problem
 * Resolution:
 *   // Resolution: UNIT VALUE[, UNIT VALUE...]
 *                                   the resolution of what the program prints
 *                                   in UNIT (a word of the place's name or
 *                                   its printed unit, or `*` for every
 *                                   measured place): `// Resolution: ms 0.0005`
 *                                   for CUDA events; VALUE a plain decimal.
 *                                   Capture records it as the evidence's
 *                                   `resolution:` (measured.h reads it).
 * A Build:, Run or Expect: value whose line ends in ` \` continues on the
 * next `//` line; the pieces are joined with one space, as the shell joins
 * a backslash-newline.  A line the parser cannot read (a run line of the
 * wrong shape, an empty value, a repeated run name, a continuation that
 * nothing continues) is a problem, listed in h->problems: checkers report
 * it and capture refuses the lesson rather than run half a command.
 */
#ifndef COURSECHECK_PROGHDR_H
#define COURSECHECK_PROGHDR_H

#include <stddef.h>

#include "sha256.h"
#include "textfile.h"

/* One header line's value: where it is and what it says. */
struct proghdr_value {
	char *text;   /* trimmed value, NULL when the line is absent */
	size_t line;  /* file line */
	size_t col;   /* 1-based byte column where text starts */
	size_t count; /* how many such lines the header holds */
};

#define PROGHDR_MAIN_RUN "main"
#define PROGHDR_NAME_MAX 32
/* Bounds, so that a hostile header costs linear time: runs beyond the
 * first PROGHDR_MAX_RUNS are a problem (evidence holds at most 64 runs
 * too), and only the first PROGHDR_MAX_PROBLEMS problems are kept. */
#define PROGHDR_MAX_RUNS 64
#define PROGHDR_MAX_PROBLEMS 32

struct proghdr_run {
	char *name;   /* PROGHDR_MAIN_RUN for a run line without a name */
	char *text;   /* the command, continuation lines joined */
	int exit;     /* the exit status expected: 0 unless "(exit N)" */
	size_t line;  /* file line of the run line */
	size_t col;   /* 1-based column of the command */
	struct proghdr_value expect; /* its own `// Expect NAME: REGEX`, text NULL when none */
};

struct proghdr_problem {
	size_t line, col;
	char message[200];
};

struct proghdr {
	size_t first_line, last_line; /* the header comment; 0 when none */
	struct proghdr_value build;
	/* The first run line (count: how many run lines have no name), kept
	 * for the checks written before runs had names. */
	struct proghdr_value run;
	struct proghdr_value expect;  /* `// Expect: REGEX`, text NULL when absent */
	struct proghdr_value resolution; /* `// Resolution: UNIT VALUE, ...`, NULL when absent */
	struct proghdr_run *runs;     /* every run line in order */
	size_t n_runs;
	struct proghdr_problem *problems; /* lines that cannot be read */
	size_t n_problems;
	/* The Verified paragraph, joined: text, and for each byte of it the
	 * file offset it came from (so a fact found in the joined text maps
	 * back to a line and column).  NULL when there is none. */
	char *verified;
	size_t verified_len;
	size_t *verified_src;
	size_t verified_line; /* file line of the word Verified */
	size_t verified_last; /* its last line */
	/* The header's empty `//` lines, in order (read once, by the parse;
	 * the source hash leaves them out).  NULL when there are none. */
	size_t *blank_lines;
	size_t n_blank_lines;
};

/* Reads the header of tf.  Never fails: absent parts stay NULL/0. */
void proghdr_parse(const struct textfile *tf, struct proghdr *h);
void proghdr_free(struct proghdr *h);

/* The SHA-256 recorded as source-sha256: of the program's text (LF line
 * endings) with the lines of its Verified paragraph, and the header's
 * empty `//` lines, left out.  The paragraph names the evidence, so it is
 * written after the capture, with an empty comment line to set it off;
 * both are comments, so the program built is the same with or without
 * them. */
void proghdr_source_sha256(const struct textfile *tf, char out[65]);
/* The same, with h = proghdr_parse(tf) already at hand. */
void proghdr_source_sha256_parsed(const struct textfile *tf, const struct proghdr *h, char out[65]);

#endif

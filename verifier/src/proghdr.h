/*
 * proghdr.h - the header comment of a lesson program.
 *
 * The header comment is the run of `//` lines at the top of the file
 * (blank lines before it are allowed).  It carries one `// Build: CMD`
 * line, one `// Run: CMD` line and, once evidence exists, a `Verified`
 * paragraph: from the line holding the word Verified to the next blank
 * comment line, its lines joined with the `//` removed so that a fact may
 * wrap.  Plain C with no pattern library: capture reads Build and Run on
 * GPU nodes that have nothing but libc and libcrypto.
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

struct proghdr {
	size_t first_line, last_line; /* the header comment; 0 when none */
	struct proghdr_value build;
	struct proghdr_value run;
	/* The Verified paragraph, joined: text, and for each byte of it the
	 * file offset it came from (so a fact found in the joined text maps
	 * back to a line and column).  NULL when there is none. */
	char *verified;
	size_t verified_len;
	size_t *verified_src;
	size_t verified_line; /* file line of the word Verified */
	size_t verified_last; /* its last line */
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

#endif

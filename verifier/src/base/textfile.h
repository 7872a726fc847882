/*
 * textfile.h - a text file read whole, normalised, with a line index.
 *
 * Normalisation: a UTF-8 byte order mark is dropped and CRLF or a lone CR
 * becomes LF, so every later stage sees LF-only text and columns count
 * from the first real character.  The struct owns its buffers; release
 * them with textfile_free().
 */
#ifndef COURSECHECK_TEXTFILE_H
#define COURSECHECK_TEXTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

#define TEXTFILE_MAX_BYTES (64u * 1024u * 1024u)

/* The *why of textfile_read for a file over TEXTFILE_MAX_BYTES (compare
 * the pointer to tell it from a system error). */
extern const char textfile_too_large[];

struct textfile {
	char *path;       /* the path as shown in diagnostics (repository-relative) */
	char *data;       /* normalised text, NUL-terminated */
	size_t len;
	size_t *line_start; /* byte offset of each line; line n is line_start[n-1] */
	size_t n_lines;     /* a final line without LF counts; an empty file has 0 */
	bool had_bom;
	bool had_cr;
	bool has_nul;       /* the file holds a NUL byte (not text) */
	bool not_utf8;      /* some byte does not belong to a valid UTF-8 sequence */
	size_t not_utf8_at; /* offset in data of the first such byte (when not_utf8) */
};

/* Reads fspath.  On failure returns -1 and sets *why to a static or
 * strerror() description ("No such file or directory", "file is larger
 * than 64 MiB", "is a directory").  display is copied. */
int textfile_read(const char *fspath, const char *display, struct textfile *tf, const char **why);
/* Reads fd (a regular file stat'd at size bytes) to its end into a
 * malloc'd buffer with a NUL after the bytes, in as few read(2)s as the
 * size allows: 0 with *data and *len; 1 when it holds more than max
 * bytes; -1 with errno on a read error.  Nothing is allocated on
 * failure; fd stays open (the caller's). */
int textfile_read_fd(int fd, size_t size, size_t max, char **data, size_t *len);
/* A small regular file of the repository (rel, by repo.h's rules), read
 * whole: TEXTFILE_SMALL_OK with its bytes (malloc'd, a NUL after them) in
 * *data and *len; TEXTFILE_SMALL_NONE when there is no such file; else
 * what stopped it, REFUSED (repo's rules or an I/O error: *why, static
 * text), NOT_REGULAR, or TOO_LARGE (over max bytes), which each caller
 * words for its file.  One reader for the small files verify trusts
 * (allowed_signers, a run's .sig, a page's approvals). */
enum textfile_small {
	TEXTFILE_SMALL_OK,
	TEXTFILE_SMALL_NONE,
	TEXTFILE_SMALL_REFUSED,
	TEXTFILE_SMALL_NOT_REGULAR,
	TEXTFILE_SMALL_TOO_LARGE,
};
enum textfile_small textfile_read_small(const char *rel, size_t max, char **data, size_t *len, const char **why);
/* Takes a copy of an in-memory text (used by tests and by update). */
void textfile_from_memory(const char *data, size_t len, const char *display, struct textfile *tf);
/* As textfile_from_memory(), but takes raw itself instead of a copy: raw
 * is malloc'd with room for len + 1 bytes (the NUL), and belongs to tf
 * from here (normalised in place; tf->data is raw, or freed with tf).
 * For a caller done with the bytes as read (the course cache's program). */
void textfile_take(char *raw, size_t len, const char *display, struct textfile *tf);
void textfile_free(struct textfile *tf);

/* Reports a text that is not UTF-8 text (a NUL byte, or a byte outside a
 * valid UTF-8 sequence, at its line and column) as file-encoding, naming
 * what it is ("page", "program").  Returns true when it reported: such a
 * file is refused before any parser sees it, because cmark-gfm and PCRE2
 * misread invalid bytes silently (an HTML block that never ends, a
 * pattern that "does not match"). */
bool textfile_report_encoding(const struct textfile *tf, const char *what);

/* UTF-8 as RFC 3629 (and PCRE2) define it: no overlong forms, no
 * surrogates, nothing past U+10FFFF.  The length of the valid sequence at
 * s (left bytes remain), or 0 when s does not start one. */
size_t utf8_sequence_length(const unsigned char *s, size_t left);
/* The offset of the first byte of text outside a valid sequence, or len. */
size_t utf8_first_invalid(const char *text, size_t len);

/* Line n (1-based) without its LF; *len receives its length.  Returns ""
 * with *len 0 for a line out of range. */
static inline const char *textfile_line(const struct textfile *tf, size_t n, size_t *len)
{
	/* inline: every check reads its files a line at a time */
	if (n == 0 || n > tf->n_lines) {
		*len = 0;
		return "";
	}
	size_t start = tf->line_start[n - 1];
	size_t end = n < tf->n_lines ? tf->line_start[n] - 1 : tf->len;
	if (end > start && tf->data[end - 1] == '\n')
		end--;
	*len = end - start;
	return tf->data + start;
}
/* The 1-based line holding byte offset off. */
size_t textfile_line_of(const struct textfile *tf, size_t off);
/* The 0-based index of the line holding byte offset off, given the byte
 * offset of each of n_lines lines, ascending (0 when n_lines is 0): the
 * binary search of textfile_line_of, for an index kept elsewhere (the
 * language server's documents). */
size_t textfile_line_index(const size_t *line_start, size_t n_lines, size_t off);
/* A diag_loc for byte offset off with an underline of span bytes. */
struct diag_loc textfile_loc(const struct textfile *tf, size_t off, size_t span);
/* A diag_loc for line n, column col (1-based; 0 = whole line). */
struct diag_loc textfile_loc_line(const struct textfile *tf, size_t n, size_t col, size_t span);

#endif

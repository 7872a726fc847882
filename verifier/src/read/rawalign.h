/*
 * rawalign.h - the one map from decoded text back to the raw bytes of a
 * page: where cmark-gfm (a text node) or libxml2 (an HTML text node) hands
 * over text with its character references ("&amp;", "&#44;") decoded and
 * its backslash escapes ("\*") removed, the text cannot be found again in
 * the page by a plain search.  rawalign() walks the decoded text and the
 * raw bytes together and cuts the text into pieces: verbatim runs (the
 * same bytes on both sides) and decoded units (one reference or escape:
 * its decoded bytes on the text side, its written bytes on the raw side).
 *
 * What is decoded: "&NAME;" through HTML5's whole table of names
 * (html5ent.h, generated from the WHATWG table: libxml2's knows HTML 4's
 * alone), "&#N;" and "&#xH;" (a code point above U+10FFFF, a surrogate or
 * 0 decodes to U+FFFD, as HTML and CommonMark read them), and "\" before
 * ASCII punctuation.  A text that needs anything else (a name HTML5 does
 * not have) is not aligned: the caller keeps its "position unknown"
 * answer.
 *
 * Bounded: at most RAWALIGN_STARTS places in raw are tried as the text's
 * start, each walk linear in the text; nothing is read past limit.
 * Threads: no state.  Allocation failure aborts.
 */
#ifndef COURSECHECK_RAWALIGN_H
#define COURSECHECK_RAWALIGN_H

#include <stdbool.h>
#include <stddef.h>

#define RAWALIGN_STARTS 8

struct rawalign_piece {
	size_t lit_off, lit_len; /* the piece in the decoded text */
	size_t raw_off, raw_len; /* where it is written, offsets into raw */
	bool verbatim;           /* lit and raw bytes are the same */
};

/* Aligns lit[0..len) with raw[from..limit).  Returns the number of pieces
 * (*out malloc'd, the caller frees it) and sets *raw_end one past the last
 * raw byte used; 0 (*out NULL) when the text is not found. */
size_t rawalign(const char *raw, size_t from, size_t limit, const char *lit, size_t len,
		struct rawalign_piece **out, size_t *raw_end);

/* Decodes the character reference at raw[at..limit) ("&...;") into
 * utf8 (up to 8 bytes, not NUL-terminated: an HTML5 name may stand for
 * two code points); returns its written length, 0 when there is none. */
size_t rawalign_reference(const char *raw, size_t at, size_t limit, char utf8[8], size_t *utf8_len);

#endif

/*
 * htmltext.h - the text a reader sees in a raw HTML block of a page,
 * read by libxml2's HTML parser (never by patterns), each piece placed
 * back in the page's raw bytes (rawalign.h), so that the numbers in
 * <p>, <div>, <table>, <details> and any other tag are checked like a
 * paragraph's, at their own line and column.
 *
 * What is read, in document order:
 *   text       every text node, a line at a time (an HTML text may wrap);
 *              a character reference ("&amp;") is its own decoded piece
 *   comment    "<!-- ... -->" as written (an annotation after a number)
 *   code       the text of <code>, <kbd>, <samp>: read as Markdown's code
 *              spans are, never for numbers
 *   break      the edge of a block element (<p>, <td>, <br>, <li>, ...):
 *              two texts on either side of one are never one number
 * What is not read (a reader never sees it): <script>, <style>,
 * <template>, attribute values.  A <pre> is given as one item of its own
 * (its decoded text, the caller decides: a block that is only a <pre> is
 * a code block and needs a provenance marker like a fence).
 *
 * Bounded: libxml2 parses in time linear in the block, the tree is walked
 * without recursion, each text is placed from a cursor that only moves
 * forward.  Threads: no state of its own (libxml2's parser is reentrant).
 * Allocation failure aborts.
 */
#ifndef COURSECHECK_HTMLTEXT_H
#define COURSECHECK_HTMLTEXT_H

#include <stdbool.h>
#include <stddef.h>

enum htmltext_kind {
	HTMLTEXT_TEXT,
	HTMLTEXT_COMMENT,
	HTMLTEXT_CODE,
	HTMLTEXT_BREAK,
	HTMLTEXT_PRE,
};

struct htmltext_item {
	enum htmltext_kind kind;
	size_t off, len; /* the item's text in htmltext.text */
	size_t raw_off;  /* where it is written in raw (a <pre>: its "<pre"), SIZE_MAX when not found */
	bool decoded;    /* TEXT: one character reference, decoded (not the raw bytes) */
};

struct htmltext {
	char *text; /* every item's text, owned; NUL-terminated */
	size_t text_len;
	struct htmltext_item *v; /* owned */
	size_t n;
	bool unreadable; /* libxml2 gave no document, or stopped at a fatal error: nothing was read */
	char why[160];   /* then libxml2's message, one line ("" when it gave none) */
};

/* Reads the HTML html[0..len) (an HTML block as cmark-gfm hands it over)
 * and places its text in raw[from..limit) (the block's bytes in the
 * page).  out is overwritten; release it with htmltext_free(). */
void htmltext_read(const char *html, size_t len, const char *raw, size_t from, size_t limit, struct htmltext *out);
void htmltext_free(struct htmltext *ht);

#endif

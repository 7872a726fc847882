/*
 * page.h - the Markdown model of a page: its blocks, each with the marker
 * that governs it, and the inline segments of its prose.
 *
 * Markdown is parsed by cmark-gfm (with the table extension), never by
 * patterns.  cmark's block start lines are trusted; its inline columns are
 * not, so every column reported is found again in the raw source line.
 *
 * page_parse() also reports the structural problems of markers (unknown,
 * malformed, dangling, conflicting) and unmarked code blocks.  The page
 * borrows tf, which must outlive it; release with page_free().
 */
#ifndef COURSECHECK_PAGE_H
#define COURSECHECK_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include <cmark-gfm.h>

#include "marker.h"
#include "textfile.h"

enum block_kind {
	BK_CODE,  /* fenced or indented code block */
	BK_TEXT,  /* paragraph or heading (anywhere: lists, block quotes) */
	BK_TABLE, /* GFM table */
};

struct page_block {
	enum block_kind kind;
	cmark_node *node;
	size_t line;          /* first line of the block */
	size_t end_line;      /* last line of the block */
	/* the governing block marker (marker.kind == MK_PLAIN when none) */
	struct marker marker;
	char *marker_arg;     /* its argument, malloc'd ("" when none) */
	size_t marker_line;
	size_t marker_col;
	/* code blocks: the content and the file line of its first line */
	const char *code;
	size_t code_len;
	size_t code_first_line;
};

struct page {
	const struct textfile *tf;
	cmark_node *doc;
	struct page_block *blocks; /* in document order */
	size_t n_blocks;
	size_t problems;           /* structural problems reported */
};

/* Parses tf from first_body_line on (the front matter before it is not
 * Markdown). */
void page_parse(const struct textfile *tf, size_t first_body_line, struct page *pg);
void page_free(struct page *pg);

/* Inline segments of a prose block, in order, for the number checks. */
enum seg_kind {
	SEG_TEXT,   /* checked prose text */
	SEG_ANNOT,  /* an inline annotation comment (=, cite, ext) */
	SEG_OPAQUE, /* a code span, other inline HTML: never read for numbers */
	SEG_BREAK,  /* a line break inside the block */
};

struct seg {
	enum seg_kind kind;
	const char *s;   /* the literal text (borrowed from cmark) */
	size_t len;
	size_t raw_off;  /* its byte offset in tf->data, or SIZE_MAX when not found */
	struct marker marker; /* SEG_ANNOT only */
};

/* Collects the segments of node (a paragraph, heading or table cell).
 * *out is malloc'd; the caller frees it. */
size_t page_segments(const struct page *pg, cmark_node *node, struct seg **out);
/* The raw byte offset where line n starts. */
size_t page_line_offset(const struct page *pg, size_t n);

#endif

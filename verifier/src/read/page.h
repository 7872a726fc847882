/*
 * page.h - the Markdown model of a page: its blocks, each with the marker
 * that governs it, and the inline segments of its prose.
 *
 * Markdown is parsed by cmark-gfm (with the table extension), never by
 * patterns.  cmark's block lines are trusted unless they are 0 or fall
 * before the block that precedes them (cmark-gfm 0.29.0.gfm.6 does that to
 * a paragraph directly followed by a table): then they are taken from the
 * raw text.  Its inline columns are not trusted, so every column reported
 * is found again in the raw source line.
 *
 * Work is bounded: the tree is walked with cmark's iterator (no
 * recursion), and a line that opens more than PAGE_MAX_NESTING lists or
 * block quotes (page-nesting), or holds more than PAGE_MAX_COLUMNS table
 * cells (table-too-wide), is blanked before cmark-gfm sees it.
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
	BK_CODE,  /* fenced or indented code block, or a raw HTML block that is one <pre> */
	BK_TEXT,  /* paragraph or heading (anywhere: lists, block quotes), or a raw HTML block's text */
	BK_TABLE, /* GFM table */
};

/* Lists and block quotes nest at most this deep; past it the text is not
 * read (reported as page-nesting).  The course nests two or three deep. */
#define PAGE_MAX_NESTING 32
/* A table row holds at most this many cells (table-too-wide); wider lines
 * are not read.  The course's widest table has six. */
#define PAGE_MAX_COLUMNS 128

struct page_block {
	enum block_kind kind;
	cmark_node *node;
	size_t line;          /* first line of the block */
	size_t end_line;      /* last line of the block */
	/* the governing block marker (marker.kind == MK_PLAIN when none) */
	struct marker_info marker;
	char *marker_arg;     /* its argument, malloc'd, or a static "" when none (page_free tells them apart) */
	size_t marker_line;
	size_t marker_col;
	/* code blocks: the content and the file line of its first line */
	const char *code;
	size_t code_len;
	size_t code_first_line;
	size_t segs_at;       /* page.c's: its entry in page.segs + 1 (0: none) */
	size_t html_at;       /* page.c's: a raw HTML block's entry in page.html + 1 (0: none) */
};

struct page_segs; /* page.c's: the inline segments page_parse collected, by node */
struct page_html; /* page.c's: the text of a raw HTML block (htmltext.h) */

struct page {
	const struct textfile *tf;
	cmark_node *doc;
	struct page_block *blocks; /* in document order */
	size_t n_blocks;
	size_t problems;           /* structural problems reported */
	size_t unread;             /* lines blanked past a limit (page-nesting, table-too-wide): not read */
	enum diag_dest to;         /* where page_parse reported (the caller's) */
	bool in_arena;             /* doc's nodes are in the page arena (arena.h) */
	/* the segments of each paragraph, heading and table cell, collected
	 * by the walk that checks their inline markers: page_segments hands
	 * each node's out once (page.c) */
	struct page_segs *segs;
	size_t n_segs, cap_segs;
	/* each raw HTML block's text, read once by the walk (htmltext.h):
	 * a block that is text (BK_TEXT: its segments are its text nodes),
	 * or only a <pre> (BK_CODE: its code is the <pre>'s text) */
	struct page_html *html;
	size_t n_html, cap_html;
};

/* Parses tf from first_body_line on (the front matter before it is not
 * Markdown).  to: where its problems go (DIAG_DROP for update, which
 * reads a page only to rewrite it: verify reports them). */
void page_parse(const struct textfile *tf, size_t first_body_line, enum diag_dest to, struct page *pg);
/* page_parse with cmark-gfm's default allocator, what page_parse takes
 * for a page too large for its arena or while another page holds it: the
 * same page model (the tests compare the two). */
void page_parse_malloc(const struct textfile *tf, size_t first_body_line, enum diag_dest to, struct page *pg);

/* What page_parse does with one line before cmark-gfm sees it: reads it,
 * or blanks it as opening more than PAGE_MAX_NESTING levels (*measure:
 * how many) or holding more than PAGE_MAX_COLUMNS cells (*measure: how
 * many).  `shortcut` leaves unmeasured a line too short to pass either
 * limit (what page_parse does); false measures every line (the tests
 * compare the two). */
enum page_line_bound { PAGE_LINE_READ, PAGE_LINE_DEEP, PAGE_LINE_WIDE };
enum page_line_bound page_line_bound(const char *s, size_t len, bool shortcut, size_t *measure);
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
	struct marker_info marker; /* SEG_ANNOT only (zero for the others) */
	/* SEG_TEXT: one character reference or backslash escape, decoded
	 * (rawalign.h): s is what a reader sees, raw_off where it is
	 * written; its bytes are not the page's, so nothing rewrites them */
	bool decoded;
};

/* The segments of node (a paragraph, heading or table cell).  *out is
 * malloc'd; the caller frees it.  page_parse collected them already for
 * each such node it walked: the first call for a node takes those (so
 * the page is not const to it in that one respect), a later one collects
 * them again, the same. */
size_t page_segments(const struct page *pg, cmark_node *node, struct seg **out);
/* page_segments without what page_parse kept: collected again (the tests
 * compare the two). */
size_t page_segments_fresh(const struct page *pg, cmark_node *node, struct seg **out);
/* The raw byte offset where line n starts (the page's length for line 0
 * or a line past the end). */
size_t page_line_offset(const struct page *pg, size_t n);
/* A block's bytes [*from, *to) in tf->data: never empty-wrapped (from <= to). */
void page_block_range(const struct page *pg, const struct page_block *b, size_t *from, size_t *to);
/* The first and last line of any node of the page (a block, a table row or
 * cell, an inline): the block's own lines where the node is a block, and
 * never 0, never outside the block it lies in. */
void page_node_lines(const struct page *pg, cmark_node *node, size_t *line, size_t *end);
size_t page_node_line(const struct page *pg, cmark_node *node);

#endif

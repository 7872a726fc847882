/*
 * fuzz_page.c - the Markdown model (page.h) and the markers (marker.h).
 *
 * The input is a page: front matter, then page_parse, then the inline
 * segments of every prose block and table cell, then marker_parse of
 * every "<!--" in the text.  Properties: blocks lie inside the body, in
 * document order, each with a marker argument; a code block's content
 * starts inside its block; every segment found in the source sits at its
 * raw offset, byte for byte, or (a decoded one) a reference or escape
 * written there decodes to it, or (opaque HTML) its element starts
 * there, and segments found move forward; line
 * offsets are the text file's; a marker's argument lies inside its
 * comment, and a marker that is not OK says what is wrong.
 */
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>

#include "frontmatter.h"
#include "fuzz.h"
#include "marker.h"
#include "page.h"
#include "rawalign.h"
#include "textfile.h"

/* The written length of a decoded segment (page.h: one character
 * reference or backslash escape at raw_off that decodes to its text), or
 * 0 when what is written there does not decode to it. */
static size_t decoded_length(const struct textfile *tf, const struct seg *g)
{
	if (g->raw_off >= tf->len)
		return 0;
	const char *at = tf->data + g->raw_off;
	if (at[0] == '\\' && g->len == 1 && g->raw_off + 1 < tf->len && at[1] == g->s[0])
		return 2;
	char utf8[8];
	size_t utf8_len = 0, written = rawalign_reference(tf->data, g->raw_off, tf->len, utf8, &utf8_len);
	return written && utf8_len == g->len && memcmp(utf8, g->s, g->len) == 0 ? written : 0;
}

static void check_segments(const struct page *pg, cmark_node *node)
{
	const struct textfile *tf = pg->tf;
	struct seg *v = NULL;
	size_t n = page_segments(pg, node, &v);
	size_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		const struct seg *g = &v[i];
		FUZZ_CHECK(g->s != NULL || g->len == 0, "segment %zu has no text", i);
		if (g->kind == SEG_BREAK || g->raw_off == SIZE_MAX)
			continue;
		FUZZ_CHECK(g->raw_off <= tf->len, "segment %zu at %zu, page %zu", i, g->raw_off, tf->len);
		/* an opaque segment of HTML (code, a <pre> reported as such) is
		 * placed at its element, whose position its diagnostic names:
		 * its text (libxml2's, of the whole element) is never read for
		 * numbers and nothing rewrites it */
		bool at_element = g->kind == SEG_OPAQUE && tf->data[g->raw_off] == '<';
		size_t written = g->decoded ? decoded_length(tf, g) : at_element ? 0 : g->len;
		FUZZ_CHECK((written > 0 || !g->decoded) && written <= tf->len - g->raw_off,
			   "segment %zu at %zu+%zu, page %zu", i, g->raw_off, written, tf->len);
		FUZZ_CHECK(g->decoded || at_element || memcmp(tf->data + g->raw_off, g->s, g->len) == 0,
			   "segment %zu is not at its raw offset %zu", i, g->raw_off);
		FUZZ_CHECK(g->raw_off >= prev, "segment %zu at %zu, before the one before it (%zu)", i, g->raw_off,
			   prev);
		prev = at_element ? g->raw_off : g->raw_off + written;
		if (g->kind == SEG_ANNOT)
			FUZZ_CHECK(g->marker.status == MARKER_OK, "annotation %zu is not a valid marker", i);
	}
	free(v);
}

/* Every table cell of a table block. */
static void check_table(const struct page *pg, cmark_node *table)
{
	for (cmark_node *row = cmark_node_first_child(table); row; row = cmark_node_next(row))
		for (cmark_node *cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell))
			check_segments(pg, cell);
}

static void check_markers(const char *text, size_t size)
{
	const char *p = text, *end = text + size;
	while ((p = memmem(p, (size_t)(end - p), "<!--", 4)) != NULL) {
		const char *close = memmem(p + 4, (size_t)(end - p - 4), "-->", 3);
		size_t len = close ? (size_t)(close + 3 - p) : (size_t)(end - p);
		struct marker m;
		memset(&m, 0xA5, sizeof m);
		marker_parse(p, len, &m);
		FUZZ_CHECK(m.arg_start <= m.arg_end && m.arg_end <= len, "marker argument %zu..%zu of %zu", m.arg_start,
			   m.arg_end, len);
		FUZZ_CHECK(memchr(m.problem, '\0', sizeof m.problem) && memchr(m.suggest, '\0', sizeof m.suggest),
			   "marker strings not terminated");
		FUZZ_CHECK(m.status == MARKER_OK || m.problem[0] != '\0', "marker status %d without a problem",
			   (int)m.status);
		FUZZ_CHECK(marker_kind_name(m.kind) != NULL, "kind %d has no name", (int)m.kind);
		p += 4;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_is_text(data, size))
		return 0; /* refused at read: no parser sees it (fuzz.h) */
	fuzz_quiet();
	struct textfile tf;
	textfile_from_memory((const char *)data, size, "pages/fz.md", &tf);
	struct frontmatter fm;
	frontmatter_parse(&tf, false, DIAG_REPORT, &fm);
	struct page pg;
	page_parse(&tf, fm.first_body_line, DIAG_REPORT, &pg);
	FUZZ_CHECK(pg.tf == &tf, "page does not borrow its text");
	size_t prev_line = 0;
	for (size_t i = 0; i < pg.n_blocks; i++) {
		const struct page_block *b = &pg.blocks[i];
		FUZZ_CHECK(b->line >= fm.first_body_line && b->line <= b->end_line && b->end_line <= tf.n_lines,
			   "block %zu at lines %zu..%zu, body %zu..%zu", i, b->line, b->end_line, fm.first_body_line,
			   tf.n_lines);
		FUZZ_CHECK(b->line >= prev_line, "block %zu at line %zu, after one at line %zu", i, b->line, prev_line);
		prev_line = b->line;
		FUZZ_CHECK(b->marker_arg != NULL, "block %zu has no marker argument", i);
		if (b->marker.kind != MK_PLAIN)
			FUZZ_CHECK(b->marker_line >= 1 && b->marker_line <= b->line, "block %zu marker at line %zu", i,
				   b->marker_line);
		switch (b->kind) {
		case BK_CODE:
			FUZZ_CHECK(b->code != NULL || b->code_len == 0, "code block %zu has no content", i);
			FUZZ_CHECK(b->code_first_line >= b->line && b->code_first_line <= b->end_line + 1,
				   "code block %zu content at line %zu, block %zu..%zu", i, b->code_first_line, b->line,
				   b->end_line);
			break;
		case BK_TEXT:
			check_segments(&pg, b->node);
			break;
		case BK_TABLE:
			check_table(&pg, b->node);
			break;
		}
	}
	for (size_t n = 1; n <= tf.n_lines; n++)
		FUZZ_CHECK(page_line_offset(&pg, n) == tf.line_start[n - 1], "line %zu offset", n);
	check_markers(tf.data, tf.len);
	page_free(&pg);
	frontmatter_free(&fm);
	textfile_free(&tf);
	return 0;
}

/* page.c - see page.h. */
#include "page.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>

#include "diag.h"
#include "util.h"

struct walk {
	struct page *pg;
	size_t cap;
	/* block markers seen since the last block, waiting for it */
	struct pending {
		struct marker m;
		size_t line, col, arg_off;
	} pending[4];
	size_t n_pending;
};

static bool node_is(cmark_node *node, const char *type)
{
	return strcmp(cmark_node_get_type_string(node), type) == 0;
}

static size_t line_col_of(const struct textfile *tf, size_t line, const char *needle)
{
	size_t len;
	const char *s = textfile_line(tf, line, &len);
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(s + i, needle, n) == 0)
			return i + 1;
	return 1;
}

static const char *expected_block(enum marker_kind kind)
{
	switch (kind) {
	case MK_MEASURED:
		return "a paragraph";
	case MK_TABLE:
		return "a table";
	default:
		return "a code block";
	}
}

static const char *block_name(cmark_node *node)
{
	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_PARAGRAPH:
		return "a paragraph";
	case CMARK_NODE_HEADING:
		return "a heading";
	case CMARK_NODE_LIST:
		return "a list";
	case CMARK_NODE_BLOCK_QUOTE:
		return "a block quote";
	case CMARK_NODE_CODE_BLOCK:
		return "a code block";
	case CMARK_NODE_HTML_BLOCK:
		return "an HTML block";
	case CMARK_NODE_THEMATIC_BREAK:
		return "a thematic break";
	default:
		return node_is(node, "table") ? "a table" : "another block";
	}
}

static struct diag_loc pending_loc(const struct walk *w, const struct pending *p)
{
	return textfile_loc_line(w->pg->tf, p->line, p->col, 0);
}

static void dangling(struct walk *w, const struct pending *p, cmark_node *next)
{
	enum diag_kind kind = p->m.kind == MK_TABLE ? D_TABLE_DANGLING : D_MARKER_DANGLING;
	struct diag *d = diag_begin(kind, pending_loc(w, p), "%s marker must be followed by %s, not %s",
				    marker_kind_name(p->m.kind), expected_block(p->m.kind),
				    next ? block_name(next) : "the end of its section");
	if (next)
		diag_note(d, textfile_loc_line(w->pg->tf, (size_t)cmark_node_get_start_line(next), 0, 0),
			  "this is the block that follows it");
	diag_end(d);
	w->pg->problems++;
}

static void flush_dangling(struct walk *w, cmark_node *next)
{
	for (size_t i = 0; i < w->n_pending; i++)
		dangling(w, &w->pending[i], next);
	w->n_pending = 0;
}

static struct page_block *add_block(struct walk *w, enum block_kind kind, cmark_node *node)
{
	struct page *pg = w->pg;
	pg->blocks = xgrow(pg->blocks, &w->cap, pg->n_blocks + 1, sizeof *pg->blocks);
	struct page_block *b = &pg->blocks[pg->n_blocks++];
	memset(b, 0, sizeof *b);
	b->kind = kind;
	b->node = node;
	b->line = (size_t)cmark_node_get_start_line(node);
	b->end_line = (size_t)cmark_node_get_end_line(node);
	b->marker_arg = xstrdup("");
	return b;
}

/* Gives the pending markers to block b if they are of a kind that fits. */
static void govern(struct walk *w, struct page_block *b, cmark_node *node)
{
	if (w->n_pending == 0)
		return;
	bool fits = true;
	for (size_t i = 0; i < w->n_pending; i++) {
		enum marker_kind k = w->pending[i].m.kind;
		bool ok = b && (b->kind == BK_CODE ? (k == MK_SNIPPET || k == MK_TRANSCRIPT || k == MK_BUILD || k == MK_QUOTE)
				: b->kind == BK_TABLE ? k == MK_TABLE
						      : k == MK_MEASURED && cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH);
		fits &= ok;
	}
	if (!fits) {
		flush_dangling(w, node);
		return;
	}
	if (w->n_pending > 1) {
		struct diag *d = diag_begin(D_MARKER_CONFLICT, pending_loc(w, &w->pending[1]),
					    "a second marker for the same block");
		diag_note(d, pending_loc(w, &w->pending[0]), "the first marker of this block");
		diag_hint(d, "keep exactly one marker before each block");
		diag_end(d);
		w->pg->problems++;
	}
	const struct pending *p = &w->pending[0];
	const struct textfile *tf = w->pg->tf;
	size_t len;
	const char *line = textfile_line(tf, p->line, &len);
	b->marker = p->m;
	free(b->marker_arg);
	b->marker_arg = xstrndup(line + p->col - 1 + p->m.arg_start, p->m.arg_end - p->m.arg_start);
	b->marker_line = p->line;
	b->marker_col = p->col;
	w->n_pending = 0;
}

static void report_marker(struct walk *w, enum diag_kind kind, size_t line, size_t col, const struct marker *m)
{
	struct diag *d = diag_begin(kind, textfile_loc_line(w->pg->tf, line, col, 0), "%s", m->problem);
	if (m->suggest[0])
		diag_hint(d, "did you mean '%s'?", m->suggest);
	diag_end(d);
	w->pg->problems++;
}

/* An HTML block: a marker when it is a comment alone on its line. */
static void html_block(struct walk *w, cmark_node *node)
{
	const struct textfile *tf = w->pg->tf;
	size_t line = (size_t)cmark_node_get_start_line(node);
	size_t len;
	const char *raw = textfile_line(tf, line, &len);
	size_t a = 0, b = len;
	str_trim(raw, &a, &b);
	if (b - a < 4 || memcmp(raw + a, "<!--", 4) != 0)
		return; /* other HTML is not ours */
	/* the comment: to the first --> on this line, or the HTML block's text */
	const char *lit = cmark_node_get_literal(node);
	const char *text = raw + a;
	size_t tlen = b - a;
	const char *close = NULL;
	for (size_t i = 4; i + 3 <= tlen; i++)
		if (memcmp(text + i, "-->", 3) == 0) {
			close = text + i + 3;
			break;
		}
	struct marker m;
	if (close) {
		marker_parse(text, (size_t)(close - text), &m);
	} else {
		/* a comment that spans lines: classify it as written */
		size_t ll = lit ? strlen(lit) : 0;
		while (ll && (lit[ll - 1] == '\n' || lit[ll - 1] == ' '))
			ll--;
		marker_parse(lit ? lit : "", ll, &m);
	}
	if (m.kind == MK_PLAIN)
		return;
	if (m.status == MARKER_UNKNOWN) {
		report_marker(w, D_MARKER_UNKNOWN, line, a + 1, &m);
		return;
	}
	if (m.status == MARKER_OK && close && (size_t)(close - raw) != b) {
		m.status = MARKER_MALFORMED;
		snprintf(m.problem, sizeof m.problem, "a %s marker must be alone on its line", marker_kind_name(m.kind));
	}
	if (m.status == MARKER_MALFORMED) {
		report_marker(w, D_MARKER_MALFORMED, line, a + 1, &m);
		return;
	}
	if (!marker_is_block(m.kind)) {
		struct diag *d = diag_begin(D_ANNOTATION_DANGLING, textfile_loc_line(tf, line, a + 1, 0),
					    "a '%s' annotation stands alone on its line", marker_kind_name(m.kind));
		diag_hint(d, "write it directly after the number it annotates, on the same line");
		diag_end(d);
		w->pg->problems++;
		return;
	}
	if (w->n_pending == ARRAY_LEN(w->pending)) {
		flush_dangling(w, node);
	}
	w->pending[w->n_pending++] = (struct pending){m, line, a + 1, 0};
}

static void code_block(struct walk *w, cmark_node *node)
{
	struct page_block *b = add_block(w, BK_CODE, node);
	const char *lit = cmark_node_get_literal(node);
	b->code = lit ? lit : "";
	b->code_len = strlen(b->code);
	int flen, foff;
	char fch;
	bool fenced = cmark_node_get_fenced(node, &flen, &foff, &fch) != 0;
	b->code_first_line = b->line + (fenced ? 1 : 0);
	govern(w, b, node);
	if (b->marker.kind == MK_PLAIN) {
		struct diag *d = diag_begin(D_CODE_UNMARKED, textfile_loc_line(w->pg->tf, b->line, 1, 0),
					    "code block has no provenance marker");
		diag_hint(d, "put '<!-- snippet: NAME -->', '<!-- transcript -->', '<!-- build -->' or "
			     "'<!-- quote: SOURCE -->' on the line before it");
		diag_end(d);
		w->pg->problems++;
	}
}

static void inline_markers(struct walk *w, cmark_node *block);

static void walk_children(struct walk *w, cmark_node *parent)
{
	for (cmark_node *node = cmark_node_first_child(parent); node; node = cmark_node_next(node)) {
		cmark_node_type t = cmark_node_get_type(node);
		if (t == CMARK_NODE_HTML_BLOCK) {
			html_block(w, node);
		} else if (t == CMARK_NODE_CODE_BLOCK) {
			code_block(w, node);
		} else if (t == CMARK_NODE_PARAGRAPH || t == CMARK_NODE_HEADING) {
			struct page_block *b = add_block(w, BK_TEXT, node);
			govern(w, b, node);
			inline_markers(w, node);
		} else if (node_is(node, "table")) {
			struct page_block *b = add_block(w, BK_TABLE, node);
			govern(w, b, node);
			for (cmark_node *row = cmark_node_first_child(node); row; row = cmark_node_next(row))
				for (cmark_node *cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell))
					inline_markers(w, cell);
		} else {
			/* containers (lists, items, block quotes) and breaks */
			flush_dangling(w, node);
			walk_children(w, node);
		}
	}
	/* a marker that is the last thing in its container governs nothing */
	flush_dangling(w, NULL);
}

/* Block markers written inside prose are not alone on their line. */
static void inline_markers(struct walk *w, cmark_node *block)
{
	const struct textfile *tf = w->pg->tf;
	cmark_iter *it = cmark_iter_new(block);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_HTML_INLINE)
			continue;
		const char *lit = cmark_node_get_literal(node);
		if (!lit || strncmp(lit, "<!--", 4) != 0)
			continue;
		struct marker m;
		marker_parse(lit, strlen(lit), &m);
		size_t line = (size_t)cmark_node_get_start_line(block);
		if (m.kind == MK_PLAIN || (m.status == MARKER_OK && !marker_is_block(m.kind)))
			continue;
		/* find the line of the comment in the raw block */
		for (size_t n = line; n <= (size_t)cmark_node_get_end_line(block); n++) {
			size_t len;
			const char *s = textfile_line(tf, n, &len);
			if (len >= strlen(lit) && memmem(s, len, lit, strlen(lit))) {
				line = n;
				break;
			}
		}
		size_t col = line_col_of(tf, line, lit);
		if (m.status == MARKER_UNKNOWN) {
			report_marker(w, D_MARKER_UNKNOWN, line, col, &m);
		} else {
			if (m.status == MARKER_OK)
				snprintf(m.problem, sizeof m.problem, "a %s marker must be alone on its line",
					 marker_kind_name(m.kind));
			report_marker(w, D_MARKER_MALFORMED, line, col, &m);
		}
	}
	cmark_iter_free(it);
}

size_t page_line_offset(const struct page *pg, size_t n)
{
	if (n == 0 || n > pg->tf->n_lines)
		return pg->tf->len;
	return pg->tf->line_start[n - 1];
}

void page_parse(const struct textfile *tf, size_t first_body_line, struct page *pg)
{
	memset(pg, 0, sizeof *pg);
	pg->tf = tf;
	/* The front matter is blanked, not cut, so cmark's line numbers are
	 * the file's. */
	size_t skip = first_body_line > 1 ? page_line_offset(&(struct page){.tf = tf}, first_body_line) : 0;
	char *md = xmalloc(tf->len + 1);
	memcpy(md, tf->data, tf->len + 1);
	for (size_t i = 0; i < skip; i++)
		if (md[i] != '\n')
			md[i] = ' ';
	cmark_gfm_core_extensions_ensure_registered();
	cmark_parser *parser = cmark_parser_new(CMARK_OPT_SOURCEPOS);
	cmark_syntax_extension *table = cmark_find_syntax_extension("table");
	if (table)
		cmark_parser_attach_syntax_extension(parser, table);
	cmark_parser_feed(parser, md, tf->len);
	pg->doc = cmark_parser_finish(parser);
	cmark_parser_free(parser);
	free(md);

	struct walk w = {.pg = pg};
	walk_children(&w, pg->doc);
}

void page_free(struct page *pg)
{
	for (size_t i = 0; i < pg->n_blocks; i++)
		free(pg->blocks[i].marker_arg);
	free(pg->blocks);
	if (pg->doc)
		cmark_node_free(pg->doc);
	memset(pg, 0, sizeof *pg);
}

/* ---- inline segments ------------------------------------------------ */

struct seg_walk {
	const struct page *pg;
	struct seg *v;
	size_t n, cap;
	size_t cursor; /* raw offset: everything before it is accounted for */
	size_t limit;  /* end of the block in the raw text */
};

static size_t find_raw(struct seg_walk *s, const char *lit, size_t len)
{
	const char *data = s->pg->tf->data;
	if (len == 0 || s->cursor >= s->limit)
		return SIZE_MAX;
	const char *hit = memmem(data + s->cursor, s->limit - s->cursor, lit, len);
	if (!hit)
		return SIZE_MAX;
	s->cursor = (size_t)(hit - data) + len;
	return (size_t)(hit - data);
}

/* In a table cell, GFM reads a '|' inside an annotation as "\|" and
 * hands over the literal unescaped: the annotation is then taken as the
 * page spells it, so its offsets are the page's own (place.h reads "\|"
 * as "|"). */
static void raw_escaped_annot(struct seg_walk *s, struct seg *g)
{
	struct buf esc = {0};
	for (size_t i = 0; i < g->len; i++) {
		if (g->s[i] == '|')
			buf_putc(&esc, '\\');
		buf_putc(&esc, g->s[i]);
	}
	size_t at = find_raw(s, esc.s, esc.len);
	if (at != SIZE_MAX) {
		g->raw_off = at;
		g->s = s->pg->tf->data + at;
		g->len = esc.len;
	}
	buf_free(&esc);
}

static void push_seg(struct seg_walk *s, enum seg_kind kind, const char *lit, size_t len)
{
	s->v = xgrow(s->v, &s->cap, s->n + 1, sizeof *s->v);
	struct seg *g = &s->v[s->n++];
	memset(g, 0, sizeof *g);
	g->kind = kind;
	g->s = lit;
	g->len = len;
	g->raw_off = kind == SEG_BREAK ? SIZE_MAX : find_raw(s, lit, len);
	if (kind == SEG_ANNOT && g->raw_off == SIZE_MAX && memchr(lit, '|', len))
		raw_escaped_annot(s, g);
	if (kind == SEG_ANNOT)
		marker_parse(g->s, g->len, &g->marker);
}

size_t page_segments(const struct page *pg, cmark_node *node, struct seg **out)
{
	struct seg_walk s = {.pg = pg};
	s.cursor = page_line_offset(pg, (size_t)cmark_node_get_start_line(node));
	s.limit = page_line_offset(pg, (size_t)cmark_node_get_end_line(node) + 1);
	cmark_iter *it = cmark_iter_new(node);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		const char *lit = cmark_node_get_literal(n);
		if (ev == CMARK_EVENT_EXIT && (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE)) {
			/* skip past the destination so its digits are never read */
			const char *url = cmark_node_get_url(n);
			if (url && *url)
				find_raw(&s, url, strlen(url));
			continue;
		}
		if (ev != CMARK_EVENT_ENTER)
			continue;
		switch (t) {
		case CMARK_NODE_TEXT:
			push_seg(&s, SEG_TEXT, lit, strlen(lit));
			break;
		case CMARK_NODE_CODE:
			push_seg(&s, SEG_OPAQUE, lit, strlen(lit));
			break;
		case CMARK_NODE_HTML_INLINE: {
			struct marker m;
			marker_parse(lit, strlen(lit), &m);
			bool annot = m.status == MARKER_OK && marker_is_inline(m.kind);
			push_seg(&s, annot ? SEG_ANNOT : SEG_OPAQUE, lit, strlen(lit));
			break;
		}
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			push_seg(&s, SEG_BREAK, "\n", 1);
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
	*out = s.v;
	return s.n;
}

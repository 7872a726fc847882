/* page.c - see page.h. */
#include "page.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>

#include "arena.h"
#include "diag.h"
#include "htmltext.h"
#include "rawalign.h"
#include "util.h"

struct page_html {
	cmark_node *node;
	struct htmltext ht;
};

/* What page_parse kept of one node's segments (see keep_segments). */
struct page_segs {
	cmark_node *node;
	struct seg *v; /* NULL once handed out */
	size_t n;
};

struct walk {
	struct page *pg;
	size_t cap;
	/* the first line a block that follows may start on: positions cmark
	 * gives that fall before it (or are 0) are taken from the raw text */
	size_t floor;
	size_t depth;      /* lists and block quotes open around the node */
	bool too_deep;     /* page_nesting reported by the walk */
	/* block markers seen since the last block, waiting for it */
	struct pending {
		struct marker m;
		size_t line, col, arg_off;
	} pending[4];
	size_t n_pending;
	/* a block marker reported unknown or malformed, and how many blocks
	 * there were then: the next block, which it meant to govern, is not
	 * also code-block-unmarked (one mistake, one error) */
	size_t bad_marker_line, blocks_at_bad_marker;
};

static bool node_is(cmark_node *node, const char *type)
{
	return strcmp(cmark_node_get_type_string(node), type) == 0;
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
	struct diag *d = diag_begin_to(w->pg->to, kind, pending_loc(w, p), "%s marker must be followed by %s, not %s",
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

/* The line breaks inside a paragraph or heading: one per source line
 * after its first. */
static size_t count_breaks(cmark_node *node)
{
	size_t n = 0;
	cmark_iter *it = cmark_iter_new(node);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node_type t = cmark_node_get_type(cmark_iter_get_node(it));
		n += ev == CMARK_EVENT_ENTER && (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK);
	}
	cmark_iter_free(it);
	return n;
}

/* A block's first and last line.  cmark-gfm 0.29.0.gfm.6 gives a paragraph
 * that a table directly follows start line 0 (and the table the
 * paragraph's line); such positions are taken from the raw text instead:
 * the first non-blank line at or after the floor, and for a paragraph one
 * line more for each line break in it.  The range is never empty and never
 * leaves the file. */
static void block_lines(struct walk *w, cmark_node *node, size_t *line, size_t *end)
{
	const struct textfile *tf = w->pg->tf;
	size_t a = (size_t)cmark_node_get_start_line(node);
	size_t b = (size_t)cmark_node_get_end_line(node);
	if (a == 0 || a < w->floor || a > tf->n_lines) {
		size_t n = w->floor ? w->floor : 1;
		size_t len;
		const char *s;
		while (n < tf->n_lines && (s = textfile_line(tf, n, &len), str_is_blank(s, len)))
			n++;
		a = n;
		cmark_node_type t = cmark_node_get_type(node);
		if (t == CMARK_NODE_PARAGRAPH || t == CMARK_NODE_HEADING)
			b = a + count_breaks(node);
	}
	if (a > tf->n_lines)
		a = tf->n_lines ? tf->n_lines : 1;
	if (b < a)
		b = a;
	if (b > tf->n_lines && tf->n_lines >= a)
		b = tf->n_lines;
	*line = a;
	*end = b;
	w->floor = b + 1;
}

/* The marker_arg of a block no marker governs: one for all (most blocks
 * have none), never freed. */
static char no_arg[1];

static struct page_block *add_block(struct walk *w, enum block_kind kind, cmark_node *node)
{
	struct page *pg = w->pg;
	pg->blocks = xgrow(pg->blocks, &w->cap, pg->n_blocks + 1, sizeof *pg->blocks);
	struct page_block *b = &pg->blocks[pg->n_blocks++];
	memset(b, 0, sizeof *b);
	b->kind = kind;
	b->node = node;
	block_lines(w, node, &b->line, &b->end_line);
	b->marker_arg = no_arg;
	cmark_node_set_user_data(node, (void *)(uintptr_t)pg->n_blocks);
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
		struct diag *d = diag_begin_to(w->pg->to, D_MARKER_CONFLICT, pending_loc(w, &w->pending[1]),
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
	b->marker = marker_info_of(&p->m);
	b->marker_arg = xstrndup(line + p->col - 1 + p->m.arg_start, p->m.arg_end - p->m.arg_start); /* was no_arg */
	b->marker_line = p->line;
	b->marker_col = p->col;
	w->n_pending = 0;
}

static void report_marker(struct walk *w, enum diag_kind kind, size_t line, size_t col, const struct marker *m)
{
	struct diag *d = diag_begin_to(w->pg->to, kind, textfile_loc_line(w->pg->tf, line, col, 0), "%s", m->problem);
	if (m->suggest[0])
		diag_hint(d, "did you mean '%s'?", m->suggest);
	diag_end(d);
	w->pg->problems++;
	w->bad_marker_line = line;
	w->blocks_at_bad_marker = w->pg->n_blocks;
}

/* An HTML block: a marker when it is a comment alone on its line.  False
 * when it is other HTML (text a reader sees: html_text_block's). */
static bool html_block(struct walk *w, cmark_node *node)
{
	const struct textfile *tf = w->pg->tf;
	size_t line = (size_t)cmark_node_get_start_line(node);
	size_t len;
	const char *raw = textfile_line(tf, line, &len);
	size_t a = 0, b = len;
	str_trim(raw, &a, &b);
	if (b - a < 4 || memcmp(raw + a, "<!--", 4) != 0)
		return false; /* other HTML: text */
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
		return true;
	if (m.status == MARKER_UNKNOWN) {
		report_marker(w, D_MARKER_UNKNOWN, line, a + 1, &m);
		return true;
	}
	if (m.status == MARKER_OK && close && (size_t)(close - raw) != b) {
		m.status = MARKER_MALFORMED;
		snprintf(m.problem, sizeof m.problem, "a %s marker must be alone on its line", marker_kind_name(m.kind));
	}
	if (m.status == MARKER_MALFORMED) {
		report_marker(w, D_MARKER_MALFORMED, line, a + 1, &m);
		return true;
	}
	if (!marker_is_block(m.kind)) {
		struct diag *d = diag_begin_to(w->pg->to, D_ANNOTATION_DANGLING, textfile_loc_line(tf, line, a + 1, 0),
					    "a '%s' annotation stands alone on its line", marker_kind_name(m.kind));
		diag_hint(d, "write it directly after the number it annotates, on the same line");
		diag_end(d);
		w->pg->problems++;
		return true;
	}
	if (w->n_pending == ARRAY_LEN(w->pending)) {
		flush_dangling(w, node);
	}
	w->pending[w->n_pending++] = (struct pending){m, line, a + 1, 0};
	return true;
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
	bool meant = w->bad_marker_line && w->pg->n_blocks == w->blocks_at_bad_marker + 1;
	if (b->marker.kind == MK_PLAIN && !meant) {
		struct diag *d = diag_begin_to(w->pg->to, D_CODE_UNMARKED, textfile_loc_line(w->pg->tf, b->line, 1, 0),
					    "code block has no provenance marker");
		diag_hint(d, "put '<!-- snippet: NAME -->', '<!-- transcript -->', '<!-- build -->' or "
			     "'<!-- quote: SOURCE -->' on the line before it");
		diag_end(d);
		w->pg->problems++;
	}
}

static void keep_segments(struct walk *w, cmark_node *node, size_t line, size_t end_line, size_t block);
static const struct page_block *node_block(const struct page *pg, cmark_node *node);

/* ---- raw HTML blocks (htmltext.h) ------------------------------------ */

/* The line a <pre>'s text starts on: the line after "<pre ...>" when
 * nothing follows the tag on its own line (HTML drops that line feed). */
static size_t pre_first_line(const struct textfile *tf, size_t at)
{
	size_t line = textfile_line_of(tf, at), len;
	const char *s = textfile_line(tf, line, &len);
	size_t col = at - tf->line_start[line - 1];
	const char *gt = memchr(s + col, '>', len - col);
	if (gt && str_is_blank(gt + 1, len - (size_t)(gt + 1 - s)))
		return line + 1;
	return line;
}

/* The one <pre> of ht when it is all the block shows (breaks aside), or
 * NULL. */
static const struct htmltext_item *only_pre(const struct htmltext *ht)
{
	const struct htmltext_item *pre = NULL;
	for (size_t i = 0; i < ht->n; i++) {
		if (ht->v[i].kind == HTMLTEXT_BREAK || (ht->v[i].kind == HTMLTEXT_COMMENT && !pre))
			continue;
		if (ht->v[i].kind != HTMLTEXT_PRE || pre)
			return NULL;
		pre = &ht->v[i];
	}
	return pre;
}

static void html_refused(struct walk *w, enum diag_kind kind, size_t line, size_t col, const char *msg, const char *hint)
{
	struct diag *d = diag_begin_to(w->pg->to, kind, textfile_loc_line(w->pg->tf, line, col, 0), "%s", msg);
	diag_hint(d, "%s", hint);
	diag_end(d);
	w->pg->problems++;
}

/* A raw HTML block that is not a marker: what it shows a reader is read
 * (htmltext.h).  A block that is one <pre> is a code block (it needs a
 * provenance marker, as a fence does); any other is text, its numbers
 * checked as a paragraph's.  What cannot be read is reported, never
 * passed over. */
static void html_text_block(struct walk *w, cmark_node *node)
{
	struct page *pg = w->pg;
	const char *lit = cmark_node_get_literal(node);
	size_t line = (size_t)cmark_node_get_start_line(node), end = (size_t)cmark_node_get_end_line(node);
	if (line == 0 || line < w->floor)
		line = w->floor ? w->floor : 1;
	if (end < line)
		end = line;
	pg->html = xgrow(pg->html, &pg->cap_html, pg->n_html + 1, sizeof *pg->html);
	struct page_html *h = &pg->html[pg->n_html++];
	h->node = node;
	htmltext_read(lit ? lit : "", lit ? strlen(lit) : 0, pg->tf->data, page_line_offset(pg, line),
		      page_line_offset(pg, end + 1), &h->ht);
	if (h->ht.unreadable) {
		char msg[256];
		snprintf(msg, sizeof msg, "this HTML block cannot be read%s%s%s: what it shows is not checked",
			 h->ht.why[0] ? " (" : "", h->ht.why, h->ht.why[0] ? ")" : "");
		html_refused(w, D_HTML_UNREAD, line, 1, msg, "nest its tags less deep, or write it as Markdown");
		return;
	}
	const struct htmltext_item *pre = only_pre(&h->ht);
	struct page_block *b = add_block(w, pre ? BK_CODE : BK_TEXT, node);
	b->html_at = pg->n_html;
	if (pre) {
		b->code = h->ht.text + pre->off;
		b->code_len = pre->len;
		b->code_first_line = pre->raw_off != SIZE_MAX ? pre_first_line(pg->tf, pre->raw_off) : b->line;
		govern(w, b, node);
		if (b->marker.kind == MK_PLAIN)
			html_refused(w, D_CODE_UNMARKED, b->line, 1, "this <pre> block has no provenance marker",
				     "put '<!-- transcript -->' (or another code marker) on the line before it, "
				     "or write it as a fenced code block");
		return;
	}
	govern(w, b, node);
	for (size_t i = 0; i < h->ht.n; i++)
		if (h->ht.v[i].kind == HTMLTEXT_PRE) {
			size_t at = h->ht.v[i].raw_off;
			size_t pl = at != SIZE_MAX ? textfile_line_of(pg->tf, at) : b->line;
			size_t pc = at != SIZE_MAX ? at - pg->tf->line_start[pl - 1] + 1 : 1;
			html_refused(w, D_HTML_PRE, pl, pc,
				     "a <pre> inside other HTML cannot carry a provenance marker: its text is not checked",
				     "make the <pre> a block of its own (or a fenced code block) with '<!-- transcript -->' "
				     "on the line before it");
		}
	keep_segments(w, node, b->line, b->end_line, pg->n_blocks);
}

/* The segments of a raw HTML block's text, from what the walk read. */
static size_t html_segments(const struct page *pg, cmark_node *node, struct seg **out)
{
	const struct page_block *b = node_block(pg, node);
	size_t n = 0;
	*out = NULL;
	if (!b || !b->html_at || b->html_at > pg->n_html)
		return 0;
	const struct htmltext *ht = &pg->html[b->html_at - 1].ht;
	struct seg *v = xcalloc(ht->n ? ht->n : 1, sizeof *v);
	for (size_t i = 0; i < ht->n; i++) {
		const struct htmltext_item *it = &ht->v[i];
		struct seg *g = &v[n];
		*g = (struct seg){.s = ht->text + it->off, .len = it->len, .raw_off = it->raw_off, .decoded = it->decoded};
		switch (it->kind) {
		case HTMLTEXT_TEXT:
			g->kind = SEG_TEXT;
			break;
		case HTMLTEXT_COMMENT: {
			struct marker m;
			marker_parse(g->s, g->len, &m);
			bool annot = m.status == MARKER_OK && marker_is_inline(m.kind);
			g->kind = annot ? SEG_ANNOT : SEG_OPAQUE;
			if (annot)
				g->marker = marker_info_of(&m);
			break;
		}
		case HTMLTEXT_BREAK:
			g->kind = SEG_BREAK;
			g->raw_off = SIZE_MAX;
			break;
		default:
			g->kind = SEG_OPAQUE; /* code, and a <pre> reported as such */
			break;
		}
		n++;
	}
	*out = v;
	return n;
}

/* The one report of nesting past PAGE_MAX_NESTING, from the raw scan
 * before cmark-gfm or from the walk. */
static void page_nesting(struct page *pg, size_t line, size_t col, size_t depth, size_t more_lines)
{
	struct diag *d = diag_begin_to(pg->to, D_PAGE_NESTING, textfile_loc_line(pg->tf, line, col, 0),
				    "lists and block quotes nest %s%zu levels deep here, more than the %d the verifier reads%s",
				    more_lines == SIZE_MAX ? "at least " : "", depth, PAGE_MAX_NESTING,
				    more_lines == SIZE_MAX ? ": what is inside is not checked" : ": this line is not checked");
	if (more_lines && more_lines != SIZE_MAX)
		diag_note(d, textfile_loc_line(pg->tf, line, 0, 0), "%zu more line%s nest as deep and are not checked either",
			  more_lines, more_lines == 1 ? "" : "s");
	diag_hint(d, "nest lists and block quotes at most %d levels deep", PAGE_MAX_NESTING);
	diag_end(d);
	pg->unread++;
	pg->problems++;
}

static bool is_nesting(cmark_node_type t)
{
	return t == CMARK_NODE_LIST || t == CMARK_NODE_BLOCK_QUOTE;
}

/* Walks the document with cmark's iterator (no recursion: a page of
 * 100,000 nested block quotes must not overflow the stack).  A container's
 * EXIT is where the recursive walk ended its list of children: a marker
 * still pending there governs nothing. */
static void walk_document(struct walk *w, cmark_node *doc)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(node);
		if (ev == CMARK_EVENT_EXIT) {
			/* a marker that is the last thing in its container governs nothing */
			flush_dangling(w, NULL);
			if (is_nesting(t))
				w->depth--;
			continue;
		}
		if (node == doc)
			continue;
		if (t == CMARK_NODE_HTML_BLOCK) {
			if (!html_block(w, node))
				html_text_block(w, node);
			size_t a = (size_t)cmark_node_get_start_line(node), b = (size_t)cmark_node_get_end_line(node);
			if ((b > a ? b : a) + 1 > w->floor)
				w->floor = (b > a ? b : a) + 1;
		} else if (t == CMARK_NODE_CODE_BLOCK) {
			code_block(w, node);
		} else if (t == CMARK_NODE_PARAGRAPH || t == CMARK_NODE_HEADING) {
			struct page_block *b = add_block(w, BK_TEXT, node);
			size_t line = b->line, end = b->end_line;
			govern(w, b, node);
			keep_segments(w, node, line, end, w->pg->n_blocks);
			cmark_iter_reset(it, node, CMARK_EVENT_EXIT);
		} else if (node_is(node, "table")) {
			struct page_block *b = add_block(w, BK_TABLE, node);
			size_t line = b->line, end = b->end_line;
			govern(w, b, node);
			for (cmark_node *row = cmark_node_first_child(node); row; row = cmark_node_next(row))
				for (cmark_node *cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell))
					keep_segments(w, cell, line, end, 0);
			cmark_iter_reset(it, node, CMARK_EVENT_EXIT);
		} else {
			/* containers (lists, items, block quotes) and breaks */
			flush_dangling(w, node);
			size_t a = (size_t)cmark_node_get_start_line(node);
			if (a > w->floor)
				w->floor = a;
			if (is_nesting(t) && ++w->depth > PAGE_MAX_NESTING) {
				/* deeper than any page needs: report once, skip what is inside */
				if (!w->too_deep)
					page_nesting(w->pg, a ? a : w->floor, 1, w->depth, SIZE_MAX);
				w->too_deep = true;
				w->depth--;
				cmark_iter_reset(it, node, CMARK_EVENT_EXIT);
				flush_dangling(w, NULL);
			}
		}
	}
	cmark_iter_free(it);
}

/* Block markers written inside prose are not alone on their line.  Each
 * comment is found in the raw block with a cursor that moves forward, so
 * a block of many bad markers is read once and identical markers on
 * different lines are each reported at their own line. */
/* Where a comment's first line lies in the block's raw text, searched
 * from *cursor (moved past it when found): the comment's first line as
 * written (a comment may wrap, and inside a block quote its later lines
 * carry '>').  *hit tells whether it was found; the offset is the
 * cursor's (or the block's last byte) when not. */
static size_t comment_at(const struct textfile *tf, size_t *cursor, size_t limit, const char *lit, bool *hit)
{
	size_t first_len = strcspn(lit, "\n");
	const char *p = *cursor < limit ? memmem(tf->data + *cursor, limit - *cursor, lit, first_len) : NULL;
	size_t at = p ? (size_t)(p - tf->data) : *cursor < limit ? *cursor : limit ? limit - 1 : 0;
	if (p)
		*cursor = at + first_len;
	*hit = p != NULL;
	return at;
}

/* Comments are found in the raw text only when one is reported: each
 * search starts where the one before it ended, so the comments passed
 * over (nearly all: a block's inline markers are annotations) are kept,
 * a few at a time, and searched for in order before the next one
 * reported (a memmem a comment was a quarter of this walk). */
#define PENDING_COMMENTS 16

static void catch_up(const struct textfile *tf, size_t *cursor, size_t limit, const char **pending, size_t *n)
{
	bool hit;
	for (size_t i = 0; i < *n; i++)
		comment_at(tf, cursor, limit, pending[i], &hit);
	*n = 0;
}

/* The inline comments of one block, checked as the segments are
 * collected: the block's raw range, the cursor, and the comments passed
 * over since the last one reported. */
struct inline_check {
	struct walk *w;
	size_t cursor, limit;
	const char *pending[PENDING_COMMENTS];
	size_t n_pending;
};

/* One HTML comment of the block (lit, its literal) and its marker m. */
static void inline_comment(struct inline_check *c, const char *lit, struct marker *m)
{
	struct walk *w = c->w;
	const struct textfile *tf = w->pg->tf;
	if (m->kind == MK_PLAIN || (m->status == MARKER_OK && !marker_is_block(m->kind))) {
		if (c->n_pending == PENDING_COMMENTS)
			catch_up(tf, &c->cursor, c->limit, c->pending, &c->n_pending);
		c->pending[c->n_pending++] = lit;
		return;
	}
	catch_up(tf, &c->cursor, c->limit, c->pending, &c->n_pending);
	bool hit;
	size_t at = comment_at(tf, &c->cursor, c->limit, lit, &hit);
	size_t n = tf->n_lines ? textfile_line_of(tf, at) : 1;
	size_t col = hit ? at - page_line_offset(w->pg, n) + 1 : 1;
	if (m->status == MARKER_UNKNOWN) {
		report_marker(w, D_MARKER_UNKNOWN, n, col, m);
	} else {
		if (m->status == MARKER_OK)
			snprintf(m->problem, sizeof m->problem, "a %s marker must be alone on its line",
				 marker_kind_name(m->kind));
		report_marker(w, D_MARKER_MALFORMED, n, col, m);
	}
}

/* The block a node is, or lies in (a table's rows and cells), or NULL. */
static const struct page_block *node_block(const struct page *pg, cmark_node *node)
{
	for (int up = 0; node && up < 3; up++, node = cmark_node_parent(node)) {
		uintptr_t k = (uintptr_t)cmark_node_get_user_data(node);
		if (k && k <= pg->n_blocks && pg->blocks[k - 1].node == node)
			return &pg->blocks[k - 1];
	}
	return NULL;
}

void page_node_lines(const struct page *pg, cmark_node *node, size_t *line, size_t *end)
{
	const struct page_block *b = node_block(pg, node);
	if (b && b->node == node) {
		*line = b->line;
		*end = b->end_line;
		return;
	}
	size_t a = (size_t)cmark_node_get_start_line(node), z = (size_t)cmark_node_get_end_line(node);
	if (b) {
		/* a table's header row may carry the line of a paragraph before it */
		if (a < b->line || a > b->end_line)
			a = b->line;
		if (z < a || z > b->end_line)
			z = a;
	}
	if (a == 0)
		a = 1;
	if (z < a)
		z = a;
	*line = a;
	*end = z;
}

size_t page_node_line(const struct page *pg, cmark_node *node)
{
	size_t line, end;
	page_node_lines(pg, node, &line, &end);
	return line;
}

void page_block_range(const struct page *pg, const struct page_block *b, size_t *from, size_t *to)
{
	*from = page_line_offset(pg, b->line);
	*to = page_line_offset(pg, b->end_line + 1);
	if (*to < *from)
		*to = *from;
}

size_t page_line_offset(const struct page *pg, size_t n)
{
	if (n == 0 || n > pg->tf->n_lines)
		return pg->tf->len;
	return pg->tf->line_start[n - 1];
}

/* How many lists and block quotes a line opens before its text: '>',
 * '-', '+', '*' and '1.' / '1)' list markers, each followed by a blank or
 * the end of the line.  A line of only one of '-' and '*' is a thematic
 * break, not a list. */
static size_t line_nesting(const char *s, size_t len)
{
	size_t i = 0, depth = 0;
	char only = 0;
	bool same = true;
	for (;;) {
		/* code is indented in spaces: four of them at a time, then the rest */
		while (len - i >= 4 && memcmp(s + i, "    ", 4) == 0)
			i += 4;
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == len)
			break;
		size_t j = i;
		if (s[i] == '>') {
			j = i + 1;
		} else if (s[i] == '-' || s[i] == '+' || s[i] == '*') {
			j = i + 1;
			if (j < len && s[j] != ' ' && s[j] != '\t')
				break;
		} else if (s[i] >= '0' && s[i] <= '9') {
			while (j < len && j - i < 9 && s[j] >= '0' && s[j] <= '9')
				j++;
			if (j == len || (s[j] != '.' && s[j] != ')'))
				break;
			j++;
			if (j < len && s[j] != ' ' && s[j] != '\t')
				break;
		} else {
			break;
		}
		if (!only)
			only = s[i];
		same &= s[i] == only && (only == '-' || only == '*');
		depth++;
		i = j;
	}
	return i == len && same ? 0 : depth;
}

/* The cells a line would give as a table row: one more than its '|'
 * that are not escaped, less a leading and a trailing one. */
static size_t line_cells(const char *s, size_t len)
{
	if (!memchr(s, '|', len))
		return 1;
	size_t a = 0, b = len;
	str_trim(s, &a, &b);
	size_t n = 1;
	bool last_pipe = false;
	for (size_t i = a; i < b; i++) {
		last_pipe = false;
		if (s[i] == '\\') {
			i++;
		} else if (s[i] == '|') {
			n++;
			last_pipe = true;
		}
	}
	if (n > 1 && s[a] == '|')
		n--;
	if (n > 1 && last_pipe)
		n--;
	return n;
}

/*
 * Every level a line opens takes at least one byte of it ('>'), and every
 * cell past the first a '|', less the first cell's and the last's, so a
 * line of len bytes opens at most len levels and holds at most len - 1
 * cells (or one).  A line no longer than a limit cannot pass it: with
 * `shortcut`, such a line is not measured (most lines are shorter than
 * PAGE_MAX_COLUMNS + 2 bytes, and every line of the page passes here).
 */
static inline enum page_line_bound line_bound(const char *s, size_t len, bool shortcut, size_t *measure)
{
	*measure = 0;
	size_t depth = shortcut && len <= PAGE_MAX_NESTING ? 0 : line_nesting(s, len);
	if (depth > PAGE_MAX_NESTING) {
		*measure = depth;
		return PAGE_LINE_DEEP;
	}
	size_t cells = shortcut && len <= PAGE_MAX_COLUMNS + 1 ? 1 : line_cells(s, len);
	if (cells > PAGE_MAX_COLUMNS) {
		*measure = cells;
		return PAGE_LINE_WIDE;
	}
	return PAGE_LINE_READ;
}

enum page_line_bound page_line_bound(const char *s, size_t len, bool shortcut, size_t *measure)
{
	return line_bound(s, len, shortcut, measure);
}

static void table_too_wide(struct page *pg, size_t line, size_t cells, size_t more_lines)
{
	struct diag *d = diag_begin_to(pg->to, D_TABLE_WIDE, textfile_loc_line(pg->tf, line, 1, 0),
				    "this line has %zu table cells, more than the %d the verifier reads: it is not checked",
				    cells, PAGE_MAX_COLUMNS);
	if (more_lines)
		diag_note(d, textfile_loc_line(pg->tf, line, 0, 0), "%zu more line%s as wide are not checked either",
			  more_lines, more_lines == 1 ? "" : "s");
	diag_hint(d, "split the table: at most %d columns", PAGE_MAX_COLUMNS);
	diag_end(d);
	pg->problems++;
	pg->unread++;
}

/* Bounds the text before cmark-gfm sees it.  0.29.0.gfm.6, which Debian
 * 12 ships, takes quadratic time on many lists opened before a fence
 * (GHSA-66g8-4hjf-77xh, fixed in 0.29.0.gfm.10) and on wide tables
 * (GHSA-w4qg-3vf7-m9x5, fixed in 0.29.0.gfm.12).  A line that opens more
 * than PAGE_MAX_NESTING lists or block quotes, or would be a table row of
 * more than PAGE_MAX_COLUMNS cells, is blanked (as the front matter is, so
 * line numbers stay) and reported: once for each limit, with a count. */
static void bound_lines(struct page *pg, char *md, size_t from)
{
	const struct textfile *tf = pg->tf;
	size_t deep = 0, deep_depth = 0, deep_more = 0;
	size_t wide = 0, wide_cells = 0, wide_more = 0;
	for (size_t n = 1; n <= tf->n_lines; n++) {
		size_t off = tf->line_start[n - 1];
		if (off < from)
			continue;
		size_t len, measure;
		textfile_line(tf, n, &len);
		enum page_line_bound bound = page_line_bound(md + off, len, true, &measure);
		if (bound == PAGE_LINE_DEEP) {
			if (deep)
				deep_more++;
			else
				deep = n, deep_depth = measure;
		} else if (bound == PAGE_LINE_WIDE) {
			if (wide)
				wide_more++;
			else
				wide = n, wide_cells = measure;
		} else {
			continue;
		}
		memset(md + off, ' ', len);
	}
	if (deep)
		page_nesting(pg, deep, 1, deep_depth, deep_more);
	if (wide)
		table_too_wide(pg, wide, wide_cells, wide_more);
}

/* The page arena while no other page holds it (arena.h), else cmark's
 * default allocator. */
static cmark_mem *page_allocator(struct page *pg, size_t text_len, bool may_use_arena)
{
	cmark_mem *mem = may_use_arena ? arena_take(text_len) : NULL;
	pg->in_arena = mem != NULL;
	return mem ? mem : cmark_get_default_mem_allocator();
}

/* True when no line from byte from on passes a limit (page_line_bound):
 * nearly every page, which then goes to cmark-gfm as it is, without a
 * copy to blank lines in.  A line no longer than PAGE_MAX_NESTING bytes
 * passes neither limit (page_line_bound's shortcut): not asked. */
static bool within_bounds(const struct textfile *tf, size_t from)
{
	for (size_t n = 1; n <= tf->n_lines; n++) {
		if (tf->line_start[n - 1] < from)
			continue;
		size_t len, measure;
		const char *s = textfile_line(tf, n, &len);
		if (len > PAGE_MAX_NESTING && line_bound(s, len, true, &measure) != PAGE_LINE_READ)
			return false;
	}
	return true;
}

/* Feeds text[0..n) to parser blanked: each byte but a LF a space (the
 * front matter, so that cmark's line numbers are the file's), a few KiB
 * at a time. */
static void feed_blanked(cmark_parser *parser, const char *text, size_t n)
{
	char buf[4096];
	for (size_t done = 0; done < n;) {
		size_t k = n - done < sizeof buf ? n - done : sizeof buf;
		memset(buf, ' ', k); /* then the LFs put back, a memchr a line */
		for (const char *p = text + done, *end = p + k; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
			buf[p - (text + done)] = '\n';
		cmark_parser_feed(parser, buf, k);
		done += k;
	}
}

static void parse(const struct textfile *tf, size_t first_body_line, enum diag_dest to, struct page *pg,
		  bool may_use_arena)
{
	memset(pg, 0, sizeof *pg);
	pg->tf = tf;
	pg->to = to;
	/* The front matter is blanked, not cut, so cmark's line numbers are
	 * the file's. */
	size_t skip = first_body_line > 1 ? page_line_offset(&(struct page){.tf = tf}, first_body_line) : 0;
	char *md = NULL;
	if (!within_bounds(tf, skip)) {
		/* a line to blank: the whole text copied, blanked and fed at once */
		md = xmalloc(tf->len + 1);
		memcpy(md, tf->data, tf->len + 1);
		for (size_t i = 0; i < skip; i++)
			if (md[i] != '\n')
				md[i] = ' ';
		bound_lines(pg, md, skip);
	}
	cmark_gfm_core_extensions_ensure_registered();
	cmark_parser *parser =
		cmark_parser_new_with_mem(CMARK_OPT_SOURCEPOS, page_allocator(pg, tf->len, may_use_arena));
	cmark_syntax_extension *table = cmark_find_syntax_extension("table");
	if (table)
		cmark_parser_attach_syntax_extension(parser, table);
	if (md) {
		cmark_parser_feed(parser, md, tf->len);
	} else {
		/* the front matter (whole lines: skip is a line's start) blanked,
		 * then the body as it stands; cmark-gfm reads a text fed in parts
		 * at line ends as the same text fed at once (it copies each line
		 * it reads, and keeps none of the buffer) */
		feed_blanked(parser, tf->data, skip);
		cmark_parser_feed(parser, tf->data + skip, tf->len - skip);
	}
	pg->doc = cmark_parser_finish(parser);
	cmark_parser_free(parser);
	free(md);

	struct walk w = {.pg = pg, .floor = first_body_line};
	walk_document(&w, pg->doc);
}

void page_parse(const struct textfile *tf, size_t first_body_line, enum diag_dest to, struct page *pg)
{
	parse(tf, first_body_line, to, pg, true);
}

void page_parse_malloc(const struct textfile *tf, size_t first_body_line, enum diag_dest to, struct page *pg)
{
	parse(tf, first_body_line, to, pg, false);
}

void page_free(struct page *pg)
{
	for (size_t i = 0; i < pg->n_blocks; i++)
		if (pg->blocks[i].marker_arg != no_arg)
			free(pg->blocks[i].marker_arg);
	free(pg->blocks);
	for (size_t i = 0; i < pg->n_segs; i++)
		free(pg->segs[i].v); /* those never asked for */
	free(pg->segs);
	for (size_t i = 0; i < pg->n_html; i++)
		htmltext_free(&pg->html[i].ht);
	free(pg->html);
	if (pg->in_arena) {
		arena_release(); /* the tree and the parser's buffers, at once */
	} else if (pg->doc) {
		cmark_node_free(pg->doc);
	}
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

/* The first occurrence of lit in hay, as memmem gives it: the literal
 * almost always starts within a few bytes of where the last one ended
 * (past "**", "`", "["), so the first few places holding its first byte
 * are tried directly; after 8 misses, memmem (bounded, whatever the
 * page). */
static const char *near_first(const char *hay, size_t n, const char *lit, size_t len)
{
	const char *p = hay, *end = hay + n;
	for (int tries = 0; tries < 8 && (size_t)(end - p) >= len; tries++) {
		p = memchr(p, lit[0], (size_t)(end - p) - len + 1);
		if (!p)
			return NULL;
		if (memcmp(p, lit, len) == 0)
			return p;
		p++;
	}
	if ((size_t)(end - p) < len)
		return NULL;
	return memmem(p, (size_t)(end - p), lit, len);
}

static size_t find_raw(struct seg_walk *s, const char *lit, size_t len)
{
	const char *data = s->pg->tf->data;
	if (len == 0 || s->cursor >= s->limit)
		return SIZE_MAX;
	/* most literals start right at the cursor (text after text): the
	 * first occurrence memmem would find, without its search */
	const char *hit = near_first(data + s->cursor, s->limit - s->cursor, lit, len);
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

static struct seg *new_seg(struct seg_walk *s, enum seg_kind kind, const char *lit, size_t len, size_t raw_off)
{
	if (s->n == s->cap) /* grown only when full: not a call a segment */
		s->v = xgrow(s->v, &s->cap, s->n + 1, sizeof *s->v);
	struct seg *g = &s->v[s->n++];
	g->kind = kind;
	g->s = lit;
	g->len = len;
	g->marker = (struct marker_info){0};
	g->raw_off = raw_off;
	g->decoded = false;
	return g;
}

/* A text cmark decoded (a character reference, a backslash escape) is not
 * in the page as it stands: it is aligned with the raw bytes (rawalign.h)
 * and pushed as pieces, each verbatim run with its own offset and each
 * decoded unit marked, so that a number beside "&amp;" keeps its column.
 * False when it cannot be aligned either. */
static bool push_decoded_text(struct seg_walk *s, const char *lit, size_t len, size_t limit)
{
	struct rawalign_piece *pc;
	size_t end;
	size_t n = s->cursor < limit ? rawalign(s->pg->tf->data, s->cursor, limit, lit, len, &pc, &end) : 0;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		struct seg *g = new_seg(s, SEG_TEXT, lit + pc[i].lit_off, pc[i].lit_len, pc[i].raw_off);
		g->decoded = !pc[i].verbatim;
	}
	s->cursor = end;
	free(pc);
	return true;
}

/* pre: lit's marker when the caller parsed it already (an annotation), or
 * NULL. */
static void push_seg(struct seg_walk *s, enum seg_kind kind, const char *lit, size_t len, const struct marker *pre)
{
	size_t raw = SIZE_MAX;
	if (kind == SEG_TEXT) {
		/* a text starts a few bytes of markup after the last one: looked
		 * for there first, as written and then decoded, so that a block
		 * of many lines with a reference is not searched to its end once
		 * a line (the window: room for the markup between and for every
		 * byte of the text written as a reference) */
		size_t room = len > (SIZE_MAX - 256) / 12 ? SIZE_MAX : 256 + 12 * len;
		size_t near = s->cursor < s->limit && s->limit - s->cursor > room ? s->cursor + room : s->limit;
		size_t limit = s->limit;
		s->limit = near;
		raw = find_raw(s, lit, len);
		s->limit = limit;
		if (raw == SIZE_MAX && push_decoded_text(s, lit, len, near))
			return;
	}
	if (raw == SIZE_MAX && kind != SEG_BREAK)
		raw = find_raw(s, lit, len); /* far on (past a long link title), as written */
	struct seg *g = new_seg(s, kind, lit, len, raw);
	if (kind == SEG_ANNOT && g->raw_off == SIZE_MAX && memchr(lit, '|', len))
		raw_escaped_annot(s, g);
	if (kind == SEG_ANNOT && pre && g->s == lit && g->len == len) {
		g->marker = marker_info_of(pre); /* the same text: parsing it again gives the same */
	} else if (kind == SEG_ANNOT) {
		struct marker m;
		marker_parse(g->s, g->len, &m);
		g->marker = marker_info_of(&m);
	}
}

/* The segments of node; with chk (page_parse's walk), each HTML comment
 * among them is checked as an inline marker too, its marker parsed once
 * for both. */
static size_t collect_segments(const struct page *pg, cmark_node *node, struct seg **out, struct inline_check *chk)
{
	if (cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK)
		return html_segments(pg, node, out);
	struct seg_walk s = {.pg = pg};
	/* room for most paragraphs at once */
	s.cap = 16;
	s.v = xmalloc(s.cap * sizeof *s.v);
	size_t line, end;
	page_node_lines(pg, node, &line, &end);
	s.cursor = page_line_offset(pg, line);
	s.limit = page_line_offset(pg, end + 1);
	cmark_iter *it = cmark_iter_new(node);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		if (ev == CMARK_EVENT_EXIT && (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE)) {
			/* skip past the destination so its digits are never read */
			const char *url = cmark_node_get_url(n);
			if (url && *url)
				find_raw(&s, url, strlen(url));
			continue;
		}
		if (ev != CMARK_EVENT_ENTER)
			continue;
		/* the literal only of the nodes that have one (each ask costs) */
		const char *lit = t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE || t == CMARK_NODE_HTML_INLINE
					  ? cmark_node_get_literal(n)
					  : NULL;
		switch (t) {
		case CMARK_NODE_TEXT:
			push_seg(&s, SEG_TEXT, lit, strlen(lit), NULL);
			break;
		case CMARK_NODE_CODE:
			push_seg(&s, SEG_OPAQUE, lit, strlen(lit), NULL);
			break;
		case CMARK_NODE_HTML_INLINE: {
			struct marker m;
			size_t len = strlen(lit);
			marker_parse(lit, len, &m);
			bool annot = m.status == MARKER_OK && marker_is_inline(m.kind);
			push_seg(&s, annot ? SEG_ANNOT : SEG_OPAQUE, lit, len, &m);
			if (chk && strncmp(lit, "<!--", 4) == 0)
				inline_comment(chk, lit, &m); /* after push_seg: it may rewrite m's problem */
			break;
		}
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			push_seg(&s, SEG_BREAK, "\n", 1, NULL);
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
	*out = s.v;
	return s.n;
}

/* ---- the segments page_parse keeps ------------------------------------
 *
 * The walk reads each paragraph, heading and table cell once: its inline
 * markers are checked from the segments it collects, and the segments
 * are kept for page_segments, which the number checks ask once a node
 * (it was a second walk of every block, and a second parse of each
 * annotation).  A block finds its entry through segs_at; a cell, which
 * is no block, through its cmark user data, tagged so that node_block
 * never takes it for a block's index.
 */

#define SEGS_CELL_TAG ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

/* block: the node's block index + 1, or 0 for a table cell; line and
 * end_line: the range its inline markers are searched in (a cell's, its
 * table's). */
static void keep_segments(struct walk *w, cmark_node *node, size_t line, size_t end_line, size_t block)
{
	struct page *pg = w->pg;
	struct inline_check chk = {.w = w,
				   .cursor = page_line_offset(pg, line),
				   .limit = page_line_offset(pg, end_line + 1)};
	struct seg *v;
	size_t n = collect_segments(pg, node, &v, &chk);
	pg->segs = xgrow(pg->segs, &pg->cap_segs, pg->n_segs + 1, sizeof *pg->segs);
	pg->segs[pg->n_segs++] = (struct page_segs){node, v, n};
	if (block)
		pg->blocks[block - 1].segs_at = pg->n_segs;
	else
		cmark_node_set_user_data(node, (void *)(SEGS_CELL_TAG | pg->n_segs));
}

static struct page_segs *kept_segments(const struct page *pg, cmark_node *node)
{
	uintptr_t tag = (uintptr_t)cmark_node_get_user_data(node);
	size_t at = 0;
	if (tag & SEGS_CELL_TAG) {
		at = (size_t)(tag & ~SEGS_CELL_TAG);
	} else {
		const struct page_block *b = node_block(pg, node);
		if (b && b->node == node)
			at = b->segs_at;
	}
	if (at == 0 || at > pg->n_segs || pg->segs[at - 1].node != node)
		return NULL;
	return &pg->segs[at - 1];
}

size_t page_segments(const struct page *pg, cmark_node *node, struct seg **out)
{
	struct page_segs *kept = kept_segments(pg, node);
	if (kept && kept->v) {
		*out = kept->v;
		kept->v = NULL; /* the caller's now */
		return kept->n;
	}
	return collect_segments(pg, node, out, NULL);
}

size_t page_segments_fresh(const struct page *pg, cmark_node *node, struct seg **out)
{
	return collect_segments(pg, node, out, NULL);
}

/* review.c - see review.h.
 *
 * How an item is marked in place: cmark-gfm renders the page, so the
 * marks cannot be written into its HTML afterwards by position.  Instead
 * the page's text gets a sentinel before and after each claim (private
 * use characters, which Markdown reads as letters and no page holds), is
 * parsed and rendered, and the sentinels in the HTML are replaced by the
 * marks.  A claim is marked this way only when the page's bytes at its
 * place are the claim itself, so a sentinel never lands inside an entity,
 * a marker or a code block; other items (code blocks, rows, claims the
 * ledger places by line only) get a badge before their block.
 */
#include "review.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "course.h"
#include "diag.h"
#include "repo.h"
#include "review_write.h"
#include "util.h"

/* ---- the kinds as the reviewer sees them ------------------------------ */

/* One style per ledger kind: a class (colour and underline pattern in the
 * CSS), the word shown beside it, and the legend's sentence.  Claims
 * (issue 13's <!-- claim: --> annotations) have their style ready: the
 * ledger kind that records them maps to "claim" here. */
struct style {
	const char *cls, *word, *legend;
};

static const struct style styles[LG_KIND_COUNT] = {
	[LG_CODE] = {"code", "code", "a code block: a snippet of the program, a transcript excerpt, the build line or a quote"},
	[LG_FACT] = {"fact", "measured", "a fact of a measured paragraph (GPU, date, driver, CUDA, flags)"},
	[LG_TRACED] = {"traced", "traced", "a number found in the evidence"},
	[LG_DERIVED] = {"derived", "derived", "a number computed from evidence numbers (<!-- = EXPR -->)"},
	[LG_CITED] = {"cited", "cited", "a number from another lesson's evidence (<!-- cite: LESSON -->)"},
	[LG_EXT] = {"ext", "external", "a number from outside the course, with its reason (<!-- ext: -->)"},
	[LG_ROW] = {"row", "table row", "a table row resting on one transcript line"},
	[LG_SKIPPED] = {"skipped", "skipped", "a number not checked, and why (a year, a small whole number)"},
	[LG_FAILED] = {"failed", "FAILED", "a claim that did not hold: the diagnostic says why"},
};
static const struct style claim_style = {"claim", "claim", "a sentence's claim checked against the evidence (<!-- claim: -->)"};

/* A code item's word says what kind of block it is. */
static const char *item_word(const struct ledger_entry *e)
{
	if (e->kind == LG_CODE && (strcmp(e->claim, "transcript") == 0 || strcmp(e->claim, "build") == 0 ||
				   strcmp(e->claim, "quote") == 0))
		return e->claim;
	if (e->kind == LG_CODE)
		return "snippet";
	return styles[e->kind].word;
}

/* ---- HTML text --------------------------------------------------------- */

static void put_esc(struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&#39;"); break;
		case '\0': buf_puts(b, "\xEF\xBF\xBD"); break;
		default: buf_putc(b, s[i]); break;
		}
	}
}

static void put_escs(struct buf *b, const char *s)
{
	if (s)
		put_esc(b, s, strlen(s));
}

/* ---- diagnostics, read back from their GNU text ----------------------- */

/* One diagnostic: its first line's place and the whole text. */
struct rdiag {
	size_t line, col;  /* on the page; 0 when elsewhere */
	char *head;        /* "error: message [id]" */
	char *body;        /* caret lines, notes, diff */
	char *hint;
	bool error;
	long owner;        /* index of the ledger entry it explains, or -1 */
};

struct rdiags {
	struct rdiag *v;
	size_t n, cap;
};

static bool is_head(const char *s, size_t n, size_t *level_at)
{
	if (n == 0 || s[0] == ' ')
		return false;
	static const char *const words[] = {": error: ", ": warning: "};
	for (size_t w = 0; w < 2; w++) {
		const char *p = memmem(s, n, words[w], strlen(words[w]));
		if (p) {
			*level_at = (size_t)(p - s) + 2;
			return true;
		}
	}
	return false;
}

/* Splits the diagnostics text into diagnostics; a line before the first
 * is dropped (there is none in diag's output). */
static void rdiags_parse(struct rdiags *ds, const char *text, const char *page)
{
	size_t plen = strlen(page);
	struct rdiag *cur = NULL;
	struct buf body = {0};
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		size_t lv;
		if (is_head(p, n, &lv)) {
			if (cur)
				cur->body = buf_detach(&body);
			ds->v = xgrow(ds->v, &ds->cap, ds->n + 1, sizeof *ds->v);
			cur = &ds->v[ds->n++];
			memset(cur, 0, sizeof *cur);
			cur->owner = -1;
			cur->head = xstrndup(p + lv, n - lv);
			cur->error = strncmp(p + lv, "error", 5) == 0;
			if (lv > plen + 1 && strncmp(p, page, plen) == 0 && p[plen] == ':') {
				char *end;
				cur->line = strtoul(p + plen + 1, &end, 10);
				if (*end == ':' && end[1] >= '0' && end[1] <= '9')
					cur->col = strtoul(end + 1, NULL, 10);
			}
		} else if (cur && n >= 6 && strncmp(p, "hint: ", 6) == 0) {
			free(cur->hint);
			cur->hint = xstrndup(p + 6, n - 6);
		} else if (cur) {
			buf_append(&body, p, n);
			buf_putc(&body, '\n');
		}
		p = nl ? nl + 1 : NULL;
	}
	if (cur)
		cur->body = buf_detach(&body);
	buf_free(&body);
}

static void rdiags_free(struct rdiags *ds)
{
	for (size_t i = 0; i < ds->n; i++) {
		free(ds->v[i].head);
		free(ds->v[i].body);
		free(ds->v[i].hint);
	}
	free(ds->v);
}

/* The first of the entries (sorted by line) on line, or n. */
static size_t first_on_line(const struct ledger_entry **v, size_t n, size_t line)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid]->line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A diagnostic explains the failed item at its place, or else the failed
 * item nearest before its column on its line (a derivation's literal sits
 * in the annotation after its number), or else a failed item on its line. */
static void rdiags_attach(struct rdiags *ds, const struct ledger_entry **v, size_t n)
{
	for (size_t d = 0; d < ds->n; d++) {
		struct rdiag *g = &ds->v[d];
		if (!g->line)
			continue;
		size_t from = first_on_line(v, n, g->line), to = from;
		while (to < n && v[to]->line == g->line)
			to++;
		long best = -1;
		for (size_t i = from; i < to && best < 0; i++)
			if (v[i]->kind == LG_FAILED && v[i]->col == g->col)
				best = (long)i;
		for (size_t i = from; i < to && best < 0; i++) /* the nearest failed claim before it */
			if (v[i]->kind == LG_FAILED && v[i]->col <= g->col && (i + 1 == to || v[i + 1]->col > g->col ||
									       v[i + 1]->kind != LG_FAILED))
				best = (long)i;
		for (size_t i = from; i < to && best < 0; i++)
			if (v[i]->kind == LG_FAILED)
				best = (long)i;
		g->owner = best;
	}
}

/* ---- the page with its marks ------------------------------------------ */

#define S_OPEN "\xEE\x80\x80"  /* U+E000, then the item's index, then S_END */
#define S_END "\xEE\x80\x81"   /* U+E001 */
#define S_CLOSE "\xEE\x80\x82" /* U+E002 */
#define S_BADGE "\xEE\x80\x83" /* U+E003, then the index, then S_END */

enum place { PL_SPAN, PL_INLINE_BADGE, PL_BLOCK };

struct item {
	const struct ledger_entry *e;
	enum place place;
	size_t off, span; /* in the page's text */
	bool placed;      /* its mark made it into the HTML */
	bool as_mark;     /* inside a link: a <mark>, not a link of its own */
	size_t block;     /* the top-level block it belongs to, or SIZE_MAX */
};

struct render {
	const char *page;
	size_t *bfirst, *bend; /* the items of top-level block k: [bfirst[k], bend[k]) */
	const struct textfile *tf;
	const struct ledger *lg;
	struct item *items;
	size_t n;
	struct rdiags diags;
	struct buf out;
};

static size_t line_off(const struct textfile *tf, size_t line)
{
	if (line == 0 || line > tf->n_lines)
		return tf->len;
	return tf->line_start[line - 1];
}

static bool is_table_line(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && s[i] == ' ')
		i++;
	return i < n && s[i] == '|';
}

/* Decides how each item is marked. */
static void place_items(struct render *r)
{
	size_t covered = 0; /* end of the last span marked */
	for (size_t i = 0; i < r->n; i++) {
		struct item *it = &r->items[i];
		const struct ledger_entry *e = it->e;
		it->place = PL_BLOCK;
		it->block = SIZE_MAX;
		if (e->line == 0 || e->line > r->tf->n_lines)
			continue;
		size_t lo = line_off(r->tf, e->line);
		size_t ll = line_off(r->tf, e->line + 1) - lo;
		if (e->line < r->lg->page.first_body_line)
			continue;
		if (e->span && e->col >= 1 && e->col - 1 < ll) {
			size_t off = lo + e->col - 1, cl = strlen(e->claim);
			if (off >= covered && cl == e->span && off + cl <= r->tf->len &&
			    memcmp(r->tf->data + off, e->claim, cl) == 0) {
				it->place = PL_SPAN;
				it->off = off;
				it->span = cl;
				covered = off + cl;
			}
		} else if (e->span == 0 && is_table_line(r->tf->data + lo, ll)) {
			const char *bar = memchr(r->tf->data + lo, '|', ll);
			it->place = PL_INLINE_BADGE;
			it->off = (size_t)(bar - r->tf->data) + 1;
			if (it->off < covered)
				it->place = PL_BLOCK;
			else
				covered = it->off;
		}
	}
}

/* The page's Markdown with the sentinels in, front matter blanked (as
 * page.c does, so that line numbers stay the file's). */
struct event {
	size_t off;
	int order; /* at one offset: a close, then badges, then an open */
	size_t item;
};

static int by_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return (x->item > y->item) - (x->item < y->item);
}

/* Copies the page's text; a sentinel character the page itself holds
 * becomes U+FFFD, so that no page can forge or break a mark. */
static void put_source(struct buf *b, const struct textfile *tf, size_t from, size_t to, size_t skip)
{
	for (size_t k = from; k < to; k++) {
		const unsigned char *u = (const unsigned char *)tf->data + k;
		if (k + 2 < tf->len && k + 2 < to && u[0] == 0xEE && u[1] == 0x80 && u[2] >= 0x80 && u[2] <= 0x83) {
			buf_puts(b, "\xEF\xBF\xBD");
			k += 2;
			continue;
		}
		buf_putc(b, k < skip && tf->data[k] != '\n' ? ' ' : tf->data[k]);
	}
}

static char *marked_source(const struct render *r, size_t *len)
{
	size_t skip = r->lg->page.first_body_line > 1 ? line_off(r->tf, r->lg->page.first_body_line) : 0;
	struct event *ev = xmalloc((2 * r->n + 1) * sizeof *ev);
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct item *it = &r->items[i];
		if (it->place == PL_BLOCK)
			continue;
		ev[n++] = (struct event){it->off, it->place == PL_SPAN ? 2 : 1, i};
		if (it->place == PL_SPAN)
			ev[n++] = (struct event){it->off + it->span, 0, i};
	}
	if (n > 1)
		qsort(ev, n, sizeof *ev, by_event);
	struct buf b = {0};
	size_t at = 0;
	for (size_t k = 0; k < n; k++) {
		put_source(&b, r->tf, at, ev[k].off, skip);
		at = ev[k].off;
		if (ev[k].order == 0)
			buf_puts(&b, S_CLOSE);
		else
			buf_printf(&b, "%s%zu%s", ev[k].order == 2 ? S_OPEN : S_BADGE, ev[k].item, S_END);
	}
	put_source(&b, r->tf, at, r->tf->len, skip);
	free(ev);
	*len = b.len;
	return b.s ? buf_detach(&b) : xstrdup("");
}

/* Links and images would load or lead out of the file: a link becomes its
 * text with its destination after it, an image its description. */
static void unlink_outward(cmark_node *doc)
{
	cmark_node **v = NULL;
	size_t n = 0, cap = 0;
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(node);
		if (ev == CMARK_EVENT_ENTER && (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE)) {
			const char *url = cmark_node_get_url(node);
			if (t == CMARK_NODE_LINK && url && url[0] == '#')
				continue; /* a place in the page itself */
			v = xgrow(v, &cap, n + 1, sizeof *v);
			v[n++] = node;
		}
	}
	cmark_iter_free(it);
	/* innermost first, so that a node is moved before its parent goes */
	for (size_t i = n; i-- > 0;) {
		cmark_node *node = v[i];
		bool image = cmark_node_get_type(node) == CMARK_NODE_IMAGE;
		const char *url = cmark_node_get_url(node);
		if (image) {
			cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
			cmark_node_set_literal(t, "[image: ");
			cmark_node_insert_before(node, t);
		}
		cmark_node *c;
		while ((c = cmark_node_first_child(node)))
			cmark_node_insert_before(node, c);
		struct buf tail = {0};
		buf_printf(&tail, image ? "]" : " (%s)", url ? url : "");
		cmark_node *t = cmark_node_new(image ? CMARK_NODE_TEXT : CMARK_NODE_CODE);
		cmark_node_set_literal(t, image ? tail.s : url ? url : "");
		if (!image) {
			cmark_node *open = cmark_node_new(CMARK_NODE_TEXT), *close = cmark_node_new(CMARK_NODE_TEXT);
			cmark_node_set_literal(open, " (");
			cmark_node_set_literal(close, ")");
			cmark_node_insert_before(node, open);
			cmark_node_insert_before(node, t);
			cmark_node_insert_before(node, close);
		} else {
			cmark_node_insert_before(node, t);
		}
		buf_free(&tail);
		cmark_node_free(node);
	}
	free(v);
}

/* A traced number that other places of the evidence also hold: the
 * reviewer should check that the first is the one the sentence means. */
static bool ambiguous(const struct ledger_entry *e)
{
	return e->kind == LG_TRACED && e->n_refs > 1;
}

static void put_item_open(struct buf *b, const struct item *it, size_t i, bool in_link)
{
	const struct ledger_entry *e = it->e;
	const char *cls = ambiguous(e) ? "traced amb" : styles[e->kind].cls;
	if (in_link)
		buf_printf(b, "<span class=\"item k-%s\" id=\"i%zu\" data-i=\"%zu\" tabindex=\"0\" role=\"button\" title=\"", cls,
			   i, i);
	else
		buf_printf(b, "<a class=\"item k-%s\" id=\"i%zu\" data-i=\"%zu\" href=\"#r%zu\" title=\"", cls, i, i, i);
	put_escs(b, item_word(e));
	buf_puts(b, ": ");
	put_escs(b, e->source);
	buf_puts(b, "\">");
}

static void put_badge(struct buf *b, const struct item *it, size_t i, bool in_link)
{
	const struct ledger_entry *e = it->e;
	buf_printf(b, "<%s class=\"badge k-%s\" id=\"i%zu\" data-i=\"%zu\" ", in_link ? "span" : "a", styles[e->kind].cls,
		   i, i);
	if (in_link)
		buf_puts(b, "tabindex=\"0\" role=\"button\"");
	else
		buf_printf(b, "href=\"#r%zu\"", i);
	buf_puts(b, " title=\"");
	put_escs(b, e->source);
	buf_puts(b, "\">");
	put_escs(b, e->kind == LG_FAILED ? "FAILED" : item_word(e));
	if (e->kind == LG_FAILED) {
		buf_puts(b, ": ");
		put_escs(b, e->claim);
	}
	buf_printf(b, "</%s>", in_link ? "span" : "a");
}

/* Reads an index written after a sentinel; advances *p past S_END. */
static bool sentinel_index(const char **p, const char *end, size_t *i)
{
	char *q;
	unsigned long v = strtoul(*p, &q, 10);
	if (q == *p || (size_t)(end - q) < 3 || memcmp(q, S_END, 3) != 0)
		return false;
	*i = (size_t)v;
	*p = q + 3;
	return true;
}

/* Copies cmark's HTML of one block, turning sentinels into marks.  In a
 * tag (an attribute: cmark never writes text there, but be safe) a
 * sentinel is dropped; inside a link a mark is a <mark>, not a link. */
static void put_marked_html(struct render *r, const char *html, size_t block)
{
	const char *p = html, *end = html + strlen(html);
	bool in_tag = false;
	int in_link = 0;
	size_t open_item = SIZE_MAX;
	while (p < end) {
		if (*p == '<') {
			in_tag = true;
			if (p[1] == 'a' && (p[2] == ' ' || p[2] == '>'))
				in_link++;
			else if (strncmp(p, "</a>", 4) == 0 && in_link)
				in_link--;
		} else if (*p == '>') {
			in_tag = false;
		}
		if (end - p >= 3 && (unsigned char)p[0] == 0xEE && (unsigned char)p[1] == 0x80 &&
		    (unsigned char)p[2] >= 0x80 && (unsigned char)p[2] <= 0x83) {
			unsigned char k = (unsigned char)p[2];
			p += 3;
			size_t i;
			if (k == 0x82) {
				if (open_item != SIZE_MAX && !in_tag)
					buf_printf(&r->out, "<span class=\"vh\"> (%s%s)</span>%s", item_word(r->items[open_item].e),
						   ambiguous(r->items[open_item].e) ? ", ambiguous" : "",
						   r->items[open_item].as_mark ? "</span>" : "</a>");
				open_item = SIZE_MAX;
				continue;
			}
			if ((k == 0x80 || k == 0x83) && sentinel_index(&p, end, &i) && i < r->n && !in_tag &&
			    r->items[i].block == block && !r->items[i].placed) {
				r->items[i].placed = true;
				r->items[i].as_mark = in_link > 0;
				if (k == 0x80) {
					put_item_open(&r->out, &r->items[i], i, in_link > 0);
					open_item = i;
				} else {
					put_badge(&r->out, &r->items[i], i, in_link > 0);
				}
			}
			continue;
		}
		buf_putc(&r->out, *p++);
	}
	/* a close lost with text cmark did not keep (raw HTML): the mark
	 * still ends inside its block */
	if (open_item != SIZE_MAX)
		buf_puts(&r->out, r->items[open_item].as_mark ? "</span>" : "</a>");
}

/* ---- the evidence of an item ------------------------------------------ */

/* Longest run of file lines quoted for one reference: a snippet or an
 * excerpt longer than this is cut, with the count of lines left out. */
#define QUOTE_MAX_LINES 40

static const struct textfile *ref_file(const char *path)
{
	if (strncmp(path, "evidence/", 9) == 0) {
		const struct evfile *ev = course_evidence(path);
		return ev->state == LOAD_OK ? &ev->ev.tf : NULL;
	}
	const struct program *p = course_program(path);
	return p->state == LOAD_OK ? &p->tf : NULL;
}

static void put_ref(struct buf *b, const struct ledger_ref *ref)
{
	buf_puts(b, "<div class=\"ref\"><p class=\"where\"><code>");
	put_escs(b, ref->path);
	if (ref->line_end > ref->line)
		buf_printf(b, ":%zu-%zu", ref->line, ref->line_end);
	else if (ref->col)
		buf_printf(b, ":%zu:%zu", ref->line, ref->col);
	else
		buf_printf(b, ":%zu", ref->line);
	buf_puts(b, "</code>");
	if (ref->note) {
		buf_puts(b, " ");
		put_escs(b, ref->note);
	}
	buf_puts(b, "</p>");
	const struct textfile *tf = ref_file(ref->path);
	if (!tf || ref->line == 0 || ref->line > tf->n_lines) {
		buf_puts(b, "<p>(the file cannot be quoted)</p></div>");
		return;
	}
	buf_puts(b, "<pre class=\"evline\">");
	size_t last = ref->line_end <= tf->n_lines ? ref->line_end : tf->n_lines;
	size_t shown = last - ref->line + 1 > QUOTE_MAX_LINES ? QUOTE_MAX_LINES : last - ref->line + 1;
	for (size_t k = ref->line; k < ref->line + shown; k++) {
		size_t len;
		const char *s = textfile_line(tf, k, &len);
		buf_printf(b, "<span class=\"ln\">%zu</span>", k);
		if (k == ref->line && ref->col >= 1 && ref->col - 1 + ref->len <= len && ref->len) {
			put_esc(b, s, ref->col - 1);
			buf_puts(b, "<strong class=\"tok\">");
			put_esc(b, s + ref->col - 1, ref->len);
			buf_puts(b, "</strong>");
			put_esc(b, s + ref->col - 1 + ref->len, len - (ref->col - 1 + ref->len));
		} else {
			put_esc(b, s, len);
		}
		buf_putc(b, '\n');
	}
	if (shown < last - ref->line + 1)
		buf_printf(b, "<span class=\"ln\"></span>... %zu more lines\n", last - ref->line + 1 - shown);
	buf_puts(b, "</pre></div>");
}

/* A diagnostic; the list at the top has the anchor (id), the copy in an
 * item's row none (ids are unique). */
static void put_diag(struct buf *b, const struct rdiag *g, size_t i, bool anchor)
{
	buf_printf(b, "<div class=\"diag %s\"", g->error ? "err" : "warn");
	if (anchor)
		buf_printf(b, " id=\"d%zu\"", i);
	buf_puts(b, "><p class=\"msg\"><strong>");
	put_escs(b, g->head);
	buf_puts(b, "</strong></p>");
	if (g->body && *g->body) {
		buf_puts(b, "<pre class=\"diagtext\">");
		put_escs(b, g->body);
		buf_puts(b, "</pre>");
	}
	if (g->hint) {
		buf_puts(b, "<p class=\"hint\"><span class=\"lbl\">hint:</span> ");
		put_escs(b, g->hint);
		buf_puts(b, "</p>");
	}
	buf_puts(b, "</div>");
}

/* One row of an item's pairs table: what the page says beside what it
 * rests on.  The same cells fill the evidence pane when JavaScript runs. */
static void put_row(struct render *r, size_t i)
{
	struct buf *b = &r->out;
	const struct ledger_entry *e = r->items[i].e;
	const char *cls = styles[e->kind].cls;
	buf_printf(b, "<tr id=\"r%zu\" class=\"kind-%s\" data-i=\"%zu\" data-kind=\"%s\" data-at=\"%zu:%zu\">", i, cls, i,
		   ledger_kind_name(e->kind), e->line, e->col);
	buf_printf(b, "<td class=\"kind\"><span class=\"sw k-%s\"></span>", cls);
	put_escs(b, item_word(e));
	buf_printf(b, "</td><td class=\"claim\"><a href=\"#i%zu\">", i);
	put_escs(b, e->claim);
	buf_printf(b, "</a> <span class=\"at\">line %zu:%zu</span></td><td class=\"src\">", e->line, e->col);
	put_escs(b, e->source);
	buf_puts(b, "</td><td class=\"ev\">");
	if (e->detail) {
		buf_puts(b, "<ul class=\"detail\">");
		const char *p = e->detail;
		for (;;) {
			const char *semi = strstr(p, "; ");
			buf_puts(b, "<li>");
			put_esc(b, p, semi ? (size_t)(semi - p) : strlen(p));
			buf_puts(b, "</li>");
			if (!semi)
				break;
			p = semi + 2;
		}
		buf_puts(b, "</ul>");
	}
	for (size_t k = 0; k < e->n_refs; k++)
		put_ref(b, &e->refs[k]);
	for (size_t d = 0; d < r->diags.n; d++)
		if (r->diags.v[d].owner == (long)i)
			put_diag(b, &r->diags.v[d], d, false);
	buf_puts(b, "</td></tr>\n");
}

/* The pairs table of a block's items [from, to) (block SIZE_MAX: the
 * items outside every block, wherever they sort). */
static void put_pairs(struct render *r, size_t block, size_t from, size_t to)
{
	bool any = false;
	for (size_t i = from; i < to && !any; i++)
		any = r->items[i].block == block;
	if (!any)
		return;
	buf_puts(&r->out, "<table class=\"pairs\"><caption>What this block claims and its evidence</caption>"
			  "<thead><tr><th scope=\"col\">kind</th><th scope=\"col\">the page says</th>"
			  "<th scope=\"col\">checked against</th><th scope=\"col\">evidence and details</th></tr></thead><tbody>\n");
	for (size_t i = from; i < to; i++)
		if (r->items[i].block == block)
			put_row(r, i);
	buf_puts(&r->out, "</tbody></table>\n");
}

/* ---- the body ----------------------------------------------------------- */

static void put_body(struct render *r)
{
	size_t len;
	char *md = marked_source(r, &len);
	cmark_gfm_core_extensions_ensure_registered();
	cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
	cmark_syntax_extension *table = cmark_find_syntax_extension("table");
	if (table)
		cmark_parser_attach_syntax_extension(parser, table);
	cmark_parser_feed(parser, md, len);
	cmark_node *doc = cmark_parser_finish(parser);
	free(md);
	unlink_outward(doc);
	cmark_llist *exts = cmark_parser_get_syntax_extensions(parser);
	/* each item belongs to the top-level block holding its line: the
	 * items are sorted by line and the blocks come in line order, so one
	 * sweep assigns them (linear, whatever the page's size) */
	size_t nb = 0;
	for (cmark_node *c = cmark_node_first_child(doc); c; c = cmark_node_next(c))
		nb++;
	r->bfirst = xcalloc(nb + 1, sizeof *r->bfirst);
	r->bend = xcalloc(nb + 1, sizeof *r->bend);
	size_t i = 0, k = 0;
	for (cmark_node *c = cmark_node_first_child(doc); c; c = cmark_node_next(c), k++) {
		size_t from = (size_t)cmark_node_get_start_line(c), to = (size_t)cmark_node_get_end_line(c);
		while (i < r->n && r->items[i].e->line < from)
			i++;
		r->bfirst[k] = i;
		for (; i < r->n && r->items[i].e->line <= to; i++)
			r->items[i].block = k;
		r->bend[k] = i;
	}
	k = 0;
	for (cmark_node *c = cmark_node_first_child(doc); c; c = cmark_node_next(c), k++) {
		char *html = cmark_render_html(c, CMARK_OPT_DEFAULT, exts);
		struct buf whole = r->out;
		r->out = (struct buf){0};
		put_marked_html(r, html, k);
		struct buf inner = r->out;
		r->out = whole;
		free(html);
		buf_printf(&r->out, "<div class=\"blk\" data-lines=\"%d-%d\">", cmark_node_get_start_line(c),
			   cmark_node_get_end_line(c));
		bool badges = false;
		for (size_t i = r->bfirst[k]; i < r->bend[k]; i++) {
			struct item *it = &r->items[i];
			if (it->block != k || it->placed)
				continue;
			if (!badges)
				buf_puts(&r->out, "<p class=\"badges\">");
			badges = true;
			put_badge(&r->out, it, i, false);
			buf_putc(&r->out, ' ');
			it->placed = true;
		}
		if (badges)
			buf_puts(&r->out, "</p>");
		if (inner.s)
			buf_append(&r->out, inner.s, inner.len);
		buf_free(&inner);
		put_pairs(r, k, r->bfirst[k], r->bend[k]);
		buf_puts(&r->out, "</div>\n");
	}
	/* items outside every block (the front matter, a place past the end) */
	bool other = false;
	for (size_t i = 0; i < r->n; i++)
		other |= r->items[i].block == SIZE_MAX;
	if (other) {
		buf_puts(&r->out, "<div class=\"blk\"><h2>Items outside the page's blocks</h2><p class=\"badges\">");
		for (size_t i = 0; i < r->n; i++)
			if (r->items[i].block == SIZE_MAX) {
				put_badge(&r->out, &r->items[i], i, false);
				buf_putc(&r->out, ' ');
				r->items[i].placed = true;
			}
		buf_puts(&r->out, "</p>");
		put_pairs(r, SIZE_MAX, 0, r->n);
		buf_puts(&r->out, "</div>\n");
	}
	free(r->bfirst);
	free(r->bend);
	cmark_parser_free(parser);
	cmark_node_free(doc);
}

/* ---- the header: the run and the gate's verdict ------------------------ */

static void put_field(struct buf *b, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	buf_puts(b, "<dt>");
	put_escs(b, name);
	buf_puts(b, "</dt><dd>");
	put_escs(b, value);
	buf_puts(b, "</dd>");
}

static void put_run(struct buf *b, const char *path)
{
	buf_puts(b, "<div class=\"run\"><h3>Run <code>");
	put_escs(b, path);
	buf_puts(b, "</code></h3>");
	const struct evfile *ev = course_evidence(path);
	if (ev->state != LOAD_OK) {
		buf_puts(b, "<p>This evidence file cannot be read: see the diagnostics.</p></div>");
		return;
	}
	buf_puts(b, "<dl>");
	static const char *const keys[][2] = {
		{"gpu", "GPU"}, {"driver", "driver"}, {"cuda", "CUDA"}, {"compute-capability", "compute capability"},
		{"build", "build line"}, {"run", "run line"}, {"captured", "date"}, {"commit", "commit"},
		{"dirty", "uncommitted changes"}, {"node", "node"}, {"exit", "exit"}, {"gpu-exclusive", "GPU exclusive"},
		{"repeats", "repeats"},
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		put_field(b, keys[i][1], evidence_get(&ev->ev, keys[i][0], NULL));
	const char *vol = evidence_get(&ev->ev, "volatile", NULL);
	put_field(b, "volatile places", vol ? (*vol ? vol : "none") : evidence_get(&ev->ev, "repeats", NULL) ? "none" : NULL);
	if (!vol && !evidence_get(&ev->ev, "repeats", NULL))
		put_field(b, "repeats", "1 (no repeats recorded: which numbers vary is unknown)");
	buf_puts(b, "</dl></div>");
}

static void put_counts(struct buf *b, const struct ledger *lg)
{
	buf_puts(b, "<ul class=\"counts\">");
	for (int k = 0; k < LG_KIND_COUNT; k++)
		buf_printf(b, "<li><span class=\"sw k-%s\"></span>%s %zu</li>", styles[k].cls, styles[k].word,
			   ledger_count(lg, (enum ledger_kind)k));
	buf_puts(b, "</ul>");
}

static void put_legend(struct buf *b)
{
	buf_puts(b, "<div class=\"legend\" role=\"region\" aria-labelledby=\"legend-h\"><h2 id=\"legend-h\">Legend</h2><ul>");
	for (int k = 0; k < LG_KIND_COUNT; k++)
		buf_printf(b, "<li><span class=\"item k-%s\">%s</span> %s</li>", styles[k].cls, styles[k].word,
			   styles[k].legend);
	buf_printf(b, "<li><span class=\"item k-%s\">%s</span> %s</li>", claim_style.cls, claim_style.word,
		   claim_style.legend);
	buf_puts(b, "<li><span class=\"item k-traced amb\">traced</span> a traced number that other places of the "
		    "evidence hold too: check that the first is the one the sentence means</li>");
	buf_puts(b, "</ul><p>Each kind has its own underline (solid, double, dashed, dotted, wavy) and its name "
		    "in the tables, so colour is never the only sign.  Select an item to see its evidence.</p>"
		    "<p class=\"ctl\"><label><input type=\"checkbox\" id=\"hide-skipped\"> hide skipped numbers</label> "
		    "<label class=\"js-only\"><input type=\"checkbox\" id=\"show-tables\"> show the tables under "
		    "each block</label></p></div>");
}

/* ---- the page ------------------------------------------------------------ */

static const char css[] =
	":root{--fg:#1a1a1a;--bg:#fff;--muted:#5a5a5a;--line:#c8c8c8}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:1rem/1.55 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);background:var(--bg)}\n"
	".top,.foot{padding:1rem 1.5rem;border-bottom:1px solid var(--line)}\n"
	".wrap{padding:0 1.5rem}#pane{display:none}\n"
	/* the evidence pane needs the script; without it the tables show the pairs */
	".js .wrap{display:grid;grid-template-columns:minmax(0,1fr) minmax(18rem,42%);gap:1.5rem}.js #pane{display:block}\n"
	".main{min-width:0;max-width:52rem}\n"
	"#pane{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;padding:1rem;"
	"border-left:3px solid var(--line);background:#fafafa}\n"
	"@media (max-width:60rem){.js .wrap{display:block;padding:0 1rem}#pane{position:sticky;bottom:0;max-height:45vh;"
	"border-left:0;border-top:3px solid var(--line);box-shadow:0 -2px 6px rgba(0,0,0,.15)}"
	"table.pairs{display:block;overflow-x:auto}}\n"
	"pre{overflow-x:auto;background:#f4f4f4;padding:.5rem;border:1px solid #ddd}\n"
	"code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.92em}\n"
	"dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem .8rem;margin:.3rem 0}\n"
	"dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}\n"
	".verdict{font-size:1.1rem;padding:.5rem .8rem;border:2px solid;display:inline-block}\n"
	".verdict.pass{border-color:#1b6e2a;background:#e8f5ea}.verdict.fail{border-color:#a4161a;background:#fbe9e9}\n"
	".counts{display:flex;flex-wrap:wrap;gap:.3rem 1rem;padding:0;list-style:none}\n"
	".sw{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:-.1em;border:1px solid #333}\n"
	/* one colour and one pattern per kind: colour is never the only sign */
	".item{color:inherit;text-decoration:none;padding:0 .1em;border-bottom:2px solid}\n"
	".k-traced{background:#dff3e3;border-color:#1b6e2a}.sw.k-traced{background:#1b6e2a}\n"
	".k-derived{background:#e0ebfa;border-bottom-style:double!important;border-bottom-width:4px!important;"
	"border-color:#1d4f91}.sw.k-derived{background:#1d4f91}\n"
	".k-cited{background:#efe4f7;border-bottom-style:dashed!important;border-color:#6a2c91}.sw.k-cited{background:#6a2c91}\n"
	".k-ext{background:#fbecd9;border-bottom-style:dotted!important;border-bottom-width:3px!important;"
	"border-color:#8a4b00}.sw.k-ext{background:#8a4b00}\n"
	".k-fact{background:#dcf1f1;border:1px solid #0e6464}.sw.k-fact{background:#0e6464}\n"
	".k-code{background:#ececec;border-color:#333}.sw.k-code{background:#333}\n"
	".k-row{background:#e6f0e0;border-color:#44622b}.sw.k-row{background:#44622b}\n"
	".k-claim{background:#fff6c8;border-left:4px solid #7a6400;border-bottom:0}.sw.k-claim{background:#7a6400}\n"
	".k-skipped{background:none;color:var(--muted);border-bottom:1px dotted #aaa;opacity:.75}"
	".sw.k-skipped{background:#fff}\n"
	".k-failed{background:#fbe3e3;border-bottom:0;text-decoration:underline wavy #a4161a;"
	"text-decoration-thickness:2px}.sw.k-failed{background:#a4161a}\n"
	"a.item.k-failed::before,span.item.k-failed::before{content:'\\2717\\00a0';font-weight:700;color:#a4161a}\n"
	""
	".item.amb::after{content:'?';font-size:.7em;vertical-align:super;font-weight:700;color:#1b6e2a}\n"
	".item:hover,.item:focus,.badge:focus{outline:2px solid #000;outline-offset:1px}\n"
	".item.sel,.badge.sel{outline:3px solid #000}\n"
	".badge{display:inline-block;font-size:.82em;padding:0 .4em;margin:.1em 0;border:1px solid #333;"
	"border-radius:3px;color:inherit;text-decoration:none}\n"
	".badges{margin:.6rem 0 .2rem}\n"
	"table.pairs{width:100%;border-collapse:collapse;font-size:.86em;margin:.4rem 0 1.2rem}\n"
	"table.pairs caption{text-align:left;font-weight:600;color:var(--muted)}\n"
	"table.pairs th,table.pairs td{border:1px solid var(--line);padding:.25rem .4rem;vertical-align:top;text-align:left}\n"
	"table.pairs pre{margin:.2rem 0;font-size:.95em}#pane pre{font-size:.8em;position:relative}#pane h2{font-size:1.15rem;margin:0 0 .3rem}#pane h3{margin:.2rem 0}\n"
	"tr:target{outline:3px solid #000}\n"
	".evline .ln{display:inline-block;min-width:3.5ch;color:var(--muted);user-select:none;margin-right:1ch;text-align:right}\n"
	"strong.tok{background:#ffe066;outline:1px solid #7a6400;font-weight:700}\n"
	".diag{border-left:4px solid #a4161a;padding:.2rem .6rem;margin:.4rem 0;background:#fff7f7}\n"
	".diag.warn{border-left-color:#8a4b00;background:#fffaf0}\n"
	".diagtext{font-size:.85em}.hint .lbl{font-weight:700}\n"
	".vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}\n"
	".js table.pairs{display:none}.js.tables table.pairs{display:table}\n"
	".js-only{display:none}.js .js-only{display:inline}\n"
	"body:has(#hide-skipped:checked) .item.k-skipped{background:none;border:0;color:inherit;opacity:1}\n"
	"body:has(#hide-skipped:checked) tr.kind-skipped,body:has(#hide-skipped:checked) .badge.k-skipped{display:none}\n"
	".legend ul{padding-left:1.2rem}.legend li{margin:.15rem 0}\n"
	"@media print{.js #pane,#pane,.ctl{display:none}.js .wrap,.wrap{display:block}"
	".js table.pairs,table.pairs{display:table!important}"
	"pre{white-space:pre-wrap}a{color:inherit}.item,.badge{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	"tr,.diag{break-inside:avoid}}\n";

static const char js[] =
	"(function(){var d=document,root=d.documentElement;root.classList.add('js');\n"
	"var body=d.getElementById('pane-body'),sel=null;\n"
	"function show(i){var row=d.getElementById('r'+i);if(!row)return;var c=row.cells;body.textContent='';\n"
	"var h=d.createElement('h3');h.textContent=c[0].textContent+': '+c[1].querySelector('a').textContent;body.appendChild(h);\n"
	"var at=d.createElement('p');at.className='at';at.textContent='page line '+row.getAttribute('data-at');body.appendChild(at);\n"
	"var s=d.createElement('p');s.className='src';s.textContent='checked against: '+c[2].textContent;body.appendChild(s);\n"
	"var ev=d.createElement('div');ev.className='evidence';ev.innerHTML=c[3].innerHTML;body.appendChild(ev);\n"
	"var tok=ev.querySelector('strong.tok');if(tok){var pre=tok.parentNode;pre.scrollLeft=Math.max(0,tok.offsetLeft-pre.clientWidth/2);}\n"
	"if(sel)sel.classList.remove('sel');sel=d.getElementById('i'+i);if(sel)sel.classList.add('sel');}\n"
	"function pick(t){return t&&t.closest?t.closest('.main .item[data-i], .main .badge[data-i]'):null;}\n"
	"d.addEventListener('click',function(e){var t=pick(e.target);if(!t){var a=e.target.closest&&e.target.closest('a.explains');"
	"if(!a)return;e.preventDefault();var i=a.getAttribute('href').slice(2);show(i);"
	"var m=d.getElementById('i'+i);if(m){m.scrollIntoView({block:'center'});m.focus();}return;}"
	"e.preventDefault();show(t.getAttribute('data-i'));});\n"
	"d.addEventListener('keydown',function(e){if(e.key!=='Enter'&&e.key!==' ')return;var t=pick(e.target);"
	"if(!t)return;e.preventDefault();show(t.getAttribute('data-i'));});\n"
	"var st=d.getElementById('show-tables');if(st)st.addEventListener('change',function(){"
	"root.classList.toggle('tables',st.checked);});})();\n";

static void put_head(struct buf *b, const char *title)
{
	buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
		    "script-src 'unsafe-inline'\">\n<title>");
	put_escs(b, title);
	buf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n", css);
}

static void put_verdict(struct buf *b, const char *page, const struct review_verdict *v)
{
	bool pass = v->errors == 0;
	buf_printf(b, "<p class=\"verdict %s\" role=\"status\"><strong>%s</strong>: the technical review gate, "
		      "<code>coursecheck verify --as published ",
		   pass ? "pass" : "fail", pass ? "PASSES" : "FAILS");
	put_escs(b, page);
	buf_printf(b, "</code>, %s", pass ? "finds nothing wrong" : "finds ");
	if (!pass)
		buf_printf(b, "%zu error%s", v->errors, v->errors == 1 ? "" : "s");
	buf_puts(b, "</p>");
}

char *review_render(const char *relpath, const struct ledger *lg, const char *diags, const struct review_verdict *v,
		    size_t *len)
{
	struct render r = {.page = relpath, .lg = lg};
	struct textfile tf;
	char *fs;
	const char *why;
	bool have_text = repo_resolve(relpath, &fs, &why) == REPO_OK && textfile_read(fs, relpath, &tf, &why) == 0;
	free(fs);
	if (!have_text)
		textfile_from_memory("", 0, relpath, &tf);
	r.tf = &tf;
	const struct ledger_entry **sorted = ledger_sorted(lg);
	r.n = lg->n;
	r.items = xcalloc(r.n ? r.n : 1, sizeof *r.items);
	for (size_t i = 0; i < r.n; i++)
		r.items[i].e = sorted[i];
	free(sorted);
	rdiags_parse(&r.diags, diags, relpath);
	const struct ledger_entry **ev = xmalloc((r.n ? r.n : 1) * sizeof *ev);
	for (size_t i = 0; i < r.n; i++)
		ev[i] = r.items[i].e;
	rdiags_attach(&r.diags, ev, r.n);
	free(ev);
	place_items(&r);

	struct buf *b = &r.out;
	const char *title = lg->page.title ? lg->page.title : relpath;
	char *doc_title = xasprintf("Review: %s", title);
	put_head(b, doc_title);
	free(doc_title);
	buf_puts(b, "<body>\n<div class=\"top\" role=\"banner\"><p>Technical review of <code>");
	put_escs(b, relpath);
	buf_puts(b, "</code></p><h1>");
	put_escs(b, title);
	buf_puts(b, "</h1><dl>");
	put_field(b, "lesson", lg->page.lesson);
	put_field(b, "status", lg->page.status ? lg->page.status : "(no front matter)");
	buf_puts(b, "</dl>");
	put_verdict(b, relpath, v);
	put_counts(b, lg);
	for (size_t i = 0; i < lg->page.n_evidence; i++)
		put_run(b, lg->page.evidence[i]);
	if (r.diags.n) {
		buf_printf(b, "<div class=\"found\"><h2>What the gate found (%zu)</h2><ol>", r.diags.n);
		for (size_t i = 0; i < r.diags.n; i++) {
			buf_puts(b, "<li>");
			put_diag(b, &r.diags.v[i], i, true);
			if (r.diags.v[i].owner >= 0)
				buf_printf(b, "<p><a class=\"explains\" href=\"#r%ld\">the item it explains</a></p>", r.diags.v[i].owner);
			buf_puts(b, "</li>");
		}
		buf_puts(b, "</ol></div>");
	}
	put_legend(b);
	buf_puts(b, "</div>\n<div class=\"wrap\">\n<div id=\"page\" class=\"main\" role=\"main\">\n");
	if (!have_text)
		buf_puts(b, "<p>The page cannot be read: see the diagnostics above.</p>");
	put_body(&r);
	buf_puts(b, "</div>\n<div id=\"pane\" role=\"complementary\" aria-labelledby=\"pane-h\"><h2 id=\"pane-h\">Evidence</h2>"
		    "<div id=\"pane-body\" aria-live=\"polite\"><p>Select a marked item of the page to see the evidence it "
		    "rests on.  Without JavaScript, each block's items and their evidence are in the table under it.</p>"
		    "</div></div>\n</div>\n<div class=\"foot\" role=\"contentinfo\"><p>Written by <code>coursecheck review</code>; "
		    "<a href=\"index.html\">all pages</a>.</p></div>\n");
	buf_printf(b, "<script>\n%s</script>\n</body>\n</html>\n", js);
	rdiags_free(&r.diags);
	free(r.items);
	textfile_free(&tf);
	*len = r.out.len;
	return buf_detach(&r.out);
}

/* ---- the command ---------------------------------------------------------- */

struct index_row {
	char *page, *file, *title, *status;
	struct review_verdict v;
	size_t counts[LG_KIND_COUNT];
	bool readable;
};

/* pages/day31-scan-1.md -> day31-scan-1.html; other paths keep their
 * folders in the name: programs/L/README.md -> programs-L-README.html. */
static char *review_name(const char *rel)
{
	const char *s = strncmp(rel, "pages/", 6) == 0 ? rel + 6 : rel;
	size_t n = strlen(s);
	if (n > 3 && strcmp(s + n - 3, ".md") == 0)
		n -= 3;
	struct buf b = {0};
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		buf_putc(&b, c == '/' || c < 0x20 || c == '\\' || c == ':' ? '-' : (char)c);
	}
	buf_puts(&b, ".html");
	return buf_detach(&b);
}

static void put_index(struct buf *b, const struct index_row *rows, size_t n)
{
	put_head(b, "Review: every page");
	buf_puts(b, "<body>\n<div class=\"top\" role=\"banner\"><h1>Technical review: every page</h1>"
		    "<p>Each page checked by the gate, <code>coursecheck verify --as published</code>, with what it "
		    "claims.  Open a page to see every claim beside its evidence.</p></div>\n<div class=\"index\" role=\"main\">"
		    "<table class=\"pairs\"><caption>Pages</caption><thead><tr><th scope=\"col\">page</th>"
		    "<th scope=\"col\">status</th><th scope=\"col\">gate</th>");
	for (int k = 0; k < LG_KIND_COUNT; k++)
		buf_printf(b, "<th scope=\"col\"><span class=\"sw k-%s\"></span>%s</th>", styles[k].cls, styles[k].word);
	buf_puts(b, "</tr></thead><tbody>\n");
	for (size_t i = 0; i < n; i++) {
		const struct index_row *r = &rows[i];
		buf_puts(b, "<tr><td>");
		if (r->readable) {
			buf_puts(b, "<a href=\"");
			put_escs(b, r->file);
			buf_puts(b, "\">");
			put_escs(b, r->title ? r->title : r->page);
			buf_puts(b, "</a><br><code>");
			put_escs(b, r->page);
			buf_puts(b, "</code>");
		} else {
			put_escs(b, r->page);
			buf_puts(b, " (cannot be read)");
		}
		buf_puts(b, "</td><td>");
		put_escs(b, r->status ? r->status : "-");
		if (r->v.errors)
			buf_printf(b, "</td><td class=\"fail\">FAILS: %zu error%s", r->v.errors, r->v.errors == 1 ? "" : "s");
		else
			buf_puts(b, "</td><td class=\"pass\">passes");
		buf_puts(b, "</td>");
		for (int k = 0; k < LG_KIND_COUNT; k++)
			buf_printf(b, "<td>%zu</td>", r->counts[k]);
		buf_puts(b, "</tr>\n");
	}
	buf_puts(b, "</tbody></table></div>\n</body>\n</html>\n");
}

/* The one place review-write is raised: what could not be written and why. */
static void write_failed(const char *path, const char *what, char *why)
{
	diag_report(D_REVIEW_WRITE, (struct diag_loc){.path = path}, "cannot %s: %s", what, why);
	free(why);
}

static int write_out(const char *dir, const char *name, const char *text, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *why = NULL;
	int rc = review_write_file(path, text, len, &why);
	if (rc != 0)
		write_failed(path, "write the review", why);
	free(path);
	return rc;
}

/* Names on the command line are repository paths; one given from the
 * current directory inside the repository is made relative to its root
 * (as verify reads them). */
static char *operand_path(const char *arg)
{
	size_t n = strlen(repo_root());
	if (arg[0] == '/' && strncmp(arg, repo_root(), n) == 0 && arg[n] == '/')
		return xstrdup(arg + n + 1);
	return xstrdup(arg);
}

/* Every page of the course, as verify checks them: pages, then the
 * program READMEs. */
static size_t course_review_pages(char ***out)
{
	char **names;
	size_t n = course_pages(&names);
	char **lessons;
	size_t nl = course_lessons(&lessons);
	names = xrealloc(names, (n + nl + 1) * sizeof *names);
	for (size_t i = 0; i < nl; i++) {
		char *readme = xasprintf("programs/%s/README.md", lessons[i]);
		char *fs;
		const char *why;
		if (repo_resolve(readme, &fs, &why) == REPO_OK && access(fs, F_OK) == 0)
			names[n++] = readme;
		else
			free(readme);
		free(fs);
		free(lessons[i]);
	}
	free(lessons);
	*out = names;
	return n;
}

/* Checks and renders one page; returns whether its review was written. */
static bool review_one(const char *rel, const char *dir, struct index_row *row, int *status)
{
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem = open_memstream(&text, &text_len);
	if (!mem) { /* only for lack of memory: fatal, as in util.c */
		fprintf(stderr, "coursecheck: out of memory (open_memstream: %s)\n", strerror(errno));
		abort();
	}
	size_t e0 = diag_count(DIAG_ERROR), w0 = diag_count(DIAG_WARNING);
	diag_init(mem, false);
	struct check_opts opts = {.strict = true}; /* the gate */
	struct ledger lg = {0};
	int rc = check_page(rel, &opts, &lg);
	bool written = false;
	fclose(mem);
	cli_setup_diag();
	fputs(text ? text : "", stderr);
	row->page = xstrdup(rel);
	row->file = review_name(rel);
	row->v = (struct review_verdict){diag_count(DIAG_ERROR) - e0, diag_count(DIAG_WARNING) - w0};
	row->readable = rc == 0;
	if (rc == 0) {
		row->title = lg.page.title ? xstrdup(lg.page.title) : NULL;
		row->status = lg.page.status ? xstrdup(lg.page.status) : NULL;
		for (int k = 0; k < LG_KIND_COUNT; k++)
			row->counts[k] = ledger_count(&lg, (enum ledger_kind)k);
		size_t len;
		char *html = review_render(rel, &lg, text ? text : "", &row->v, &len);
		if (write_out(dir, row->file, html, len) != 0)
			*status = 2;
		else
			written = true;
		free(html);
	} else {
		*status = 2;
	}
	ledger_free(&lg);
	free(text);
	return written;
}

static const char review_usage[] =
	"usage: coursecheck review [--root DIR] [--output DIR] [PAGE...]\n"
	"  Writes one self-contained HTML file per page, every claim marked in place\n"
	"  beside its evidence, and an index.html, into DIR (default build/review).\n"
	"  Pages are checked as by 'verify --as published' (the technical review gate);\n"
	"  with no PAGE: every page and program README of the course.\n";

int cli_review(int argc, char **argv)
{
	cli_setup_diag();
	static const struct option longs[] = {
		{"root", required_argument, NULL, 'r'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *root = ".", *out = "build/review";
	optind = 1;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "+ho:", longs, NULL)) != -1) {
		switch (ch) {
		case 'r':
			root = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(review_usage, stdout);
			return 0;
		default:
			fprintf(stderr, "coursecheck review: unknown option '%s'\n%s", argv[optind - 1], review_usage);
			return 2;
		}
	}
	char *why = NULL;
	if (review_make_dirs(out, &why) != 0) {
		write_failed(out, "make the review folder", why);
		cli_release();
		return 2;
	}
	if (repo_open(root) != 0) {
		fprintf(stderr, "coursecheck review: cannot open repository '%s': %s\n", root, strerror(errno));
		return 2;
	}
	char **pages;
	size_t n;
	if (optind < argc) {
		n = (size_t)(argc - optind);
		pages = xmalloc(n * sizeof *pages);
		for (size_t i = 0; i < n; i++)
			pages[i] = operand_path(argv[optind + (int)i]);
	} else {
		n = course_review_pages(&pages);
	}
	struct index_row *rows = xcalloc(n ? n : 1, sizeof *rows);
	int status = 0;
	size_t written = 0;
	for (size_t i = 0; i < n; i++)
		written += review_one(pages[i], out, &rows[i], &status);
	struct buf index = {0};
	put_index(&index, rows, n);
	if (write_out(out, "index.html", index.s, index.len) != 0)
		status = 2;
	buf_free(&index);
	size_t failing = 0;
	for (size_t i = 0; i < n; i++) {
		failing += rows[i].v.errors > 0;
		free(rows[i].page);
		free(rows[i].file);
		free(rows[i].title);
		free(rows[i].status);
		free(pages[i]);
	}
	free(rows);
	free(pages);
	size_t errors = diag_count(DIAG_ERROR), warnings = diag_count(DIAG_WARNING);
	fprintf(stderr, "coursecheck review: %zu of %zu page%s written to %s/, %zu failing the gate, %zu check%s: "
			"%zu error%s, %zu warning%s\n",
		written, n, n == 1 ? "" : "s", out, failing, diag_checks(), diag_checks() == 1 ? "" : "s", errors,
		errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	cli_release();
	return status ? status : errors ? 1 : 0;
}

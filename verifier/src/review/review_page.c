/* review_page.c - review_render(), see review.h.
 *
 * How an item is marked in place: cmark-gfm renders the page, so the
 * marks cannot be written into its HTML afterwards by position.  Instead
 * the page's text gets a sentinel before and after each claim (private
 * use characters, which Markdown reads as letters; the page's own are
 * replaced), is parsed and rendered, and the sentinels in the HTML are
 * replaced by the marks.  Each sentinel carries the page's key (the
 * first 16 hex digits of its SHA-256) before its S_END: a character
 * reference (&#xE000;) gives the page the characters themselves, but no
 * page can hold its own hash, so a sentinel without the key is the
 * page's own and shows as U+FFFD.  A claim is marked this way only when the page's
 * bytes at its place are the claim itself, so a sentinel never lands
 * inside an entity, a marker or a code block; other items (code blocks,
 * rows, claims the ledger places by line only) get a badge before their
 * block.
 */
#include "review.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "approvals.h"
#include "course.h"
#include "evsig.h"
#include "frontmatter.h"
#include "repo.h"
#include "review_diags.h"
#include "review_diff.h"
#include "review_html.h"
#include "sha256.h"
#include "textfile.h"
#include "util.h"

/* ---- the page with its marks ------------------------------------------ */

#define S_OPEN "\xEE\x80\x80"  /* U+E000, then the item's index, '.', the key, S_END */
#define S_END "\xEE\x80\x81"   /* U+E001 */
#define S_CLOSE "\xEE\x80\x82" /* U+E002, then the key, S_END */
#define S_BADGE "\xEE\x80\x83" /* U+E003, then the index, '.', the key, S_END */
#define KEY_LEN 16

enum place { PL_SPAN, PL_INLINE_BADGE, PL_BLOCK };

struct item {
	const struct ledger_entry *e;
	enum place place;
	size_t off, span; /* in the page's text */
	bool placed;      /* its mark made it into the HTML */
	bool as_mark;     /* inside a link: a focusable <span>, not a link of its own */
	size_t block;     /* the top-level block it belongs to, or SIZE_MAX */
	bool finding;     /* failed, or explained by a diagnostic: next/previous finding stops here */
	char id[REVIEW_ITEM_ID_MAX];      /* stable: review_item_id_of() */
	struct review_approval approval; /* the hook's: filled by the approvals lookup, when one is set */
};

/* ---- approvals and item ids (review.h) ---------------------------------- */

static review_approval_fn approval_fn;
static void *approval_ctx;

void review_set_approvals(review_approval_fn fn, void *ctx)
{
	approval_fn = fn;
	approval_ctx = ctx;
}

bool review_item_approvable(const struct ledger_entry *e)
{
	return approvals_kind_gated(e->kind);
}

void review_item_id_of(const struct ledger_entry *e, size_t nth, char buf[REVIEW_ITEM_ID_MAX])
{
	char kind[24];
	const char *k = ledger_kind_name(e->kind);
	size_t n = 0;
	for (; k[n] && n + 1 < sizeof kind; n++)
		kind[n] = (char)(k[n] >= 'A' && k[n] <= 'Z' ? k[n] - 'A' + 'a' : k[n] == '?' ? 'x' : k[n]);
	kind[n] = '\0';
	if (nth >= 2)
		snprintf(buf, REVIEW_ITEM_ID_MAX, "%s-%zu-%zu-%zu", kind, e->line, e->col, nth);
	else
		snprintf(buf, REVIEW_ITEM_ID_MAX, "%s-%zu-%zu", kind, e->line, e->col);
}

/* Where links to the course's files start, seen from the review folder
 * ("../../" for build/review); "" until review_set_files_prefix. */
static char *files_prefix;

void review_set_files_prefix(const char *prefix)
{
	free(files_prefix);
	files_prefix = prefix ? xstrdup(prefix) : NULL;
}

struct render {
	const char *page;
	size_t *bfirst, *bend; /* the items of top-level block k: [bfirst[k], bend[k]) */
	const struct textfile *tf;
	const struct ledger *lg;
	struct item *items;
	size_t n;
	struct review_diags diags;
	struct buf out;
	char key[KEY_LEN + 1]; /* the page's key: see the head of this file */
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

static bool token_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == ',' ||
	       c == '_';
}

/* The place of claim on the line [lo, lo + ll) at or after from, as a
 * whole token (no letter, digit, '.' or ',' on either side), or SIZE_MAX.
 * Two cells or words of one line with the same text are two places: the
 * second item of that text takes the next one, not the first again. */
static size_t next_place(const struct textfile *tf, size_t lo, size_t ll, size_t from, const char *claim, size_t cl)
{
	size_t end = lo + ll;
	for (size_t at = from < lo ? lo : from; cl && at + cl <= end; at++) {
		const char *hit = memmem(tf->data + at, end - at, claim, cl);
		if (!hit)
			return SIZE_MAX;
		at = (size_t)(hit - tf->data);
		bool left = at == lo || !token_char(tf->data[at - 1]);
		bool right = at + cl == end || !token_char(tf->data[at + cl]);
		if (left && right)
			return at;
	}
	return SIZE_MAX;
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
			/* a place already taken (a cell of a row with repeated
			 * values, given the first one's column) moves on to the
			 * next place on the line with the same text */
			if (off < covered && cl == e->span && memcmp(r->tf->data + off, e->claim, cl) == 0) {
				size_t next = next_place(r->tf, lo, ll, covered, e->claim, cl);
				off = next == SIZE_MAX ? off : next;
			}
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

/* Where a sentinel goes in the page's text. */
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

/* The page's Markdown with the sentinels in, front matter blanked (as
 * page.c does, so that line numbers stay the file's). */
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
			buf_printf(&b, "%s%s%s", S_CLOSE, r->key, S_END);
		else
			buf_printf(&b, "%s%zu.%s%s", ev[k].order == 2 ? S_OPEN : S_BADGE, ev[k].item, r->key, S_END);
	}
	put_source(&b, r->tf, at, r->tf->len, skip);
	free(ev);
	*len = b.len;
	return b.s ? buf_detach(&b) : xstrdup("");
}

/* Every node of doc of type a or b, in document order (a parent before
 * its children), collected before the caller changes the tree; *out
 * malloc'd (NULL when none), returns the count. */
static size_t nodes_of(cmark_node *doc, cmark_node_type a, cmark_node_type b, cmark_node ***out)
{
	cmark_node **v = NULL;
	size_t n = 0, cap = 0;
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(node);
		if (ev == CMARK_EVENT_ENTER && (t == a || t == b)) {
			v = xgrow(v, &cap, n + 1, sizeof *v);
			v[n++] = node;
		}
	}
	cmark_iter_free(it);
	*out = v;
	return n;
}

/* Links and images would load or lead out of the file: a link becomes its
 * text with its destination after it, an image its description. */
static void unlink_outward(cmark_node *doc)
{
	cmark_node **v;
	size_t n = nodes_of(doc, CMARK_NODE_LINK, CMARK_NODE_IMAGE, &v);
	/* innermost first, so that a node is moved before its parent goes */
	for (size_t i = n; i-- > 0;) {
		cmark_node *node = v[i];
		bool image = cmark_node_get_type(node) == CMARK_NODE_IMAGE;
		const char *url = cmark_node_get_url(node);
		if (!image && url && url[0] == '#')
			continue; /* a place in the page itself */
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

/* The classes a mark has besides its kind: a finding, an approval. */
static const char *mark_extra(const struct item *it)
{
	static const char *const v[2][3] = {{"", " appr-approved", " appr-reopened"},
					   {" finding", " finding appr-approved", " finding appr-reopened"}};
	unsigned st = (unsigned)it->approval.state;
	return v[it->finding][st < 3 ? st : 0];
}

/* Raw HTML in the page (its annotations, <!-- = EXPR --> and the like,
 * and any tag) is shown as the text it is, in <code class="annot">, where
 * cmark would leave it out: a reviewer reads what the page's author
 * wrote, and nothing of it is ever live HTML. */
static void show_raw_html(cmark_node *doc)
{
	cmark_node **v;
	size_t n = nodes_of(doc, CMARK_NODE_HTML_INLINE, CMARK_NODE_HTML_BLOCK, &v);
	for (size_t i = 0; i < n; i++) {
		bool block = cmark_node_get_type(v[i]) == CMARK_NODE_HTML_BLOCK;
		const char *lit = cmark_node_get_literal(v[i]);
		size_t len = lit ? strlen(lit) : 0;
		while (block && len && lit[len - 1] == '\n')
			len--;
		struct buf h = {0};
		buf_puts(&h, block ? "<p class=\"annot-blk\"><code class=\"annot\">" : "<code class=\"annot\">");
		review_esc(&h, lit ? lit : "", len);
		buf_puts(&h, block ? "</code></p>\n" : "</code>");
		cmark_node *c = cmark_node_new(block ? CMARK_NODE_CUSTOM_BLOCK : CMARK_NODE_CUSTOM_INLINE);
		cmark_node_set_on_enter(c, h.s);
		cmark_node_set_on_exit(c, "");
		cmark_node_replace(v[i], c);
		cmark_node_free(v[i]);
		buf_free(&h);
	}
	free(v);
}

static void put_item_open(struct buf *b, const struct item *it, size_t i, bool in_link)
{
	const struct ledger_entry *e = it->e;
	const char *cls = review_style_of(e->kind)->cls;
	if (in_link)
		buf_printf(b, "<span class=\"item k-%s%s\" data-id=\"%s\" id=\"i%zu\" data-i=\"%zu\" tabindex=\"0\" "
			      "role=\"button\" title=\"", cls, mark_extra(it), it->id, i, i);
	else
		buf_printf(b, "<a class=\"item k-%s%s\" data-id=\"%s\" id=\"i%zu\" data-i=\"%zu\" href=\"#r%zu\" title=\"", cls,
			   mark_extra(it), it->id, i, i, i);
	review_escs(b, review_item_word(e));
	buf_puts(b, ": ");
	review_escs(b, e->source);
	buf_puts(b, "\">");
}

static void put_badge(struct buf *b, const struct item *it, size_t i, bool in_link)
{
	const struct ledger_entry *e = it->e;
	buf_printf(b, "<%s class=\"badge k-%s%s\" data-id=\"%s\" id=\"i%zu\" data-i=\"%zu\" ", in_link ? "span" : "a",
		   review_style_of(e->kind)->cls, mark_extra(it), it->id, i, i);
	if (in_link)
		buf_puts(b, "tabindex=\"0\" role=\"button\"");
	else
		buf_printf(b, "href=\"#r%zu\"", i);
	buf_puts(b, " title=\"");
	review_escs(b, e->source);
	buf_puts(b, "\">");
	review_escs(b, e->kind == LG_FAILED ? "FAILED" : review_item_word(e));
	if (e->kind == LG_FAILED) {
		buf_puts(b, ": ");
		review_escs(b, e->claim);
	}
	buf_printf(b, "</%s>", in_link ? "span" : "a");
}

/* Reads the key and S_END at *p; advances *p past them. */
static bool sentinel_key(const char **p, const char *end, const char *key)
{
	if ((size_t)(end - *p) < KEY_LEN + 3 || memcmp(*p, key, KEY_LEN) != 0 || memcmp(*p + KEY_LEN, S_END, 3) != 0)
		return false;
	*p += KEY_LEN + 3;
	return true;
}

/* Reads an index, '.', the key and S_END written after a sentinel;
 * advances *p past them. */
static bool sentinel_index(const char **p, const char *end, const char *key, size_t *i)
{
	if (*p >= end || **p < '0' || **p > '9')
		return false;
	char *q;
	unsigned long v = strtoul(*p, &q, 10);
	const char *k = q + 1;
	if (q >= end || *q != '.' || !sentinel_key(&k, end, key))
		return false;
	*i = (size_t)v;
	*p = k;
	return true;
}

/* Copies cmark's HTML of one block, turning sentinels into marks.  In a
 * tag (an attribute: cmark never writes text there, but be safe) a
 * sentinel is dropped; inside a link a mark is a focusable <span>, not a link. */
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
			const char *q = p + 3;
			size_t i = SIZE_MAX;
			if (!(k == 0x82 ? sentinel_key(&q, end, r->key)
					: (k == 0x80 || k == 0x83) && sentinel_index(&q, end, r->key, &i))) {
				buf_puts(&r->out, "\xEF\xBF\xBD"); /* the page's own (a character reference) */
				p += 3;
				continue;
			}
			p = q;
			if (k == 0x82) { /* in a tag it is dropped; the mark closes after it */
				if (open_item != SIZE_MAX && !in_tag) {
					const struct ledger_entry *e = r->items[open_item].e;
					buf_printf(&r->out, "<span class=\"vh\"> (%s)</span>%s", review_item_word(e),
						   r->items[open_item].as_mark ? "</span>" : "</a>");
					open_item = SIZE_MAX;
				}
				continue;
			}
			if (i < r->n && !in_tag && r->items[i].block == block && !r->items[i].placed) {
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
		return ev->state == LOAD_OK ? &ev->ev->tf : NULL;
	}
	const struct program *p = course_program(path);
	return p->state == LOAD_OK ? &p->tf : NULL;
}

/* A path or fragment as a URL's part: bytes other than letters, digits
 * and / . _ - : percent-encoded. */
static void put_url_part(struct buf *b, const char *s)
{
	for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
		if ((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z') || (*u >= '0' && *u <= '9') || strchr("/._-:", *u))
			buf_putc(b, (char)*u);
		else
			buf_printf(b, "%%%02X", *u);
	}
}

/* A link to one of the course's files, from the review folder. */
static void put_file_link(struct buf *b, const char *path)
{
	if (!files_prefix || strstr(path, "..") || path[0] == '/')
		return;
	buf_puts(b, " <a class=\"file\" href=\"");
	put_url_part(b, files_prefix);
	put_url_part(b, path);
	buf_puts(b, "\">open the file</a>");
}

static void put_ref(struct buf *b, const struct ledger_ref *ref)
{
	buf_puts(b, "<div class=\"ref\"><p class=\"where\"><code>");
	review_escs(b, ref->path);
	if (ref->line_end > ref->line)
		buf_printf(b, ":%zu-%zu", ref->line, ref->line_end);
	else if (ref->col)
		buf_printf(b, ":%zu:%zu", ref->line, ref->col);
	else
		buf_printf(b, ":%zu", ref->line);
	buf_puts(b, "</code>");
	if (ref->note) {
		buf_puts(b, " ");
		review_escs(b, ref->note);
	}
	put_file_link(b, ref->path);
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
		/* the line's permalink: #PATH:LINE selects the item quoting it */
		buf_puts(b, "<a class=\"ln\" href=\"#");
		put_url_part(b, ref->path);
		buf_printf(b, ":%zu\">%zu</a>", k, k);
		if (k == ref->line && ref->col >= 1 && ref->col - 1 + ref->len <= len && ref->len) {
			review_esc(b, s, ref->col - 1);
			buf_puts(b, "<strong class=\"tok\">");
			review_esc(b, s + ref->col - 1, ref->len);
			buf_puts(b, "</strong>");
			review_esc(b, s + ref->col - 1 + ref->len, len - (ref->col - 1 + ref->len));
		} else {
			review_esc(b, s, len);
		}
		buf_putc(b, '\n');
	}
	if (shown < last - ref->line + 1)
		buf_printf(b, "<span class=\"ln\"></span>... %zu more lines\n", last - ref->line + 1 - shown);
	buf_puts(b, "</pre></div>");
}

/* A diagnostic; the list at the top has the anchor (id), the copy in an
 * item's row none (ids are unique). */
static void put_diag(struct buf *b, const struct review_diag *g, size_t i, bool anchor)
{
	buf_printf(b, "<div class=\"diag %s\"", g->error ? "err" : "warn");
	if (anchor)
		buf_printf(b, " id=\"d%zu\"", i);
	buf_puts(b, "><p class=\"msg\"><strong>");
	review_escs(b, g->head);
	buf_puts(b, "</strong></p>");
	if (g->body && *g->body)
		review_diff_put_body(b, g->body, strstr(g->head, "[table-row-") != NULL);
	if (g->hint) {
		buf_puts(b, "<p class=\"hint\"><span class=\"lbl\">hint:</span> ");
		review_escs(b, g->hint);
		buf_puts(b, "</p>");
	}
	buf_puts(b, "</div>");
}

/* The item's approval (the hook's state), and its approve control: a
 * button the script turns on, which adds the item's id to the command
 * shown at the top.  Before the details, so that the pane shows it first. */
static void put_approval(struct buf *b, const struct item *it)
{
	const struct review_approval *a = &it->approval;
	if (a->state == REVIEW_APPROVAL_APPROVED || a->state == REVIEW_APPROVAL_REOPENED) {
		bool reopened = a->state == REVIEW_APPROVAL_REOPENED;
		buf_printf(b, "<div class=\"appr %s\"><p><span class=\"appr-badge\">%s</span>", reopened ? "appr-reopened" : "appr-approved",
			   reopened ? "REOPENED" : "approved");
		if (a->by) {
			buf_puts(b, reopened ? " approved before by " : " by ");
			review_escs(b, a->by);
		}
		if (a->when) {
			buf_puts(b, " on ");
			review_escs(b, a->when);
		}
		buf_puts(b, reopened ? ": what it rests on changed since." : "");
		buf_puts(b, "</p>");
		if (reopened && (a->old_values || a->new_values)) {
			buf_puts(b, "<table class=\"was\"><tr><th scope=\"row\">approved</th><td><del>");
			review_escs(b, a->old_values ? a->old_values : "(not recorded)");
			buf_puts(b, "</del></td></tr><tr><th scope=\"row\">now</th><td><ins>");
			review_escs(b, a->new_values ? a->new_values : "(not recorded)");
			buf_puts(b, "</ins></td></tr></table>");
		}
		buf_puts(b, "</div>");
	}
	if (review_item_approvable(it->e) && a->state != REVIEW_APPROVAL_APPROVED)
		buf_printf(b, "<p class=\"js-only\"><button type=\"button\" class=\"approve\" data-id=\"%s\" aria-pressed=\"false\">"
			      "%s</button></p>",
			   it->id, a->state == REVIEW_APPROVAL_REOPENED ? "approve again" : "approve");
}

/* One row of an item's pairs table: what the page says beside what it
 * rests on.  The same cells fill the evidence pane when JavaScript runs. */
static void put_row(struct render *r, size_t i)
{
	struct buf *b = &r->out;
	const struct item *it = &r->items[i];
	const struct ledger_entry *e = it->e;
	const char *cls = review_style_of(e->kind)->cls;
	buf_printf(b, "<tr id=\"r%zu\" class=\"kind-%s\" data-i=\"%zu\" data-kind=\"%s\" data-at=\"%zu:%zu\" data-id=\"%s\">", i,
		   cls, i, ledger_kind_name(e->kind), e->line, e->col, it->id);
	buf_printf(b, "<td class=\"kind\"><span class=\"sw k-%s\"></span>", cls);
	review_escs(b, review_item_word(e));
	buf_printf(b, "</td><td class=\"claim\"><a href=\"#i%zu\">", i);
	review_escs(b, e->claim);
	buf_printf(b, "</a> <span class=\"at\">line %zu:%zu</span></td><td class=\"src\">", e->line, e->col);
	review_escs(b, e->source);
	buf_puts(b, "</td><td class=\"ev\">");
	put_approval(b, it);
	if (e->detail) {
		buf_puts(b, "<ul class=\"detail\">");
		const char *p = e->detail;
		for (;;) {
			const char *semi = strstr(p, "; ");
			buf_puts(b, "<li>");
			review_esc(b, p, semi ? (size_t)(semi - p) : strlen(p));
			buf_puts(b, "</li>");
			if (!semi)
				break;
			p = semi + 2;
		}
		buf_puts(b, "</ul>");
	}
	/* a finding's diagnostics (and their diff) first: what is wrong
	 * comes before what the item rests on */
	for (int pass = it->finding ? 0 : 1; pass < 3; pass++) {
		if (pass == 1)
			for (size_t k = 0; k < e->n_refs; k++)
				put_ref(b, &e->refs[k]);
		else if (pass == 0 || !it->finding)
			for (size_t d = 0; d < r->diags.n; d++)
				if (r->diags.v[d].owner == (long)i)
					put_diag(b, &r->diags.v[d], d, false);
	}
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
	int *lines = xcalloc(2 * nb + 2, sizeof *lines); /* each block's first and last line, before show_raw_html */
	size_t i = 0, k = 0;
	for (cmark_node *c = cmark_node_first_child(doc); c; c = cmark_node_next(c), k++) {
		size_t from = (size_t)cmark_node_get_start_line(c), to = (size_t)cmark_node_get_end_line(c);
		lines[2 * k] = cmark_node_get_start_line(c);
		lines[2 * k + 1] = cmark_node_get_end_line(c);
		while (i < r->n && r->items[i].e->line < from)
			i++;
		r->bfirst[k] = i;
		for (; i < r->n && r->items[i].e->line <= to; i++)
			r->items[i].block = k;
		r->bend[k] = i;
	}
	show_raw_html(doc); /* a top-level HTML block is replaced: its lines are kept above */
	k = 0;
	for (cmark_node *c = cmark_node_first_child(doc); c; c = cmark_node_next(c), k++) {
		char *html = cmark_render_html(c, CMARK_OPT_DEFAULT, exts);
		struct buf whole = r->out;
		r->out = (struct buf){0};
		put_marked_html(r, html, k);
		struct buf inner = r->out;
		r->out = whole;
		free(html);
		buf_printf(&r->out, "<div class=\"blk\" id=\"L%d\" data-lines=\"%d-%d\">", lines[2 * k], lines[2 * k],
			   lines[2 * k + 1] < lines[2 * k] ? lines[2 * k] : lines[2 * k + 1]);
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
	free(lines);
	cmark_parser_free(parser);
	cmark_node_free(doc);
}

/* ---- the header: the run and the gate's verdict ------------------------ */

static void put_field(struct buf *b, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	buf_puts(b, "<dt>");
	review_escs(b, name);
	buf_puts(b, "</dt><dd>");
	review_escs(b, value);
	buf_puts(b, "</dd>");
}

static void put_run(struct buf *b, const char *path)
{
	if (strcmp(path, FM_EVIDENCE_NOT_YET) == 0) {
		buf_puts(b, "<div class=\"run\"><h3>No run yet</h3><p class=\"notyet\">This page awaits its first capture "
			    "(<code>evidence: none yet</code>): nothing on it can be traced until the lesson is run on the GPU node "
			    "and <code>coursecheck update</code> binds the page to that run.</p></div>");
		return;
	}
	buf_puts(b, "<div class=\"run\"><h3>Run <code>");
	review_escs(b, path);
	buf_puts(b, "</code>");
	put_file_link(b, path);
	buf_puts(b, "</h3>");
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
		put_field(b, keys[i][1], evidence_get(ev->ev, keys[i][0], NULL));
	const char *vol = evidence_get(ev->ev, "volatile", NULL);
	put_field(b, "volatile places", vol ? (*vol ? vol : "none") : evidence_get(ev->ev, "repeats", NULL) ? "none" : NULL);
	if (!vol && !evidence_get(ev->ev, "repeats", NULL))
		put_field(b, "repeats", "1 (no repeats recorded: which numbers vary is unknown)");
	struct evsig_verdict v;
	evsig_judge(ev, &v);
	char *signer = evsig_describe(&v);
	put_field(b, "signature", signer);
	free(signer);
	evsig_verdict_free(&v);
	buf_puts(b, "</dl></div>");
}

static void put_counts(struct buf *b, const struct ledger *lg)
{
	buf_puts(b, "<ul class=\"counts\">");
	for (int k = 0; k < LG_KIND_COUNT; k++)
		buf_printf(b, "<li><span class=\"sw k-%s\"></span>%s %zu</li>", review_style_of((enum ledger_kind)k)->cls, review_style_of((enum ledger_kind)k)->word,
			   ledger_count(lg, (enum ledger_kind)k));
	buf_puts(b, "</ul>");
}

static void put_legend(struct buf *b)
{
	/* folded: the first screen is the page, not the key to it */
	buf_puts(b, "<details class=\"legend\" id=\"legend\"><summary><h2 id=\"legend-h\">Legend and keys</h2></summary><ul>");
	for (int k = 0; k < LG_KIND_COUNT; k++) {
		const struct review_style *st = review_style_of((enum ledger_kind)k);
		buf_printf(b, "<li><span class=\"item k-%s\">", st->cls);
		review_escs(b, st->word);
		buf_puts(b, "</span> ");
		review_escs(b, st->legend); /* it quotes annotations: <!-- = EXPR --> is text, not a comment */
		buf_puts(b, "</li>");
	}
	buf_puts(b, "</ul><p class=\"keys\">Keys: <kbd>j</kbd> or <kbd>n</kbd> the next finding, <kbd>k</kbd> or <kbd>p</kbd> "
		    "the previous one, <kbd>/</kbd> search, <kbd>a</kbd> approve the selected item, <kbd>Esc</kbd> leave the "
		    "search.  Every item has a permalink (<code>#i17</code>), every page line (<code>#L61</code>) and every "
		    "quoted evidence line (<code>#evidence/LESSON/run.txt:22</code>) too: each opens its item selected.</p><p>Each kind has its own underline (solid, double, dashed, dotted, wavy) and its name "
		    "in the tables, so colour is never the only sign.  Select an item to see its evidence.</p>"
		    "<p class=\"ctl\"><label><input type=\"checkbox\" id=\"hide-skipped\"> hide skipped numbers</label> "
		    "<label class=\"js-only\"><input type=\"checkbox\" id=\"show-tables\"> show the tables under "
		    "each block</label></p></details>");
}

/* ---- the page ------------------------------------------------------------ */

static void put_verdict(struct buf *b, const char *page, const struct review_verdict *v)
{
	bool pass = v->errors == 0;
	buf_printf(b, "<p class=\"verdict %s\" role=\"status\"><strong>%s</strong>: the technical review gate, "
		      "<code>coursecheck verify --as published ",
		   pass ? "pass" : "fail", pass ? "PASSES" : "FAILS");
	review_escs(b, page);
	buf_printf(b, "</code>, %s", pass ? "finds nothing wrong" : "finds ");
	if (!pass)
		buf_printf(b, "%zu error%s", v->errors, v->errors == 1 ? "" : "s");
	buf_puts(b, "</p>");
}

static bool is_fence(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && i < 3 && s[i] == ' ')
		i++;
	return n - i >= 3 && (memcmp(s + i, "```", 3) == 0 || memcmp(s + i, "~~~", 3) == 0);
}

/* A diagnostic inside a code block that failed (a snippet's or a
 * transcript's, placed at the line that differs) explains that block's
 * item, which the ledger places at the block's first line: so its diff
 * is in the item's row and the pane.  The lines between are read once a
 * diagnostic: bounded by the block's length. */
static void attach_block_diags(struct render *r)
{
	for (size_t d = 0; d < r->diags.n; d++) {
		struct review_diag *g = &r->diags.v[d];
		if (g->owner >= 0 || g->line == 0 || g->line > r->tf->n_lines)
			continue;
		for (size_t i = r->n; i-- > 0;) {
			const struct ledger_entry *e = r->items[i].e;
			if (e->line > g->line || e->line == 0)
				continue;
			if (e->kind != LG_FAILED || e->span != 0)
				continue;
			size_t len;
			const char *s = textfile_line(r->tf, e->line, &len);
			if (!is_fence(s, len))
				break; /* the nearest failed block item before it is not a fenced block */
			bool inside = true;
			for (size_t k = e->line + 1; k < g->line && inside; k++) {
				s = textfile_line(r->tf, k, &len);
				inside = !is_fence(s, len);
			}
			if (inside)
				g->owner = (long)i;
			break;
		}
	}
}

/* Each item's id, its finding flag, and its approval from the hook. */
static void name_items(struct render *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct item *it = &r->items[i];
		const struct ledger_entry *e = it->e;
		size_t nth = 1; /* entries of one place are adjacent once sorted */
		for (size_t j = i; j-- > 0 && r->items[j].e->line == e->line && r->items[j].e->col == e->col;)
			nth += r->items[j].e->kind == e->kind;
		review_item_id_of(e, nth, it->id);
		it->finding |= e->kind == LG_FAILED;
		if (approval_fn && review_item_approvable(e)) {
			approval_fn(approval_ctx, r->page, it->id, e, &it->approval);
			if (it->approval.id && strlen(it->approval.id) < sizeof it->id)
				strcpy(it->id, it->approval.id); /* the id approve takes */
		}
	}
}

/* The bar over the page: search, the keys, and the approve command. */
static void put_toolbar(struct buf *b, const char *page)
{
	buf_puts(b, "<div id=\"bar\" class=\"js-block\" role=\"search\"><label>Search <input type=\"search\" id=\"search\" "
		    "placeholder=\"a number, a word, a file\" autocomplete=\"off\"></label> <span id=\"search-n\" aria-live=\"polite\">"
		    "</span> <button type=\"button\" id=\"prev-f\" title=\"previous finding (k or p)\">&#8593; finding</button> "
		    "<button type=\"button\" id=\"next-f\" title=\"next finding (j or n)\">&#8595; finding</button> <span id=\"f-n\">"
		    "</span> <span class=\"keys\">keys: <kbd>j</kbd>/<kbd>n</kbd> next finding, <kbd>k</kbd>/<kbd>p</kbd> previous, "
		    "<kbd>/</kbd> search, <kbd>a</kbd> approve</span>"
		    "<div id=\"approve-box\" hidden><p>Approve the <span id=\"approve-n\">0</span> chosen items: run this from the "
		    "course (this page cannot write files).</p><pre id=\"approve-cmd\" data-page=\"");
	review_escs(b, page);
	buf_puts(b, "\"></pre><button type=\"button\" id=\"approve-copy\">copy the command</button> "
		    "<button type=\"button\" id=\"approve-clear\">clear</button> <span id=\"approve-copied\" aria-live=\"polite\"></span>"
		    "</div></div>\n");
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
	char hex[SHA256_HEX_LEN + 1];
	sha256_hex(tf.data, tf.len, hex);
	memcpy(r.key, hex, KEY_LEN);
	r.key[KEY_LEN] = '\0';
	const struct ledger_entry **sorted = ledger_sorted(lg);
	r.n = lg->n;
	r.items = xcalloc(r.n ? r.n : 1, sizeof *r.items);
	for (size_t i = 0; i < r.n; i++)
		r.items[i].e = sorted[i];
	free(sorted);
	review_diags_parse(&r.diags, diags, relpath);
	const struct ledger_entry **ev = xmalloc((r.n ? r.n : 1) * sizeof *ev);
	for (size_t i = 0; i < r.n; i++)
		ev[i] = r.items[i].e;
	review_diags_attach(&r.diags, ev, r.n);
	free(ev);
	attach_block_diags(&r);
	for (size_t d = 0; d < r.diags.n; d++)
		if (r.diags.v[d].owner >= 0 && (size_t)r.diags.v[d].owner < r.n)
			r.items[r.diags.v[d].owner].finding = true;
	name_items(&r);
	place_items(&r);

	struct buf *b = &r.out;
	const char *title = lg->page.title ? lg->page.title : relpath;
	char *doc_title = xasprintf("Review: %s", title);
	review_put_head(b, doc_title);
	free(doc_title);
	buf_puts(b, "<body>\n<div class=\"top\" role=\"banner\"><p>Technical review of <code>");
	review_escs(b, relpath);
	buf_puts(b, "</code></p><h1>");
	review_escs(b, title);
	buf_puts(b, "</h1><dl>");
	put_field(b, "lesson", lg->page.lesson);
	put_field(b, "status", lg->page.status ? lg->page.status : "(no front matter)");
	buf_puts(b, "</dl>");
	put_verdict(b, relpath, v);
	put_counts(b, lg);
	if (lg->page.n_evidence) { /* folded: the runs' facts are one click away, not the first screen */
		bool none_yet = strcmp(lg->page.evidence[0], FM_EVIDENCE_NOT_YET) == 0;
		buf_printf(b, "<details class=\"runs\" id=\"runs\"%s><summary><h2>", none_yet ? " open" : "");
		if (none_yet)
			buf_puts(b, "Awaiting its first capture");
		else
			buf_printf(b, "The run%s it rests on (%zu)", lg->page.n_evidence == 1 ? "" : "s", lg->page.n_evidence);
		buf_puts(b, "</h2></summary>");
		for (size_t i = 0; i < lg->page.n_evidence; i++)
			put_run(b, lg->page.evidence[i]);
		buf_puts(b, "</details>");
	}
	if (r.diags.n) {
		buf_printf(b, "<details class=\"found\" id=\"found\"><summary><h2>What the gate found (%zu)</h2></summary><ol>",
			   r.diags.n);
		for (size_t i = 0; i < r.diags.n; i++) {
			buf_puts(b, "<li>");
			put_diag(b, &r.diags.v[i], i, true);
			if (r.diags.v[i].owner >= 0)
				buf_printf(b, "<p><a class=\"explains\" href=\"#r%ld\">the item it explains</a></p>", r.diags.v[i].owner);
			buf_puts(b, "</li>");
		}
		buf_puts(b, "</ol></details>");
	}
	put_legend(b);
	buf_puts(b, "</div>\n");
	put_toolbar(b, relpath);
	buf_puts(b, "<div class=\"wrap\">\n<div id=\"page\" class=\"main\" role=\"main\">\n");
	if (!have_text)
		buf_puts(b, "<p>The page cannot be read: see the diagnostics above.</p>");
	put_body(&r);
	buf_puts(b, "</div>\n<div id=\"pane\" role=\"complementary\" aria-labelledby=\"pane-h\"><h2 id=\"pane-h\">Evidence</h2>"
		    "<div id=\"pane-body\" aria-live=\"polite\"><p>Select a marked item of the page to see the evidence it "
		    "rests on.  Without JavaScript, each block's items and their evidence are in the table under it.</p>"
		    "</div></div>\n</div>\n<div class=\"foot\" role=\"contentinfo\"><p>Written by <code>coursecheck review</code>; "
		    "<a href=\"index.html\">all pages</a>.</p></div>\n");
	buf_printf(b, "<script>\n%s</script>\n</body>\n</html>\n", review_script());
	review_diags_free(&r.diags);
	free(r.items);
	textfile_free(&tf);
	*len = r.out.len;
	return buf_detach(&r.out);
}


/* htmltext.c - see htmltext.h. */
#include "htmltext.h"

#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "html5ent.h"
#include "rawalign.h"
#include "util.h"

struct reader {
	struct htmltext *ht;
	struct buf text;
	size_t cap;
	const char *raw;
	size_t cursor, limit; /* raw[cursor..limit): not yet placed */
};

static bool name_in(const xmlNode *n, const char *const *names)
{
	for (; *names; names++)
		if (xmlStrcasecmp(n->name, (const xmlChar *)*names) == 0)
			return true;
	return false;
}

/* Elements that only style their text: a number may not be split by one
 * of them, and their edges are no break. */
static const char *const inline_elements[] = {
	"a", "abbr", "b", "bdi", "bdo", "cite", "data", "del", "dfn", "em", "font", "i", "ins", "mark", "q",
	"s", "small", "span", "strike", "strong", "time", "tt", "u", "wbr", "big", "label", NULL};
/* Never shown to a reader. */
static const char *const hidden_elements[] = {"script", "style", "template", "head", "title", NULL};
static const char *const code_elements[] = {"code", "kbd", "samp", NULL};

static struct htmltext_item *add(struct reader *r, enum htmltext_kind kind, const char *s, size_t len,
				 size_t raw_off)
{
	struct htmltext *ht = r->ht;
	if (kind == HTMLTEXT_BREAK && (ht->n == 0 || ht->v[ht->n - 1].kind == HTMLTEXT_BREAK))
		return NULL; /* one break is enough */
	ht->v = xgrow(ht->v, &r->cap, ht->n + 1, sizeof *ht->v);
	struct htmltext_item *it = &ht->v[ht->n++];
	*it = (struct htmltext_item){kind, r->text.len, len, raw_off, false};
	buf_append(&r->text, s, len);
	return it;
}

/* One line of a text node: placed with rawalign from the cursor, one
 * item a verbatim run or decoded reference; unplaced, one item without
 * a position. */
static void add_line(struct reader *r, enum htmltext_kind kind, const char *s, size_t len)
{
	if (str_is_blank(s, len))
		return;
	struct rawalign_piece *pc;
	size_t end;
	size_t n = r->cursor < r->limit ? rawalign(r->raw, r->cursor, r->limit, s, len, &pc, &end) : 0;
	if (n == 0) {
		add(r, kind, s, len, SIZE_MAX);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct htmltext_item *it = add(r, kind, s + pc[i].lit_off, pc[i].lit_len, pc[i].raw_off);
		it->decoded = !pc[i].verbatim;
	}
	r->cursor = end;
	free(pc);
}

/* s with the references libxml2 left as text decoded: its HTML parser
 * knows HTML 4's names only, so "&ZeroWidthSpace;" reaches us as those
 * 16 characters, where a browser shows (or hides) U+200B; HTML5's table
 * (html5ent.h) decodes what a reader sees.  Malloc'd. */
static char *decode_html5_names(const char *s, size_t len)
{
	struct buf out = {0};
	for (size_t i = 0; i < len;) {
		size_t k = i + 1;
		while (s[i] == '&' && k < len && k - i <= 40 &&
		       ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= '0' && s[k] <= '9')))
			k++;
		const char *utf8;
		size_t n;
		if (s[i] == '&' && k < len && s[k] == ';' && k > i + 1 && (n = html5ent_lookup(s + i + 1, k - i - 1, &utf8))) {
			buf_append(&out, utf8, n);
			i = k + 1;
			continue;
		}
		buf_append(&out, s + i, 1);
		i++;
	}
	if (!out.s)
		return xstrdup("");
	return out.s;
}

static void add_text(struct reader *r, enum htmltext_kind kind, const char *raw_text)
{
	char *s = decode_html5_names(raw_text, strlen(raw_text));
	size_t len = strlen(s);
	for (size_t a = 0; a < len;) {
		const char *nl = memchr(s + a, '\n', len - a);
		size_t b = nl ? (size_t)(nl - s) : len;
		if (b > a)
			add_line(r, kind, s + a, b - a);
		if (nl)
			add(r, HTMLTEXT_BREAK, "\n", 1, SIZE_MAX);
		a = b + 1;
	}
	free(s);
}

/* The raw offset of needle from the cursor (the cursor moved past it),
 * or SIZE_MAX. */
static size_t find_raw(struct reader *r, const char *needle, size_t len)
{
	if (r->cursor >= r->limit)
		return SIZE_MAX;
	const char *p = memmem(r->raw + r->cursor, r->limit - r->cursor, needle, len);
	if (!p)
		return SIZE_MAX;
	size_t at = (size_t)(p - r->raw);
	r->cursor = at + len;
	return at;
}

static void add_comment(struct reader *r, const char *content)
{
	struct buf c = {0};
	buf_puts(&c, "<!--");
	buf_puts(&c, content);
	buf_puts(&c, "-->");
	add(r, HTMLTEXT_COMMENT, c.s, c.len, find_raw(r, c.s, c.len));
	buf_free(&c);
}

/* A <pre>: its text, with the one line feed HTML drops after "<pre>". */
static void add_pre(struct reader *r, xmlNode *n)
{
	size_t at = find_raw(r, "<pre", 4);
	if (at == SIZE_MAX)
		at = find_raw(r, "<PRE", 4);
	xmlChar *content = xmlNodeGetContent(n);
	const char *s = content ? (const char *)content : "";
	if (*s == '\n')
		s++;
	add(r, HTMLTEXT_PRE, s, strlen(s), at);
	xmlFree(content);
	/* what follows is placed after the <pre>, never inside it */
	if (at != SIZE_MAX && find_raw(r, "</pre", 5) == SIZE_MAX)
		find_raw(r, "</PRE", 5);
}

/* Entering n: whether its children are read. */
static bool enter(struct reader *r, xmlNode *n, enum htmltext_kind *in)
{
	switch (n->type) {
	case XML_TEXT_NODE:
	case XML_CDATA_SECTION_NODE:
		if (n->content)
			add_text(r, *in, (const char *)n->content);
		return false;
	case XML_COMMENT_NODE:
		add_comment(r, n->content ? (const char *)n->content : "");
		return false;
	case XML_ELEMENT_NODE:
		break;
	default:
		return false;
	}
	if (name_in(n, hidden_elements))
		return false;
	if (xmlStrcasecmp(n->name, (const xmlChar *)"pre") == 0) {
		add(r, HTMLTEXT_BREAK, "\n", 1, SIZE_MAX);
		add_pre(r, n);
		return false;
	}
	if (!name_in(n, inline_elements) && !name_in(n, code_elements))
		add(r, HTMLTEXT_BREAK, "\n", 1, SIZE_MAX);
	if (name_in(n, code_elements))
		*in = HTMLTEXT_CODE;
	return n->children != NULL;
}

static void leave(struct reader *r, xmlNode *n, enum htmltext_kind *in)
{
	if (n->type != XML_ELEMENT_NODE)
		return;
	if (name_in(n, code_elements))
		*in = HTMLTEXT_TEXT;
	else if (!name_in(n, inline_elements))
		add(r, HTMLTEXT_BREAK, "\n", 1, SIZE_MAX);
}

/* Document order without recursion: a block of 100,000 nested tags must
 * not overflow the stack.  Text inside <code> is code (not nested code:
 * code inside code is still code). */
static void walk(struct reader *r, xmlNode *first)
{
	enum htmltext_kind in = HTMLTEXT_TEXT;
	xmlNode *n = first;
	while (n) {
		if (enter(r, n, &in)) {
			n = n->children;
			continue;
		}
		leave(r, n, &in);
		while (n && !n->next) {
			n = n->parent;
			if (n && n->type != XML_DOCUMENT_NODE && n->type != XML_HTML_DOCUMENT_NODE)
				leave(r, n, &in);
			else
				n = NULL;
		}
		if (n)
			n = n->next;
	}
}

void htmltext_read(const char *html, size_t len, const char *raw, size_t from, size_t limit, struct htmltext *out)
{
	memset(out, 0, sizeof *out);
	struct reader r = {.ht = out, .raw = raw, .cursor = from, .limit = limit};
	htmlParserCtxtPtr ctxt = len <= INT_MAX ? htmlNewParserCtxt() : NULL;
	htmlDocPtr doc = ctxt ? htmlCtxtReadMemory(ctxt, html, (int)len, NULL, "UTF-8",
						   HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
							   HTML_PARSE_NOIMPLIED)
			      : NULL;
	/* a fatal error (nesting past libxml2's 256 levels, the parser
	 * stopped) leaves the rest of the block unread: never a partial read */
	const xmlError *e = ctxt ? xmlCtxtGetLastError(ctxt) : NULL;
	if (!doc || (e && e->level == XML_ERR_FATAL)) {
		out->unreadable = true;
		if (e && e->message)
			snprintf(out->why, sizeof out->why, "%.*s", (int)strcspn(e->message, "\n"), e->message);
	} else {
		walk(&r, doc->children);
	}
	if (doc)
		xmlFreeDoc(doc);
	if (ctxt)
		htmlFreeParserCtxt(ctxt);
	/* the items' offsets are into text, now fixed */
	out->text_len = r.text.len;
	out->text = r.text.s ? buf_detach(&r.text) : xstrdup("");
}

void htmltext_free(struct htmltext *ht)
{
	free(ht->text);
	free(ht->v);
	memset(ht, 0, sizeof *ht);
}

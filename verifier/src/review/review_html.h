/*
 * review_html.h - what every review file shares: the style of each ledger
 * kind (a class for colour and underline pattern, the word shown, the
 * legend's sentence), HTML escaping, and the inline CSS and script.
 * Every ledger kind has its style, claims (LG_CLAIM) and numbers whose
 * place nothing settles (LG_AMBIGUOUS) included.
 */
#ifndef COURSECHECK_REVIEW_HTML_H
#define COURSECHECK_REVIEW_HTML_H

#include <stddef.h>

#include "ledger.h"
#include "util.h"

struct review_style {
	const char *cls;    /* CSS class suffix: k-traced, ... */
	const char *word;   /* shown beside the item and in the tables */
	const char *legend; /* the legend's sentence */
};

/* Never NULL (an unknown kind has the failure's style).  Static storage. */
const struct review_style *review_style_of(enum ledger_kind kind);
/* The word for an item: a code item says which block it is (snippet,
 * transcript, build, quote). */
const char *review_item_word(const struct ledger_entry *e);

/* Appends s[0..n) escaped for HTML text and attribute values; a NUL byte
 * becomes U+FFFD.  review_escs: a C string, NULL appends nothing. */
void review_esc(struct buf *b, const char *s, size_t n);
void review_escs(struct buf *b, const char *s);

/* The doctype, head (charset, viewport, a Content-Security-Policy that
 * forbids loading anything, the title, the inline CSS) and nothing else. */
void review_put_head(struct buf *b, const char *title);
/* The inline script of a page review (static storage). */
const char *review_script(void);

#endif

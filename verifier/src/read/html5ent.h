/*
 * html5ent.h - HTML5's named character references ("&check;" is U+2713,
 * "&NotEqualTilde;" U+2242 U+0338): the whole WHATWG table, 2,125 names.
 *
 * Why a table of our own: cmark-gfm decodes every HTML5 name in a page's
 * text, and a browser shows them, but libxml2's HTML parser (and its
 * htmlEntityLookup) knows only HTML 4's 253; a text holding an HTML5-only
 * name could not be placed back in the page (rawalign.h), so its numbers
 * lost their columns.  The table is data GENERATED from Python's
 * html.entities.html5 by verifier/scripts/gen-html5ent.py into
 * html5ent.c (never edited by hand; make entities-test checks that it is
 * current).
 *
 * Look-up is a binary search (O(log n), 12 comparisons).  No state;
 * threads may call it freely.
 */
#ifndef COURSECHECK_HTML5ENT_H
#define COURSECHECK_HTML5ENT_H

#include <stddef.h>

/* The UTF-8 text the name name[0..len) (without '&' and ';', case
 * matters) stands for: *utf8 set to it (static, NUL-terminated) and its
 * length returned (1 to 8 bytes); 0 when HTML5 has no such name. */
size_t html5ent_lookup(const char *name, size_t len, const char **utf8);

#endif

/*
 * snippet.h - the named snippets of a lesson program.
 *
 * A snippet is the lines between `// snippet: NAME` and `// end snippet`
 * (or `// end snippet: NAME`, which must name the snippet it closes).
 * Marker lines are not part of a snippet; snippets may nest, and inner
 * marker lines are dropped from the outer text.  Problems in the markers
 * are reported at the source line when snippet_scan() is told to report.
 */
#ifndef COURSECHECK_SNIPPET_H
#define COURSECHECK_SNIPPET_H

#include <stdbool.h>
#include <stddef.h>

#include "strmap.h"
#include "textfile.h"

struct snippet {
	char *name;
	size_t start_line; /* the `// snippet:` line */
	size_t end_line;   /* the `// end snippet` line; 0 when unterminated */
	/* the source lines that make up its text, in order: a range of the
	 * set's one array of non-marker lines (borrowed from the set), so an
	 * unclosed snippet costs no copy of the rest of the file */
	const size_t *lines;
	size_t n_lines;
};

struct snippet_set {
	struct snippet *v;
	size_t n;
	size_t problems;     /* marker problems found (reported or not) */
	size_t *text_lines;  /* every line that is not a marker line, in order (owned) */
	struct strmap names; /* name -> index in v, first definition (names borrowed from v) */
};

/* Scans tf (borrowed; it must outlive the set).  Returns the number of
 * marker problems; with report, each is printed as a diagnostic. */
size_t snippet_scan(const struct textfile *tf, bool report, struct snippet_set *set);
const struct snippet *snippet_find(const struct snippet_set *set, const char *name);
/* The snippet's text as one run of tf's bytes, each line with its LF, when
 * it is one: its lines are consecutive lines of tf (no inner marker line
 * among them) and the last ends in a LF.  Then true, with *s (borrowed
 * from tf) and *len; false for any other snippet, and for an empty one
 * (its lines alone tell its text).  The check of a copied snippet
 * compares the page's block with this run before it splits either into
 * lines (check_code.c). */
bool snippet_run(const struct textfile *tf, const struct snippet *sn, const char **s, size_t *len);
void snippet_set_free(struct snippet_set *set);

#endif

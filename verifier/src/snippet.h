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

#include "textfile.h"

struct snippet {
	char *name;
	size_t start_line; /* the `// snippet:` line */
	size_t end_line;   /* the `// end snippet` line; 0 when unterminated */
	size_t *lines;     /* the source lines that make up its text, in order */
	size_t n_lines;
};

struct snippet_set {
	struct snippet *v;
	size_t n;
	size_t problems; /* marker problems found (reported or not) */
};

/* Scans tf (borrowed; it must outlive the set).  Returns the number of
 * marker problems; with report, each is printed as a diagnostic. */
size_t snippet_scan(const struct textfile *tf, bool report, struct snippet_set *set);
const struct snippet *snippet_find(const struct snippet_set *set, const char *name);
void snippet_set_free(struct snippet_set *set);

#endif

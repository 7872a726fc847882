/* snippet.c - see snippet.h. */
#include "snippet.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "re.h"
#include "util.h"

#define NAME_CHARS "[A-Za-z0-9_.-]+"

static struct re start_re = RE_INIT("^[ \\t]*//[ \\t]*snippet:[ \\t]*(" NAME_CHARS ")[ \\t]*$", 0);
static struct re end_re = RE_INIT("^[ \\t]*//[ \\t]*end snippet(?::[ \\t]*(" NAME_CHARS "))?[ \\t]*$", 0);
/* Anything that starts like a snippet marker: the head before a colon (or
 * the whole short comment) is compared with the real spellings. */
static struct re head_re = RE_INIT("^[ \\t]*/{2,}[ \\t]*([A-Za-z][A-Za-z _-]{0,20}?)[ \\t]*(?::|$)", 0);

struct scan {
	const struct textfile *tf;
	bool report;
	struct snippet_set *set;
	size_t *open; /* stack of indices into set->v */
	size_t depth, open_cap, set_cap;
};

static void problem(struct scan *s, enum diag_kind kind, size_t line, size_t col, const char *hint,
		    const char *fmt, ...) PRINTF_LIKE(6, 7);

static void problem(struct scan *s, enum diag_kind kind, size_t line, size_t col, const char *hint,
		    const char *fmt, ...)
{
	s->set->problems++;
	if (!s->report)
		return;
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = diag_vbegin(kind, textfile_loc_line(s->tf, line, col, 0), fmt, ap);
	va_end(ap);
	if (hint)
		diag_hint(d, "%s", hint);
	diag_end(d);
}

static size_t indent_col(const char *line, size_t len)
{
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	return i + 1;
}

/* Near misses: `// end-snippet`, `// snipet: x`, `// snippet x`, `// Snippet: x`. */
static bool near_miss(const char *line, size_t len)
{
	struct re_match g;
	if (!re_search(&head_re, line, len, 0, &g))
		return false;
	char head[32];
	size_t n = 0;
	for (size_t i = g.start[1]; i < g.end[1] && n < sizeof head - 1; i++) {
		char c = line[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c == '_' || c == '-')
			c = ' ';
		head[n++] = c;
	}
	head[n] = '\0';
	/* "snippet NAME" without the colon, or a misspelt keyword */
	static const char *const shapes[] = {"snippet", "end snippet", "endsnippet", "snipet", "snippets",
					     "end snipet", "snipppet", "snippit", "end snippets", "sniplet"};
	for (size_t i = 0; i < ARRAY_LEN(shapes); i++) {
		size_t k = strlen(shapes[i]);
		if (strncmp(head, shapes[i], k) == 0 && (head[k] == '\0' || head[k] == ' '))
			return true;
	}
	return false;
}

/* True when line holds "snip" in any case. */
static bool mentions_snip(const char *line, size_t len)
{
	for (size_t i = 0; i + 4 <= len; i++)
		if ((line[i] | 0x20) == 's' && (line[i + 1] | 0x20) == 'n' && (line[i + 2] | 0x20) == 'i' &&
		    (line[i + 3] | 0x20) == 'p')
			return true;
	return false;
}

static void open_snippet(struct scan *s, size_t n, const char *name, size_t name_len, size_t col)
{
	struct snippet_set *set = s->set;
	char *nm = xstrndup(name, name_len);
	size_t first;
	if (!strmap_add(&set->names, nm, name_len, set->n, &first)) {
		problem(s, D_SNIPPET_DUPLICATE, n, col, "rename one of the two snippets",
			"snippet '%s' is already defined at line %zu", nm, set->v[first].start_line);
	}
	set->v = xgrow(set->v, &s->set_cap, set->n + 1, sizeof *set->v);
	set->v[set->n] = (struct snippet){.name = nm, .start_line = n};
	s->open = xgrow(s->open, &s->open_cap, s->depth + 1, sizeof *s->open);
	s->open[s->depth++] = set->n++;
}

static void close_snippet(struct scan *s, size_t n, const char *name, size_t name_len, size_t col)
{
	if (s->depth == 0) {
		problem(s, D_SNIPPET_END_UNMATCHED, n, col, "remove it, or add the '// snippet: NAME' line it closes",
			"'// end snippet' closes no open snippet");
		return;
	}
	struct snippet *top = &s->set->v[s->open[s->depth - 1]];
	if (name && (strlen(top->name) != name_len || memcmp(top->name, name, name_len) != 0)) {
		char *nm = xstrndup(name, name_len);
		problem(s, D_SNIPPET_END_MISMATCH, n, col, NULL,
			"'// end snippet: %s' closes snippet '%s', which is the one open here", nm, top->name);
		free(nm);
	}
	top->end_line = n;
	s->depth--;
}

/* Gives each snippet its text lines: everything between its markers that
 * is not itself a marker line.  As every marker line is dropped, a
 * snippet's text is a contiguous range of the file's non-marker lines:
 * one array for the file, a range of it for each snippet (linear, however
 * many snippets overlap or stay open to the end). */
static void collect_lines(const struct textfile *tf, struct snippet_set *set, const bool *is_marker)
{
	/* before[n]: how many non-marker lines come before line n */
	size_t *before = xmalloc((tf->n_lines + 2) * sizeof *before);
	set->text_lines = xmalloc((tf->n_lines + 1) * sizeof *set->text_lines);
	size_t k = 0;
	for (size_t n = 1; n <= tf->n_lines + 1; n++) {
		before[n] = k;
		if (n <= tf->n_lines && !is_marker[n])
			set->text_lines[k++] = n;
	}
	for (size_t i = 0; i < set->n; i++) {
		struct snippet *sn = &set->v[i];
		size_t last = sn->end_line ? sn->end_line : tf->n_lines + 1;
		sn->lines = set->text_lines + before[sn->start_line + 1 <= last ? sn->start_line + 1 : last];
		sn->n_lines = before[last] - before[sn->start_line + 1 <= last ? sn->start_line + 1 : last];
	}
	free(before);
}

/* Line n, whose first non-blank bytes are "//": a marker, a near miss or
 * neither. */
static void scan_line(struct scan *s, const struct textfile *tf, size_t n, bool *is_marker)
{
	size_t len;
	const char *line = textfile_line(tf, n, &len);
	size_t lead = indent_col(line, len) - 1;
	if (len - lead < 2 || line[lead] != '/' || line[lead + 1] != '/')
		return;
	/* and the head after the slashes and blanks starts with the
	 * word: "snip" begins within its first 5 bytes (end snippet,
	 * endsnippet, snippet, and each near miss) */
	size_t h = lead;
	while (h < len && line[h] == '/')
		h++;
	while (h < len && (line[h] == ' ' || line[h] == '\t'))
		h++;
	if (!mentions_snip(line + h, len - h < 8 ? len - h : 8))
		return;
	struct re_match g;
	size_t col = indent_col(line, len);
	if (re_search(&start_re, line, len, 0, &g)) {
		is_marker[n] = true;
		open_snippet(s, n, line + g.start[1], g.end[1] - g.start[1], col);
	} else if (re_search(&end_re, line, len, 0, &g)) {
		is_marker[n] = true;
		bool named = re_group_set(&g, 1);
		close_snippet(s, n, named ? line + g.start[1] : NULL, named ? g.end[1] - g.start[1] : 0, col);
	} else if (near_miss(line, len)) {
		is_marker[n] = true;
		problem(s, D_SNIPPET_MISSPELT, n, col,
			"snippet markers are spelled '// snippet: NAME' and '// end snippet' (or '// end snippet: NAME')",
			"this comment looks like a snippet marker but is not one");
	}
}

size_t snippet_scan(const struct textfile *tf, bool report, struct snippet_set *set)
{
	memset(set, 0, sizeof *set);
	struct scan s = {.tf = tf, .report = report, .set = set};
	bool *is_marker = xcalloc(tf->n_lines + 2, sizeof *is_marker);
	/* cheap filter: every marker and near miss is a line that starts
	 * (after blanks) with '//', as all three patterns are anchored so.
	 * Such lines are found by looking for "//" in the text, not by
	 * reading every line's indentation: the first "//" of a line is its
	 * start when only blanks come before it, and the line is done. */
	const char *data = tf->data, *end = tf->data + tf->len;
	size_t n = 1;
	for (const char *p = data; tf->n_lines && (p = memchr(p, '/', (size_t)(end - p))) != NULL;) {
		if (p + 1 == end || p[1] != '/') {
			p++; /* a lone '/': a division, a path */
			continue;
		}
		size_t off = (size_t)(p - data);
		while (n < tf->n_lines && tf->line_start[n] <= off)
			n++;
		bool leads = true;
		for (size_t i = tf->line_start[n - 1]; i < off && leads; i++)
			leads = data[i] == ' ' || data[i] == '\t';
		if (leads)
			scan_line(&s, tf, n, is_marker);
		p = n < tf->n_lines ? data + tf->line_start[n] : end;
	}
	for (size_t i = 0; i < s.depth; i++) {
		struct snippet *sn = &set->v[s.open[i]];
		size_t len;
		const char *line = textfile_line(tf, sn->start_line, &len);
		problem(&s, D_SNIPPET_UNTERMINATED, sn->start_line, indent_col(line, len),
			"add '// end snippet' after its last line", "snippet '%s' is never closed", sn->name);
	}
	collect_lines(tf, set, is_marker);
	free(is_marker);
	free(s.open);
	return set->problems;
}

const struct snippet *snippet_find(const struct snippet_set *set, const char *name)
{
	size_t i;
	return strmap_get(&set->names, name, strlen(name), &i) ? &set->v[i] : NULL;
}

void snippet_set_free(struct snippet_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i].name);
	free(set->v);
	free(set->text_lines);
	strmap_free(&set->names);
	memset(set, 0, sizeof *set);
}

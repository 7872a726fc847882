/* snippet.c - see snippet.h. */
#include "snippet.h"

#include <stdarg.h>
#include <stdint.h>
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
	size_t *markers; /* the marker lines, ascending (the scan goes down the file) */
	size_t n_markers, markers_cap;
};

static void mark(struct scan *s, size_t n)
{
	s->markers = xgrow(s->markers, &s->markers_cap, s->n_markers + 1, sizeof *s->markers);
	s->markers[s->n_markers++] = n;
}

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

/* mentions_snip over the head's first 8 bytes of its line, without
 * finding the line's end first: "snip" holds no LF, so a match that
 * starts before the LF ends before it. */
static bool head_mentions_snip(const char *h, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the head's 8 bytes as one word, every letter made lower case: "snip"
	 * at each of the 5 starts is one compare (|0x20 makes s, n, i, p of
	 * S, N, I, P and of no other byte), and a match counts only with no
	 * LF before it (its own four bytes hold none) */
	if (end - h >= 8) {
		uint64_t w;
		memcpy(&w, h, sizeof w);
		w |= UINT64_C(0x2020202020202020);
		const uint32_t snip = (uint32_t)'s' | (uint32_t)'n' << 8 | (uint32_t)'i' << 16 | (uint32_t)'p' << 24;
		for (unsigned i = 0; i <= 4; i++)
			if ((uint32_t)(w >> (8 * i)) == snip)
				return !memchr(h, '\n', i);
		return false;
	}
#endif
	size_t k = end - h < 8 ? (size_t)(end - h) : 8; /* the head's first 8 bytes, up to its LF */
	const char *lf = memchr(h, '\n', k);
	return mentions_snip(h, lf ? (size_t)(lf - h) : k);
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
 * many snippets overlap or stay open to the end).  Markers are a few
 * lines of a file: the array is filled a run between two markers at a
 * time, and a snippet's range found from the markers above its lines. */
static size_t before_line(const struct scan *s, size_t n)
{
	/* how many non-marker lines come before line n: n - 1 less the
	 * markers above it (a binary search: a file may be all markers) */
	size_t lo = 0, hi = s->n_markers;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->markers[mid] < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return n - 1 - lo;
}

static void collect_lines(const struct textfile *tf, struct snippet_set *set, const struct scan *s)
{
	if (set->n == 0) /* no snippet: no text to hand out */
		return;
	set->text_lines = xmalloc((tf->n_lines + 1) * sizeof *set->text_lines);
	size_t k = 0, from = 1;
	for (size_t m = 0; m <= s->n_markers; m++) {
		size_t to = m < s->n_markers ? s->markers[m] : tf->n_lines + 1; /* the run from..to-1 */
		for (size_t n = from; n < to; n++)
			set->text_lines[k++] = n;
		from = to + 1;
	}
	for (size_t i = 0; i < set->n; i++) {
		struct snippet *sn = &set->v[i];
		size_t last = sn->end_line ? sn->end_line : tf->n_lines + 1;
		size_t first = before_line(s, sn->start_line + 1 <= last ? sn->start_line + 1 : last);
		sn->lines = set->text_lines + first;
		sn->n_lines = before_line(s, last) - first;
	}
}

/* Line n, whose first non-blank bytes are "//": a marker, a near miss or
 * neither. */
static void scan_line(struct scan *s, const struct textfile *tf, size_t n)
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
	/* the two markers' patterns each start "//[ \t]*" and a literal word:
	 * only the one whose word is there is run (an end line ran the
	 * start pattern first, to no end).  The words are start_re's and
	 * end_re's: a change to either pattern's word changes them here. */
	size_t w = lead + 2;
	while (w < len && (line[w] == ' ' || line[w] == '\t'))
		w++;
	bool may_start = len - w >= 8 && memcmp(line + w, "snippet:", 8) == 0;
	bool may_end = len - w >= 11 && memcmp(line + w, "end snippet", 11) == 0;
	if (may_start && re_search(&start_re, line, len, 0, &g)) {
		mark(s, n);
		open_snippet(s, n, line + g.start[1], g.end[1] - g.start[1], col);
	} else if (may_end && re_search(&end_re, line, len, 0, &g)) {
		mark(s, n);
		bool named = re_group_set(&g, 1);
		close_snippet(s, n, named ? line + g.start[1] : NULL, named ? g.end[1] - g.start[1] : 0, col);
	} else if (near_miss(line, len)) {
		mark(s, n);
		problem(s, D_SNIPPET_MISSPELT, n, col,
			"snippet markers are spelled '// snippet: NAME' and '// end snippet' (or '// end snippet: NAME')",
			"this comment looks like a snippet marker but is not one");
	}
}

/* The general filter: every marker and near miss is a line that starts
 * (after blanks) with '//', as all three patterns are anchored so, and
 * whose head after the slashes and blanks holds "snip" within its first
 * 8 bytes (what scan_line asks first).  Such lines are found by looking
 * for "//" in the text and only blanks before it back to the line's
 * start, not by reading every line: the line's number (a search of the
 * index) only for the few that pass. */
static void filter_by_slashes(struct scan *s, const struct textfile *tf)
{
	const char *data = tf->data, *end = tf->data + tf->len;
	for (const char *p = data; (p = memchr(p, '/', (size_t)(end - p))) != NULL;) {
		if (p + 1 == end || p[1] != '/') {
			p++; /* a lone '/': a division, a path */
			continue;
		}
		const char *b = p;
		while (b > data && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		const char *h = p + 2;
		if (b > data && b[-1] != '\n') {
			p = h; /* "//" after code: a line comment, a URL */
			continue;
		}
		while (h < end && *h == '/')
			h++;
		while (h < end && (*h == ' ' || *h == '\t'))
			h++;
		if (!head_mentions_snip(h, end)) {
			p = h;
			continue;
		}
		size_t n = textfile_line_of(tf, (size_t)(p - data));
		scan_line(s, tf, n);
		p = n < tf->n_lines ? data + tf->line_start[n] : end;
	}
}

size_t snippet_scan(const struct textfile *tf, bool report, struct snippet_set *set)
{
	memset(set, 0, sizeof *set);
	struct scan s = {.tf = tf, .report = report, .set = set};
	filter_by_slashes(&s, tf);
	for (size_t i = 0; i < s.depth; i++) {
		struct snippet *sn = &set->v[s.open[i]];
		size_t len;
		const char *line = textfile_line(tf, sn->start_line, &len);
		problem(&s, D_SNIPPET_UNTERMINATED, sn->start_line, indent_col(line, len),
			"add '// end snippet' after its last line", "snippet '%s' is never closed", sn->name);
	}
	collect_lines(tf, set, &s);
	free(s.markers);
	free(s.open);
	return set->problems;
}

const struct snippet *snippet_find(const struct snippet_set *set, const char *name)
{
	size_t i;
	return strmap_get(&set->names, name, strlen(name), &i) ? &set->v[i] : NULL;
}

bool snippet_run(const struct textfile *tf, const struct snippet *sn, const char **s, size_t *len)
{
	/* the lines ascend, so they are consecutive when the last is as far
	 * from the first as their count says */
	if (sn->n_lines == 0 || sn->lines[sn->n_lines - 1] - sn->lines[0] != sn->n_lines - 1)
		return false;
	size_t first = sn->lines[0], last = sn->lines[sn->n_lines - 1];
	if (last >= tf->n_lines) /* the file's last line: a LF after it only when the file ends in one */
		return false;
	size_t from = tf->line_start[first - 1], to = tf->line_start[last]; /* to: past the last line's LF */
	*s = tf->data + from;
	*len = to - from;
	return true;
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

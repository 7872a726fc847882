/* lsp.c - see lsp.h. */
#include "lsp.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli_quote.h"
#include "course.h"
#include "evsig.h"
#include "pathkind.h"
#include "place.h"
#include "repo.h"
#include "snippet.h"
#include "textfile.h"
#include "util.h"

/* ---- text and positions ---------------------------------------------------- */

/* A line longer than this has its columns taken as they come (a byte, a
 * code point and a UTF-16 unit counted alike), so that the 200
 * diagnostics of a hostile page of one line cost 200 walks of at most
 * this many bytes, not of the line. */
#define LSP_WALK_MAX (64u * 1024u)

/* The bytes of the UTF-8 sequence starting with lead byte c (1 for a
 * stray continuation byte, so a walk always moves on). */
static size_t seq_len(unsigned char c)
{
	return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

/* UTF-16 code units of s[0..byte) (a 4-byte sequence is a surrogate pair). */
static size_t u16_of_byte(const char *s, size_t len, size_t byte)
{
	if (len > LSP_WALK_MAX)
		return byte < len ? byte : len;
	size_t u = 0;
	for (size_t i = 0; i < byte && i < len; i += seq_len((unsigned char)s[i]))
		u += seq_len((unsigned char)s[i]) == 4 ? 2 : 1;
	return u;
}

/* The byte offset of UTF-16 unit u in s (clamped to len). */
static size_t byte_of_u16(const char *s, size_t len, size_t u)
{
	if (len > LSP_WALK_MAX)
		return u < len ? u : len;
	size_t i = 0, at = 0;
	while (i < len && at < u) {
		at += seq_len((unsigned char)s[i]) == 4 ? 2 : 1;
		i += seq_len((unsigned char)s[i]);
	}
	return i < len ? i : len;
}

/* The byte offset of code point cp (0-based) in s (clamped to len). */
static size_t byte_of_cp(const char *s, size_t len, size_t cp)
{
	if (len > LSP_WALK_MAX)
		return cp < len ? cp : len;
	size_t i = 0;
	for (size_t k = 0; i < len && k < cp; k++)
		i += seq_len((unsigned char)s[i]);
	return i < len ? i : len;
}

void lsp_doc_set_text(struct lsp_doc *d, const char *text, size_t len)
{
	free(d->text);
	free(d->line_start);
	d->text = xstrndup(text, len);
	d->len = len;
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	d->line_start = xmalloc(n * sizeof *d->line_start);
	d->line_start[0] = 0;
	d->n_lines = 1;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n')
			d->line_start[d->n_lines++] = i + 1;
}

/* Line n (0-based) of d without its end of line (LF or CRLF). */
static const char *doc_line(const struct lsp_doc *d, size_t n, size_t *len)
{
	if (n >= d->n_lines) {
		*len = 0;
		return "";
	}
	size_t s = d->line_start[n], e = n + 1 < d->n_lines ? d->line_start[n + 1] - 1 : d->len;
	if (e > s && d->text[e - 1] == '\r')
		e--;
	*len = e - s;
	return d->text + s;
}

/* The byte offset in d of LSP position {line, character}. */
static size_t doc_offset(const struct lsp_doc *d, size_t line, size_t character)
{
	if (line >= d->n_lines)
		return d->len;
	size_t len;
	const char *s = doc_line(d, line, &len);
	return d->line_start[line] + byte_of_u16(s, len, character);
}

/* The 0-based line holding byte offset off. */
static size_t doc_line_of(const struct lsp_doc *d, size_t off)
{
	return textfile_line_index(d->line_start, d->n_lines, off);
}

static json_t *position_json(size_t line, size_t character)
{
	return json_pack("{s:I,s:I}", "line", (json_int_t)line, "character", (json_int_t)character);
}

/* The LSP Position of byte offset off in d. */
static json_t *doc_position(const struct lsp_doc *d, size_t off)
{
	size_t line = doc_line_of(d, off), len;
	const char *s = doc_line(d, line, &len);
	return position_json(line, u16_of_byte(s, len, off - d->line_start[line]));
}

static json_t *doc_range(const struct lsp_doc *d, size_t start, size_t end)
{
	return json_pack("{s:o,s:o}", "start", doc_position(d, start), "end", doc_position(d, end));
}

/* pos's line and character, false when it is no Position. */
static bool read_position(const json_t *pos, size_t *line, size_t *character)
{
	json_int_t l, c;
	if (json_unpack((json_t *)pos, "{s:I,s:I}", "line", &l, "character", &c) != 0 || l < 0 || c < 0)
		return false;
	*line = (size_t)l;
	*character = (size_t)c;
	return true;
}

/* ---- paths and URIs ---------------------------------------------------------- */

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *lsp_uri_to_rel(const char *uri)
{
	if (strncmp(uri, "file://", 7) != 0)
		return NULL;
	const char *p = uri + 7;
	if (*p != '/')
		return NULL; /* file://HOST/...: not this machine's */
	struct buf b = {0};
	for (; *p; p++) {
		int h, l;
		if (*p == '%' && (h = hexval(p[1])) >= 0 && (l = hexval(p[2])) >= 0 && (h | l)) {
			buf_putc(&b, (char)(h * 16 + l));
			p += 2;
		} else {
			buf_putc(&b, *p);
		}
	}
	char *abs = buf_detach(&b);
	/* the editor's name of the file may pass through links: take the
	 * real folder, as the course's root is one */
	char *slash = strrchr(abs, '/'), *real = NULL;
	*slash = '\0';
	char *dir = realpath(*abs ? abs : "/", NULL);
	if (dir)
		real = xasprintf("%s/%s", dir, slash + 1);
	free(dir);
	*slash = '/';
	char *root = realpath(repo_root(), NULL);
	const char *path = real ? real : abs;
	char *rel = NULL;
	size_t n = root ? strlen(root) : 0;
	if (root && strncmp(path, root, n) == 0 && path[n] == '/')
		rel = repo_normalize(path + n + 1);
	free(root);
	free(real);
	free(abs);
	return rel;
}

char *lsp_rel_to_uri(const char *rel)
{
	char *root = realpath(repo_root(), NULL);
	char *abs = xasprintf("%s/%s", root ? root : repo_root(), rel);
	free(root);
	struct buf b = {0};
	buf_puts(&b, "file://");
	for (const unsigned char *p = (const unsigned char *)abs; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/-._~", *p))
			buf_putc(&b, (char)*p);
		else
			buf_printf(&b, "%%%02X", *p);
	}
	free(abs);
	return buf_detach(&b);
}

/* ---- the check ------------------------------------------------------------------ */

/* The byte range in d of a diagnostic's place: col and end_col count
 * code points (diag.h; 0: the whole line). */
static void record_range(const struct lsp_doc *d, const struct diag_where *at, size_t *start, size_t *end)
{
	size_t line = at->line ? at->line - 1 : 0, len;
	const char *s = doc_line(d, line, &len);
	size_t base = line < d->n_lines ? d->line_start[line] : d->len;
	if (!at->line || !at->col) {
		*start = base;
		*end = base + len;
		return;
	}
	*start = base + byte_of_cp(s, len, at->col - 1);
	*end = at->end_col > at->col ? base + byte_of_cp(s, len, at->end_col - 1) : *start;
}

/* An LSP Range for a place in another file, from the line the record
 * carries (its window: line_col is its first column). */
static json_t *where_range(const struct diag_where *at)
{
	size_t line = at->line ? at->line - 1 : 0;
	if (!at->col)
		return json_pack("{s:o,s:o}", "start", position_json(line, 0), "end", position_json(line + 1, 0));
	size_t c0 = at->col - 1, c1 = at->end_col > at->col ? at->end_col - 1 : c0;
	if (at->line_text && at->col >= at->line_col) {
		/* the window's code points before the place, in UTF-16 units */
		size_t b0 = byte_of_cp(at->line_text, at->line_len, at->col - at->line_col);
		size_t b1 = byte_of_cp(at->line_text, at->line_len, c1 + 1 - at->line_col);
		size_t lead = at->line_col - 1; /* a window's cut-off start: code points, counted as units */
		c0 = lead + u16_of_byte(at->line_text, at->line_len, b0);
		c1 = lead + u16_of_byte(at->line_text, at->line_len, b1);
	}
	return json_pack("{s:o,s:o}", "start", position_json(line, c0), "end", position_json(line, c1));
}

/* The number a note points at, when it points at one in an evidence
 * file: a replacement the code actions offer. */
static char *note_value(const struct diag_record_note *n)
{
	const struct diag_where *at = &n->at;
	if (!at->path || strncmp(at->path, "evidence/", 9) != 0 || !at->line_text || !at->col ||
	    at->end_col <= at->col || at->col < at->line_col)
		return NULL;
	size_t b0 = byte_of_cp(at->line_text, at->line_len, at->col - at->line_col);
	size_t b1 = byte_of_cp(at->line_text, at->line_len, at->end_col - at->line_col);
	if (b1 <= b0 || b1 - b0 > 64)
		return NULL;
	const char *v = at->line_text + b0;
	if (strspn(v, "0123456789.,+-eE") < b1 - b0 || !strpbrk(v, "0123456789"))
		return NULL;
	return xstrndup(v, b1 - b0);
}

static json_t *related_json(const struct diag_record_note *n)
{
	char *uri = lsp_rel_to_uri(n->at.path);
	json_t *j = json_pack("{s:{s:s,s:o},s:s}", "location", "uri", uri, "range", where_range(&n->at), "message",
			      n->message ? n->message : "");
	free(uri);
	return j;
}

/* diag's sink: each finished diagnostic becomes an LSP Diagnostic of d. */
static void collect(const struct diag_record *r, void *ctx)
{
	struct lsp_doc *d = ctx;
	if (d->n_found == d->cap_found) {
		d->cap_found = d->cap_found ? 2 * d->cap_found : 16;
		d->found = xrealloc(d->found, d->cap_found * sizeof *d->found);
	}
	struct lsp_found *f = &d->found[d->n_found++];
	*f = (struct lsp_found){.kind = r->kind};
	bool here = r->at.path && d->rel && strcmp(r->at.path, d->rel) == 0;
	struct buf msg = {0};
	if (!here && r->at.path) /* another file's problem (a run's seal): shown at the top, pointing there */
		buf_printf(&msg, "%s:%zu: ", r->at.path, r->at.line);
	buf_puts(&msg, r->message);
	if (r->hint)
		buf_printf(&msg, "\nhint: %s", r->hint);
	if (here)
		record_range(d, &r->at, &f->start, &f->end);
	json_t *related = json_array();
	if (!here && r->at.path) {
		struct diag_record_note self = {r->at, "here"};
		json_array_append_new(related, related_json(&self));
	}
	f->values = xcalloc(r->n_notes ? r->n_notes : 1, sizeof *f->values);
	for (size_t i = 0; i < r->n_notes; i++) {
		if (r->notes[i].at.path)
			json_array_append_new(related, related_json(&r->notes[i]));
		char *v = note_value(&r->notes[i]);
		if (v)
			f->values[f->n_values++] = v;
	}
	char *text = buf_detach(&msg);
	int severity = r->level == DIAG_ERROR ? 1 : r->level == DIAG_WARNING ? 2 : 3;
	f->diag = json_pack("{s:o,s:i,s:s,s:s,s:s,s:o}", "range", doc_range(d, f->start, f->end), "severity",
			    severity, "code", diag_id(r->kind), "source", "coursecheck", "message", text,
			    "relatedInformation", related);
	free(text);
}

static void forget_findings(struct lsp_doc *d)
{
	for (size_t i = 0; i < d->n_found; i++) {
		json_decref(d->found[i].diag);
		for (size_t k = 0; k < d->found[i].n_values; k++)
			free(d->found[i].values[k]);
		free(d->found[i].values);
	}
	d->n_found = 0;
	ledger_free(&d->lg);
	d->lg = (struct ledger){0};
}

/* What the previous check cached, dropped so this one reads the course as
 * it is now (a program or run changed since): the model with its caches
 * (course_release empties place's and drift's), and the signatures'
 * verdicts; patterns, the root and the printer outlive a check. */
static void fresh_model(void)
{
	course_release();
	evsig_release();
	course_open(); /* what the page needs, not the whole course listed */
	evsig_load(NULL);
}

json_t *lsp_check(struct lsp_doc *d, bool strict)
{
	forget_findings(d);
	json_t *diags = json_array();
	if (d->rel && (pathkind_of(d->rel) == PATHKIND_PAGE || pathkind_of(d->rel) == PATHKIND_README)) {
		fresh_model();
		struct check_opts opts = {.strict = strict};
		struct diag_sink sink = {collect, d};
		diag_set_sink(&sink);
		check_page_text(d->rel, d->text, d->len, &opts, &d->lg);
		diag_set_sink(NULL);
		for (size_t i = 0; i < d->n_found; i++)
			json_array_append(diags, d->found[i].diag);
	}
	return json_pack("{s:s,s:o}", "uri", d->uri, "diagnostics", diags);
}

void lsp_doc_free(struct lsp_doc *d)
{
	forget_findings(d);
	free(d->found);
	free(d->uri);
	free(d->rel);
	free(d->text);
	free(d->line_start);
	*d = (struct lsp_doc){0};
}

/* ---- the ledger under the cursor -------------------------------------------------- */

/* The byte range of entry e in d: its span from (line, col), or for a
 * block (span 0) from its line to its closing fence. */
static void entry_range(const struct lsp_doc *d, const struct ledger_entry *e, size_t *start, size_t *end)
{
	size_t line = e->line ? e->line - 1 : 0, len;
	const char *s = doc_line(d, line, &len);
	size_t base = line < d->n_lines ? d->line_start[line] : d->len;
	if (e->span) {
		*start = base + (e->col ? e->col - 1 : 0);
		*end = *start + e->span;
		if (*end > d->len)
			*end = d->len;
		return;
	}
	*start = base;
	*end = base + len;
	size_t ind = strspn(s, " ");
	if (len - ind < 3 || (strncmp(s + ind, "```", 3) != 0 && strncmp(s + ind, "~~~", 3) != 0))
		return;
	for (size_t n = line + 1; n < d->n_lines; n++) {
		size_t l2;
		const char *t = doc_line(d, n, &l2);
		size_t i2 = strspn(t, " ");
		if (l2 - i2 >= 3 && strncmp(t + i2, s + ind, 3) == 0) {
			*end = d->line_start[n] + l2;
			return;
		}
	}
}

/* The entry of the last check under byte offset off (the narrowest). */
static const struct ledger_entry *entry_at(const struct lsp_doc *d, size_t off)
{
	const struct ledger_entry *best = NULL;
	size_t best_len = SIZE_MAX;
	for (size_t i = 0; i < d->lg.n; i++) {
		size_t s, e;
		entry_range(d, &d->lg.v[i], &s, &e);
		if (off >= s && off <= e && e - s < best_len) {
			best = &d->lg.v[i];
			best_len = e - s;
		}
	}
	return best;
}

/* Line n of a course file, read now (malloc'd, or NULL). */
static char *file_line(const char *rel, size_t n)
{
	char *fs;
	const char *why;
	if (repo_resolve(rel, &fs, &why) != REPO_OK)
		return NULL;
	struct textfile tf;
	char *line = NULL;
	if (textfile_read(fs, rel, &tf, &why) == 0) {
		size_t len;
		const char *s = textfile_line(&tf, n, &len);
		if (n >= 1 && n <= tf.n_lines)
			line = xstrndup(s, len);
		textfile_free(&tf);
	}
	free(fs);
	return line;
}

static bool read_doc_position(const struct lsp_doc *d, const json_t *pos, size_t *off)
{
	size_t line, character;
	if (!read_position(pos, &line, &character))
		return false;
	*off = doc_offset(d, line, character);
	return true;
}

json_t *lsp_hover(const struct lsp_doc *d, const json_t *pos)
{
	size_t off;
	if (!read_doc_position(d, pos, &off))
		return json_null();
	const struct ledger_entry *e = entry_at(d, off);
	if (!e)
		return json_null();
	struct buf b = {0};
	buf_printf(&b, "**%s** `%s`: %s", ledger_kind_name(e->kind), e->claim ? e->claim : "",
		   e->source ? e->source : "");
	if (e->detail)
		buf_printf(&b, "\n\n%s", e->detail);
	for (size_t i = 0; i < e->n_refs && i < 8; i++) {
		const struct ledger_ref *r = &e->refs[i];
		buf_printf(&b, "\n\n%s:%zu", r->path, r->line);
		if (r->col)
			buf_printf(&b, ":%zu", r->col);
		if (r->note)
			buf_printf(&b, " (%s)", r->note);
		char *line = file_line(r->path, r->line);
		if (line)
			buf_printf(&b, "\n\n```text\n%s\n```", line);
		free(line);
	}
	char *text = buf_detach(&b);
	size_t s, en;
	entry_range(d, e, &s, &en);
	json_t *j = json_pack("{s:{s:s,s:s},s:o}", "contents", "kind", "markdown", "value", text, "range",
			      doc_range(d, s, en));
	free(text);
	return j;
}

/* An LSP Location for a ledger reference. */
static json_t *ref_location(const struct ledger_ref *r)
{
	char *uri = lsp_rel_to_uri(r->path);
	size_t line = r->line ? r->line - 1 : 0, c0 = 0, c1 = 0;
	char *text = file_line(r->path, r->line);
	if (text && r->col) {
		size_t len = strlen(text), b0 = r->col - 1 < len ? r->col - 1 : len;
		size_t b1 = b0 + r->len < len ? b0 + r->len : len;
		c0 = u16_of_byte(text, len, b0);
		c1 = u16_of_byte(text, len, b1);
	}
	free(text);
	json_t *end = r->col ? position_json(line, c1) : position_json((r->line_end ? r->line_end : r->line), 0);
	json_t *j = json_pack("{s:s,s:{s:o,s:o}}", "uri", uri, "range", "start", position_json(line, c0), "end", end);
	free(uri);
	return j;
}

json_t *lsp_definition(const struct lsp_doc *d, const json_t *pos)
{
	size_t off;
	if (!read_doc_position(d, pos, &off))
		return json_null();
	const struct ledger_entry *e = entry_at(d, off);
	if (!e || !e->n_refs)
		return json_null();
	return ref_location(&e->refs[0]);
}

/* ---- code actions ------------------------------------------------------------------ */

/* The place name of evidence token (path, line, 1-based byte col): "[ROW
 * | COLUMN]" or "[KEY]" in out, "" when no name picks it out. */
static void ref_place_name(const char *path, size_t line, size_t col, char *out, size_t outlen)
{
	out[0] = '\0';
	struct evfile *ev = course_evidence(path);
	if (!ev || ev->state != LOAD_OK || !ev->ev || !col)
		return;
	const struct num_token *toks;
	size_t n;
	if (!course_evidence_tokens(ev, line, &toks, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		if (toks[i].start + 1 != col)
			continue;
		const struct evidence *e = ev->ev;
		size_t k = line >= e->stdout_first && line < e->stdout_first + e->n_stdout ? line - e->stdout_first
											   : SIZE_MAX;
		struct place_hit hit = {ev, k, line, toks[i]};
		place_name(&hit, out, outlen);
		return;
	}
}

/* A place name as written inside the page's line: a GFM table's bar is
 * written \| there. */
static char *place_for_line(const char *name, bool in_table)
{
	struct buf b = {0};
	for (const char *p = name; *p; p++) {
		if (*p == '|' && in_table)
			buf_putc(&b, '\\');
		buf_putc(&b, *p);
	}
	return buf_detach(&b);
}

static bool line_in_table(const struct lsp_doc *d, size_t off)
{
	size_t len;
	const char *s = doc_line(d, doc_line_of(d, off), &len);
	return s[strspn(s, " ")] == '|';
}

/* A CodeAction inserting or replacing text at [start, end) of d. */
static json_t *edit_action(const struct lsp_doc *d, const char *title, const char *kind, size_t start, size_t end,
			   const char *new_text, bool preferred)
{
	json_t *edits = json_pack("[{s:o,s:s}]", "range", doc_range(d, start, end), "newText", new_text);
	json_t *j = json_pack("{s:s,s:s,s:{s:{s:o}}}", "title", title, "kind", kind, "edit", "changes", d->uri, edits);
	if (preferred)
		json_object_set_new(j, "isPreferred", json_true());
	return j;
}

/* The annotation after a number ending at byte end: a space before it
 * unless punctuation follows (README: "45,057<!-- at: ... -->, which"). */
static char *annotation(const struct lsp_doc *d, size_t end, const char *what, const char *place)
{
	char c = end < d->len ? d->text[end] : '\n';
	bool tight = c != ' ' && c != '\n' && c != '\r' && c != '\t';
	return xasprintf("%s<!-- %s: %s -->", tight ? "" : " ", what, place);
}

/* The finding of kind id (diag.def's stable id: the server answers a
 * kind, it never raises one) over [s, e], or NULL. */
static const struct lsp_found *found_over(const struct lsp_doc *d, size_t s, size_t e, const char *id)
{
	for (size_t i = 0; i < d->n_found; i++)
		if (strcmp(diag_id(d->found[i].kind), id) == 0 && d->found[i].start < e + 1 && s < d->found[i].end + 1)
			return &d->found[i];
	return NULL;
}

/* Bind this number to its place: one action for each place its
 * references name (an ambiguous number has several); one-run: instead
 * of at: where the check called the number volatile. */
static void bind_actions(const struct lsp_doc *d, const struct ledger_entry *e, json_t *out)
{
	if (e->kind != LG_TRACED && e->kind != LG_AMBIGUOUS)
		return;
	size_t s, en;
	entry_range(d, e, &s, &en);
	const char *what = found_over(d, s, en, "number-volatile") ? "one-run" : "at";
	/* the number itself ends where its digits do: the annotation goes after a unit */
	for (size_t i = 0; i < e->n_refs && i < 8; i++) {
		char name[256];
		ref_place_name(e->refs[i].path, e->refs[i].line, e->refs[i].col, name, sizeof name);
		if (!name[0])
			continue;
		char *place = place_for_line(name, line_in_table(d, s));
		char *text = annotation(d, en, what, place);
		char *title = xasprintf("Bind %s to %s (%s:)", e->claim ? e->claim : "this number", name, what);
		json_array_append_new(out, edit_action(d, title, "quickfix", en, en, text, i == 0));
		free(title);
		free(text);
		free(place);
	}
}

/* Whether a and b[0..n) write one value (commas as thousands separators). */
static bool same_number(const char *a, const char *b, size_t n)
{
	char x[72], y[72];
	size_t i = 0, k = 0;
	for (; *a && i + 1 < sizeof x; a++)
		if (*a != ',')
			x[i++] = *a;
	for (size_t j = 0; j < n && k + 1 < sizeof y; j++)
		if (b[j] != ',')
			y[k++] = b[j];
	x[i] = y[k] = '\0';
	return strtod(x, NULL) == strtod(y, NULL);
}

/* Replace with the evidence's value: the numbers a diagnostic's notes
 * point at (the nearest values of an untraced number, a place's value). */
static void replace_actions(const struct lsp_doc *d, size_t s, size_t e, json_t *out)
{
	for (size_t i = 0; i < d->n_found; i++) {
		const struct lsp_found *f = &d->found[i];
		if (!f->n_values || f->end <= f->start || f->start > e || s > f->end)
			continue;
		/* the number's digits, not its unit */
		size_t n = strspn(d->text + f->start, "0123456789.,+-eE");
		if (n == 0 || n > f->end - f->start)
			continue;
		for (size_t k = 0; k < f->n_values && k < 4; k++) {
			if (same_number(f->values[k], d->text + f->start, n))
				continue; /* the number is the value already: another check's problem */
			char *title = xasprintf("Replace %.*s with the evidence's %s", (int)n, d->text + f->start, f->values[k]);
			json_t *a = edit_action(d, title, "quickfix", f->start, f->start + n, f->values[k], k == 0);
			json_object_set_new(a, "diagnostics", json_pack("[O]", f->diag));
			json_array_append_new(out, a);
			free(title);
		}
	}
}

/* Quote these evidence lines as a transcript block: the stdout lines of
 * the first run the numbers in [s, e) are traced to, inserted after their
 * paragraph. */
static void transcript_action(const struct lsp_doc *d, size_t s, size_t e, json_t *out)
{
	const char *path = NULL;
	size_t lo = SIZE_MAX, hi = 0;
	for (size_t i = 0; i < d->lg.n; i++) {
		const struct ledger_entry *le = &d->lg.v[i];
		size_t a, b;
		entry_range(d, le, &a, &b);
		if (le->kind != LG_TRACED || !le->n_refs || b < s || a > e || !le->refs[0].col)
			continue;
		if (path && strcmp(path, le->refs[0].path) != 0)
			continue;
		path = le->refs[0].path;
		lo = le->refs[0].line < lo ? le->refs[0].line : lo;
		hi = le->refs[0].line > hi ? le->refs[0].line : hi;
	}
	if (!path)
		return;
	struct evfile *ev = course_evidence(path);
	if (!ev || ev->state != LOAD_OK || !ev->ev)
		return;
	const struct evidence *x = ev->ev;
	if (lo < x->stdout_first || hi >= x->stdout_first + x->n_stdout || x->n_runs == 0)
		return;
	const char *label = d->lg.page.n_evidence && strcmp(d->lg.page.evidence[0], path) == 0 ? NULL : path;
	if (label)
		return; /* a transcript of another evidence file needs its label: not offered */
	char *block = cli_quote_text(x, &x->runs[0], false, NULL, lo - x->stdout_first + 1, hi - x->stdout_first + 1);
	/* after the paragraph: at the first blank line from e on */
	size_t line = doc_line_of(d, e), at = d->len;
	for (size_t n = line; n < d->n_lines; n++) {
		size_t len;
		const char *t = doc_line(d, n, &len);
		if (strspn(t, " \t") == len) {
			at = d->line_start[n];
			break;
		}
	}
	char *text = at == d->len ? xasprintf("%s\n%s", d->len && d->text[d->len - 1] == '\n' ? "" : "\n", block)
				  : xasprintf("\n%s", block);
	char *title = xasprintf("Quote %s lines %zu-%zu as a transcript block", path, lo, hi);
	json_array_append_new(out, edit_action(d, title, "refactor.rewrite", at, at, text, false));
	free(title);
	free(text);
	free(block);
}

/* Whether text[i] ends a sentence (as check_claims splits them: '.', '!'
 * or '?' before a blank or the end). */
static bool sentence_end(const struct lsp_doc *d, size_t i)
{
	char c = d->text[i], n = i + 1 < d->len ? d->text[i + 1] : '\n';
	return (c == '.' || c == '!' || c == '?') && (n == ' ' || n == '\n' || n == '\t' || n == '\r');
}

/* Insert a claim for this sentence: the claim-unannotated sentence in
 * [s, e) gets <!-- claim: [P] OP [Q] --> after it, its first two traced
 * numbers' places compared as their values compare (one number: its
 * place == its value). */
static void claim_action(const struct lsp_doc *d, size_t s, size_t e, json_t *out)
{
	const struct lsp_found *f = found_over(d, s, e, "claim-unannotated");
	if (!f)
		return;
	/* the sentence: back to the last end or blank line, on to the next end */
	size_t a = f->start, b = f->start;
	while (a > 0 && !sentence_end(d, a - 1) && !(d->text[a - 1] == '\n' && a >= 2 && d->text[a - 2] == '\n'))
		a--;
	while (b < d->len && !sentence_end(d, b) && !(d->text[b] == '\n' && b + 1 < d->len && d->text[b + 1] == '\n'))
		b++;
	size_t insert = b < d->len && sentence_end(d, b) ? b + 1 : b;
	/* up to 8 traced numbers of the sentence with their places */
	char names[8][256];
	double vals[8];
	char *texts[8];
	size_t n = 0;
	for (size_t i = 0; i < d->lg.n && n < 8; i++) {
		const struct ledger_entry *le = &d->lg.v[i];
		size_t x, y;
		entry_range(d, le, &x, &y);
		if (x < a || x >= insert || !le->n_refs || !le->claim || (le->kind != LG_TRACED && le->kind != LG_AMBIGUOUS))
			continue;
		ref_place_name(le->refs[0].path, le->refs[0].line, le->refs[0].col, names[n], sizeof names[n]);
		if (!names[n][0])
			continue;
		struct buf t = {0};
		for (const char *p = le->claim; *p && strchr("0123456789.,", *p); p++)
			if (*p != ',')
				buf_putc(&t, *p);
		texts[n] = buf_detach(&t);
		vals[n] = strtod(texts[n], NULL);
		n++;
	}
	/* the pair compared: two numbers of one column (two timings, two
	 * counts), else the first two */
	size_t i0 = 0, i1 = n > 1 ? 1 : 0;
	bool paired = false;
	for (size_t i = 0; i < n && !paired; i++)
		for (size_t k = i + 1; k < n && !paired; k++) {
			const char *ci = strstr(names[i], " | "), *ck = strstr(names[k], " | ");
			if (ci && ck && strcmp(ci, ck) == 0) {
				i0 = i;
				i1 = k;
				paired = true;
			}
		}
	if (n == 0)
		return;
	bool table = line_in_table(d, a);
	char *p0 = place_for_line(names[i0], table), *claim;
	if (n >= 2) {
		char *p1 = place_for_line(names[i1], table);
		const char *op = vals[i0] < vals[i1] ? "<" : vals[i0] > vals[i1] ? ">" : "==";
		claim = xasprintf(" <!-- claim: %s %s %s -->", p0, op, p1);
		free(p1);
	} else {
		claim = xasprintf(" <!-- claim: %s == %s -->", p0, texts[0]);
	}
	char *title = xasprintf("Insert a claim for this sentence:%s", claim);
	json_array_append_new(out, edit_action(d, title, "quickfix", insert, insert, claim, true));
	free(title);
	free(claim);
	free(p0);
	for (size_t i = 0; i < n; i++)
		free(texts[i]);
}

json_t *lsp_code_actions(const struct lsp_doc *d, const json_t *range)
{
	size_t s, e;
	json_t *out = json_array();
	if (!read_doc_position(d, json_object_get(range, "start"), &s) ||
	    !read_doc_position(d, json_object_get(range, "end"), &e))
		return out;
	if (e < s)
		e = s;
	const struct ledger_entry *le = entry_at(d, s);
	if (le)
		bind_actions(d, le, out);
	replace_actions(d, s, e, out);
	claim_action(d, s, e, out);
	transcript_action(d, s, e, out);
	return out;
}

/* ---- completion of place names ------------------------------------------------------ */

/* Where a place name starts when off lies inside "<!-- ...[" on its line
 * (the bracket's next byte), else SIZE_MAX. */
static size_t place_start(const struct lsp_doc *d, size_t off)
{
	size_t line = doc_line_of(d, off), base = d->line_start[line];
	size_t open = SIZE_MAX, bracket = SIZE_MAX;
	for (size_t i = base; i < off; i++) {
		if (d->len - i >= 4 && strncmp(d->text + i, "<!--", 4) == 0)
			open = i, bracket = SIZE_MAX;
		else if (d->len - i >= 3 && strncmp(d->text + i, "-->", 3) == 0)
			open = SIZE_MAX;
		else if (open != SIZE_MAX && d->text[i] == '[')
			bracket = i + 1;
		else if (d->text[i] == ']')
			bracket = SIZE_MAX;
	}
	return open != SIZE_MAX ? bracket : SIZE_MAX;
}

/* Bounds of one completion: the items offered, and the evidence numbers
 * named to find them (a run of 100,000 numbers is not named whole at
 * each keystroke). */
#define LSP_MAX_COMPLETIONS 500
#define LSP_MAX_NAMED 5000

json_t *lsp_completion(const struct lsp_doc *d, const json_t *pos)
{
	size_t off;
	json_t *items = json_array();
	if (!read_doc_position(d, pos, &off) || !d->lg.page.n_evidence)
		return items;
	size_t from = place_start(d, off);
	if (from == SIZE_MAX)
		return items;
	char *norm = repo_normalize(d->lg.page.evidence[0]);
	struct evfile *ev = course_evidence(norm ? norm : d->lg.page.evidence[0]);
	free(norm);
	if (!ev || ev->state != LOAD_OK || !ev->ev)
		return items;
	bool table = line_in_table(d, off), closed = off < d->len && d->text[off] == ']';
	const struct evidence *x = ev->ev;
	json_t *seen = json_object();
	size_t named = 0;
	for (size_t k = 0; k < x->n_stdout && json_array_size(items) < LSP_MAX_COMPLETIONS && named < LSP_MAX_NAMED;
	     k++) {
		size_t line = x->stdout_first + k, n;
		const struct num_token *toks;
		if (!course_evidence_tokens(ev, line, &toks, &n))
			continue;
		for (size_t i = 0; i < n && json_array_size(items) < LSP_MAX_COMPLETIONS && named < LSP_MAX_NAMED; i++) {
			char name[256];
			named++;
			struct place_hit hit = {ev, k, line, toks[i]};
			place_name(&hit, name, sizeof name);
			size_t nl = strlen(name);
			if (nl < 3 || json_object_get(seen, name))
				continue;
			json_object_set_new(seen, name, json_true());
			name[nl - 1] = '\0'; /* without its brackets */
			char *inner = place_for_line(name + 1, table);
			char *text = xasprintf("%s%s", inner, closed ? "" : "]");
			size_t len;
			const char *s = textfile_line(&x->tf, line, &len);
			char *value = xstrndup(s + toks[i].start, toks[i].end - toks[i].start);
			char *detail = xasprintf("%s (%s:%zu)", value, ev->path, line);
			json_array_append_new(items, json_pack("{s:s,s:i,s:s,s:s,s:{s:o,s:s}}", "label", name + 1, "kind", 12,
							       "detail", detail, "filterText", inner, "textEdit", "range",
							       doc_range(d, from, off), "newText", text));
			free(detail);
			free(value);
			free(text);
			free(inner);
		}
	}
	json_decref(seen);
	return items;
}

/* ---- rename a snippet ------------------------------------------------------------------ */

#define SNIPPET_MARK "<!-- snippet:"

/* A snippet name is what a marker may hold: no blank, no comment end. */
static bool snippet_name_ok(const char *s)
{
	if (!*s || strlen(s) > 200)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == '#' || *s == '>' || *s == '<')
			return false;
	return true;
}

/* The edit of a program line's marker: NAME after "snippet:" (or "end
 * snippet:") becomes new_name. */
static void program_marker_edit(const struct textfile *tf, size_t line, const char *old, const char *new_name,
				json_t *edits)
{
	size_t len;
	const char *s = textfile_line(tf, line, &len);
	const char *at = NULL;
	for (const char *p = s; p + strlen(old) <= s + len; p++)
		if (strncmp(p, old, strlen(old)) == 0 && (p + strlen(old) == s + len || p[strlen(old)] <= ' ') &&
		    p > s && (p[-1] == ' ' || p[-1] == ':'))
			at = p;
	if (!at)
		return;
	size_t c0 = u16_of_byte(s, len, (size_t)(at - s)), c1 = u16_of_byte(s, len, (size_t)(at - s) + strlen(old));
	json_array_append_new(edits, json_pack("{s:{s:o,s:o},s:s}", "range", "start", position_json(line - 1, c0), "end",
					       position_json(line - 1, c1), "newText", new_name));
}

json_t *lsp_rename(const struct lsp_doc *d, const json_t *pos, const char *new_name, const char **why)
{
	size_t off;
	*why = "no snippet marker here";
	if (!read_doc_position(d, pos, &off))
		return NULL;
	size_t line = doc_line_of(d, off), len;
	const char *s = doc_line(d, line, &len);
	const char *m = strstr(s, SNIPPET_MARK);
	if (!m || (size_t)(m - s) >= len)
		return NULL;
	const char *name = m + strlen(SNIPPET_MARK);
	name += strspn(name, " ");
	size_t nlen = strcspn(name, " \n");
	if (memchr(name, '#', nlen)) {
		*why = "rename names the page's own program's snippets (NAME), not FILE#NAME";
		return NULL;
	}
	if (!snippet_name_ok(new_name)) {
		*why = "a snippet name has no blanks, '#', '<' or '>'";
		return NULL;
	}
	/* the program: the code block's ledger entry names it */
	const struct ledger_entry *e = NULL;
	for (size_t i = 0; i < d->lg.n && !e; i++)
		if (d->lg.v[i].kind == LG_CODE && d->lg.v[i].n_refs && d->lg.v[i].line > line + 1 &&
		    d->lg.v[i].line <= line + 4)
			e = &d->lg.v[i];
	if (!e) {
		*why = "the check found no program snippet for this marker";
		return NULL;
	}
	const char *prog = e->refs[0].path;
	char *fs = NULL, *old = xstrndup(name, nlen);
	const char *rwhy;
	struct textfile tf;
	json_t *result = NULL;
	if (repo_resolve(prog, &fs, &rwhy) == REPO_OK && textfile_read(fs, prog, &tf, &rwhy) == 0) {
		struct snippet_set set = {0};
		snippet_scan(&tf, false, &set);
		const struct snippet *sn = snippet_find(&set, old);
		if (sn) {
			json_t *pedits = json_array();
			program_marker_edit(&tf, sn->start_line, old, new_name, pedits);
			if (sn->end_line)
				program_marker_edit(&tf, sn->end_line, old, new_name, pedits);
			size_t b = (size_t)(name - d->text);
			json_t *page_edit = json_pack("[{s:o,s:s}]", "range", doc_range(d, b, b + nlen), "newText", new_name);
			char *puri = lsp_rel_to_uri(prog);
			result = json_pack("{s:{s:o,s:o}}", "changes", d->uri, page_edit, puri, pedits);
			free(puri);
		} else {
			*why = "the program has no such snippet";
		}
		snippet_set_free(&set);
		textfile_free(&tf);
	} else {
		*why = "the program cannot be read";
	}
	free(fs);
	free(old);
	return result;
}

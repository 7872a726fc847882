/* report_json.c - the JSON report: see report.h, and its schema,
 * verifier/schema/coursecheck-report-1.json.  Built with jansson. */
#include <stdlib.h>
#include <string.h>

#include "cliopt.h"
#include "diag.h"
#include "report_impl.h"
#include "util.h"

/* U+FFFD for each byte that does not begin a well-formed UTF-8 sequence. */
static char *valid_utf8(const char *s)
{
	struct buf b = {0};
	size_t n = strlen(s);
	buf_puts(&b, "");
	for (size_t i = 0; i < n;) {
		const unsigned char *u = (const unsigned char *)s + i;
		size_t len = u[0] < 0x80 ? 1 : (u[0] & 0xE0) == 0xC0 ? 2 : (u[0] & 0xF0) == 0xE0 ? 3 : (u[0] & 0xF8) == 0xF0 ? 4 : 0;
		bool ok = len && i + len <= n;
		for (size_t k = 1; ok && k < len; k++)
			ok = (u[k] & 0xC0) == 0x80;
		if (ok) {
			buf_append(&b, s + i, len);
			i += len;
		} else {
			buf_puts(&b, "\xEF\xBF\xBD");
			i++;
		}
	}
	return buf_detach(&b);
}

json_t *report_json_str(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (j)
		return j;
	char *fixed = valid_utf8(s);
	j = json_string(fixed);
	free(fixed);
	return j ? j : json_string("");
}

int report_json_dump(const json_t *doc, FILE *out)
{
	if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
		return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}

static json_t *count_or_null(size_t n)
{
	return n ? json_integer((json_int_t)n) : json_null();
}

static json_t *location(const struct report_where *w)
{
	if (!w->path)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "path", report_json_str(w->path));
	json_object_set_new(o, "line", count_or_null(w->line));
	json_object_set_new(o, "column", count_or_null(w->col));
	json_object_set_new(o, "end_column", count_or_null(w->end_col));
	return o;
}

static json_t *diagnostic(const struct report *r, const struct report_item *it)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(diag_id(it->kind)));
	json_object_set_new(o, "level", json_string(report_level_word(it->level)));
	json_object_set_new(o, "message", report_json_str(it->message));
	json_object_set_new(o, "location", location(&it->at));
	json_t *notes = json_array();
	for (size_t i = 0; i < it->n_notes; i++) {
		json_t *n = json_object();
		json_object_set_new(n, "message", report_json_str(it->notes[i].message));
		json_object_set_new(n, "location", location(&it->notes[i].at));
		json_array_append_new(notes, n);
	}
	json_object_set_new(o, "notes", notes);
	json_object_set_new(o, "text", report_json_str(it->text));
	json_object_set_new(o, "hint", report_json_str(it->hint));
	json_object_set_new(o, "file",
			    it->file == REPORT_NO_FILE ? json_null() : report_json_str(r->files[it->file].path));
	return o;
}

static json_t *files(const struct report *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->n_files; i++) {
		const struct report_file *f = &r->files[i];
		json_t *o = json_object();
		json_object_set_new(o, "path", report_json_str(f->path));
		json_object_set_new(o, "checks", json_integer((json_int_t)f->checks));
		json_object_set_new(o, "errors", json_integer((json_int_t)f->errors));
		json_object_set_new(o, "warnings", json_integer((json_int_t)f->warnings));
		json_array_append_new(a, o);
	}
	return a;
}

/* A page's ledger in page order, as `explain` prints it, and its totals. */
static json_t *ledger(const struct report_page_ledger *pl)
{
	json_t *o = json_object(), *entries = json_array(), *totals = json_object();
	json_object_set_new(o, "path", report_json_str(pl->path));
	size_t n = pl->lg.n;
	const struct ledger_entry **v = ledger_sorted(&pl->lg);
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_object();
		json_object_set_new(e, "kind", json_string(ledger_kind_name(v[i]->kind)));
		json_object_set_new(e, "line", json_integer((json_int_t)v[i]->line));
		json_object_set_new(e, "column", json_integer((json_int_t)v[i]->col));
		json_object_set_new(e, "claim", report_json_str(v[i]->claim));
		json_object_set_new(e, "source", report_json_str(v[i]->source));
		json_array_append_new(entries, e);
	}
	free(v);
	for (int k = 0; k < LG_KIND_COUNT; k++)
		json_object_set_new(totals, ledger_kind_name((enum ledger_kind)k),
				    json_integer((json_int_t)ledger_count(&pl->lg, (enum ledger_kind)k)));
	json_object_set_new(o, "entries", entries);
	json_object_set_new(o, "totals", totals);
	json_t *runs = json_array();
	for (size_t i = 0; i < pl->n_runs; i++) {
		const struct report_run_copy *u = &pl->runs[i];
		json_t *run = json_object();
		json_object_set_new(run, "path", report_json_str(u->path));
		json_object_set_new(run, "signature", report_json_str(u->signature));
		/* a member the verdict has no value for is null (report_json_str),
		 * never left out: a consumer reads one shape */
		const char *names[] = {"principal", "key", "valid_after", "valid_before", "captured", "why"};
		const char *values[] = {u->principal, u->key, u->valid_after, u->valid_before, u->captured, u->why};
		for (size_t k = 0; k < sizeof names / sizeof *names; k++)
			json_object_set_new(run, names[k], report_json_str(values[k]));
		json_array_append_new(runs, run);
	}
	json_object_set_new(o, "runs", runs);
	return o;
}

static json_t *place(struct report_place p)
{
	json_t *o = json_object();
	json_object_set_new(o, "line", json_integer((json_int_t)p.line));
	json_object_set_new(o, "column", json_integer((json_int_t)p.col));
	return o;
}

/* What update did to each file, rewrite by rewrite. */
static json_t *updates(const struct report *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->n_updates; i++) {
		const struct report_update_file *u = &r->updates[i];
		json_t *o = json_object(), *rws = json_array();
		json_object_set_new(o, "path", report_json_str(u->path));
		json_object_set_new(o, "from", report_json_str(u->from));
		json_object_set_new(o, "to", report_json_str(u->to));
		for (size_t k = 0; k < u->n_rewrites; k++) {
			json_t *w = json_object();
			json_object_set_new(w, "start", place(u->rewrites[k].from));
			json_object_set_new(w, "end", place(u->rewrites[k].to));
			json_object_set_new(w, "old", report_json_str(u->rewrites[k].old_text));
			json_object_set_new(w, "new", report_json_str(u->rewrites[k].new_text));
			json_array_append_new(rws, w);
		}
		json_object_set_new(o, "rewrites", rws);
		json_object_set_new(o, "left_for_a_person", json_integer((json_int_t)u->left));
		json_object_set_new(o, "claim_flips", json_integer((json_int_t)u->flips));
		json_object_set_new(o, "written", json_boolean(u->written));
		json_array_append_new(a, o);
	}
	return a;
}

int report_render_json(const struct report *r, const struct report_summary *s)
{
	json_t *doc = json_object(), *tool = json_object(), *diags = json_array(), *sum = json_object();
	json_object_set_new(doc, "schema", json_string("coursecheck-report"));
	json_object_set_new(doc, "version", json_integer(1));
	json_object_set_new(tool, "name", json_string("coursecheck"));
	json_object_set_new(tool, "version", json_string(COURSECHECK_VERSION));
	json_object_set_new(doc, "tool", tool);
	json_object_set_new(doc, "command", json_string(r->command));
	for (size_t i = 0; i < r->n_items; i++)
		json_array_append_new(diags, diagnostic(r, &r->items[i]));
	json_object_set_new(doc, "diagnostics", diags);
	json_object_set_new(doc, "files", files(r));
	if (strcmp(r->command, "explain") == 0) {
		json_t *lgs = json_array();
		for (size_t i = 0; i < r->n_ledgers; i++)
			json_array_append_new(lgs, ledger(&r->ledgers[i]));
		json_object_set_new(doc, "ledgers", lgs);
	}
	if (strcmp(r->command, "update") == 0)
		json_object_set_new(doc, "updates", updates(r));
	json_object_set_new(sum, "pages", json_integer((json_int_t)s->pages));
	json_object_set_new(sum, "programs", json_integer((json_int_t)s->programs));
	json_object_set_new(sum, "checks", json_integer((json_int_t)diag_checks()));
	json_object_set_new(sum, "errors", json_integer((json_int_t)diag_count(DIAG_ERROR)));
	json_object_set_new(sum, "warnings", json_integer((json_int_t)diag_count(DIAG_WARNING)));
	json_object_set_new(sum, "exit_status", json_integer(s->status));
	json_object_set_new(doc, "summary", sum);
	int rc = report_json_dump(doc, r->out);
	json_decref(doc);
	return rc;
}

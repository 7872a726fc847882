/* report_sarif.c - the SARIF 2.1.0 report (see report.h), as GitHub code
 * scanning reads it: one run, the rules of diag.def it uses, each result at the
 * page end with its notes (the program or evidence end) as related
 * locations, columns in Unicode code points, and a fingerprint that does
 * not move when lines are added above a finding.  Built with jansson;
 * checked in make test against the OASIS schema in verifier/schema/. */
#include <stdlib.h>
#include <string.h>

#include "cliopt.h"
#include "diag.h"
#include "report_impl.h"
#include "sha256.h"
#include "util.h"

/* A repository path as a relative URI reference: every byte but the
 * unreserved ones and '/' percent-encoded. */
static json_t *uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	struct buf b = {0};
	buf_puts(&b, "");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p)) {
			buf_putc(&b, (char)*p);
		} else {
			buf_putc(&b, '%');
			buf_putc(&b, hex[*p >> 4]);
			buf_putc(&b, hex[*p & 15]);
		}
	}
	json_t *j = json_string(b.s);
	buf_free(&b);
	return j;
}

static json_t *message(const char *text)
{
	json_t *m = json_object();
	json_object_set_new(m, "text", report_json_str(text));
	return m;
}

/* Text for a SARIF message that holds embedded links: a bracket of ours
 * (a place, `[ROW | COLUMN]`) escaped as SARIF 3.11.6 asks, so that only
 * the links we add read as links. */
static void put_escaped(struct buf *b, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '[' || *p == ']' || *p == '\\')
			buf_putc(b, '\\');
		buf_putc(b, *p);
	}
}

/* A long line's window around the finding (diag.h), as the
 * region that gives the finding its context: the line itself would be
 * copied into every result on it. */
static json_t *window_region(const struct report_where *w)
{
	size_t chars = 0;
	for (const char *p = w->line_text; *p; p++)
		chars += ((unsigned char)*p & 0xC0) != 0x80;
	json_t *region = json_object(), *snip = json_object();
	json_object_set_new(region, "startLine", json_integer((json_int_t)w->line));
	json_object_set_new(region, "startColumn", json_integer((json_int_t)w->text_col));
	json_object_set_new(region, "endColumn", json_integer((json_int_t)(w->text_col + chars)));
	json_object_set_new(snip, "text", report_json_str(w->line_text));
	json_object_set_new(region, "snippet", snip);
	return region;
}

static json_t *physical(const struct report_where *w)
{
	json_t *pl = json_object(), *art = json_object();
	json_object_set_new(art, "uri", uri(w->path));
	json_object_set_new(art, "uriBaseId", json_string("SRCROOT"));
	json_object_set_new(pl, "artifactLocation", art);
	/* every result has a region, as code scanning requires: a finding of
	 * a whole file or folder stands at its first line */
	{
		json_t *region = json_object();
		json_object_set_new(region, "startLine", json_integer((json_int_t)(w->line ? w->line : 1)));
		if (w->col) {
			json_object_set_new(region, "startColumn", json_integer((json_int_t)w->col));
			json_object_set_new(region, "endColumn", json_integer((json_int_t)w->end_col));
		}
		if (w->line_text && !w->cut) {
			json_t *snip = json_object();
			json_object_set_new(snip, "text", report_json_str(w->line_text));
			json_object_set_new(region, "snippet", snip);
		}
		json_object_set_new(pl, "region", region);
		if (w->line_text && w->cut)
			json_object_set_new(pl, "contextRegion", window_region(w));
	}
	return pl;
}

static const char *level_of(enum diag_level level)
{
	return level == DIAG_ERROR ? "error" : level == DIAG_WARNING ? "warning" : "note";
}

/* The rules the results use, in diag.def's order (the whole table is
 * `coursecheck ids`; listing only what is used keeps a clean run's log
 * small).  index[kind] is the kind's ruleIndex, or -1 when unused. */
static json_t *rules(const struct report *r, long index[DIAG_KIND_COUNT])
{
	bool used[DIAG_KIND_COUNT] = {false};
	for (size_t i = 0; i < r->n_items; i++)
		used[r->items[i].kind] = true;
	json_t *a = json_array();
	long n = 0;
	for (int k = 0; k < DIAG_KIND_COUNT; k++) {
		index[k] = used[k] ? n++ : -1;
		if (!used[k])
			continue;
		json_t *rule = json_object(), *conf = json_object();
		json_object_set_new(rule, "id", json_string(diag_id((enum diag_kind)k)));
		json_object_set_new(rule, "shortDescription", message(diag_description((enum diag_kind)k)));
		/* the help a code-scanning alert shows: what `coursecheck ids`
		 * says of the kind, and where to read more */
		char *help = xasprintf("%s [%s]. 'coursecheck ids' lists every kind; 'man coursecheck' "
				       "and the README's page-format section say how to fix it.",
				       diag_description((enum diag_kind)k), diag_id((enum diag_kind)k));
		json_object_set_new(rule, "help", message(help));
		free(help);
		/* a STAT kind is an error on every page but a draft one */
		json_object_set_new(conf, "level", json_string(diag_base_level((enum diag_kind)k) == DIAG_WARNING
								       ? "warning" : "error"));
		json_object_set_new(rule, "defaultConfiguration", conf);
		json_array_append_new(a, rule);
	}
	return a;
}

/* The finding's identity: its id, file and the text of its line (not the
 * line's number; a long line's window), and which of the same it is,
 * counted in report order. */
static json_t *fingerprint(const struct report *r, size_t at)
{
	const struct report_item *it = &r->items[at];
	const char *what = it->at.line_text ? it->at.line_text : it->message;
	size_t nth = 0;
	for (size_t i = 0; i < at; i++) {
		const struct report_item *o = &r->items[i];
		const char *owhat = o->at.line_text ? o->at.line_text : o->message;
		nth += o->kind == it->kind && strcmp(o->at.path ? o->at.path : "", it->at.path ? it->at.path : "") == 0 &&
		       strcmp(owhat, what) == 0;
	}
	char *key = xasprintf("%s\n%s\n%s\n%zu", diag_id(it->kind), it->at.path ? it->at.path : "", what, nth);
	char hex[SHA256_HEX_LEN + 1];
	sha256_hex(key, strlen(key), hex);
	free(key);
	json_t *fp = json_object();
	json_object_set_new(fp, "coursecheck/v1", json_string(hex));
	return fp;
}

static json_t *result(const struct report *r, size_t at, const long index[DIAG_KIND_COUNT])
{
	const struct report_item *it = &r->items[at];
	json_t *res = json_object();
	json_object_set_new(res, "ruleId", json_string(diag_id(it->kind)));
	json_object_set_new(res, "ruleIndex", json_integer((json_int_t)index[it->kind]));
	json_object_set_new(res, "level", json_string(level_of(it->level)));
	/* the notes linked from the message ([text](id)), so that code
	 * scanning shows the other end of the finding */
	struct buf text = {0};
	buf_puts(&text, "");
	put_escaped(&text, it->message);
	for (size_t i = 0; i < it->n_notes; i++) {
		buf_puts(&text, "\nnote: [");
		put_escaped(&text, it->notes[i].message);
		buf_printf(&text, "](%zu)", i);
	}
	if (it->hint) {
		buf_puts(&text, "\nhint: ");
		put_escaped(&text, it->hint);
	}
	json_object_set_new(res, "message", message(text.s));
	buf_free(&text);
	json_t *locs = json_array();
	if (it->at.path) {
		json_t *l = json_object();
		json_object_set_new(l, "physicalLocation", physical(&it->at));
		json_array_append_new(locs, l);
	}
	json_object_set_new(res, "locations", locs);
	json_t *related = json_array();
	for (size_t i = 0; i < it->n_notes; i++) {
		json_t *l = json_object();
		json_object_set_new(l, "id", json_integer((json_int_t)i));
		if (it->notes[i].at.path)
			json_object_set_new(l, "physicalLocation", physical(&it->notes[i].at));
		json_object_set_new(l, "message", message(it->notes[i].message));
		json_array_append_new(related, l);
	}
	if (it->n_notes)
		json_object_set_new(res, "relatedLocations", related);
	else
		json_decref(related);
	json_object_set_new(res, "partialFingerprints", fingerprint(r, at));
	return res;
}

int report_render_sarif(const struct report *r, const struct report_summary *s)
{
	json_t *doc = json_object(), *run = json_object(), *tool = json_object(), *driver = json_object();
	json_object_set_new(doc, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
	json_object_set_new(doc, "version", json_string("2.1.0"));
	json_object_set_new(driver, "name", json_string("coursecheck"));
	json_object_set_new(driver, "version", json_string(COURSECHECK_VERSION));
	long index[DIAG_KIND_COUNT];
	json_object_set_new(driver, "rules", rules(r, index));
	json_object_set_new(tool, "driver", driver);
	json_object_set_new(run, "tool", tool);
	json_t *inv = json_object(), *invs = json_array();
	json_object_set_new(inv, "executionSuccessful", json_boolean(s->status != 2));
	json_object_set_new(inv, "exitCode", json_integer(s->status));
	json_array_append_new(invs, inv);
	json_object_set_new(run, "invocations", invs);
	json_object_set_new(run, "columnKind", json_string("unicodeCodePoints"));
	json_t *results = json_array();
	for (size_t i = 0; i < r->n_items; i++)
		json_array_append_new(results, result(r, i, index));
	json_object_set_new(run, "results", results);
	json_t *props = json_object();
	json_object_set_new(props, "checks", json_integer((json_int_t)diag_checks()));
	json_object_set_new(props, "pages", json_integer((json_int_t)s->pages));
	json_object_set_new(props, "programs", json_integer((json_int_t)s->programs));
	json_object_set_new(run, "properties", props);
	json_t *runs = json_array();
	json_array_append_new(runs, run);
	json_object_set_new(doc, "runs", runs);
	int rc = report_json_dump(doc, r->out);
	json_decref(doc);
	return rc;
}

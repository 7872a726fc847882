/* report.c - see report.h: the records kept for a report, and the choice
 * of format. */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_impl.h"
#include "textfile.h"
#include "util.h"

static const char *const format_names[] = {
	[REPORT_TEXT] = "text", [REPORT_JSON] = "json", [REPORT_SARIF] = "sarif",
	[REPORT_GITHUB] = "github", [REPORT_JUNIT] = "junit",
};

int report_format_parse(const char *name, enum report_format *out)
{
	for (size_t i = 0; i < ARRAY_LEN(format_names); i++)
		if (strcmp(name, format_names[i]) == 0) {
			*out = (enum report_format)i;
			return 0;
		}
	return -1;
}

enum report_format report_format_default(void)
{
	const char *gh = getenv("GITHUB_ACTIONS");
	return gh && strcmp(gh, "true") == 0 && !isatty(STDOUT_FILENO) ? REPORT_GITHUB : REPORT_TEXT;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The located line, or its window where it is long (diag.h). */
static struct report_where copy_where(const struct diag_where *w)
{
	return (struct report_where){dup_or_null(w->path), w->line, w->col, w->end_col,
				     w->line_text ? xstrndup(w->line_text, w->line_len) : NULL,
				     w->line_col ? w->line_col : 1, w->line_cut};
}

/* The sink: every format but text keeps a copy of each diagnostic. */
static void keep(const struct diag_record *d, void *ctx)
{
	struct report *r = ctx;
	if (r->format == REPORT_GITHUB)
		report_github_emit(r->out, d);
	r->items = xgrow(r->items, &r->cap_items, r->n_items + 1, sizeof *r->items);
	struct report_item *it = &r->items[r->n_items++];
	*it = (struct report_item){d->kind, d->level, xstrdup(d->message), copy_where(&d->at), NULL, d->n_notes,
				   dup_or_null(d->text), dup_or_null(d->hint), xstrdup(d->rendered), r->open_file};
	it->notes = xcalloc(d->n_notes ? d->n_notes : 1, sizeof *it->notes);
	for (size_t i = 0; i < d->n_notes; i++)
		it->notes[i] = (struct report_note){copy_where(&d->notes[i].at), xstrdup(d->notes[i].message)};
	if (r->open_file != REPORT_NO_FILE) {
		struct report_file *f = &r->files[r->open_file];
		f->errors += d->level == DIAG_ERROR;
		f->warnings += d->level == DIAG_WARNING;
	}
}

struct report *report_start(enum report_format f, FILE *out, const char *command)
{
	struct report *r = xcalloc(1, sizeof *r);
	r->format = f;
	r->out = out;
	r->command = command;
	r->open_file = REPORT_NO_FILE;
	r->sink = (struct diag_sink){keep, r};
	diag_set_sink(f == REPORT_TEXT ? NULL : &r->sink);
	return r;
}

enum report_format report_format_of(const struct report *r)
{
	return r->format;
}

void report_file_begin(struct report *r, const char *path)
{
	r->files = xgrow(r->files, &r->cap_files, r->n_files + 1, sizeof *r->files);
	r->files[r->n_files] = (struct report_file){xstrdup(path), 0, 0, 0, diag_checks()};
	r->open_file = r->n_files++;
}

void report_reserve_files(struct report *r, size_t n)
{
	if (r->n_files + n > r->cap_files) {
		r->files = xrealloc(r->files, (r->n_files + n) * sizeof *r->files);
		r->cap_files = r->n_files + n;
	}
}

void report_file_end(struct report *r)
{
	if (r->open_file == REPORT_NO_FILE)
		return;
	struct report_file *f = &r->files[r->open_file];
	f->checks = diag_checks() - f->first_check;
	r->open_file = REPORT_NO_FILE;
}

void report_ledger(struct report *r, const char *page, const struct ledger *lg, const struct report_run *runs,
		   size_t n_runs)
{
	r->ledgers = xgrow(r->ledgers, &r->cap_ledgers, r->n_ledgers + 1, sizeof *r->ledgers);
	struct report_page_ledger *pl = &r->ledgers[r->n_ledgers++];
	*pl = (struct report_page_ledger){xstrdup(page), {0}, xcalloc(n_runs ? n_runs : 1, sizeof *pl->runs), n_runs};
	for (size_t i = 0; i < lg->n; i++) {
		const struct ledger_entry *e = &lg->v[i];
		ledger_add(&pl->lg, e->kind, e->line, e->col, e->claim, "%s", e->source);
	}
	for (size_t i = 0; i < n_runs; i++) {
		const struct report_run *u = &runs[i];
		pl->runs[i] = (struct report_run_copy){
			.path = dup_or_null(u->path),
			.signature = dup_or_null(u->signature),
			.principal = dup_or_null(u->principal),
			.key = dup_or_null(u->key),
			.valid_after = dup_or_null(u->valid_after),
			.valid_before = dup_or_null(u->valid_before),
			.captured = dup_or_null(u->captured),
			.why = dup_or_null(u->why),
		};
	}
}

/* Byte offset off of tf as a line and a code-point column. */
static struct report_place place_of(const struct textfile *tf, size_t off)
{
	struct diag_loc at = textfile_loc(tf, off, 0);
	size_t col = 1;
	for (size_t i = 0; at.text && i + 1 < at.col && i < at.text_len; i++)
		col += ((unsigned char)at.text[i] & 0xC0) != 0x80;
	return (struct report_place){at.line, col};
}

void report_update(struct report *r, const char *path, const struct textfile *tf, const char *from, const char *to,
		   const struct report_rewrite *rw, size_t n, size_t left, size_t flips, bool written)
{
	r->updates = xgrow(r->updates, &r->cap_updates, r->n_updates + 1, sizeof *r->updates);
	struct report_update_file *u = &r->updates[r->n_updates++];
	*u = (struct report_update_file){xstrdup(path), xstrdup(from), xstrdup(to), NULL, n, left, flips, written};
	u->rewrites = xcalloc(n ? n : 1, sizeof *u->rewrites);
	for (size_t i = 0; i < n; i++)
		u->rewrites[i] = (struct report_rewrite_copy){place_of(tf, rw[i].start), place_of(tf, rw[i].end),
							      xstrndup(tf->data + rw[i].start, rw[i].end - rw[i].start),
							      xstrdup(rw[i].new_text)};
}

static void free_where(struct report_where *w)
{
	free(w->path);
	free(w->line_text);
}

static void release(struct report *r)
{
	for (size_t i = 0; i < r->n_items; i++) {
		struct report_item *it = &r->items[i];
		free(it->message);
		free_where(&it->at);
		for (size_t k = 0; k < it->n_notes; k++) {
			free_where(&it->notes[k].at);
			free(it->notes[k].message);
		}
		free(it->notes);
		free(it->text);
		free(it->hint);
		free(it->rendered);
	}
	for (size_t i = 0; i < r->n_files; i++)
		free(r->files[i].path);
	for (size_t i = 0; i < r->n_ledgers; i++) {
		struct report_page_ledger *pl = &r->ledgers[i];
		free(pl->path);
		ledger_free(&pl->lg);
		for (size_t k = 0; k < pl->n_runs; k++) {
			struct report_run_copy *u = &pl->runs[k];
			char *owned[] = {u->path, u->signature, u->principal, u->key, u->valid_after, u->valid_before, u->captured, u->why};
			for (size_t j = 0; j < sizeof owned / sizeof *owned; j++)
				free(owned[j]);
		}
		free(pl->runs);
	}
	for (size_t i = 0; i < r->n_updates; i++) {
		struct report_update_file *u = &r->updates[i];
		for (size_t k = 0; k < u->n_rewrites; k++) {
			free(u->rewrites[k].old_text);
			free(u->rewrites[k].new_text);
		}
		free(u->rewrites);
		free(u->path);
		free(u->from);
		free(u->to);
	}
	free(r->updates);
	free(r->items);
	free(r->files);
	free(r->ledgers);
	diag_set_sink(NULL);
	free(r);
}

void report_discard(struct report *r)
{
	release(r);
}

int report_finish(struct report *r, const struct report_summary *s)
{
	report_file_end(r);
	int rc = 0;
	switch (r->format) {
	case REPORT_JSON:
		rc = report_render_json(r, s);
		break;
	case REPORT_SARIF:
		rc = report_render_sarif(r, s);
		break;
	case REPORT_JUNIT:
		rc = report_render_junit(r, s);
		break;
	case REPORT_TEXT:
	case REPORT_GITHUB:
		break;
	}
	if (r->out && (fflush(r->out) != 0 || ferror(r->out))) {
		if (!errno)
			errno = EIO;
		rc = -1;
	}
	release(r);
	return rc;
}

/* ledger.c - see ledger.h. */
#include "ledger.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[LG_KIND_COUNT] = {
	[LG_CODE] = "code", [LG_FACT] = "fact",   [LG_TRACED] = "traced", [LG_DERIVED] = "derived", [LG_CITED] = "cited",
	[LG_EXT] = "ext",   [LG_ROW] = "row",     [LG_SKIPPED] = "skipped", [LG_FAILED] = "FAILED",
	[LG_CLAIM] = "claim", [LG_AMBIGUOUS] = "ambiguous",
};

const char *ledger_kind_name(enum ledger_kind kind)
{
	return kind < LG_KIND_COUNT ? kind_names[kind] : "?";
}

struct ledger_entry *ledger_add(struct ledger *lg, enum ledger_kind kind, size_t line, size_t col, const char *claim,
				const char *source_fmt, ...)
{
	if (!lg)
		return NULL;
	lg->v = xgrow(lg->v, &lg->cap, lg->n + 1, sizeof *lg->v);
	va_list ap;
	va_start(ap, source_fmt);
	struct ledger_entry *e = &lg->v[lg->n++];
	*e = (struct ledger_entry){.kind = kind, .line = line, .col = col, .claim = xstrdup(claim),
				   .source = xvasprintf(source_fmt, ap)};
	va_end(ap);
	return e;
}

void ledger_span(struct ledger_entry *e, size_t span)
{
	if (e)
		e->span = span;
}

void ledger_ref(struct ledger_entry *e, const char *path, size_t line, size_t line_end, size_t col, size_t len,
		const char *note_fmt, ...)
{
	if (!e)
		return;
	e->refs = xrealloc(e->refs, (e->n_refs + 1) * sizeof *e->refs);
	char *note = NULL;
	if (note_fmt) {
		va_list ap;
		va_start(ap, note_fmt);
		note = xvasprintf(note_fmt, ap);
		va_end(ap);
	}
	e->refs[e->n_refs++] = (struct ledger_ref){xstrdup(path), line, line_end < line ? line : line_end, col, len, note};
}

void ledger_detail(struct ledger_entry *e, const char *fmt, ...)
{
	if (!e)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	if (e->detail) {
		char *both = xasprintf("%s; %s", e->detail, s);
		free(e->detail);
		free(s);
		s = both;
	}
	e->detail = s;
}

void ledger_set_page(struct ledger *lg, const char *title, const char *status, const char *lesson,
		     const char *const *evidence, size_t n_evidence)
{
	if (!lg)
		return;
	struct ledger_page *p = &lg->page;
	p->title = title ? xstrdup(title) : NULL;
	p->status = status ? xstrdup(status) : NULL;
	p->lesson = lesson ? xstrdup(lesson) : NULL;
	p->evidence = n_evidence ? xmalloc(n_evidence * sizeof *p->evidence) : NULL;
	for (size_t i = 0; i < n_evidence; i++)
		p->evidence[i] = xstrdup(evidence[i]);
	p->n_evidence = n_evidence;
}

/* By place, then by the order the checks added them (qsort is not stable,
 * so the pointers' own order breaks ties). */
static int by_place(const void *a, const void *b)
{
	const struct ledger_entry *x = *(const struct ledger_entry *const *)a, *y = *(const struct ledger_entry *const *)b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return ((uintptr_t)x > (uintptr_t)y) - ((uintptr_t)x < (uintptr_t)y);
}

const struct ledger_entry **ledger_sorted(const struct ledger *lg)
{
	const struct ledger_entry **v = xmalloc((lg->n ? lg->n : 1) * sizeof *v);
	for (size_t i = 0; i < lg->n; i++)
		v[i] = &lg->v[i];
	if (lg->n > 1) /* qsort(NULL, 0) is undefined */
		qsort(v, lg->n, sizeof *v, by_place);
	return v;
}

size_t ledger_count(const struct ledger *lg, enum ledger_kind kind)
{
	size_t n = 0;
	for (size_t i = 0; i < lg->n; i++)
		n += lg->v[i].kind == kind;
	return n;
}

void ledger_print(const struct ledger *lg, const char *page, FILE *out)
{
	const struct ledger_entry **v = ledger_sorted(lg);
	fprintf(out, "ledger of %s\n", page);
	for (size_t i = 0; i < lg->n; i++)
		fprintf(out, "%s:%zu:%zu: %-7s %s <- %s\n", page, v[i]->line, v[i]->col, kind_names[v[i]->kind], v[i]->claim,
			v[i]->source);
	free(v);
	fprintf(out, "totals:");
	for (int k = 0; k < LG_KIND_COUNT; k++) {
		size_t n = ledger_count(lg, (enum ledger_kind)k);
		if (k > LG_FAILED && n == 0)
			continue; /* kinds added later show only where a page has them */
		fprintf(out, "%s %s %zu", k ? "," : "", kind_names[k], n);
	}
	fputc('\n', out);
}

void ledger_free(struct ledger *lg)
{
	for (size_t i = 0; i < lg->n; i++) {
		struct ledger_entry *e = &lg->v[i];
		free(e->claim);
		free(e->source);
		free(e->detail);
		for (size_t k = 0; k < e->n_refs; k++) {
			free(e->refs[k].path);
			free(e->refs[k].note);
		}
		free(e->refs);
	}
	free(lg->v);
	struct ledger_page *p = &lg->page;
	free(p->title);
	free(p->status);
	free(p->lesson);
	for (size_t i = 0; i < p->n_evidence; i++)
		free(p->evidence[i]);
	free(p->evidence);
	memset(lg, 0, sizeof *lg);
}

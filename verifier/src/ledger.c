/* ledger.c - see ledger.h. */
#include "ledger.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[LG_KIND_COUNT] = {
	[LG_CODE] = "code", [LG_FACT] = "fact",   [LG_TRACED] = "traced", [LG_DERIVED] = "derived", [LG_CITED] = "cited",
	[LG_EXT] = "ext",   [LG_ROW] = "row",     [LG_SKIPPED] = "skipped", [LG_FAILED] = "FAILED",
	[LG_CLAIM] = "claim", [LG_AMBIGUOUS] = "ambiguous",
};

void ledger_add(struct ledger *lg, enum ledger_kind kind, size_t line, size_t col, const char *claim,
		const char *source_fmt, ...)
{
	if (!lg)
		return;
	lg->v = xgrow(lg->v, &lg->cap, lg->n + 1, sizeof *lg->v);
	va_list ap;
	va_start(ap, source_fmt);
	lg->v[lg->n++] = (struct ledger_entry){kind, line, col, xstrdup(claim), xvasprintf(source_fmt, ap)};
	va_end(ap);
}

const char *ledger_kind_name(enum ledger_kind kind)
{
	return kind_names[kind];
}

static int by_place(const void *a, const void *b)
{
	const struct ledger_entry *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->col > y->col) - (x->col < y->col);
}

size_t ledger_count(const struct ledger *lg, enum ledger_kind kind)
{
	size_t n = 0;
	for (size_t i = 0; i < lg->n; i++)
		n += lg->v[i].kind == kind;
	return n;
}

struct ledger_entry *ledger_sorted(const struct ledger *lg)
{
	struct ledger_entry *v = xmalloc((lg->n ? lg->n : 1) * sizeof *v);
	if (lg->n)
		memcpy(v, lg->v, lg->n * sizeof *v);
	/* qsort is not stable: entries of one place keep their order by col */
	if (lg->n > 1) /* qsort(NULL, 0) is undefined */
		qsort(v, lg->n, sizeof *v, by_place);
	return v;
}

void ledger_print(const struct ledger *lg, const char *page, FILE *out)
{
	struct ledger_entry *v = ledger_sorted(lg);
	fprintf(out, "ledger of %s\n", page);
	for (size_t i = 0; i < lg->n; i++)
		fprintf(out, "%s:%zu:%zu: %-7s %s <- %s\n", page, v[i].line, v[i].col, kind_names[v[i].kind], v[i].claim,
			v[i].source);
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
		free(lg->v[i].claim);
		free(lg->v[i].source);
	}
	free(lg->v);
	memset(lg, 0, sizeof *lg);
}

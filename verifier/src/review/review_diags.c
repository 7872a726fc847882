/* review_diags.c - see review_diags.h. */
#include "review_diags.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static bool is_head(const char *s, size_t n, size_t *level_at)
{
	if (n == 0 || s[0] == ' ')
		return false;
	static const char *const words[] = {": error: ", ": warning: "};
	for (size_t w = 0; w < 2; w++) {
		const char *p = memmem(s, n, words[w], strlen(words[w]));
		if (p) {
			*level_at = (size_t)(p - s) + 2;
			return true;
		}
	}
	return false;
}

void review_diags_parse(struct review_diags *ds, const char *text, const char *page)
{
	size_t plen = strlen(page);
	struct review_diag *cur = NULL;
	struct buf body = {0};
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		size_t lv;
		if (is_head(p, n, &lv)) {
			if (cur)
				cur->body = buf_detach(&body);
			ds->v = xgrow(ds->v, &ds->cap, ds->n + 1, sizeof *ds->v);
			cur = &ds->v[ds->n++];
			memset(cur, 0, sizeof *cur);
			cur->owner = -1;
			cur->head = xstrndup(p + lv, n - lv);
			cur->error = strncmp(p + lv, "error", 5) == 0;
			if (lv > plen + 1 && strncmp(p, page, plen) == 0 && p[plen] == ':') {
				char *end;
				cur->line = strtoul(p + plen + 1, &end, 10);
				if (*end == ':' && end[1] >= '0' && end[1] <= '9')
					cur->col = strtoul(end + 1, NULL, 10);
			}
		} else if (cur && n >= 6 && strncmp(p, "hint: ", 6) == 0) {
			free(cur->hint);
			cur->hint = xstrndup(p + 6, n - 6);
		} else if (cur) {
			buf_append(&body, p, n);
			buf_putc(&body, '\n');
		}
		p = nl ? nl + 1 : NULL;
	}
	if (cur)
		cur->body = buf_detach(&body);
	buf_free(&body);
}

void review_diags_free(struct review_diags *ds)
{
	for (size_t i = 0; i < ds->n; i++) {
		free(ds->v[i].head);
		free(ds->v[i].body);
		free(ds->v[i].hint);
	}
	free(ds->v);
}

/* The first of the entries (sorted by line) on line, or n. */
static size_t first_on_line(const struct ledger_entry **v, size_t n, size_t line)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid]->line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void review_diags_attach(struct review_diags *ds, const struct ledger_entry **v, size_t n)
{
	for (size_t d = 0; d < ds->n; d++) {
		struct review_diag *g = &ds->v[d];
		if (!g->line)
			continue;
		size_t from = first_on_line(v, n, g->line), to = from;
		while (to < n && v[to]->line == g->line)
			to++;
		long best = -1;
		for (size_t i = from; i < to && best < 0; i++)
			if (v[i]->kind == LG_FAILED && v[i]->col == g->col)
				best = (long)i;
		for (size_t i = from; i < to && best < 0; i++) /* the nearest failed claim before it */
			if (v[i]->kind == LG_FAILED && v[i]->col <= g->col && (i + 1 == to || v[i + 1]->col > g->col ||
									       v[i + 1]->kind != LG_FAILED))
				best = (long)i;
		for (size_t i = from; i < to && best < 0; i++)
			if (v[i]->kind == LG_FAILED)
				best = (long)i;
		g->owner = best;
	}
}


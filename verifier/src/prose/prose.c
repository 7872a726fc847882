/* prose.c - see prose.h. */
#include "prose.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"



static int by_start(const void *a, const void *b)
{
	const struct fact_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sorts the consumed ranges and merges those that overlap, once for all
 * the numbers of a page (again only when facts were added since). */
static void merge_consumed(struct page_ctx *ctx)
{
	if (ctx->n_consumed == ctx->n_consumed_merged)
		return;
	qsort(ctx->consumed, ctx->n_consumed, sizeof *ctx->consumed, by_start);
	size_t k = 0;
	for (size_t i = 0; i < ctx->n_consumed; i++) {
		if (k && ctx->consumed[i].start <= ctx->consumed[k - 1].end) {
			if (ctx->consumed[i].end > ctx->consumed[k - 1].end)
				ctx->consumed[k - 1].end = ctx->consumed[i].end;
		} else {
			ctx->consumed[k++] = ctx->consumed[i];
		}
	}
	ctx->n_consumed = ctx->n_consumed_merged = k;
}

/* A binary search: a paragraph of many facts and numbers is not
 * quadratic. */
static bool consumed_by_fact(const struct page_ctx *ctx, size_t off)
{
	size_t lo = 0, hi = ctx->n_consumed;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ctx->consumed[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ctx->n_consumed && off >= ctx->consumed[lo].start;
}

static bool only_spaces(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return false;
	return true;
}

struct diag_loc prose_seg_loc(const struct page_ctx *ctx, const struct seg *g, size_t node_line)
{
	if (g->raw_off != SIZE_MAX)
		return textfile_loc(&ctx->tf, g->raw_off, g->len);
	return textfile_loc_line(&ctx->tf, node_line, 0, 0);
}

/* Tokens of one text segment kept on the stack (a segment rarely holds
 * more; one that does is scanned into the heap). */
#define PROSE_LOCAL_TOKENS 16

/* Collects the numbers of node's text segments, pairing each annotation
 * with the number directly before it; an annotation with none is
 * reported.  Numbers in code spans, HTML and link destinations are never
 * seen (they are not text segments). */
size_t prose_collect(struct page_ctx *ctx, cmark_node *node, struct seg **segs_out, size_t *n_segs, struct pnum **out)
{
	struct seg *segs;
	merge_consumed(ctx);
	size_t n = page_segments(&ctx->pg, node, &segs);
	struct pnum *v = NULL;
	size_t count = 0, cap = 0;
	size_t line = page_node_line(&ctx->pg, node);
	for (size_t i = 0; i < n; i++) {
		struct seg *g = &segs[i];
		if (g->kind == SEG_ANNOT && g->marker.kind == MK_CLAIM)
			continue; /* a claim follows words: check_claims reads it */
		if (g->kind == SEG_ANNOT) {
			bool attached = i > 0 && segs[i - 1].kind == SEG_TEXT && count > 0 && v[count - 1].text == segs[i - 1].s &&
					only_spaces(segs[i - 1].s + v[count - 1].tok.end, segs[i - 1].len - v[count - 1].tok.end) &&
					!v[count - 1].annot;
			bool range = g->marker.kind == MK_RANGE;
			/* a range is "LOW to HIGH": both in the text right before it */
			if (attached && range && (count < 2 || v[count - 2].text != v[count - 1].text || v[count - 2].annot ||
						  v[count - 2].range_low))
				attached = false;
			if (attached) {
				v[count - 1].annot = g;
				if (range) {
					v[count - 1].low = count - 2;
					v[count - 2].range_low = true;
				}
				continue;
			}
			if (range) {
				struct diag *d = diag_begin_to(ctx->to, D_ANNOTATION_DANGLING, prose_seg_loc(ctx, g, line),
							    "this 'range' annotation follows no pair of numbers");
				diag_hint(d, "write it right after 'LOW to HIGH', both numbers in the same text: "
					     "2,920 to 3,824 <!-- range: [ROW | COLUMN] -->");
				diag_end(d);
				continue;
			}
			struct diag *d = diag_begin_to(ctx->to, D_ANNOTATION_DANGLING, prose_seg_loc(ctx, g, line),
						    "this '%s' annotation follows no number", marker_kind_name(g->marker.kind));
			diag_hint(d, "write the annotation directly after the number it is about, on the same line");
			diag_end(d);
			continue;
		}
		if (g->kind != SEG_TEXT || g->decoded)
			continue; /* a decoded reference is check_rendered's */
		/* the segment's tokens on the stack: each is copied into v */
		struct num_token local[PROSE_LOCAL_TOKENS], *toks;
		size_t nt = numtok_scan_into(g->s, g->len, local, PROSE_LOCAL_TOKENS, &toks);
		if (nt)
			v = xgrow(v, &cap, count + nt, sizeof *v);
		for (size_t k = 0; k < nt; k++) {
			size_t raw = g->raw_off != SIZE_MAX ? g->raw_off + toks[k].start : SIZE_MAX;
			if (raw != SIZE_MAX && consumed_by_fact(ctx, raw))
				continue;
			v[count++] = (struct pnum){toks[k], g->s, raw, NULL, SIZE_MAX, false};
		}
		if (toks != local)
			free(toks);
	}
	*segs_out = segs;
	*n_segs = n;
	*out = v;
	return count;
}

struct diag_loc prose_loc(const struct page_ctx *ctx, const struct pnum *p, size_t node_line)
{
	if (p->raw_off == SIZE_MAX)
		return textfile_loc_line(&ctx->tf, node_line, 0, 0);
	return textfile_loc(&ctx->tf, p->raw_off, p->tok.end - p->tok.start);
}

char *prose_text(const struct pnum *p)
{
	return xstrndup(p->text + p->tok.start, p->tok.end - p->tok.start);
}

/* The text of an annotation's argument, and its raw column. */
const char *prose_annot_arg(const struct seg *g, size_t *len)
{
	*len = g->marker.arg_end - g->marker.arg_start;
	return g->s + g->marker.arg_start;
}

const char *prose_skip_reason(const struct num_token *t)
{
	double v = fabs(t->value);
	bool plain_int = t->decimals == 0 && !t->unit[0];
	if (plain_int && !t->has_separator && t->digits_end - t->digits_start == 4 && v >= 1900 && v <= 2099)
		return "a year";
	if (plain_int && v < 100)
		return "below the threshold (a whole number under 100 without a unit)";
	return NULL;
}


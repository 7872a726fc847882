/* check_facts.c - see check_facts.h. */
#include "check_facts.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "util.h"

/* Whether word (a literal) is at s[i..len). */
#define WORD_AT(s, i, len, word) \
	((len) - (i) >= sizeof word - 1 && memcmp((s) + (i), word, sizeof word - 1) == 0)

/* The words a sentence about the run uses (facts.h), looked for in the
 * raw block first: most blocks have none and are not read again.  One
 * pass, by each word's first byte (eight memmem passes cost a page of
 * day 31's shape 7 % of its instructions). */
static bool may_speak_of_run(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case 'a':
			if (WORD_AT(s, i, len, "aptured"))
				return true;
			break;
		case 'e':
			if (WORD_AT(s, i, len, "ecorded") || WORD_AT(s, i, len, "easured"))
				return true;
			break;
		case 'i':
			if (WORD_AT(s, i, len, "imed"))
				return true;
			break;
		case 'r':
			if (WORD_AT(s, i, len, "ran") || WORD_AT(s, i, len, "run"))
				return true;
			break;
		case 'R':
			if (WORD_AT(s, i, len, "RAN") || WORD_AT(s, i, len, "RUN"))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

/* The rendered text of a block's segments, with each byte's page offset:
 * text as a reader sees it; code spans, comments and other markup one
 * blank; a line break a LF. */
struct rendered {
	struct buf text;
	size_t *map;
	size_t cap;
};

static void put(struct rendered *r, const char *s, size_t len, size_t raw, bool verbatim)
{
	r->map = xgrow(r->map, &r->cap, r->text.len + len, sizeof *r->map);
	for (size_t i = 0; i < len; i++)
		r->map[r->text.len + i] = verbatim ? raw + i : raw;
	buf_append(&r->text, s, len);
}

static void render(struct rendered *r, const struct seg *segs, size_t n, size_t block_off)
{
	size_t last = block_off;
	for (size_t i = 0; i < n; i++) {
		const struct seg *g = &segs[i];
		size_t raw = g->raw_off != SIZE_MAX ? g->raw_off : last;
		if (g->kind == SEG_TEXT)
			put(r, g->s, g->len, raw, !g->decoded && g->raw_off != SIZE_MAX);
		else
			put(r, g->kind == SEG_BREAK ? "\n" : " ", 1, raw, false);
		last = raw;
	}
}

static void check_block(struct page_ctx *ctx, struct page_block *b, struct evfile **ev, size_t n_ev)
{
	size_t from, to;
	page_block_range(&ctx->pg, b, &from, &to);
	if (!may_speak_of_run(ctx->tf.data + from, to - from))
		return;
	struct seg *segs;
	size_t n = page_segments_fresh(&ctx->pg, b->node, &segs);
	struct rendered r = {0};
	render(&r, segs, n, from);
	free(segs);
	if (r.text.len) {
		struct fact_text t = {.s = r.text.s, .len = r.text.len, .file = &ctx->tf, .map = r.map};
		struct fact_range *rg;
		size_t n_rg;
		diag_checks_add(facts_check_stated(&t, ev, n_ev, ctx->ledger, &rg, &n_rg));
		for (size_t k = 0; k < n_rg; k++) {
			size_t a = r.map[rg[k].start], z = r.map[rg[k].end - 1] + 1;
			ctx->consumed = xgrow(ctx->consumed, &ctx->cap_consumed, ctx->n_consumed + 1, sizeof *ctx->consumed);
			ctx->consumed[ctx->n_consumed++] = (struct fact_range){a, z};
		}
		free(rg);
	}
	buf_free(&r.text);
	free(r.map);
}

void check_stated_facts(struct page_ctx *ctx)
{
	struct evfile **ev = xcalloc(ctx->n_ev ? ctx->n_ev : 1, sizeof *ev);
	size_t n_ev = 0;
	for (size_t i = 0; i < ctx->n_ev; i++)
		if (ctx->ev[i] && ctx->ev[i]->state == LOAD_OK)
			ev[n_ev++] = ctx->ev[i];
	for (size_t i = 0; i < ctx->pg.n_blocks && n_ev; i++) {
		struct page_block *b = &ctx->pg.blocks[i];
		if (b->kind == BK_TEXT && b->marker.kind != MK_MEASURED)
			check_block(ctx, b, ev, n_ev);
	}
	free(ev);
}

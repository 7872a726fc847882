/* check_numbers.c - see check.h: prose numbers, derivations, citations,
 * external numbers and evidence tables, traced to the evidence bank. */
#include <cmark-gfm-core-extensions.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "bank.h"
#include "check.h"
#include "anchor.h"
#include "check_rendered.h"
#include "check_src.h"
#include "check_claims.h"
#include "drift.h"
#include "prose.h"
#include "expr.h"
#include "nearest.h"
#include "place.h"
#include "repo.h"
#include "strmap.h"
#include "util.h"

/* A lesson the page cites, with its bank. */
struct cited {
	char *lesson;
	bool exists;
	struct bank bank;
};
/* The lessons a page cited last: a fixed few (memory stays flat at 10,000
 * lessons); one pushed out is built again from the model if cited again,
 * with the same answer (its evidence's problems were reported at its
 * first read). */
#define CITED_MAX 16

/* One page's number check: its bank, the banks of the lessons it cites,
 * and the names of its bank's places (check_claims.h); all freed when
 * the check ends (release_numbers), as the bank the names are keyed by
 * goes then. */
struct numbers {
	struct page_ctx *ctx;
	struct bank bank;
	struct cited cited[CITED_MAX];
	size_t n_cited, next_cited;
	struct claims_names names;
};

/* ---- judging one number ---------------------------------------------- */

/* The values the author most likely meant (nearest.h): digits one slip
 * away, the same unit, near in value; none when none is close. */
static void note_nearest(struct diag *d, const struct bank *b, const struct num_token *tok)
{
	const struct bank_entry *near[3];
	size_t n = nearest_candidates(b, tok, near, 3);
	for (size_t i = 0; i < n; i++) {
		const struct bank_entry *e = near[i];
		size_t len;
		const char *line = textfile_line(&e->ev->ev->tf, e->line, &len);
		diag_note(d, textfile_loc_line(&e->ev->ev->tf, e->line, bank_entry_col(e), e->tok.end - e->tok.start),
			  "%s evidence value: %.*s", i ? "another near" : "the nearest", (int)(e->tok.end - e->tok.start),
			  line + e->tok.start);
	}
}

static bool trace_in(struct numbers *nb, const struct bank *b, const struct pnum *p, size_t line, enum ledger_kind kind,
		     const char *how)
{
	/* the entry is read for what it holds, never compared by address */
	const struct bank_entry *e = bank_find_stdout_first(b, &p->tok);
	if (!e)
		return false;
	if (!nb->ctx->ledger)
		return true; /* only the ledger records a traced number */
	char *claim = prose_text(p);
	struct diag_loc at = prose_loc(nb->ctx, p, line);
	struct ledger_entry *le = ledger_add(nb->ctx->ledger, kind, at.line, at.col, claim, "%s%s:%zu:%zu%s%s%s", how,
					     e->ev->path, e->line, bank_entry_col(e), e->where ? " (from " : "",
					     e->where ? e->where : "", e->where ? ")" : "");
	ledger_span(le, at.span);
	check_ledger_ref(le, e, &p->tok, claim, NULL);
	free(claim);
	return true;
}

static void untraced(struct numbers *nb, const struct pnum *p, size_t line)
{
	struct page_ctx *ctx = nb->ctx;
	char *claim = prose_text(p);
	struct diag_loc at = prose_loc(ctx, p, line);
	struct diag *d = diag_begin(D_NUMBER_UNTRACED, at, "%s is not in the evidence", claim);
	struct drift dr;
	bool bound = ctx->n_ev > 0 && drift_find(ctx->lesson, ctx->ev[0], &p->tok, &dr);
	if (bound)
		drift_note(d, &dr);
	else
		note_nearest(d, &nb->bank, &p->tok);
	if (bound)
		diag_hint(d, "the run changed: 'coursecheck update %s' carries the new value", ctx->path);
	else
		diag_hint(d, "quote the number the evidence holds, or annotate it: <!-- = EXPR --> when derived, "
			     "<!-- cite: LESSON --> when from another lesson, <!-- ext: REASON --> when from outside");
	diag_end(d);
	if (bound)
		drift_behaviour(&dr, at, claim);
	ledger_span(ledger_add(ctx->ledger, LG_FAILED, at.line, at.col, claim, "untraced"), at.span);
	free(claim);
}

/* A derivation literal bound to the older run where it traced, as a prose
 * number is (drift.h). */
static bool literal_drift(const struct page_ctx *ctx, const char *lit, size_t len, struct drift *dr)
{
	if (ctx->n_ev == 0)
		return false;
	struct num_token *t;
	size_t n = numtok_scan(lit, len, &t);
	bool bound = n == 1 && drift_find(ctx->lesson, ctx->ev[0], &t[0], dr);
	free(t);
	return bound;
}

/* A derivation must rest on the evidence (anchor.h): an operand from it
 * that moves the value.  Reported at the annotation's text. */
static bool derivation_anchored(struct numbers *nb, const struct pnum *p, const char *arg, size_t len,
				const struct expr_result *r, const struct bank_entry **origin, struct diag_loc at,
				const char *claim)
{
	struct page_ctx *ctx = nb->ctx;
	bool *anchored = xcalloc(r->n_literals ? r->n_literals : 1, sizeof *anchored);
	for (size_t i = 0; i < r->n_literals; i++) {
		/* a power of two or ten needs no evidence, but one the evidence
		 * holds (1024 threads) is an operand from it; a small whole
		 * number never is: it is found in any output */
		const struct expr_literal *l = &r->literals[i];
		anchored[i] = origin[i] != NULL ||
			      ((l->decimals > 0 || fabs(l->value) >= 100) &&
			       bank_find_value_stdout_first(&nb->bank, l->value, l->decimals) != NULL);
	}
	enum anchor_verdict v = anchor_judge(arg, len, r, anchored);
	free(anchored);
	if (v == ANCHOR_OK)
		return true;
	struct diag_loc aat = p->annot->raw_off != SIZE_MAX
				      ? textfile_loc(&ctx->tf, p->annot->raw_off + p->annot->marker.arg_start, len)
				      : at;
	struct diag *d = diag_begin(D_DERIVE_UNANCHORED, aat,
				    v == ANCHOR_NONE ? "the derivation of %s rests on no evidence: every operand is a constant"
						     : "the derivation of %s does not depend on its evidence: the evidence "
						       "operands cancel out",
				    claim);
	diag_hint(d, "derive the number from the evidence numbers or places it comes from, such as "
		     "'<!-- = [ROW | COLUMN] / [ROW | COLUMN] -->'");
	diag_end(d);
	return false;
}

static void check_derived(struct numbers *nb, const struct pnum *p, size_t line)
{
	struct page_ctx *ctx = nb->ctx;
	size_t len;
	const char *arg = prose_annot_arg(p->annot, &len);
	struct diag_loc at = prose_loc(ctx, p, line);
	char *claim = prose_text(p);
	size_t arg_raw = p->annot->raw_off != SIZE_MAX ? p->annot->raw_off + p->annot->marker.arg_start : SIZE_MAX;
	struct expr_result r;
	diag_checks_add(1);
	/* places resolve in the page's default evidence (place.h) */
	struct place_env pe;
	place_env_init(&pe, ctx->ev[0], &ctx->tf, p->annot->s, p->annot->raw_off, line);
	struct expr_env env = place_env_expr(&pe);
	if (expr_eval_env(arg, len, &env, &r) != 0) {
		struct diag_loc eat = arg_raw != SIZE_MAX ? textfile_loc(&ctx->tf, arg_raw + r.err_offset, 1) : at;
		if (!pe.reported)
			diag_report(D_DERIVE_SYNTAX, eat, "cannot evaluate the derivation of %s: %s", claim, r.err);
		ledger_span(ledger_add(ctx->ledger, LG_FAILED, at.line, at.col, claim, "derivation does not evaluate"),
			    at.span);
		expr_result_free(&r);
		free(claim);
		return;
	}
	bool ok = true;
	/* each literal's origin, for review: kept until the entry exists */
	const struct bank_entry **origin = xcalloc(r.n_literals ? r.n_literals : 1, sizeof *origin);
	for (size_t i = 0; i < r.n_literals; i++) {
		const struct expr_literal *l = &r.literals[i];
		bool needs_trace = l->decimals > 0 || fabs(l->value) >= 100;
		if (expr_literal_is_free(l->value) || !needs_trace)
			continue;
		if ((origin[i] = bank_find_value_stdout_first(&nb->bank, l->value, l->decimals)))
			continue;
		ok = false;
		struct diag_loc lat = arg_raw != SIZE_MAX ? textfile_loc(&ctx->tf, arg_raw + l->start, l->end - l->start) : at;
		struct diag *d = diag_begin(D_DERIVE_UNANCHORED, lat, "literal %.*s of the derivation of %s is not in the evidence",
					    (int)(l->end - l->start), arg + l->start, claim);
		struct drift dr;
		bool bound = literal_drift(ctx, arg + l->start, l->end - l->start, &dr);
		if (bound)
			drift_note(d, &dr);
		else
			note_nearest(d, &nb->bank, &(struct num_token){.value = l->value, .decimals = l->decimals});
		if (bound)
			diag_hint(d, "the run changed: 'coursecheck update %s' carries the new value", ctx->path);
		else
			diag_hint(d, "a derivation may use only evidence numbers and powers of ten or two");
		diag_end(d);
	}
	if (ok)
		ok = derivation_anchored(nb, p, arg, len, &r, origin, at, claim);
	double half = 0.5 * pow(10, -p->tok.decimals);
	if (fabs(r.value - p->tok.value) > half * (1 + 1e-9) && claims_derived_flipped(ctx, p, arg, len, r.value, at)) {
		ok = false;
	} else if (fabs(r.value - p->tok.value) > half * (1 + 1e-9)) {
		ok = false;
		struct diag *d = diag_begin(D_DERIVE_MISMATCH, at, "%s does not match its derivation, which gives %.*f", claim,
					    p->tok.decimals + 2, r.value);
		diag_hint(d, "write the value the expression gives (to the digits shown), or correct the expression");
		diag_end(d);
	}
	struct ledger_entry *le = ledger_add(ctx->ledger, ok ? LG_DERIVED : LG_FAILED, at.line, at.col, claim,
					     "= %.*s = %.6g", (int)len, arg, r.value);
	ledger_span(le, at.span);
	for (size_t i = 0; i < r.n_literals && le; i++) {
		const struct expr_literal *l = &r.literals[i];
		int ll = (int)(l->end - l->start);
		if (origin[i]) {
			char *note = xasprintf("literal %.*s", ll, arg + l->start);
			check_ledger_ref(le, origin[i], NULL, NULL, note);
			free(note);
		} else {
			ledger_detail(le, "literal %.*s: %s", ll, arg + l->start,
				      expr_literal_is_free(l->value) ? "a power of ten or two, needs no evidence"
				      : l->decimals > 0 || fabs(l->value) >= 100 ? "not in the evidence"
										 : "a small whole number, needs no evidence");
		}
	}
	if (ok && r.value != p->tok.value)
		ledger_detail(le, "%s = %.6g rounded to %d significant digit%s", claim, r.value, p->tok.sig_digits,
			      p->tok.sig_digits == 1 ? "" : "s");
	free(origin);
	expr_result_free(&r);
	free(claim);
}

/* ---- citations: the bank of another lesson ---------------------------- */


/* The evidence a lesson's page names, or its newest: the page found
 * through the course model's cite index (course_cite_page: each page's
 * front matter recorded when it is checked, read ahead only for a lesson
 * whose page comes later), the runs from its listing. */
static void load_cited(struct cited *c)
{
	c->exists = course_lesson_exists(c->lesson);
	const char *const *evidence;
	size_t n;
	if (course_cite_page(c->lesson, &evidence, &n)) {
		c->exists = true;
		for (size_t e = 0; e < n; e++) /* banked at its first look-up: mostly its stdout only */
			bank_defer_evidence(&c->bank, course_evidence(evidence[e]));
	} else if (c->exists) {
		char *newest = course_newest_evidence(c->lesson);
		if (newest)
			bank_defer_evidence(&c->bank, course_evidence(newest));
		free(newest);
	}
}

static struct cited *cited_lesson(struct numbers *nb, const char *lesson, size_t len)
{
	for (size_t i = 0; i < nb->n_cited; i++)
		if (strlen(nb->cited[i].lesson) == len && memcmp(nb->cited[i].lesson, lesson, len) == 0)
			return &nb->cited[i];
	struct cited *c;
	if (nb->n_cited < CITED_MAX) {
		c = &nb->cited[nb->n_cited++];
	} else {
		c = &nb->cited[nb->next_cited];
		nb->next_cited = (nb->next_cited + 1) % CITED_MAX;
		free(c->lesson);
		bank_free(&c->bank);
	}
	memset(c, 0, sizeof *c);
	c->lesson = xstrndup(lesson, len);
	if (!strchr(c->lesson, '/') && strcmp(c->lesson, "..") != 0 && strcmp(c->lesson, ".") != 0)
		load_cited(c);
	return c;
}

static void check_cited(struct numbers *nb, const struct pnum *p, size_t line)
{
	size_t len;
	const char *lesson = prose_annot_arg(p->annot, &len);
	struct cited *c = cited_lesson(nb, lesson, len);
	struct diag_loc at = prose_loc(nb->ctx, p, line);
	diag_checks_add(1);
	if (!c->exists) {
		struct diag *d = diag_begin(D_CITE_UNKNOWN, prose_seg_loc(nb->ctx, p->annot, line),
					    "cited lesson '%s' is not in the course", c->lesson);
		diag_hint(d, "cite a lesson by the id of its folder under programs/; a number from a lesson the "
			     "course does not hold is <!-- ext: REASON -->");
		diag_end(d);
		char *claim = prose_text(p);
		ledger_span(ledger_add(nb->ctx->ledger, LG_FAILED, at.line, at.col, claim, "cites unknown lesson %s",
				       c->lesson), at.span);
		free(claim);
		return;
	}
	char *how = xasprintf("lesson %s, ", c->lesson);
	if (!trace_in(nb, &c->bank, p, line, LG_CITED, how)) {
		char *claim = prose_text(p);
		struct diag *d = diag_begin(D_CITE_UNTRACED, at, "%s is not in the evidence of lesson '%s'", claim, c->lesson);
		note_nearest(d, &c->bank, &p->tok);
		diag_end(d);
		ledger_span(ledger_add(nb->ctx->ledger, LG_FAILED, at.line, at.col, claim, "not in lesson %s", c->lesson),
			    at.span);
		free(claim);
	}
	free(how);
}

static void check_ext(struct numbers *nb, const struct pnum *p, size_t line)
{
	size_t len;
	const char *reason = prose_annot_arg(p->annot, &len);
	diag_checks_add(1);
	if (len != 0 && !nb->ctx->ledger)
		return; /* a reason given: only the ledger records it */
	struct diag_loc at = prose_loc(nb->ctx, p, line);
	char *claim = prose_text(p);
	if (len == 0) {
		struct diag *d = diag_begin(D_EXT_NO_REASON, prose_seg_loc(nb->ctx, p->annot, line),
					    "the ext annotation of %s gives no reason", claim);
		diag_hint(d, "say where the number comes from: <!-- ext: H200 datasheet, HBM3e bandwidth -->");
		diag_end(d);
		ledger_span(ledger_add(nb->ctx->ledger, LG_FAILED, at.line, at.col, claim, "ext without a reason"), at.span);
	} else {
		ledger_span(ledger_add(nb->ctx->ledger, LG_EXT, at.line, at.col, claim, "%.*s", (int)len, reason), at.span);
	}
	free(claim);
}

/* An annotated number is judged by its annotation alone; low is a range's
 * low number. */
static void check_annotated(struct numbers *nb, const struct pnum *p, const struct pnum *low, size_t line)
{
	switch (p->annot->marker.kind) {
	case MK_AT:
	case MK_RANGE:
	case MK_MIN:
	case MK_MAX:
	case MK_ONE_RUN: {
		struct claims_unit u = {.ctx = nb->ctx, .bank = &nb->bank, .line = line, .names = &nb->names};
		claims_check_place_number(&u, p, low);
		break;
	}
	case MK_DERIVE:
		check_derived(nb, p, line);
		break;
	case MK_CITE:
		check_cited(nb, p, line);
		break;
	case MK_SRC:
		check_src_number(nb->ctx, p, line);
		break;
	default:
		check_ext(nb, p, line);
		break;
	}
}

/* The numbers of a unit (a paragraph or a plain table's row), in order:
 * annotated ones by their annotation, the rest traced together. */
/* A unit of up to this many numbers (nearly every sentence and row) keeps
 * its want and trace arrays on the stack: a calloc and a free of each
 * came once a paragraph and a row. */
#define UNIT_LOCAL 16

static void check_unit_numbers(struct numbers *nb, const struct claims_unit *u)
{
	bool want_local[UNIT_LOCAL];
	struct claims_trace tr_local[UNIT_LOCAL];
	bool local = u->n_nums < UNIT_LOCAL;
	bool *want = local ? want_local : xcalloc(u->n_nums + 1, sizeof *want);
	struct claims_trace *tr = local ? tr_local : xcalloc(u->n_nums + 1, sizeof *tr);
	if (local) {
		memset(want, 0, (u->n_nums + 1) * sizeof *want);
		memset(tr, 0, (u->n_nums + 1) * sizeof *tr);
	}
	for (size_t i = 0; i < u->n_nums; i++)
		want[i] = !u->nums[i].annot && !u->nums[i].range_low && !prose_skip_reason(&u->nums[i].tok);
	claims_trace_unit(u, want, tr);
	for (size_t i = 0; i < u->n_nums; i++) {
		const struct pnum *p = &u->nums[i];
		if (p->range_low)
			continue; /* judged with the range's high number */
		if (p->annot) {
			check_annotated(nb, p, p->low != SIZE_MAX ? &u->nums[p->low] : NULL, u->line);
			continue;
		}
		if (!want[i]) {
			if (!nb->ctx->ledger)
				continue; /* only the ledger records a skipped number */
			char *claim = prose_text(p);
			struct diag_loc at = prose_loc(nb->ctx, p, u->line);
			ledger_span(ledger_add(nb->ctx->ledger, LG_SKIPPED, at.line, at.col, claim, "%s",
					       prose_skip_reason(&p->tok)),
				    at.span);
			free(claim);
			continue;
		}
		diag_checks_add(1);
		if (tr[i].at)
			claims_report_trace(u, p, &tr[i]);
		else
			untraced(nb, p, u->line);
	}
	if (!local) {
		free(tr);
		free(want);
	}
}

static void check_prose(struct numbers *nb, cmark_node *node)
{
	struct seg *segs;
	size_t n_segs;
	struct pnum *nums;
	size_t n = prose_collect(nb->ctx, node, &segs, &n_segs, &nums);
	size_t line = page_node_line(&nb->ctx->pg, node);
	check_rendered_unit(nb->ctx, segs, n_segs, line);
	struct claims_unit u = {nb->ctx, &nb->bank, segs, n_segs, NULL, nums, n, line, &nb->names};
	check_unit_numbers(nb, &u);
	claims_check_unit(&u);
	free(nums);
	free(segs);
}

/* A table row as one unit: the segments and numbers of its cells, one
 * after the other; owned by the caller, freed with row_unit_free(). */
struct row_unit {
	struct claims_unit u;
	struct seg *segs;
	size_t *cells;
	struct pnum *nums;
	struct seg **keep; /* the cells' own segment arrays, which the numbers point into */
	size_t n_keep, cap_keep, cap_segs, cap_cells, cap_nums;
};

static void row_unit_add_cell(struct row_unit *ru, struct page_ctx *ctx, cmark_node *cell, size_t cell_index)
{
	struct seg *segs;
	size_t n_segs;
	struct pnum *nums;
	size_t n = prose_collect(ctx, cell, &segs, &n_segs, &nums);
	check_rendered_unit(ctx, segs, n_segs, page_node_line(&ctx->pg, cell));
	size_t first = ru->u.n_nums;
	/* room for the cell at once: a row's arrays grow once a cell, not
	 * once a number and a segment */
	ru->nums = xgrow(ru->nums, &ru->cap_nums, ru->u.n_nums + n, sizeof *ru->nums);
	for (size_t i = 0; i < n; i++) {
		ru->nums[ru->u.n_nums] = nums[i];
		if (nums[i].low != SIZE_MAX)
			ru->nums[ru->u.n_nums].low = first + nums[i].low;
		ru->u.n_nums++;
	}
	ru->segs = xgrow(ru->segs, &ru->cap_segs, ru->u.n_segs + n_segs, sizeof *ru->segs);
	ru->cells = xgrow(ru->cells, &ru->cap_cells, ru->u.n_segs + n_segs, sizeof *ru->cells);
	for (size_t i = 0; i < n_segs; i++) {
		ru->segs[ru->u.n_segs] = segs[i];
		ru->cells[ru->u.n_segs++] = cell_index;
	}
	free(nums);
	ru->keep = xgrow(ru->keep, &ru->cap_keep, ru->n_keep + 1, sizeof *ru->keep);
	ru->keep[ru->n_keep++] = segs;
	ru->u.segs = ru->segs;
	ru->u.seg_cell = ru->cells;
	ru->u.nums = ru->nums;
}

static void row_unit_free(struct row_unit *ru)
{
	for (size_t i = 0; i < ru->n_keep; i++)
		free(ru->keep[i]);
	free(ru->keep);
	free(ru->segs);
	free(ru->cells);
	free(ru->nums);
}

/* ---- evidence tables ------------------------------------------------- */

struct row {
	struct pnum *nums; /* unannotated numbers, in order */
	size_t n_nums, cap_nums;
	char **texts;      /* text cells (no number), trimmed */
	size_t n_texts, cap_texts;
	size_t line;
};

static void row_free(struct row *r)
{
	free(r->nums);
	for (size_t i = 0; i < r->n_texts; i++)
		free(r->texts[i]);
	free(r->texts);
}

/* Does the row rest on this transcript line?  Its numbers must appear in
 * order among the line's numbers, and every text cell in the line.
 * Returns how many of its numbers matched in order. */
static size_t row_on_line(const struct row *r, const char *s, size_t len, bool *all, struct num_token *at)
{
	struct num_token *toks;
	size_t nt = numtok_scan(s, len, &toks);
	size_t k = 0, matched = 0;
	for (size_t i = 0; i < r->n_nums; i++) {
		while (k < nt && !numtok_traces_to(&r->nums[i].tok, &toks[k]))
			k++;
		if (k == nt)
			break;
		if (at) /* where each number matched, for the ledger */
			at[i] = toks[k];
		matched++;
		k++;
	}
	free(toks);
	bool texts = true;
	for (size_t i = 0; i < r->n_texts; i++)
		texts &= memmem(s, len, r->texts[i], strlen(r->texts[i])) != NULL;
	*all = matched == r->n_nums && texts;
	return matched;
}

static void gather_row(struct numbers *nb, cmark_node *row_node, struct row *r, struct row_unit *ru)
{
	r->line = page_node_line(&nb->ctx->pg, row_node);
	ru->u.line = r->line;
	size_t k = 0;
	for (cmark_node *cell = cmark_node_first_child(row_node); cell; cell = cmark_node_next(cell)) {
		size_t seg0 = ru->u.n_segs, num0 = ru->u.n_nums;
		row_unit_add_cell(ru, nb->ctx, cell, k++);
		for (size_t i = num0; i < ru->u.n_nums; i++) {
			const struct pnum *p = &ru->nums[i];
			if (p->range_low)
				continue;
			if (p->annot) {
				check_annotated(nb, p, p->low != SIZE_MAX ? &ru->nums[p->low] : NULL, r->line);
				continue;
			}
			r->nums = xgrow(r->nums, &r->cap_nums, r->n_nums + 1, sizeof *r->nums);
			r->nums[r->n_nums++] = *p;
		}
		if (ru->u.n_nums == num0) {
			struct buf text = {0};
			for (size_t i = seg0; i < ru->u.n_segs; i++)
				if (ru->segs[i].kind == SEG_TEXT || ru->segs[i].kind == SEG_OPAQUE)
					buf_append(&text, ru->segs[i].s, ru->segs[i].len);
			size_t a = 0, b = text.len;
			if (text.s)
				str_trim(text.s, &a, &b);
			if (b > a) {
				r->texts = xgrow(r->texts, &r->cap_texts, r->n_texts + 1, sizeof *r->texts);
				r->texts[r->n_texts++] = xstrndup(text.s + a, b - a);
			}
			buf_free(&text);
		}
	}
}

/* A row that rested on one line of an older run: a note for each of its
 * numbers whose place there now holds something else.  Returns true when
 * it added one. */
static bool row_drift(const struct page_ctx *ctx, const struct row *r, const struct evfile *ev, struct diag *d)
{
	if (r->n_nums == 0)
		return false;
	struct num_token *toks = xcalloc(r->n_nums, sizeof *toks);
	struct drift *dr = xcalloc(r->n_nums, sizeof *dr);
	for (size_t i = 0; i < r->n_nums; i++)
		toks[i] = r->nums[i].tok;
	bool noted = false;
	if (drift_find_row(ctx->lesson, ev, toks, r->n_nums, dr))
		for (size_t i = 0; i < r->n_nums; i++)
			if (!dr[i].followed || strcmp(dr[i].old_text, dr[i].now_text) != 0) {
				drift_note(d, &dr[i]);
				noted = true;
			}
	free(dr);
	free(toks);
	return noted;
}

static void row_failed(struct numbers *nb, const struct row *r, const struct evfile *ev, size_t best, size_t best_line,
		       bool out_of_order)
{
	struct page_ctx *ctx = nb->ctx;
	struct diag *d = diag_begin(D_TABLE_ROW_UNTRACED, textfile_loc_line(&ctx->tf, r->line, 1, 0),
				    out_of_order ? "this row is out of the order of the transcript lines of %s"
						 : "this row is not on any one line of the stdout of %s",
				    ev->path);
	if (out_of_order)
		diag_note(d, textfile_loc_line(&ev->ev->tf, best_line, 0, 0),
			  "the row rests on this line, which comes before the previous row's");
	bool bound = !out_of_order && row_drift(ctx, r, ev, d);
	if (!out_of_order && !bound && best_line)
		diag_note(d, textfile_loc_line(&ev->ev->tf, best_line, 0, 0),
			  "the closest line holds %zu of the row's %zu numbers in order", best, r->n_nums);
	if (bound)
		diag_hint(d, "the run changed: 'coursecheck update %s' carries the new values", ctx->path);
	else
		diag_hint(d, "copy the row's values from one line of the transcript, keeping the transcript's order");
	diag_end(d);
	ledger_add(ctx->ledger, LG_FAILED, r->line, 1, "table row", "not on one line of %s", ev->path);
}

/* The first stdout line of ev from `from` on where the row rests (its
 * numbers in order, its texts), found through the bank's index of its
 * first number, at_tok filled; SIZE_MAX when none, or when the row has no
 * number to look for. */
static size_t row_line_from(const struct numbers *nb, const struct row *r, const struct evfile *ev, size_t from,
			    struct num_token *at_tok)
{
	if (r->n_nums == 0)
		return SIZE_MAX;
	for (size_t k = from; (k = bank_next_stdout_line(&nb->bank, ev, &r->nums[0].tok, k)) != SIZE_MAX; k++) {
		size_t len;
		const char *s = evidence_stdout(ev->ev, k, &len);
		bool all;
		row_on_line(r, s, len, &all, at_tok);
		if (all)
			return k;
	}
	return SIZE_MAX;
}

static void check_table(struct numbers *nb, struct page_block *b)
{
	struct page_ctx *ctx = nb->ctx;
	const struct evfile *ev = pagectx_evidence_for(ctx, b->marker_arg, b->marker_line, b->marker_col);
	if (!ev)
		return;
	size_t n_lines = ev->ev->n_stdout;
	size_t *owner = xcalloc(n_lines + 1, sizeof *owner); /* page line of the row resting there */
	size_t prev = 0; /* stdout index + 1 of the previous row's line */
	for (cmark_node *row_node = cmark_node_first_child(b->node); row_node; row_node = cmark_node_next(row_node)) {
		if (cmark_gfm_extensions_get_table_row_is_header(row_node))
			continue;
		struct row r = {0};
		struct row_unit ru = {.u = {.ctx = ctx, .bank = &nb->bank, .names = &nb->names}};
		gather_row(nb, row_node, &r, &ru);
		claims_check_unit(&ru.u);
		row_unit_free(&ru);
		if (r.n_nums == 0 && r.n_texts == 0) {
			row_free(&r);
			continue;
		}
		diag_checks_add(1 + r.n_nums);
		size_t found = SIZE_MAX, shared = SIZE_MAX, earlier = SIZE_MAX, best = 0, best_line = 0;
		struct num_token *at_tok = xcalloc(r.n_nums ? r.n_nums : 1, sizeof *at_tok);
		/* a row rests on the first line after the previous row's that
		 * holds it (every line before is that row's or earlier); only a
		 * row that rests on none reads every line, for its diagnostic */
		found = row_line_from(nb, &r, ev, prev, at_tok);
		for (size_t k = 0; k < n_lines && found == SIZE_MAX; k++) {
			size_t len;
			const char *s = evidence_stdout(ev->ev, k, &len);
			bool all;
			size_t m = row_on_line(&r, s, len, &all, at_tok);
			if (m > best) {
				best = m;
				best_line = ev->ev->stdout_first + k;
			}
			if (!all)
				continue;
			if (owner[k]) {
				if (shared == SIZE_MAX)
					shared = k;
			} else if (k + 1 <= prev) {
				if (earlier == SIZE_MAX)
					earlier = k;
			} else {
				found = k;
				break;
			}
		}
		if (found != SIZE_MAX) {
			owner[found] = r.line;
			prev = found + 1;
			size_t fl = ev->ev->stdout_first + found;
			ledger_ref(ledger_add(ctx->ledger, LG_ROW, r.line, 1, "table row", "%s:%zu", ev->path, fl), ev->path,
				   fl, fl, 0, 0, NULL);
			for (size_t i = 0; ctx->ledger && i < r.n_nums; i++) { /* the ledger's alone */
				char *claim = prose_text(&r.nums[i]);
				struct diag_loc at = prose_loc(ctx, &r.nums[i], r.line);
				struct ledger_entry *le = ledger_add(ctx->ledger, LG_TRACED, at.line, at.col, claim,
								     "%s:%zu (table row)", ev->path, fl);
				ledger_span(le, at.span);
				struct bank_entry be = {.tok = at_tok[i], .ev = ev, .line = fl, .stdout_index = found};
				check_ledger_ref(le, &be, &r.nums[i].tok, claim, NULL);
				free(claim);
			}
		} else if (shared != SIZE_MAX) {
			struct diag *d = diag_begin(D_TABLE_ROW_SHARED, textfile_loc_line(&ctx->tf, r.line, 1, 0),
						    "this row rests on the same transcript line as the row at line %zu", owner[shared]);
			diag_note(d, textfile_loc_line(&ev->ev->tf, ev->ev->stdout_first + shared, 0, 0), "the line both rows match");
			diag_end(d);
			ledger_ref(ledger_add(ctx->ledger, LG_FAILED, r.line, 1, "table row", "shares %s:%zu", ev->path,
					      ev->ev->stdout_first + shared),
				   ev->path, ev->ev->stdout_first + shared, ev->ev->stdout_first + shared, 0, 0, NULL);
		} else if (earlier != SIZE_MAX) {
			row_failed(nb, &r, ev, best, ev->ev->stdout_first + earlier, true);
		} else {
			row_failed(nb, &r, ev, best, best_line, false);
		}
		free(at_tok);
		row_free(&r);
	}
	free(owner);
}

/* A table without the marker is prose, row by row: the numbers of a row
 * are traced together, each cell is a sentence for its claims. */
static void check_plain_table(struct numbers *nb, struct page_block *b)
{
	for (cmark_node *row = cmark_node_first_child(b->node); row; row = cmark_node_next(row)) {
		struct row_unit ru = {.u = {.ctx = nb->ctx, .bank = &nb->bank, .names = &nb->names}};
		ru.u.line = page_node_line(&nb->ctx->pg, row);
		size_t k = 0;
		for (cmark_node *cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell))
			row_unit_add_cell(&ru, nb->ctx, cell, k++);
		check_unit_numbers(nb, &ru.u);
		if (!cmark_gfm_extensions_get_table_row_is_header(row))
			claims_check_unit(&ru.u);
		row_unit_free(&ru);
	}
}

static void release_numbers(struct numbers *nb);

void check_numbers(struct page_ctx *ctx)
{
	struct numbers nb = {.ctx = ctx};
	/* Without usable evidence every number would be "untraced": the
	 * evidence's own error (already reported) is the one to fix, and it
	 * fails the run, so nothing passes unchecked. */
	bool usable = ctx->n_ev > 0;
	for (size_t i = 0; i < ctx->n_ev; i++)
		usable &= ctx->ev[i] && ctx->ev[i]->state == LOAD_OK;
	if (!usable) {
		/* said of the body as a whole: its first line, or the page's last
		 * when the front matter is all there is */
		size_t line = ctx->fm.first_body_line;
		if (line > ctx->tf.n_lines)
			line = ctx->tf.n_lines ? ctx->tf.n_lines : 1;
		if (!ctx->is_readme || ctx->fm.present || ctx->n_ev > 0)
			ledger_add(ctx->ledger, LG_FAILED, line, 1, "numbers",
				   "not checked: the page has no usable evidence (see the errors above)");
		/* a page with front matter has had its missing evidence field
		 * reported; a README has only the lesson's evidence folder */
		if (ctx->is_readme && !ctx->fm.present && ctx->n_ev == 0 && course_evidence_folder_usable(ctx->lesson))
			diag_report(D_EVIDENCE_NONE, textfile_loc_line(&ctx->tf, 1, 0, 0),
				    "lesson '%s' has no evidence yet: this README's numbers and transcripts cannot be checked",
				    ctx->lesson);
		return;
	}
	for (size_t i = 0; i < ctx->n_ev; i++)
		bank_defer_evidence(&nb.bank, ctx->ev[i]); /* banked at its first look-up */
	for (size_t i = 0; i < ctx->pg.n_blocks; i++) {
		struct page_block *b = &ctx->pg.blocks[i];
		if (b->kind == BK_TEXT)
			check_prose(&nb, b->node);
		else if (b->kind == BK_TABLE && b->marker.kind == MK_TABLE)
			check_table(&nb, b);
		else if (b->kind == BK_TABLE)
			check_plain_table(&nb, b);
	}
	release_numbers(&nb);
}

/* The page's bank, the names keyed by its entries, and the banks of the
 * lessons it cited (kept for the run, a course whose every page cites
 * grew by a bank a lesson; a lesson cited again by a later page is banked
 * again from the course cache). */
static void release_numbers(struct numbers *nb)
{
	claims_names_free(&nb->names);
	bank_free(&nb->bank);
	for (size_t i = 0; i < nb->n_cited; i++) {
		free(nb->cited[i].lesson);
		bank_free(&nb->cited[i].bank);
	}
}

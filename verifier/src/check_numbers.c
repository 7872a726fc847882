/* check_numbers.c - see check.h: prose numbers, derivations, citations,
 * external numbers and evidence tables, traced to the evidence bank. */
#include <cmark-gfm-core-extensions.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bank.h"
#include "check.h"
#include "drift.h"
#include "prose.h"
#include "expr.h"
#include "repo.h"
#include "util.h"

struct numbers {
	struct page_ctx *ctx;
	struct bank bank;
};

/* ---- judging one number ---------------------------------------------- */

static void note_nearest(struct diag *d, const struct bank *b, double value)
{
	const struct bank_entry *near[3];
	size_t n = bank_nearest(b, value, near, 3);
	for (size_t i = 0; i < n; i++) {
		const struct bank_entry *e = near[i];
		size_t len;
		const char *line = textfile_line(&e->ev->ev.tf, e->line, &len);
		diag_note(d, textfile_loc_line(&e->ev->ev.tf, e->line, bank_entry_col(e), e->tok.end - e->tok.start),
			  "%s evidence value: %.*s", i ? "another near" : "the nearest", (int)(e->tok.end - e->tok.start),
			  line + e->tok.start);
	}
}

static bool trace_in(struct numbers *nb, const struct bank *b, const struct pnum *p, size_t line, enum ledger_kind kind,
		     const char *how)
{
	const struct bank_entry *e = bank_find(b, &p->tok);
	if (!e)
		return false;
	char *claim = prose_text(p);
	struct diag_loc at = prose_loc(nb->ctx, p, line);
	ledger_add(nb->ctx->ledger, kind, at.line, at.col, claim, "%s%s:%zu:%zu%s%s%s", how, e->ev->path, e->line,
		   bank_entry_col(e), e->where ? " (from " : "", e->where ? e->where : "", e->where ? ")" : "");
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
		note_nearest(d, &nb->bank, p->tok.value);
	if (bound)
		diag_hint(d, "the run changed: 'coursecheck update %s' carries the new value", ctx->path);
	else
		diag_hint(d, "quote the number the evidence holds, or annotate it: <!-- = EXPR --> when derived, "
			     "<!-- cite: LESSON --> when from another lesson, <!-- ext: REASON --> when from outside");
	diag_end(d);
	if (bound)
		drift_behaviour(&dr, at, claim);
	ledger_add(ctx->ledger, LG_FAILED, at.line, at.col, claim, "untraced");
	free(claim);
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
	if (expr_eval(arg, len, &r) != 0) {
		struct diag_loc eat = arg_raw != SIZE_MAX ? textfile_loc(&ctx->tf, arg_raw + r.err_offset, 1) : at;
		diag_report(D_DERIVE_SYNTAX, eat, "cannot evaluate the derivation of %s: %s", claim, r.err);
		ledger_add(ctx->ledger, LG_FAILED, at.line, at.col, claim, "derivation does not evaluate");
		expr_result_free(&r);
		free(claim);
		return;
	}
	bool ok = true;
	for (size_t i = 0; i < r.n_literals; i++) {
		const struct expr_literal *l = &r.literals[i];
		bool needs_trace = l->decimals > 0 || fabs(l->value) >= 100;
		if (expr_literal_is_free(l->value) || !needs_trace || bank_find_value(&nb->bank, l->value, l->decimals))
			continue;
		ok = false;
		struct diag_loc lat = arg_raw != SIZE_MAX ? textfile_loc(&ctx->tf, arg_raw + l->start, l->end - l->start) : at;
		struct diag *d = diag_begin(D_DERIVE_UNANCHORED, lat, "literal %.*s of the derivation of %s is not in the evidence",
					    (int)(l->end - l->start), arg + l->start, claim);
		note_nearest(d, &nb->bank, l->value);
		diag_hint(d, "a derivation may use only evidence numbers and powers of ten or two");
		diag_end(d);
	}
	double half = 0.5 * pow(10, -p->tok.decimals);
	if (fabs(r.value - p->tok.value) > half * (1 + 1e-9)) {
		ok = false;
		struct diag *d = diag_begin(D_DERIVE_MISMATCH, at, "%s does not match its derivation, which gives %.*f", claim,
					    p->tok.decimals + 2, r.value);
		diag_hint(d, "write the value the expression gives (to the digits shown), or correct the expression");
		diag_end(d);
	}
	ledger_add(ctx->ledger, ok ? LG_DERIVED : LG_FAILED, at.line, at.col, claim, "= %.*s = %.6g", (int)len, arg, r.value);
	expr_result_free(&r);
	free(claim);
}

/* ---- citations: the bank of another lesson ---------------------------- */

struct cited {
	char *lesson;
	bool exists;
	struct bank bank;
};
static struct cited *cited;
static size_t n_cited, cap_cited;

/* The evidence a lesson's page names (read quietly), or its newest. */
static void load_cited(struct cited *c)
{
	char *dir = xasprintf("programs/%s", c->lesson);
	char *fs;
	const char *why;
	c->exists = repo_resolve(dir, &fs, &why) == REPO_OK;
	free(fs);
	free(dir);
	char **pages;
	size_t n = course_pages(&pages);
	bool from_page = false;
	for (size_t i = 0; i < n && !from_page; i++) {
		char *fs;
		struct textfile tf;
		if (repo_resolve(pages[i], &fs, &why) != REPO_OK || textfile_read(fs, pages[i], &tf, &why) != 0) {
			free(fs);
			continue;
		}
		free(fs);
		struct frontmatter fm;
		diag_mute(true);
		frontmatter_parse(&tf, true, &fm);
		diag_mute(false);
		if (fm.lesson && strcmp(fm.lesson, c->lesson) == 0) {
			from_page = c->exists = true;
			for (size_t k = 0; k < fm.n_evidence; k++)
				bank_add_evidence(&c->bank, course_evidence(fm.evidence[k].path));
		}
		frontmatter_free(&fm);
		textfile_free(&tf);
	}
	repo_free_list(pages, n);
	if (!from_page && c->exists) {
		char *newest = repo_newest_evidence(c->lesson);
		if (newest)
			bank_add_evidence(&c->bank, course_evidence(newest));
		free(newest);
	}
}

static struct cited *cited_lesson(const char *lesson, size_t len)
{
	for (size_t i = 0; i < n_cited; i++)
		if (strlen(cited[i].lesson) == len && memcmp(cited[i].lesson, lesson, len) == 0)
			return &cited[i];
	cited = xgrow(cited, &cap_cited, n_cited + 1, sizeof *cited);
	struct cited *c = &cited[n_cited++];
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
	struct cited *c = cited_lesson(lesson, len);
	struct diag_loc at = prose_loc(nb->ctx, p, line);
	diag_checks_add(1);
	if (!c->exists) {
		struct diag *d = diag_begin(D_CITE_UNKNOWN, prose_seg_loc(nb->ctx, p->annot, line),
					    "cited lesson '%s' is not in the course", c->lesson);
		diag_hint(d, "cite a lesson by the id of its folder under programs/; a number from a lesson the "
			     "course does not hold is <!-- ext: REASON -->");
		diag_end(d);
		char *claim = prose_text(p);
		ledger_add(nb->ctx->ledger, LG_FAILED, at.line, at.col, claim, "cites unknown lesson %s", c->lesson);
		free(claim);
		return;
	}
	char *how = xasprintf("lesson %s, ", c->lesson);
	if (!trace_in(nb, &c->bank, p, line, LG_CITED, how)) {
		char *claim = prose_text(p);
		struct diag *d = diag_begin(D_CITE_UNTRACED, at, "%s is not in the evidence of lesson '%s'", claim, c->lesson);
		note_nearest(d, &c->bank, p->tok.value);
		diag_end(d);
		ledger_add(nb->ctx->ledger, LG_FAILED, at.line, at.col, claim, "not in lesson %s", c->lesson);
		free(claim);
	}
	free(how);
}

static void check_ext(struct numbers *nb, const struct pnum *p, size_t line)
{
	size_t len;
	const char *reason = prose_annot_arg(p->annot, &len);
	struct diag_loc at = prose_loc(nb->ctx, p, line);
	char *claim = prose_text(p);
	diag_checks_add(1);
	if (len == 0) {
		struct diag *d = diag_begin(D_EXT_NO_REASON, prose_seg_loc(nb->ctx, p->annot, line),
					    "the ext annotation of %s gives no reason", claim);
		diag_hint(d, "say where the number comes from: <!-- ext: H200 datasheet, HBM3e bandwidth -->");
		diag_end(d);
		ledger_add(nb->ctx->ledger, LG_FAILED, at.line, at.col, claim, "ext without a reason");
	} else {
		ledger_add(nb->ctx->ledger, LG_EXT, at.line, at.col, claim, "%.*s", (int)len, reason);
	}
	free(claim);
}

/* An annotated number is judged by its annotation alone. */
static void check_annotated(struct numbers *nb, const struct pnum *p, size_t line)
{
	switch (p->annot->marker.kind) {
	case MK_DERIVE:
		check_derived(nb, p, line);
		break;
	case MK_CITE:
		check_cited(nb, p, line);
		break;
	default:
		check_ext(nb, p, line);
		break;
	}
}

static void check_prose_number(struct numbers *nb, const struct pnum *p, size_t line, bool threshold)
{
	if (p->annot) {
		check_annotated(nb, p, line);
		return;
	}
	const char *why = threshold ? prose_skip_reason(&p->tok) : NULL;
	if (why) {
		char *claim = prose_text(p);
		struct diag_loc at = prose_loc(nb->ctx, p, line);
		ledger_add(nb->ctx->ledger, LG_SKIPPED, at.line, at.col, claim, "%s", why);
		free(claim);
		return;
	}
	diag_checks_add(1);
	if (!trace_in(nb, &nb->bank, p, line, LG_TRACED, ""))
		untraced(nb, p, line);
}

static void check_prose(struct numbers *nb, cmark_node *node)
{
	struct seg *segs;
	size_t n_segs;
	struct pnum *nums;
	size_t n = prose_collect(nb->ctx, node, &segs, &n_segs, &nums);
	size_t line = (size_t)cmark_node_get_start_line(node);
	for (size_t i = 0; i < n; i++)
		check_prose_number(nb, &nums[i], line, true);
	free(nums);
	free(segs);
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
static size_t row_on_line(const struct row *r, const char *s, size_t len, bool *all)
{
	struct num_token *toks;
	size_t nt = numtok_scan(s, len, &toks);
	size_t k = 0, matched = 0;
	for (size_t i = 0; i < r->n_nums; i++) {
		while (k < nt && !numtok_traces_to(&r->nums[i].tok, &toks[k]))
			k++;
		if (k == nt)
			break;
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

static void gather_row(struct numbers *nb, cmark_node *row_node, struct row *r, struct seg ***keep, size_t *n_keep)
{
	r->line = (size_t)cmark_node_get_start_line(row_node);
	for (cmark_node *cell = cmark_node_first_child(row_node); cell; cell = cmark_node_next(cell)) {
		struct seg *segs;
		size_t n_segs;
		struct pnum *nums;
		size_t n = prose_collect(nb->ctx, cell, &segs, &n_segs, &nums);
		for (size_t i = 0; i < n; i++) {
			if (nums[i].annot) {
				check_annotated(nb, &nums[i], r->line);
				continue;
			}
			r->nums = xgrow(r->nums, &r->cap_nums, r->n_nums + 1, sizeof *r->nums);
			r->nums[r->n_nums++] = nums[i];
		}
		if (n == 0) {
			struct buf text = {0};
			for (size_t i = 0; i < n_segs; i++)
				if (segs[i].kind == SEG_TEXT || segs[i].kind == SEG_OPAQUE)
					buf_append(&text, segs[i].s, segs[i].len);
			size_t a = 0, b = text.len;
			if (text.s)
				str_trim(text.s, &a, &b);
			if (b > a) {
				r->texts = xgrow(r->texts, &r->cap_texts, r->n_texts + 1, sizeof *r->texts);
				r->texts[r->n_texts++] = xstrndup(text.s + a, b - a);
			}
			buf_free(&text);
		}
		free(nums);
		/* the row's numbers point into the segments: keep them alive */
		*keep = xrealloc(*keep, (*n_keep + 1) * sizeof **keep);
		(*keep)[(*n_keep)++] = segs;
	}
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
		diag_note(d, textfile_loc_line(&ev->ev.tf, best_line, 0, 0),
			  "the row rests on this line, which comes before the previous row's");
	else if (best_line)
		diag_note(d, textfile_loc_line(&ev->ev.tf, best_line, 0, 0),
			  "the closest line holds %zu of the row's %zu numbers in order", best, r->n_nums);
	diag_hint(d, "copy the row's values from one line of the transcript, keeping the transcript's order");
	diag_end(d);
	ledger_add(ctx->ledger, LG_FAILED, r->line, 1, "table row", "not on one line of %s", ev->path);
}

static void check_table(struct numbers *nb, struct page_block *b)
{
	struct page_ctx *ctx = nb->ctx;
	const struct evfile *ev = page_evidence_for(ctx, b->marker_arg, b->marker_line, b->marker_col);
	if (!ev)
		return;
	size_t n_lines = ev->ev.n_stdout;
	size_t *owner = xcalloc(n_lines + 1, sizeof *owner); /* page line of the row resting there */
	size_t prev = 0; /* stdout index + 1 of the previous row's line */
	struct seg **keep = NULL;
	size_t n_keep = 0;
	for (cmark_node *row_node = cmark_node_first_child(b->node); row_node; row_node = cmark_node_next(row_node)) {
		if (cmark_gfm_extensions_get_table_row_is_header(row_node))
			continue;
		struct row r = {0};
		gather_row(nb, row_node, &r, &keep, &n_keep);
		if (r.n_nums == 0 && r.n_texts == 0) {
			row_free(&r);
			continue;
		}
		diag_checks_add(1 + r.n_nums);
		size_t found = SIZE_MAX, shared = SIZE_MAX, earlier = SIZE_MAX, best = 0, best_line = 0;
		for (size_t k = 0; k < n_lines; k++) {
			size_t len;
			const char *s = evidence_stdout(&ev->ev, k, &len);
			bool all;
			size_t m = row_on_line(&r, s, len, &all);
			if (m > best) {
				best = m;
				best_line = ev->ev.stdout_first + k;
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
			ledger_add(ctx->ledger, LG_ROW, r.line, 1, "table row", "%s:%zu", ev->path, ev->ev.stdout_first + found);
			for (size_t i = 0; i < r.n_nums; i++) {
				char *claim = prose_text(&r.nums[i]);
				struct diag_loc at = prose_loc(ctx, &r.nums[i], r.line);
				ledger_add(ctx->ledger, LG_TRACED, at.line, at.col, claim, "%s:%zu (table row)", ev->path,
					   ev->ev.stdout_first + found);
				free(claim);
			}
		} else if (shared != SIZE_MAX) {
			struct diag *d = diag_begin(D_TABLE_ROW_SHARED, textfile_loc_line(&ctx->tf, r.line, 1, 0),
						    "this row rests on the same transcript line as the row at line %zu", owner[shared]);
			diag_note(d, textfile_loc_line(&ev->ev.tf, ev->ev.stdout_first + shared, 0, 0), "the line both rows match");
			diag_end(d);
			ledger_add(ctx->ledger, LG_FAILED, r.line, 1, "table row", "shares %s:%zu", ev->path,
				   ev->ev.stdout_first + shared);
		} else if (earlier != SIZE_MAX) {
			row_failed(nb, &r, ev, best, ev->ev.stdout_first + earlier, true);
		} else {
			row_failed(nb, &r, ev, best, best_line, false);
		}
		row_free(&r);
	}
	for (size_t i = 0; i < n_keep; i++)
		free(keep[i]);
	free(keep);
	free(owner);
}

/* A table without the marker is prose, cell by cell. */
static void check_plain_table(struct numbers *nb, struct page_block *b)
{
	for (cmark_node *row = cmark_node_first_child(b->node); row; row = cmark_node_next(row))
		for (cmark_node *cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell))
			check_prose(nb, cell);
}

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
		if (!ctx->is_readme || ctx->fm.present || ctx->n_ev > 0)
			ledger_add(ctx->ledger, LG_FAILED, ctx->fm.first_body_line, 1, "numbers",
				   "not checked: the page has no usable evidence (see the errors above)");
		/* a page with front matter has had its missing evidence field
		 * reported; a README has only the lesson's evidence folder */
		if (ctx->is_readme && !ctx->fm.present && ctx->n_ev == 0)
			diag_report(D_EVIDENCE_NONE, textfile_loc_line(&ctx->tf, 1, 0, 0),
				    "lesson '%s' has no evidence yet: this README's numbers and transcripts cannot be checked",
				    ctx->lesson);
		return;
	}
	for (size_t i = 0; i < ctx->n_ev; i++)
		bank_add_evidence(&nb.bank, ctx->ev[i]);
	for (size_t i = 0; i < ctx->pg.n_blocks; i++) {
		struct page_block *b = &ctx->pg.blocks[i];
		if (b->kind == BK_TEXT)
			check_prose(&nb, b->node);
		else if (b->kind == BK_TABLE && b->marker.kind == MK_TABLE)
			check_table(&nb, b);
		else if (b->kind == BK_TABLE)
			check_plain_table(&nb, b);
	}
	bank_free(&nb.bank);
}

void check_numbers_release(void)
{
	for (size_t i = 0; i < n_cited; i++) {
		free(cited[i].lesson);
		bank_free(&cited[i].bank);
	}
	free(cited);
	cited = NULL;
	n_cited = cap_cited = 0;
}

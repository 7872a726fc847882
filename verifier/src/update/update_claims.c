/*
 * update_claims.c - update's numbers whose new value is computed rather
 * than followed: a number bound to a place (at, one-run, min, max,
 * range) takes the place's new value or bounds; a derived number has its
 * literals followed into the new run and its value computed again; a
 * claim annotation is evaluated on both runs.  A stated direction or a
 * claim that the new run makes false is a claim flip: reported, never
 * rewritten.
 *
 * Interface: update_place_number, update_derived, update_claims
 * (update_impl.h), called by update.c's walk of the page.  Ownership: the
 * struct update is the caller's; the edits made here are recorded in it
 * (update_add_edit copies their text), everything else is freed before
 * each function returns.
 */
#include "update_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "claim.h"
#include "direction.h"
#include "expr.h"
#include "measured.h"
#include "place.h"

/* ---- claims ------------------------------------------------------------ */

/* Reports the flip when the sentence states a direction; returns whether
 * it did (a crossing under no direction word is an ordinary new value). */
static bool claim_flip(struct update *u, const struct pnum *p, double was, double now, const char *what)
{
	size_t a, b, w, wl;
	if (!direction_word(u->ctx.tf.data, u->ctx.tf.len, p->raw_off, &a, &b, &w, &wl))
		return false;
	char *claim = prose_text(p);
	struct diag *d = diag_begin(D_CLAIM_FLIP, prose_loc(&u->ctx, p, 0),
				    "the %s %s was %.4g and is now %.4g: the sentence's '%.*s' is no longer true", what,
				    claim, was, now, (int)wl, u->ctx.tf.data + w);
	char *sentence = xstrndup(u->ctx.tf.data + a, b - a);
	for (char *c = sentence; *c; c++)
		if (*c == '\n')
			*c = ' ';
	diag_text(d, sentence);
	diag_hint(d, "rewrite the sentence for the new run; update leaves %s as it was", claim);
	diag_end(d);
	free(sentence);
	free(claim);
	u->flips++;
	return true;
}

/* ---- claims and places ------------------------------------------------ */

/* The place annotation's argument without its brackets, or false. */
static bool place_arg(const struct pnum *p, const char **text, size_t *len)
{
	size_t n;
	const char *a = prose_annot_arg(p->annot, &n);
	if (n < 2 || a[0] != '[' || a[n - 1] != ']')
		return false;
	*text = a + 1;
	*len = n - 2;
	return true;
}

static void rewrite_number(struct update *u, const struct pnum *p, double value)
{
	char buf[128];
	size_t n = numtok_format_like(&p->tok, p->text, value, buf, sizeof buf);
	if (n == 0)
		update_leave(u, p->raw_off, "cannot print the new value in this number's format");
	else
		update_add_edit(u, p->raw_off, p->raw_off + (p->tok.end - p->tok.start), buf, n);
}

/* A number bound to a place (at, one-run, min, max, range) takes the
 * place's new value, or its new bounds over the repeats.  Returns false
 * for the other annotations. */
bool update_place_number(struct update *u, const struct pnum *p, const struct pnum *low)
{
	enum marker_kind kind = p->annot->marker.kind;
	if (kind != MK_AT && kind != MK_ONE_RUN && kind != MK_MIN && kind != MK_MAX && kind != MK_RANGE)
		return false;
	const char *text;
	size_t len;
	if (!place_arg(p, &text, &len)) {
		if (kind == MK_ONE_RUN) {
			const struct bank_entry *e = bank_find(&u->old_bank, &p->tok);
			if (e || u->first)
				update_move_number(u, p, e);
			else
				update_leave(u, p->raw_off, "this one-run number is not in the old run either: not moved");
		}
		return true;
	}
	struct place_env pe;
	place_env_init(&pe, u->now, NULL, NULL, SIZE_MAX, 0);
	struct place_hit h;
	if (!place_resolve_one(&pe, text, len, &h)) {
		update_leave(u, p->raw_off, "[%.*s] names no single number of %s: not moved", (int)len, text, u->now->path);
		return true;
	}
	if (kind == MK_AT || kind == MK_ONE_RUN) {
		rewrite_number(u, p, h.tok.value);
		return true;
	}
	const char *why;
	size_t why_line;
	if (place_values_missing(&h, &why, &why_line)) {
		update_leave(u, p->raw_off, "[%.*s] varied between the repeats of %s, which kept none of its values: not moved",
		      (int)len, text, u->now->path);
		return true;
	}
	double vals[1024];
	size_t n = place_repeat_values(&h, vals, 1024);
	if (n == 0) {
		update_leave(u, p->raw_off, "a repeat of %s printed no number at [%.*s]: not moved", u->now->path, (int)len, text);
		return true;
	}
	double lo = vals[0], hi = vals[0];
	for (size_t i = 1; i < n; i++) {
		lo = fmin(lo, vals[i]);
		hi = fmax(hi, vals[i]);
	}
	if (kind == MK_MIN)
		rewrite_number(u, p, lo);
	else if (kind == MK_MAX)
		rewrite_number(u, p, hi);
	else {
		if (low)
			rewrite_number(u, low, lo);
		rewrite_number(u, p, hi);
	}
	return true;
}

/* The claim's text with its evidence literals followed into the new run;
 * the literal edits go to *edits (page offsets from arg_raw). */
static char *claim_followed(struct update *u, const char *arg, size_t len, const struct claim_result *r, size_t arg_raw,
			    struct edit **edits, size_t *n_edits)
{
	struct buf out = {0};
	size_t at = 0, cap = 0;
	for (size_t i = 0; i < r->n_literals; i++) {
		const struct expr_literal *l = &r->literals[i];
		buf_append(&out, arg + at, l->start - at);
		at = l->end;
		bool needs = l->decimals > 0 || fabs(l->value) >= 100;
		const struct bank_entry *e =
			!expr_literal_is_free(l->value) && needs ? bank_find_value(&u->old_bank, l->value, l->decimals) : NULL;
		struct num_token nt;
		size_t nl;
		if (!e || !update_follow(u, e, &nt, &nl)) {
			buf_append(&out, arg + l->start, l->end - l->start);
			continue;
		}
		char lit[64];
		int n = snprintf(lit, sizeof lit, "%.*f", nt.decimals, nt.value);
		buf_append(&out, lit, (size_t)n);
		*edits = xgrow(*edits, &cap, *n_edits + 1, sizeof **edits);
		(*edits)[(*n_edits)++] = (struct edit){arg_raw + l->start, arg_raw + l->end, xstrndup(lit, (size_t)n), false};
	}
	buf_append(&out, arg + at, len - at);
	return buf_detach(&out);
}

/* A claim that held on the old run and that the new run's repeats do not
 * decide (measured.h): named, carried as it is. */
static void became_undecided(struct update *u, const struct seg *g, const char *arg, size_t len,
			     const struct claim_result *now, const struct measured_claim *mc)
{
	struct diag *d = diag_begin(D_CLAIM_UNDECIDED, prose_seg_loc(&u->ctx, g, 0),
				    "this claim held for %s and is undecided for %s: %.*s", u->old->path, u->now->path,
				    (int)len, arg);
	size_t arg_raw = g->raw_off + g->marker.arg_start;
	for (size_t i = 0; i < now->n_cmps && i < mc->n; i++) {
		if (now->cmps[i].verdict != CLAIM_UNDECIDED)
			continue;
		struct buf fig = {0};
		measured_describe(&mc->cmps[i], &fig);
		diag_note(d, textfile_loc(&u->ctx.tf, arg_raw + now->cmps[i].start, now->cmps[i].end - now->cmps[i].start),
			  "now %s", fig.s);
		buf_free(&fig);
	}
	diag_hint(d, "capture more repeats (capture --repeat auto), or say only what the new runs settle");
	diag_end(d);
}

/* A claim annotation: its literals follow the new run and it is
 * evaluated there; a claim that was true and is now false is a claim flip,
 * listed for a person and left as it was. */
static void update_claim(struct update *u, const struct seg *g)
{
	if (g->raw_off == SIZE_MAX) {
		update_leave(u, 0, "a claim annotation ('%.*s') is not found as written in the page: not carried",
		      (int)(g->len > 60 ? 60 : g->len), g->s);
		return;
	}
	size_t len;
	const char *arg = prose_annot_arg(g, &len);
	size_t arg_raw = g->raw_off + g->marker.arg_start;
	struct place_env old_places, new_places;
	place_env_init(&old_places, u->old, NULL, NULL, SIZE_MAX, 0);
	place_env_init(&new_places, u->now, NULL, NULL, SIZE_MAX, 0);
	struct expr_env old_env = place_env_expr(&old_places), new_env = place_env_expr(&new_places);
	struct claim_result was, now;
	/* decided as verify decides them (measured.h), on each run */
	struct measured_claim *old_mc = xcalloc(1, sizeof *old_mc), *new_mc = xcalloc(1, sizeof *new_mc);
	old_mc->pe = &old_places;
	new_mc->pe = &new_places;
	struct claim_decider old_dec = measured_decider(old_mc), new_dec = measured_decider(new_mc);
	if (claim_eval_decide(arg, len, &old_env, &old_dec, &was) != 0) {
		update_leave(u, g->raw_off, "this claim does not evaluate on %s: %s", u->old->path, was.err);
		claim_result_free(&was);
		free(old_mc);
		free(new_mc);
		return;
	}
	struct edit *edits = NULL;
	size_t n_edits = 0;
	char *text = claim_followed(u, arg, len, &was, arg_raw, &edits, &n_edits);
	if (claim_eval_decide(text, strlen(text), &new_env, &new_dec, &now) != 0) {
		update_leave(u, g->raw_off, "this claim does not evaluate on %s: %s", u->now->path, now.err);
	} else if (now.verdict == CLAIM_TRUE || (now.verdict == CLAIM_UNDECIDED && now.truth)) {
		/* held by the rule, or true as printed but not decided: carried
		 * (a claim the new values make false is a flip, as before) */
		for (size_t i = 0; i < n_edits; i++)
			update_add_edit(u, edits[i].start, edits[i].end, edits[i].text, strlen(edits[i].text));
		if (now.verdict == CLAIM_UNDECIDED && was.verdict == CLAIM_TRUE)
			became_undecided(u, g, arg, len, &now, new_mc);
	} else if (!was.truth) {
		update_leave(u, g->raw_off, "this claim was already false for %s, and is false for %s", u->old->path, u->now->path);
	} else {
		struct diag *d = diag_begin(D_CLAIM_FLIP, prose_seg_loc(&u->ctx, g, 0),
					    "this claim was true for %s and is false for %s: %.*s", u->old->path, u->now->path,
					    (int)len, arg);
		for (size_t i = 0; i < now.n_cmps && i < was.n_cmps; i++) {
			const struct claim_cmp *o = &was.cmps[i], *c = &now.cmps[i];
			diag_note(d, textfile_loc(&u->ctx.tf, arg_raw + o->start, o->end - o->start),
				  "%.*s: was %.10g %s %.10g, now %.10g %s %.10g (%s)", (int)(o->end - o->start), arg + o->start,
				  o->lhs, o->op, o->rhs, c->lhs, c->op, c->rhs, c->truth ? "true" : "false");
		}
		for (size_t i = 0; i < new_places.n && i < old_places.n && i < was.n_places; i++) {
			const struct expr_place *pl = &was.places[i];
			const char *fn = pl->fn == EXPR_PLACE_MIN ? "min " : pl->fn == EXPR_PLACE_MAX ? "max " : "";
			diag_note(d, place_loc(&new_places.hits[i]), "%s%.*s was %.10g, now %.10g", fn, (int)(pl->end - pl->start),
				  arg + pl->start, old_places.values[i], new_places.values[i]);
		}
		diag_hint(d, "rewrite the sentence and its claim for the new run; update leaves the claim as it was");
		diag_end(d);
		u->flips++;
	}
	for (size_t i = 0; i < n_edits; i++)
		free(edits[i].text);
	free(edits);
	free(text);
	free(old_mc);
	free(new_mc);
	claim_result_free(&was);
	claim_result_free(&now);
}

void update_claims(struct update *u, const struct seg *segs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (segs[i].kind == SEG_ANNOT && segs[i].marker.kind == MK_CLAIM)
			update_claim(u, &segs[i]);
}

/* ---- derivations --------------------------------------------------------- */

/* The new literal of a derivation: the evidence's own digits and point,
 * copied from its text (separators dropped, as a literal has none), never
 * a double printed again, whose expansion the evidence never held.  false
 * when the number cannot be an expression literal (a sign, an exponent). */
static bool literal_text(const struct update *u, const struct num_token *nt, size_t line, struct buf *out)
{
	if (nt->has_exponent || nt->value < 0)
		return false;
	size_t len;
	const char *s = textfile_line(&u->now->ev->tf, line, &len);
	if (nt->digits_end > len)
		return false;
	for (size_t i = nt->digits_start; i < nt->digits_end; i++)
		if ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')
			buf_putc(out, s[i]);
	return out->len > 0;
}

/* A literal that is in no bank of the runs update compares: followed from
 * the older run where it traced, as a prose number is. */
static bool literal_follow_older(struct update *u, const char *lit, size_t len, struct num_token *nt, size_t *nl)
{
	struct num_token *t;
	size_t n = numtok_scan(lit, len, &t);
	bool ok = n == 1 && update_follow_older(u, &t[0], nt, nl);
	free(t);
	return ok;
}

void update_derived(struct update *u, const struct pnum *p)
{
	size_t len;
	const char *arg = prose_annot_arg(p->annot, &len);
	size_t arg_raw = p->annot->raw_off + p->annot->marker.arg_start;
	struct expr_result r;
	struct place_env old_places, new_places;
	place_env_init(&old_places, u->old, NULL, NULL, SIZE_MAX, 0);
	place_env_init(&new_places, u->now, NULL, NULL, SIZE_MAX, 0);
	struct expr_env old_env = place_env_expr(&old_places), new_env = place_env_expr(&new_places);
	if (expr_eval_env(arg, len, &old_env, &r) != 0) {
		update_leave(u, p->raw_off, "its derivation does not evaluate: %s", r.err);
		expr_result_free(&r);
		return;
	}
	double was = r.value;
	struct buf expr = {0};
	size_t at = 0;
	bool ok = true;
	/* the literals' rewrites, made once the value is judged */
	struct edit *lits = NULL;
	size_t n_lits = 0, cap_lits = 0;
	for (size_t i = 0; i < r.n_literals; i++) {
		const struct expr_literal *l = &r.literals[i];
		buf_append(&expr, arg + at, l->start - at);
		at = l->end;
		const struct bank_entry *e = NULL;
		bool needs = l->decimals > 0 || fabs(l->value) >= 100;
		if (!expr_literal_is_free(l->value) && needs)
			e = bank_find_value(&u->old_bank, l->value, l->decimals);
		struct num_token nt;
		size_t nl;
		bool followed = e ? update_follow(u, e, &nt, &nl) : false;
		if (!e && !expr_literal_is_free(l->value) && needs && !bank_find_value(&u->now_bank, l->value, l->decimals))
			followed = literal_follow_older(u, arg + l->start, l->end - l->start, &nt, &nl);
		if (!followed) {
			if (e)
				ok = false;
			buf_append(&expr, arg + l->start, l->end - l->start);
			continue;
		}
		struct buf lit = {0};
		if (!literal_text(u, &nt, nl, &lit)) {
			ok = false;
			buf_append(&expr, arg + l->start, l->end - l->start);
			buf_free(&lit);
			continue;
		}
		buf_append(&expr, lit.s, lit.len);
		lits = xgrow(lits, &cap_lits, n_lits + 1, sizeof *lits);
		lits[n_lits++] = (struct edit){arg_raw + l->start, arg_raw + l->end, buf_detach(&lit), false};
	}
	buf_append(&expr, arg + at, len - at);
	expr_result_free(&r);
	if (!ok) {
		update_leave(u, p->raw_off, "a literal of this derivation has no place in the new run");
		for (size_t i = 0; i < n_lits; i++)
			free(lits[i].text);
		free(lits);
		buf_free(&expr);
		return;
	}
	if (expr_eval_env(expr.s, expr.len, &new_env, &r) != 0) {
		update_leave(u, p->raw_off, "the updated derivation does not evaluate: %s", r.err);
	} else {
		const char *what;
		if (!direction_crossed(p->tok.unit, expr.s, expr.len, was, r.value, &what) ||
		    !claim_flip(u, p, was, r.value, what)) {
			char buf[128];
			size_t n = numtok_format_like(&p->tok, p->text, r.value, buf, sizeof buf);
			if (n)
				update_add_edit(u, p->raw_off, p->raw_off + (p->tok.end - p->tok.start), buf, n);
		}
	}
	/* the literals follow the run even past a flip: verify then finds
	 * the number across its line (claim-false) until a person rewrites it */
	for (size_t i = 0; i < n_lits; i++) {
		update_add_edit(u, lits[i].start, lits[i].end, lits[i].text, strlen(lits[i].text));
		free(lits[i].text);
	}
	free(lits);
	expr_result_free(&r);
	buf_free(&expr);
}

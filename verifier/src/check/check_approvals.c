/* check_approvals.c - see check_approvals.h: the review gate. */
#include "check_approvals.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "diag.h"
#include "evsig.h"
#include "util.h"

/* A block's problem, at its first line. */
static void report_block(const struct approvals *a, const struct approval_block *bl, const char *page_rel)
{
	enum diag_kind k = bl->trust == APPROVAL_BAD ? D_APPROVAL_SIG_BAD : D_APPROVAL_SIG_UNTRUSTED;
	struct diag_loc at = textfile_loc_line(&a->tf, bl->line, 1, 0);
	at.path = a->path;
	struct diag *d = diag_begin(k, at, "this approval block (reviewer %s) does not count: %s",
				    bl->reviewer ? bl->reviewer : "unknown", bl->why ? bl->why : "?");
	if (bl->trust == APPROVAL_BAD)
		diag_hint(d, "an approvals file is written by 'coursecheck approve' alone: remove the block and approve "
			     "%s again",
			  page_rel);
	else
		diag_hint(d, "a reviewer's key is listed in evidence/allowed_signers as 'NAME namespaces=\"%s\" "
			     "ssh-ed25519 KEY', committed by a maintainer; a node key never approves",
			  APPROVALS_NAMESPACE);
	diag_end(d);
}

/* How an item is named in a message: "claim 'EXPR'", "traced number 1,534",
 * "table row".  Malloc'd. */
static char *label_of(const struct approval_item *x)
{
	switch (x->kind) {
	case LG_CLAIM:
		return xasprintf("claim '%s'", x->place);
	case LG_ROW:
		return xstrdup("table row");
	case LG_DERIVED:
		return xasprintf("derived number %s", x->shown);
	case LG_CITED:
		return xasprintf("cited number %s", x->shown);
	default:
		return xasprintf("traced number %s", x->shown);
	}
}

static void item_hint(struct diag *d, const char *page_rel, const struct approval_item *x)
{
	diag_hint(d, "once a reviewer has read it against its evidence: coursecheck approve %s --item %s --key "
		     "~/.ssh/id_ed25519 --principal NAME (or --all)",
		  page_rel, x->id);
}

static void report_missing(const char *page_rel, const struct textfile *page, const struct approval_item *x)
{
	struct diag_loc at = textfile_loc_line(page, x->line, x->col, x->span);
	char *label = label_of(x);
	struct diag *d = diag_begin(D_APPROVAL_MISSING, at, "%s (item %s) is not approved by a reviewer", label, x->id);
	item_hint(d, page_rel, x);
	diag_end(d);
	free(label);
}

/* A note for each evidence token that moved: at the new run's line.  The
 * notes borrow their paths until diag_end: paths[i] (n_values of them,
 * NULL or malloc'd) are the caller's to free after it. */
static void note_moved(struct diag *d, const struct approval_item *x, const struct approval_record *r, char **paths)
{
	for (size_t i = 0; i < x->n_values; i++) {
		const struct approval_value *old = i < r->n_values ? &r->values[i] : NULL;
		if (old && strcmp(old->token, x->values[i].token) == 0)
			continue;
		char *path = xstrdup(x->values[i].where);
		size_t line = 0, col = 0;
		char *c2 = strrchr(path, ':');
		if (c2) {
			*c2 = '\0';
			col = strtoul(c2 + 1, NULL, 10);
			char *c1 = strrchr(path, ':');
			if (c1) {
				*c1 = '\0';
				line = strtoul(c1 + 1, NULL, 10);
			}
		}
		struct diag_loc at = {.path = path, .line = line, .col = col};
		diag_note(d, at, "the evidence moved: %s here, approved %s at %s", x->values[i].token,
			  old ? old->token : "(no value)", old ? old->where : "(none)");
		paths[i] = path;
	}
}

static void report_reopened(const char *page_rel, const struct textfile *page, const struct approvals *a,
			    const struct approval_item *x, const struct approval_record *r)
{
	const struct approval_block *bl = &a->blocks[r->block];
	struct diag_loc at = textfile_loc_line(page, x->line, x->col, x->span);
	char *was = approvals_record_values(r), *now = approvals_item_values(x);
	bool place_moved = strcmp(r->place, x->place) != 0, values_moved = strcmp(was, now) != 0;
	const char *what = place_moved ? (x->kind == LG_CLAIM ? "its expression" : "its place")
			   : values_moved ? "its values" : "its sentence";
	char *label = label_of(x);
	struct diag *d = diag_begin(D_APPROVAL_REOPENED, at, "%s (item %s) is reopened: %s changed since %s approved it on %s",
				    label, x->id, what, bl->reviewer, bl->approved);
	free(label);
	struct diag_loc rec = textfile_loc_line(&a->tf, r->file_line, 1, 0);
	rec.path = a->path;
	if (place_moved)
		diag_note(d, rec, "approved: %s", r->place);
	struct diag_loc none = {.path = page_rel, .line = x->line, .col = x->col};
	if (values_moved) {
		diag_note(d, rec, "approved values: %s", was);
		diag_note(d, none, "values now: %s", now);
	} else {
		diag_note(d, rec, "approved values, unchanged: %s", was);
	}
	if (!approvals_same_sentence(x, r)) {
		diag_note(d, rec, "approved sentence: %s", r->sentence);
		diag_note(d, none, "sentence now: %s", x->sentence);
	}
	char **paths = xcalloc(x->n_values ? x->n_values : 1, sizeof *paths);
	note_moved(d, x, r, paths);
	item_hint(d, page_rel, x);
	diag_end(d);
	for (size_t i = 0; i < x->n_values; i++)
		free(paths[i]);
	free(paths);
	free(was);
	free(now);
}

struct approvals_tally check_approvals_report(const char *page_rel, const struct textfile *page,
					      const struct approval_items *it, const struct approvals *a, bool items)
{
	struct approvals_tally t = {0};
	if (a->read_error) {
		struct diag_loc at = {.path = a->path};
		diag_report(D_APPROVALS_UNREADABLE, at, "cannot read the approvals of %s: %s", page_rel, a->read_error);
	}
	for (size_t i = 0; i < a->n_blocks; i++)
		if (a->blocks[i].trust != APPROVAL_TRUSTED)
			report_block(a, &a->blocks[i], page_rel);
	if (!items)
		return t;
	if (a->n_records == 0 && it->n > 0 && !approvals_reviewers_listed()) {
		/* nobody can approve yet: one finding for the page, not one an item */
		t.unapproved = it->n;
		struct diag_loc at = textfile_loc_line(page, 1, 1, 0);
		struct diag *d = diag_begin(D_APPROVAL_MISSING, at,
					    "%zu item%s of this page (claims, traced numbers) await a reviewer's sign-off, and "
					    "%s lists no reviewer",
					    it->n, it->n == 1 ? "" : "s", EVSIG_SIGNERS_PATH);
		diag_hint(d, "a maintainer lists each reviewer's key as 'NAME namespaces=\"%s\" ssh-ed25519 KEY'; the "
			     "reviewer then runs coursecheck approve %s --all --key KEY --principal NAME",
			  APPROVALS_NAMESPACE, page_rel);
		diag_end(d);
		return t;
	}
	enum approval_state *st = xcalloc(it->n ? it->n : 1, sizeof *st);
	const struct approval_record **recs = xcalloc(it->n ? it->n : 1, sizeof *recs);
	approvals_states(a, it, st, recs);
	for (size_t i = 0; i < it->n; i++) {
		if (st[i] == APPROVAL_APPROVED) {
			t.approved++;
		} else if (st[i] == APPROVAL_REOPENED) {
			t.reopened++;
			report_reopened(page_rel, page, a, &it->v[i], recs[i]);
		} else {
			t.unapproved++;
			report_missing(page_rel, page, &it->v[i]);
		}
	}
	free(st);
	free(recs);
	return t;
}

void check_approvals(struct page_ctx *ctx)
{
	if (ctx->is_readme || !ctx->fm.present)
		return;
	struct approvals a;
	approvals_read(ctx->path, NULL, &a);
	bool gate = ctx->policy.strict && ctx->ledger && !ctx->no_evidence_yet && !ctx->opts->approving;
	struct approval_items it = {0};
	if (gate)
		approvals_items(ctx->ledger, &ctx->tf, &it);
	check_approvals_report(ctx->path, &ctx->tf, &it, &a, gate);
	approvals_items_free(&it);
	approvals_free(&a);
}

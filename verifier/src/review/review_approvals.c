/* review_approvals.c - see review_approvals.h. */
#include "review_approvals.h"

#include <stdint.h>
#include <stdlib.h>

#include "approvals.h"
#include "course.h"
#include "repo.h"
#include "textfile.h"
#include "util.h"

struct review_approvals {
	struct textfile tf;
	struct approval_items it;
	struct approvals a;
	enum approval_state *states;
	const struct approval_record **recs;
	bool *matched;
	char **values; /* per item: its old and new values' text, 2 each, made at its lookup */
};

struct review_approvals *review_approvals_load(const char *page_rel, const struct ledger *lg)
{
	char *fs = NULL;
	const char *why;
	struct review_approvals *ra = xcalloc(1, sizeof *ra);
	if (course_resolve(page_rel, &fs, &why) != REPO_OK || textfile_read(fs, page_rel, &ra->tf, &why) != 0) {
		free(fs);
		free(ra);
		return NULL;
	}
	free(fs);
	approvals_items(lg, &ra->tf, &ra->it);
	approvals_read(page_rel, NULL, &ra->a);
	size_t n = ra->it.n ? ra->it.n : 1;
	ra->states = xcalloc(n, sizeof *ra->states);
	ra->recs = xcalloc(n, sizeof *ra->recs);
	ra->matched = xcalloc(n, sizeof *ra->matched);
	ra->values = xcalloc(2 * n, sizeof *ra->values);
	approvals_states(&ra->a, &ra->it, ra->states, ra->recs);
	return ra;
}

/* The first item not matched yet of e's kind at e's place. */
static size_t match(struct review_approvals *ra, const struct ledger_entry *e)
{
	for (size_t i = 0; i < ra->it.n; i++) {
		const struct approval_item *x = &ra->it.v[i];
		if (!ra->matched[i] && x->kind == e->kind && x->line == e->line && x->col == e->col) {
			ra->matched[i] = true;
			return i;
		}
	}
	return SIZE_MAX;
}

void review_approvals_lookup(void *ctx, const char *page, const char *id, const struct ledger_entry *e,
			     struct review_approval *out)
{
	(void)page;
	(void)id;
	struct review_approvals *ra = ctx;
	size_t i = match(ra, e);
	if (i == SIZE_MAX)
		return;
	out->id = ra->it.v[i].id;
	const struct approval_record *r = ra->recs[i];
	if (ra->states[i] == APPROVAL_UNAPPROVED || !r)
		return;
	out->state = ra->states[i] == APPROVAL_APPROVED ? REVIEW_APPROVAL_APPROVED : REVIEW_APPROVAL_REOPENED;
	if (r->block < ra->a.n_blocks) {
		out->by = ra->a.blocks[r->block].reviewer;
		out->when = ra->a.blocks[r->block].approved;
	}
	if (out->state == REVIEW_APPROVAL_REOPENED) {
		ra->values[2 * i] = approvals_record_values(r);
		ra->values[2 * i + 1] = approvals_item_values(&ra->it.v[i]);
		out->old_values = ra->values[2 * i];
		out->new_values = ra->values[2 * i + 1];
	}
}

void review_approvals_free(struct review_approvals *ra)
{
	if (!ra)
		return;
	for (size_t i = 0; i < 2 * ra->it.n; i++)
		free(ra->values[i]);
	free(ra->values);
	free(ra->matched);
	free(ra->recs);
	free(ra->states);
	approvals_free(&ra->a);
	approvals_items_free(&ra->it);
	textfile_free(&ra->tf);
	free(ra);
}

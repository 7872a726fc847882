/* drift.c - see drift.h. */
#include "drift.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "bank.h"
#include "repo.h"
#include "util.h"

/* Whether stdout line k (0-based), column col0 (0-based) is listed in the
 * evidence's volatile: header ("L:C L:C ...", 1-based). */
static bool listed_volatile(const struct evidence *ev, size_t k, size_t col0)
{
	const char *v = evidence_get(ev, "volatile", NULL);
	if (!v)
		return false;
	char want[48];
	snprintf(want, sizeof want, "%zu:%zu", k + 1, col0 + 1);
	size_t n = strlen(want);
	for (const char *p = v; (p = strstr(p, want)) != NULL; p += n) {
		bool left = p == v || p[-1] == ' ';
		bool right = p[n] == '\0' || p[n] == ' ';
		if (left && right)
			return true;
	}
	return false;
}

static void token_text(const struct evidence *ev, size_t file_line, const struct num_token *t, char *out, size_t len)
{
	size_t n;
	const char *s = textfile_line(&ev->tf, file_line, &n);
	snprintf(out, len, "%.*s", (int)(t->end - t->start), s + t->start);
}

/* Binds the number etok of old's stdout line k (file line `line`) to its
 * place, and follows the place into cur through the alignment al. */
static void bind_place(const struct evfile *old, const struct evfile *cur, const struct alignment *al, size_t k,
		       size_t line, const struct num_token *etok, struct drift *out)
{
	memset(out, 0, sizeof *out);
	out->old = old;
	out->now = cur;
	out->old_line = line;
	out->old_col = etok->start + 1;
	token_text(old->ev, line, etok, out->old_text, sizeof out->old_text);
	align_place_names(old->ev, k, etok, out->row, sizeof out->row, out->column, sizeof out->column);
	const char *r = evidence_get(old->ev, "repeats", NULL);
	out->repeats = r ? (unsigned)strtoul(r, NULL, 10) : 1;
	out->volatile_place = listed_volatile(old->ev, k, etok->start);
	size_t idx = align_token_index(old->ev, k, etok->start), nk;
	struct num_token nt;
	if (idx != SIZE_MAX && align_number(al, old->ev, cur->ev, k, idx, &nk, &nt)) {
		out->followed = true;
		out->now_line = cur->ev->stdout_first + nk;
		out->now_col = nt.start + 1;
		token_text(cur->ev, out->now_line, &nt, out->now_text, sizeof out->now_text);
	}
}

/* The runs of lesson older than cur, newest first (indices into paths). */
static size_t older_runs(const char *lesson, const struct evfile *cur, char ***paths, size_t *at)
{
	size_t n = course_list_evidence(lesson, paths);
	*at = n;
	for (size_t i = 0; i < n; i++)
		if (strcmp((*paths)[i], cur->path) == 0)
			*at = i;
	return n;
}

/* ---- older runs, banked and aligned once a page -------------------------
 * Every number of a page that only an older run holds gets a drift note,
 * and a page still quoting the previous capture has many: each note used
 * to bank the older run and align the two runs again, so that N such
 * numbers on runs of N lines cost N banks and N alignments.  The memo, a
 * block of the course model (course_cache: COURSE_CACHE_DRIFT), keeps
 * each older run's bank and its alignment to the run the page names; it
 * is emptied when a page is done (a bank borrows the evidence texts,
 * which live until course_page_done). */
#define MEMO_PAIRS 8
struct drift_memo {
	size_t next; /* the slot a new pair takes when all are used */
	struct pair {
		const struct evfile *old, *cur; /* NULL old: an empty slot */
		struct bank bank;
		struct alignment al;
		bool aligned;
	} pairs[MEMO_PAIRS];
};

static void pair_clear(struct pair *p)
{
	if (p->old)
		bank_free(&p->bank);
	if (p->aligned)
		alignment_free(&p->al);
	memset(p, 0, sizeof *p);
}

static void drift_memo_empty(void *block)
{
	struct drift_memo *memo = block;
	for (size_t i = 0; i < MEMO_PAIRS; i++)
		pair_clear(&memo->pairs[i]);
	memo->next = 0;
}

/* The memo's slot of (old, cur), its bank of old made. */
static struct pair *pair_of(const struct evfile *old, const struct evfile *cur)
{
	struct drift_memo *memo = course_cache(COURSE_CACHE_DRIFT, sizeof *memo, drift_memo_empty);
	for (size_t i = 0; i < MEMO_PAIRS; i++)
		if (memo->pairs[i].old == old && memo->pairs[i].cur == cur)
			return &memo->pairs[i];
	struct pair *p = &memo->pairs[memo->next];
	memo->next = (memo->next + 1) % MEMO_PAIRS;
	pair_clear(p);
	p->old = old;
	p->cur = cur;
	bank_add_evidence(&p->bank, old);
	return p;
}

/* The alignment of p's runs, made at its first use. */
static const struct alignment *pair_alignment(struct pair *p)
{
	if (!p->aligned) {
		align_runs(p->old->ev, p->cur->ev, &p->al);
		p->aligned = true;
	}
	return &p->al;
}

bool drift_find(const char *lesson, const struct evfile *cur, const struct num_token *tok, struct drift *out)
{
	memset(out, 0, sizeof *out);
	if (!lesson || !cur || cur->state != LOAD_OK)
		return false;
	char **paths;
	size_t at, n = older_runs(lesson, cur, &paths, &at);
	bool found = false;
	/* the newest older run first */
	for (size_t i = at; i-- > 0 && !found;) {
		const struct evfile *old = course_evidence(paths[i]);
		if (old->state != LOAD_OK)
			continue;
		struct pair *p = pair_of(old, cur);
		const struct bank_entry *e = bank_find(&p->bank, tok);
		if (e && e->stdout_index != SIZE_MAX) {
			found = true;
			bind_place(old, cur, pair_alignment(p), e->stdout_index, e->line, &e->tok, out);
		}
	}
	repo_free_list(paths, n);
	return found;
}

/* The stdout line of ev where toks[0..n) all trace in order, the line's
 * matching tokens going to line_toks_out.  SIZE_MAX when there is none. */
static size_t row_line(const struct evfile *ev, const struct num_token *toks, size_t n, struct num_token *line_toks_out)
{
	for (size_t k = 0; k < ev->ev->n_stdout; k++) {
		size_t len;
		const char *s = evidence_stdout(ev->ev, k, &len);
		struct num_token *lt;
		size_t nt = numtok_scan(s, len, &lt), j = 0, i = 0;
		for (; i < n; i++) {
			while (j < nt && !numtok_traces_to(&toks[i], &lt[j]))
				j++;
			if (j == nt)
				break;
			line_toks_out[i] = lt[j++];
		}
		free(lt);
		if (i == n)
			return k;
	}
	return SIZE_MAX;
}

bool drift_find_row(const char *lesson, const struct evfile *cur, const struct num_token *toks, size_t n,
		    struct drift *out)
{
	if (!lesson || !cur || cur->state != LOAD_OK || n == 0)
		return false;
	char **paths;
	size_t at, total = older_runs(lesson, cur, &paths, &at);
	struct num_token *placed = xcalloc(n, sizeof *placed);
	bool found = false;
	for (size_t i = at; i-- > 0 && !found;) {
		const struct evfile *old = course_evidence(paths[i]);
		if (old->state != LOAD_OK)
			continue;
		size_t k = row_line(old, toks, n, placed);
		if (k == SIZE_MAX)
			continue;
		found = true;
		const struct alignment *al = pair_alignment(pair_of(old, cur));
		for (size_t j = 0; j < n; j++)
			bind_place(old, cur, al, k, old->ev->stdout_first + k, &placed[j], &out[j]);
	}
	free(placed);
	repo_free_list(paths, total);
	return found;
}

void drift_note(struct diag *d, const struct drift *dr)
{
	struct buf place = {0};
	if (dr->row[0] || dr->column[0]) {
		buf_puts(&place, " (");
		if (dr->row[0])
			buf_printf(&place, "row \"%s\"", dr->row);
		if (dr->column[0])
			buf_printf(&place, "%scolumn \"%s\"", dr->row[0] ? ", " : "", dr->column);
		buf_puts(&place, ")");
	}
	struct diag_loc at = textfile_loc_line(&dr->old->ev->tf, dr->old_line, dr->old_col, strlen(dr->old_text));
	if (dr->followed)
		diag_note(d, at, "was %s here%s; that place holds %s at %s:%zu:%zu%s", dr->old_text,
			  place.s ? place.s : "", dr->now_text, dr->now->path, dr->now_line, dr->now_col,
			  dr->volatile_place ? " (a volatile place: it varied between the repeats of this capture)" : "");
	else
		diag_note(d, at, "was %s here%s; %s has no such place", dr->old_text,
			  place.s ? place.s : "", dr->now->path);
	buf_free(&place);
}

void drift_behaviour(const struct drift *dr, struct diag_loc at, const char *claim)
{
	if (!dr->followed || dr->volatile_place || dr->repeats < 2)
		return;
	struct diag *d = diag_begin(D_BEHAVIOUR_CHANGE, at,
				    "%s was the same in all %u repeats of %s and is now %s: the program computes something else",
				    claim, dr->repeats, dr->old->path, dr->now_text);
	diag_note(d, textfile_loc_line(&dr->old->ev->tf, dr->old_line, dr->old_col, strlen(dr->old_text)),
		  "the stable value");
	diag_hint(d, "a deterministic count changed: check the program before updating the page");
	diag_end(d);
}

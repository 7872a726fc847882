/* check_claims.c - see check_claims.h. */
#include "check_claims.h"
#include "direction.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "claim.h"
#include "measured.h"
#include "place.h"
#include "re.h"
#include "util.h"

/* ---- sentences ------------------------------------------------------------- */

/* For review: the row and column names of an evidence place (align.c's
 * naming, as drift notes use it), or the header key it is; malloc'd, or
 * NULL when it has no name. */
static char *ledger_place_words(const struct evidence *ev, size_t k, const struct num_token *tok, size_t file_line)
{
	if (k == SIZE_MAX) {
		for (size_t i = 0; i < ev->n_fields; i++)
			if (ev->fields[i].line == file_line)
				return xasprintf("header field \"%s\"", ev->fields[i].key);
		return NULL;
	}
	char row[128], col[64];
	align_place_names(ev, k, tok, row, sizeof row, col, sizeof col);
	if (row[0] && col[0])
		return xasprintf("row \"%s\", column \"%s\"", row, col);
	if (row[0] || col[0])
		return xasprintf("%s \"%s\"", row[0] ? "row" : "column", row[0] ? row : col);
	return NULL;
}

/* check.h: a ledger reference to an evidence number (here, beside the
 * claims that make most of them; check_numbers uses it too). */
void check_ledger_ref(struct ledger_entry *le, const struct bank_entry *e, const struct num_token *page,
		      const char *claim, const char *what)
{
	if (!le)
		return;
	size_t len;
	const char *line = textfile_line(&e->ev->ev->tf, e->line, &len);
	size_t tl = e->tok.end - e->tok.start;
	char *place = ledger_place_words(e->ev->ev, e->stdout_index, &e->tok, e->line);
	if (what && place)
		ledger_ref(le, e->ev->path, e->line, e->line, bank_entry_col(e), tl, "%s: %s", what, place);
	else if (what || place)
		ledger_ref(le, e->ev->path, e->line, e->line, bank_entry_col(e), tl, "%s", what ? what : place);
	else
		ledger_ref(le, e->ev->path, e->line, e->line, bank_entry_col(e), tl, NULL);
	free(place);
	if (page && page->value != e->tok.value)
		ledger_detail(le, "%s = %.*s rounded to %d significant digit%s", claim, (int)tl, line + e->tok.start,
			      page->sig_digits, page->sig_digits == 1 ? "" : "s");
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* The sentences of a unit: for each segment, the sentence at its start
 * and the offsets inside it where a new sentence starts (after a '.', '!'
 * or '?' and blanks, before more text).  Found once per unit, so a long
 * paragraph costs one pass. */
struct sentences {
	size_t *base;   /* per segment */
	size_t *first;  /* per segment: its first entry in starts */
	size_t *starts; /* sentence start offsets, segment by segment */
	size_t n_starts, cap;
};

/* Records the sentence starts inside s[0..len); returns whether the text
 * ends with a terminator (the next text opens a new sentence). */
static bool scan_starts(struct sentences *st, const char *s, size_t len)
{
	bool ends = false;
	for (size_t j = 0; j < len; j++) {
		if (s[j] != '.' && s[j] != '!' && s[j] != '?')
			continue;
		if (j + 1 < len && !is_blank(s[j + 1]))
			continue;
		size_t k = j + 1;
		while (k < len && is_blank(s[k]))
			k++;
		if (k == len) {
			ends = true;
		} else {
			st->starts = xgrow(st->starts, &st->cap, st->n_starts + 1, sizeof *st->starts);
			st->starts[st->n_starts++] = k;
		}
		j = k - 1;
	}
	return ends;
}

/* A claim written after "... faster." belongs to the sentence it follows:
 * a segment's base is the sentence its first text opens. */
static void sentences_find(const struct claims_unit *u, struct sentences *st)
{
	memset(st, 0, sizeof *st);
	st->base = xcalloc(u->n_segs + 1, sizeof *st->base);
	st->first = xcalloc(u->n_segs + 2, sizeof *st->first);
	size_t running = 0;
	bool pending = false;
	for (size_t i = 0; i < u->n_segs; i++) {
		const struct seg *g = &u->segs[i];
		st->first[i] = st->n_starts;
		if (u->seg_cell) {
			st->base[i] = u->seg_cell[i];
			continue;
		}
		if (g->kind == SEG_TEXT && !str_is_blank(g->s, g->len)) {
			if (pending)
				running++;
			st->base[i] = running;
			size_t before = st->n_starts;
			pending = scan_starts(st, g->s, g->len);
			running += st->n_starts - before;
		} else {
			st->base[i] = running;
		}
	}
	st->first[u->n_segs] = st->n_starts;
}

static void sentences_free(struct sentences *st)
{
	free(st->base);
	free(st->first);
	free(st->starts);
}

static size_t sentence_at(const struct claims_unit *u, const struct sentences *st, size_t seg, size_t off)
{
	if (u->seg_cell)
		return u->seg_cell[seg];
	/* starts of this segment are ascending: count those at or before off */
	size_t lo = st->first[seg], hi = st->first[seg + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st->starts[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return st->base[seg] + (lo - st->first[seg]);
}

/* The segment a number was read from; numbers come in text order, so
 * *cursor moves forward with them (a fresh search only when it must). */
static size_t seg_of(const struct claims_unit *u, const struct pnum *p, size_t *cursor)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = pass ? 0 : *cursor; i < u->n_segs; i++)
			if (u->segs[i].kind == SEG_TEXT && u->segs[i].s == p->text) {
				*cursor = i;
				return i;
			}
	}
	return 0;
}

/* ---- tracing a group together ---------------------------------------------- */

/* Candidates kept per number, and the numbers of a group whose shared
 * line is looked for: a sentence of thousands of numbers (a hostile page)
 * costs no more than a few dozen. */
#define MAX_CANDS 16
#define MAX_GROUP 32
/* A unit or group of fewer numbers than this keeps its arrays on the
 * stack (a calloc and a free of each came once a paragraph). */
#define TRACE_LOCAL 16

/* Every bank entry p traces to (the first MAX_CANDS kept); returns the
 * count.  The first run's stdout and the numeric header come first, and
 * the numbers of the recorded run lines beside them: an argument on the
 * run line competes with an output number like any other place (issue
 * 31: "a block size of 128 threads" is the run line's 128 as much as the
 * output's thread 128, and nothing says which).  The other streams, runs
 * and the build line (bank.h's where) are candidates only for a number
 * that traces to none of those. */
static size_t candidates(const struct bank *b, const struct num_token *p, const struct bank_entry **out)
{
	/* the first pass reads the stdout view: most numbers trace there, and
	 * a page whose numbers all do never banks the other streams */
	bool viewed;
	size_t n = bank_traces_in_view(b, p, out, MAX_CANDS, &viewed);
	int other = viewed; /* viewed: none of the first kind is left to read */
	for (; other <= 1 && n == 0; other++)
		n = bank_traces(b, p, other, out, MAX_CANDS);
	/* other is 2 only after the pass of the other kinds, which holds the
	 * run lines already */
	if (n > 0 && other < 2)
		n += bank_traces_run_lines(b, p, out + (n < MAX_CANDS ? n : MAX_CANDS),
					   n < MAX_CANDS ? MAX_CANDS - n : 0);
	return n;
}

static bool same_line(const struct bank_entry *a, const struct bank_entry *b)
{
	return a->ev == b->ev && a->line == b->line;
}

/* One group: the numbers idx[0..m) of the unit; anchors[0..n_anchors)
 * are the places its place-bound numbers name, which count towards the
 * line the group shares. */
static void trace_group(const struct claims_unit *u, const size_t *idx, size_t m, const struct bank_entry *anchors,
			size_t n_anchors, struct claims_trace *out)
{
	const struct bank_entry *c_local[TRACE_LOCAL][MAX_CANDS];
	size_t nc_local[TRACE_LOCAL];
	bool local = m < TRACE_LOCAL;
	const struct bank_entry *(*c)[MAX_CANDS] = local ? c_local : xcalloc(m + 1, sizeof *c);
	size_t *nc = local ? nc_local : xcalloc(m + 1, sizeof *nc);
	for (size_t i = 0; i < m; i++)
		nc[i] = candidates(u->bank, &u->nums[idx[i]].tok, c[i]);
	/* the line holding most of the group's numbers (each counted once) */
	const struct bank_entry *best = NULL;
	size_t best_count = 0;
	for (size_t i = 0; i < m && m <= MAX_GROUP; i++)
		for (size_t a = 0; a < nc[i] && a < MAX_CANDS; a++) {
			size_t count = 0;
			for (size_t k = 0; k < n_anchors; k++)
				if (same_line(c[i][a], &anchors[k])) {
					count++;
					break;
				}
			for (size_t j = 0; j < m; j++)
				for (size_t b = 0; b < nc[j] && b < MAX_CANDS; b++)
					if (same_line(c[i][a], c[j][b])) {
						count++;
						break;
					}
			if (count > best_count) {
				best_count = count;
				best = c[i][a];
			}
		}
	bool shared = m + (n_anchors ? 1 : 0) >= 2 && best_count >= 2;
	for (size_t i = 0; i < m; i++) {
		struct claims_trace *t = &out[idx[i]];
		memset(t, 0, sizeof *t);
		t->n_cands = nc[i];
		for (size_t a = 0; a < nc[i] && a < 4; a++)
			t->cands[a] = c[i][a];
		if (nc[i] == 0)
			continue;
		t->at = c[i][0];
		const struct bank_entry *on = NULL;
		for (size_t a = 0; shared && a < nc[i] && a < MAX_CANDS && !on; a++)
			if (same_line(c[i][a], best)) {
				on = c[i][a];
				/* two equal values on the line: the one the others left */
				for (size_t b = a; b < nc[i] && b < MAX_CANDS; b++) {
					bool taken = false;
					for (size_t j = 0; j < i; j++)
						taken |= out[idx[j]].at == c[i][b];
					if (same_line(c[i][b], best) && !taken) {
						on = c[i][b];
						break;
					}
				}
			}
		if (on) {
			t->at = on;
			continue;
		}
		/* all the others share a line this one is not on */
		t->off_line = shared && m >= 3 && best_count == m - 1 + (n_anchors ? 1 : 0);
		t->ambiguous = nc[i] > 1 || t->off_line;
	}
	if (!local) {
		free(c);
		free(nc);
	}
}

/* The place a place-bound number names, quietly (its own check reports). */
static bool anchor_of(const struct claims_unit *u, const struct pnum *p, struct bank_entry *out)
{
	enum marker_kind k = p->annot ? p->annot->marker.kind : MK_PLAIN;
	if (k != MK_AT && k != MK_ONE_RUN && k != MK_RANGE && k != MK_MIN && k != MK_MAX)
		return false;
	size_t alen;
	const char *arg = prose_annot_arg(p->annot, &alen);
	if (alen < 2 || arg[0] != '[' || arg[alen - 1] != ']' || !u->ctx->ev || !u->ctx->ev[0])
		return false;
	struct place_env pe;
	place_env_init(&pe, u->ctx->ev[0], NULL, NULL, SIZE_MAX, 0);
	struct place_hit h;
	if (!place_resolve_one(&pe, arg + 1, alen - 2, &h))
		return false;
	*out = (struct bank_entry){.tok = h.tok, .ev = h.ev, .line = h.line, .stdout_index = h.stdout_index};
	return true;
}

void claims_trace_unit(const struct claims_unit *u, const bool *want, struct claims_trace *out)
{
	/* nothing to trace, nothing to do: out stays as the caller zeroed it
	 * (the anchors below are looked up quietly, only for a group) */
	size_t wanted = 0;
	for (size_t i = 0; i < u->n_nums; i++)
		wanted += want[i];
	if (!wanted)
		return;
	struct sentences st;
	sentences_find(u, &st);
	/* a unit of a few numbers (nearly all) keeps these on the stack */
	size_t sid_local[TRACE_LOCAL], idx_local[TRACE_LOCAL];
	struct bank_entry anchors_local[TRACE_LOCAL];
	bool local = u->n_nums < TRACE_LOCAL;
	size_t *sid = local ? sid_local : xcalloc(u->n_nums + 1, sizeof *sid);
	size_t *idx = local ? idx_local : xcalloc(u->n_nums + 1, sizeof *idx);
	size_t cursor = 0;
	for (size_t i = 0; i < u->n_nums; i++)
		sid[i] = u->seg_cell ? 0 : sentence_at(u, &st, seg_of(u, &u->nums[i], &cursor), u->nums[i].tok.start);
	/* numbers come in text order, so a sentence's numbers are consecutive */
	struct bank_entry *anchors = local ? anchors_local : xcalloc(u->n_nums + 1, sizeof *anchors);
	for (size_t i = 0; i < u->n_nums;) {
		size_t j = i, m = 0, n_anchors = 0;
		while (j < u->n_nums && sid[j] == sid[i]) {
			if (want[j])
				idx[m++] = j;
			else if (anchor_of(u, &u->nums[j], &anchors[n_anchors]))
				n_anchors++;
			j++;
		}
		if (m)
			trace_group(u, idx, m, anchors, n_anchors, out);
		i = j;
	}
	if (!local) {
		free(anchors);
		free(idx);
		free(sid);
	}
	sentences_free(&st);
}

static struct place_hit hit_of(const struct bank_entry *e)
{
	return (struct place_hit){e->ev, e->stdout_index, e->line, e->tok};
}

/* For review: le rests on the place h (what says how, or NULL). */
static void ledger_place(struct ledger_entry *le, const struct place_hit *h, const struct num_token *page,
			 const char *num, const char *what)
{
	if (!le)
		return;
	struct bank_entry be = {.tok = h->tok, .ev = h->ev, .line = h->line, .stdout_index = h->stdout_index};
	check_ledger_ref(le, &be, page, num, what);
}

/* The written name of a bank entry's place (claims_names, in
 * check_claims.h): an open-addressed table of the entries named. */
#define CLAIMS_NAME_SLOTS 4096
struct claims_name_slot {
	const struct bank_entry *e;
	char *name;
};

static const char *entry_name(struct claims_names *names, const struct bank_entry *e)
{
	if (!names->slot)
		names->slot = xcalloc(CLAIMS_NAME_SLOTS, sizeof *names->slot);
	struct claims_name_slot *slot = names->slot;
	size_t h = ((uintptr_t)e / sizeof *e) % CLAIMS_NAME_SLOTS;
	for (size_t k = 0; k < CLAIMS_NAME_SLOTS; k++, h = (h + 1) % CLAIMS_NAME_SLOTS) {
		if (slot[h].e == e)
			return slot[h].name;
		if (slot[h].e)
			continue;
		struct place_hit hit = hit_of(e);
		char name[400];
		place_name(&hit, name, sizeof name);
		slot[h].e = e;
		slot[h].name = xstrdup(name);
		return slot[h].name;
	}
	return ""; /* full: nameless rather than slow */
}

void claims_names_free(struct claims_names *names)
{
	if (names->slot)
		for (size_t i = 0; i < CLAIMS_NAME_SLOTS; i++)
			free(names->slot[i].name);
	free(names->slot);
	names->slot = NULL;
}

static void describe_entry(struct claims_names *names, const struct bank_entry *e, struct buf *b)
{
	struct place_hit h = hit_of(e);
	char where[512];
	const char *name = entry_name(names, e);
	place_where(&h, where, sizeof where);
	buf_printf(b, "%s%s%s", where, name[0] ? " " : "", name);
}

static void volatile_note(struct diag *d, const struct place_hit *h)
{
	double vals[1024];
	size_t n = place_repeat_values(h, vals, 1024);
	struct buf b = {0};
	for (size_t i = 0; i < n && n > 1; i++)
		buf_printf(&b, "%s%.10g", i ? ", " : "", vals[i]);
	if (b.len)
		diag_note(d, place_loc(h), "the %zu repeats printed %s here", n, b.s);
	else
		diag_note(d, place_loc(h), "this place varied between the %u repeats of the capture", place_repeats(h));
	buf_free(&b);
}

/* e: the bank entry of h when there is one (its name is remembered). */
/* A unit of time or of rate: what one run cannot vouch for. */
static bool timed_unit(const char *unit)
{
	static const char *const units[] = {"ns", "us", "\xC2\xB5s", "ms", "s", "GB/s", "GiB/s", "TB/s", "MB/s"};
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (strcmp(unit, units[i]) == 0)
			return true;
	return false;
}

/* A timing quoted from a capture that ran once: nothing says how much it
 * varies, so under --as published it is number-volatile as a bare
 * volatile number is, unless marked one-run (which never comes here). */
static void report_single_timing(const struct claims_unit *u, const struct pnum *p, const struct place_hit *h)
{
	if (h->stdout_index == SIZE_MAX || place_repeats(h) > 1 || !timed_unit(p->tok.unit))
		return;
	char *num = prose_text(p);
	struct diag *d = diag_begin(D_NUMBER_VOLATILE, prose_loc(u->ctx, p, u->line),
				    "%s is a timing from %s, a capture that ran once: nothing says how much it varies", num,
				    h->ev->path);
	diag_note(d, place_loc(h), "the one run's value");
	diag_hint(d, "capture with --repeat K and quote the range ('LOW to HIGH <!-- range: [ROW | COLUMN] -->'), or "
		     "mark it as one run's figure, '%s <!-- one-run -->'",
		  num);
	diag_end(d);
	free(num);
}

static void report_volatile(const struct claims_unit *u, const struct pnum *p, const struct place_hit *h,
			    const struct bank_entry *e)
{
	if (!u->ctx->opts || !u->ctx->opts->strict)
		return;
	if (!place_is_volatile(h)) {
		report_single_timing(u, p, h);
		return;
	}
	char *num = prose_text(p);
	char name[400];
	if (e)
		snprintf(name, sizeof name, "%s", entry_name(u->names, e));
	else
		place_name(h, name, sizeof name);
	struct diag *d = diag_begin(D_NUMBER_VOLATILE, prose_loc(u->ctx, p, u->line),
				    "%s is one run's value of a place that varied between the %u repeats of %s", num,
				    place_repeats(h), h->ev->path);
	volatile_note(d, h);
	diag_hint(d, "quote the range, 'LOW to HIGH <!-- range: %s -->', or mark it as one run's figure, "
		     "'%s <!-- one-run: %s -->'",
		  name[0] ? name : "[ROW | COLUMN]", num, name[0] ? name : "[ROW | COLUMN]");
	diag_end(d);
	free(num);
}

void claims_report_trace(const struct claims_unit *u, const struct pnum *p, const struct claims_trace *t)
{
	struct page_ctx *ctx = u->ctx;
	if (!t->ambiguous && !ctx->ledger) { /* only the ledger records where it traced */
		struct place_hit h = hit_of(t->at);
		report_volatile(u, p, &h, t->at);
		return;
	}
	char *num = prose_text(p);
	struct diag_loc at = prose_loc(ctx, p, u->line);
	if (!t->ambiguous) {
		const char *from = t->at->where;
		struct ledger_entry *le = ledger_add(ctx->ledger, LG_TRACED, at.line, at.col, num, "%s:%zu:%zu%s%s%s",
						     t->at->ev->path, t->at->line, bank_entry_col(t->at), from ? " (from " : "",
						     from ? from : "", from ? ")" : "");
		ledger_span(le, at.span);
		check_ledger_ref(le, t->at, &p->tok, num, NULL);
		struct place_hit h = hit_of(t->at);
		report_volatile(u, p, &h, t->at);
		free(num);
		return;
	}
	/* the candidates named only for a ledger (explain, review): naming a
	 * place reads its evidence line's names again */
	struct buf cands = {0};
	for (size_t i = 0; ctx->ledger && i < t->n_cands && i < 4; i++) {
		if (i)
			buf_puts(&cands, ", ");
		describe_entry(u->names, t->cands[i], &cands);
	}
	if (ctx->ledger && t->n_cands > 4)
		buf_printf(&cands, ", and %zu more", t->n_cands - 4);
	struct ledger_entry *le = ledger_add(ctx->ledger, LG_AMBIGUOUS, at.line, at.col, num, "%s%s",
					     t->off_line ? "off its sentence's line: " : "", cands.s);
	buf_free(&cands);
	/* for review: the candidates themselves, the ones the source names */
	ledger_span(le, at.span);
	if (t->off_line)
		ledger_detail(le, "the rest of its sentence rests on another evidence line than this number");
	else
		ledger_detail(le, "ambiguous: %zu places of the evidence hold this number and nothing says which%s",
			      t->n_cands, t->n_cands > 4 ? " (the first 4 quoted)" : "");
	for (size_t i = 0; i < t->n_cands && i < 4; i++)
		check_ledger_ref(le, t->cands[i], i ? NULL : &p->tok, num, "candidate"); /* the rounding once */
	if (ctx->opts && ctx->opts->strict) {
		struct diag *d =
			t->off_line
				? diag_begin(D_NUMBER_AMBIGUOUS, at,
					     "%s is traced to another evidence line than the rest of its sentence", num)
				: diag_begin(D_NUMBER_AMBIGUOUS, at, "%s is at %zu places of the evidence and nothing says which",
					     num, t->n_cands);
		char name[400] = "";
		for (size_t i = 0; i < t->n_cands && i < 4; i++) {
			struct place_hit h = hit_of(t->cands[i]);
			const char *nm = entry_name(u->names, t->cands[i]);
			if (!name[0] && nm[0])
				snprintf(name, sizeof name, "%s", nm);
			diag_note(d, place_loc(&h), "%s%s", i ? "or here" : "here", nm[0] ? "" : " (no place name picks it out)");
		}
		diag_hint(d, "bind it to its place: '%s <!-- at: %s -->'", num, name[0] ? name : "[ROW | COLUMN]");
		diag_end(d);
	}
	free(num);
}

/* ---- place annotations --------------------------------------------------------- */

/* Whether the page number shows v (to its digits). */
static bool shows(const struct num_token *p, double v)
{
	double half = 0.5 * pow(10, -(p->decimals > 300 ? 300 : p->decimals));
	return fabs(v - p->value) <= half * (1 + 1e-9) + 1e-12 * fabs(v);
}

static void mismatch(const struct claims_unit *u, const struct pnum *p, const struct place_hit *h, const char *what,
		     double want)
{
	char *num = prose_text(p);
	size_t alen;
	const char *arg = prose_annot_arg(p->annot, &alen);
	struct diag *d = diag_begin(D_PLACE_MISMATCH, prose_loc(u->ctx, p, u->line), "%s is not %s of %.*s, which is %.10g",
				    num, what, (int)alen, arg, want);
	diag_note(d, place_loc(h), "the place");
	diag_hint(d, "quote what the place holds, or bind the number to the place it comes from");
	diag_end(d);
	struct diag_loc at = prose_loc(u->ctx, p, u->line);
	struct ledger_entry *le =
		ledger_add(u->ctx->ledger, LG_FAILED, at.line, at.col, num, "not %s of %.*s", what, (int)alen, arg);
	ledger_span(le, at.span);
	ledger_place(le, h, NULL, NULL, "the place");
	free(num);
}

static void traced_at(const struct claims_unit *u, const struct pnum *p, const struct place_hit *h, const char *how)
{
	if (!u->ctx->ledger)
		return; /* only the ledger records a traced number */
	char *num = prose_text(p);
	struct diag_loc at = prose_loc(u->ctx, p, u->line);
	size_t alen;
	const char *arg = prose_annot_arg(p->annot, &alen);
	char where[512];
	place_where(h, where, sizeof where);
	struct ledger_entry *le =
		ledger_add(u->ctx->ledger, LG_TRACED, at.line, at.col, num, "%s %.*s %s", how, (int)alen, arg, where);
	ledger_span(le, at.span);
	ledger_place(le, h, &p->tok, num, NULL);
	free(num);
}

/* A range, a bound or one run's value of a place that varied while the
 * capture kept none of its values: what the sentence says over the
 * repeats cannot be told from the one value printed (repeat-values-missing). */
static bool values_missing(const struct claims_unit *u, const struct pnum *p, const struct place_hit *h)
{
	const char *why;
	size_t line;
	const char *field = place_values_missing(h, &why, &line);
	if (!field)
		return false;
	char *num = prose_text(p);
	size_t alen;
	const char *arg = prose_annot_arg(p->annot, &alen);
	const char *as = p->annot->marker.kind == MK_RANGE ? "an end of the range over the repeats"
			 : p->annot->marker.kind == MK_ONE_RUN ? "one run's value"
							       : "a bound over the repeats";
	struct diag_loc at = prose_loc(u->ctx, p, u->line);
	struct diag *d = diag_begin(D_REPEAT_VALUES_MISSING, at,
				    "%s is quoted as %s of %.*s, but the place varied between the %u repeats of %s, "
				    "which kept none of its values",
				    num, as, (int)alen, arg, place_repeats(h), h->ev->path);
	diag_note(d, textfile_loc_line(&h->ev->ev->tf, line, 0, 0), "%s: %s", field, why);
	diag_hint(d, "capture the lesson again ('capture --repeat K' keeps the values of the places it can), or "
		     "bind the number with <!-- at: %.*s --> and say it is one run's",
		  (int)alen, arg);
	diag_end(d);
	ledger_span(ledger_add(u->ctx->ledger, LG_FAILED, at.line, at.col, num, "repeat values of %.*s not kept",
			       (int)alen, arg),
		    at.span);
	free(num);
	return true;
}

void claims_check_place_number(const struct claims_unit *u, const struct pnum *p, const struct pnum *low)
{
	struct page_ctx *ctx = u->ctx;
	enum marker_kind kind = p->annot->marker.kind;
	size_t alen;
	const char *arg = prose_annot_arg(p->annot, &alen);
	diag_checks_add(low ? 2 : 1);
	if (kind == MK_ONE_RUN && alen == 0) {
		/* one run's figure, traced by value */
		const struct bank_entry *e = bank_find(u->bank, &p->tok);
		if (e && !ctx->ledger)
			return; /* traced: only the ledger records where */
		char *num = prose_text(p);
		struct diag_loc at = prose_loc(ctx, p, u->line);
		if (e) {
			struct ledger_entry *le = ledger_add(ctx->ledger, LG_TRACED, at.line, at.col, num,
							     "one run: %s:%zu:%zu", e->ev->path, e->line, bank_entry_col(e));
			ledger_span(le, at.span);
			check_ledger_ref(le, e, &p->tok, num, NULL);
		} else {
			struct diag *d = diag_begin(D_NUMBER_UNTRACED, at, "%s is not in the evidence", num);
			diag_hint(d, "quote the number the evidence holds");
			diag_end(d);
			ledger_span(ledger_add(ctx->ledger, LG_FAILED, at.line, at.col, num, "untraced"), at.span);
		}
		free(num);
		return;
	}
	struct place_env pe;
	place_env_init(&pe, ctx->ev[0], &ctx->tf, p->annot->s, p->annot->raw_off, u->line);
	struct place_hit h;
	if (alen < 2 || arg[0] != '[' || arg[alen - 1] != ']') {
		struct diag *d = diag_begin(D_PLACE_UNKNOWN, prose_seg_loc(ctx, p->annot, u->line),
					    "the %s annotation names no place: '%.*s'", marker_kind_name(kind), (int)alen, arg);
		diag_hint(d, "write the place in brackets: <!-- %s: [ROW | COLUMN] --> or <!-- %s: [KEY] -->",
			  marker_kind_name(kind), marker_kind_name(kind));
		diag_end(d);
		return;
	}
	if (!place_resolve_one(&pe, arg + 1, alen - 2, &h)) {
		char *num = prose_text(p);
		struct diag_loc at = prose_loc(ctx, p, u->line);
		ledger_span(ledger_add(ctx->ledger, LG_FAILED, at.line, at.col, num, "place %.*s not found once", (int)alen,
				       arg),
			    at.span);
		free(num);
		return;
	}
	if (kind != MK_AT && values_missing(u, p, &h))
		return;
	if (kind == MK_AT || kind == MK_ONE_RUN) {
		if (!numtok_traces_to(&p->tok, &h.tok)) {
			mismatch(u, p, &h, "the value", h.tok.value);
			return;
		}
		traced_at(u, p, &h, kind == MK_AT ? "at" : "one run at");
		if (kind == MK_AT)
			report_volatile(u, p, &h, NULL);
		return;
	}
	double vals[1024];
	size_t n = place_repeat_values(&h, vals, 1024);
	if (n == 0) {
		mismatch(u, p, &h, "a bound (a repeat printed no number there)", NAN);
		return;
	}
	double lo = vals[0], hi = vals[0];
	for (size_t i = 1; i < n; i++) {
		lo = fmin(lo, vals[i]);
		hi = fmax(hi, vals[i]);
	}
	char how[64];
	snprintf(how, sizeof how, "%s over %zu run%s of", kind == MK_MIN ? "least" : kind == MK_MAX ? "greatest" : "range",
		 n, n == 1 ? "" : "s");
	if (kind == MK_MIN || kind == MK_MAX) {
		double want = kind == MK_MIN ? lo : hi;
		if (!shows(&p->tok, want))
			mismatch(u, p, &h, kind == MK_MIN ? "the least value over the repeats" : "the greatest value over the repeats",
				 want);
		else
			traced_at(u, p, &h, how);
		return;
	}
	bool ok = true;
	if (low && !shows(&low->tok, lo)) {
		struct pnum l = *low;
		l.annot = p->annot;
		mismatch(u, &l, &h, "the low end of the range over the repeats", lo);
		ok = false;
	}
	if (!shows(&p->tok, hi)) {
		mismatch(u, p, &h, "the high end of the range over the repeats", hi);
		ok = false;
	}
	if (ok) {
		if (low) {
			struct pnum l = *low;
			l.annot = p->annot;
			traced_at(u, &l, &h, how);
		}
		traced_at(u, p, &h, how);
	}
}

/* ---- claims ------------------------------------------------------------------- */

static const char *fn_name(enum expr_place_fn fn)
{
	return fn == EXPR_PLACE_MIN ? "min" : fn == EXPR_PLACE_MAX ? "max" : "";
}

/* "A < B is 1 < 2" for each comparison, "; " apart. */
static void describe_cmps(const struct claim_result *r, const char *arg, struct buf *b)
{
	for (size_t i = 0; i < r->n_cmps; i++) {
		const struct claim_cmp *c = &r->cmps[i];
		buf_printf(b, "%s%.*s: %.10g %s %.10g %s", i ? "; " : "", (int)(c->end - c->start), arg + c->start, c->lhs,
			   c->op, c->rhs, c->truth ? "true" : "false");
	}
}

/* claim-undecided: which measured comparisons the repeats do not settle. */
static void report_undecided(struct page_ctx *ctx, struct diag_loc at, const struct claim_result *r,
			     const struct measured_claim *mc, const char *arg)
{
	struct diag *d = diag_begin(D_CLAIM_UNDECIDED, at, "this claim is undecided for %s: the repeats do not carry it",
				    ctx->ev[0]->path);
	for (size_t i = 0; i < r->n_cmps && i < mc->n; i++) {
		if (r->cmps[i].verdict != CLAIM_UNDECIDED)
			continue;
		struct buf fig = {0};
		measured_describe(&mc->cmps[i], &fig);
		diag_note(d, at, "%.*s: %s", (int)(r->cmps[i].end - r->cmps[i].start), arg + r->cmps[i].start, fig.s);
		buf_free(&fig);
	}
	diag_hint(d, "capture more repeats (capture --repeat auto), state the timer's resolution (// Resolution:), or "
		     "say only what the runs settle");
	diag_end(d);
}

/* For explain and review: each measured comparison's verdict, figures and
 * nearest flip, "; " apart, into b. */
static void describe_verdicts(const struct claim_result *r, const struct measured_claim *mc, const char *arg,
			      struct buf *b)
{
	static const char *const words[] = {"fails", "holds", "undecided"};
	for (size_t i = 0; i < r->n_cmps && i < mc->n; i++) {
		const struct measured_cmp *m = &mc->cmps[i];
		if (!m->measured)
			continue;
		buf_printf(b, "; verdict: %.*s %s: ", (int)(r->cmps[i].end - r->cmps[i].start), arg + r->cmps[i].start,
			   words[r->cmps[i].verdict]);
		measured_describe(m, b);
		if (m->has_flip)
			buf_printf(b, "; nearest flip: the %s side's repeat %zu, %.6g, at %.6g (a change of %.3g) would %s",
				   m->flip.right ? "right" : "left", m->flip.index + 1, m->flip.from, m->flip.to,
				   fabs(m->flip.to - m->flip.from),
				   m->flip.becomes == VERDICT_HOLDS   ? "make it hold"
				   : m->flip.becomes == VERDICT_FAILS ? "make it fail"
								      : "leave it undecided");
		else if (!m->why)
			buf_printf(b, "; nearest flip: none by one repeat's value");
	}
}

/* explain --plan: each measured comparison of one place with one place,
 * as capture's --repeat auto reads it (capture_auto.h). */
static void write_plan(FILE *out, const struct page_ctx *ctx, const struct claim_result *r,
		       const struct measured_claim *mc)
{
	for (size_t i = 0; i < r->n_cmps && i < mc->n; i++) {
		const struct claim_cmp *c = &r->cmps[i];
		const struct measured_cmp *m = &mc->cmps[i];
		if (!m->measured || m->why || c->place_to - c->place_from != 2)
			continue;
		const struct place_hit *a = &mc->pe->hits[c->place_from], *b = &mc->pe->hits[c->place_from + 1];
		bool one_each = r->places[c->place_from].end <= c->op_start && r->places[c->place_from + 1].start > c->op_start;
		if (!one_each || a->stdout_index == SIZE_MAX || b->stdout_index == SIZE_MAX)
			continue;
		static const char *const open[] = {"", "min(", "max("}, *const close[] = {"", ")", ")"};
		fprintf(out, "%s %s%zu:%zu%s %s %s%zu:%zu%s %.6g %.6g\n", ctx->ev[0]->lesson, open[m->centre_l],
			a->stdout_index + 1, (size_t)a->tok.digits_start + 1, close[m->centre_l], c->op, open[m->centre_r],
			b->stdout_index + 1, (size_t)b->tok.digits_start + 1, close[m->centre_r], m->u_l, m->u_r);
	}
}

static void check_claim(const struct claims_unit *u, const struct seg *g)
{
	struct page_ctx *ctx = u->ctx;
	size_t len;
	const char *arg = prose_annot_arg(g, &len);
	size_t arg_raw = g->raw_off != SIZE_MAX ? g->raw_off + g->marker.arg_start : SIZE_MAX;
	struct diag_loc at = prose_seg_loc(ctx, g, u->line);
	diag_checks_add(1);
	char *text = xstrndup(arg, len > 200 ? 200 : len);
	struct place_env pe;
	place_env_init(&pe, ctx->ev[0], &ctx->tf, g->s, g->raw_off, u->line);
	struct expr_env env = place_env_expr(&pe);
	struct claim_result r;
	/* not zeroed: 64 comparisons' room, each set whole as it is decided
	 * (measured.h); zeroing it cost 13 K instructions a claim */
	struct measured_claim *mc = xmalloc(sizeof *mc);
	mc->pe = &pe;
	mc->want_flip = ctx->ledger != NULL;
	mc->n = 0;
	struct claim_decider decider = measured_decider(mc);
	if (claim_eval_decide(arg, len, &env, &decider, &r) != 0) {
		if (!pe.reported) {
			struct diag_loc eat = arg_raw != SIZE_MAX ? textfile_loc(&ctx->tf, arg_raw + r.err_offset, 1) : at;
			struct diag *d = diag_begin(D_CLAIM_SYNTAX, eat, "cannot evaluate the claim: %s", r.err);
			diag_hint(d, "a claim compares evidence values: <!-- claim: [ROW | COLUMN] < [ROW | COLUMN] and [KEY] == 0 -->");
			diag_end(d);
		}
		ledger_span(ledger_add(ctx->ledger, LG_FAILED, at.line, at.col, text, "claim does not evaluate"), at.span);
		claim_result_free(&r);
		free(mc);
		free(text);
		return;
	}
	bool anchored = true;
	for (size_t i = 0; i < r.n_literals; i++) {
		const struct expr_literal *l = &r.literals[i];
		bool needs_trace = l->decimals > 0 || fabs(l->value) >= 100;
		if (expr_literal_is_free(l->value) || !needs_trace || bank_find_value_stdout_first(u->bank, l->value, l->decimals))
			continue;
		anchored = false;
		struct diag_loc lat = arg_raw != SIZE_MAX ? textfile_loc(&ctx->tf, arg_raw + l->start, l->end - l->start) : at;
		struct diag *d = diag_begin(D_DERIVE_UNANCHORED, lat, "literal %.*s of the claim is not in the evidence",
					    (int)(l->end - l->start), arg + l->start);
		diag_hint(d, "name the number by its place, [ROW | COLUMN], so the claim follows the run; a literal "
			     "must be an evidence number, a whole number under 100 or a power of ten or two");
		diag_end(d);
	}
	/* the comparisons as text for the false claim's error and the ledger,
	 * the operands for the ledger only: verify without a ledger prints
	 * neither for a true claim */
	struct buf cmps = {0}, ops = {0};
	if (r.verdict != CLAIM_TRUE || ctx->ledger)
		describe_cmps(&r, arg, &cmps);
	for (size_t i = 0; ctx->ledger && i < pe.n; i++) {
		char where[512];
		place_where(&pe.hits[i], where, sizeof where);
		buf_printf(&ops, "%s%s%s%.*s%s = %.10g (%s)", i ? ", " : "", fn_name(pe.fns[i]), pe.fns[i] ? "(" : "",
			   (int)(r.places[i].end - r.places[i].start), arg + r.places[i].start, pe.fns[i] ? ")" : "",
			   pe.values[i], where);
	}
	if (r.verdict == CLAIM_UNDECIDED)
		report_undecided(ctx, at, &r, mc, arg);
	if (ctx->opts && ctx->opts->plan)
		write_plan(ctx->opts->plan, ctx, &r, mc);
	if (r.verdict == CLAIM_FALSE) {
		struct diag *d = diag_begin(D_CLAIM_FALSE, at, "this claim is false for %s: %s", ctx->ev[0]->path, cmps.s);
		for (size_t i = 0; i < pe.n && i < r.n_places; i++) {
			unsigned runs = place_repeats(&pe.hits[i]);
			diag_note(d, place_loc(&pe.hits[i]), "%s%s%.*s%s is %.10g%s", fn_name(pe.fns[i]), pe.fns[i] ? "(" : "",
				  (int)(r.places[i].end - r.places[i].start), arg + r.places[i].start, pe.fns[i] ? ")" : "",
				  pe.values[i], pe.fns[i] && runs > 1 ? " over the repeats" : "");
		}
		for (size_t i = 0; i < r.n_literals; i++) {
			const struct expr_literal *l = &r.literals[i];
			const struct bank_entry *e = bank_find_value_stdout_first(u->bank, l->value, l->decimals);
			if (e && !expr_literal_is_free(l->value) && (l->decimals > 0 || fabs(l->value) >= 100))
				diag_note(d, textfile_loc_line(&e->ev->ev->tf, e->line, bank_entry_col(e), e->tok.end - e->tok.start),
					  "literal %.*s is this evidence number", (int)(l->end - l->start), arg + l->start);
		}
		for (size_t i = 0; i < r.n_cmps && i < mc->n; i++)
			if (mc->cmps[i].measured && r.cmps[i].verdict == CLAIM_FALSE) {
				struct buf fig = {0};
				measured_describe(&mc->cmps[i], &fig);
				diag_note(d, at, "%.*s is decided the other way: %s", (int)(r.cmps[i].end - r.cmps[i].start),
					  arg + r.cmps[i].start, fig.s);
				buf_free(&fig);
			}
		diag_hint(d, "the run does not bear out what the sentence says: rewrite the sentence and its claim for this run");
		diag_end(d);
	}
	static const char *const verdict_words[] = {"FALSE", "true", "UNDECIDED"};
	struct buf verdicts = {0};
	if (ctx->ledger)
		describe_verdicts(&r, mc, arg, &verdicts);
	struct ledger_entry *le = ledger_add(ctx->ledger, LG_CLAIM, at.line, at.col, text, "%s%s: %s%s%s%s",
					     verdict_words[r.verdict], anchored ? "" : " (a literal is not in the evidence)",
					     cmps.s, ops.len ? "; " : "", ops.s ? ops.s : "", verdicts.s ? verdicts.s : "");
	buf_free(&verdicts);
	/* for review: each operand's place and each literal's origin */
	ledger_span(le, at.span);
	for (size_t i = 0; le && i < pe.n && i < r.n_places; i++) {
		char *what = xasprintf("%s%s%.*s%s = %.10g", fn_name(pe.fns[i]), pe.fns[i] ? "(" : "",
				       (int)(r.places[i].end - r.places[i].start), arg + r.places[i].start,
				       pe.fns[i] ? ")" : "", pe.values[i]);
		ledger_place(le, &pe.hits[i], NULL, NULL, what);
		free(what);
	}
	for (size_t i = 0; le && i < r.n_literals; i++) {
		const struct expr_literal *l = &r.literals[i];
		if (expr_literal_is_free(l->value) || !(l->decimals > 0 || fabs(l->value) >= 100))
			continue;
		const struct bank_entry *e = bank_find_value_stdout_first(u->bank, l->value, l->decimals);
		char *what = xasprintf("literal %.*s", (int)(l->end - l->start), arg + l->start);
		if (e)
			check_ledger_ref(le, e, NULL, NULL, what);
		else
			ledger_detail(le, "%s: not in the evidence", what);
		free(what);
	}
	if (r.verdict == CLAIM_FALSE)
		ledger_detail(le, "false for %s: %s", ctx->ev[0]->path, cmps.s);
	buf_free(&cmps);
	buf_free(&ops);
	claim_result_free(&r);
	free(mc);
	free(text);
}

/* ---- direction words without a claim ------------------------------------------ */

static struct re direction_words = RE_INIT(
	"\\b(slower|faster|fewer|more|less|larger|smaller|wins|loses|beats|higher|lower|helps?|hurts?|cuts?|"
	"saves?|overlaps?|nothing|never|always|every|worst|best|none)\\b",
	PCRE2_CASELESS);

/* A table cell that is only "yes" or "no" answers a comparison. */
static bool yes_no_cell(const struct claims_unit *u, size_t cell)
{
	struct buf text = {0};
	for (size_t i = 0; i < u->n_segs; i++)
		if (u->seg_cell[i] == cell && (u->segs[i].kind == SEG_TEXT || u->segs[i].kind == SEG_OPAQUE))
			buf_append(&text, u->segs[i].s, u->segs[i].len);
	size_t a = 0, b = text.len;
	if (text.s)
		str_trim(text.s, &a, &b);
	bool yn = (b - a == 2 && strncasecmp(text.s + a, "no", 2) == 0) ||
		  (b - a == 3 && strncasecmp(text.s + a, "yes", 3) == 0);
	buf_free(&text);
	return yn;
}

static int any_place_is_one(void *ctx, const char *text, size_t len, enum expr_place_fn fn, double *value, char *err,
			    size_t errlen)
{
	(void)ctx, (void)text, (void)len, (void)fn, (void)err, (void)errlen;
	*value = 1;
	return 0;
}

/* Whether s[a, b) and s[c, d) are the same text but for blanks. */
static bool same_but_blanks(const char *s, size_t a, size_t b, size_t c, size_t d)
{
	for (;;) {
		while (a < b && is_blank(s[a]))
			a++;
		while (c < d && is_blank(s[c]))
			c++;
		if (a == b || c == d)
			return a == b && c == d;
		if (s[a++] != s[c++])
			return false;
	}
}

/* Whether a claim annotation says something about the run: one of its
 * comparisons names a place and does not compare a side with itself.  A
 * claim of constants only (2 > 1) or of a place with itself ([P] == [P])
 * is true of every run and answers no sentence (issue 31's R07). */
static bool claim_says_something(const struct seg *g)
{
	size_t len;
	const char *arg = prose_annot_arg(g, &len);
	struct expr_env env = {any_place_is_one, NULL};
	struct claim_result r;
	if (claim_eval(arg, len, &env, &r) != 0)
		return true; /* claim-syntax reports it */
	bool says = false;
	for (size_t i = 0; i < r.n_cmps && !says; i++) {
		const struct claim_cmp *c = &r.cmps[i];
		size_t op_end = c->op_start + strlen(c->op);
		says = c->place_to > c->place_from && !same_but_blanks(arg, c->start, c->op_start, op_end, c->end);
	}
	claim_result_free(&r);
	return says;
}

static void unannotated(const struct claims_unit *u, const struct sentences *st)
{
	size_t n_sent = 1;
	for (size_t i = 0; i < u->n_segs; i++) {
		size_t s = sentence_at(u, st, i, u->segs[i].len) + 1;
		if (s > n_sent)
			n_sent = s;
	}
	bool *numbers = xcalloc(n_sent + 1, 1), *claimed = xcalloc(n_sent + 1, 1), *said = xcalloc(n_sent + 1, 1);
	bool any_number = false, any_claim = false;
	size_t cursor = 0;
	for (size_t i = 0; i < u->n_nums; i++) {
		const struct pnum *p = &u->nums[i];
		const char *why = p->annot ? NULL : prose_skip_reason(&p->tok);
		if (why && strcmp(why, "a year") == 0)
			continue;
		numbers[sentence_at(u, st, seg_of(u, p, &cursor), p->tok.start)] = true;
		any_number = true;
	}
	for (size_t i = 0; i < u->n_segs; i++)
		if (u->segs[i].kind == SEG_ANNOT && u->segs[i].marker.kind == MK_CLAIM) {
			/* a claim annotation makes its sentence one about the run's
			 * numbers; only a claim that says something answers it */
			numbers[st->base[i]] = true;
			any_number = true;
			if (!claim_says_something(&u->segs[i]))
				continue;
			claimed[st->base[i]] = true;
			any_claim = true;
		}
	for (size_t i = 0; i < u->n_segs; i++) {
		const struct seg *g = &u->segs[i];
		if (g->kind != SEG_TEXT)
			continue;
		bool cell_yn = u->seg_cell && yes_no_cell(u, u->seg_cell[i]);
		/* one search per sentence piece of the segment, within the piece:
		 * the first direction word decides, and a bounded subject keeps a
		 * long paragraph linear */
		size_t first = u->seg_cell ? 0 : st->first[i], last = u->seg_cell ? 0 : st->first[i + 1];
		for (size_t piece = first; piece <= last; piece++) {
			size_t pa = piece == first ? 0 : st->starts[piece - 1];
			size_t pb = piece < last ? st->starts[piece] : g->len;
			struct re_match m;
			size_t ws, we;
			if (cell_yn) {
				ws = 0;
				we = g->len;
				str_trim(g->s, &ws, &we);
			} else if (pb > pa && re_search(&direction_words, g->s + pa, pb - pa, 0, &m)) {
				ws = pa + m.start[1];
				we = pa + m.end[1];
			} else {
				continue;
			}
			size_t s = sentence_at(u, st, i, ws);
			/* a table row is one statement: a claim anywhere in it, a number anywhere in it */
			bool has_number = u->seg_cell ? any_number : numbers[s];
			bool has_claim = u->seg_cell ? any_claim : claimed[s];
			if (!has_number || has_claim || said[s])
				continue;
			said[s] = true;
			struct diag_loc at = g->raw_off != SIZE_MAX ? textfile_loc(&u->ctx->tf, g->raw_off + ws, we - ws)
								     : textfile_loc_line(&u->ctx->tf, u->line, 0, 0);
			struct diag *d = diag_begin(D_CLAIM_UNANNOTATED, at,
						    "'%.*s' states a %s about the run's numbers, and no claim annotation checks it",
						    (int)(we - ws), g->s + ws, cell_yn ? "comparison" : "direction");
			diag_hint(d, "write what makes it true right after the words: <!-- claim: [ROW | COLUMN] < [ROW | COLUMN] -->");
			diag_end(d);
		}
	}
	free(numbers);
	free(claimed);
	free(said);
}

void claims_check_unit(const struct claims_unit *u)
{
	if (u->ctx->n_ev == 0 || !u->ctx->ev[0])
		return;
	for (size_t i = 0; i < u->n_segs; i++)
		if (u->segs[i].kind == SEG_ANNOT && u->segs[i].marker.kind == MK_CLAIM)
			check_claim(u, &u->segs[i]);
	if (!u->ctx->opts || !u->ctx->opts->strict)
		return;
	struct sentences st;
	sentences_find(u, &st);
	unannotated(u, &st);
	sentences_free(&st);
}

bool claims_derived_flipped(struct page_ctx *ctx, const struct pnum *p, const char *expr, size_t len, double value,
			    struct diag_loc at)
{
	const char *what;
	size_t a, b, w, wl;
	if (p->raw_off == SIZE_MAX || !direction_crossed(p->tok.unit, expr, len, p->tok.value, value, &what) ||
	    !direction_word(ctx->tf.data, ctx->tf.len, p->raw_off, &a, &b, &w, &wl))
		return false;
	char *num = prose_text(p);
	struct diag *d = diag_begin(D_CLAIM_FALSE, at,
				    "the sentence says '%.*s', but the %s %s is now %.6g by its derivation: on the other "
				    "side of %s, so the sentence is no longer true",
				    (int)wl, ctx->tf.data + w, what, num, value, strcmp(what, "ratio") == 0 ? "1" : "0");
	diag_note(d, textfile_loc(&ctx->tf, w, wl), "the direction the sentence states");
	diag_hint(d, "the run does not bear out what the sentence says: rewrite the sentence and its number for this run");
	diag_end(d);
	free(num);
	return true;
}

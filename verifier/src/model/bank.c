/* bank.c - see bank.h.
 *
 * The pipeline: the files' lines are scanned into lists of references
 * (add_line_from, list_push: a value, a file line and a column a number,
 * a span per run of one file and one where); a look-up finds the
 * references near its value (the index by value, or a scan before it
 * pays), tests them on their tokens read again from their lines
 * (token_of, one line kept), and hands out entries made once
 * (entry_made). */
#include "bank.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "util.h"

/* ---- lists of references ---------------------------------------------- */

struct bank_ref {
	double value;
	uint32_t line;    /* file line (files are under TEXTFILE_MAX_BYTES) */
	uint32_t start;   /* the token's start in its line */
	int16_t decimals; /* the token's: with the value, all a trace test reads
			   * (numtok_traces_to_value), so a look-up never reads a
			   * line again to test a number, only to hand one out */
};

/* refs[first..] up to the next span's first: one file, one where */
struct bank_span {
	size_t first;
	const struct evfile *ev;
	const char *where;
	bool first_stdout; /* lines of the first run's stdout (stdout_index) */
};

/* The entries handed out, by position: open addressing, a power of two
 * slots, at most half full. */
struct made_slot {
	size_t pos;
	struct bank_entry *entry; /* NULL: empty */
};

struct bank_made {
	struct made_slot *slots;
	size_t n, cap;
};

/* The tokens of the line last read again: look-ups test references in
 * bank order or in value order, both of which meet a line's numbers one
 * after another, so one line kept makes each line scanned about once. */
struct bank_line {
	const struct evfile *ev;
	size_t line;
	struct num_token *toks;
	size_t n;
};

/* Where the refs pushed next come from. */
struct source {
	const struct evfile *ev;
	const char *where;
	bool first_stdout;
};

static struct bank_ref ref_of(const struct num_token *t, size_t line)
{
	return (struct bank_ref){t->value, (uint32_t)line, t->start, t->decimals};
}

static void list_push(struct bank_list *l, struct source src, struct bank_ref r)
{
	const struct bank_span *last = l->n_spans ? &l->spans[l->n_spans - 1] : NULL;
	if (!last || last->ev != src.ev || last->where != src.where || last->first_stdout != src.first_stdout) {
		l->spans = xgrow(l->spans, &l->cap_spans, l->n_spans + 1, sizeof *l->spans);
		l->spans[l->n_spans++] = (struct bank_span){l->n, src.ev, src.where, src.first_stdout};
	}
	l->refs = xgrow(l->refs, &l->cap, l->n + 1, sizeof *l->refs);
	l->refs[l->n++] = r;
}

/* The span holding refs[pos]. */
static const struct bank_span *span_of(const struct bank_list *l, size_t pos)
{
	size_t a = 0, b = l->n_spans;
	while (b - a > 1) {
		size_t m = a + (b - a) / 2;
		if (l->spans[m].first <= pos)
			a = m;
		else
			b = m;
	}
	return &l->spans[a];
}

static void made_free(struct bank_made *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].entry);
	free(m->slots);
	free(m);
}

static size_t made_slot(const struct bank_made *m, size_t pos)
{
	size_t i = (pos * 0x9E3779B97F4A7C15u) & (m->cap - 1);
	while (m->slots[i].entry && m->slots[i].pos != pos)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void made_add(struct bank_made *m, size_t pos, struct bank_entry *e)
{
	if (2 * (m->n + 1) > m->cap) {
		struct bank_made bigger = {xcalloc(m->cap ? 2 * m->cap : 16, sizeof *m->slots), m->n, m->cap ? 2 * m->cap : 16};
		for (size_t i = 0; i < m->cap; i++)
			if (m->slots[i].entry)
				bigger.slots[made_slot(&bigger, m->slots[i].pos)] = m->slots[i];
		free(m->slots);
		*m = bigger;
	}
	m->slots[made_slot(m, pos)] = (struct made_slot){pos, e};
	m->n++;
}

/* The token of refs[pos], read again from its line. */
static const struct num_token *token_of(const struct bank *cb, const struct bank_list *l, size_t pos)
{
	struct bank *b = (struct bank *)cb; /* logically const, as in bank_ready */
	const struct bank_ref *r = &l->refs[pos];
	const struct evfile *ev = span_of(l, pos)->ev;
	if (!b->line)
		b->line = xcalloc(1, sizeof *b->line);
	struct bank_line *c = b->line;
	if (c->ev != ev || c->line != r->line || !c->toks) {
		size_t len;
		const char *s = textfile_line(&ev->ev->tf, r->line, &len);
		free(c->toks);
		c->n = numtok_scan(s, len, &c->toks);
		c->ev = ev;
		c->line = r->line;
	}
	size_t a = 0, z = c->n;
	while (a < z) { /* the tokens are in text order */
		size_t m = a + (z - a) / 2;
		if (c->toks[m].start < r->start)
			a = m + 1;
		else
			z = m;
	}
	/* a reference is a token of its line's scan: the same text, the
	 * same scanner */
	if (a >= c->n || c->toks[a].start != r->start)
		abort(); /* a bug: the reference was made by this scan of this line */
	return &c->toks[a];
}

/* The entry of refs[pos], made at its first call. */
static const struct bank_entry *entry_made(const struct bank *b, const struct bank_list *cl, size_t pos)
{
	struct bank_list *l = (struct bank_list *)cl; /* logically const, as the bank */
	if (!l->made)
		l->made = xcalloc(1, sizeof *l->made);
	if (l->made->cap) {
		struct made_slot *s = &l->made->slots[made_slot(l->made, pos)];
		if (s->entry)
			return s->entry;
	}
	const struct bank_span *sp = span_of(l, pos);
	size_t line = l->refs[pos].line;
	struct bank_entry *e = xmalloc(sizeof *e);
	*e = (struct bank_entry){*token_of(b, l, pos), sp->ev, line,
				 sp->first_stdout ? line - sp->ev->ev->stdout_first : SIZE_MAX, sp->where, pos};
	made_add(l->made, pos, e);
	return e;
}


/* ---- banking ------------------------------------------------------------ */

/* The lines of one evidence file already banked, by their text: the runs
 * of a capture of several runs (a racecheck run beside the plain one)
 * print most lines of the first run again, and a line's numbers depend on
 * its text alone, so a line met again copies the references of its first
 * occurrence instead of being tokenised again.  Keys borrow the evidence
 * text; a value is the position of the line's first reference (or where
 * it would have been, for a line of no number). */
struct seen_lines {
	struct strmap map;
};

/* The numbers of s (the whole file line `line` of ev: a stream's line, a
 * header line) to l.  seen may be NULL: every line is then scanned (see
 * bank_stdout_count).  The line is scanned here, never through the course
 * cache's tokens (course_evidence_tokens): the cache would hold every
 * line's 48-byte tokens beside the 24-byte references (issue 32), for
 * about 1 % more instructions on a course where place_find then scans
 * the lines it reads itself (BENCH.md). */
static void add_line_from(struct bank_list *l, struct seen_lines *seen, struct source src, const char *s, size_t len,
			  size_t line)
{
	/* no digit, no number (numtok_scan's own first test): spares such a
	 * line the seen-lines map */
	if (numtok_first_digit(s, len) == len)
		return;
	size_t first;
	if (seen && !strmap_add(&seen->map, s, len, l->n, &first)) {
		/* the same text as an earlier line: the same numbers at the same
		 * columns, unless that line had none (first is then another
		 * line's, or the end) */
		size_t first_len;
		const char *t = first < l->n ? textfile_line(&src.ev->ev->tf, l->refs[first].line, &first_len) : NULL;
		if (!t || first_len != len || memcmp(t, s, len) != 0)
			return;
		for (size_t i = first, from = l->refs[first].line; i < l->n && l->refs[i].line == from; i++) {
			struct bank_ref again = l->refs[i];
			again.line = (uint32_t)line;
			list_push(l, src, again);
		}
		return;
	}
	struct num_token local[16], *toks;
	size_t n = numtok_scan_into(s, len, local, ARRAY_LEN(local), &toks);
	for (size_t i = 0; i < n; i++)
		list_push(l, src, ref_of(&toks[i], line));
	if (toks != local)
		free(toks);
}

/* The numeric header values and the first run's stdout: every entry
 * whose where is NULL, in bank order. */
static void add_headers_and_stdout(struct bank_list *l, struct seen_lines *seen, const struct evfile *ev)
{
	static const char *const header_keys[] = {"driver", "cuda", "compute-capability"};
	for (size_t i = 0; i < ARRAY_LEN(header_keys); i++) {
		size_t line;
		const char *v = evidence_get(ev->ev, header_keys[i], &line);
		if (!v)
			continue;
		/* the tokenizer reads "cuda: 13.0 (V13.0.88)" as 13.0 (the V
		 * part is glued to a letter), and a three-part driver version
		 * as no number at all */
		size_t len;
		const char *text = textfile_line(&ev->ev->tf, line, &len);
		add_line_from(l, seen, (struct source){ev, NULL, false}, text, len, line);
	}
	for (size_t k = 0; k < ev->ev->n_stdout; k++) {
		size_t len;
		const char *s = evidence_stdout(ev->ev, k, &len);
		add_line_from(l, seen, (struct source){ev, NULL, true}, s, len, ev->ev->stdout_first + k);
	}
}

static const char *keep_where(struct bank *b, char *text)
{
	b->wheres = xgrow(b->wheres, &b->cap_wheres, b->n_wheres + 1, sizeof *b->wheres);
	b->wheres[b->n_wheres++] = text;
	return text;
}

/* a, b and c joined, malloc'd: the where texts of every page's bank,
 * without printf's cost (two passes over its format) for three strings. */
static char *join3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *s = xmalloc(la + lb + lc + 1);
	memcpy(s, a, la);
	memcpy(s + la, b, lb);
	memcpy(s + la + lb, c, lc + 1);
	return s;
}

/* A run line's key: run or run.NAME. */
static bool run_key(const char *k)
{
	return strcmp(k, "run") == 0 || strncmp(k, "run.", 4) == 0;
}

/* The numbers of the recorded command lines (the run lines alone with
 * runs_only) to l: an argument such as the 128 of `./demo 4 128` is a
 * fact of the run as much as its output is. */
static void add_commands_to(struct bank *b, struct bank_list *l, const struct evfile *ev, bool runs_only)
{
	const struct evidence *e = ev->ev;
	for (size_t i = 0; i < e->n_fields; i++) {
		const char *k = e->fields[i].key;
		if (!run_key(k) && (runs_only || strcmp(k, "build") != 0))
			continue;
		size_t len, klen = strlen(k) + 2, line = e->fields[i].line;
		const char *text = textfile_line(&e->tf, line, &len);
		if (len < klen)
			continue;
		/* offsets stay those of the whole line, so the column is right */
		struct num_token *toks;
		size_t n = numtok_scan(text, len, &toks);
		struct source src = {ev, keep_where(b, join3("the recorded ", k, ": command line")), false};
		for (size_t j = 0; j < n; j++)
			if (toks[j].start >= klen) /* "run.v2:" is no number of the command */
				list_push(l, src, ref_of(&toks[j], line));
		free(toks);
	}
}

/* The first run's stderr, and both streams of every further run. */
static void add_other_streams(struct bank *b, struct seen_lines *seen, const struct evfile *ev)
{
	const struct evidence *e = ev->ev;
	for (size_t r = 0; r < e->n_runs; r++) {
		const struct evidence_run *run = &e->runs[r];
		for (int err = r == 0 ? 1 : 0; err <= 1; err++) {
			size_t n = err ? run->n_stderr : run->n_stdout;
			if (n == 0)
				continue;
			const char *where = r == 0 ? "stderr"
						   : keep_where(b, join3("run ", run->name, err ? ", stderr" : ", stdout"));
			for (size_t k = 0; k < n; k++) {
				size_t len;
				const char *s = evidence_run_line(e, run, err, k, &len);
				add_line_from(&b->all, seen, (struct source){ev, where, false}, s, len,
					      (err ? run->stderr_first : run->stdout_first) + k);
			}
		}
	}
}

/* The seen-lines map sized for every line of ev the bank may hold, so it
 * never grows (each growth hashes all its lines again). */
static void seen_reserve(struct seen_lines *seen, const struct evfile *ev)
{
	size_t lines = ev->ev->n_stdout + 3;
	for (size_t r = 0; r < ev->ev->n_runs; r++)
		lines += ev->ev->runs[r].n_stdout + ev->ev->runs[r].n_stderr;
	strmap_reserve(&seen->map, lines);
}

/* The view reads the whole bank's first references (see bank_ready). */
static void view_follows(struct bank *b)
{
	if (b->view_borrows)
		b->view.refs = b->all.refs;
}

/* Whether the view holds exactly the references add_evidence(ev) would
 * push first: ev is the one file deferred and nothing is banked, so the
 * view is ev's headers and first stdout, in that order. */
static bool view_is_first_of(const struct bank *b, const struct evfile *ev)
{
	return b->stdout_built && !b->stdout_stale && !b->view_borrows && b->all.n == 0 && b->n_files == 1 &&
	       b->files[0] == ev && b->view.n_spans > 0;
}

/* The whole bank starts from the view's references instead of scanning
 * those lines again, and the view reads them there from then on: one
 * copy of every stdout number, not two (issue 32). */
static void take_view(struct bank *b)
{
	b->all.refs = b->view.refs;
	b->all.n = b->view.n;
	b->all.cap = b->view.cap;
	b->all.spans = xmalloc(b->view.n_spans * sizeof *b->all.spans);
	memcpy(b->all.spans, b->view.spans, b->view.n_spans * sizeof *b->all.spans);
	b->all.n_spans = b->all.cap_spans = b->view.n_spans;
	b->view_borrows = true;
}

static void add_evidence(struct bank *b, const struct evfile *ev)
{
	struct seen_lines seen = {0};
	seen_reserve(&seen, ev);
	if (view_is_first_of(b, ev))
		take_view(b); /* a line of the other streams repeating one of them is scanned, not copied */
	else
		add_headers_and_stdout(&b->all, &seen, ev);
	/* after the first run's stdout, so that a number found there too
	 * still traces to stdout first */
	add_other_streams(b, &seen, ev);
	add_commands_to(b, &b->all, ev, false);
	strmap_free(&seen.map);
}

/* A file of the bank, for the run-line view. */
static void note_file(struct bank *b, const struct evfile *ev)
{
	b->files = xgrow(b->files, &b->cap_files, b->n_files + 1, sizeof *b->files);
	b->files[b->n_files++] = ev;
}

void bank_add_evidence(struct bank *b, const struct evfile *ev)
{
	if (!ev || ev->state != LOAD_OK)
		return;
	note_file(b, ev);
	b->stdout_stale |= b->stdout_built; /* the view no longer holds all */
	add_evidence(b, ev);
	view_follows(b);
}

void bank_defer_evidence(struct bank *b, const struct evfile *ev)
{
	if (!ev || ev->state != LOAD_OK)
		return;
	b->stdout_stale |= b->stdout_built;
	note_file(b, ev);
	b->pending = xgrow(b->pending, &b->cap_pending, b->n_pending + 1, sizeof *b->pending);
	b->pending[b->n_pending++] = ev;
}

void bank_ready(const struct bank *cb)
{
	if (!cb->n_pending)
		return;
	/* every bank is a caller's variable, never a const object: the cast
	 * fills in what it already stands for */
	struct bank *b = (struct bank *)cb;
	size_t n = b->n_pending;
	b->n_pending = 0;
	for (size_t i = 0; i < n; i++)
		if (b->pending[i]->state == LOAD_OK)
			add_evidence(b, b->pending[i]); /* the view holds their stdout already, if built */
	view_follows(b);
}

size_t bank_count(const struct bank *b)
{
	bank_ready(b);
	return b->all.n;
}

const struct bank_entry *bank_entry_at(const struct bank *b, size_t i)
{
	bank_ready(b);
	return entry_made(b, &b->all, i);
}

/* The view, built at the first call (see bank_stdout_count). */
static void build_view(struct bank *b)
{
	b->stdout_built = true;
	for (size_t i = 0; i < b->all.n; i++) { /* banked already: its own entries */
		const struct bank_span *sp = span_of(&b->all, i);
		if (!sp->where)
			list_push(&b->view, (struct source){sp->ev, NULL, sp->first_stdout}, b->all.refs[i]);
	}
	for (size_t i = 0; i < b->n_pending; i++) { /* deferred: only these lines of them */
		const struct evfile *ev = b->pending[i];
		if (ev->state != LOAD_OK)
			continue;
		/* each line scanned as it comes, with no seen-lines map, which
		 * would only hash every line to spare the first stdout's rare
		 * repeated line a scan: the same numbers either way */
		add_headers_and_stdout(&b->view, NULL, ev);
	}
}

bool bank_stdout_count(const struct bank *cb, size_t *n)
{
	struct bank *b = (struct bank *)cb; /* logically const, as in bank_ready */
	if (!b->stdout_built)
		build_view(b);
	if (b->stdout_stale)
		return false;
	*n = b->view.n;
	return true;
}

const struct bank_entry *bank_stdout_at(const struct bank *b, size_t i)
{
	return entry_made(b, &b->view, i);
}

/* ---- the index by value ---------------------------------------------------
 * Every look-up asks for the entries near one value: those a page number
 * could trace to, those holding a literal's value, the nearest few.  A
 * scan of the bank per look-up made a page of N numbers on N rows cost
 * N x N; the index sorts the references by value once, so that a look-up
 * reads only those in its window of values.  The answers are the scans'
 * exactly: the window is wider than the test the scan applied, the same
 * test then picks among the references in it, and the first in bank
 * order wins as it did. */

/* (value, position) pairs: bank_in_range's scan before the index */
struct keyed {
	double value;
	size_t pos; /* in the list indexed */
};

struct distinct {
	double value;
	size_t first; /* the first reference holding it, in bank order */
};

struct bank_index {
	size_t n;               /* references indexed (the list's first n) */
	uint32_t *keys;         /* positions by (value, pos); NaN left out: it equals nothing.
				 * 4 bytes a key, the value read from the reference: the index
				 * of 59 MiB of evidence is millions of keys (issue 32) */
	size_t n_keys;
	struct distinct *vals;  /* the distinct values, ascending */
	size_t n_vals;
	size_t *by_first;       /* indices into vals, by their first reference */
	bool all_finite;        /* no infinite value (bank_nearest's walk needs it) */
	size_t scanned;         /* references the look-ups read before the index was made */
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* by_first is sorted as (first, index) pairs: qsort has no context */
struct first_pair {
	size_t first, index;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct first_pair *x = a, *y = b;
	return x->first < y->first ? -1 : x->first > y->first;
}

static void index_free(struct bank_index *ix)
{
	if (!ix)
		return;
	free(ix->keys);
	free(ix->vals);
	free(ix->by_first);
	free(ix);
}

/* Sorts keys[0..n) by their references' values, stably (so by position
 * within a value: they come in ascending): a merge sort of the 4-byte
 * positions, where qsort would want each value beside its position (16
 * bytes a key) and a buffer of as many. */
static void sort_keys(uint32_t *keys, size_t n, const struct bank_ref *refs)
{
	uint32_t *tmp = xmalloc((n ? n : 1) * sizeof *tmp), *from = keys, *to = tmp;
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = n - lo > width ? lo + width : n, hi = n - mid > width ? mid + width : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				to[k++] = refs[from[j]].value < refs[from[i]].value ? from[j++] : from[i++];
			while (i < mid)
				to[k++] = from[i++];
			while (j < hi)
				to[k++] = from[j++];
		}
		uint32_t *t = from;
		from = to;
		to = t;
	}
	if (from != keys)
		memcpy(keys, from, n * sizeof *keys);
	free(tmp);
}

/* NULL when the list is too long for 4-byte keys (never, for evidence
 * under TEXTFILE_MAX_BYTES a file): the look-ups then scan. */
static struct bank_index *index_build(const struct bank_list *l)
{
	if (l->n > UINT32_MAX)
		return NULL;
	struct bank_index *ix = xcalloc(1, sizeof *ix);
	ix->n = l->n;
	ix->all_finite = true;
	ix->keys = xmalloc((l->n ? l->n : 1) * sizeof *ix->keys);
	for (size_t i = 0; i < l->n; i++) {
		double v = l->refs[i].value;
		if (isnan(v))
			continue;
		ix->all_finite &= isfinite(v) != 0;
		ix->keys[ix->n_keys++] = (uint32_t)i;
	}
	sort_keys(ix->keys, ix->n_keys, l->refs);
	return ix;
}

/* The value of the i-th key. */
static double key_value(const struct bank_index *ix, const struct bank_ref *refs, size_t i)
{
	return refs[ix->keys[i]].value;
}

/* The distinct values of ix and their order by first reference, made at
 * the first bank_nearest (the other look-ups need the keys alone). */
static const struct bank_index *index_values(const struct bank_index *cix, const struct bank_ref *refs)
{
	struct bank_index *ix = (struct bank_index *)cix; /* logically const, as the bank */
	if (ix->vals)
		return ix;
	ix->vals = xmalloc((ix->n_keys ? ix->n_keys : 1) * sizeof *ix->vals);
	for (size_t i = 0; i < ix->n_keys; i++) /* sorted by pos within a value */
		if (i == 0 || key_value(ix, refs, i) != key_value(ix, refs, i - 1))
			ix->vals[ix->n_vals++] = (struct distinct){key_value(ix, refs, i), ix->keys[i]};
	struct first_pair *pairs = xmalloc((ix->n_vals ? ix->n_vals : 1) * sizeof *pairs);
	for (size_t i = 0; i < ix->n_vals; i++)
		pairs[i] = (struct first_pair){ix->vals[i].first, i};
	qsort(pairs, ix->n_vals, sizeof *pairs, pair_cmp);
	ix->by_first = xmalloc((ix->n_vals ? ix->n_vals : 1) * sizeof *ix->by_first);
	for (size_t i = 0; i < ix->n_vals; i++)
		ix->by_first[i] = pairs[i].index;
	free(pairs);
	return ix;
}

/* The index of list l, built (or built again, for more references) once
 * it pays: NULL while the look-ups so far have read fewer than
 * SCANS_BEFORE_INDEX times the references, and the caller then reads
 * them all.  A bank looked in a few times (a page quoting a few numbers
 * of a large evidence) so costs no index (16 bytes a reference and a
 * sort), and a bank looked in many times costs a few scans more than the
 * index alone: linear either way. */
#define SCANS_BEFORE_INDEX 16
static const struct bank_index *index_of(const struct bank_list *cl)
{
	struct bank_list *l = (struct bank_list *)cl; /* logically const, as the bank */
	if (!l->by_value)
		l->by_value = xcalloc(1, sizeof *l->by_value);
	if (l->by_value->keys && l->by_value->n == l->n)
		return l->by_value;
	size_t scanned = l->by_value->scanned;
	if (scanned < SCANS_BEFORE_INDEX * (l->n + 64)) {
		l->by_value->scanned = scanned + l->n + 1;
		return NULL;
	}
	struct bank_index *ix = index_build(l);
	if (!ix) {
		l->by_value->scanned = scanned;
		return NULL;
	}
	index_free(l->by_value);
	l->by_value = ix;
	ix->scanned = scanned;
	return ix;
}

/* The first key whose value is at least lo. */
static size_t keys_from(const struct bank_index *ix, const struct bank_ref *refs, double lo)
{
	size_t a = 0, b = ix->n_keys;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (key_value(ix, refs, m) < lo)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* The first of vals whose value is at least x (above: more than x). */
static size_t vals_from(const struct bank_index *ix, double x, bool above)
{
	size_t a = 0, b = ix->n_vals;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (ix->vals[m].value < x || (above && ix->vals[m].value == x))
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* The positions a look-up reads, in order: the keys in the window
 * [lo, hi] once the list is indexed, else every reference. */
struct cursor {
	const struct bank_index *ix;
	const struct bank_ref *refs;
	size_t i, n;
	double hi;
};

static bool cursor_next(struct cursor *c, size_t *pos)
{
	if (!c->ix) {
		if (c->i >= c->n)
			return false;
		*pos = c->i++;
		return true;
	}
	if (c->i >= c->ix->n_keys || key_value(c->ix, c->refs, c->i) > c->hi)
		return false;
	*pos = c->ix->keys[c->i++];
	return true;
}

/* What a look-up accepts: a reference near enough to the value asked. */
struct wanted {
	const struct num_token *page; /* a page number to trace, or NULL */
	double half;                  /* its trace_half */
	double value, scale;          /* else a value at a scale (bank_find_value) */
};

/* Half a unit of page's last digit, the most a bank value that rounds
 * to it can differ by (computed once a page number, not once a
 * reference). */
static double trace_half(const struct num_token *page)
{
	return 0.5 * pow(10, -(page->decimals > 300 ? 300 : page->decimals));
}

/* Tracing needs the bank value to round to the page's, so it lies within
 * half a unit of the page's last digit: a cheap test on doubles that
 * spares the exact decimal comparison (and reading the token again) for
 * all but a few candidates. */
static bool could_trace(const struct num_token *page, double half, double value)
{
	return fabs(value - page->value) <= half * (1 + 1e-9) + 1e-12 * fabs(page->value);
}

/* Whether a number of this value holds value at this many decimals (scale
 * 10^decimals, as bank_find_value computes it). */
static bool holds_value(double held, double value, double scale)
{
	return llround(held * scale) == llround(value * scale) && fabs(held - value) <= 0.5 / scale;
}

static bool accepts(const struct wanted *w, const struct bank_ref *r)
{
	if (w->page)
		return could_trace(w->page, w->half, r->value) && numtok_traces_to_value(w->page, r->value, r->decimals);
	return holds_value(r->value, w->value, w->scale);
}

/* The window of values an accepted reference lies in, twice as wide as
 * the tests above allow (so rounding in computing it loses none); false
 * when it cannot be computed (an infinite or NaN value): then every
 * reference is read, as before the index. */
static bool window(const struct wanted *w, double *lo, double *hi)
{
	double at = w->page ? w->page->value : w->value;
	double tol = w->page ? w->half * (1 + 1e-9) + 1e-12 * fabs(at) : 0.5 / w->scale;
	*lo = at - 2 * tol;
	*hi = at + 2 * tol;
	return isfinite(*lo) && isfinite(*hi);
}

/* The cursor over the references w may accept: its window of values
 * when the list is indexed (and the window computable), else all. */
static struct cursor cursor_for(const struct bank_list *l, const struct wanted *w)
{
	double lo, hi;
	const struct bank_index *ix = window(w, &lo, &hi) ? index_of(l) : NULL;
	return (struct cursor){ix, l->refs, ix ? keys_from(ix, l->refs, lo) : 0, l->n, ix ? hi : 0};
}

/* The position of the first reference of l in bank order that w
 * accepts, or SIZE_MAX. */
static size_t find_first(const struct bank_list *l, const struct wanted *w)
{
	struct cursor c = cursor_for(l, w);
	size_t best = SIZE_MAX, pos;
	while (cursor_next(&c, &pos)) {
		if (pos > best || !accepts(w, &l->refs[pos]))
			continue;
		best = pos;
		if (!c.ix)
			break; /* bank order: the first is the answer */
		/* the rest of this value's references come later in bank order */
		while (c.i < c.ix->n_keys && key_value(c.ix, l->refs, c.i) == key_value(c.ix, l->refs, c.i - 1))
			c.i++;
	}
	return best;
}

static const struct bank_entry *found(const struct bank *b, const struct bank_list *l, size_t pos)
{
	return pos == SIZE_MAX ? NULL : entry_made(b, l, pos);
}

static struct wanted wanted_page(const struct num_token *page)
{
	return (struct wanted){page, trace_half(page), 0, 0};
}

static double value_scale(int decimals)
{
	return pow(10, decimals > 15 ? 15 : decimals);
}

static struct wanted wanted_value(double value, int decimals)
{
	return (struct wanted){NULL, 0, value, value_scale(decimals)};
}

const struct bank_entry *bank_find(const struct bank *b, const struct num_token *page)
{
	bank_ready(b);
	struct wanted w = wanted_page(page);
	return found(b, &b->all, find_first(&b->all, &w));
}

/* The stdout view's answer for w (bank_find_stdout_first), or NULL when
 * the view does not stand for the bank's first entries. */
static const struct bank_entry *find_in_view(const struct bank *b, const struct wanted *w)
{
	size_t n;
	/* one file and nothing banked: add_evidence would put the view's
	 * entries first, in the view's order (more files interleave) */
	if (!(b->all.n == 0 && b->n_pending == 1 && bank_stdout_count(b, &n)))
		return NULL;
	return found(b, &b->view, find_first(&b->view, w));
}

const struct bank_entry *bank_find_stdout_first(const struct bank *b, const struct num_token *page)
{
	struct wanted w = wanted_page(page);
	const struct bank_entry *e = find_in_view(b, &w);
	return e ? e : bank_find(b, page);
}

const struct bank_entry *bank_find_value(const struct bank *b, double value, int decimals)
{
	bank_ready(b);
	struct wanted w = wanted_value(value, decimals);
	return found(b, &b->all, find_first(&b->all, &w));
}

const struct bank_entry *bank_find_value_stdout_first(const struct bank *b, double value, int decimals)
{
	struct wanted w = wanted_value(value, decimals);
	/* as bank_find_stdout_first: one deferred file, nothing banked */
	const struct bank_entry *e = find_in_view(b, &w);
	return e ? e : bank_find_value(b, value, decimals);
}

/* Keeps pos among the least max positions seen (kept[0..*n), ascending). */
static void keep_least(size_t *kept, size_t *n, size_t max, size_t pos)
{
	if (*n == max && (max == 0 || kept[max - 1] < pos))
		return;
	size_t k = *n < max ? (*n)++ : max - 1;
	for (; k > 0 && kept[k - 1] > pos; k--)
		kept[k] = kept[k - 1];
	kept[k] = pos;
}

/* Every reference of l that page traces to and whose where is NULL (kind
 * 0), not NULL (kind 1) or either (kind -1): the entries of the first max
 * in bank order to out, the count of all returned. */
static size_t traces_in(const struct bank *b, const struct bank_list *l, const struct num_token *page, int kind,
			const struct bank_entry **out, size_t max)
{
	struct wanted w = wanted_page(page);
	size_t count = 0, kept_n = 0, pos;
	size_t *kept = xmalloc((max ? max : 1) * sizeof *kept);
	struct cursor c = cursor_for(l, &w);
	while (cursor_next(&c, &pos))
		if ((kind < 0 || (span_of(l, pos)->where != NULL) == kind) && accepts(&w, &l->refs[pos])) {
			count++;
			keep_least(kept, &kept_n, max, pos);
		}
	for (size_t k = 0; k < kept_n; k++)
		out[k] = entry_made(b, l, kept[k]);
	free(kept);
	return count;
}

size_t bank_traces_in_view(const struct bank *b, const struct num_token *page, const struct bank_entry **out,
			   size_t max, bool *viewed)
{
	size_t n;
	*viewed = bank_stdout_count(b, &n);
	return *viewed ? traces_in(b, &b->view, page, -1, out, max) : 0;
}

size_t bank_traces(const struct bank *b, const struct num_token *page, bool other, const struct bank_entry **out,
		   size_t max)
{
	bank_ready(b);
	return traces_in(b, &b->all, page, other, out, max);
}

size_t bank_traces_run_lines(const struct bank *cb, const struct num_token *page, const struct bank_entry **out,
			     size_t max)
{
	struct bank *b = (struct bank *)cb; /* logically const, as in bank_ready */
	if (b->n_run_lines < b->n_files) { /* files added since: a list each */
		b->run_lines = xrealloc(b->run_lines, b->n_files * sizeof *b->run_lines);
		for (size_t f = b->n_run_lines; f < b->n_files; f++) {
			b->run_lines[f] = (struct bank_list){0};
			if (b->files[f]->state == LOAD_OK)
				add_commands_to(b, &b->run_lines[f], b->files[f], true);
		}
		b->n_run_lines = b->n_files;
	}
	size_t count = 0, kept = 0;
	for (size_t f = 0; f < b->n_run_lines; f++) {
		const struct bank_list *l = &b->run_lines[f];
		if (l->n == 0)
			continue;
		size_t c = traces_in(b, l, page, -1, out + kept, max - kept);
		count += c;
		kept += c < max - kept ? c : max - kept;
	}
	return count;
}

/* The stdout index of refs[pos] when it is a number of ev's first run's
 * stdout, else SIZE_MAX. */
static size_t stdout_index_in(const struct bank_list *l, size_t pos, const struct evfile *ev)
{
	const struct bank_span *sp = span_of(l, pos);
	return sp->ev == ev && sp->first_stdout ? l->refs[pos].line - ev->ev->stdout_first : SIZE_MAX;
}

size_t bank_next_stdout_line(const struct bank *b, const struct evfile *ev, const struct num_token *page, size_t from)
{
	bank_ready(b);
	struct wanted w = wanted_page(page);
	struct cursor c = cursor_for(&b->all, &w);
	size_t best = SIZE_MAX, pos;
	while (cursor_next(&c, &pos)) {
		size_t k = stdout_index_in(&b->all, pos, ev);
		if (k != SIZE_MAX && k >= from && k < best && accepts(&w, &b->all.refs[pos]))
			best = k;
	}
	return best;
}

/* Whether the numbers of the line from refs[pos] on take row[1..n) in
 * order (each the next number it traces to): their positions to at. */
static bool row_from(const struct bank *b, size_t pos, const struct num_token *row, size_t n, size_t *at)
{
	const struct bank_list *l = &b->all;
	size_t k = 1;
	at[0] = pos;
	for (size_t j = pos + 1; j < l->n && k < n && l->refs[j].line == l->refs[pos].line; j++)
		if (numtok_traces_to_value(&row[k], l->refs[j].value, l->refs[j].decimals))
			at[k++] = j;
	return k == n;
}

bool bank_find_row(const struct bank *b, const struct num_token *row, size_t n, const struct bank_entry **at)
{
	if (n == 0)
		return false;
	bank_ready(b);
	size_t *pos = xmalloc(n * sizeof *pos), best = SIZE_MAX, p;
	size_t *best_at = xmalloc(n * sizeof *best_at);
	struct wanted w = wanted_page(&row[0]);
	struct cursor c = cursor_for(&b->all, &w);
	while (cursor_next(&c, &p)) {
		if (p > best || span_of(&b->all, p)->where || !span_of(&b->all, p)->first_stdout ||
		    !accepts(&w, &b->all.refs[p]) || !row_from(b, p, row, n, pos))
			continue;
		best = p;
		memcpy(best_at, pos, n * sizeof *pos);
		if (!c.ix)
			break; /* bank order: the first is the answer */
	}
	for (size_t k = 0; best != SIZE_MAX && k < n; k++)
		at[k] = entry_made(b, &b->all, best_at[k]);
	free(pos);
	free(best_at);
	return best != SIZE_MAX;
}

static double rel_diff(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));
	return m == 0 ? 0 : fabs(a - b) / m;
}

/* The scan bank_nearest's index stands for: each distinct value once (its
 * first reference), nearest first, ties in bank order; positions to at. */
static size_t nearest_scan(const struct bank_list *l, double value, size_t *at, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++) {
		double v = l->refs[i].value;
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup |= l->refs[at[k]].value == v;
		if (dup)
			continue;
		double d = rel_diff(value, v);
		size_t pos = n;
		while (pos > 0 && rel_diff(value, l->refs[at[pos - 1]].value) > d)
			pos--;
		if (pos >= max)
			continue;
		size_t last = n < max ? n : max - 1;
		for (size_t k = last; k > pos; k--)
			at[k] = at[k - 1];
		at[pos] = i;
		if (n < max)
			n++;
	}
	return n;
}

/* A run of distinct values along which the relative difference to the
 * value asked only grows (in exact arithmetic): from `at`, `step` at a
 * time, `left` values. */
struct walk {
	size_t at, left;
	int step;
};

struct near {
	double d;
	size_t val; /* index into vals */
};

static int near_cmp(const void *a, const void *b, const struct bank_index *ix)
{
	const struct near *x = a, *y = b;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	size_t fx = ix->vals[x->val].first, fy = ix->vals[y->val].first;
	return fx < fy ? -1 : fx > fy;
}

/* The walks of the distinct values around value > 0, each in order of
 * growing relative difference: up from value; down from value to 0
 * (exclusive); 0; down from 0 to -value; and up from the least value to
 * -value (exclusive), whose difference falls towards 1 as they grow
 * large.  value < 0 is the mirror image. */
static size_t walks_around(const struct bank_index *ix, double value, struct walk *w)
{
	bool pos = value > 0;
	double m = fabs(value);
	size_t z_lo = vals_from(ix, 0, false), z_hi = vals_from(ix, 0, true);
	size_t n = ix->n_vals, k = 0;
	if (pos) {
		size_t p = vals_from(ix, m, false), neg_mid = vals_from(ix, -m, false);
		w[k++] = (struct walk){p, n - p, 1};
		w[k++] = (struct walk){p - 1, p - z_hi, -1};
		w[k++] = (struct walk){z_lo, z_hi - z_lo, 1};
		w[k++] = (struct walk){z_lo - 1, z_lo - neg_mid, -1};
		w[k++] = (struct walk){0, neg_mid, 1};
	} else {
		size_t q = vals_from(ix, value, true), pos_mid = vals_from(ix, m, true);
		w[k++] = (struct walk){q - 1, q, -1};
		w[k++] = (struct walk){q, z_lo - q, 1};
		w[k++] = (struct walk){z_lo, z_hi - z_lo, 1};
		w[k++] = (struct walk){z_hi, pos_mid - z_hi, 1};
		w[k++] = (struct walk){n - 1, n - pos_mid, -1};
	}
	return k;
}

/* Takes values from walk w into c while there are `take` more to take or
 * their difference is at most limit. */
static void walk_take(const struct bank_index *ix, double value, struct walk *w, size_t take, double limit,
		      struct near **c, size_t *n, size_t *cap)
{
	while (w->left > 0) {
		double d = rel_diff(value, ix->vals[w->at].value);
		if (take == 0 && !(d <= limit))
			break;
		*c = xgrow(*c, cap, *n + 1, sizeof **c);
		(*c)[(*n)++] = (struct near){d, w->at};
		take -= take > 0;
		w->at += (size_t)w->step;
		w->left--;
	}
}

static void sort_near(struct near *c, size_t n, const struct bank_index *ix)
{
	/* insertion sort: c holds a few candidates (max per walk, and ties) */
	for (size_t i = 1; i < n; i++) {
		struct near x = c[i];
		size_t j = i;
		while (j > 0 && near_cmp(&c[j - 1], &x, ix) > 0) {
			c[j] = c[j - 1];
			j--;
		}
		c[j] = x;
	}
}

/* bank_nearest's positions, through the index: each distinct value's
 * first reference. */
static size_t nearest_indexed(const struct bank_index *ix, double value, size_t *at, size_t max)
{
	size_t n = 0;
	if (value == 0) { /* 0 itself, then every other value at difference 1, in bank order */
		size_t z = vals_from(ix, 0, false);
		if (z < ix->n_vals && ix->vals[z].value == 0)
			at[n++] = ix->vals[z].first;
		for (size_t i = 0; i < ix->n_vals && n < max; i++)
			if (ix->vals[ix->by_first[i]].value != 0)
				at[n++] = ix->vals[ix->by_first[i]].first;
		return n;
	}
	struct walk w[5];
	size_t n_walks = walks_around(ix, value, w), cn = 0, cap = 0;
	struct near *c = NULL;
	/* max from each walk holds the nearest max; then every value of a
	 * walk up to the max-th difference found (and rounding's slack), so
	 * that ties are all there to be put in bank order */
	for (size_t i = 0; i < n_walks; i++)
		walk_take(ix, value, &w[i], max, 0, &c, &cn, &cap);
	sort_near(c, cn, ix);
	if (cn >= max) {
		double limit = c[max - 1].d * (1 + 1e-9);
		for (size_t i = 0; i < n_walks; i++)
			walk_take(ix, value, &w[i], 0, limit, &c, &cn, &cap);
		sort_near(c, cn, ix);
	}
	for (; n < max && n < cn; n++)
		at[n] = ix->vals[c[n].val].first;
	free(c);
	return n;
}

size_t bank_nearest(const struct bank *b, double value, const struct bank_entry **out, size_t max)
{
	bank_ready(b);
	if (max == 0)
		return 0;
	const struct bank_index *ix = index_of(&b->all);
	size_t *at = xmalloc(max * sizeof *at), n;
	if (!ix || !ix->all_finite || !isfinite(value) || ix->n_keys != b->all.n)
		n = nearest_scan(&b->all, value, at, max); /* no index yet, or no order to walk: every value read */
	else
		n = nearest_indexed(index_values(ix, b->all.refs), value, at, max);
	for (size_t i = 0; i < n; i++)
		out[i] = entry_made(b, &b->all, at[i]);
	free(at);
	return n;
}

size_t bank_entry_col(const struct bank_entry *e)
{
	return e->tok.start + 1;
}

static void list_free(struct bank_list *l)
{
	free(l->refs);
	free(l->spans);
	index_free(l->by_value);
	made_free(l->made);
	memset(l, 0, sizeof *l);
}

void bank_free(struct bank *b)
{
	for (size_t i = 0; i < b->n_wheres; i++)
		free(b->wheres[i]);
	free(b->wheres);
	if (b->view_borrows)
		b->view.refs = NULL; /* the whole bank's */
	list_free(&b->all);
	list_free(&b->view);
	free(b->pending);
	for (size_t f = 0; f < b->n_run_lines; f++)
		list_free(&b->run_lines[f]);
	free(b->run_lines);
	free(b->files);
	if (b->line)
		free(b->line->toks);
	free(b->line);
	memset(b, 0, sizeof *b);
}

size_t bank_in_range(const struct bank *b, double lo, double hi, const struct bank_entry **out, size_t max)
{
	bank_ready(b);
	const struct bank_index *ix = index_of(&b->all);
	size_t n = 0;
	if (ix && ix->n_keys == b->all.n) {
		for (size_t i = keys_from(ix, b->all.refs, lo); i < ix->n_keys && key_value(ix, b->all.refs, i) <= hi && n < max;
		     i++)
			out[n++] = entry_made(b, &b->all, ix->keys[i]);
		return n;
	}
	/* no index yet: the same answer from a scan (the first max by value,
	 * then bank order), sorted as the index holds them */
	struct keyed *all = NULL;
	size_t n_all = 0, cap = 0;
	for (size_t i = 0; i < b->all.n; i++) {
		double v = b->all.refs[i].value;
		if (v >= lo && v <= hi) {
			all = xgrow(all, &cap, n_all + 1, sizeof *all);
			all[n_all++] = (struct keyed){v, i};
		}
	}
	if (n_all > 1)
		qsort(all, n_all, sizeof *all, keyed_cmp);
	for (; n < n_all && n < max; n++)
		out[n] = entry_made(b, &b->all, all[n].pos);
	free(all);
	return n;
}

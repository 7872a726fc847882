/* bank.c - see bank.h. */
#include "bank.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "util.h"

/* The lines of one evidence file already banked, by their text: the runs
 * of a capture of several runs (a racecheck run beside the plain one)
 * print most lines of the first run again, and a line's numbers depend on
 * its text alone, so a line met again takes the tokens of its first
 * occurrence instead of being tokenised again.  Keys borrow the evidence
 * text. */
struct seen_lines {
	struct strmap map; /* line text -> file line */
};

/* The array add_line_from appends to: the bank's own (b->v), or its view
 * of the first runs' stdout (bank_stdout_entries). */
struct target {
	struct bank_entry **v;
	size_t *n, *cap;
};

static struct target whole(struct bank *b)
{
	return (struct target){&b->v, &b->n, &b->cap};
}

static void push_entry(struct target t, struct bank_entry e)
{
	*t.v = xgrow(*t.v, t.cap, *t.n + 1, sizeof **t.v);
	(*t.v)[(*t.n)++] = e;
}

/* seen may be NULL: every line is then read by its own number (see
 * bank_stdout_entries). */
static void add_line_from(struct target b, struct seen_lines *seen, const struct evfile *ev, const char *s, size_t len,
			  size_t line, size_t stdout_index, const char *where)
{
	const struct num_token *shared;
	struct num_token *toks = NULL, local[16];
	size_t n, first;
	/* s is always the whole file line `line` (a stream's line, a header
	 * line): with seen, its tokens are the course cache's, each line
	 * tokenised once and shared with place_find and with a page citing
	 * the lesson; a file not in the cache (update loads its own) is
	 * scanned here */
	/* no digit, no number (numtok_scan's own first test): spares such a
	 * line the seen-lines map; without the map the tokens say it */
	if (seen && numtok_first_digit(s, len) == len)
		return;
	if (!seen) {
		/* the stdout view of a file of the course cache: scanned here, not
		 * through the cache, so that each number is held once, in its
		 * entry, and not a second time in the cache's tokens of every
		 * line (issue 32: 59 MiB of evidence took 15x its size); the
		 * cache makes a line's tokens when another reader asks */
		n = numtok_scan_into(s, len, local, ARRAY_LEN(local), &toks);
		shared = toks;
		if (toks == local)
			toks = NULL; /* nothing to free */
	} else if (!strmap_add(&seen->map, s, len, line, &first) && course_evidence_tokens(ev, first, &shared, &n)) {
		; /* the same text as line `first`: the same numbers at the same offsets */
	} else if (!course_evidence_tokens(ev, line, &shared, &n)) {
		n = numtok_scan(s, len, &toks), shared = toks;
	}
	if (n)
		*b.v = xgrow(*b.v, b.cap, *b.n + n, sizeof **b.v);
	for (size_t i = 0; i < n; i++)
		(*b.v)[(*b.n)++] = (struct bank_entry){shared[i], ev, line, stdout_index, where};
	free(toks);
}

/* The numeric header values and the first run's stdout: every entry
 * whose where is NULL, in bank order. */
static void add_headers_and_stdout(struct target b, struct seen_lines *seen, const struct evfile *ev)
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
		add_line_from(b, seen, ev, text, len, line, SIZE_MAX, NULL);
	}
	for (size_t k = 0; k < ev->ev->n_stdout; k++) {
		size_t len;
		const char *s = evidence_stdout(ev->ev, k, &len);
		add_line_from(b, seen, ev, s, len, ev->ev->stdout_first + k, k, NULL);
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
 * runs_only) to t: an argument such as the 128 of `./demo 4 128` is a
 * fact of the run as much as its output is. */
static void add_commands_to(struct bank *b, struct target t, const struct evfile *ev, bool runs_only)
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
		const char *where = keep_where(b, join3("the recorded ", k, ": command line"));
		for (size_t j = 0; j < n; j++) {
			if (toks[j].start < klen)
				continue; /* "run.v2:" is no number of the command */
			push_entry(t, (struct bank_entry){toks[j], ev, line, SIZE_MAX, where});
		}
		free(toks);
	}
}

static void add_commands(struct bank *b, const struct evfile *ev)
{
	add_commands_to(b, whole(b), ev, false);
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
				add_line_from(whole(b), seen, ev, s, len, (err ? run->stderr_first : run->stdout_first) + k,
					      SIZE_MAX, where);
			}
		}
	}
}

/* The seen-lines map sized for every line of ev the bank may hold (the
 * headers and first stdout alone, or all its streams), so it never grows
 * (each growth hashes all its lines again). */
static void seen_reserve(struct seen_lines *seen, const struct evfile *ev, bool all_streams)
{
	size_t lines = ev->ev->n_stdout + 3;
	for (size_t r = 0; all_streams && r < ev->ev->n_runs; r++)
		lines += ev->ev->runs[r].n_stdout + ev->ev->runs[r].n_stderr;
	strmap_reserve(&seen->map, lines);
}

static void add_evidence(struct bank *b, const struct evfile *ev)
{
	struct seen_lines seen = {0};
	seen_reserve(&seen, ev, true);
	add_headers_and_stdout(whole(b), &seen, ev);
	/* after the first run's stdout, so that a number found there too
	 * still traces to stdout first */
	add_other_streams(b, &seen, ev);
	add_commands(b, ev);
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
}

bool bank_stdout_entries(const struct bank *cb, const struct bank_entry **v, size_t *n)
{
	struct bank *b = (struct bank *)cb; /* logically const, as in bank_ready */
	if (!b->stdout_built) {
		b->stdout_built = true;
		struct target view = {&b->stdout_v, &b->n_stdout, &b->cap_stdout};
		for (size_t i = 0; i < b->n; i++) /* banked already: its own entries */
			if (!b->v[i].where)
				push_entry(view, b->v[i]);
		for (size_t i = 0; i < b->n_pending; i++) { /* deferred: only these lines of them */
			const struct evfile *ev = b->pending[i];
			if (ev->state != LOAD_OK)
				continue;
			/* a file of the course cache: each line scanned as it comes
			 * (add_line_from, not through the cache: the tokens are held
			 * once, in the view), with no seen-lines map, which would
			 * only hash every line to spare the first stdout's rare
			 * repeated line a scan: the same tokens either way */
			if (course_evidence_cached(ev)) {
				add_headers_and_stdout(view, NULL, ev);
				continue;
			}
			struct seen_lines seen = {0};
			seen_reserve(&seen, ev, false);
			add_headers_and_stdout(view, &seen, ev);
			strmap_free(&seen.map);
		}
	}
	if (b->stdout_stale)
		return false;
	*v = b->stdout_v;
	*n = b->n_stdout;
	return true;
}

/* ---- the index by value ---------------------------------------------------
 * Every look-up asks for the entries near one value: those a page number
 * could trace to, those holding a literal's value, the nearest few.  A
 * scan of the bank per look-up made a page of N numbers on N rows cost
 * N x N; the index sorts the entries by value once, so that a look-up
 * reads only the entries in its window of values.  The answers are the
 * scans' exactly: the window is wider than the test the scan applied, the
 * same test then picks among the entries in it, and the first in bank
 * order wins as it did. */

struct keyed {
	double value;
	size_t pos; /* in the entry array indexed */
};

struct distinct {
	double value;
	size_t first; /* the first entry holding it, in bank order */
};

struct bank_index {
	size_t n;               /* entries indexed (the array's first n) */
	struct keyed *keys;     /* by (value, pos); NaN left out: it equals nothing */
	size_t n_keys;
	struct distinct *vals;  /* the distinct values, ascending */
	size_t n_vals;
	size_t *by_first;       /* indices into vals, by their first entry */
	bool all_finite;        /* no infinite value (bank_nearest's walk needs it) */
	size_t scanned;         /* entries the look-ups read before the index was made */
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

static struct bank_index *index_build(const struct bank_entry *v, size_t n)
{
	struct bank_index *ix = xcalloc(1, sizeof *ix);
	ix->n = n;
	ix->all_finite = true;
	ix->keys = xmalloc((n ? n : 1) * sizeof *ix->keys);
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i].tok.value))
			continue;
		ix->all_finite &= isfinite(v[i].tok.value) != 0;
		ix->keys[ix->n_keys++] = (struct keyed){v[i].tok.value, i};
	}
	qsort(ix->keys, ix->n_keys, sizeof *ix->keys, keyed_cmp);
	return ix;
}

/* The distinct values of ix and their order by first entry, made at the
 * first bank_nearest (the other look-ups need the keys alone). */
static const struct bank_index *index_values(const struct bank_index *cix)
{
	struct bank_index *ix = (struct bank_index *)cix; /* logically const, as the bank */
	if (ix->vals)
		return ix;
	ix->vals = xmalloc((ix->n_keys ? ix->n_keys : 1) * sizeof *ix->vals);
	for (size_t i = 0; i < ix->n_keys; i++)
		if (i == 0 || ix->keys[i].value != ix->keys[i - 1].value) /* sorted by pos within a value */
			ix->vals[ix->n_vals++] = (struct distinct){ix->keys[i].value, ix->keys[i].pos};
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

/* The index of v[0..n), built (or built again, for more entries) in *slot
 * once it pays: NULL while the look-ups so far have read fewer than
 * SCANS_BEFORE_INDEX times the entries, and the caller then reads them
 * all.  A bank looked in a few times (a page quoting a few numbers of a
 * large evidence) so costs no index (16 bytes an entry and a sort), and a
 * bank looked in many times costs a few scans more than the index alone:
 * linear either way. */
#define SCANS_BEFORE_INDEX 16
static const struct bank_index *index_of(struct bank_index **slot, const struct bank_entry *v, size_t n)
{
	if (!*slot)
		*slot = xcalloc(1, sizeof **slot);
	if ((*slot)->keys && (*slot)->n == n)
		return *slot;
	size_t scanned = (*slot)->scanned;
	if (scanned < SCANS_BEFORE_INDEX * (n + 64)) {
		(*slot)->scanned = scanned + n + 1;
		return NULL;
	}
	index_free(*slot);
	*slot = index_build(v, n);
	(*slot)->scanned = scanned;
	return *slot;
}

/* The first key whose value is at least lo. */
static size_t keys_from(const struct bank_index *ix, double lo)
{
	size_t a = 0, b = ix->n_keys;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (ix->keys[m].value < lo)
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

/* What a look-up accepts: an entry near enough to the value asked. */
struct wanted {
	const struct num_token *page; /* a page number to trace, or NULL */
	double half;                  /* its trace_half */
	double value, scale;          /* else a value at a scale (bank_find_value) */
};

/* Tracing needs the bank value to round to the page's, so it lies within
 * half a unit of the page's last digit: a cheap test on doubles that
 * spares the exact decimal comparison for all but a few candidates. */
/* Half a unit of page's last digit, the most a bank value that rounds
 * to it can differ by (computed once a page number, not once an entry). */
static double trace_half(const struct num_token *page)
{
	return 0.5 * pow(10, -(page->decimals > 300 ? 300 : page->decimals));
}

static bool could_trace(const struct num_token *page, double half, const struct num_token *bank)
{
	return fabs(bank->value - page->value) <= half * (1 + 1e-9) + 1e-12 * fabs(page->value);
}

/* Whether e holds value at this many decimals (scale 10^decimals, as
 * bank_find_value computes it). */
static bool holds_value(const struct bank_entry *e, double value, double scale)
{
	return llround(e->tok.value * scale) == llround(value * scale) && fabs(e->tok.value - value) <= 0.5 / scale;
}

static bool accepts(const struct wanted *w, const struct bank_entry *e)
{
	if (w->page)
		return could_trace(w->page, w->half, &e->tok) && numtok_traces_to(w->page, &e->tok);
	return holds_value(e, w->value, w->scale);
}

/* The window of values an accepted entry lies in, twice as wide as the
 * tests above allow (so rounding in computing it loses none); false when
 * it cannot be computed (an infinite or NaN value): then every entry is
 * read, as before the index. */
static bool window(const struct wanted *w, double *lo, double *hi)
{
	double at = w->page ? w->page->value : w->value;
	double tol = w->page ? w->half * (1 + 1e-9) + 1e-12 * fabs(at) : 0.5 / w->scale;
	*lo = at - 2 * tol;
	*hi = at + 2 * tol;
	return isfinite(*lo) && isfinite(*hi);
}

/* The first entry of v[0..n) in bank order that w accepts, or NULL. */
static const struct bank_entry *find_first(struct bank_index **slot, const struct bank_entry *v, size_t n,
					   const struct wanted *w)
{
	double lo, hi;
	const struct bank_index *ix = window(w, &lo, &hi) ? index_of(slot, v, n) : NULL;
	if (!ix) {
		for (size_t i = 0; i < n; i++)
			if (accepts(w, &v[i]))
				return &v[i];
		return NULL;
	}
	size_t best = SIZE_MAX;
	for (size_t i = keys_from(ix, lo); i < ix->n_keys && ix->keys[i].value <= hi; i++) {
		size_t pos = ix->keys[i].pos;
		if (pos > best || !accepts(w, &v[pos]))
			continue;
		best = pos;
		/* the rest of this value's entries come later in bank order */
		while (i + 1 < ix->n_keys && ix->keys[i + 1].value == ix->keys[i].value)
			i++;
	}
	return best == SIZE_MAX ? NULL : &v[best];
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
	return find_first(&((struct bank *)b)->by_value, b->v, b->n, &w); /* logically const, as in bank_ready */
}

/* The stdout view's answer for w (bank_find_stdout_first), or NULL when
 * the view does not stand for the bank's first entries. */
static const struct bank_entry *find_in_view(const struct bank *cb, const struct wanted *w, bool *asked)
{
	struct bank *b = (struct bank *)cb; /* logically const, as in bank_ready */
	const struct bank_entry *v;
	size_t n;
	/* one file and nothing banked: add_evidence would put the view's
	 * entries first, in the view's order (more files interleave) */
	*asked = b->n == 0 && b->n_pending == 1 && bank_stdout_entries(b, &v, &n);
	return *asked ? find_first(&b->stdout_by_value, v, n, w) : NULL;
}

const struct bank_entry *bank_find_stdout_first(const struct bank *b, const struct num_token *page)
{
	bool asked;
	struct wanted w = wanted_page(page);
	const struct bank_entry *e = find_in_view(b, &w, &asked);
	return e ? e : bank_find(b, page);
}

const struct bank_entry *bank_find_value(const struct bank *b, double value, int decimals)
{
	bank_ready(b);
	struct wanted w = wanted_value(value, decimals);
	return find_first(&((struct bank *)b)->by_value, b->v, b->n, &w);
}

const struct bank_entry *bank_find_value_stdout_first(const struct bank *b, double value, int decimals)
{
	bool asked;
	struct wanted w = wanted_value(value, decimals);
	/* as bank_find_stdout_first: one deferred file, nothing banked */
	const struct bank_entry *e = find_in_view(b, &w, &asked);
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

/* Every entry of v[0..n) that page traces to and whose where is NULL
 * (kind 0), not NULL (kind 1) or either (kind -1): the first max in bank
 * order to out, the count of all returned. */
static size_t traces_in(struct bank_index **slot, const struct bank_entry *v, size_t n, const struct num_token *page,
			int kind, const struct bank_entry **out, size_t max)
{
	struct wanted w = wanted_page(page);
	size_t count = 0, kept_n = 0;
	size_t *kept = xmalloc((max ? max : 1) * sizeof *kept);
	double lo, hi;
	const struct bank_index *ix = window(&w, &lo, &hi) ? index_of(slot, v, n) : NULL;
	bool windowed = ix != NULL;
	size_t i = windowed ? keys_from(ix, lo) : 0;
	for (;; i++) {
		size_t pos;
		if (windowed) {
			if (i >= ix->n_keys || ix->keys[i].value > hi)
				break;
			pos = ix->keys[i].pos;
		} else if ((pos = i) >= n) {
			break;
		}
		if ((kind < 0 || (v[pos].where != NULL) == kind) && accepts(&w, &v[pos])) {
			count++;
			keep_least(kept, &kept_n, max, pos);
		}
	}
	for (size_t k = 0; k < kept_n; k++)
		out[k] = &v[kept[k]];
	free(kept);
	return count;
}

size_t bank_traces_in_view(const struct bank *cb, const struct num_token *page, const struct bank_entry **out,
			   size_t max, bool *viewed)
{
	struct bank *b = (struct bank *)cb; /* logically const, as in bank_ready */
	const struct bank_entry *v;
	size_t n;
	*viewed = bank_stdout_entries(b, &v, &n);
	return *viewed ? traces_in(&b->stdout_by_value, v, n, page, -1, out, max) : 0;
}

size_t bank_traces(const struct bank *cb, const struct num_token *page, bool other, const struct bank_entry **out,
		   size_t max)
{
	struct bank *b = (struct bank *)cb;
	bank_ready(b);
	return traces_in(&b->by_value, b->v, b->n, page, other, out, max);
}

struct bank_run_lines {
	struct bank_entry *v;
	size_t n, cap;
	struct bank_index *by_value;
};

size_t bank_traces_run_lines(const struct bank *cb, const struct num_token *page, const struct bank_entry **out,
			     size_t max)
{
	struct bank *b = (struct bank *)cb; /* logically const, as in bank_ready */
	if (b->n_run_lines < b->n_files) { /* files added since: a block each */
		b->run_lines = xrealloc(b->run_lines, b->n_files * sizeof *b->run_lines);
		for (size_t f = b->n_run_lines; f < b->n_files; f++) {
			struct bank_run_lines *r = &b->run_lines[f];
			*r = (struct bank_run_lines){0};
			if (b->files[f]->state == LOAD_OK)
				add_commands_to(b, (struct target){&r->v, &r->n, &r->cap}, b->files[f], true);
		}
		b->n_run_lines = b->n_files;
	}
	size_t count = 0, kept = 0;
	for (size_t f = 0; f < b->n_run_lines; f++) {
		struct bank_run_lines *r = &b->run_lines[f];
		if (r->n == 0)
			continue;
		size_t c = traces_in(&r->by_value, r->v, r->n, page, -1, out + kept, max - kept);
		count += c;
		kept += c < max - kept ? c : max - kept;
	}
	return count;
}

size_t bank_next_stdout_line(const struct bank *cb, const struct evfile *ev, const struct num_token *page, size_t from)
{
	struct bank *b = (struct bank *)cb; /* logically const, as in bank_ready */
	bank_ready(b);
	struct wanted w = wanted_page(page);
	double lo, hi;
	const struct bank_index *ix = window(&w, &lo, &hi) ? index_of(&b->by_value, b->v, b->n) : NULL;
	bool windowed = ix != NULL;
	size_t best = SIZE_MAX;
	for (size_t i = windowed ? keys_from(ix, lo) : 0;; i++) {
		size_t pos;
		if (windowed) {
			if (i >= ix->n_keys || ix->keys[i].value > hi)
				break;
			pos = ix->keys[i].pos;
		} else if ((pos = i) >= b->n) {
			break;
		}
		const struct bank_entry *e = &b->v[pos];
		if (e->ev == ev && !e->where && e->stdout_index != SIZE_MAX && e->stdout_index >= from &&
		    e->stdout_index < best && accepts(&w, e))
			best = e->stdout_index;
	}
	return best;
}

static double rel_diff(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));
	return m == 0 ? 0 : fabs(a - b) / m;
}

/* The scan bank_nearest's index stands for: each distinct value once (its
 * first entry), nearest first, ties in bank order. */
static size_t nearest_scan(const struct bank *b, double value, const struct bank_entry **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct bank_entry *e = &b->v[i];
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup |= out[k]->tok.value == e->tok.value;
		if (dup)
			continue;
		double d = rel_diff(value, e->tok.value);
		size_t pos = n;
		while (pos > 0 && rel_diff(value, out[pos - 1]->tok.value) > d)
			pos--;
		if (pos >= max)
			continue;
		size_t last = n < max ? n : max - 1;
		for (size_t k = last; k > pos; k--)
			out[k] = out[k - 1];
		out[pos] = e;
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

size_t bank_nearest(const struct bank *b, double value, const struct bank_entry **out, size_t max)
{
	bank_ready(b);
	const struct bank_index *ix = index_of(&((struct bank *)b)->by_value, b->v, b->n);
	if (!ix || !ix->all_finite || !isfinite(value) || ix->n_keys != b->n || max == 0)
		return nearest_scan(b, value, out, max); /* no index yet, or no order to walk: every entry read */
	ix = index_values(ix);
	size_t n = 0;
	if (value == 0) { /* 0 itself, then every other value at difference 1, in bank order */
		size_t z = vals_from(ix, 0, false);
		if (z < ix->n_vals && ix->vals[z].value == 0)
			out[n++] = &b->v[ix->vals[z].first];
		for (size_t i = 0; i < ix->n_vals && n < max; i++)
			if (ix->vals[ix->by_first[i]].value != 0)
				out[n++] = &b->v[ix->vals[ix->by_first[i]].first];
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
		out[n] = &b->v[ix->vals[c[n].val].first];
	free(c);
	return n;
}

size_t bank_entry_col(const struct bank_entry *e)
{
	return e->tok.start + 1;
}

void bank_free(struct bank *b)
{
	for (size_t i = 0; i < b->n_wheres; i++)
		free(b->wheres[i]);
	free(b->wheres);
	free(b->v);
	free(b->stdout_v);
	free(b->pending);
	index_free(b->by_value);
	index_free(b->stdout_by_value);
	for (size_t f = 0; f < b->n_run_lines; f++) {
		free(b->run_lines[f].v);
		index_free(b->run_lines[f].by_value);
	}
	free(b->run_lines);
	free(b->files);
	memset(b, 0, sizeof *b);
}

/* bank_in_range's order: by value, then bank order. */
static int entry_by_value(const void *pa, const void *pb)
{
	const struct bank_entry *a = *(const struct bank_entry *const *)pa, *b = *(const struct bank_entry *const *)pb;
	if (a->tok.value != b->tok.value)
		return a->tok.value < b->tok.value ? -1 : 1;
	return a < b ? -1 : a > b;
}

size_t bank_in_range(const struct bank *b, double lo, double hi, const struct bank_entry **out, size_t max)
{
	bank_ready(b);
	const struct bank_index *ix = index_of(&((struct bank *)b)->by_value, b->v, b->n);
	size_t n = 0;
	if (ix && ix->n_keys == b->n) {
		for (size_t i = keys_from(ix, lo); i < ix->n_keys && ix->keys[i].value <= hi && n < max; i++)
			out[n++] = &b->v[ix->keys[i].pos];
		return n;
	}
	/* no index yet: the same answer from a scan (the first max by value,
	 * then bank order), sorted as the index holds them */
	const struct bank_entry **all = NULL;
	size_t n_all = 0, cap = 0;
	for (size_t i = 0; i < b->n; i++)
		if (b->v[i].tok.value >= lo && b->v[i].tok.value <= hi) {
			all = xgrow(all, &cap, n_all + 1, sizeof *all);
			all[n_all++] = &b->v[i];
		}
	if (n_all > 1)
		qsort(all, n_all, sizeof *all, entry_by_value);
	for (; n < n_all && n < max; n++)
		out[n] = all[n];
	free(all);
	return n;
}

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
	struct num_token *toks = NULL;
	size_t n, first;
	/* s is always the whole file line `line` (a stream's line, a header
	 * line): its tokens are the course cache's, each line tokenised once
	 * and shared with place_find and with a page citing the lesson; a
	 * file not in the cache (update loads its own) is scanned here */
	/* no digit, no number (numtok_scan's own first test): spares such a
	 * line the seen-lines map; without the map the tokens say it */
	if (seen && numtok_first_digit(s, len) == len)
		return;
	if (seen && !strmap_add(&seen->map, s, len, line, &first) && course_evidence_tokens(ev, first, &shared, &n))
		; /* the same text as line `first`: the same numbers at the same offsets */
	else if (!course_evidence_tokens(ev, line, &shared, &n))
		n = numtok_scan(s, len, &toks), shared = toks;
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

/* The numbers of the recorded command lines: an argument such as the 128
 * of `./demo 4 128` is a fact of the run as much as its output is. */
static void add_commands(struct bank *b, const struct evfile *ev)
{
	const struct evidence *e = ev->ev;
	for (size_t i = 0; i < e->n_fields; i++) {
		const char *k = e->fields[i].key;
		if (strcmp(k, "build") != 0 && strcmp(k, "run") != 0 && strncmp(k, "run.", 4) != 0)
			continue;
		size_t len, klen = strlen(k) + 2, line = e->fields[i].line;
		const char *text = textfile_line(&e->tf, line, &len);
		if (len < klen)
			continue;
		/* offsets stay those of the whole line, so the column is right */
		struct num_token *toks;
		size_t n = numtok_scan(text, len, &toks);
		const char *where = keep_where(b, join3("the recorded ", k, ": command line"));
		for (size_t t = 0; t < n; t++) {
			if (toks[t].start < klen)
				continue; /* "run.v2:" is no number of the command */
			push_entry(whole(b), (struct bank_entry){toks[t], ev, line, SIZE_MAX, where});
		}
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

void bank_add_evidence(struct bank *b, const struct evfile *ev)
{
	if (!ev || ev->state != LOAD_OK)
		return;
	b->stdout_stale |= b->stdout_built; /* the view no longer holds all */
	add_evidence(b, ev);
}

void bank_defer_evidence(struct bank *b, const struct evfile *ev)
{
	if (!ev || ev->state != LOAD_OK)
		return;
	b->stdout_stale |= b->stdout_built;
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
			/* a file of the course cache has each line's tokens already
			 * (or makes them once), so the seen-lines map would only
			 * hash every line to spare the first stdout's rare repeated
			 * line a scan: the same tokens either way */
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

const struct bank_entry *bank_find(const struct bank *b, const struct num_token *page)
{
	bank_ready(b);
	double half = trace_half(page);
	for (size_t i = 0; i < b->n; i++)
		if (could_trace(page, half, &b->v[i].tok) && numtok_traces_to(page, &b->v[i].tok))
			return &b->v[i];
	return NULL;
}

const struct bank_entry *bank_find_stdout_first(const struct bank *b, const struct num_token *page)
{
	const struct bank_entry *v;
	size_t n;
	/* one file and nothing banked: add_evidence would put the view's
	 * entries first, in the view's order (more files interleave) */
	if (b->n == 0 && b->n_pending == 1 && bank_stdout_entries(b, &v, &n)) {
		double half = trace_half(page);
		for (size_t i = 0; i < n; i++)
			if (could_trace(page, half, &v[i].tok) && numtok_traces_to(page, &v[i].tok))
				return &v[i];
	}
	return bank_find(b, page);
}

/* Whether e holds value at this many decimals (scale 10^decimals, as
 * bank_find_value computes it). */
static bool holds_value(const struct bank_entry *e, double value, double scale)
{
	return llround(e->tok.value * scale) == llround(value * scale) && fabs(e->tok.value - value) <= 0.5 / scale;
}

static double value_scale(int decimals)
{
	return pow(10, decimals > 15 ? 15 : decimals);
}

const struct bank_entry *bank_find_value(const struct bank *b, double value, int decimals)
{
	bank_ready(b);
	double scale = value_scale(decimals);
	for (size_t i = 0; i < b->n; i++)
		if (holds_value(&b->v[i], value, scale))
			return &b->v[i];
	return NULL;
}

const struct bank_entry *bank_find_value_stdout_first(const struct bank *b, double value, int decimals)
{
	const struct bank_entry *v;
	size_t n;
	/* as bank_find_stdout_first: one deferred file, nothing banked */
	if (b->n == 0 && b->n_pending == 1 && bank_stdout_entries(b, &v, &n)) {
		double scale = value_scale(decimals);
		for (size_t i = 0; i < n; i++)
			if (holds_value(&v[i], value, scale))
				return &v[i];
	}
	return bank_find_value(b, value, decimals);
}

static double rel_diff(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));
	return m == 0 ? 0 : fabs(a - b) / m;
}

size_t bank_nearest(const struct bank *b, double value, const struct bank_entry **out, size_t max)
{
	bank_ready(b);
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
	memset(b, 0, sizeof *b);
}

/* bank.c - see bank.h: the lists of a bank (bank_impl.h).
 *
 * The pipeline: the files' lines are scanned into lists of references
 * (add_line_from, list_push: a value, its decimals, a file line and a
 * column a number, a span per run of one file and one where);
 * bank_lookup.c finds and tests the references near a value, and the
 * entries it hands out are made here once (bank_entry_made, the token
 * read again from its line, one line kept). */
#include "bank.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bank_impl.h"
#include "strmap.h"
#include "util.h"

/* ---- lists of references ---------------------------------------------- */

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

/* The tokens of the line last read again for an entry handed out: the
 * entries a look-up hands out come in bank order or in value order, both
 * of which meet a line's numbers one after another (a table row, a value
 * repeated down a column), so one line kept makes each line scanned
 * about once.  No test of a number reads a line: the reference holds all
 * a trace test reads. */
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

const struct bank_span *bank_span_of(const struct bank_list *l, size_t pos)
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
	const struct evfile *ev = bank_span_of(l, pos)->ev;
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

const struct bank_entry *bank_entry_made(const struct bank *b, const struct bank_list *cl, size_t pos)
{
	struct bank_list *l = (struct bank_list *)cl; /* logically const, as the bank */
	if (!l->made)
		l->made = xcalloc(1, sizeof *l->made);
	if (l->made->cap) {
		struct made_slot *s = &l->made->slots[made_slot(l->made, pos)];
		if (s->entry)
			return s->entry;
	}
	const struct bank_span *sp = bank_span_of(l, pos);
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
 * whose where is NULL, in bank order (*n_headers: how many of them are
 * the headers', when not NULL). */
static void add_headers_and_stdout(struct bank_list *l, struct seen_lines *seen, const struct evfile *ev,
				   size_t *n_headers)
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
	if (n_headers)
		*n_headers = l->n;
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
		add_headers_and_stdout(&b->all, &seen, ev, NULL);
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
	return bank_entry_made(b, &b->all, i);
}

/* What the view keeps of a run with its text (course_evidence_keep):
 * the references of its headers and first stdout, the headers' first.
 * A run of up to KEPT_VIEW_MAX of them (96 KiB), so that the few files
 * kept resident keep little: a larger one is scanned again. */
struct kept_view {
	size_t n_headers, n;
	struct bank_ref refs[];
};
#define KEPT_VIEW_MAX 4096

/* The view's lines of the deferred file ev: made from the block kept with
 * its text when a bank made them before (a page citing the lesson
 * checked just before it: its run's numbers were scanned for that
 * lesson's own page), else scanned, and kept for the next bank.  Each
 * line scanned as it comes, with no seen-lines map, which would only
 * hash every line to spare the first stdout's rare repeated line a scan:
 * the same numbers either way. */
static void view_add_file(struct bank_list *view, const struct evfile *ev)
{
	size_t len;
	const struct kept_view *k = course_evidence_kept(ev, &len);
	if (k && len >= sizeof *k && len == sizeof *k + k->n * sizeof *k->refs) {
		for (size_t i = 0; i < k->n; i++)
			list_push(view, (struct source){ev, NULL, i >= k->n_headers}, k->refs[i]);
		return;
	}
	size_t from = view->n, n_headers;
	add_headers_and_stdout(view, NULL, ev, &n_headers);
	size_t n = view->n - from;
	if (n > KEPT_VIEW_MAX)
		return;
	struct kept_view *keep = xmalloc(sizeof *keep + n * sizeof *keep->refs);
	keep->n_headers = n_headers - from;
	keep->n = n;
	if (n)
		memcpy(keep->refs, view->refs + from, n * sizeof *keep->refs);
	course_evidence_keep(ev, keep, sizeof *keep + n * sizeof *keep->refs);
}

/* The view, built at the first call (see bank_stdout_count). */
static void build_view(struct bank *b)
{
	b->stdout_built = true;
	for (size_t i = 0; i < b->all.n; i++) { /* banked already: its own entries */
		const struct bank_span *sp = bank_span_of(&b->all, i);
		if (!sp->where)
			list_push(&b->view, (struct source){sp->ev, NULL, sp->first_stdout}, b->all.refs[i]);
	}
	for (size_t i = 0; i < b->n_pending; i++) { /* deferred: only these lines of them */
		const struct evfile *ev = b->pending[i];
		if (ev->state != LOAD_OK)
			continue;
		view_add_file(&b->view, ev);
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
	return bank_entry_made(b, &b->view, i);
}

void bank_run_lines_ready(struct bank *b)
{
	if (b->n_run_lines == b->n_files)
		return;
	b->run_lines = xrealloc(b->run_lines, b->n_files * sizeof *b->run_lines);
	for (size_t f = b->n_run_lines; f < b->n_files; f++) {
		b->run_lines[f] = (struct bank_list){0};
		if (b->files[f]->state == LOAD_OK)
			add_commands_to(b, &b->run_lines[f], b->files[f], true);
	}
	b->n_run_lines = b->n_files;
}

size_t bank_entry_col(const struct bank_entry *e)
{
	return e->tok.start + 1;
}

static void list_free(struct bank_list *l)
{
	free(l->refs);
	free(l->spans);
	bank_index_free(l->by_value);
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

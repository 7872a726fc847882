/* place.c - see place.h. */
#include "place.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "capture_repeats.h"
#include "strmap.h"
#include "util.h"

/* ---- names --------------------------------------------------------------- */

/* s[0..len) trimmed, with every run of blanks made one space, written
 * to out (room for len bytes and a NUL: the squeezed text is never
 * longer); returns its length.  A blank right after an out that already
 * ends in one (after_space) is dropped too. */
static size_t squeeze_to(char *out, bool after_space, const char *s, size_t len)
{
	size_t a = 0, e = len, n = 0;
	str_trim(s, &a, &e);
	for (size_t i = a; i < e; i++) {
		bool blank = s[i] == ' ' || s[i] == '\t';
		if (blank && (n ? out[n - 1] == ' ' : after_space))
			continue;
		out[n++] = blank ? ' ' : s[i];
	}
	out[n] = '\0';
	return n;
}

/* s[0..len) squeezed as squeeze_to does, appended to b. */
static void squeeze(struct buf *b, const char *s, size_t len)
{
	b->s = xgrow(b->s, &b->cap, b->len + len + 1, 1);
	b->len += squeeze_to(b->s + b->len, b->len && b->s[b->len - 1] == ' ', s, len);
}

static bool is_letter(char c)
{
	return (c | 32) >= 'a' && (c | 32) <= 'z';
}

/* Where the row name of a line with tokens t[0..n) stands, before
 * squeezing: as align_place_names writes it (the same rule, without its
 * column search). */
static void row_span(const char *s, size_t len, const struct num_token *t, size_t n, size_t *a, size_t *b)
{
	size_t end = len;
	for (size_t i = 0; i < n; i++) {
		bool after_label = false;
		for (size_t p = i ? t[i - 1].end : 0; p < t[i].start; p++)
			after_label |= is_letter(s[p]);
		if (after_label) {
			end = t[i].start;
			break;
		}
	}
	*a = 0;
	*b = end;
	str_trim(s, a, b);
	while (*b > *a && (s[*b - 1] == ',' || s[*b - 1] == ':' || s[*b - 1] == ' '))
		(*b)--;
}

/* The row name, squeezed, written over what name held. */
static void row_name_into(struct buf *name, const char *s, size_t len, const struct num_token *t, size_t n)
{
	size_t a, b;
	row_span(s, len, t, n, &a, &b);
	name->len = 0;
	squeeze(name, s + a, b - a);
}

/* Where the key of token i stands ("KEY:" right before it, after the
 * line start, the previous number, a ',' or a ';'), before squeezing;
 * false when it has none. */
static bool key_span(const char *s, const struct num_token *t, size_t i, size_t *ka, size_t *kb)
{
	size_t from = i ? t[i - 1].end : 0, end = t[i].start;
	/* the common answer first (most numbers have no key): the last byte
	 * before the number, blanks aside, must be the ':' (a ',' or ';'
	 * there leaves nothing between it and the number, so no key either) */
	size_t q = end;
	while (q > from && (s[q - 1] == ' ' || s[q - 1] == '\t'))
		q--;
	if (q == from || s[q - 1] != ':')
		return false;
	for (size_t p = end; p > from; p--)
		if (s[p - 1] == ',' || s[p - 1] == ';') {
			from = p;
			break;
		}
	size_t a = from, b = end;
	str_trim(s, &a, &b);
	if (b == a || s[b - 1] != ':')
		return false;
	b--;
	str_trim(s, &a, &b);
	if (b == a)
		return false;
	*ka = a;
	*kb = b;
	return true;
}

/* The key of token i, squeezed and malloc'd, or NULL. */
static char *key_name(const char *s, const struct num_token *t, size_t i)
{
	size_t a, b;
	if (!key_span(s, t, i, &a, &b))
		return NULL;
	struct buf name = {0};
	squeeze(&name, s + a, b - a);
	return buf_detach(&name);
}

static bool squeezed_is(const char *s, size_t len, const char *want);

/* A place as asked, squeezed, in its own arrays: place_find runs once a
 * place of every claim and annotation, and four mallocs a call were most
 * of what it did before its memo answered.  A place is at most
 * EXPR_MAX_PLACE bytes (parse_wanted refuses a longer one first), and
 * unescaping and squeezing never lengthen it. */
struct wanted {
	char *row, *column; /* [ROW | COLUMN]; column NULL for [KEY] (row holds the key); into the arrays */
	char row_text[EXPR_MAX_PLACE + 1], column_text[EXPR_MAX_PLACE + 1];
};

static bool parse_parts(const char *text, size_t len, struct wanted *w, char *err, size_t errlen);

static bool parse_wanted(const char *raw, size_t raw_len, struct wanted *w, char *err, size_t errlen)
{
	w->row = w->column = NULL;
	if (raw_len > EXPR_MAX_PLACE) {
		snprintf(err, errlen, "a place is %zu bytes long, over the limit of %d bytes", raw_len, EXPR_MAX_PLACE);
		return false;
	}
	/* in a table cell the page writes the separator as "\|" (elsewhere
	 * the text is read as it stands, without the copy) */
	if (!memchr(raw, '\\', raw_len))
		return parse_parts(raw, raw_len, w, err, errlen);
	char text[EXPR_MAX_PLACE + 1];
	size_t len = 0;
	for (size_t i = 0; i < raw_len; i++)
		if (!(raw[i] == '\\' && i + 1 < raw_len && raw[i + 1] == '|'))
			text[len++] = raw[i];
	text[len] = '\0';
	return parse_parts(text, len, w, err, errlen);
}

static bool parse_parts(const char *text, size_t len, struct wanted *w, char *err, size_t errlen)
{
	const char *bar = memchr(text, '|', len);
	size_t a = squeeze_to(w->row_text, false, text, bar ? (size_t)(bar - text) : len), b = 0;
	if (bar)
		b = squeeze_to(w->column_text, false, bar + 1, len - (size_t)(bar + 1 - text));
	if (!a || (bar && !b) || (bar && memchr(bar + 1, '|', len - (size_t)(bar + 1 - text)))) {
		snprintf(err, errlen, "a place is [ROW | COLUMN] or [KEY], with no part empty");
		return false;
	}
	w->row = w->row_text;
	w->column = bar ? w->column_text : NULL;
	return true;
}

static void add_hit(struct place_hit *hits, size_t max, size_t *n, struct place_hit h)
{
	if (*n < max)
		hits[*n] = h;
	(*n)++;
}

/* Header fields named KEY: the field's first number. */
static void find_header(const struct evfile *ev, const char *key, struct place_hit *hits, size_t max, size_t *n)
{
	for (size_t i = 0; i < ev->ev->n_fields; i++) {
		const struct evidence_field *f = &ev->ev->fields[i];
		if (strcmp(f->key, key) != 0)
			continue;
		size_t len;
		const char *s = textfile_line(&ev->ev->tf, f->line, &len);
		struct num_token local[8], *t;
		size_t nt = numtok_scan_into(s, len, local, 8, &t);
		for (size_t k = 0; k < nt; k++)
			if (t[k].start > strlen(f->key)) {
				add_hit(hits, max, n, (struct place_hit){ev, SIZE_MAX, f->line, t[k]});
				break;
			}
		if (t != local)
			free(t);
	}
}

/* ---- a memo of one evidence file's names ---------------------------------- */

/* place_name asks place_find about one evidence file for every traced
 * number of a page, once or twice, and each ask read every stdout line's
 * names again.  The memo holds, for the cached file asked about last,
 * each key's first hits and each row name's lines, found once.  It is a
 * field of the course model's place cache (struct place_cache below,
 * course_cache), emptied when a page is done: the texts it was read from
 * go then. */
#define MEMO_HITS 4
struct memo_key {
	size_t count;
	struct place_hit hit[MEMO_HITS];
};
struct memo_row {
	size_t first, last; /* stdout lines; next_row chains them in order */
};
struct place_memo {
	const struct evfile *ev;
	struct strmap keys, rows;
	struct memo_key *key;
	size_t n_key, cap_key;
	struct memo_row *row;
	size_t n_row, cap_row;
	size_t *next_row;
	char **str;
	size_t n_str, cap_str;
	/* the columns: each stdout line's header line (align_header_lines),
	 * and each header line's words, split at its first column_hits
	 * (built_words[h]): a page's claims name the cells of a few tables
	 * many times, and each name walked the lines up to the rule and
	 * the header from its start again, once a number of the row */
	size_t n_lines; /* stdout lines of ev, as memo_for saw them */
	size_t *header;
	struct align_word **words;
	size_t *n_words;
	bool *built_words;
	/* each place asked through the memo, as written (the text between
	 * the brackets, owned in str), and its answer in a memo_key's shape
	 * (the count, the first hits): a page asks a few places many times
	 * (the cells its claims compare, each traced number's name), and the
	 * answer depends on that text and the file alone */
	struct strmap asked;
	struct memo_key *answer;
	size_t n_answer, cap_answer;
};

static void memo_clear(struct place_memo *m)
{
	strmap_free(&m->keys);
	strmap_free(&m->rows);
	free(m->key);
	free(m->row);
	free(m->next_row);
	for (size_t i = 0; i < m->n_str; i++)
		free(m->str[i]);
	free(m->str);
	for (size_t i = 0; i < m->n_lines; i++) /* the file may be gone: its count kept */
		free(m->words[i]);
	free(m->words);
	free(m->n_words);
	free(m->built_words);
	free(m->header);
	strmap_free(&m->asked);
	free(m->answer);
	memset(m, 0, sizeof *m);
}

static void memo_keep(struct place_memo *m, char *s)
{
	m->str = xgrow(m->str, &m->cap_str, m->n_str + 1, sizeof *m->str);
	m->str[m->n_str++] = s;
}

static void memo_add_key(struct place_memo *m, char *key, struct place_hit h)
{
	size_t at;
	if (!strmap_get(&m->keys, key, strlen(key), &at)) {
		memo_keep(m, key);
		at = m->n_key;
		m->key = xgrow(m->key, &m->cap_key, m->n_key + 1, sizeof *m->key);
		m->key[m->n_key++] = (struct memo_key){0};
		strmap_add(&m->keys, key, strlen(key), at, NULL);
	} else {
		free(key);
	}
	struct memo_key *mk = &m->key[at];
	if (mk->count < MEMO_HITS)
		mk->hit[mk->count] = h;
	mk->count++;
}

/* row (len bytes) is the caller's; a copy is kept when it is new. */
static void memo_add_row(struct place_memo *m, const char *row, size_t len, size_t k)
{
	size_t at;
	m->next_row[k] = SIZE_MAX;
	if (!strmap_get(&m->rows, row, len, &at)) {
		char *own = xstrndup(row, len);
		memo_keep(m, own);
		at = m->n_row;
		m->row = xgrow(m->row, &m->cap_row, m->n_row + 1, sizeof *m->row);
		m->row[m->n_row++] = (struct memo_row){k, k};
		strmap_add(&m->rows, own, len, at, NULL);
		return;
	}
	m->next_row[m->row[at].last] = k;
	m->row[at].last = k;
}

/* The repeat-values and volatile headers indexed by place (see "repeats"
 * below). */
struct by_lc;
struct repeats_index {
	const struct evfile *ev;
	const char *spec, *vol; /* the header values indexed */
	struct by_lc *values, *vols;
	size_t n_values, n_vols;
};

/* Lookups of one file before its memo is built: a page that names one
 * [KEY] (most do: [repeats]) is answered by reading the lines that hold
 * a ':' in place, which costs about a third of building the memo; a
 * page that asks more (one place_name a traced number) builds it at the
 * second.  A [ROW | COLUMN] builds it at once: reading every line's row
 * name in place costs about as much as the memo, and a page that names
 * one cell names several (its claims compare them). */
#define MEMO_AFTER 1

/* What place.c keeps of the course's evidence, a block of the course
 * model (course_cache: COURSE_CACHE_PLACE), emptied by place_cache_empty
 * when a page is done.  Only a loaded file of the course cache is
 * memoised (update's own runs are not). */
struct place_cache {
	struct place_memo memo;
	/* the file asked about last whose memo is not built, and how many
	 * times (MEMO_AFTER) */
	const struct evfile *unbuilt;
	unsigned unbuilt_asks;
	struct repeats_index by_place;
};

static void repeats_index_clear(struct repeats_index *bp);

static void place_cache_empty(void *block)
{
	struct place_cache *pc = block;
	memo_clear(&pc->memo);
	repeats_index_clear(&pc->by_place);
	pc->unbuilt = NULL;
	pc->unbuilt_asks = 0;
}

/* The course's place cache when ev is a loaded file of its cache, else
 * NULL (nothing is kept: the caller reads ev itself). */
static struct place_cache *cache_of(const struct evfile *ev)
{
	if (!course_evidence_cached(ev))
		return NULL;
	return course_cache(COURSE_CACHE_PLACE, sizeof(struct place_cache), place_cache_empty);
}

/* The memo for ev, built when it is another file and ev has been asked
 * about MEMO_AFTER times, or a cell is asked; false when there is none
 * (not yet, or ev is no file of the course cache). */
static bool memo_for(struct place_cache *pc, const struct evfile *ev, bool cell)
{
	struct place_memo *m = &pc->memo;
	if (m->ev == ev)
		return true;
	if (pc->unbuilt != ev)
		pc->unbuilt = ev, pc->unbuilt_asks = 0;
	if (pc->unbuilt_asks++ < MEMO_AFTER && !cell)
		return false;
	memo_clear(m);
	m->ev = ev;
	m->next_row = xmalloc((ev->ev->n_stdout + 1) * sizeof *m->next_row);
	m->header = xmalloc((ev->ev->n_stdout + 1) * sizeof *m->header);
	align_header_lines(ev->ev, m->header);
	m->words = xcalloc(ev->ev->n_stdout + 1, sizeof *m->words);
	m->n_words = xcalloc(ev->ev->n_stdout + 1, sizeof *m->n_words);
	m->built_words = xcalloc(ev->ev->n_stdout + 1, sizeof *m->built_words);
	m->n_lines = ev->ev->n_stdout;
	strmap_reserve(&m->rows, ev->ev->n_stdout); /* a row a line at most: it never grows */
	struct buf row = {0};                        /* each line's row name, reused */
	for (size_t k = 0; k < ev->ev->n_stdout; k++) {
		size_t sl;
		const char *s = evidence_stdout(ev->ev, k, &sl);
		const struct num_token *t;
		size_t nt;
		if (!course_evidence_tokens(ev, ev->ev->stdout_first + k, &t, &nt)) {
			buf_free(&row);
			memo_clear(m);
			return false;
		}
		m->next_row[k] = SIZE_MAX;
		if (nt) {
			row_name_into(&row, s, sl, t, nt);
			memo_add_row(m, row.s, row.len, k);
		}
		for (size_t i = 0; i < nt; i++) {
			char *key = key_name(s, t, i);
			if (key)
				memo_add_key(m, key, (struct place_hit){ev, k, ev->ev->stdout_first + k, t[i]});
		}
	}
	buf_free(&row);
	return true;
}

/* Whether s[0..len), squeezed as squeeze() does, is want (itself
 * squeezed), as strcmp would say: compared in place, without the copy. */
static bool squeezed_is(const char *s, size_t len, const char *want)
{
	size_t a = 0, e = len, w = 0;
	str_trim(s, &a, &e);
	for (size_t i = a; i < e; i++) {
		bool blank = s[i] == ' ' || s[i] == '\t';
		if (blank && i > a && (s[i - 1] == ' ' || s[i - 1] == '\t'))
			continue;
		if (s[i] == '\0') /* where a strcmp of the squeezed copy would stop */
			return want[w] == '\0';
		if (want[w] != (blank ? ' ' : s[i]))
			return false;
		w++;
	}
	return want[w] == '\0';
}

/* Whether the header word w[0..wl) over a number, as align_column_name
 * gives it (at most 255 bytes, to a NUL) and squeezed, is column. */
static bool column_is(const char *w, size_t wl, const char *column)
{
	const char *nul = memchr(w, '\0', wl);
	if (nul)
		wl = (size_t)(nul - w);
	if (wl > 255)
		wl = 255;
	return squeezed_is(w, wl, column);
}

/* The hits of [ROW | COLUMN] on stdout line k (tokens t[0..nt)): each
 * number whose column name (align_column_name's, as written into its
 * 256-byte buffer, squeezed) is column.  The header line is found once
 * for the line, not once a number. */
static void column_hits(const struct evfile *ev, size_t k, const struct num_token *t, size_t nt, const char *column,
			struct place_hit *hits, size_t max, size_t *n)
{
	size_t header = align_header_line(ev->ev, k);
	if (header == SIZE_MAX || !column[0])
		return;
	for (size_t i = 0; i < nt; i++) {
		const char *w;
		size_t wl;
		if (align_header_word(ev->ev, header, &t[i], &w, &wl) && column_is(w, wl, column))
			add_hit(hits, max, n, (struct place_hit){ev, k, ev->ev->stdout_first + k, t[i]});
	}
}

/* column_hits through the memo's header lines and words: the same hits
 * (the words are the ones align_header_word walks, align.h). */
static void memo_column_hits(struct place_memo *m, const struct evfile *ev, size_t k, const struct num_token *t,
			     size_t nt, const char *column, struct place_hit *hits, size_t max, size_t *n)
{
	size_t header = m->header[k];
	if (header == SIZE_MAX || !column[0])
		return;
	if (!m->built_words[header]) {
		m->built_words[header] = true;
		m->n_words[header] = align_header_words(ev->ev, header, &m->words[header]);
	}
	size_t hl;
	const char *h = evidence_stdout(ev->ev, header, &hl);
	for (size_t i = 0; i < nt; i++) {
		const struct align_word *w = align_word_over(m->words[header], m->n_words[header], &t[i]);
		if (w && column_is(h + w->start, w->end - w->start, column))
			add_hit(hits, max, n, (struct place_hit){ev, k, ev->ev->stdout_first + k, t[i]});
	}
}

/* place_find through the memo: the same hits in the same order. */
static size_t find_memo(struct place_memo *m, const struct evfile *ev, const struct wanted *w, struct place_hit *hits,
			size_t max)
{
	size_t n = 0, at;
	if (!w->column) {
		find_header(ev, w->row, hits, max, &n);
		if (strmap_get(&m->keys, w->row, strlen(w->row), &at)) {
			const struct memo_key *mk = &m->key[at];
			for (size_t i = 0; i < mk->count && i < MEMO_HITS; i++)
				add_hit(hits, max, &n, mk->hit[i]);
			if (mk->count > MEMO_HITS)
				n += mk->count - MEMO_HITS;
		}
		return n;
	}
	if (!strmap_get(&m->rows, w->row, strlen(w->row), &at))
		return 0;
	for (size_t k = m->row[at].first; k != SIZE_MAX; k = m->next_row[k]) {
		const struct num_token *t;
		size_t nt;
		course_evidence_tokens(ev, ev->ev->stdout_first + k, &t, &nt);
		memo_column_hits(m, ev, k, t, nt, w->column, hits, max, &n);
	}
	return n;
}

/* The answer the memo gave text before, into hits (the first max) and *n;
 * false when text was not asked of the memo of ev. */
static bool asked_before(const struct place_memo *m, const struct evfile *ev, const char *text, size_t len,
			 struct place_hit *hits, size_t max, size_t *n)
{
	size_t at;
	if (m->ev != ev || !strmap_get(&m->asked, text, len, &at))
		return false;
	const struct memo_key *a = &m->answer[at];
	for (size_t i = 0; i < a->count && i < max && i < MEMO_HITS; i++)
		hits[i] = a->hit[i];
	*n = a->count;
	return true;
}

/* find_memo, its answer kept for the next ask of the same text. */
static size_t find_memo_kept(struct place_memo *m, const struct evfile *ev, const char *text, size_t len,
			     const struct wanted *w, struct place_hit *hits, size_t max)
{
	struct memo_key a = {0};
	a.count = find_memo(m, ev, w, a.hit, MEMO_HITS);
	for (size_t i = 0; i < a.count && i < max; i++)
		hits[i] = a.hit[i];
	char *own = xstrndup(text, len);
	memo_keep(m, own);
	m->answer = xgrow(m->answer, &m->cap_answer, m->n_answer + 1, sizeof *m->answer);
	m->answer[m->n_answer] = a;
	strmap_add(&m->asked, own, len, m->n_answer++, NULL);
	return a.count;
}

size_t place_find(const struct evfile *ev, const char *text, size_t len, struct place_hit *hits, size_t max,
		  char *err, size_t errlen)
{
	size_t n = 0;
	struct place_cache *pc = max <= MEMO_HITS ? cache_of(ev) : NULL;
	if (pc && asked_before(&pc->memo, ev, text, len, hits, max, &n))
		return n;
	struct wanted w;
	if (!parse_wanted(text, len, &w, err, errlen))
		return SIZE_MAX;
	if (pc && memo_for(pc, ev, w.column != NULL))
		return find_memo_kept(&pc->memo, ev, text, len, &w, hits, max);
	if (!w.column)
		find_header(ev, w.row, hits, max, &n);
	for (size_t k = 0; k < ev->ev->n_stdout; k++) {
		size_t sl;
		const char *s = evidence_stdout(ev->ev, k, &sl);
		/* a key ends in a ':' of the line: most lines (a table's rows)
		 * have none, and need not even be looked at for a [KEY] */
		if (!w.column && !memchr(s, ':', sl))
			continue;
		const struct num_token *t;
		struct num_token *own = NULL;
		size_t nt;
		if (!course_evidence_tokens(ev, ev->ev->stdout_first + k, &t, &nt)) /* tokenised once a run */
			nt = numtok_scan(s, sl, &own), t = own;
		/* names compared in place, as squeeze() would write them */
		size_t a, b;
		if (w.column && nt) {
			row_span(s, sl, t, nt, &a, &b);
			if (squeezed_is(s + a, b - a, w.row))
				column_hits(ev, k, t, nt, w.column, hits, max, &n);
		}
		for (size_t i = 0; !w.column && i < nt; i++)
			if (key_span(s, t, i, &a, &b) && squeezed_is(s + a, b - a, w.row))
				add_hit(hits, max, &n, (struct place_hit){ev, k, ev->ev->stdout_first + k, t[i]});
		free(own);
	}
	return n;
}

/* Whether [text] names hit alone. */
static bool names_alone(const struct place_hit *hit, const char *text)
{
	struct place_hit found;
	char err[160];
	size_t n = place_find(hit->ev, text, strlen(text), &found, 1, err, sizeof err);
	return n == 1 && found.line == hit->line && found.tok.start == hit->tok.start;
}

void place_name(const struct place_hit *hit, char *out, size_t outlen)
{
	out[0] = '\0';
	size_t len;
	const char *s = textfile_line(&hit->ev->ev->tf, hit->line, &len);
	if (hit->stdout_index == SIZE_MAX) {
		size_t k = strcspn(s, ":");
		snprintf(out, outlen, "[%.*s]", (int)k, s);
		return;
	}
	struct num_token *t;
	size_t nt = numtok_scan(s, len, &t);
	for (size_t i = 0; i < nt; i++)
		if (t[i].start == hit->tok.start) {
			char *key = key_name(s, t, i);
			if (key && names_alone(hit, key))
				snprintf(out, outlen, "[%s]", key);
			free(key);
		}
	free(t);
	if (out[0])
		return;
	char rn[256], cn[256];
	align_place_names(hit->ev->ev, hit->stdout_index, &hit->tok, rn, sizeof rn, cn, sizeof cn);
	if (!rn[0] || !cn[0])
		return;
	char *both = xasprintf("%s | %s", rn, cn);
	if (names_alone(hit, both))
		snprintf(out, outlen, "[%s]", both);
	free(both);
}

/* ---- repeats ----------------------------------------------------------------- */

/* The repeat-values and volatile headers by place (struct
 * repeats_index, in the place cache), for the cached evidence file asked
 * about last; emptied when a page is done (its header texts live until
 * course_page_done): both list every volatile number, and a page quoting
 * N of them looked each up from the header's start, N x N.  Sorted
 * (line, column) pairs, the first of a place first, as the headers were
 * read. */
struct by_lc {
	size_t line, col, order;
	const char *vals; /* repeat-values: the entry's values */
	size_t len;
	/* and as numbers, read at the first place_repeat_values of the
	 * entry (n_parsed 0: one was no number): a page's claims read their
	 * places once a comparison, the same few places many times */
	double *parsed;
	size_t n_parsed;
	bool was_parsed;
};

static int by_lc_cmp(const void *a, const void *b)
{
	const struct by_lc *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The first of v[0..n) at (line, col), or NULL. */
static struct by_lc *by_lc_find(struct by_lc *v, size_t n, size_t line, size_t col)
{
	struct by_lc key = {.line = line, .col = col};
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (by_lc_cmp(&v[m], &key) < 0)
			a = m + 1;
		else
			b = m;
	}
	return a < n && v[a].line == line && v[a].col == col ? &v[a] : NULL;
}

/* The volatile header's places: the words "LINE:COL" (' ' apart) that
 * place_is_volatile's "%zu:%zu" can be (no leading zero, no sign), so
 * that a look-up finds exactly the words it would have matched. */
static size_t volatile_places(const char *v, struct by_lc **out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	for (const char *p = v; *p;) {
		const char *end = strchr(p, ' ');
		if (!end)
			end = p + strlen(p);
		size_t parts[2] = {0, 0}, k = 0, digits = 0;
		bool ok = true;
		for (const char *q = p; q < end && ok; q++) {
			if (*q == ':' && k == 0 && digits)
				k = 1, digits = 0;
			else if (*q >= '0' && *q <= '9' && digits < 18 && !(digits == 1 && parts[k] == 0))
				parts[k] = parts[k] * 10 + (size_t)(*q - '0'), digits++;
			else
				ok = false;
		}
		if (ok && k == 1 && digits) {
			*out = xgrow(*out, &cap, n + 1, sizeof **out);
			(*out)[n] = (struct by_lc){.line = parts[0], .col = parts[1], .order = n};
			n++;
		}
		p = *end ? end + 1 : end;
	}
	return n;
}

static void repeats_index_clear(struct repeats_index *bp)
{
	for (size_t i = 0; i < bp->n_values; i++)
		free(bp->values[i].parsed);
	free(bp->values);
	free(bp->vols);
	memset(bp, 0, sizeof *bp);
}

/* The index made for ev, when it is a cached file; NULL otherwise. */
static struct repeats_index *by_place_for(const struct evfile *ev)
{
	struct place_cache *pc = cache_of(ev);
	if (!pc)
		return NULL;
	struct repeats_index *bp = &pc->by_place;
	const char *spec = evidence_get(ev->ev, "repeat-values", NULL);
	const char *vol = evidence_get(ev->ev, "volatile", NULL);
	if (bp->ev == ev && bp->spec == spec && bp->vol == vol)
		return bp;
	repeats_index_clear(bp);
	bp->ev = ev;
	bp->spec = spec;
	bp->vol = vol;
	if (spec) {
		struct repeats_entry *e;
		size_t n = repeats_entries(spec, &e);
		bp->values = xmalloc((n + 1) * sizeof *bp->values);
		for (size_t i = 0; i < n; i++)
			bp->values[i] = (struct by_lc){.line = e[i].line, .col = e[i].col, .order = i, .vals = e[i].vals, .len = e[i].len};
		bp->n_values = n;
		free(e);
		qsort(bp->values, n, sizeof *bp->values, by_lc_cmp);
	}
	if (vol) {
		bp->n_vols = volatile_places(vol, &bp->vols);
		if (bp->n_vols) /* none: vols may be NULL, which qsort may not take */
			qsort(bp->vols, bp->n_vols, sizeof *bp->vols, by_lc_cmp);
	}
	return bp;
}

/* The values of the place at line:col; *entry: its index entry, or NULL
 * when ev is not indexed (may be NULL). */
static bool lookup_values(const struct evfile *ev, const char *spec, size_t line, size_t col, const char **vals,
			  size_t *len, struct by_lc **entry)
{
	struct repeats_index *bp = by_place_for(ev);
	if (!bp)
		return repeats_lookup(spec, line, col, vals, len);
	struct by_lc *e = by_lc_find(bp->values, bp->n_values, line, col);
	if (e) {
		*vals = e->vals;
		*len = e->len;
		if (entry)
			*entry = e;
	}
	return e != NULL;
}

static bool repeat_spec(const struct place_hit *hit, const char **vals, size_t *len, struct by_lc **entry)
{
	if (hit->stdout_index == SIZE_MAX)
		return false;
	const char *spec = evidence_get(hit->ev->ev, "repeat-values", NULL);
	if (!spec)
		return false;
	return lookup_values(hit->ev, spec, hit->stdout_index + 1, hit->tok.digits_start + 1, vals, len, entry) ||
	       lookup_values(hit->ev, spec, hit->stdout_index + 1, hit->tok.start + 1, vals, len, entry);
}

/* The values v[0..len), sep apart, as numbers into out (room for cap):
 * how many there are (those past cap counted too), 0 when one is no
 * number ("-": a repeat printed none there). */
static size_t parse_repeat_values(const char *v, size_t len, double *out, size_t cap)
{
	size_t n = 0;
	char sep = repeats_separator(v, len);
	for (size_t a = 0; a < len;) {
		size_t b = a;
		while (b < len && v[b] != sep)
			b++;
		struct num_token local[2], *t; /* one value, or not: two tell */
		size_t nt = numtok_scan_into(v + a, b - a, local, 2, &t);
		bool one = nt == 1 && t[0].start == 0 && t[0].end == b - a;
		if (one && n < cap)
			out[n] = t[0].value;
		if (t != local)
			free(t);
		if (!one)
			return 0;
		n++;
		a = b + 1;
	}
	return n;
}

size_t place_repeat_values(const struct place_hit *hit, double *vals, size_t max)
{
	const char *v;
	size_t len;
	struct by_lc *entry = NULL;
	if (!repeat_spec(hit, &v, &len, &entry)) {
		if (max)
			vals[0] = hit->tok.value;
		return 1;
	}
	if (!entry) { /* a file outside the course cache: read each time */
		size_t n = parse_repeat_values(v, len, vals, max);
		return n < max ? n : max;
	}
	if (!entry->was_parsed) {
		size_t room = 1;
		char sep = repeats_separator(v, len);
		for (size_t i = 0; i < len; i++)
			room += v[i] == sep;
		entry->parsed = xmalloc(room * sizeof *entry->parsed);
		entry->n_parsed = parse_repeat_values(v, len, entry->parsed, room);
		entry->was_parsed = true;
	}
	size_t n = entry->n_parsed < max ? entry->n_parsed : max;
	if (n)
		memcpy(vals, entry->parsed, n * sizeof *vals);
	return n;
}

bool place_is_volatile(const struct place_hit *hit)
{
	if (hit->stdout_index == SIZE_MAX)
		return false;
	const char *v = evidence_get(hit->ev->ev, "volatile", NULL);
	if (!v)
		return false;
	size_t cols[2] = {hit->tok.start + 1, hit->tok.digits_start + 1};
	const struct repeats_index *indexed = by_place_for(hit->ev);
	for (int c = 0; c < 2; c++) {
		if (indexed) {
			if (by_lc_find(indexed->vols, indexed->n_vols, hit->stdout_index + 1, cols[c]))
				return true;
			continue;
		}
		char want[48];
		snprintf(want, sizeof want, "%zu:%zu", hit->stdout_index + 1, cols[c]);
		size_t n = strlen(want);
		for (const char *p = v; (p = strstr(p, want)) != NULL; p += n)
			if ((p == v || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
				return true;
	}
	return false;
}

const char *place_values_missing(const struct place_hit *hit, const char **why, size_t *line)
{
	const char *v;
	size_t len;
	if (place_repeats(hit) < 2 || !place_is_volatile(hit) || repeat_spec(hit, &v, &len, NULL))
		return NULL;
	*why = evidence_get(hit->ev->ev, "repeat-values-omitted", line);
	if (*why)
		return "repeat-values-omitted";
	*why = evidence_get(hit->ev->ev, "volatile", line);
	return "volatile";
}

unsigned place_repeats(const struct place_hit *hit)
{
	const char *r = evidence_get(hit->ev->ev, "repeats", NULL);
	unsigned long n = r ? strtoul(r, NULL, 10) : 1;
	return n < 1 ? 1 : n > 100000 ? 100000 : (unsigned)n;
}

/* ---- resolving for expressions and annotations ------------------------------- */

void place_env_init(struct place_env *pe, const struct evfile *ev, const struct textfile *page, const char *base,
		    size_t base_raw, size_t page_line)
{
	/* the fields, not the arrays: entries past n are never read, and
	 * zeroing 64 hits cost more than most claims' lookups */
	pe->ev = ev;
	pe->page = page;
	pe->base = base;
	pe->base_raw = base_raw;
	pe->page_line = page_line;
	pe->reported = false;
	pe->n = 0;
}

static struct diag_loc page_loc(const struct place_env *pe, const char *text, size_t len)
{
	if (pe->base && pe->base_raw != SIZE_MAX && text >= pe->base)
		return textfile_loc(pe->page, pe->base_raw + (size_t)(text - pe->base) - 1, len + 2);
	return textfile_loc_line(pe->page, pe->page_line, 0, 0);
}

struct diag_loc place_loc(const struct place_hit *hit)
{
	return textfile_loc_line(&hit->ev->ev->tf, hit->line, hit->tok.start + 1, hit->tok.end - hit->tok.start);
}

void place_where(const struct place_hit *hit, char *out, size_t outlen)
{
	snprintf(out, outlen, "%s:%zu:%zu", hit->ev->path, hit->line, (size_t)hit->tok.start + 1);
}

/* The repeat-values-missing error at the page (pe has one): min() or
 * max() of a place whose values the capture did not keep. */
static void report_values_missing(struct place_env *pe, const char *text, size_t len, const struct place_hit *hit,
				  const char *field, const char *why, size_t line)
{
	struct diag *d = diag_begin(D_REPEAT_VALUES_MISSING, page_loc(pe, text, len),
				    "[%.*s] varied between the %u repeats of %s, which kept none of its values: its least "
				    "and greatest over the repeats are not known",
				    (int)len, text, place_repeats(hit), hit->ev->path);
	diag_note(d, textfile_loc_line(&hit->ev->ev->tf, line, 0, 0), "%s: %s", field, why);
	diag_hint(d, "capture the lesson again ('capture --repeat K' keeps the values of the places it can), or "
		     "claim what the one run printed, [%.*s], and say so in the sentence",
		  (int)len, text);
	diag_end(d);
	pe->reported = true;
}

/* Finds the one number text names; reports (when pe has a page) and
 * returns false otherwise, with err set. */
static bool resolve(struct place_env *pe, const char *text, size_t len, struct place_hit *out, char *err,
		    size_t errlen)
{
	struct place_hit hits[4];
	size_t n = place_find(pe->ev, text, len, hits, 4, err, errlen);
	if (n == 1) {
		*out = hits[0];
		return true;
	}
	if (n == SIZE_MAX) {
		if (pe->page) {
			struct diag *d = diag_begin(D_PLACE_UNKNOWN, page_loc(pe, text, len), "[%.*s] is not a place: %s",
						    (int)len, text, err);
			diag_hint(d, "write [ROW | COLUMN] as the drift notes name a table cell, or [KEY] for a 'KEY: NUMBER' line");
			diag_end(d);
			pe->reported = true;
		}
		return false;
	}
	if (n == 0)
		snprintf(err, errlen, "[%.*s] names no number of %s", (int)len, text, pe->ev->path);
	else
		snprintf(err, errlen, "[%.*s] names %zu numbers of %s", (int)len, text, n, pe->ev->path);
	if (!pe->page)
		return false;
	pe->reported = true;
	if (n == 0) {
		struct diag *d = diag_begin(D_PLACE_UNKNOWN, page_loc(pe, text, len), "[%.*s] names no number of %s",
					    (int)len, text, pe->ev->path);
		diag_hint(d, "'coursecheck explain' names the place of every traced number; a row is the line up to "
			     "its first number after a label, a column the header cell above the dashes");
		diag_end(d);
		return false;
	}
	struct diag *d = diag_begin(D_PLACE_AMBIGUOUS, page_loc(pe, text, len), "[%.*s] names %zu numbers of %s",
				    (int)len, text, n, pe->ev->path);
	for (size_t i = 0; i < n && i < 4; i++)
		diag_note(d, place_loc(&hits[i]), "one of them: %.*s", (int)(hits[i].tok.end - hits[i].tok.start),
			  textfile_line(&pe->ev->ev->tf, hits[i].line, &(size_t){0}) + hits[i].tok.start);
	diag_hint(d, "a place must name one number: this row and column occur in more than one table; name a row or a column that occurs once");
	diag_end(d);
	return false;
}

bool place_resolve_one(struct place_env *pe, const char *text, size_t len, struct place_hit *out)
{
	char err[160];
	return resolve(pe, text, len, out, err, sizeof err);
}

static int env_place(void *ctx, const char *text, size_t len, enum expr_place_fn fn, double *value, char *err,
		     size_t errlen)
{
	struct place_env *pe = ctx;
	struct place_hit hit;
	if (!resolve(pe, text, len, &hit, err, errlen))
		return -1;
	double v = hit.tok.value;
	const char *why;
	size_t line;
	const char *field = fn != EXPR_PLACE_VALUE ? place_values_missing(&hit, &why, &line) : NULL;
	if (field) {
		snprintf(err, errlen, "the capture kept no repeat values of [%.*s] (%s)", (int)len, text, field);
		if (pe->page)
			report_values_missing(pe, text, len, &hit, field, why, line);
		return -1;
	}
	if (fn != EXPR_PLACE_VALUE) {
		double vals[1024];
		size_t n = place_repeat_values(&hit, vals, 1024);
		if (n == 0) {
			snprintf(err, errlen, "a repeat printed no number at [%.*s]", (int)len, text);
			return -1;
		}
		v = vals[0];
		for (size_t i = 1; i < n; i++)
			v = fn == EXPR_PLACE_MIN ? fmin(v, vals[i]) : fmax(v, vals[i]);
	}
	if (pe->n < PLACE_ENV_MAX) {
		pe->hits[pe->n] = hit;
		pe->fns[pe->n] = fn;
		pe->values[pe->n] = v;
		pe->n++;
	}
	*value = v;
	return 0;
}

struct expr_env place_env_expr(struct place_env *pe)
{
	return (struct expr_env){env_place, pe};
}

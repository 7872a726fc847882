/* proghdr.c - see proghdr.h. */
#include "proghdr.h"

#include "sha256.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The text of a comment line after its `//` and following spaces:
 * [*start, *end) within the line; false when the line is not a comment. */
static bool comment_body(const char *s, size_t len, size_t *start, size_t *end)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (len - i < 2 || s[i] != '/' || s[i + 1] != '/')
		return false;
	*start = i + 2;
	*end = len;
	str_trim(s, start, end);
	return true;
}

static void problem(struct proghdr *h, size_t line, size_t col, const char *fmt, ...) PRINTF_LIKE(4, 5);
static void problem(struct proghdr *h, size_t line, size_t col, const char *fmt, ...)
{
	if (h->n_problems >= PROGHDR_MAX_PROBLEMS)
		return; /* the first ones are what an author needs */
	h->problems = xrealloc(h->problems, (h->n_problems + 1) * sizeof *h->problems);
	struct proghdr_problem *p = &h->problems[h->n_problems++];
	p->line = line;
	p->col = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->message, sizeof p->message, fmt, ap);
	va_end(ap);
}

/* A header value from column a of line n: the rest of the line, and, while
 * it ends in " \", the following comment lines joined with one space.
 * *n moves to the last line used.  Malloc'd; NULL after a problem. */
static char *read_value(const struct textfile *tf, size_t *n, size_t a, const char *key, struct proghdr *h)
{
	size_t len, start, end;
	const char *s = textfile_line(tf, *n, &len);
	size_t b = len;
	str_trim(s, &a, &b);
	struct buf v = {0};
	buf_append(&v, "", 0);
	size_t first = *n;
	for (;;) {
		bool more = b > a && s[b - 1] == '\\';
		size_t e = more ? b - 1 : b;
		str_trim(s, &a, &e);
		if (v.len && e > a)
			buf_putc(&v, ' ');
		buf_append(&v, s + a, e - a);
		if (!more)
			break;
		bool continued = *n + 1 <= tf->n_lines;
		if (continued) {
			s = textfile_line(tf, *n + 1, &len);
			continued = comment_body(s, len, &start, &end) && end > start;
		}
		if (!continued) {
			problem(h, *n, b, "the %s line ends in '\\' but no comment line continues it (line %zu)", key,
				first);
			buf_free(&v);
			return NULL;
		}
		++*n;
		a = start;
		b = end;
	}
	if (v.len == 0) {
		problem(h, first, 1, "the %s line has no command", key);
		buf_free(&v);
		return NULL;
	}
	return buf_detach(&v);
}

static void take_value(const struct textfile *tf, size_t *n, size_t start, size_t key_len, const char *key,
		       struct proghdr_value *v, struct proghdr *h)
{
	size_t line = *n, col = start + key_len;
	size_t len;
	const char *s = textfile_line(tf, line, &len);
	while (col < len && (s[col] == ' ' || s[col] == '\t'))
		col++;
	char *text = read_value(tf, n, start + key_len, key, h);
	v->count++;
	if (v->text || !text) {
		free(text); /* the first one counts; the repeat is the checker's to report */
		return;
	}
	v->text = text;
	v->line = line;
	v->col = col + 1;
}

/* "UNIT VALUE[, UNIT VALUE...]": a unit of letters, digits, '/', '%' or
 * non-ASCII bytes (or "*"), a blank, a plain decimal. */
static bool resolution_well_formed(const char *t)
{
	for (const char *p = t;;) {
		const char *unit = p;
		while (*p && *p != ' ' && *p != ',')
			p++;
		if (p == unit || *p != ' ')
			return false;
		while (*p == ' ')
			p++;
		const char *digits = p;
		while ((*p >= '0' && *p <= '9') || *p == '.')
			p++;
		if (p == digits || digits[0] == '.' || p[-1] == '.' || memchr(digits, '.', (size_t)(p - digits)) !=
								       memrchr(digits, '.', (size_t)(p - digits)))
			return false;
		while (*p == ' ')
			p++;
		if (!*p)
			return true;
		if (*p++ != ',')
			return false;
		while (*p == ' ')
			p++;
	}
}

static void take_resolution(const struct textfile *tf, size_t *n, size_t start, struct proghdr *h)
{
	take_value(tf, n, start, 11, "Resolution:", &h->resolution, h);
	if (h->resolution.text && h->resolution.count == 1 && !resolution_well_formed(h->resolution.text)) {
		problem(h, h->resolution.line, h->resolution.col,
			"cannot read the Resolution: line: write '// Resolution: UNIT VALUE' (ms 0.0005), ', ' between several");
		free(h->resolution.text);
		h->resolution.text = NULL;
	}
}

static bool name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (!first && ((c >= '0' && c <= '9') || c == '-'));
}

/* "Run", "Run NAME", "Run NAME (exit N)", "Run (exit N)", then ':'.
 * Returns the length of the key with its colon, 0 when the line is no run
 * line (prose that starts with the word), or -1 when it is one of the
 * wrong shape (*why set). */
static long run_key(const char *b, size_t len, char *name, int *exit, const char **why)
{
	*name = '\0';
	*exit = 0;
	if (len < 4 || memcmp(b, "Run", 3) != 0)
		return 0;
	size_t i = 3;
	if (b[i] == ':')
		return 4;
	if (b[i] != ' ')
		return 0;
	i++;
	size_t k = 0;
	while (i < len && name_char(b[i], k == 0) && k < 64)
		name[k++] = b[i++];
	name[k] = '\0';
	size_t w = i;
	while (w < len && b[w] != ' ' && b[w] != ':')
		w++;
	bool one_word = w < len && b[w] == ':'; /* "Run Racecheck:", "Run my_run:" */
	bool looks = memchr(b, ':', len) && (k > 0 || b[i] == '(' || one_word);
	if (k > PROGHDR_NAME_MAX) {
		*why = "a run name has at most 32 characters";
		return -1;
	}
	if (k && i < len && b[i] == ':')
		return (long)i + 1;
	if (k && i < len && b[i] == ' ')
		i++;
	if (i + 6 <= len && memcmp(b + i, "(exit ", 6) == 0) {
		i += 6;
		long e = 0;
		size_t d = 0;
		while (i < len && b[i] >= '0' && b[i] <= '9' && d < 4) {
			e = e * 10 + (b[i++] - '0');
			d++;
		}
		if (!d || e < 1 || e > 255 || i + 1 >= len || b[i] != ')' || b[i + 1] != ':') {
			*why = "write a run expected to fail as 'Run NAME (exit N): COMMAND', N from 1 to 255";
			return -1;
		}
		*exit = (int)e;
		return (long)i + 2;
	}
	if (!looks)
		return 0;
	/* "Run Name:", "Run my_run:", "Run x(exit 1):": meant as a run line */
	size_t colon = (size_t)((const char *)memchr(b, ':', len) - b);
	size_t sp = 4;
	while (sp < colon && b[sp] != ' ')
		sp++;
	if (sp < colon && !memchr(b + 4, '(', colon - 4))
		return 0; /* two words before the colon: prose */
	*why = "a run name is lowercase letters, digits and '-', starting with a letter";
	return -1;
}

static void take_run(const struct textfile *tf, size_t *n, size_t start, struct proghdr *h)
{
	size_t len;
	const char *s = textfile_line(tf, *n, &len);
	char name[72];
	int exit;
	const char *why = NULL;
	long k = run_key(s + start, len - start, name, &exit, &why);
	if (k == 0)
		return;
	if (k < 0) {
		problem(h, *n, start + 1, "cannot read this run line: %s", why);
		return;
	}
	size_t line = *n;
	if (h->n_runs >= PROGHDR_MAX_RUNS) {
		problem(h, line, start + 1, "more than %d run lines: a header names at most %d runs", PROGHDR_MAX_RUNS,
			PROGHDR_MAX_RUNS);
		return;
	}
	const char *shown = name[0] ? name : PROGHDR_MAIN_RUN;
	for (size_t i = 0; i < h->n_runs; i++)
		if (strcmp(h->runs[i].name, shown) == 0) {
			if (name[0])
				problem(h, line, start + 1, "run '%s' is named twice (line %zu is the first)", shown,
					h->runs[i].line);
			break;
		}
	if (!name[0])
		h->run.count++;
	size_t col = start + (size_t)k;
	while (col < len && (s[col] == ' ' || s[col] == '\t'))
		col++;
	char *text = read_value(tf, n, start + (size_t)k, "run", h);
	if (!text)
		return;
	h->runs = xrealloc(h->runs, (h->n_runs + 1) * sizeof *h->runs);
	h->runs[h->n_runs++] = (struct proghdr_run){xstrdup(shown), text, exit, line, col + 1, {0}};
	if (!h->run.text) {
		h->run.text = xstrdup(text);
		h->run.line = line;
		h->run.col = col + 1;
	}
}

static bool has_word(const char *s, size_t len, const char *word)
{
	size_t w = strlen(word);
	/* memchr finds each candidate by its first byte (every header line
	 * is searched: a memcmp at every byte cost more than the rest of the
	 * parse, and memmem's set-up as much on lines this short); the
	 * boundaries are judged in s itself, so a candidate after another
	 * sees the byte before it */
	for (size_t from = 0; w && from + w <= len;) {
		const char *hit = memchr(s + from, word[0], len - from - w + 1);
		if (!hit)
			break;
		size_t i = (size_t)(hit - s);
		from = i + 1;
		if (memcmp(hit, word, w) != 0)
			continue;
		bool left = i == 0 || !((s[i - 1] | 32) >= 'a' && (s[i - 1] | 32) <= 'z');
		bool right = i + w == len || !((s[i + w] | 32) >= 'a' && (s[i + w] | 32) <= 'z');
		if (left && right)
			return true;
	}
	return false;
}

/* `// Expect NAME: REGEX` lines, held until every run line is read (a
 * run's Expect may come before its run line). */
struct run_expect {
	char name[PROGHDR_NAME_MAX + 1];
	struct proghdr_value v;
	size_t col; /* of the name, for a problem */
};
struct run_expects {
	struct run_expect *v;
	size_t n, cap;
};

/* "Expect NAME:" with NAME a run name: its value is held in *pending.
 * Any other line that starts with "Expect " is prose. */
static void take_run_expect(const struct textfile *tf, size_t *n, size_t start, struct proghdr *h,
			    struct run_expects *pending)
{
	size_t len;
	const char *s = textfile_line(tf, *n, &len);
	const char *b = s + start;
	size_t blen = len - start, i = 7, k = 0;
	while (i < blen && name_char(b[i], k == 0) && k <= PROGHDR_NAME_MAX)
		i++, k++;
	if (k == 0 || k > PROGHDR_NAME_MAX || i >= blen || b[i] != ':')
		return;
	if (pending->n >= PROGHDR_MAX_RUNS) {
		problem(h, *n, start + 1, "more than %d Expect NAME: lines", PROGHDR_MAX_RUNS);
		return;
	}
	pending->v = xgrow(pending->v, &pending->cap, pending->n + 1, sizeof *pending->v);
	struct run_expect *e = &pending->v[pending->n++];
	memset(e, 0, sizeof *e);
	memcpy(e->name, b + 7, k);
	e->col = start + 8;
	take_value(tf, n, start, i + 1, "Expect", &e->v, h);
}

/* Each held Expect NAME: to its run; one that names no run, or a run
 * given its own Expect twice, is a problem. */
static void attach_run_expects(struct proghdr *h, struct run_expects *pending)
{
	for (size_t k = 0; k < pending->n; k++) {
		struct run_expect *e = &pending->v[k];
		struct proghdr_run *r = NULL;
		for (size_t i = 0; i < h->n_runs && !r; i++)
			if (strcmp(h->runs[i].name, e->name) == 0)
				r = &h->runs[i];
		if (!r)
			problem(h, e->v.line, e->col, "Expect %s: names no run of the header (a run line 'Run %s: CMD', or "
				"'main' for 'Run: CMD')", e->name, e->name);
		else if (r->expect.count)
			problem(h, e->v.line, e->col, "run '%s' has its Expect line twice (line %zu is the first)", e->name,
				r->expect.line);
		if (r && !r->expect.count) {
			r->expect = e->v;
			continue;
		}
		if (r)
			r->expect.count++;
		free(e->v.text);
	}
	free(pending->v);
}

void proghdr_parse(const struct textfile *tf, struct proghdr *h)
{
	memset(h, 0, sizeof *h);
	size_t n = 1, len, start, end;
	const char *s;
	while (n <= tf->n_lines) {
		s = textfile_line(tf, n, &len);
		if (!str_is_blank(s, len))
			break;
		n++;
	}
	struct buf joined = {0};
	struct run_expects pending = {0};
	size_t cap = 0, blank_cap = 0;
	bool in_verified = false, verified_done = false;
	for (; n <= tf->n_lines; n++) {
		s = textfile_line(tf, n, &len);
		if (!comment_body(s, len, &start, &end))
			break;
		if (!h->first_line)
			h->first_line = n;
		h->last_line = n;
		const char *body = s + start;
		size_t blen = end - start;
		size_t key_line = n;
		if (blen == 0) { /* an empty `//` line: kept for the source hash */
			h->blank_lines = xgrow(h->blank_lines, &blank_cap, h->n_blank_lines + 1, sizeof *h->blank_lines);
			h->blank_lines[h->n_blank_lines++] = n;
		}
		/* most header lines are prose: one look at the first byte
		 * (B, E or R, as each key starts) before the three prefix
		 * compares */
		bool key = blen && (body[0] == 'B' || body[0] == 'E' || body[0] == 'R');
		if (key && str_starts_with(body, blen, "Build:"))
			take_value(tf, &n, start, 6, "Build:", &h->build, h);
		else if (key && str_starts_with(body, blen, "Expect:"))
			take_value(tf, &n, start, 7, "Expect:", &h->expect, h);
		else if (key && str_starts_with(body, blen, "Expect "))
			take_run_expect(tf, &n, start, h, &pending);
		else if (key && str_starts_with(body, blen, "Resolution:"))
			take_resolution(tf, &n, start, h);
		else if (key && str_starts_with(body, blen, "Run"))
			take_run(tf, &n, start, h);
		if (n != key_line) { /* continuation lines: commands, not prose */
			h->last_line = n;
			continue;
		}

		if (in_verified && blen == 0) {
			in_verified = false;
			verified_done = true;
		}
		if (!in_verified && !verified_done && has_word(body, blen, "Verified")) {
			in_verified = true;
			h->verified_line = n;
		}
		if (in_verified) {
			h->verified_last = n;
			size_t off = tf->line_start[n - 1] + start;
			if (joined.len) {
				buf_putc(&joined, ' ');
				h->verified_src = xgrow(h->verified_src, &cap, joined.len, sizeof *h->verified_src);
				h->verified_src[joined.len - 1] = off > 0 ? off - 1 : 0;
			}
			h->verified_src = xgrow(h->verified_src, &cap, joined.len + blen + 1, sizeof *h->verified_src);
			for (size_t i = 0; i < blen; i++)
				h->verified_src[joined.len + i] = off + i;
			h->verified_src[joined.len + blen] = off + blen;
			buf_append(&joined, body, blen);
		}
	}
	if (h->verified_line) {
		h->verified_len = joined.len;
		h->verified = buf_detach(&joined);
	}
	buf_free(&joined);
	attach_run_expects(h, &pending);
}

void proghdr_free(struct proghdr *h)
{
	free(h->build.text);
	free(h->run.text);
	free(h->expect.text);
	free(h->resolution.text);
	for (size_t i = 0; i < h->n_runs; i++) {
		free(h->runs[i].name);
		free(h->runs[i].text);
		free(h->runs[i].expect.text);
	}
	free(h->runs);
	free(h->problems);
	free(h->verified);
	free(h->verified_src);
	free(h->blank_lines);
	memset(h, 0, sizeof *h);
}

void proghdr_source_sha256(const struct textfile *tf, char out[65])
{
	struct proghdr h;
	proghdr_parse(tf, &h);
	proghdr_source_sha256_parsed(tf, &h, out);
	proghdr_free(&h);
}

/* Whether line n is left out of the source hash: the Verified paragraph,
 * and the empty "//" lines of the header comment.  Those the parse found
 * (every line of the header is a comment line it read, and an empty one
 * is no key's continuation): *next walks h->blank_lines as n rises, so
 * no line is read again.  test_proghdr holds it to a reading of each
 * line, trimmed, as exactly "//". */
static bool left_out(const struct proghdr *h, size_t n, size_t *next)
{
	while (*next < h->n_blank_lines && h->blank_lines[*next] < n)
		++*next;
	if (h->verified_line && n >= h->verified_line && n <= h->verified_last)
		return true;
	return *next < h->n_blank_lines && h->blank_lines[*next] == n;
}

void proghdr_source_sha256_parsed(const struct textfile *tf, const struct proghdr *h, char out[65])
{
	/* the kept lines, as runs of adjacent lines (each run one contiguous
	 * range of the text), hashed in place: only the header's and the
	 * Verified paragraph's lines are looked at */
	struct sha256_ctx *c = sha256_begin();
	size_t run_from = 0; /* byte offset where the current run of kept lines starts */
	size_t lo = SIZE_MAX, hi = 0;
	if (h->first_line)
		lo = h->first_line, hi = h->last_line;
	if (h->verified_line) {
		lo = h->verified_line < lo ? h->verified_line : lo;
		hi = h->verified_last > hi ? h->verified_last : hi;
	}
	size_t next = 0;
	for (size_t n = lo; lo != SIZE_MAX && n <= hi && n <= tf->n_lines; n++) {
		if (!left_out(h, n, &next))
			continue;
		size_t from = tf->line_start[n - 1];
		size_t to = n < tf->n_lines ? tf->line_start[n] : tf->len;
		sha256_update(c, tf->data + run_from, from - run_from);
		run_from = to;
	}
	sha256_update(c, tf->data + run_from, tf->len - run_from);
	sha256_end(c, out);
}

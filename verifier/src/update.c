/*
 * update.c - `coursecheck update`: carry a new capture into the pages.
 *
 * A page (or program README, or program header) is pointed at the newest
 * evidence of its lesson and everything mechanical is rewritten: traced
 * numbers moved to their new values in the page's own format, the
 * literals of derivations and the numbers they produce, snippet blocks
 * from the current source, transcript excerpts from the aligned lines,
 * the facts of measured paragraphs, build blocks.  Nothing else changes.
 * What cannot be carried mechanically is listed for a person; a derived
 * ratio or difference whose stated direction became false is a claim flip
 * and is never rewritten.  Files are written through a temporary file and
 * a rename; --dry-run only prints the diff.
 */
#include "update.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmark-gfm-core-extensions.h>

#include "align.h"
#include "bank.h"
#include "check.h"
#include "cli.h"
#include "compare.h"
#include "expr.h"
#include "filewrite.h"
#include "prose.h"
#include "re.h"
#include "repo.h"
#include "util.h"

struct edit {
	size_t start, end; /* byte range of the old text */
	char *text;        /* what replaces it */
};

struct update {
	struct page_ctx ctx;
	const struct evfile *old, *now; /* the run the page quoted, the newest */
	struct alignment al;
	struct bank old_bank;
	struct edit *edits;
	size_t n_edits, cap_edits;
	size_t left;  /* items left for a person */
	size_t flips; /* claim flips */
};

/* ---- recording ------------------------------------------------------- */

static void add_edit(struct update *u, size_t start, size_t end, const char *text, size_t len)
{
	if (end - start == len && memcmp(u->ctx.tf.data + start, text, len) == 0)
		return; /* unchanged */
	u->edits = xgrow(u->edits, &u->cap_edits, u->n_edits + 1, sizeof *u->edits);
	u->edits[u->n_edits++] = (struct edit){start, end, xstrndup(text, len)};
}

static void leave(struct update *u, size_t off, const char *fmt, ...) PRINTF_LIKE(3, 4);

static void leave(struct update *u, size_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	struct diag_loc at = textfile_loc(&u->ctx.tf, off, 0);
	fprintf(stderr, "%s:%zu:%zu: left for a person: %s\n", u->ctx.path, at.line, at.col, msg);
	free(msg);
	u->left++;
}

/* ---- following a number from the old run to the new ------------------ */

/* The new value at the place of old bank entry e. */
static bool follow(const struct update *u, const struct bank_entry *e, struct num_token *now_tok, size_t *now_line)
{
	if (e->stdout_index == SIZE_MAX) {
		/* a header value: the same key in the new header */
		size_t len;
		const char *line = textfile_line(&u->old->ev.tf, e->line, &len);
		size_t klen = strcspn(line, ":");
		for (size_t i = 0; i < u->now->ev.n_fields; i++) {
			const struct evidence_field *f = &u->now->ev.fields[i];
			if (strlen(f->key) != klen || memcmp(f->key, line, klen) != 0)
				continue;
			size_t nl;
			const char *s = textfile_line(&u->now->ev.tf, f->line, &nl);
			struct num_token *t;
			size_t n = numtok_scan(s, nl, &t);
			bool ok = n > 0;
			if (ok) {
				*now_tok = t[0];
				*now_line = f->line;
			}
			free(t);
			return ok;
		}
		return false;
	}
	size_t idx = align_token_index(&u->old->ev, e->stdout_index, e->tok.start);
	size_t nk;
	if (idx == SIZE_MAX || !align_number(&u->al, &u->old->ev, &u->now->ev, e->stdout_index, idx, &nk, now_tok))
		return false;
	*now_line = u->now->ev.stdout_first + nk;
	return true;
}

static void move_number(struct update *u, const struct pnum *p, const struct bank_entry *e)
{
	struct num_token nt;
	size_t nl;
	if (!follow(u, e, &nt, &nl)) {
		char *claim = prose_text(p);
		leave(u, p->raw_off, "%s traced to %s:%zu, a place the new run does not have", claim, u->old->path, e->line);
		free(claim);
		return;
	}
	char buf[128];
	size_t n = numtok_format_like(&p->tok, p->text, nt.value, buf, sizeof buf);
	if (n == 0) {
		leave(u, p->raw_off, "cannot print the new value in this number's format");
		return;
	}
	add_edit(u, p->raw_off, p->raw_off + (p->tok.end - p->tok.start), buf, n);
}

/* ---- claims ------------------------------------------------------------ */

static struct re direction_re =
	RE_INIT("\\b(slower|faster|fewer|more|less|larger|smaller|wins|loses|beats|higher|lower)\\b", PCRE2_CASELESS);

/* The sentence around byte off of the page, as [*a, *b). */
static void sentence_of(const struct textfile *tf, size_t off, size_t *a, size_t *b)
{
	size_t s = off, e = off;
	while (s > 0 && !(tf->data[s - 1] == '.' && s < tf->len && (tf->data[s] == ' ' || tf->data[s] == '\n')) &&
	       !(tf->data[s - 1] == '\n' && s >= 2 && tf->data[s - 2] == '\n'))
		s--;
	while (e < tf->len && !(tf->data[e] == '.' && (e + 1 == tf->len || tf->data[e + 1] == ' ' || tf->data[e + 1] == '\n')) &&
	       !(tf->data[e] == '\n' && e + 1 < tf->len && tf->data[e + 1] == '\n'))
		e++;
	*a = s;
	*b = e < tf->len ? e + 1 : e;
}

/* A ratio (printed with x) crosses 1; a difference (an expression whose
 * last operation is a subtraction) crosses 0. */
static bool crosses(const struct pnum *p, const char *expr, size_t len, double was, double now, const char **what)
{
	if (strcmp(p->tok.unit, "x") == 0 || strcmp(p->tok.unit, "\xC3\x97") == 0) {
		*what = "ratio";
		return (was - 1) * (now - 1) < 0 || (was != 1 && now == 1);
	}
	bool difference = false;
	int depth = 0;
	for (size_t i = 0; i < len; i++) {
		depth += expr[i] == '(' ? 1 : expr[i] == ')' ? -1 : 0;
		if (depth == 0 && expr[i] == '-' && i > 0)
			difference = true;
	}
	*what = "difference";
	return difference && (was * now < 0 || (was != 0 && now == 0));
}

static void claim_flip(struct update *u, const struct pnum *p, double was, double now, const char *what)
{
	size_t a, b;
	sentence_of(&u->ctx.tf, p->raw_off, &a, &b);
	struct re_match g;
	if (!re_search(&direction_re, u->ctx.tf.data + a, b - a, 0, &g))
		return;
	char *claim = prose_text(p);
	struct diag *d = diag_begin(D_CLAIM_FLIP, prose_loc(&u->ctx, p, 0),
				    "the %s %s was %.4g and is now %.4g: the sentence's '%.*s' is no longer true", what,
				    claim, was, now, (int)(g.end[1] - g.start[1]), u->ctx.tf.data + a + g.start[1]);
	char *sentence = xstrndup(u->ctx.tf.data + a, b - a);
	for (char *c = sentence; *c; c++)
		if (*c == '\n')
			*c = ' ';
	diag_text(d, sentence);
	diag_hint(d, "rewrite the sentence for the new run; update leaves %s as it was", claim);
	diag_end(d);
	free(sentence);
	free(claim);
	u->flips++;
}

/* ---- derivations --------------------------------------------------------- */

static void update_derived(struct update *u, const struct pnum *p)
{
	size_t len;
	const char *arg = prose_annot_arg(p->annot, &len);
	size_t arg_raw = p->annot->raw_off + p->annot->marker.arg_start;
	struct expr_result r;
	if (expr_eval(arg, len, &r) != 0) {
		leave(u, p->raw_off, "its derivation does not evaluate: %s", r.err);
		expr_result_free(&r);
		return;
	}
	double was = r.value;
	struct buf expr = {0};
	size_t at = 0;
	bool ok = true;
	for (size_t i = 0; i < r.n_literals; i++) {
		const struct expr_literal *l = &r.literals[i];
		buf_append(&expr, arg + at, l->start - at);
		at = l->end;
		const struct bank_entry *e = NULL;
		bool needs = l->decimals > 0 || fabs(l->value) >= 100;
		if (!expr_literal_is_free(l->value) && needs)
			e = bank_find_value(&u->old_bank, l->value, l->decimals);
		struct num_token nt;
		size_t nl;
		if (!e || !follow(u, e, &nt, &nl)) {
			if (e)
				ok = false;
			buf_append(&expr, arg + l->start, l->end - l->start);
			continue;
		}
		char lit[64];
		int n = snprintf(lit, sizeof lit, "%.*f", nt.decimals, nt.value);
		buf_append(&expr, lit, (size_t)n);
		add_edit(u, arg_raw + l->start, arg_raw + l->end, lit, (size_t)n);
	}
	buf_append(&expr, arg + at, len - at);
	expr_result_free(&r);
	if (!ok) {
		leave(u, p->raw_off, "a literal of this derivation has no place in the new run");
		buf_free(&expr);
		return;
	}
	if (expr_eval(expr.s, expr.len, &r) != 0) {
		leave(u, p->raw_off, "the updated derivation does not evaluate: %s", r.err);
	} else {
		const char *what;
		if (crosses(p, expr.s, expr.len, was, r.value, &what)) {
			claim_flip(u, p, was, r.value, what);
		} else {
			char buf[128];
			size_t n = numtok_format_like(&p->tok, p->text, r.value, buf, sizeof buf);
			if (n)
				add_edit(u, p->raw_off, p->raw_off + (p->tok.end - p->tok.start), buf, n);
		}
	}
	expr_result_free(&r);
	buf_free(&expr);
}

/* ---- prose and tables ------------------------------------------------- */

static void update_number(struct update *u, const struct pnum *p, const struct bank_entry *forced)
{
	if (p->raw_off == SIZE_MAX)
		return;
	if (p->annot) {
		if (p->annot->marker.kind == MK_DERIVE && p->annot->raw_off != SIZE_MAX)
			update_derived(u, p);
		return; /* cite and ext do not follow this lesson's runs */
	}
	if (!forced && prose_skip_reason(&p->tok))
		return;
	const struct bank_entry *e = forced ? forced : bank_find(&u->old_bank, &p->tok);
	if (!e) {
		char *claim = prose_text(p);
		leave(u, p->raw_off, "%s is not in the old run either: not moved", claim);
		free(claim);
		return;
	}
	move_number(u, p, e);
}

static void update_block_numbers(struct update *u, cmark_node *node)
{
	struct seg *segs;
	size_t n_segs;
	struct pnum *nums;
	size_t n = prose_collect(&u->ctx, node, &segs, &n_segs, &nums);
	for (size_t i = 0; i < n; i++)
		update_number(u, &nums[i], NULL);
	free(nums);
	free(segs);
}

/* An evidence table row: its numbers rest on one old line, in order; each
 * follows its own place there. */
static void update_table(struct update *u, cmark_node *table)
{
	for (cmark_node *row = cmark_node_first_child(table); row; row = cmark_node_next(row)) {
		if (cmark_gfm_extensions_get_table_row_is_header(row))
			continue;
		struct pnum *all = NULL;
		size_t n_all = 0, cap = 0;
		struct seg **keep = NULL;
		size_t n_keep = 0;
		for (cmark_node *cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell)) {
			struct seg *segs;
			size_t n_segs;
			struct pnum *nums;
			size_t n = prose_collect(&u->ctx, cell, &segs, &n_segs, &nums);
			for (size_t i = 0; i < n; i++) {
				if (nums[i].annot) {
					update_number(u, &nums[i], NULL);
					continue;
				}
				all = xgrow(all, &cap, n_all + 1, sizeof *all);
				all[n_all++] = nums[i];
			}
			free(nums);
			keep = xrealloc(keep, (n_keep + 1) * sizeof *keep);
			keep[n_keep++] = segs;
		}
		/* the old line the row rests on */
		const struct bank_entry **at = xcalloc(n_all + 1, sizeof *at);
		bool found = false;
		for (size_t i = 0; i < u->old_bank.n && !found && n_all; i++) {
			const struct bank_entry *first = &u->old_bank.v[i];
			if (first->stdout_index == SIZE_MAX || !numtok_traces_to(&all[0].tok, &first->tok))
				continue;
			size_t k = 0;
			for (size_t j = i; j < u->old_bank.n && k < n_all && u->old_bank.v[j].line == first->line; j++)
				if (numtok_traces_to(&all[k].tok, &u->old_bank.v[j].tok))
					at[k++] = &u->old_bank.v[j];
			found = k == n_all;
		}
		if (!found && n_all)
			leave(u, all[0].raw_off, "this table row is on no line of the old run: not moved");
		for (size_t i = 0; found && i < n_all; i++)
			update_number(u, &all[i], at[i]);
		free(at);
		free(all);
		for (size_t i = 0; i < n_keep; i++)
			free(keep[i]);
		free(keep);
	}
}

/* ---- measured paragraphs --------------------------------------------- */

static void update_facts(struct update *u, const char *s, size_t len, const size_t *map, size_t base)
{
	const char *old_gpu = evidence_get(&u->old->ev, "gpu", NULL);
	struct fact *facts;
	size_t n = facts_find(s, len, old_gpu, &facts);
	for (size_t i = 0; i < n; i++) {
		const struct fact *f = &facts[i];
		size_t a = map ? map[f->start] : base + f->start;
		size_t b = map ? map[f->end - 1] + 1 : base + f->end;
		u->ctx.consumed = xgrow(u->ctx.consumed, &u->ctx.cap_consumed, u->ctx.n_consumed + 1, sizeof *u->ctx.consumed);
		u->ctx.consumed[u->ctx.n_consumed++] = (struct fact_range){a, b};
		if (f->kind == FACT_FLAG) {
			const char *build = evidence_get(&u->now->ev, "build", NULL);
			if (!fact_flag_in_build(build, s + f->start, f->end - f->start))
				leave(u, a, "flag '%.*s' is not in the new build command", (int)(f->end - f->start), s + f->start);
			continue;
		}
		char want[256];
		size_t wn = fact_expected(&u->now->ev, f->kind, want, sizeof want);
		if (b - a != f->end - f->start) {
			leave(u, a, "this %s wraps across lines: rewrite it by hand", fact_key(f->kind));
			continue;
		}
		if (wn)
			add_edit(u, a, b, want, wn);
	}
	free(facts);
}

/* ---- code blocks ------------------------------------------------------- */

/* The raw byte range of a fenced block's content lines, when the page
 * holds them as they are (not inside a block quote). */
static bool content_range(struct update *u, const struct page_block *b, size_t *from, size_t *to, size_t *n_lines)
{
	size_t n = 0;
	for (size_t i = 0; i < b->code_len; i++)
		n += b->code[i] == '\n';
	const struct textfile *tf = &u->ctx.tf;
	if (b->code_first_line + n > tf->n_lines + 1)
		return false;
	*from = page_line_offset(&u->ctx.pg, b->code_first_line);
	*to = page_line_offset(&u->ctx.pg, b->code_first_line + n);
	*n_lines = n;
	/* the literal must be the raw lines, less a common indentation */
	size_t p = 0;
	for (size_t k = 0; k < n; k++) {
		size_t len;
		const char *raw = textfile_line(tf, b->code_first_line + k, &len);
		const char *nl = memchr(b->code + p, '\n', b->code_len - p);
		size_t ll = (size_t)(nl - (b->code + p));
		if (ll > len || memcmp(raw + len - ll, b->code + p, ll) != 0)
			return false;
		p += ll + 1;
	}
	return true;
}

static size_t indent_of(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

static void update_snippet(struct update *u, const struct page_block *b)
{
	const char *arg = b->marker_arg;
	const char *hash = strchr(arg, '#');
	struct program *prog = u->ctx.prog;
	char *path = hash ? xstrndup(arg, (size_t)(hash - arg)) : NULL;
	if (path)
		prog = course_program(path);
	free(path);
	const struct snippet *sn = prog && prog->state == LOAD_OK ? snippet_find(&prog->snippets, hash ? hash + 1 : arg) : NULL;
	size_t from, to, n;
	if (!sn || !content_range(u, b, &from, &to, &n)) {
		leave(u, page_line_offset(&u->ctx.pg, b->line), "snippet block not rewritten (no such snippet, or the "
								 "block sits inside a container)");
		return;
	}
	/* the page's own indentation of the block, kept */
	size_t len;
	const char *first = textfile_line(&u->ctx.tf, b->code_first_line, &len);
	size_t page_indent = n ? indent_of(first, len) : 0;
	struct lines src = {0};
	for (size_t i = 0; i < sn->n_lines; i++) {
		const char *s = textfile_line(&prog->tf, sn->lines[i], &len);
		lines_push(&src, s, len, sn->lines[i]);
	}
	lines_normalise(&src);
	struct buf out = {0};
	for (size_t i = 0; i < src.n; i++) {
		if (src.v[i].len)
			buf_append(&out, first, page_indent);
		buf_append(&out, src.v[i].s, src.v[i].len);
		buf_putc(&out, '\n');
	}
	add_edit(u, from, to, out.s ? out.s : "", out.len);
	buf_free(&out);
	lines_free(&src);
}

static void update_build(struct update *u, const struct page_block *b)
{
	size_t from, to, n;
	if (!content_range(u, b, &from, &to, &n) || n != 1) {
		leave(u, page_line_offset(&u->ctx.pg, b->line), "build block not rewritten (not one plain line)");
		return;
	}
	size_t len;
	const char *line = textfile_line(&u->ctx.tf, b->code_first_line, &len);
	const char *cmd = evidence_get(&u->now->ev, "build", NULL);
	char *text = xasprintf("%.*s%s\n", (int)indent_of(line, len), line, cmd);
	add_edit(u, from, to, text, strlen(text));
	free(text);
}

/* Each excerpt line follows its old line to the aligned new line. */
static void update_transcript(struct update *u, const struct page_block *b)
{
	struct lines page = {0}, hay = {0};
	lines_split(&page, b->code, b->code_len, b->code_first_line);
	lines_normalise(&page);
	for (size_t k = 0; k < u->old->ev.n_stdout; k++) {
		size_t len;
		const char *s = evidence_stdout(&u->old->ev, k, &len);
		lines_push(&hay, s, len, k);
	}
	size_t first, *pos = xmalloc((page.n + 1) * sizeof *pos);
	size_t from, to, n;
	if (!content_range(u, b, &from, &to, &n) || !lines_find_excerpt(&page, &hay, &first, pos)) {
		leave(u, page_line_offset(&u->ctx.pg, b->line), "transcript excerpt not rewritten (not in the old run as it stands)");
		goto done;
	}
	for (size_t i = 0; i < page.n; i++) {
		if (pos[i] == SIZE_MAX)
			continue;
		size_t k = pos[i], nk = u->al.old_to_new[k];
		size_t raw_len;
		const char *raw = textfile_line(&u->ctx.tf, page.v[i].src_line, &raw_len);
		size_t line_off = page_line_offset(&u->ctx.pg, page.v[i].src_line);
		bool broken = nk == SIZE_MAX || (i > 0 && pos[i - 1] != SIZE_MAX && u->al.old_to_new[pos[i - 1]] != nk - 1);
		if (broken) {
			leave(u, line_off, "this transcript line has no consecutive place in the new run: quote it again");
			continue;
		}
		size_t ol, nl;
		const char *o = evidence_stdout(&u->old->ev, k, &ol);
		const char *nw = evidence_stdout(&u->now->ev, nk, &nl);
		/* the page shows the old line less some indentation d */
		size_t lead = indent_of(o, ol), d = 0;
		while (d <= lead && !(raw_len >= ol - d && memcmp(raw + raw_len - (ol - d), o + d, ol - d) == 0 &&
				      str_is_blank(raw, raw_len - (ol - d))))
			d++;
		if (d > lead) {
			leave(u, line_off, "this transcript line does not match its old line exactly");
			continue;
		}
		size_t cut = d < indent_of(nw, nl) ? d : indent_of(nw, nl);
		add_edit(u, line_off + raw_len - (ol - d), line_off + raw_len, nw + cut, nl - cut);
	}
done:
	free(pos);
	lines_free(&page);
	lines_free(&hay);
}

/* ---- applying ------------------------------------------------------------ */

static int by_start(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	return (x->start > y->start) - (x->start < y->start);
}

static char *apply_edits(struct update *u, size_t *out_len)
{
	if (u->n_edits > 1) /* qsort(NULL, 0) is undefined */
		qsort(u->edits, u->n_edits, sizeof *u->edits, by_start);
	struct buf out = {0};
	size_t at = 0;
	for (size_t i = 0; i < u->n_edits; i++) {
		const struct edit *e = &u->edits[i];
		if (e->start < at) {
			leave(u, e->start, "two rewrites overlap here; the second was dropped");
			continue;
		}
		buf_append(&out, u->ctx.tf.data + at, e->start - at);
		buf_puts(&out, e->text);
		at = e->end;
	}
	buf_append(&out, u->ctx.tf.data + at, u->ctx.tf.len - at);
	*out_len = out.len;
	return buf_detach(&out);
}

/* Writes through the one atomic writer (filewrite.h): a reader sees the
 * old page or the new one, never half of one; the mode is kept and a
 * link is written through to its target inside the repository. */
static int write_atomically(const char *relpath, const char *text, size_t len)
{
	char *why = NULL;
	int rc = filewrite_replace_repo(relpath, text, len, &why);
	if (rc != 0) {
		fprintf(stderr, "coursecheck update: %s\n", why);
		free(why);
	}
	return rc;
}

static void print_diff(const char *path, const char *old_text, size_t old_len, const char *new_text, size_t new_len)
{
	struct lines a = {0}, b = {0};
	lines_split(&a, old_text, old_len, 1);
	lines_split(&b, new_text, new_len, 1);
	char *an = xasprintf("a/%s", path), *bn = xasprintf("b/%s", path);
	char *diff = lines_diff(&a, an, &b, bn);
	fputs(diff, stdout);
	free(diff);
	free(an);
	free(bn);
	lines_free(&a);
	lines_free(&b);
}

/* ---- one file -------------------------------------------------------- */

static void release(struct update *u)
{
	for (size_t i = 0; i < u->n_edits; i++)
		free(u->edits[i].text);
	free(u->edits);
	alignment_free(&u->al);
	bank_free(&u->old_bank);
	page_free(&u->ctx.pg);
	frontmatter_free(&u->ctx.fm);
	textfile_free(&u->ctx.tf);
	free(u->ctx.consumed);
	free(u->ctx.lesson);
}

/* The run a file quoted and the newest of its lesson.  For a README without
 * front matter (which always means the newest) the old run is the one
 * before it. */
static bool pick_runs(struct update *u, const char *named)
{
	char **paths;
	size_t n = repo_list_evidence(u->ctx.lesson, &paths);
	if (n == 0) {
		fprintf(stderr, "coursecheck update: lesson '%s' has no evidence\n", u->ctx.lesson);
		return false;
	}
	const char *old = named ? named : paths[n >= 2 ? n - 2 : n - 1];
	u->old = course_evidence(old);
	u->now = course_evidence(paths[n - 1]);
	repo_free_list(paths, n);
	if (u->old->state != LOAD_OK || u->now->state != LOAD_OK) {
		fprintf(stderr, "coursecheck update: %s: the evidence cannot be used (run 'coursecheck verify' to see why)\n",
			u->ctx.path);
		return false;
	}
	align_runs(&u->old->ev, &u->now->ev, &u->al);
	bank_add_evidence(&u->old_bank, u->old);
	return true;
}

static bool load_page(struct update *u, const char *relpath)
{
	char *fs;
	const char *why;
	u->ctx.path = relpath;
	if (repo_resolve(relpath, &fs, &why) != REPO_OK || textfile_read(fs, relpath, &u->ctx.tf, &why) != 0) {
		fprintf(stderr, "coursecheck update: cannot read %s: %s\n", relpath, why);
		free(fs);
		return false;
	}
	free(fs);
	u->ctx.is_readme = strncmp(relpath, "programs/", 9) == 0;
	diag_mute(true);
	frontmatter_parse(&u->ctx.tf, !u->ctx.is_readme, &u->ctx.fm);
	page_parse(&u->ctx.tf, u->ctx.fm.first_body_line, &u->ctx.pg);
	diag_mute(false);
	if (u->ctx.fm.lesson) {
		u->ctx.lesson = xstrdup(u->ctx.fm.lesson);
	} else if (u->ctx.is_readme) {
		const char *p = relpath + 9;
		u->ctx.lesson = xstrndup(p, strcspn(p, "/"));
	} else {
		fprintf(stderr, "coursecheck update: %s has no lesson in its front matter\n", relpath);
		return false;
	}
	const char *named = u->ctx.fm.n_evidence ? u->ctx.fm.evidence[0].path : NULL;
	/* the first capture: the page is bound to the newest run, which is
	 * then both the old run and the new one */
	char *newest = NULL;
	if (named && strcmp(named, FM_EVIDENCE_NOT_YET) == 0) {
		named = newest = repo_newest_evidence(u->ctx.lesson);
		if (!newest) {
			fprintf(stderr, "coursecheck update: lesson '%s' has no evidence yet: capture it first\n",
				u->ctx.lesson);
			return false;
		}
	}
	bool picked = pick_runs(u, named);
	free(newest);
	if (!picked)
		return false;
	size_t count;
	char *prog = u->ctx.fm.program ? xstrdup(u->ctx.fm.program) : course_lesson_program(u->ctx.lesson, &count);
	if (prog) {
		u->ctx.prog = course_program(prog);
		free(prog);
	}
	return true;
}

static void update_page_body(struct update *u)
{
	struct page_ctx *ctx = &u->ctx;
	bool first = ctx->fm.n_evidence && strcmp(ctx->fm.evidence[0].path, FM_EVIDENCE_NOT_YET) == 0;
	if (ctx->fm.n_evidence && (first || strcmp(u->old->path, u->now->path) != 0)) {
		const struct fm_evidence *fe = &ctx->fm.evidence[0];
		size_t off = page_line_offset(&ctx->pg, fe->line) + fe->col - 1;
		add_edit(u, off, off + strlen(fe->path), u->now->path, strlen(u->now->path));
	}
	/* measured facts first: the numbers they consume are not prose */
	for (size_t i = 0; i < ctx->pg.n_blocks; i++) {
		const struct page_block *b = &ctx->pg.blocks[i];
		if (b->kind == BK_TEXT && b->marker.kind == MK_MEASURED && !b->marker_arg[0]) {
			size_t from = page_line_offset(&ctx->pg, b->line), to = page_line_offset(&ctx->pg, b->end_line + 1);
			update_facts(u, ctx->tf.data + from, to - from, NULL, from);
		}
	}
	for (size_t i = 0; i < ctx->pg.n_blocks; i++) {
		const struct page_block *b = &ctx->pg.blocks[i];
		if (b->marker_arg[0] && b->marker.kind != MK_SNIPPET && b->marker.kind != MK_QUOTE)
			continue; /* a labelled run other than the default is not this update's */
		switch (b->kind) {
		case BK_TEXT:
			update_block_numbers(u, b->node);
			break;
		case BK_TABLE:
			if (b->marker.kind == MK_TABLE)
				update_table(u, b->node);
			else
				for (cmark_node *row = cmark_node_first_child(b->node); row; row = cmark_node_next(row))
					for (cmark_node *c = cmark_node_first_child(row); c; c = cmark_node_next(c))
						update_block_numbers(u, c);
			break;
		case BK_CODE:
			if (b->marker.kind == MK_SNIPPET)
				update_snippet(u, b);
			else if (b->marker.kind == MK_TRANSCRIPT)
				update_transcript(u, b);
			else if (b->marker.kind == MK_BUILD)
				update_build(u, b);
			break;
		}
	}
}

/* A program's header: the facts of its Verified paragraph and the
 * evidence path it names. */
static bool update_program_header(struct update *u, const char *relpath)
{
	struct page_ctx *ctx = &u->ctx;
	ctx->path = relpath;
	const char *p = relpath + 9;
	ctx->lesson = xstrndup(p, strcspn(p, "/"));
	struct program *prog = course_program(relpath);
	if (prog->state != LOAD_OK) {
		fprintf(stderr, "coursecheck update: cannot read %s: %s\n", relpath, prog->why ? prog->why : "malformed");
		return false;
	}
	textfile_from_memory(prog->tf.data, prog->tf.len, relpath, &ctx->tf);
	const struct proghdr *h = &prog->hdr;
	if (!h->verified) {
		fprintf(stderr, "coursecheck update: %s has no Verified paragraph to update\n", relpath);
		return false;
	}
	size_t ps, pe;
	char *named = course_verified_path(h, &ps, &pe) ? xstrndup(h->verified + ps, pe - ps) : NULL;
	bool ok = pick_runs(u, named);
	if (ok) {
		update_facts(u, h->verified, h->verified_len, h->verified_src, 0);
		if (named && strcmp(named, u->now->path) != 0) {
			size_t a = h->verified_src[ps], b = h->verified_src[pe - 1] + 1;
			add_edit(u, a, b, u->now->path, strlen(u->now->path));
		}
	}
	free(named);
	return ok;
}

static int update_file(const char *relpath, bool dry_run)
{
	struct update u = {0};
	size_t len = strlen(relpath);
	bool program = len > 3 && strcmp(relpath + len - 3, ".cu") == 0 && strncmp(relpath, "programs/", 9) == 0;
	bool ok = program ? update_program_header(&u, relpath) : load_page(&u, relpath);
	if (!ok) {
		release(&u);
		return 2;
	}
	if (!program)
		update_page_body(&u);
	size_t new_len;
	char *text = apply_edits(&u, &new_len);
	int status = 0;
	if (new_len != u.ctx.tf.len || memcmp(text, u.ctx.tf.data, new_len) != 0) {
		print_diff(relpath, u.ctx.tf.data, u.ctx.tf.len, text, new_len);
		fflush(stdout); /* the diff before the summary, however the streams are joined */
		if (!dry_run && write_atomically(relpath, text, new_len) != 0)
			status = 2;
	}
	fprintf(stderr, "coursecheck update: %s: %s -> %s: %zu rewrite%s%s, %zu left for a person, %zu claim flip%s\n",
		relpath, u.old->path, u.now->path, u.n_edits, u.n_edits == 1 ? "" : "s", dry_run ? " (dry run)" : "",
		u.left, u.flips, u.flips == 1 ? "" : "s");
	if (!status && (u.left || u.flips))
		status = 1;
	free(text);
	release(&u);
	return status;
}

int cli_update(int argc, char **argv)
{
	bool dry_run = false;
	const char *root = ".";
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--dry-run") == 0) {
			dry_run = true;
		} else if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) {
			root = argv[++i];
		} else {
			fprintf(stderr, "coursecheck update: unknown option '%s'\n"
					"usage: coursecheck update [--dry-run] [--root DIR] FILE...\n"
					"  FILE: a page, a program README or a program (its Verified header)\n",
				argv[i]);
			return 2;
		}
	}
	if (i == argc) {
		fputs("usage: coursecheck update [--dry-run] [--root DIR] FILE...\n", stderr);
		return 2;
	}
	cli_setup_diag();
	if (repo_open(root) != 0) {
		fprintf(stderr, "coursecheck update: cannot open repository '%s': %s\n", root, strerror(errno));
		return 2;
	}
	int status = 0;
	for (; i < argc; i++) {
		int rc = update_file(argv[i], dry_run);
		if (rc > status)
			status = rc;
	}
	cli_release();
	return status;
}

/*
 * update_blocks.c - update's rewrites of what is not a single number:
 * the facts of a measured paragraph (or a program's Verified paragraph)
 * from the new run's header, and the fenced blocks: a snippet from the
 * program's current source, a build block from the run's build command,
 * a transcript excerpt line by line to the aligned lines of the new run.
 * A block that cannot be rewritten as it stands (inside a container, not
 * in the old run) is left for a person.
 *
 * Interface: update_facts, update_snippet, update_build,
 * update_transcript (update_impl.h), called by update.c.  Ownership: the
 * struct update is the caller's; the edits made here are recorded in it
 * (update_add_edit copies their text), everything else is freed before
 * each function returns.
 */
#include "update_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "facts.h"
#include "snippet.h"

/* ---- measured paragraphs --------------------------------------------- */

void update_facts(struct update *u, const char *s, size_t len, const size_t *map, size_t base)
{
	const char *old_gpu = evidence_get(u->old->ev, "gpu", NULL);
	struct fact *facts;
	size_t n = facts_find(s, len, old_gpu, &facts);
	for (size_t i = 0; i < n; i++) {
		const struct fact *f = &facts[i];
		size_t a = map ? map[f->start] : base + f->start;
		size_t b = map ? map[f->end - 1] + 1 : base + f->end;
		u->ctx.consumed = xgrow(u->ctx.consumed, &u->ctx.cap_consumed, u->ctx.n_consumed + 1, sizeof *u->ctx.consumed);
		u->ctx.consumed[u->ctx.n_consumed++] = (struct fact_range){a, b};
		if (f->kind == FACT_FLAG) {
			const char *build = evidence_get(u->now->ev, "build", NULL);
			if (!fact_flag_in_build(build, s + f->start, f->end - f->start))
				update_leave(u, a, "flag '%.*s' is not in the new build command", (int)(f->end - f->start), s + f->start);
			continue;
		}
		char want[256];
		size_t wn = fact_expected(u->now->ev, f->kind, want, sizeof want);
		if (b - a != f->end - f->start) {
			update_leave(u, a, "this %s wraps across lines: rewrite it by hand", fact_key(f->kind));
			continue;
		}
		if (wn)
			update_add_edit(u, a, b, want, wn);
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

void update_snippet(struct update *u, const struct page_block *b)
{
	const char *arg = b->marker_arg;
	const char *hash = strchr(arg, '#');
	struct program *prog = u->ctx.prog;
	char *path = hash ? pagectx_snippet_path(&u->ctx, arg, (size_t)(hash - arg)) : NULL;
	if (path)
		prog = course_program(path);
	free(path);
	const struct snippet *sn = prog && prog->state == LOAD_OK ? snippet_find(course_program_snippets(prog), hash ? hash + 1 : arg) : NULL;
	size_t from, to, n;
	if (!sn || !content_range(u, b, &from, &to, &n)) {
		update_leave(u, page_line_offset(&u->ctx.pg, b->line), "snippet block not rewritten (no such snippet, or the "
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
	update_add_edit(u, from, to, out.s ? out.s : "", out.len);
	buf_free(&out);
	lines_free(&src);
}

void update_build(struct update *u, const struct page_block *b)
{
	size_t from, to, n;
	if (!content_range(u, b, &from, &to, &n) || n != 1) {
		update_leave(u, page_line_offset(&u->ctx.pg, b->line), "build block not rewritten (not one plain line)");
		return;
	}
	size_t len;
	const char *line = textfile_line(&u->ctx.tf, b->code_first_line, &len);
	const char *cmd = evidence_get(u->now->ev, "build", NULL);
	char *text = xasprintf("%.*s%s\n", (int)indent_of(line, len), line, cmd);
	update_add_edit(u, from, to, text, strlen(text));
	free(text);
}

/* Each excerpt line follows its old line to the aligned new line. */
void update_transcript(struct update *u, const struct page_block *b)
{
	struct lines page = {0}, hay = {0};
	lines_split(&page, b->code, b->code_len, b->code_first_line);
	lines_normalise(&page);
	for (size_t k = 0; k < u->old->ev->n_stdout; k++) {
		size_t len;
		const char *s = evidence_stdout(u->old->ev, k, &len);
		lines_push(&hay, s, len, k);
	}
	size_t first, *pos = xmalloc((page.n + 1) * sizeof *pos);
	size_t from, to, n;
	if (!content_range(u, b, &from, &to, &n) || !lines_find_excerpt(&page, &hay, &first, pos)) {
		update_leave(u, page_line_offset(&u->ctx.pg, b->line), "transcript excerpt not rewritten (not in the old run as it stands)");
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
			update_leave(u, line_off, "this transcript line has no consecutive place in the new run: quote it again");
			continue;
		}
		size_t ol, nl;
		const char *o = evidence_stdout(u->old->ev, k, &ol);
		const char *nw = evidence_stdout(u->now->ev, nk, &nl);
		/* the page shows the old line less some indentation d */
		size_t lead = indent_of(o, ol), d = 0;
		while (d <= lead && !(raw_len >= ol - d && memcmp(raw + raw_len - (ol - d), o + d, ol - d) == 0 &&
				      str_is_blank(raw, raw_len - (ol - d))))
			d++;
		if (d > lead) {
			update_leave(u, line_off, "this transcript line does not match its old line exactly");
			continue;
		}
		size_t cut = d < indent_of(nw, nl) ? d : indent_of(nw, nl);
		update_add_edit(u, line_off + raw_len - (ol - d), line_off + raw_len, nw + cut, nl - cut);
	}
done:
	free(pos);
	lines_free(&page);
	lines_free(&hay);
}

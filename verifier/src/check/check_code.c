/* check_code.c - see check.h: code blocks (snippet, transcript, build,
 * quote) and measured paragraphs. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare.h"
#include "util.h"

static struct diag_loc block_loc(const struct page_ctx *ctx, const struct page_block *b, size_t line)
{
	return textfile_loc_line(&ctx->tf, line ? line : b->line, line ? 1 : 0, 0);
}

static void page_lines(const struct page_block *b, struct lines *out)
{
	size_t len = b->code_len;
	lines_split(out, b->code, len, b->code_first_line);
	lines_normalise(out);
}

/* The first page line where the two normalised sides part. */
static size_t first_difference(const struct lines *page, const struct lines *src, size_t *src_line)
{
	size_t i = 0;
	while (i < page->n && i < src->n && page->v[i].len == src->v[i].len &&
	       memcmp(page->v[i].s, src->v[i].s, page->v[i].len) == 0)
		i++;
	*src_line = i < src->n ? src->v[i].src_line : src->n ? src->v[src->n - 1].src_line : 0;
	return i < page->n ? page->v[i].src_line : page->n ? page->v[page->n - 1].src_line : 0;
}

/* A block that is the snippet's run of bytes exactly (a copy, the usual
 * case) splits into the very lines the snippet has, so the two are equal
 * under any normalisation: told without splitting, trimming or comparing
 * a line.  False tells nothing (snippet_lines_equal decides);
 * test_snippet.c checks the run against the snippet's lines. */
static bool copied_verbatim(const struct page_block *b, const struct textfile *prog, const struct snippet *sn)
{
	const char *run;
	size_t len;
	return snippet_run(prog, sn, &run, &len) && len == b->code_len && memcmp(run, b->code, len) == 0;
}

/* The comparison rule on the two sides' lines (compare.h): page and src
 * receive them, normalised, for the diff when they differ. */
static bool snippet_lines_equal(const struct page_block *b, const struct textfile *prog, const struct snippet *sn,
				struct lines *page, struct lines *src)
{
	page_lines(b, page);
	src->v = xgrow(src->v, &src->cap, sn->n_lines, sizeof *src->v); /* one allocation for the lines pushed below */
	for (size_t i = 0; i < sn->n_lines; i++) {
		size_t len;
		const char *s = textfile_line(prog, sn->lines[i], &len);
		lines_push(src, s, len, sn->lines[i]);
	}
	lines_normalise(src);
	return lines_equal(page, src);
}

static void check_snippet(struct page_ctx *ctx, struct page_block *b)
{
	const char *arg = b->marker_arg;
	const char *hash = strchr(arg, '#');
	struct program *prog = ctx->prog;
	char *name = xstrdup(hash ? hash + 1 : arg);
	struct diag_loc at = textfile_loc_line(&ctx->tf, b->marker_line, b->marker_col, 0);
	if (hash) {
		char *path = pagectx_snippet_path(ctx, arg, (size_t)(hash - arg));
		prog = course_program(path);
		if (course_report_unusable(prog->state, prog->why, path, at, "snippet source") || prog->state != LOAD_OK)
			prog = NULL; /* not UTF-8: refused where it was read */
		free(path);
	}
	if (!prog) {
		if (!hash && !ctx->fm.program)
			diag_report(D_SNIPPET_MISSING, at, "snippet '%s' has no program to come from", name);
		ledger_add(ctx->ledger, LG_FAILED, b->line, 1, "code block", "snippet %s: no program", name);
		free(name);
		return;
	}
	const struct snippet_set *set = course_program_snippets(prog);
	const struct snippet *sn = snippet_find(set, name);
	if (!sn) {
		struct diag *d = diag_begin(D_SNIPPET_MISSING, at, "program '%s' has no snippet '%s'", prog->path, name);
		struct buf names = {0};
		for (size_t i = 0; i < set->n; i++)
			buf_printf(&names, "%s%s", i ? ", " : "", set->v[i].name);
		diag_hint(d, "%s%s", set->n ? "its snippets are: " : "it defines no snippet: add "
										 "'// snippet: NAME' and '// end snippet' around the code",
			  names.s ? names.s : "");
		buf_free(&names);
		diag_end(d);
		ledger_add(ctx->ledger, LG_FAILED, b->line, 1, "code block", "snippet %s: missing in %s", name, prog->path);
		free(name);
		return;
	}
	diag_checks_add(1);
	struct lines page = {0}, src = {0};
	if (copied_verbatim(b, &prog->tf, sn) || snippet_lines_equal(b, &prog->tf, sn, &page, &src)) {
		struct ledger_entry *le = ledger_add(ctx->ledger, LG_CODE, b->line, 1, "code block", "snippet '%s' of %s:%zu",
						     name, prog->path, sn->start_line);
		if (sn->n_lines)
			ledger_ref(le, prog->path, sn->lines[0], sn->lines[sn->n_lines - 1], 0, 0, "snippet '%s'", name);
	} else {
		size_t src_line, line = first_difference(&page, &src, &src_line);
		struct diag *d = diag_begin(D_SNIPPET_DRIFT, block_loc(ctx, b, line),
					    "code block differs from snippet '%s' of %s", name, prog->path);
		diag_note(d, textfile_loc_line(&prog->tf, src_line, 0, 0), "the snippet's text%s",
			  sn->end_line ? "" : " (never closed)");
		char *a = xasprintf("%s (snippet %s)", prog->path, name);
		char *diff = lines_diff(&src, a, &page, ctx->path);
		diag_text(d, diff);
		free(diff);
		free(a);
		diag_hint(d, "copy the snippet again, or run 'coursecheck update %s'", ctx->path);
		diag_end(d);
		struct ledger_entry *le = ledger_add(ctx->ledger, LG_FAILED, b->line, 1, "code block",
						     "snippet '%s' of %s: differs", name, prog->path);
		if (sn->n_lines)
			ledger_ref(le, prog->path, sn->lines[0], sn->lines[sn->n_lines - 1], 0, 0, "snippet '%s'", name);
	}
	lines_free(&page);
	lines_free(&src);
	free(name);
}

/* The stream of each evidence run a page's transcripts quote, split and
 * indexed once for the page (not once for each transcript block). */
struct stdout_index {
	const struct evfile *ev;
	const struct evidence_run *run;
	bool err;
	struct lines hay;
	struct lines_index ix;
};

struct code_cache {
	struct stdout_index *v;
	size_t n, cap;
};

static struct stdout_index *stdout_of(struct code_cache *c, const struct evfile *ev,
				      const struct transcript_source *src)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].ev == ev && c->v[i].run == src->run && c->v[i].err == src->err)
			return &c->v[i];
	c->v = xgrow(c->v, &c->cap, c->n + 1, sizeof *c->v);
	struct stdout_index *x = &c->v[c->n++];
	memset(x, 0, sizeof *x);
	x->ev = ev;
	x->run = src->run;
	x->err = src->err;
	const struct evidence_run *run = src->run;
	size_t n_lines = src->err ? run->n_stderr : run->n_stdout;
	size_t first_line = src->err ? run->stderr_first : run->stdout_first;
	x->hay.v = xgrow(x->hay.v, &x->hay.cap, n_lines, sizeof *x->hay.v); /* one allocation for them all */
	for (size_t k = 0; k < n_lines; k++) {
		size_t len;
		const char *s = evidence_run_line(ev->ev, run, src->err, k, &len);
		lines_push(&x->hay, s, len, first_line + k);
	}
	lines_index_build(&x->ix, &x->hay);
	return x;
}

static void code_cache_free(struct code_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		lines_index_free(&c->v[i].ix);
		lines_free(&c->v[i].hay);
	}
	free(c->v);
}

/* A block that needs evidence the page does not have: before the
 * lesson's first capture it is waiting, not failed (the page's one
 * evidence-not-yet line says so); otherwise the errors above say why. */
static void ledger_add_unchecked(struct page_ctx *ctx, size_t line, const char *what)
{
	if (ctx->no_evidence_yet)
		ledger_add(ctx->ledger, LG_SKIPPED, line, 1, what, "not checked: the lesson awaits its first capture");
	else
		ledger_add(ctx->ledger, LG_FAILED, line, 1, what, "no usable evidence");
}

/* The index keeps the cores of the excerpts' lines: bytes of the page's
 * code blocks, which outlive it. */
static void check_transcript(struct page_ctx *ctx, struct page_block *b, struct code_cache *cache)
{
	struct lines page_v = {0}, *page = &page_v;
	struct transcript_source src;
	struct evfile *ev = transcript_source_find(ctx, b, &src);
	if (!ev) {
		ledger_add_unchecked(ctx, b->line, "transcript");
		return;
	}
	page_lines(b, page);
	struct stdout_index *x = stdout_of(cache, ev, &src);
	const struct lines hay = x->hay;
	diag_checks_add(1);
	size_t first;
	size_t *pos = xcalloc(page->n ? page->n : 1, sizeof *pos);
	if (page->n == 0) {
		diag_report(D_TRANSCRIPT_DRIFT, block_loc(ctx, b, 0), "transcript block is empty");
	} else if (lines_find_excerpt_in(page, &x->ix, &first, pos)) {
		struct ledger_entry *le = ledger_add(ctx->ledger, LG_CODE, b->line, 1, "transcript", "%s:%zu%s", ev->path,
						     hay.v[first].src_line, src.shown);
		size_t last = first; /* the excerpt's last quoted line, for review */
		for (size_t i = 0; i < page->n; i++)
			if (pos[i] != SIZE_MAX && pos[i] > last)
				last = pos[i];
		ledger_ref(le, ev->path, hay.v[first].src_line, hay.v[last].src_line, 0, 0, NULL);
	} else if (diag_quiet()) {
		/* past the file's cap: counted, without the search for the closest run */
		diag_report(D_TRANSCRIPT_DRIFT, block_loc(ctx, b, 0), "transcript excerpt is not in the %s of %s",
			    src.shown[0] ? src.what : "stdout", ev->path);
		ledger_add(ctx->ledger, LG_FAILED, b->line, 1, "transcript", "not in %s%s", ev->path, src.shown);
	} else {
		struct lines *pg_lines = page;
		/* show the one segment (between "..." lines) that drifted */
		size_t seg_from, seg_to, near_len;
		lines_excerpt_miss(pg_lines, &hay, &seg_from, &seg_to, &first, &near_len);
		struct lines seg = {0}, near = {0};
		for (size_t i = seg_from; i < seg_to; i++)
			lines_push(&seg, pg_lines->v[i].s, pg_lines->v[i].len, pg_lines->v[i].src_line);
		for (size_t i = 0; i < near_len && first + i < hay.n; i++)
			lines_push(&near, hay.v[first + i].s, hay.v[first + i].len, hay.v[first + i].src_line);
		lines_normalise(&seg);
		lines_normalise(&near);
		/* located where the minimal diff first parts the two: a line
		 * missing from the page is reported at the page line after it */
		size_t ai, bi, src_line = 0, line = 0;
		if (lines_first_change(&near, &seg, &ai, &bi)) {
			line = seg.n ? seg.v[bi < seg.n ? bi : seg.n - 1].src_line : 0;
			src_line = near.n ? near.v[ai < near.n ? ai : near.n - 1].src_line : 0;
		} else {
			line = first_difference(&seg, &near, &src_line);
		}
		struct diag *d = diag_begin(D_TRANSCRIPT_DRIFT, block_loc(ctx, b, line),
					    "transcript excerpt is not in the %s%s of %s", src.shown[0] ? src.what : "stdout",
					    "", ev->path);
		if (hay.n)
			diag_note(d, textfile_loc_line(&ev->ev->tf, src_line ? src_line : hay.v[first].src_line, 0, 0),
				  "the closest run of lines");
		else
			diag_note(d, textfile_loc_line(&ev->ev->tf, src.err ? src.run->stderr_line : src.run->stdout_line, 0, 0),
				  "the recorded %s is empty", src.err ? "stderr" : "stdout");
		char *diff = lines_diff(&near, ev->path, &seg, ctx->path);
		diag_text(d, diff);
		free(diff);
		diag_hint(d, "quote the lines as the evidence has them ('...' alone on a line stands for omitted "
			     "lines), or run 'coursecheck update %s'",
			  ctx->path);
		diag_end(d);
		lines_free(&seg);
		lines_free(&near);
		ledger_add(ctx->ledger, LG_FAILED, b->line, 1, "transcript", "not in %s%s", ev->path, src.shown);
	}
	free(pos);
	lines_free(page);
}

static void check_build(struct page_ctx *ctx, struct page_block *b)
{
	struct evfile *ev = pagectx_evidence_for(ctx, NULL, b->marker_line, b->marker_col);
	if (!ev) {
		ledger_add_unchecked(ctx, b->line, "build");
		return;
	}
	size_t line;
	const char *cmd = evidence_get(ev->ev, "build", &line);
	struct lines page = {0}, want = {0};
	page_lines(b, &page);
	lines_push(&want, cmd, strlen(cmd), line);
	lines_normalise(&want);
	diag_checks_add(1);
	if (lines_equal(&page, &want)) {
		ledger_ref(ledger_add(ctx->ledger, LG_CODE, b->line, 1, "build", "%s:%zu", ev->path, line), ev->path, line,
			   line, 0, 0, NULL);
	} else {
		size_t src_line, at = first_difference(&page, &want, &src_line);
		struct diag *d = diag_begin(D_BUILD_DRIFT, block_loc(ctx, b, at),
					    "build block differs from the build command recorded in %s", ev->path);
		diag_note(d, textfile_loc_line(&ev->ev->tf, line, 0, 0), "the recorded command");
		char *diff = lines_diff(&want, ev->path, &page, ctx->path);
		diag_text(d, diff);
		free(diff);
		diag_hint(d, "the build block must be exactly the command capture ran");
		diag_end(d);
		ledger_ref(ledger_add(ctx->ledger, LG_FAILED, b->line, 1, "build", "differs from %s:%zu", ev->path, line),
			   ev->path, line, line, 0, 0, NULL);
	}
	lines_free(&page);
	lines_free(&want);
}

void check_code_blocks(struct page_ctx *ctx)
{
	struct code_cache cache = {0};
	for (size_t i = 0; i < ctx->pg.n_blocks; i++) {
		struct page_block *b = &ctx->pg.blocks[i];
		if (b->kind != BK_CODE)
			continue;
		switch (b->marker.kind) {
		case MK_SNIPPET:
			check_snippet(ctx, b);
			break;
		case MK_TRANSCRIPT:
			check_transcript(ctx, b, &cache);
			break;
		case MK_BUILD:
			check_build(ctx, b);
			break;
		case MK_QUOTE:
			ledger_add(ctx->ledger, LG_CODE, b->line, 1, "quote", "quoted from outside the course: %s",
				   b->marker_arg);
			break;
		default:
			ledger_add(ctx->ledger, LG_FAILED, b->line, 1, "code block", "no provenance marker");
			break;
		}
	}
	code_cache_free(&cache);
}

void check_measured(struct page_ctx *ctx)
{
	for (size_t i = 0; i < ctx->pg.n_blocks; i++) {
		struct page_block *b = &ctx->pg.blocks[i];
		if (b->kind != BK_TEXT || b->marker.kind != MK_MEASURED)
			continue;
		struct evfile *ev = pagectx_evidence_for(ctx, b->marker_arg, b->marker_line, b->marker_col);
		if (!ev) {
			ledger_add_unchecked(ctx, b->line, "measured");
			continue;
		}
		size_t from, to;
		page_block_range(&ctx->pg, b, &from, &to);
		struct fact_text t = {.s = ctx->tf.data + from, .len = to - from, .file = &ctx->tf, .base = from};
		struct fact_range *r;
		size_t n_r;
		size_t n = facts_check(&t, ev, ctx->ledger, &r, &n_r);
		diag_checks_add(n);
		for (size_t k = 0; k < n_r; k++) {
			ctx->consumed = xgrow(ctx->consumed, &ctx->cap_consumed, ctx->n_consumed + 1, sizeof *ctx->consumed);
			ctx->consumed[ctx->n_consumed++] = (struct fact_range){from + r[k].start, from + r[k].end};
		}
		free(r);
	}
}

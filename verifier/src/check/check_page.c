/* check_page.c - see check.h: reading a page and judging its evidence. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_approvals.h"
#include "check_facts.h"
#include "evsig.h"
#include "pathkind.h"
#include "repo.h"
#include "runjudge.h"
#include "util.h"

/* Reports the verdict of runjudge.h on a page's (or a program's) evidence:
 * a run of another lesson or program, a stale run (naming the lesson file
 * that changed), one whose files cannot be told, a failed run, a run on a
 * shared GPU. */
static void report_judgement(const struct evfile *ev, const struct evjudge *j, const char *lesson,
			     const struct program *prog, struct diag_loc at, const char *fix_hint)
{
	const struct textfile *tf = &ev->ev->tf;
	if (j->flags & EVJ_LESSON_MISMATCH) {
		struct diag *d = diag_begin(D_EVIDENCE_MISMATCH, at, "evidence '%s' belongs to lesson '%s', not '%s'",
					    ev->path, j->lesson, lesson);
		diag_note(d, textfile_loc_line(tf, j->lesson_line, 0, 0), "its header says lesson: %s", j->lesson);
		diag_end(d);
		return;
	}
	if (j->flags & EVJ_PROGRAM_MISMATCH) {
		struct diag *d = diag_begin(D_EVIDENCE_MISMATCH, at, "evidence '%s' was captured from '%s', not '%s'",
					    ev->path, j->program, prog->path);
		diag_note(d, textfile_loc_line(tf, j->program_line, 0, 0), "its header says program: %s", j->program);
		diag_end(d);
		return;
	}
	if (j->flags & EVJ_FILES_UNKNOWN) {
		/* the files cannot be told, so neither can staleness: say why */
		struct diag *d = diag_begin(pathkind_unusable_kind(j->flags & EVJ_FILES_REFUSED, NULL), at,
					    "the files of lesson '%s' cannot be %s, so whether '%s' is stale cannot be told: %s",
					    lesson, j->flags & EVJ_FILES_REFUSED ? "used" : "read", ev->path, j->files_why);
		diag_hint(d, "capture refuses the lesson too; a lesson folder holds plain files only");
		diag_end(d);
	} else if (j->flags & EVJ_STALE) {
		struct diag *d = diag_begin(D_EVIDENCE_STALE, at, "evidence '%s' is stale: %s since it was captured",
					    ev->path, j->changed);
		if (j->by_reads && j->was_sha && j->now_sha && strcmp(j->was_sha, j->now_sha) == 0)
			diag_note(d, textfile_loc_line(tf, j->stale_line, 0, 0),
				  "the capture recorded the %zu files its build and runs read; a new file that is no "
				  "source counts too (a run may open it)",
				  j->n_files);
		else if (j->by_reads)
			diag_note(d, textfile_loc_line(tf, j->stale_line, 0, 0),
				  "the capture recorded the %zu files its build and runs read; source-sha256 %.12s... is "
				  "now %.12s...",
				  j->n_files, j->was_sha, j->now_sha);
		else if (j->n_files > 1)
			diag_note(d, textfile_loc_line(tf, j->stale_line, 0, 0),
				  "the capture recorded the lesson's %zu files; source-sha256 %.12s... is now %.12s...",
				  j->n_files, j->was_sha, j->now_sha);
		else
			diag_note(d, textfile_loc_line(tf, j->stale_line, 0, 0),
				  "captured from source-sha256 %.12s..., the program is now %.12s...", j->was_sha,
				  j->now_sha);
		if (j->by_reads && lesson)
			diag_hint(d, "%s ('coursecheck why-stale %s' shows the change)", fix_hint, lesson);
		else
			diag_hint(d, "%s", fix_hint);
		diag_end(d);
	}
	if (j->flags & EVJ_FAILED) {
		struct diag *d = diag_begin(D_EVIDENCE_FAILED, at, "evidence '%s' records a failed run (%s)", ev->path,
					    j->failed_why);
		diag_note(d, textfile_loc_line(tf, j->exit_line, 0, 0), "the run ended with exit: %s", j->exit ? j->exit : "?");
		diag_hint(d, "fix the program and capture it again; a failed run is no evidence");
		diag_end(d);
	}
	if (j->flags & EVJ_SHARED_GPU) {
		struct diag *d = diag_begin(D_EVIDENCE_SHARED_GPU, at,
					    "evidence '%s' was captured on a shared GPU (gpu-exclusive: %s)", ev->path,
					    j->exclusive);
		diag_note(d, textfile_loc_line(tf, j->exclusive_line, 0, 0),
			  "capture saw another process on the GPU during the run, or could not tell");
		diag_hint(d, "on a GPU no other process uses, %s", fix_hint);
		diag_end(d);
	}
}

void check_evidence_state(const struct evfile *ev, const char *lesson, struct program *prog,
			  struct diag_loc at, const char *fix_hint)
{
	struct evjudge j;
	diag_checks_add(3);
	runjudge_for_page(ev, lesson, prog, false, &j);
	report_judgement(ev, &j, lesson, prog, at, fix_hint);
	evjudge_free(&j);
	evsig_check(ev, at);
}

/* A README of a program folder may omit front matter: its program is the
 * .cu beside it and its evidence the lesson's newest. */
static void readme_defaults(struct page_ctx *ctx)
{
	const char *p = ctx->path + strlen("programs/");
	ctx->lesson = xstrndup(p, strcspn(p, "/"));
	size_t count;
	char *prog = course_lesson_program(ctx->lesson, &count);
	course_evidence_folder_usable(ctx->lesson); /* a refused folder is named, not taken as empty */
	char *ev = course_newest_evidence(ctx->lesson);
	if (prog)
		ctx->fm.program = prog;
	if (ev) {
		ctx->fm.evidence = xcalloc(1, sizeof *ctx->fm.evidence);
		ctx->fm.evidence[0] = (struct fm_evidence){xstrdup("main"), ev, 1, 1};
		ctx->fm.n_evidence = 1;
	}
}

static void load_sources(struct page_ctx *ctx)
{
	if (ctx->fm.program) {
		/* compared with the evidence's program: one file, one name */
		char *norm = repo_normalize(ctx->fm.program);
		struct program *p = course_program(norm ? norm : ctx->fm.program);
		free(norm);
		struct diag_loc at = textfile_loc_line(&ctx->tf, ctx->fm.program_line, ctx->fm.program_col, 0);
		if (!course_report_unusable(p->state, p->why, p->path, at, "program") && p->state == LOAD_OK)
			ctx->prog = p;
	}
	ctx->n_ev = ctx->fm.n_evidence;
	ctx->ev = xcalloc(ctx->n_ev ? ctx->n_ev : 1, sizeof *ctx->ev);
	for (size_t i = 0; i < ctx->n_ev; i++) {
		const struct fm_evidence *fe = &ctx->fm.evidence[i];
		char *norm = repo_normalize(fe->path);
		struct evfile *ev = course_evidence(norm ? norm : fe->path);
		free(norm);
		struct diag_loc at = textfile_loc_line(&ctx->tf, fe->line, fe->col, 0);
		if (course_report_unusable(ev->state, ev->why, ev->path, at, "evidence"))
			continue;
		ctx->ev[i] = ev;
		if (ev->state != LOAD_OK)
			continue;
		char *hint = xasprintf("capture it again with 'make evidence LESSON=%s', then run 'coursecheck update %s'",
				       ctx->lesson ? ctx->lesson : "LESSON", ctx->path);
		/* the page's default run should be its lesson's newest: a newer
		 * capture is what `update` carries into the page */
		struct evjudge j;
		diag_checks_add(3);
		runjudge_for_page(ev, ctx->lesson, ctx->prog, i == 0 && ctx->fm.present, &j);
		report_judgement(ev, &j, ctx->lesson, ctx->prog, at, hint);
		free(hint);
		evsig_check(ev, at);
		if (j.flags & EVJ_SUPERSEDED) {
			struct diag *d = diag_begin(D_EVIDENCE_SUPERSEDED, at,
						    "the page quotes %s; the lesson's newest run is %s", ev->path, j.newest);
			diag_hint(d, "carry the new run into the page with 'coursecheck update %s'", ctx->path);
			diag_end(d);
		}
		evjudge_free(&j);
	}
}

/* Before the first capture: the program (for snippets), no evidence. */
static void load_program_only(struct page_ctx *ctx)
{
	if (ctx->fm.program) {
		struct program *p = course_program(ctx->fm.program);
		struct diag_loc at = textfile_loc_line(&ctx->tf, ctx->fm.program_line, ctx->fm.program_col, 0);
		if (!course_report_unusable(p->state, p->why, p->path, at, "program"))
			ctx->prog = p;
	}
	for (size_t i = 0; i < ctx->fm.n_evidence; i++) {
		free(ctx->fm.evidence[i].label);
		free(ctx->fm.evidence[i].path);
	}
	ctx->fm.n_evidence = 0;
	ctx->n_ev = 0;
	ctx->ev = xcalloc(1, sizeof *ctx->ev);
}

/* The page's policy once its status is known: a draft's STAT kinds are
 * warnings; a published page (or --as published) has no warnings. */
static void set_policy(struct page_ctx *ctx)
{
	ctx->policy.draft = ctx->fm.status == STATUS_DRAFT && !ctx->opts->strict;
	ctx->policy.strict = ctx->opts->strict || ctx->fm.status == STATUS_PUBLISHED;
}

/* What the page is, for review's header. */
static void record_page(const struct page_ctx *ctx)
{
	if (!ctx->ledger)
		return;
	const char **paths = xmalloc((ctx->fm.n_evidence ? ctx->fm.n_evidence : 1) * sizeof *paths);
	for (size_t i = 0; i < ctx->fm.n_evidence; i++)
		paths[i] = ctx->fm.evidence[i].path;
	/* a README without front matter takes its page's status (or in
	 * technical review, readme_defaults): say which, where "-" said nothing */
	char *status = ctx->fm.present ? xstrdup(frontmatter_status_name(ctx->fm.status))
		     : ctx->is_readme  ? xasprintf("%s (its page's)", frontmatter_status_name(ctx->fm.status))
				       : NULL;
	ledger_set_page(ctx->ledger, ctx->fm.title, status, ctx->lesson, paths, ctx->fm.n_evidence);
	free(status);
	ctx->ledger->page.first_body_line = ctx->fm.first_body_line;
	free(paths);
}

static int check_page_file(struct page_ctx *ctx, const char *text, size_t len, struct ledger *spare);

/* A page's diagnostics are capped (diag_file_begin): a line of 100,000
 * untraced numbers prints a few hundred and a count, not 100 MB.  The
 * region reads the page's own policy (ctx.policy): until its front matter
 * is read, that of a page of unknown status. */
int check_page(const char *relpath, const struct check_opts *opts, struct ledger *lg)
{
	return check_page_text(relpath, NULL, 0, opts, lg);
}

int check_page_text(const char *relpath, const char *text, size_t len, const struct check_opts *opts,
		    struct ledger *lg)
{
	struct page_ctx ctx = {.path = relpath, .opts = opts, .ledger = lg, .policy = {.strict = opts->strict}};
	struct ledger spare = {0}; /* the review gate's, when the caller keeps none */
	diag_file_begin(relpath, &ctx.policy);
	int rc = check_page_file(&ctx, text, len, &spare);
	diag_file_end();
	pagectx_free(&ctx);
	ledger_free(&spare);
	course_page_done(); /* the page's evidence numbers: memory stays flat per page */
	return rc;
}

/* The page's text: the editor's buffer when one is given (the language
 * server's unsaved document, normalised as a file is), else the file. */
static int read_page_text(struct page_ctx *ctx, const char *text, size_t len)
{
	const char *relpath = ctx->path;
	if (text) {
		if (len > TEXTFILE_MAX_BYTES) {
			diag_report(pathkind_unusable_kind(false, textfile_too_large), (struct diag_loc){.path = relpath},
				    "cannot read page: %s", textfile_too_large);
			return -1;
		}
		textfile_from_memory(text, len, relpath, &ctx->tf);
		return 0;
	}
	char *fs;
	const char *why;
	enum repo_status rs = course_resolve(relpath, &fs, &why);
	if (rs != REPO_OK || textfile_read(fs, relpath, &ctx->tf, &why) != 0) {
		struct diag_loc at = {.path = relpath};
		diag_report(pathkind_unusable_kind(rs == REPO_REFUSED, why), at, "cannot read page: %s", why);
		free(fs);
		return -1;
	}
	free(fs);
	return 0;
}

static int check_page_file(struct page_ctx *ctx, const char *text, size_t len, struct ledger *spare)
{
	const char *relpath = ctx->path;
	if (pathkind_refuse_page(relpath, "verify", false))
		return 0;
	if (read_page_text(ctx, text, len) != 0)
		return -1;
	if (textfile_report_encoding(&ctx->tf, "page")) {
		textfile_free(&ctx->tf);
		return 0;
	}
	ctx->is_readme = pathkind_of(relpath) == PATHKIND_README;
	frontmatter_parse(&ctx->tf, !ctx->is_readme, DIAG_REPORT, &ctx->fm);
	if (!ctx->is_readme)
		course_page_seen(relpath, &ctx->fm);
	if (ctx->is_readme && !ctx->fm.present) {
		readme_defaults(ctx);
		check_readme_status(ctx);
	} else if (ctx->fm.lesson) {
		ctx->lesson = xstrdup(ctx->fm.lesson);
	}
	set_policy(ctx);
	if (ctx->policy.strict && !ctx->ledger && !ctx->is_readme)
		ctx->ledger = spare; /* the review gate judges the items the checks record */
	record_page(ctx);
	diag_checks_add(1);
	page_parse(&ctx->tf, ctx->fm.first_body_line, DIAG_REPORT, &ctx->pg);
	check_first_capture(ctx);
	if (!ctx->no_evidence_yet)
		load_sources(ctx);
	else
		load_program_only(ctx);
	check_code_blocks(ctx);
	if (!ctx->no_evidence_yet) {
		check_measured(ctx);
		check_stated_facts(ctx);
		check_numbers(ctx);
	}
	check_approvals(ctx);
	return 0;
}

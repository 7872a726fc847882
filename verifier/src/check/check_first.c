/* check_first.c - see check.h: a lesson before its first capture, and
 * the status of a program README without front matter.
 *
 * A page may say `evidence: none yet` (FM_EVIDENCE_NOT_YET) while its
 * lesson has never been captured.  Everything that needs no evidence
 * (front matter, markers, snippets, program headers) is still checked;
 * transcripts, build blocks, measured paragraphs and numbers cannot be,
 * and the one evidence-not-yet diagnostic says so: a warning on a draft
 * or in-technical-review page, an error on a published one (and under
 * --as published).  Once the lesson has evidence, `none yet` would switch
 * the number checks off: it is an error whatever the status
 * (evidence-captured), whose hint is `coursecheck update`, which writes
 * the path in.
 *
 * A README of a program folder without front matter takes the status of
 * its lesson's page (the page under pages/ whose front matter names the
 * lesson); with no such page it stays in-technical-review. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "repo.h"
#include "util.h"

/* Blocks that cannot be checked without evidence, for the message. */
static size_t count_unchecked(const struct page_ctx *ctx)
{
	size_t n = 0;
	for (size_t i = 0; i < ctx->pg.n_blocks; i++) {
		const struct page_block *b = &ctx->pg.blocks[i];
		n += b->marker.kind == MK_TRANSCRIPT || b->marker.kind == MK_BUILD || b->marker.kind == MK_MEASURED ||
		     b->marker.kind == MK_TABLE;
	}
	return n;
}

bool check_first_page_awaits(const char *lesson)
{
	const char *const *evidence;
	size_t n;
	return lesson && course_cite_page(lesson, &evidence, &n) && n == 1 &&
	       strcmp(evidence[0], FM_EVIDENCE_NOT_YET) == 0;
}

void check_first_capture(struct page_ctx *ctx)
{
	const struct frontmatter *fm = &ctx->fm;
	bool said = fm->n_evidence == 1 && strcmp(fm->evidence[0].path, FM_EVIDENCE_NOT_YET) == 0;
	bool readme_bare = ctx->is_readme && !fm->present && fm->n_evidence == 0 && ctx->lesson;
	if (!said && !readme_bare)
		return;
	ctx->no_evidence_yet = true;
	char *newest = ctx->lesson ? course_newest_evidence(ctx->lesson) : NULL;
	/* one line a lesson: a README that follows a page saying 'none yet'
	 * adds nothing to the page's warning (its checks still run) */
	if (readme_bare && !newest && check_first_page_awaits(ctx->lesson))
		return;
	struct diag_loc at = said ? textfile_loc_line(&ctx->tf, fm->evidence[0].line, fm->evidence[0].col,
						      strlen(FM_EVIDENCE_NOT_YET))
				  : textfile_loc_line(&ctx->tf, 1, 0, 0);
	size_t n = count_unchecked(ctx);
	struct diag *d;
	if (newest) {
		/* an error whatever the status: the page turns off the checks
		 * of numbers that have evidence to be checked against */
		d = diag_begin(D_EVIDENCE_CAPTURED, at, "lesson '%s' has been captured (%s), but the page still says "
						    "'evidence: " FM_EVIDENCE_NOT_YET "'",
			       ctx->lesson, newest);
		diag_hint(d, "bind the page to the run with 'coursecheck update %s'", ctx->path);
	} else {
		d = n ? diag_begin(D_EVIDENCE_NOT_YET, at,
				   "lesson '%s' awaits its first capture: %zu block%s that quote%s or measure%s it %s not "
				   "checked, nor the page's numbers",
				   ctx->lesson ? ctx->lesson : "?", n, n == 1 ? "" : "s", n == 1 ? "s" : "",
				   n == 1 ? "s" : "", n == 1 ? "is" : "are")
		      : diag_begin(D_EVIDENCE_NOT_YET, at,
				   "lesson '%s' awaits its first capture: the numbers of this %s are not checked",
				   ctx->lesson ? ctx->lesson : "?", ctx->is_readme ? "README" : "page");
		diag_hint(d, "capture it on the GPU node ('make evidence LESSON=%s'), then run 'coursecheck update %s'; "
			     "a published page needs its evidence",
			  ctx->lesson ? ctx->lesson : "LESSON", ctx->path);
	}
	diag_end(d);
	free(newest);
}

/* The status of the page that names lesson: from the course model's
 * page facts (recorded when each page was checked; a page not checked yet
 * is read there, muted: its own problems are reported at its check). */
static bool lesson_page_status(const char *lesson, enum page_status *status)
{
	return course_lesson_status(lesson, status);
}

void check_readme_status(struct page_ctx *ctx)
{
	enum page_status st = STATUS_REVIEW;
	if (ctx->lesson && lesson_page_status(ctx->lesson, &st))
		ctx->fm.status = st;
}

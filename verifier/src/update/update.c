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
 * a rename; --dry-run only prints the diff.  The command line is
 * cli_update.c's.
 *
 * This file takes one file from start to end (read, runs picked and
 * judged, body walked, edits applied, diff, write, report) and holds the
 * recording of edits, the following of a number from the old run to the
 * new, and the prose numbers and table rows; update_claims.c computes
 * placed, derived and claimed values again, update_blocks.c rewrites
 * measured facts and fenced blocks.  What the three share is
 * update_impl.h's.
 */
#include "update.h"
#include "update_impl.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmark-gfm-core-extensions.h>

#include "align.h"
#include "bank.h"
#include "drift.h"
#include "check.h"
#include "compare.h"
#include "filewrite.h"
#include "pathkind.h"
#include "prose.h"
#include "re.h"
#include "repo.h"
#include "report.h"
#include "runjudge.h"
#include "util.h"

/* ---- recording ------------------------------------------------------- */

void update_add_edit(struct update *u, size_t start, size_t end, const char *text, size_t len)
{
	if (end - start == len && memcmp(u->ctx.tf.data + start, text, len) == 0)
		return; /* unchanged */
	u->edits = xgrow(u->edits, &u->cap_edits, u->n_edits + 1, sizeof *u->edits);
	u->edits[u->n_edits++] = (struct edit){start, end, xstrndup(text, len), false};
}

void update_leave(struct update *u, size_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	struct diag *d = diag_begin(D_UPDATE_LEFT, textfile_loc(&u->ctx.tf, off, 0), "left for a person: %s", msg);
	diag_end(d);
	free(msg);
	u->left++;
}

/* A file update has nothing to carry from (update-unusable), reported at
 * the file; the caller adds the hint and ends it. */
static struct diag *unusable(const char *relpath, const char *fmt, ...) PRINTF_LIKE(2, 3);

static struct diag *unusable(const char *relpath, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = diag_vbegin(D_UPDATE_UNUSABLE, (struct diag_loc){.path = relpath}, fmt, ap);
	va_end(ap);
	return d;
}

/* ---- following a number from the old run to the new ------------------ */

/* The new value at the place of old bank entry e. */
bool update_follow(const struct update *u, const struct bank_entry *e, struct num_token *now_tok, size_t *now_line)
{
	if (e->stdout_index == SIZE_MAX) {
		/* a header value: the same key in the new header */
		size_t len;
		const char *line = textfile_line(&u->old->ev->tf, e->line, &len);
		size_t klen = strcspn(line, ":");
		for (size_t i = 0; i < u->now->ev->n_fields; i++) {
			const struct evidence_field *f = &u->now->ev->fields[i];
			if (strlen(f->key) != klen || memcmp(f->key, line, klen) != 0)
				continue;
			size_t nl;
			const char *s = textfile_line(&u->now->ev->tf, f->line, &nl);
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
	size_t idx = align_token_index(u->old->ev, e->stdout_index, e->tok.start);
	size_t nk;
	if (idx == SIZE_MAX || !align_number(&u->al, u->old->ev, u->now->ev, e->stdout_index, idx, &nk, now_tok))
		return false;
	*now_line = u->now->ev->stdout_first + nk;
	return true;
}

/* A number that is in neither the named run's bank nor the newest: the
 * binding verify's note uses (drift.h: the newest older run where it
 * traced, followed to its place in the newest run).  Fills the new token
 * and its evidence line; false when there is no such place. */
static bool run_carriable(struct update *u);

bool update_follow_older(struct update *u, const struct num_token *tok, struct num_token *now_tok, size_t *now_line)
{
	struct drift dr;
	if (!drift_find(u->ctx.lesson, u->now, tok, &dr) || !dr.followed || dr.now != u->now)
		return false;
	if (!run_carriable(u))
		return false; /* said once, at the run */
	size_t len;
	const char *line = textfile_line(&u->now->ev->tf, dr.now_line, &len);
	struct num_token *t;
	size_t n = numtok_scan(line, len, &t);
	bool ok = false;
	for (size_t i = 0; i < n && !ok; i++)
		if (t[i].start + 1 == dr.now_col) {
			*now_tok = t[i];
			*now_line = dr.now_line;
			ok = true;
		}
	free(t);
	return ok;
}

/* The first capture: a number written before the lesson ran, which the
 * run does not hold.  Nothing is moved (there is no older run to follow);
 * the author replaces it, helped by the run's nearest values.  A warning:
 * update did what it could, and verify fails at the number until then. */
static void first_capture_number(struct update *u, const struct pnum *p)
{
	char *claim = prose_text(p);
	struct diag *d = diag_begin(D_UPDATE_FIRST_CAPTURE, textfile_loc(&u->ctx.tf, p->raw_off, p->tok.end - p->tok.start),
				    "first capture: %s is not in %s: replace it", claim, u->now->path);
	const struct bank_entry *near[3];
	size_t n = bank_nearest(&u->now_bank, p->tok.value, near, 3);
	for (size_t i = 0; i < n; i++) {
		const struct bank_entry *e = near[i];
		size_t len;
		const char *line = textfile_line(&e->ev->ev->tf, e->line, &len);
		diag_note(d, textfile_loc_line(&e->ev->ev->tf, e->line, bank_entry_col(e), e->tok.end - e->tok.start),
			  "%s value in the run: %.*s", i ? "another near" : "the nearest", (int)(e->tok.end - e->tok.start),
			  line + e->tok.start);
	}
	diag_hint(d, "the page was written before its lesson ran: quote the run's value, or bind the number to its "
		     "place (<!-- at: [ROW | COLUMN] -->); 'coursecheck verify' fails at it until then");
	diag_end(d);
	free(claim);
	u->to_replace++;
}

void update_move_number(struct update *u, const struct pnum *p, const struct bank_entry *e)
{
	struct num_token nt;
	size_t nl;
	if (u->first) { /* old is now: a traced number is where it is */
		if (!e)
			first_capture_number(u, p);
		return;
	}
	if (!e) {
		if (!update_follow_older(u, &p->tok, &nt, &nl)) {
			char *claim = prose_text(p);
			update_leave(u, p->raw_off, "%s is not in the old run either: not moved", claim);
			free(claim);
			return;
		}
	} else if (!update_follow(u, e, &nt, &nl)) {
		char *claim = prose_text(p);
		update_leave(u, p->raw_off, "%s traced to %s:%zu, a place the new run does not have", claim, u->old->path, e->line);
		free(claim);
		return;
	}
	char buf[128];
	size_t n = numtok_format_like(&p->tok, p->text, nt.value, buf, sizeof buf);
	if (n == 0) {
		update_leave(u, p->raw_off, "cannot print the new value in this number's format");
		return;
	}
	update_add_edit(u, p->raw_off, p->raw_off + (p->tok.end - p->tok.start), buf, n);
}

/* ---- prose and tables ------------------------------------------------- */

static void update_number(struct update *u, const struct pnum *p, const struct pnum *low, const struct bank_entry *forced)
{
	if (p->raw_off == SIZE_MAX)
		return;
	if (p->annot) {
		if (p->annot->marker.kind == MK_DERIVE && p->annot->raw_off != SIZE_MAX)
			update_derived(u, p);
		else if (update_place_number(u, p, low))
			return;
		return; /* cite and ext do not follow this lesson's runs */
	}
	if (!forced && prose_skip_reason(&p->tok))
		return;
	const struct bank_entry *e = forced ? forced : bank_find(&u->old_bank, &p->tok);
	if (!e && bank_find(&u->now_bank, &p->tok))
		return; /* already the newest run's number */
	update_move_number(u, p, e); /* no entry: carried by the older run's binding, or left */
}

static void update_block_numbers(struct update *u, cmark_node *node)
{
	struct seg *segs;
	size_t n_segs;
	struct pnum *nums;
	size_t n = prose_collect(&u->ctx, node, &segs, &n_segs, &nums);
	for (size_t i = 0; i < n; i++) {
		if (nums[i].raw_off == SIZE_MAX && (nums[i].annot || !prose_skip_reason(&nums[i].tok))) {
			/* text the verifier cannot place (rawalign.h): listed, never skipped */
			char *num = prose_text(&nums[i]);
			update_leave(u, page_line_offset(&u->ctx.pg, page_node_line(&u->ctx.pg, node)),
			      "%s: where it stands in the page is not known (its text cannot be placed): not moved", num);
			free(num);
			continue;
		}
		if (!nums[i].range_low)
			update_number(u, &nums[i], nums[i].low != SIZE_MAX ? &nums[nums[i].low] : NULL, NULL);
	}
	update_claims(u, segs, n_segs);
	free(nums);
	free(segs);
}

/* A row on no line of the named run: carried by the binding verify's
 * table-row note uses (drift_find_row), each number from its own place on
 * the older run's line.  false when the row rests on no older line. */
static bool row_follow_older(struct update *u, const struct pnum *all, size_t n)
{
	struct num_token *toks = xcalloc(n, sizeof *toks);
	struct drift *dr = xcalloc(n, sizeof *dr);
	for (size_t i = 0; i < n; i++)
		toks[i] = all[i].tok;
	bool ok = drift_find_row(u->ctx.lesson, u->now, toks, n, dr) && run_carriable(u);
	for (size_t i = 0; ok && i < n; i++) {
		if (!dr[i].followed) {
			update_leave(u, all[i].raw_off, "this row's number has no place in the new run: not moved");
			continue;
		}
		struct num_token *t;
		size_t nt = numtok_scan(dr[i].now_text, strlen(dr[i].now_text), &t);
		char buf[128];
		size_t len = nt ? numtok_format_like(&all[i].tok, all[i].text, t[0].value, buf, sizeof buf) : 0;
		free(t);
		if (len)
			update_add_edit(u, all[i].raw_off, all[i].raw_off + (all[i].tok.end - all[i].tok.start), buf, len);
		else
			update_leave(u, all[i].raw_off, "cannot print the new value in this number's format");
	}
	free(dr);
	free(toks);
	return ok;
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
				if (nums[i].range_low)
					continue;
				if (nums[i].annot) {
					update_number(u, &nums[i], nums[i].low != SIZE_MAX ? &nums[nums[i].low] : NULL, NULL);
					continue;
				}
				all = xgrow(all, &cap, n_all + 1, sizeof *all);
				all[n_all++] = nums[i];
			}
			update_claims(u, segs, n_segs);
			free(nums);
			keep = xrealloc(keep, (n_keep + 1) * sizeof *keep);
			keep[n_keep++] = segs;
		}
		/* the old line the row rests on */
		const struct bank_entry **at = xcalloc(n_all + 1, sizeof *at);
		struct num_token *row_toks = xmalloc((n_all + 1) * sizeof *row_toks);
		for (size_t i = 0; i < n_all; i++)
			row_toks[i] = all[i].tok;
		bool found = bank_find_row(&u->old_bank, row_toks, n_all, at);
		free(row_toks);
		if (!found && n_all && !row_follow_older(u, all, n_all))
			update_leave(u, all[0].raw_off, "this table row is on no line of the old run: not moved");
		for (size_t i = 0; found && i < n_all; i++)
			update_number(u, &all[i], NULL, at[i]);
		free(at);
		free(all);
		for (size_t i = 0; i < n_keep; i++)
			free(keep[i]);
		free(keep);
	}
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
		struct edit *e = &u->edits[i];
		if (e->start < at) {
			update_leave(u, e->start, "two rewrites overlap here; the second was dropped");
			e->dropped = true;
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
 * link is written through to its target inside the repository; a page
 * that no longer holds the text update read (was) is left as it is. */
static int write_atomically(const char *relpath, const char *was, size_t was_len, const char *text, size_t len)
{
	char *why = NULL;
	int rc = filewrite_replace_repo_unchanged(relpath, was, was_len, text, len, &why);
	if (rc != 0) {
		diag_report(D_UPDATE_WRITE, (struct diag_loc){.path = relpath}, "not written: %s", why);
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
	bank_free(&u->now_bank);
	pagectx_free(&u->ctx);
}

/* The newest run is carried only when it is evidence verify accepts: a
 * body edited by hand, a program changed since, a failed run or one on a
 * shared GPU would be written into the page as if it were true.  Reports
 * each reason (update-refused) and returns false. */
static void refuse(const struct evfile *ev, struct diag_loc at, const char *fmt, ...) PRINTF_LIKE(3, 4);

static void refuse(const struct evfile *ev, struct diag_loc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = diag_vbegin(D_UPDATE_REFUSED, at, fmt, ap);
	va_end(ap);
	diag_hint(d, "capture the lesson again ('make evidence LESSON=%s'), then run update", ev->lesson);
	diag_end(d);
}

/* A run whose lesson files cannot be read or are refused: whether it is
 * stale cannot be told, and a run that may be stale is not carried (the
 * program's own hash says nothing of the lesson's other files). */
static void refuse_unknown_files(const struct evfile *ev, const struct evjudge *j)
{
	size_t line = 0;
	evidence_get(ev->ev, "source-sha256", &line);
	struct diag *d = diag_begin(D_UPDATE_REFUSED, textfile_loc_line(&ev->ev->tf, line, 0, 0),
				    "update will not carry %s: the files of lesson '%s' cannot be %s, so whether it is "
				    "stale cannot be told: %s",
				    ev->path, ev->lesson, j->flags & EVJ_FILES_REFUSED ? "used" : "read", j->files_why);
	diag_hint(d, "a lesson folder holds plain files only: fix what 'coursecheck verify' names there, then run update");
	diag_end(d);
}

static bool run_carriable(struct update *u)
{
	if (u->carriable)
		return u->carriable > 0;
	const struct evfile *ev = u->now;
	const struct textfile *tf = &ev->ev->tf;
	struct evjudge j;
	runjudge_own(ev, &j); /* judged as verify judges it (runjudge.h) */
	if (j.flags & EVJ_EDITED) {
		size_t line = 0;
		evidence_get(ev->ev, "body-sha256", &line);
		refuse(ev, textfile_loc_line(tf, line, 0, 0), "update will not carry %s: its body was edited after capture",
		       ev->path);
	}
	if (j.flags & EVJ_STALE)
		refuse(ev, textfile_loc_line(tf, j.stale_line, 0, 0),
		       "update will not carry %s: it is stale, %s since it was captured", ev->path, j.changed);
	if (j.flags & EVJ_FAILED)
		refuse(ev, textfile_loc_line(tf, j.exit_line, 0, 0),
		       "update will not carry %s: it records a failed run (%s)", ev->path, j.failed_why);
	if (j.flags & EVJ_SHARED_GPU)
		refuse(ev, textfile_loc_line(tf, j.exclusive_line, 0, 0),
		       "update will not carry %s: the GPU was shared during the run (gpu-exclusive: %s), so its "
		       "timings are not evidence",
		       ev->path, j.exclusive);
	if (j.flags & EVJ_FILES_UNKNOWN)
		refuse_unknown_files(ev, &j);
	bool ok = !(j.flags & (EVJ_EDITED | EVJ_STALE | EVJ_FAILED | EVJ_SHARED_GPU | EVJ_FILES_UNKNOWN));
	evjudge_free(&j);
	u->carriable = ok ? 1 : -1;
	u->refused = !ok;
	return ok;
}

/* How much of the page traces to run ev: its numbers that need tracing
 * and its transcript excerpt lines found there.  What a README without
 * front matter quotes is known only this way. */
static size_t count_numbers(struct update *u, cmark_node *node, const struct bank *b)
{
	struct seg *segs;
	size_t n_segs, count = 0;
	struct pnum *nums;
	size_t n = prose_collect(&u->ctx, node, &segs, &n_segs, &nums);
	for (size_t i = 0; i < n; i++)
		count += !nums[i].annot && !prose_skip_reason(&nums[i].tok) && bank_find(b, &nums[i].tok);
	free(nums);
	free(segs);
	return count;
}

static size_t traced_in(struct update *u, const struct evfile *ev)
{
	struct bank b = {0};
	bank_add_evidence(&b, ev);
	size_t count = 0;
	u->ctx.to = DIAG_DROP; /* a dangling annotation is verify's to report */
	for (size_t i = 0; i < u->ctx.pg.n_blocks; i++) {
		const struct page_block *blk = &u->ctx.pg.blocks[i];
		if (blk->kind == BK_TEXT) {
			count += count_numbers(u, blk->node, &b);
		} else if (blk->kind == BK_TABLE) {
			for (cmark_node *row = cmark_node_first_child(blk->node); row; row = cmark_node_next(row))
				for (cmark_node *c = cmark_node_first_child(row); c; c = cmark_node_next(c))
					count += count_numbers(u, c, &b);
		} else if (blk->kind == BK_CODE && blk->marker.kind == MK_TRANSCRIPT) {
			struct lines page = {0}, hay = {0};
			lines_split(&page, blk->code, blk->code_len, blk->code_first_line);
			lines_normalise(&page);
			for (size_t k = 0; k < ev->ev->n_stdout; k++) {
				size_t len;
				const char *s = evidence_stdout(ev->ev, k, &len);
				lines_push(&hay, s, len, k);
			}
			size_t first, *pos = xmalloc((page.n + 1) * sizeof *pos);
			if (lines_find_excerpt(&page, &hay, &first, pos))
				for (size_t k = 0; k < page.n; k++)
					count += pos[k] != SIZE_MAX;
			free(pos);
			lines_free(&page);
			lines_free(&hay);
		}
	}
	u->ctx.to = DIAG_REPORT;
	bank_free(&b);
	return count;
}

/* The run a file quoted and the newest of its lesson.  A README without
 * front matter names no run: its old run is the one its content traces to
 * (the newest of those that trace best), so an up-to-date README moves
 * nothing. */
static bool pick_runs(struct update *u, const char *named)
{
	char **paths;
	size_t n = course_list_evidence(u->ctx.lesson, &paths); /* the course model's listing */
	if (n == 0) {
		struct diag *d = unusable(u->ctx.path, "lesson '%s' has no evidence to carry into it", u->ctx.lesson);
		diag_hint(d, "capture the lesson first ('make evidence LESSON=%s')", u->ctx.lesson);
		diag_end(d);
		return false;
	}
	char *norm = named ? repo_normalize(named) : NULL;
	if (named) {
		u->old = course_evidence(norm ? norm : named);
	} else {
		size_t best = n - 1, best_count = 0;
		for (size_t i = n; i-- > 0;) {
			const struct evfile *ev = course_evidence(paths[i]);
			size_t c = ev->state == LOAD_OK ? traced_in(u, ev) : 0;
			if (c > best_count) {
				best = i;
				best_count = c;
			}
		}
		u->old = course_evidence(paths[best]);
	}
	free(norm);
	u->now = course_evidence(paths[n - 1]);
	repo_free_list(paths, n);
	if (u->old->state != LOAD_OK || u->now->state != LOAD_OK) {
		struct diag *d = unusable(u->ctx.path, "its evidence cannot be used");
		diag_hint(d, "'coursecheck verify %s' says why", u->ctx.path);
		diag_end(d);
		return false;
	}
	/* a page that names the newest run carries nothing from it, unless
	 * it quotes an older one's numbers (judged then, in follow_older);
	 * a page bound to its first run takes that run's numbers, so it is
	 * judged as any new run is */
	if ((u->old != u->now || u->binding) && !run_carriable(u))
		return false;
	align_runs(u->old->ev, u->now->ev, &u->al);
	bank_add_evidence(&u->old_bank, u->old);
	bank_add_evidence(&u->now_bank, u->now);
	return true;
}

static bool load_page(struct update *u, const char *relpath)
{
	char *fs;
	const char *why;
	u->ctx.path = relpath;
	enum repo_status rs = repo_resolve(relpath, &fs, &why);
	if (rs != REPO_OK || textfile_read(fs, relpath, &u->ctx.tf, &why) != 0) {
		diag_report(pathkind_unusable_kind(rs == REPO_REFUSED, why), (struct diag_loc){.path = relpath},
			    "cannot read page: %s", why);
		u->unreadable = true;
		free(fs);
		return false;
	}
	free(fs);
	if (textfile_report_encoding(&u->ctx.tf, "page"))
		return false;
	u->ctx.is_readme = pathkind_of(relpath) == PATHKIND_README;
	/* the page's own problems are verify's to report */
	frontmatter_parse(&u->ctx.tf, !u->ctx.is_readme, DIAG_DROP, &u->ctx.fm);
	page_parse(&u->ctx.tf, u->ctx.fm.first_body_line, DIAG_DROP, &u->ctx.pg);
	if (u->ctx.pg.unread) {
		/* text the parser did not read would be left as it is, silently
		 * out of date: the page is not carried until it can be read */
		struct diag *d = diag_begin(D_UPDATE_REFUSED, textfile_loc_line(&u->ctx.tf, 1, 0, 0),
					    "not updated: %zu part%s of the page nest too deep or are too wide to be read",
					    u->ctx.pg.unread, u->ctx.pg.unread == 1 ? "" : "s");
		diag_hint(d, "'coursecheck verify %s' shows where; fix those lines, then run update", relpath);
		diag_end(d);
		return false;
	}
	if (u->ctx.fm.lesson) {
		u->ctx.lesson = xstrdup(u->ctx.fm.lesson);
	} else if (u->ctx.is_readme) {
		const char *p = relpath + 9;
		u->ctx.lesson = xstrndup(p, strcspn(p, "/"));
	} else {
		struct diag *d = unusable(relpath, "the page names no lesson, so update cannot tell its runs");
		diag_hint(d, "give its front matter a 'lesson:' field ('coursecheck verify %s' checks it)", relpath);
		diag_end(d);
		return false;
	}
	const char *named = u->ctx.fm.n_evidence ? u->ctx.fm.evidence[0].path : NULL;
	/* the first capture: the page is bound to the newest run, which is
	 * then both the old run and the new one */
	char *newest = NULL;
	if (named && strcmp(named, FM_EVIDENCE_NOT_YET) == 0) {
		u->first = true;
		named = newest = course_newest_evidence(u->ctx.lesson);
		u->binding = true;
		if (!newest) {
			struct diag *d = unusable(relpath, "lesson '%s' has no evidence yet", u->ctx.lesson);
			diag_hint(d, "capture it first ('make evidence LESSON=%s'), then run update", u->ctx.lesson);
			diag_end(d);
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

/* The front matter's evidence path, replaced at its own bytes: fe->col is
 * the byte where its scalar starts, at the opening quote of a quoted one,
 * and the quotes stay.  A scalar whose bytes are not the path (an escape
 * inside quotes) is left for a person rather than guessed at. */
static void rewrite_fm_path(struct update *u, const struct fm_evidence *fe)
{
	size_t len;
	const char *line = textfile_line(&u->ctx.tf, fe->line, &len);
	size_t at = fe->col ? fe->col - 1 : 0;
	if (at < len && (line[at] == '"' || line[at] == '\''))
		at++;
	size_t n = strlen(fe->path), off = (size_t)(line - u->ctx.tf.data) + at;
	if (at > len || n > len - at || memcmp(line + at, fe->path, n) != 0) {
		update_leave(u, (size_t)(line - u->ctx.tf.data), "the front matter's evidence path is not written as plain "
							  "text: name %s there by hand", u->now->path);
		return;
	}
	update_add_edit(u, off, off + n, u->now->path, strlen(u->now->path));
}

static void update_page_body(struct update *u)
{
	struct page_ctx *ctx = &u->ctx;
	bool first = ctx->fm.n_evidence && strcmp(ctx->fm.evidence[0].path, FM_EVIDENCE_NOT_YET) == 0;
	if (ctx->fm.n_evidence && (first || strcmp(u->old->path, u->now->path) != 0))
		rewrite_fm_path(u, &ctx->fm.evidence[0]);
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
/* The build's optimisation and architecture flags (-O3, -arch=sm_90),
 * as a Verified paragraph names them; malloc'd, "" when none. */
static char *build_flags(const char *build)
{
	struct buf b = {0};
	buf_puts(&b, "");
	for (const char *p = build; p && *p;) {
		size_t n = strcspn(p, " \t");
		if ((n > 2 && memcmp(p, "-O", 2) == 0) || (n > 6 && memcmp(p, "-arch=", 6) == 0))
			buf_printf(&b, "%s%.*s", b.len ? " " : "", (int)n, p);
		p += n;
		p += strspn(p, " \t");
	}
	return buf_detach(&b);
}

/* A program whose header has no Verified paragraph yet (its first
 * capture) gets one after its header comment, from the newest run: the
 * date, GPU, compute capability, driver, CUDA and build flags that verify
 * then checks, and the run's path, set off by an empty comment line (the
 * lines source-sha256 leaves out, so the run stays fresh). */
static void add_verified(struct update *u, const struct proghdr *h)
{
	const struct evidence *ev = u->now->ev;
	const char *gpu = evidence_get(ev, "gpu", NULL), *cc = evidence_get(ev, "compute-capability", NULL);
	const char *driver = evidence_get(ev, "driver", NULL), *cuda = evidence_get(ev, "cuda", NULL);
	const char *captured = evidence_get(ev, "captured", NULL);
	char *flags = build_flags(evidence_get(ev, "build", NULL));
	gpu = gpu ? gpu : "an unnamed GPU";
	bool an = strchr("AEIOUaeiou", gpu[0]) || strncmp(gpu, "NVIDIA", 6) == 0;
	char *text = xasprintf("//\n// Verified %.10s on %s %s (compute capability %s), driver\n// %s, CUDA %s%s%s. "
			       "Transcript:\n// %s\n",
			       captured ? captured : "?", an ? "an" : "a", gpu, cc ? cc : "?", driver ? driver : "?",
			       cuda ? cuda : "?", flags[0] ? ", built with " : "", flags, u->now->path);
	size_t len;
	const char *last = textfile_line(&u->ctx.tf, h->last_line, &len);
	size_t off = (size_t)(last - u->ctx.tf.data) + len;
	if (off < u->ctx.tf.len && u->ctx.tf.data[off] == '\n')
		off++;
	update_add_edit(u, off, off, text, strlen(text));
	free(text);
	free(flags);
}

static bool update_program_header(struct update *u, const char *relpath)
{
	struct page_ctx *ctx = &u->ctx;
	ctx->path = relpath;
	const char *p = relpath + 9;
	ctx->lesson = xstrndup(p, strcspn(p, "/"));
	struct program *prog = course_program(relpath);
	if (prog->state == LOAD_MALFORMED) {
		struct diag *d = unusable(relpath, "the program cannot be used: %s", prog->why ? prog->why : "malformed");
		diag_hint(d, "'coursecheck verify --affected %s' says why", relpath);
		diag_end(d);
		return false;
	}
	if (prog->state != LOAD_OK) {
		diag_report(pathkind_unusable_kind(prog->state == LOAD_REFUSED, prog->why), (struct diag_loc){.path = relpath},
			    "cannot read program: %s", prog->why);
		u->unreadable = true;
		return false;
	}
	textfile_from_memory(prog->tf.data, prog->tf.len, relpath, &ctx->tf);
	const struct proghdr *h = &prog->hdr;
	if (!h->verified) {
		if (!h->last_line) {
			struct diag *d = unusable(relpath, "the program has no header comment to add a Verified paragraph to");
			diag_hint(d, "give it a header comment with its '// Build:' and '// Run:' lines first");
			diag_end(d);
			return false;
		}
		if (!pick_runs(u, NULL))
			return false;
		add_verified(u, h);
		return true;
	}
	size_t ps, pe;
	char *named = course_verified_path(h, &ps, &pe) ? xstrndup(h->verified + ps, pe - ps) : NULL;
	bool ok = pick_runs(u, named);
	if (ok) {
		update_facts(u, h->verified, h->verified_len, h->verified_src, 0);
		if (named && strcmp(named, u->now->path) != 0) {
			size_t a = h->verified_src[ps], b = h->verified_src[pe - 1] + 1;
			update_add_edit(u, a, b, u->now->path, strlen(u->now->path));
		}
	}
	free(named);
	return ok;
}

/* The rewrites applied, for the JSON report (--format=json). */
static void report_rewrites(struct report *report, const struct update *u, const char *relpath, bool written)
{
	struct report_rewrite *rw = xcalloc(u->n_edits ? u->n_edits : 1, sizeof *rw);
	size_t n = 0;
	for (size_t i = 0; i < u->n_edits; i++)
		if (!u->edits[i].dropped)
			rw[n++] = (struct report_rewrite){u->edits[i].start, u->edits[i].end, u->edits[i].text};
	report_update(report, relpath, &u->ctx.tf, u->old->path, u->now->path, rw, n, u->left, u->flips, written);
	free(rw);
}

int update_file(struct report *report, const char *relpath, bool dry_run, bool quiet)
{
	struct update u = {0};
	if (pathkind_refuse_page(relpath, "update", true))
		return 1;
	bool program = pathkind_of(relpath) == PATHKIND_PROGRAM;
	size_t errors_before = diag_count(DIAG_ERROR);
	bool ok = program ? update_program_header(&u, relpath) : load_page(&u, relpath);
	if (!ok) {
		/* the one rule: 2 for a file that cannot be read, else 1 (an
		 * error was reported, as every reason not to update is) */
		bool unreadable = u.unreadable || diag_count(DIAG_ERROR) == errors_before;
		release(&u);
		return unreadable ? 2 : 1;
	}
	if (!program)
		update_page_body(&u);
	size_t new_len;
	char *text = apply_edits(&u, &new_len);
	int status = 0;
	bool changed = new_len != u.ctx.tf.len || memcmp(text, u.ctx.tf.data, new_len) != 0;
	bool json = report_format_of(report) == REPORT_JSON;
	if (changed && !json) {
		print_diff(relpath, u.ctx.tf.data, u.ctx.tf.len, text, new_len);
		fflush(stdout); /* the diff before the summary, however the streams are joined */
	}
	if (changed && !dry_run && write_atomically(relpath, u.ctx.tf.data, u.ctx.tf.len, text, new_len) != 0)
		status = 2;
	if (json)
		report_rewrites(report, &u, relpath, changed && !dry_run && status == 0);
	if (!quiet && u.first)
		fprintf(stderr,
			"coursecheck update: %s: evidence: none yet -> %s: first capture: %zu rewrite%s%s, %zu number%s to "
			"replace, %zu left for a person\n",
			relpath, u.now->path, u.n_edits, u.n_edits == 1 ? "" : "s", dry_run ? " (dry run)" : "",
			u.to_replace, u.to_replace == 1 ? "" : "s", u.left);
	else if (!quiet)
		fprintf(stderr,
			"coursecheck update: %s: %s -> %s: %zu rewrite%s%s, %zu left for a person, %zu claim flip%s\n",
			relpath, u.old->path, u.now->path, u.n_edits, u.n_edits == 1 ? "" : "s",
			dry_run ? " (dry run)" : "", u.left, u.flips, u.flips == 1 ? "" : "s");
	/* the worst diagnostic decides, as in verify: left items, claim
	 * flips and refusals are errors */
	if (!status && diag_count(DIAG_ERROR) > errors_before)
		status = 1;
	free(text);
	release(&u);
	return status;
}

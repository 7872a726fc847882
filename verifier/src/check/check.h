/*
 * check.h - the checks of one page and of one lesson program.
 *
 * check_page() runs the phases in order over one page: read, front
 * matter, evidence state, Markdown structure, code blocks, measured
 * paragraphs, numbers.  Every problem goes out through diag; every claim
 * judged goes into the ledger (for `explain`).  check_program() checks a
 * lesson program's snippet markers and its header against its evidence.
 */
#ifndef COURSECHECK_CHECK_H
#define COURSECHECK_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#include "course.h"
#include "pagectx.h"

struct check_opts {
	bool strict; /* --as published: published strictness whatever the status */
	FILE *plan;  /* explain --plan: capture's comparisons are written here (capture_auto.h), or NULL */
	bool approving; /* approve, approvals, review: the review gate's items are what the command shows
			 * itself (approvals.h), not reported (check_approvals.h) */
};

/* Checks the page at relpath.  Returns 0 when it was read (whatever it
 * holds) and -1 when the file itself cannot be read (reported). */
int check_page(const char *relpath, const struct check_opts *opts, struct ledger *lg);
/* check_page() over text[0..len) (borrowed; copied and normalised as a
 * file is) in place of the file at relpath: the language server checks
 * an editor's unsaved buffer by the same phases.  NULL text: the file. */
int check_page_text(const char *relpath, const char *text, size_t len, const struct check_opts *opts,
		    struct ledger *lg);
/* Checks programs/LESSON: its program's markers and header. */
void check_program(const char *lesson, const struct check_opts *opts);

/* Before the first capture (check_first.c): `evidence: none yet`, or a
 * README without front matter whose lesson has no evidence, is reported
 * once and sets ctx->no_evidence_yet (the checks that need evidence are
 * then skipped).  check_readme_status() gives a README without front
 * matter the status of its lesson's page. */
void check_first_capture(struct page_ctx *ctx);
/* Whether the page that names lesson says `evidence: none yet`: it then
 * carries the lesson's one "awaits its first capture" line, and its README
 * and program add none. */
bool check_first_page_awaits(const char *lesson);
void check_readme_status(struct page_ctx *ctx);

/* Phases, one file each. */
void check_code_blocks(struct page_ctx *ctx);
void check_measured(struct page_ctx *ctx);
void check_numbers(struct page_ctx *ctx);

struct bank_entry;
struct num_token;
/* For review: a reference from le to the evidence token e (what, when not
 * NULL, says what it is: "literal 170530", "candidate"), named by its row
 * and column or header key; with page (the page's number, claim its text)
 * the rounding when the page shows fewer digits than the evidence. */
void check_ledger_ref(struct ledger_entry *le, const struct bank_entry *e, const struct num_token *page,
		      const char *claim, const char *what);

/* Which run and stream of its evidence a transcript block quotes
 * (check_runs.c): the first run's stdout unless its marker names
 * RUN/STREAM.  Returns the evidence, or NULL after reporting. */
struct transcript_source {
	const struct evidence_run *run;
	bool err;          /* stderr rather than stdout */
	char what[96];     /* "stdout", "stderr of run racecheck" */
	char shown[112];   /* "" for the default, else " (run racecheck, stderr)" */
};
struct evfile *transcript_source_find(struct page_ctx *ctx, const struct page_block *b, struct transcript_source *src);

/* Judges one evidence file for the program that should have produced it:
 * lesson and program match, not stale, not failed.  at: where the
 * evidence is named. */
void check_evidence_state(const struct evfile *ev, const char *lesson, struct program *prog,
			  struct diag_loc at, const char *fix_hint);

#endif

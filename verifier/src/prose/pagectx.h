/*
 * pagectx.h - the page being checked: its text, front matter and Markdown
 * model, its lesson, program and evidence, and what the checks have
 * learnt of it so far.  One per page, below the checks (check.h), which
 * read it and add to it; update builds one too.
 *
 * Ownership, field by field: "owned" fields are freed by pagectx_free(),
 * the one teardown; "borrowed" ones belong to someone who outlives the
 * page (the caller, the course cache of course.h until the next
 * course_page_done(), the ledger's owner).
 */
#ifndef COURSECHECK_PAGECTX_H
#define COURSECHECK_PAGECTX_H

#include <stdbool.h>
#include <stddef.h>

#include "course.h"
#include "facts.h"
#include "frontmatter.h"
#include "ledger.h"
#include "page.h"
#include "textfile.h"

struct check_opts;

struct page_ctx {
	const char *path;            /* borrowed: the caller's repository path */
	const struct check_opts *opts; /* borrowed: the command's options */
	struct textfile tf;          /* owned: the page as read */
	struct frontmatter fm;       /* owned */
	struct page pg;              /* owned: the Markdown model (points into tf) */
	bool is_readme;              /* programs/LESSON/README.md (pathkind.h) */
	char *lesson;                /* owned: from the front matter or the folder */
	struct program *prog;        /* borrowed from the course cache; NULL when it cannot be used */
	struct evfile **ev;          /* the array owned, each entry borrowed from the course cache;
	                              * one per front matter evidence entry, NULL entries unusable */
	size_t n_ev;
	struct fact_range *consumed; /* owned: file offsets that facts consumed */
	size_t n_consumed, cap_consumed;
	size_t n_consumed_merged;    /* consumed[0..this) is sorted and disjoint (prose.c) */
	struct ledger *ledger;       /* borrowed: explain's and review's ledger, or NULL */
	bool no_evidence_yet;        /* evidence: none yet (check_first.c) */
	/* The page's policy (diag.h): set from its front matter and the
	 * options, lent to the reporter for the page's file region. */
	struct diag_policy policy;
	/* Where the page's own problems go while it is read: DIAG_REPORT, or
	 * DIAG_DROP while update reads it only to trace its numbers (verify
	 * reports them).  The zero value reports. */
	enum diag_dest to;
};

/* Frees every owned field and zeroes ctx (borrowed ones are left to
 * their owners).  Safe on a zeroed or partly filled ctx. */
void pagectx_free(struct page_ctx *ctx);

/* The evidence for a marker label ("" or NULL: the default), or NULL after
 * reporting an unknown label at (line, col) of the page. */
struct evfile *pagectx_evidence_for(struct page_ctx *ctx, const char *label, size_t line, size_t col);
/* The file of <!-- snippet: FILE#NAME --> (FILE being arg's first len
 * bytes): repository-relative when it starts with programs/ or pages/,
 * else relative to the lesson's folder, where "../common/x.h" names the
 * shared folder; any other "..", or an absolute path, as written, for
 * repo_resolve to refuse.  Malloc'd.  The one rule of verify and update. */
char *pagectx_snippet_path(const struct page_ctx *ctx, const char *arg, size_t len);

#endif

/*
 * report.h - the machine-readable reports: every diagnostic of a command,
 * as text (diag's own printer, streamed to standard error), JSON, SARIF
 * 2.1.0, GitHub Actions workflow commands or JUnit XML.
 *
 * report_start() installs a diag sink (diag.h) that copies each finished
 * diagnostic into the report; report_finish() renders the whole report
 * on its stream (GitHub's commands are streamed as they come instead, so
 * a long run annotates as it goes).  The verify and explain loops mark
 * the file being checked with report_file_begin/end, which gives JUnit its
 * test suites and the JSON report its per-file counts.  One module per
 * format (report_json.c, report_sarif.c, report_github.c,
 * report_junit.c) renders from the records kept here (report_impl.h).
 *
 * A report is its command's value (struct report, from report_start to
 * report_finish, which frees it); only its sink is installed in diag's
 * process-wide reporter while it is open.
 * The JSON layout is described by verifier/schema/coursecheck-report-1.json
 * (verify, explain and update).
 */
#ifndef COURSECHECK_REPORT_H
#define COURSECHECK_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ledger.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_SARIF, REPORT_GITHUB, REPORT_JUNIT };

/* "text", "json", ... -> the format; returns -1 for an unknown name. */
int report_format_parse(const char *name, enum report_format *out);
/* The format when none is given: github inside GitHub Actions
 * (GITHUB_ACTIONS=true) when standard output is not a terminal, else text. */
enum report_format report_format_default(void);

struct report;

/* Starts the report of one command ("verify") in format f on out (not
 * closed here; command borrowed until report_finish).  For text,
 * diagnostics stay diag's own text on its stream.  The caller owns the
 * report until report_finish. */
struct report *report_start(enum report_format f, FILE *out, const char *command);
enum report_format report_format_of(const struct report *r);

/* Brackets the diagnostics of one checked file (a page, a program README,
 * a lesson program folder).  Nested calls are not allowed. */
void report_file_begin(struct report *r, const char *path);
void report_file_end(struct report *r);
/* Room for n more files, made at once: a run that knows how many files
 * it will bracket (verify over the whole course) keeps exactly that many
 * records, not the next power of two. */
void report_reserve_files(struct report *r, size_t n);

/* Who vouched for one run a page names (evsig.h's verdict, in the
 * report's own words): signature is evsig_state_name's; the others are
 * NULL where the verdict has none. */
struct report_run {
	const char *path;
	const char *signature;
	const char *principal, *key, *valid_after, *valid_before;
	const char *captured;
	const char *why;
};

/* Keeps a copy of a page's ledger, and of the runs it names, for
 * explain's JSON report. */
void report_ledger(struct report *r, const char *page, const struct ledger *lg, const struct report_run *runs,
		   size_t n_runs);

/* One rewrite that `update` makes (or would make, under --dry-run): the
 * bytes [start, end) of the file's text become new_text. */
struct report_rewrite {
	size_t start, end;
	const char *new_text;
};
struct textfile;
/* Keeps, for update's JSON report, what update did to one file: the runs
 * it carried from and to, its rewrites (sorted, not overlapping), how many
 * items it left for a person, its claim flips, whether it wrote the file. */
void report_update(struct report *r, const char *path, const struct textfile *tf, const char *from, const char *to,
		   const struct report_rewrite *rw, size_t n, size_t left, size_t flips, bool written);

struct report_summary {
	size_t pages, programs;
	int status; /* the exit status the command will return */
};

/* Renders the report (nothing more for text), uninstalls its sink and
 * frees it.  Returns 0, or -1 when writing failed (errno set). */
int report_finish(struct report *r, const struct report_summary *s);
/* Uninstalls the sink and frees the report unrendered (a command that
 * stops before its work, exit 2). */
void report_discard(struct report *r);

#endif

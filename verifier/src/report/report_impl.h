/*
 * report_impl.h - what report.c keeps of a command's diagnostics, for the
 * format modules (report_json.c, report_sarif.c, report_github.c,
 * report_junit.c).  Not for use outside them.
 *
 * Everything here is owned by report.c: copies of diag's records made
 * when each diagnostic ended, freed by report_finish().
 */
#ifndef COURSECHECK_REPORT_IMPL_H
#define COURSECHECK_REPORT_IMPL_H

#include <jansson.h>
#include <stdio.h>

#include "diag.h"
#include "report.h"

#define REPORT_NO_FILE ((size_t)-1)

struct report_where {
	char *path; /* NULL: none */
	size_t line, col, end_col; /* code points; 0: unknown (see diag.h) */
	char *line_text; /* the line, or its window (DIAG_LINE_WINDOW); NULL: none */
	size_t text_col; /* the column (code points) of line_text's first character */
	bool cut;        /* line_text is a window of a longer line */
};

struct report_note {
	struct report_where at;
	char *message;
};

struct report_item {
	enum diag_kind kind;
	enum diag_level level;
	char *message;
	struct report_where at;
	struct report_note *notes;
	size_t n_notes;
	char *text, *hint; /* NULL: none */
	char *rendered;    /* the text printer's rendering, without colour */
	size_t file;       /* index into report.files, or REPORT_NO_FILE */
};

struct report_file {
	char *path;
	size_t checks, errors, warnings;
	size_t first_check; /* diag_checks() when it began */
};

/* A report_run's copy: every string malloc'd, or NULL. */
struct report_run_copy {
	char *path, *signature, *principal, *key, *valid_after, *valid_before, *captured, *why;
};

struct report_page_ledger {
	char *path;
	struct ledger lg;
	struct report_run_copy *runs;
	size_t n_runs;
};

/* A place in a file's text: line, and column in code points (1-based). */
struct report_place {
	size_t line, col;
};
struct report_rewrite_copy {
	struct report_place from, to; /* to: the character after the old text */
	char *old_text, *new_text;
};
struct report_update_file {
	char *path, *from, *to;
	struct report_rewrite_copy *rewrites;
	size_t n_rewrites, left, flips;
	bool written;
};

struct report {
	enum report_format format;
	FILE *out;
	const char *command;
	struct report_item *items;
	size_t n_items, cap_items;
	struct report_file *files;
	size_t n_files, cap_files;
	size_t open_file; /* REPORT_NO_FILE when none */
	struct report_page_ledger *ledgers;
	size_t n_ledgers, cap_ledgers;
	struct report_update_file *updates;
	size_t n_updates, cap_updates;
	struct diag_sink sink; /* keep(), with this report as its ctx */
};

/* "error", "warning", "note" (inline: the renderers call it, and report.c
 * calls the renderers; one direction between modules). */
static inline const char *report_level_word(enum diag_level level)
{
	return level == DIAG_ERROR ? "error" : level == DIAG_WARNING ? "warning" : "note";
}

/* A JSON string of s (NULL: null); bytes that are not UTF-8 become U+FFFD,
 * so the document stays valid whatever the input held. */
json_t *report_json_str(const char *s);
/* Writes a JSON document and a newline, members in the order they were set. */
int report_json_dump(const json_t *doc, FILE *out);

/* Each renders the whole report on r->out. Returns 0 or -1 (write error). */
int report_render_json(const struct report *r, const struct report_summary *s);
int report_render_sarif(const struct report *r, const struct report_summary *s);
int report_render_junit(const struct report *r, const struct report_summary *s);
/* GitHub's workflow commands stream: one per diagnostic as it ends. */
void report_github_emit(FILE *out, const struct diag_record *d);

#endif

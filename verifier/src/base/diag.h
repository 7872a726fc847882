/*
 * diag.h - the diagnostics table and its one printer.
 *
 * Every diagnostic goes through here (as in mandoc's mandoc_msg): a check
 * opens one with diag_begin(), may attach notes (the other end: a source or
 * evidence location), free text (a diff) and one hint (the command that
 * fixes it), then diag_end() prints it and counts it.  Nobody formats a
 * diagnostic by hand anywhere else.
 *
 * Output is GNU style on the reporter's stream (stderr by default):
 *   path:line:col: error: message [id]
 *    12 | the offending line
 *       |     ^~~~
 *   other/path:40:1: note: ...
 *   hint: ...
 *
 * The reporter is process-wide state that the command line sets up once
 * (stream, colour, sink, the run's policy).  What changes per document
 * travels with it: the page policy is the document's own value, lent to
 * the reporter for its file region (diag_file_begin), and a reading whose
 * problems are not its reader's to report takes DIAG_DROP from its caller
 * (diag_begin_to).  No module changes another's output by a toggle.
 *
 * This is what a check needs.  How verify -j carries a worker's findings
 * to its parent (the forwarding hooks, the replay, the parent's once
 * keys) is diag_internal.h's, included only by diagwire and parallel
 * (and cli, which silences a reading through the hooks).
 */
#ifndef COURSECHECK_DIAG_H
#define COURSECHECK_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util.h"

enum diag_kind {
#define DIAG(name, id, level, desc) name,
#include "diag.def"
#undef DIAG
	DIAG_KIND_COUNT
};

enum diag_level { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR };

/* A place in a file.  line and col are 1-based; col counts bytes + 1 and 0
 * means "the whole line".  span is the number of bytes to underline (0: a
 * single caret).  text/text_len is the raw line for the caret display
 * (NULL: no caret line).  path is borrowed for the diagnostic's life. */
struct diag_loc {
	const char *path;
	size_t line;
	size_t col;
	size_t span;
	const char *text;
	size_t text_len;
};

struct diag;

/* A diagnostic as data, for reports other than the text one (report.h).
 * Columns here count Unicode code points (1-based; end_col exclusive; 0:
 * unknown, the whole line), as SARIF's unicodeCodePoints and GitHub's
 * annotations want; the text printer keeps its byte columns.  Everything
 * is borrowed for the duration of the sink's emit call only. */
/* A line longer than DIAG_LINE_WINDOW code points reaches a sink as a
 * window of that many around its place, DIAG_WINDOW_BEFORE of them before
 * the column: a record (and a report, and verify -j's wire) is bounded
 * by its input, not by the line times the findings on it. */
#define DIAG_LINE_WINDOW 240
#define DIAG_WINDOW_BEFORE 80
struct diag_where {
	const char *path; /* NULL: no file (a command-line problem) */
	size_t line, col, end_col;
	const char *line_text; /* the located line without its newline (or its window), or NULL */
	size_t line_len;
	size_t line_col; /* the column (code points) of line_text's first character: 1, or more in a window */
	bool line_cut;   /* line_text is a window of a longer line */
};
struct diag_record_note {
	struct diag_where at;
	const char *message;
};
struct diag_record {
	enum diag_kind kind;
	enum diag_level level;
	const char *message;
	struct diag_where at;
	const struct diag_record_note *notes;
	size_t n_notes;
	const char *text;     /* free text under the notes (a diff), or NULL */
	const char *hint;     /* or NULL */
	const char *rendered; /* the whole diagnostic as the text printer prints it */
};
/* Where finished diagnostics go.  NULL (the default) prints them as text on
 * the reporter's stream; a sink takes each one instead, when it is ended. */
struct diag_sink {
	void (*emit)(const struct diag_record *r, void *ctx);
	void *ctx;
};
void diag_set_sink(const struct diag_sink *sink);
/* The sink set now (NULL: text), for a command that sets another for a while. */
const struct diag_sink *diag_get_sink(void);

/* Sets up the reporter.  color: use ANSI colour (the caller decides from
 * isatty and NO_COLOR). */
void diag_init(FILE *out, bool color);
/* A document's policy: draft makes STAT kinds warnings (a draft page);
 * strict makes every warning an error (--as published, or a published
 * page).  The zero value is a published-strictness-free default: STAT
 * kinds are errors, warnings stay warnings. */
struct diag_policy {
	bool draft;
	bool strict;
};
/* The run's policy, for what is reported outside any file region (the
 * command line sets it once: --as published is strict). */
void diag_set_run_policy(struct diag_policy policy);

/* A file region: the diagnostics between diag_file_begin(path, policy) and
 * diag_file_end() are about one document.  policy is the document's own
 * (a page's lives in its struct page_ctx and changes once its front
 * matter is read), borrowed until diag_file_end() and read at each
 * diagnostic; NULL: the run's policy.  At most DIAG_MAX_PER_FILE of them
 * are printed; the rest still count (the summary and the exit status see
 * them all) and diag_file_end() prints one line saying how many of them
 * path left out. */
#define DIAG_MAX_PER_FILE 200
void diag_file_begin(const char *path, const struct diag_policy *policy);
void diag_file_end(void);
/* True when the next diagnostic would not be printed (past its file's
 * cap): a check may then skip work done only for the message (a closest
 * run, a diff), so a file of many problems costs no more than the cap's
 * worth of messages. */
bool diag_quiet(void);

/* The level a kind has under the policy in force (the file region's, else
 * the run's). */
enum diag_level diag_level_of(enum diag_kind kind);
/* The level a kind has on a published page, whatever the policy: STAT
 * kinds are errors (for report rule tables). */
enum diag_level diag_base_level(enum diag_kind kind);
const char *diag_id(enum diag_kind kind);
const char *diag_description(enum diag_kind kind);

/* Who hears a diagnostic: DIAG_REPORT, the run's reporter; DIAG_DROP,
 * nobody (dropped uncounted).  A module that reads a file on behalf of
 * another (the cite index reading a page's front matter, update reading
 * the page it rewrites) is given DIAG_DROP by its caller as a value, since
 * that file's own problems are reported when the file is checked itself. */
enum diag_dest { DIAG_REPORT, DIAG_DROP };

struct diag *diag_begin(enum diag_kind kind, struct diag_loc at, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* diag_begin() for dest: a dropped diagnostic takes notes and hints and
 * diag_end() frees it, printing and counting nothing. */
struct diag *diag_begin_to(enum diag_dest dest, enum diag_kind kind, struct diag_loc at, const char *fmt, ...)
	PRINTF_LIKE(4, 5);
/* diag_begin() with the arguments as a va_list, for a module's own
 * reporting helper (fmt and ap as vprintf takes them; ap is used up). */
struct diag *diag_vbegin(enum diag_kind kind, struct diag_loc at, const char *fmt, va_list ap) PRINTF_LIKE(3, 0);
struct diag *diag_vbegin_to(enum diag_dest dest, enum diag_kind kind, struct diag_loc at, const char *fmt, va_list ap)
	PRINTF_LIKE(4, 0);
void diag_note(struct diag *d, struct diag_loc at, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Free text printed under the notes, each line indented (a unified diff). */
void diag_text(struct diag *d, const char *text);
void diag_hint(struct diag *d, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Prints, counts and frees the diagnostic. */
void diag_end(struct diag *d);

/* A problem of the command itself, not of a file: its command line, the
 * course it runs in, where its output goes.  Printed at once on standard
 * error as "COMMAND: error: message [id]" (command: "coursecheck verify"),
 * whatever the sink or --output (a report that is never finished would
 * lose it), counted, never capped or forwarded.  diag_hint and diag_end
 * as for any other. */
struct diag *diag_command_begin(enum diag_kind kind, const char *command, const char *fmt, ...) PRINTF_LIKE(3, 4);
void diag_command(enum diag_kind kind, const char *command, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* diag_command for a caller that takes its own varargs (cliopt_usage_error
 * and the like). */
void diag_vcommand(enum diag_kind kind, const char *command, const char *fmt, va_list ap);

/* A one-shot diagnostic with no note or hint. */
void diag_report(enum diag_kind kind, struct diag_loc at, const char *fmt, ...) PRINTF_LIKE(3, 4);
void diag_report_to(enum diag_dest dest, enum diag_kind kind, struct diag_loc at, const char *fmt, ...)
	PRINTF_LIKE(4, 5);

/* A region that reports a shared file's own problems once a run (a
 * program's snippet markers, an evidence file's seal, a refused folder),
 * keyed "what:path"; its caller keeps the memo.  In one process the
 * brackets do nothing; a worker of verify -j (parallel.h) forwards them,
 * and the parent keeps the first region of each key in page order
 * (diag_internal.h). */
void diag_once_begin(const char *what, const char *path);
void diag_once_end(void);
/* The caller's memo says the region of what:path was reported already (a
 * cache hit).  In one process nothing happens; a worker of verify -j sends
 * the region again at each item that uses the file (diag_forward's
 * touch), since its items need not come in page order: the parent keeps
 * the first in page order. */
void diag_once_touch(const char *what, const char *path);

/* Counters for the summary line and the exit status. */
size_t diag_count(enum diag_level level);
/* Adds n to the number of checks run (printed in the summary). */
void diag_checks_add(size_t n);
size_t diag_checks(void);
/* The count of diagnostics of one kind so far (the unit tests count a
 * kind; no command does). */
size_t diag_count_kind(enum diag_kind kind);
/* Prints the table of kinds (`coursecheck ids`). */
void diag_print_table(FILE *out);

#endif

/*
 * cli.h - the command line of coursecheck: one function per command, each
 * taking its own argv (argv[0] is the command name), parsing it with
 * cliopt_parse (cliopt.h) and returning the process exit status by one
 * rule (cliopt_status, the worst level): 2 usage error, a file named on
 * the command line that cannot be read, or a write error; else 1 when an
 * error was reported; else 0.  A command's own errors go through
 * diag_command (diag.h), with an id, like every other finding.
 */
#ifndef COURSECHECK_CLI_H
#define COURSECHECK_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "cliopt.h"
#include "report.h"
#include "util.h"

int cli_verify(int argc, char **argv);

struct cliopt;

/* Shared by every command: diagnostics on standard error, in colour as
 * --color and the environment say (cliopt_use_color); and the release of
 * everything the run cached, at exit, so leak checkers stay quiet. */
void cli_setup(const struct cliopt *o);
/* The same for a command whose output is text (text) or a report read by
 * a program (no colour then). */
void cli_setup_diag(const struct cliopt *o, bool text);
struct cliopt_cmd;

/* One run of a command with a report (--format, --output): the caller's,
 * on its stack, filled by cli_begin and ended by cli_end. */
struct cli_run {
	const char *name;             /* "verify", for the report */
	const struct cliopt_cmd *cmd; /* for messages */
	struct cliopt opt;
	enum report_format format;
	FILE *out;                    /* the report's stream: stdout, or buffer's */
	struct report *report;        /* owned: from cli_begin, freed by cli_end */
	char *buffer;                 /* owned: the report while it is written, when --output names a file */
	size_t buffer_len;
};
/* Sets up the report and the diagnostics for what cliopt_parse found;
 * formats_all: every format, else text and json only.  Returns 0, or -1
 * after a message. */
int cli_begin(struct cli_run *run, const struct cliopt_cmd *cmd, const char *name, const struct cliopt *o,
	      bool formats_all);
/* Renders the report, writes --output, frees what run owns, and returns
 * the exit status by the one rule: at least floor, at least 1 when an
 * error was reported, 2 when writing the report failed. */
int cli_end(struct cli_run *run, int floor, size_t pages, size_t programs);
/* Ends a run that stops before its work: the report is dropped unrendered
 * and what run owns is freed.  Returns 2, the status of such a stop. */
int cli_abandon(struct cli_run *run);
/* Opens the course: --root DIR (which must hold one), else the nearest
 * folder at or above the current one that does (repo_find).  Returns 0,
 * or -1 after reporting course-not-found for cmd. */
int cli_open_course(const struct cliopt_cmd *cmd, const char *root);
/* Reports operand-unusable for cmd: a file or value on its command line
 * that cannot be read or used (the caller exits 2). */
void cli_operand_unusable(const struct cliopt_cmd *cmd, const char *fmt, ...) PRINTF_LIKE(2, 3);
void cli_release(void);
/* Whether the file path would lie in the course's own folders (pages/,
 * programs/, evidence/): no report or review is written there. */
bool cli_in_course_folders(const char *path);

int cli_explain(int argc, char **argv);
int cli_ids(int argc, char **argv);
int cli_source_sha256(int argc, char **argv);

#endif

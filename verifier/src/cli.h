/*
 * cli.h - the command line of coursecheck: one function per command, each
 * taking its own argv (argv[0] is the command name), parsing it with
 * cliopt_parse (cliopt.h) and returning the process exit status by one
 * rule: 2 usage error, a file named on the command line that cannot be
 * read, or a write error; else 1 when an error was reported; else 0.
 */
#ifndef COURSECHECK_CLI_H
#define COURSECHECK_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

int cli_verify(int argc, char **argv);

struct cliopt;

/* Shared by every command: diagnostics on standard error, in colour as
 * --color and the environment say (cliopt_use_color); and the release of
 * everything the run cached, at exit, so leak checkers stay quiet. */
void cli_setup(const struct cliopt *o);
struct cliopt_cmd;
/* For a command with a report (--format, --output): sets up the report
 * and the diagnostics for what cliopt_parse found; formats_all: every
 * format, else text and json only.  Returns 0, or -1 after a message. */
int cli_begin(const struct cliopt_cmd *cmd, const char *name, const struct cliopt *o, bool formats_all);
/* Renders the report, writes --output, and returns the exit status by the
 * one rule: at least floor, at least 1 when an error was reported, 2 when
 * writing the report failed. */
int cli_end(int floor, size_t pages, size_t programs);
void cli_setup_diag(void);
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

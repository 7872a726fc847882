/*
 * cli.h - the command line of coursecheck: one function per command, each
 * taking its own argv (argv[0] is the command name) and returning the
 * process exit status: 0 clean, 1 problems found in the course, 2 usage
 * error or a file named on the command line that cannot be read.
 */
#ifndef COURSECHECK_CLI_H
#define COURSECHECK_CLI_H

int cli_verify(int argc, char **argv);

/* Shared by every command: diagnostics on standard error, in colour only
 * on a terminal and never when NO_COLOR is set; and the release of
 * everything the run cached, at exit, so leak checkers stay quiet. */
void cli_setup_diag(void);
void cli_release(void);

int cli_explain(int argc, char **argv);
int cli_ids(int argc, char **argv);
int cli_source_sha256(int argc, char **argv);

#endif

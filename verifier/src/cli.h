/*
 * cli.h - the command line of coursecheck: one function per command, each
 * taking its own argv (argv[0] is the command name), parsing it with
 * cliopt_parse (cliopt.h) and returning the process exit status by one
 * rule: 2 usage error, a file named on the command line that cannot be
 * read, or a write error; else 1 when an error was reported; else 0.
 */
#ifndef COURSECHECK_CLI_H
#define COURSECHECK_CLI_H

int cli_verify(int argc, char **argv);

struct cliopt;

/* Shared by every command: diagnostics on standard error, in colour as
 * --color and the environment say (cliopt_use_color); and the release of
 * everything the run cached, at exit, so leak checkers stay quiet. */
void cli_setup(const struct cliopt *o);
void cli_setup_diag(void);
void cli_release(void);

int cli_explain(int argc, char **argv);
int cli_ids(int argc, char **argv);
int cli_source_sha256(int argc, char **argv);

#endif

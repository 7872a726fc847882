/*
 * cliopt.h - the one option parser of both binaries (libc only, so the
 * capture binary links it too).
 *
 * Every command parses its argv through cliopt_parse(): getopt_long over
 * the options every command shares (-h/--help, --version, --root=DIR, -q,
 * --color=WHEN, and, where the command has a report, --format and
 * --output) followed by the command's own, with GNU behaviour: `--`
 * ends the options, `--opt=VALUE` and `--opt VALUE` are the same, an
 * unambiguous prefix of a long option is accepted, and a missing value
 * is "option requires an argument".  Usage errors print one line, the
 * synopsis and where to read more on standard error; --help prints the usage and
 * --version the version on standard output.
 *
 * The exit status of every command comes from one rule (cliopt_status):
 * 2 for a usage error, an unreadable operand or a write error on standard
 * output or error; else 1 when any error diagnostic was reported; else 0.
 */
#ifndef COURSECHECK_CLIOPT_H
#define COURSECHECK_CLIOPT_H

#include <getopt.h>
#include <stdbool.h>

#define COURSECHECK_VERSION "1.0.0"

enum cliopt_color { CLIOPT_COLOR_AUTO, CLIOPT_COLOR_NEVER, CLIOPT_COLOR_ALWAYS };

/* What a command takes besides -h, --version, --root, -q and --color. */
enum { CLIOPT_REPORT = 1 }; /* --format=FORMAT and --output=FILE */

struct cliopt_cmd {
	const char *name;           /* in messages: "coursecheck verify" */
	const char *usage;          /* the --help text */
	const char *shorts;         /* the command's own short options, getopt syntax, or "" */
	const struct option *longs; /* its own long options, {0}-terminated, or NULL */
	unsigned takes;             /* CLIOPT_REPORT or 0 */
};

/* The shared options as given (strings borrowed from argv). */
struct cliopt {
	const char *root;   /* NULL: not given */
	bool quiet;         /* -q: only diagnostics, no summary */
	enum cliopt_color color;
	const char *format; /* NULL: not given */
	const char *output; /* NULL: standard output */
};

/* Handles one of the command's own options; returns 0, or -1 after
 * cliopt_usage_error() said what is wrong. */
typedef int cliopt_own_fn(int ch, const char *arg, void *ctx);

enum { CLIOPT_DONE = -1, CLIOPT_USAGE = -2 };

/* Parses argv (argv[0] is the command's name).  Returns the index of the
 * first operand; CLIOPT_DONE after --help or --version was printed (exit
 * 0); CLIOPT_USAGE after a usage error was printed (exit 2). */
int cliopt_parse(int argc, char **argv, const struct cliopt_cmd *cmd, struct cliopt *o, cliopt_own_fn *own,
		 void *ctx);

/* Reports "NAME: error: MESSAGE [usage]" (diag_command), then prints the
 * usage's first line (the synopsis) and "Try 'NAME --help' for more
 * information." on standard error; returns -1. */
int cliopt_usage_error(const struct cliopt_cmd *cmd, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Whether to paint output on fd: NO_COLOR (set and not empty) always wins;
 * then --color=never/always; then CLICOLOR_FORCE (set, not empty, not
 * "0") forces colour; TERM=dumb refuses it; else only on a terminal. */
bool cliopt_use_color(enum cliopt_color color, int fd);

/* The one rule for every command's exit status, as mandoc's worst level:
 * floor (2 for a usage error, an operand that cannot be used or a write
 * error; 1 for what the command judged a failure without a diagnostic, an
 * interrupted capture), raised to 1 when any error diagnostic was
 * reported. */
int cliopt_status(int floor);

/* Reports output-failed for the command name ("coursecheck verify"): its
 * report or standard output cannot be written (the caller exits 2). */
void cliopt_output_failed(const char *name, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Flushes standard output and error; returns 2 when either failed (after
 * reporting output-failed on standard error if it still works), else
 * status. */
int cliopt_close_streams(const char *name, int status);

#endif

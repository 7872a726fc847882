/* cliopt.c - see cliopt.h. */
#include "cliopt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "util.h"

/* The shared options' values sit above every character a command uses. */
enum { OPT_ROOT = 0x100, OPT_COLOR, OPT_VERSION, OPT_FORMAT, OPT_OUTPUT };

static const struct option common_longs[] = {
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, OPT_VERSION},
	{"root", required_argument, NULL, OPT_ROOT},
	{"quiet", no_argument, NULL, 'q'},
	{"color", required_argument, NULL, OPT_COLOR},
	{"colour", required_argument, NULL, OPT_COLOR},
};
static const struct option report_longs[] = {
	{"format", required_argument, NULL, OPT_FORMAT},
	{"output", required_argument, NULL, OPT_OUTPUT},
};

int cliopt_usage_error(const struct cliopt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vcommand(D_USAGE, cmd->name, fmt, ap);
	va_end(ap);
	/* GNU style: the synopsis, and where the rest is */
	fprintf(stderr, "%.*s\nTry '%s --help' for more information.\n", (int)strcspn(cmd->usage, "\n"), cmd->usage,
		cmd->name);
	return -1;
}

/* The table getopt_long reads: the shared options, the report options if
 * the command takes them, then the command's own. */
static struct option *all_longs(const struct cliopt_cmd *cmd)
{
	size_t n_own = 0;
	while (cmd->longs && cmd->longs[n_own].name)
		n_own++;
	size_t n = ARRAY_LEN(common_longs) + ARRAY_LEN(report_longs) + n_own + 1, k = 0;
	struct option *v = xcalloc(n, sizeof *v);
	for (size_t i = 0; i < ARRAY_LEN(common_longs); i++)
		v[k++] = common_longs[i];
	if (cmd->takes & CLIOPT_REPORT)
		for (size_t i = 0; i < ARRAY_LEN(report_longs); i++)
			v[k++] = report_longs[i];
	for (size_t i = 0; i < n_own; i++)
		v[k++] = cmd->longs[i];
	return v;
}

/* The option as the user wrote it, without a value: "--as", "-j". */
static char *spelled(char **argv, int at, int short_ch)
{
	const char *a = argv[at - 1];
	if (strncmp(a, "--", 2) == 0)
		return xstrndup(a, strcspn(a, "="));
	return xasprintf("-%c", short_ch);
}

static int parse_color(const char *v, enum cliopt_color *out)
{
	static const struct {
		const char *name;
		enum cliopt_color c;
	} words[] = {{"auto", CLIOPT_COLOR_AUTO}, {"never", CLIOPT_COLOR_NEVER}, {"always", CLIOPT_COLOR_ALWAYS}};
	for (size_t i = 0; i < ARRAY_LEN(words); i++)
		if (strcmp(v, words[i].name) == 0) {
			*out = words[i].c;
			return 0;
		}
	return -1;
}

static int common_option(const struct cliopt_cmd *cmd, int ch, const char *arg, struct cliopt *o)
{
	switch (ch) {
	case OPT_ROOT:
		if (!*arg)
			return cliopt_usage_error(cmd, "--root takes a folder, not an empty string");
		o->root = arg;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	case OPT_COLOR:
		if (parse_color(arg, &o->color) != 0)
			return cliopt_usage_error(cmd, "--color takes auto, always or never, not '%s'", arg);
		return 0;
	case OPT_FORMAT:
		o->format = arg;
		return 0;
	case OPT_OUTPUT:
		if (!*arg)
			return cliopt_usage_error(cmd, "--output takes a file name, not an empty string");
		o->output = arg;
		return 0;
	default:
		return 1; /* not a shared option */
	}
}

int cliopt_parse(int argc, char **argv, const struct cliopt_cmd *cmd, struct cliopt *o, cliopt_own_fn *own,
		 void *ctx)
{
	memset(o, 0, sizeof *o);
	struct option *longs = all_longs(cmd);
	/* ':' first: a missing value is told apart from an unknown option */
	char *shorts = xasprintf(":hq%s", cmd->shorts ? cmd->shorts : "");
	optind = 0; /* 0, not 1: glibc then resets its state fully */
	opterr = 0;
	int status = 0, ch;
	while (status == 0 && (ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (ch == 'h') {
			fputs(cmd->usage, stdout);
			status = CLIOPT_DONE;
		} else if (ch == OPT_VERSION) {
			/* GNU style: the program's name and version ("coursecheck 1.0.0") */
			printf("%.*s %s\n", (int)strcspn(cmd->name, " "), cmd->name, COURSECHECK_VERSION);
			status = CLIOPT_DONE;
		} else if (ch == ':' || ch == '?') {
			char *opt = spelled(argv, optind, optopt);
			cliopt_usage_error(cmd, ch == ':' ? "option '%s' requires an argument" : "unknown option '%s'", opt);
			free(opt);
			status = CLIOPT_USAGE;
		} else {
			int r = common_option(cmd, ch, optarg, o);
			if (r > 0)
				r = own ? own(ch, optarg, ctx) : cliopt_usage_error(cmd, "unknown option");
			if (r < 0)
				status = CLIOPT_USAGE;
		}
	}
	free(longs);
	free(shorts);
	return status ? status : optind;
}

bool cliopt_use_color(enum cliopt_color color, int fd)
{
	const char *no_color = getenv("NO_COLOR");
	if (no_color && *no_color)
		return false;
	if (color != CLIOPT_COLOR_AUTO)
		return color == CLIOPT_COLOR_ALWAYS;
	const char *force = getenv("CLICOLOR_FORCE");
	if (force && *force && strcmp(force, "0") != 0)
		return true;
	const char *term = getenv("TERM");
	if (term && strcmp(term, "dumb") == 0)
		return false;
	return isatty(fd);
}

int cliopt_status(int floor)
{
	int worst = diag_count(DIAG_ERROR) ? 1 : 0;
	return floor > worst ? floor : worst;
}

void cliopt_output_failed(const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vcommand(D_OUTPUT_FAILED, name, fmt, ap);
	va_end(ap);
}

int cliopt_close_streams(const char *name, int status)
{
	bool bad = false;
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno;
		cliopt_output_failed(name, "write error on standard output%s%s", e ? ": " : "", e ? strerror(e) : "");
		bad = true;
	}
	if (fflush(stderr) != 0 || ferror(stderr))
		bad = true;
	return bad ? 2 : status;
}

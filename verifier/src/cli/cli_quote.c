/* cli_quote.c - see cli_quote.h. */
#include "cli_quote.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cliopt.h"
#include "evidence.h"
#include "repo.h"
#include "util.h"

static const char quote_usage[] =
	"usage: coursecheck quote [OPTION...] EVIDENCE LINES\n"
	"  Prints a transcript block (its marker and a ```text fence) holding lines N-M\n"
	"  of a run's stdout or stderr in EVIDENCE, counted from 1.  Default: the first\n"
	"  run's stdout.\n"
	"  --run=NAME        the run named NAME in the evidence's runs: line\n"
	"  --stream=STREAM   stdout (default) or stderr\n"
	"  --label=LABEL     the evidence label the marker names (a page's evidence: entry)\n"
	"  --root=DIR        the course (default: found from the current folder upward)\n"
	"  -q, --quiet       accepted, as by every command (quote prints no summary)\n"
	"  --color=WHEN      auto (default), always or never\n"
	"  -h, --help        this text\n"
	"      --version     the version\n"
	"Exit status: 0 printed, 2 usage, an unreadable evidence file or lines it lacks.\n";

struct quote_opts {
	const char *run, *stream, *label;
};

static const struct cliopt_cmd quote_cmd;

/* An operand that cannot be used: reported (operand-unusable), exit 2. */
static int fail(const char *fmt, const char *a, const char *b)
{
	cli_operand_unusable(&quote_cmd, fmt, a, b);
	return 2;
}

/* "30" or "30-35" -> [from, to], 1-based. */
static bool parse_lines(const char *s, size_t *from, size_t *to)
{
	char *end;
	errno = 0;
	if (*s < '1' || *s > '9')
		return false;
	unsigned long a = strtoul(s, &end, 10), b = a;
	if (*end == '-') {
		if (end[1] < '1' || end[1] > '9')
			return false;
		b = strtoul(end + 1, &end, 10);
	}
	if (errno || *end || b < a)
		return false;
	*from = a;
	*to = b;
	return true;
}

/* A fence longer than any run of backticks in the lines. */
static size_t fence_len(const struct evidence *ev, const struct evidence_run *r, bool err, size_t from, size_t to)
{
	size_t longest = 0;
	for (size_t k = from; k <= to; k++) {
		size_t len, run = 0;
		const char *s = evidence_run_line(ev, r, err, k - 1, &len);
		for (size_t i = 0; i < len; i++) {
			run = s[i] == '`' ? run + 1 : 0;
			if (run > longest)
				longest = run;
		}
	}
	return longest >= 3 ? longest + 1 : 3;
}

char *cli_quote_text(const struct evidence *ev, const struct evidence_run *r, bool err, const char *label, size_t from,
		     size_t to)
{
	struct buf b = {0};
	bool plain = !err && r == &ev->runs[0];
	buf_puts(&b, "<!-- transcript");
	if (label || !plain)
		buf_putc(&b, ':');
	if (label)
		buf_printf(&b, " %s", label);
	if (!plain)
		buf_printf(&b, " %s/%s", r->name, err ? "stderr" : "stdout");
	buf_puts(&b, " -->\n");
	size_t f = fence_len(ev, r, err, from, to);
	for (size_t i = 0; i < f; i++)
		buf_putc(&b, '`');
	buf_puts(&b, "text\n");
	for (size_t k = from; k <= to; k++) {
		size_t len;
		const char *s = evidence_run_line(ev, r, err, k - 1, &len);
		buf_append(&b, s, len);
		buf_putc(&b, '\n');
	}
	for (size_t i = 0; i < f; i++)
		buf_putc(&b, '`');
	buf_putc(&b, '\n');
	return buf_detach(&b);
}

static int quote(const struct quote_opts *o, const char *path, const char *lines)
{
	size_t from, to;
	if (!parse_lines(lines, &from, &to))
		return fail("LINES must be N or N-M (from 1, N <= M), not '%s'%s", lines, "");
	bool err = o->stream && strcmp(o->stream, "stderr") == 0;
	if (o->stream && !err && strcmp(o->stream, "stdout") != 0)
		return fail("--stream is stdout or stderr, not '%s'%s", o->stream, "");
	char *fs;
	const char *why;
	if (repo_resolve(path, &fs, &why) != REPO_OK)
		return fail("%s: %s", path, why);
	struct evidence ev;
	struct evidence_problem prob;
	int rc = evidence_load(fs, path, &ev, &prob, &why);
	free(fs);
	if (rc != 0) {
		int r = fail("%s: %s", path, rc == -1 ? why : prob.message);
		evidence_free(&ev);
		return r;
	}
	int status = 0;
	const struct evidence_run *r = evidence_run_named(&ev, o->run);
	size_t n = r ? (err ? r->n_stderr : r->n_stdout) : 0;
	if (!r) {
		status = fail("%s holds no run '%s'", path, o->run);
	} else if (to > n) {
		char have[64];
		snprintf(have, sizeof have, "%zu", n);
		status = fail("the stream holds %s lines; LINES ends at %s", have, lines);
	} else {
		char *block = cli_quote_text(&ev, r, err, o->label, from, to);
		fputs(block, stdout);
		free(block);
	}
	evidence_free(&ev);
	return status;
}

enum { OPT_RUN = 0x200, OPT_STREAM, OPT_LABEL };
static const struct option quote_longs[] = {
	{"run", required_argument, NULL, OPT_RUN},
	{"stream", required_argument, NULL, OPT_STREAM},
	{"label", required_argument, NULL, OPT_LABEL},
	{NULL, 0, NULL, 0},
};
static const struct cliopt_cmd quote_cmd = {"coursecheck quote", quote_usage, "", quote_longs, 0};

static int quote_option(int ch, const char *arg, void *ctx)
{
	struct quote_opts *o = ctx;
	switch (ch) {
	case OPT_RUN:
		o->run = arg;
		return 0;
	case OPT_STREAM:
		if (strcmp(arg, "stdout") != 0 && strcmp(arg, "stderr") != 0)
			return cliopt_usage_error(&quote_cmd, "--stream takes stdout or stderr, not '%s'", arg);
		o->stream = arg;
		return 0;
	case OPT_LABEL:
		o->label = arg;
		return 0;
	default:
		return -1;
	}
}

int cli_quote(int argc, char **argv)
{
	struct quote_opts q = {0};
	struct cliopt o;
	int first = cliopt_parse(argc, argv, &quote_cmd, &o, quote_option, &q);
	if (first < 0)
		return first == CLIOPT_DONE ? 0 : 2;
	if (argc - first != 2) {
		cliopt_usage_error(&quote_cmd, "takes EVIDENCE and LINES (%d operand%s given)", argc - first,
				   argc - first == 1 ? "" : "s");
		return 2;
	}
	if (cli_open_course(&quote_cmd, o.root) != 0)
		return 2;
	char *rel = repo_operand(argv[first]);
	int status = quote(&q, rel, argv[first + 1]);
	free(rel);
	repo_close();
	return cliopt_status(status);
}

/* cli_quote.c - see cli_quote.h. */
#include "cli_quote.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "repo.h"
#include "util.h"

static const char quote_usage[] =
	"usage: coursecheck quote [--root DIR] [--run NAME] [--stream stdout|stderr] [--label LABEL] EVIDENCE LINES\n"
	"  Prints a transcript block (its marker and a ```text fence) holding lines N-M of\n"
	"  a run's stdout or stderr in EVIDENCE, counted from 1.  Default: the first run's stdout.\n";

struct quote_opts {
	const char *root, *run, *stream, *label;
};

static int fail(const char *fmt, const char *a, const char *b)
{
	fputs("coursecheck quote: ", stderr);
	fprintf(stderr, fmt, a, b);
	fputs("\n", stderr);
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
		bool plain = !err && r == &ev.runs[0];
		printf("<!-- transcript");
		if (o->label || !plain)
			printf(":");
		if (o->label)
			printf(" %s", o->label);
		if (!plain)
			printf(" %s/%s", r->name, err ? "stderr" : "stdout");
		printf(" -->\n");
		size_t f = fence_len(&ev, r, err, from, to);
		for (size_t i = 0; i < f; i++)
			putchar('`');
		printf("text\n");
		for (size_t k = from; k <= to; k++) {
			size_t len;
			const char *s = evidence_run_line(&ev, r, err, k - 1, &len);
			printf("%.*s\n", (int)len, s);
		}
		for (size_t i = 0; i < f; i++)
			putchar('`');
		putchar('\n');
	}
	evidence_free(&ev);
	return status;
}

int cli_quote(int argc, char **argv)
{
	static const struct option longs[] = {
		{"root", required_argument, NULL, 'R'},   {"run", required_argument, NULL, 'r'},
		{"stream", required_argument, NULL, 's'}, {"label", required_argument, NULL, 'l'},
		{"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
	};
	struct quote_opts o = {0};
	optind = 1;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "+h", longs, NULL)) != -1) {
		switch (ch) {
		case 'R':
			o.root = optarg;
			break;
		case 'r':
			o.run = optarg;
			break;
		case 's':
			o.stream = optarg;
			break;
		case 'l':
			o.label = optarg;
			break;
		case 'h':
			fputs(quote_usage, stdout);
			return 0;
		default:
			fprintf(stderr, "coursecheck quote: unknown option '%s'\n%s", argv[optind - 1], quote_usage);
			return 2;
		}
	}
	if (argc - optind != 2) {
		fputs(quote_usage, stderr);
		return 2;
	}
	if (repo_open(o.root ? o.root : ".") != 0)
		return fail("cannot open repository '%s': %s", o.root ? o.root : ".", strerror(errno));
	int status = quote(&o, argv[optind], argv[optind + 1]);
	repo_close();
	return status;
}

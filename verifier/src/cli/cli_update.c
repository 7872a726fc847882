/*
 * cli_update.c - the command line of `coursecheck update` (cliopt.h):
 * its options, the course, and each FILE through update_file (update.h);
 * the exit status by cli_end's one rule.
 */
#include "cli_update.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cliopt.h"
#include "repo.h"
#include "update.h"

static const char update_usage[] =
	"usage: coursecheck update [OPTION...] FILE...\n"
	"  Points each FILE (a page, a program README or a program's Verified\n"
	"  header) at the newest evidence of its lesson and rewrites what is\n"
	"  mechanical; prints the rewrites as a unified diff.\n"
	"  --dry-run         print the diff, write nothing\n"
	"  --format=FORMAT   text (default: a unified diff) or json (each rewrite\n"
	"                    with its old and new text and span)\n"
	"  --output=FILE     write the JSON report (or, as text, the diagnostics) to FILE\n"
	"  --root=DIR        the course (default: found from the current folder upward)\n"
	"  -q, --quiet       no summary lines\n"
	"  --color=WHEN      auto (default), always or never\n"
	"  -h, --help        this text\n"
	"      --version     the version\n"
	"Exit status: 0 all carried, 1 an error (something left for a person, a\n"
	"claim flip, a refused run), 2 usage or a file that cannot be read or written.\n";

enum { OPT_DRY_RUN = 0x200 };
static const struct option update_longs[] = {
	{"dry-run", no_argument, NULL, OPT_DRY_RUN},
	{NULL, 0, NULL, 0},
};
static const struct cliopt_cmd update_cmd = {"coursecheck update", update_usage, "", update_longs, CLIOPT_REPORT};

static int update_option(int ch, const char *arg, void *ctx)
{
	(void)arg;
	if (ch != OPT_DRY_RUN)
		return -1;
	*(bool *)ctx = true;
	return 0;
}

int cli_update(int argc, char **argv)
{
	bool dry_run = false;
	struct cliopt o;
	int i = cliopt_parse(argc, argv, &update_cmd, &o, update_option, &dry_run);
	if (i < 0)
		return i == CLIOPT_DONE ? 0 : 2;
	if (i == argc) {
		cliopt_usage_error(&update_cmd, "no FILE given");
		return 2;
	}
	struct cli_run run;
	if (cli_begin(&run, &update_cmd, "update", &o, false) != 0)
		return 2;
	if (cli_open_course(&update_cmd, o.root) != 0)
		return cli_abandon(&run);
	int status = 0;
	size_t files = 0;
	for (; i < argc; i++, files++) {
		char *rel = repo_operand(argv[i]);
		int rc = update_file(run.report, rel, dry_run, o.quiet);
		free(rel);
		if (rc > status)
			status = rc;
	}
	status = cli_end(&run, status, files, 0);
	cli_release();
	return status;
}

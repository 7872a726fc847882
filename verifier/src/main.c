/*
 * main.c - coursecheck: keeps the course's pages and programs true to the
 * evidence recorded on the verification node.
 */
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "cli.h"
#include "cli_approve.h"
#include "cli_quote.h"
#include "cli_update.h"
#include "cli_whystale.h"
#include "cliopt.h"
#include "cli_lsp.h"
#include "review.h"

static const char usage[] =
	"usage: coursecheck COMMAND [OPTION...] [ARGS]\n"
	"\n"
	"  verify [PAGE...]          check pages, program READMEs and programs\n"
	"  explain PAGE...           print the ledger of every claim of a page\n"
	"  review [PAGE...]          write HTML pages showing every claim beside its evidence\n"
	"  approve PAGE              sign off a page's claims as a reviewer\n"
	"  approvals [PAGE...]       what changed since the approvals (the delta review)\n"
	"  capture [LESSON...]       run lessons on this GPU machine, write evidence\n"
	"  update FILE...            carry the newest evidence into pages and headers\n"
	"  quote EVIDENCE LINES      print a transcript block for lines of a run\n"
	"  lesson-files LESSON       the files capture copies and records for a lesson\n"
	"  why-stale LESSON          why a lesson's newest evidence is stale\n"
	"  lsp                       a language server for editors, on stdin and stdout\n"
	"  ids                       list the diagnostic kinds and their ids\n"
	"  source-sha256 FILE...     the source-sha256 capture records for a program\n"
	"  help [COMMAND]            this text, or a command's options\n"
	"\n"
	"Every command takes -h/--help, --version, --root=DIR, -q, --color=WHEN\n"
	"and --; verify and explain take --format=FORMAT and --output=FILE,\n"
	"review --output=DIR.\n"
	"Run 'coursecheck help COMMAND' for a command's options; man coursecheck.\n";

/* For the usage errors of the command word itself (cliopt_usage_error). */
static const struct cliopt_cmd top_cmd = {"coursecheck", usage, "", NULL, 0};

static const struct {
	const char *name;
	int (*run)(int, char **);
} commands[] = {
	{"verify", cli_verify},
	{"explain", cli_explain},
	{"review", cli_review},
	{"approve", cli_approve},
	{"approvals", cli_approvals},
	{"capture", capture_command},
	{"update", cli_update},
	{"quote", cli_quote},
	{"lesson-files", cli_lesson_files},
	{"why-stale", cli_why_stale},
	{"lsp", cli_lsp},
	{"ids", cli_ids},
	{"source-sha256", cli_source_sha256},
};

static int (*command_named(const char *name))(int, char **)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(name, commands[i].name) == 0)
			return commands[i].run;
	return NULL;
}

/* `coursecheck help [COMMAND]`: the top usage, or COMMAND --help. */
static int help(int argc, char **argv)
{
	/* `help`, `help --help` and `help help` all print the top usage: help
	 * is a command like the others, and its own --help is no usage error */
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	int (*run)(int, char **) = command_named(argv[1]);
	if (!run) {
		cliopt_usage_error(&top_cmd, "unknown command '%s'", argv[1]);
		return 2;
	}
	char *args[] = {argv[1], (char *)"--help", NULL};
	return run(2, args);
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		cliopt_usage_error(&top_cmd, "no command given ('coursecheck help' lists them)");
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("coursecheck %s\n", COURSECHECK_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "help") == 0)
		return help(argc - 1, argv + 1);
	int (*run)(int, char **) = command_named(argv[1]);
	if (run)
		return run(argc - 1, argv + 1);
	cliopt_usage_error(&top_cmd, "unknown command '%s'", argv[1]);
	return 2;
}

int main(int argc, char **argv)
{
	return cliopt_close_streams("coursecheck", dispatch(argc, argv));
}

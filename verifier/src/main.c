/*
 * main.c - coursecheck: keeps the course's pages and programs true to the
 * evidence recorded on the verification node.
 */
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "cli.h"
#include "cli_quote.h"
#include "update.h"

static const char usage[] =
	"usage: coursecheck COMMAND [ARGS]\n"
	"\n"
	"  verify [--as published] [PAGE...]   check pages, program READMEs and programs\n"
	"  explain PAGE...                     print the ledger of every claim of a page\n"
	"  capture [LESSON...]                 run lessons on this GPU machine, write evidence\n"
	"  update [--dry-run] FILE...          carry the newest evidence into pages and headers\n"
	"  quote EVIDENCE LINES                print a transcript block for lines of a run\n"
	"  lesson-files LESSON                 the files capture copies and records for a lesson\n"
	"  ids                                 list the diagnostic kinds and their ids\n"
	"  source-sha256 FILE...               the source-sha256 capture records for a program\n"
	"\n"
	"Run 'coursecheck COMMAND --help' for a command's options.\n";

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int, char **);
	} commands[] = {
		{"verify", cli_verify},
		{"explain", cli_explain},
		{"capture", capture_command},
		{"update", cli_update},
		{"quote", cli_quote},
		{"lesson-files", cli_lesson_files},
		{"ids", cli_ids},
		{"source-sha256", cli_source_sha256},
	};
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "coursecheck: unknown command '%s'\n%s", argv[1], usage);
	return 2;
}

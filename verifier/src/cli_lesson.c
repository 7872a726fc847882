/* cli_lesson.c - see cli_quote.h: `coursecheck lesson-files LESSON`. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "cli_quote.h"
#include "cli.h"
#include "cliopt.h"
#include "lessonfiles.h"
#include "repo.h"
#include "util.h"

static const char lesson_files_usage[] =
	"usage: coursecheck lesson-files [OPTION...] LESSON\n"
	"  Prints the files capture copies for a lesson and records in its evidence, as\n"
	"  the evidence header has them: source-sha256, then source-file-N: PATH SHA-256.\n"
	"  --root=DIR        the course (default: found from the current folder upward)\n"
	"  -q, --quiet       accepted, as by every command (lesson-files prints no summary)\n"
	"  --color=WHEN      auto (default), always or never\n"
	"  -h, --help        this text\n"
	"      --version     the version\n"
	"Exit status: 0 listed, 2 usage, files that cannot be read or a lesson without a program.\n";
static const struct cliopt_cmd lesson_files_cmd = {"coursecheck lesson-files", lesson_files_usage, "", NULL, 0};

int cli_lesson_files(int argc, char **argv)
{
	struct cliopt o;
	int i = cliopt_parse(argc, argv, &lesson_files_cmd, &o, NULL, NULL);
	if (i < 0)
		return i == CLIOPT_DONE ? 0 : 2;
	if (argc - i != 1) {
		cliopt_usage_error(&lesson_files_cmd, "takes one LESSON (%d operand%s given)", argc - i,
				   argc - i == 1 ? "" : "s");
		return 2;
	}
	if (cli_open_course(&lesson_files_cmd, o.root) != 0)
		return 2;
	struct lesson_files f;
	char *why = NULL;
	int status = 0;
	if (lessonfiles_collect(argv[i], &f, &why) != 0) {
		cli_operand_unusable(&lesson_files_cmd, "%s", why);
		free(why);
		status = 2;
	} else {
		struct buf b = {0};
		buf_printf(&b, "source-sha256: %s\n", f.sha);
		lessonfiles_header(&b, &f);
		fputs(b.s, stdout);
		buf_free(&b);
		if (f.program == SIZE_MAX) {
			cli_operand_unusable(&lesson_files_cmd, "%s has no program (lessonfiles.h's rule)", argv[i]);
			status = 2;
		}
		lessonfiles_free(&f);
	}
	repo_close();
	return cliopt_status(status);
}

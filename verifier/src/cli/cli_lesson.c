/* cli_lesson.c - see cli_quote.h: `coursecheck lesson-files LESSON`. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "cli_quote.h"
#include "cli.h"
#include "cliopt.h"
#include "lessonfiles.h"
#include "readset.h"
#include "srctok.h"
#include "textfile.h"
#include "repo.h"
#include "util.h"

static const char lesson_files_usage[] =
	"usage: coursecheck lesson-files [OPTION...] LESSON\n"
	"  Prints the files capture copies for a lesson and records in its evidence, as\n"
	"  the evidence header has them: source-sha256, then source-file-N: PATH SHA-256.\n"
	"  --rule=tokens-1   as capture records them now: sources hashed by their tokens,\n"
	"                    with source-rule: and reads: lines (every file: reads: all-files)\n"
	"  --deps=FILE       with --rule: only the files a build read, from the make rules\n"
	"                    its compilers wrote to FILE (DEPENDENCIES_OUTPUT, or -MD), paths\n"
	"                    relative to the lesson folder\n"
	"  --root=DIR        the course (default: found from the current folder upward)\n"
	"  -q, --quiet       accepted, as by every command (lesson-files prints no summary)\n"
	"  --color=WHEN      auto (default), always or never\n"
	"  -h, --help        this text\n"
	"      --version     the version\n"
	"Exit status: 0 listed, 2 usage, files that cannot be read or a lesson without a program.\n";
enum { OPT_RULE = 0x300, OPT_DEPS };
static const struct option lesson_files_longs[] = {
	{"rule", required_argument, NULL, OPT_RULE},
	{"deps", required_argument, NULL, OPT_DEPS},
	{0},
};
static const struct cliopt_cmd lesson_files_cmd = {"coursecheck lesson-files", lesson_files_usage, "",
						   lesson_files_longs, 0};

struct lesson_files_opts {
	bool tokens;      /* --rule=tokens-1 */
	const char *deps; /* --deps=FILE */
};

static int lesson_files_option(int ch, const char *arg, void *ctx)
{
	struct lesson_files_opts *lo = ctx;
	if (ch == OPT_RULE) {
		if (strcmp(arg, SRCTOK_RULE) != 0)
			return cliopt_usage_error(&lesson_files_cmd, "--rule takes %s, not '%s'", SRCTOK_RULE, arg);
		lo->tokens = true;
	} else {
		lo->deps = arg;
	}
	return 0;
}

/* The header lines under the tokens rule: of every file, or of those the
 * dependency output names.  0, or 2 when it cannot be read. */
static int print_tokens_rule(const struct lesson_files *f, const char *lesson, const char *deps)
{
	struct textfile tf = {0};
	const char *why = NULL;
	if (deps && textfile_read(deps, deps, &tf, &why) != 0) {
		cli_operand_unusable(&lesson_files_cmd, "--deps=%s: %s", deps, why);
		return 2;
	}
	struct readset r;
	char *top = xasprintf("%s/programs", repo_root());
	char *dir = xasprintf("%s/%s", top, lesson);
	if (deps)
		readset_from_deps(&r, f, tf.data, tf.len, top, dir);
	else
		readset_all(&r, f);
	struct buf b = {0};
	buf_printf(&b, "source-sha256: %s\n", r.sha);
	readset_header(&b, &r, f);
	fputs(b.s, stdout);
	buf_free(&b);
	readset_free(&r);
	free(top);
	free(dir);
	textfile_free(&tf);
	return 0;
}

int cli_lesson_files(int argc, char **argv)
{
	struct cliopt o;
	struct lesson_files_opts lo = {0};
	int i = cliopt_parse(argc, argv, &lesson_files_cmd, &o, lesson_files_option, &lo);
	if (i < 0)
		return i == CLIOPT_DONE ? 0 : 2;
	if (argc - i != 1) {
		cliopt_usage_error(&lesson_files_cmd, "takes one LESSON (%d operand%s given)", argc - i,
				   argc - i == 1 ? "" : "s");
		return 2;
	}
	if (lo.deps && !lo.tokens) {
		cliopt_usage_error(&lesson_files_cmd, "--deps goes with --rule=%s", SRCTOK_RULE);
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
		if (lo.tokens) {
			status = print_tokens_rule(&f, argv[i], lo.deps);
		} else {
			struct buf b = {0};
			buf_printf(&b, "source-sha256: %s\n", f.sha);
			lessonfiles_header(&b, &f);
			fputs(b.s, stdout);
			buf_free(&b);
		}
		if (f.program == SIZE_MAX) {
			cli_operand_unusable(&lesson_files_cmd, "%s has no program (lessonfiles.h's rule)", argv[i]);
			status = 2;
		}
		lessonfiles_free(&f);
	}
	repo_close();
	return cliopt_status(status);
}

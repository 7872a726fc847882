/* cli_lesson.c - see cli_quote.h: `coursecheck lesson-files LESSON`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "cli_quote.h"
#include "lessonfiles.h"
#include "repo.h"
#include "util.h"

int cli_lesson_files(int argc, char **argv)
{
	const char *root = ".";
	int i = 1;
	if (i + 1 < argc && strcmp(argv[i], "--root") == 0) {
		root = argv[i + 1];
		i += 2;
	}
	if (argc - i != 1 || argv[i][0] == '-') {
		fputs("usage: coursecheck lesson-files [--root DIR] LESSON\n"
		      "  Prints the files capture copies for a lesson and records in its evidence, as the\n"
		      "  evidence header has them: source-sha256, then source-file-N: PATH SHA-256.\n",
		      argc - i == 1 && strcmp(argv[i], "--help") == 0 ? stdout : stderr);
		return argc - i == 1 && strcmp(argv[i], "--help") == 0 ? 0 : 2;
	}
	if (repo_open(root) != 0) {
		fprintf(stderr, "coursecheck lesson-files: cannot open repository '%s': %s\n", root, strerror(errno));
		return 2;
	}
	struct lesson_files f;
	char *why = NULL;
	int status = 0;
	if (lessonfiles_collect(argv[i], &f, &why) != 0) {
		fprintf(stderr, "coursecheck lesson-files: %s\n", why);
		free(why);
		status = 2;
	} else {
		struct buf b = {0};
		buf_printf(&b, "source-sha256: %s\n", f.sha);
		lessonfiles_header(&b, &f);
		fputs(b.s, stdout);
		buf_free(&b);
		if (f.program == SIZE_MAX) {
			fprintf(stderr, "coursecheck lesson-files: %s has no program (lessonfiles.h's rule)\n", argv[i]);
			status = 2;
		}
		lessonfiles_free(&f);
	}
	repo_close();
	return status;
}

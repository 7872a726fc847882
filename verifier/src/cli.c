/* cli.c - see cli.h. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "course.h"
#include "diag.h"
#include "proghdr.h"
#include "numtok.h"
#include "re.h"
#include "repo.h"
#include "util.h"

struct common {
	const char *root;
	bool strict;
};

void cli_setup_diag(void)
{
	const char *no_color = getenv("NO_COLOR");
	diag_init(stderr, isatty(STDERR_FILENO) && !(no_color && *no_color));
}

/* Parses the options shared by verify and explain.  Returns the index of
 * the first operand, or -1 after a usage message. */
static int parse_common(int argc, char **argv, struct common *c, const char *usage)
{
	static const struct option longs[] = {
		{"root", required_argument, NULL, 'r'},
		{"as", required_argument, NULL, 'a'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "+h", longs, NULL)) != -1) {
		switch (ch) {
		case 'r':
			c->root = optarg;
			break;
		case 'a':
			if (strcmp(optarg, "published") != 0) {
				fprintf(stderr, "coursecheck %s: --as takes 'published', not '%s'\n", argv[0], optarg);
				return -1;
			}
			c->strict = true;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			fprintf(stderr, "coursecheck %s: unknown option '%s'\n%s", argv[0], argv[optind - 1], usage);
			return -1;
		}
	}
	char *why;
	if (repo_find(c->root, &why) != 0) {
		fprintf(stderr, "coursecheck %s: %s\n", argv[0], why);
		free(why);
		return -1;
	}
	return optind;
}

static bool readme_exists(const char *lesson, char **rel)
{
	*rel = xasprintf("programs/%s/README.md", lesson);
	char *fs;
	const char *why;
	bool ok = repo_resolve(*rel, &fs, &why) == REPO_OK && access(fs, F_OK) == 0;
	free(fs);
	return ok;
}

/* Names on the command line are taken from the current folder (or from
 * the root with --root) and normalised: see repo_operand(). */
static char *operand_path(const char *arg)
{
	return repo_operand(arg);
}

void cli_release(void)
{
	check_numbers_release();
	course_release();
	re_release_all();
	numtok_release_patterns();
	repo_close();
}

static int finish(const char *what, size_t pages, size_t programs)
{
	size_t errors = diag_count(DIAG_ERROR), warnings = diag_count(DIAG_WARNING);
	fprintf(stderr, "coursecheck %s: %zu page%s, %zu program%s, %zu check%s: %zu error%s, %zu warning%s\n", what,
		pages, pages == 1 ? "" : "s", programs, programs == 1 ? "" : "s", diag_checks(),
		diag_checks() == 1 ? "" : "s", errors,
		errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	cli_release();
	return errors ? 1 : 0;
}

static const char verify_usage[] =
	"usage: coursecheck verify [--as published] [--root DIR] [PAGE...]\n"
	"  Checks pages against their programs and evidence.  With no PAGE: every\n"
	"  pages/*.md, every programs/*/README.md and every lesson program.\n"
	"  --as published  check at published strictness (warnings are errors)\n"
	"  --root DIR      the course (default: found from the current folder upward)\n";

int cli_verify(int argc, char **argv)
{
	cli_setup_diag();
	struct common c = {0};
	int first = parse_common(argc, argv, &c, verify_usage);
	if (first < 0)
		return 2;
	struct check_opts opts = {.strict = c.strict};
	size_t pages = 0, programs = 0;
	int status = 0;
	if (first < argc) {
		for (int i = first; i < argc; i++) {
			char *rel = operand_path(argv[i]);
			if (check_page(rel, &opts, NULL) != 0)
				status = 2;
			else
				pages++;
			free(rel);
		}
	} else {
		char **names;
		size_t n = course_pages(&names);
		for (size_t i = 0; i < n; i++) {
			check_page(names[i], &opts, NULL);
			free(names[i]);
		}
		free(names);
		pages += n;
		char **lessons;
		size_t nl = course_lessons(&lessons);
		for (size_t i = 0; i < nl; i++) {
			char *readme;
			if (readme_exists(lessons[i], &readme)) {
				check_page(readme, &opts, NULL);
				pages++;
			}
			free(readme);
			check_program(lessons[i], &opts);
			programs++;
			free(lessons[i]);
		}
		free(lessons);
	}
	int rc = finish("verify", pages, programs);
	return status ? status : rc;
}

static const char explain_usage[] =
	"usage: coursecheck explain [--as published] [--root DIR] PAGE...\n"
	"  Prints the ledger of each page: every code block with its provenance,\n"
	"  every checked number with where it was traced, derived or declared\n"
	"  external, every number skipped and why, and totals.  Diagnostics go to\n"
	"  standard error as in verify.\n";

int cli_explain(int argc, char **argv)
{
	cli_setup_diag();
	struct common c = {0};
	int first = parse_common(argc, argv, &c, explain_usage);
	if (first < 0)
		return 2;
	if (first == argc) {
		fputs(explain_usage, stderr);
		return 2;
	}
	struct check_opts opts = {.strict = c.strict};
	int status = 0;
	size_t pages = 0;
	for (int i = first; i < argc; i++) {
		char *rel = operand_path(argv[i]);
		struct ledger lg = {0};
		if (check_page(rel, &opts, &lg) != 0) {
			status = 2;
		} else {
			ledger_print(&lg, rel, stdout);
			pages++;
		}
		ledger_free(&lg);
		free(rel);
	}
	fflush(stdout);
	int rc = finish("explain", pages, 0);
	return status ? status : rc;
}

int cli_ids(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	diag_print_table(stdout);
	return 0;
}

int cli_source_sha256(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: coursecheck source-sha256 FILE...\n"
		      "  Prints the SHA-256 that capture records as source-sha256: the program's text\n"
		      "  with LF line endings and without its Verified paragraph.\n",
		      stderr);
		return 2;
	}
	int status = 0;
	for (int i = 1; i < argc; i++) {
		struct textfile tf;
		const char *why;
		if (textfile_read(argv[i], argv[i], &tf, &why) != 0) {
			fprintf(stderr, "coursecheck source-sha256: %s: %s\n", argv[i], why);
			status = 2;
			continue;
		}
		char sha[SHA256_HEX_LEN + 1];
		proghdr_source_sha256(&tf, sha);
		printf("%s  %s\n", sha, argv[i]);
		textfile_free(&tf);
	}
	return status;
}

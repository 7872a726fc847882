/* cli.c - see cli.h. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cliopt.h"
#include "filewrite.h"
#include "lessonfiles.h"
#include "course.h"
#include "diag.h"
#include "diag_internal.h"
#include "diagwire.h"
#include "evsig.h"
#include "proghdr.h"
#include "numtok.h"
#include "parallel.h"
#include "re.h"
#include "repo.h"
#include "report.h"
#include "util.h"

void cli_setup_diag(const struct cliopt *o, bool text)
{
	diag_init(stderr, cliopt_use_color(o->color, STDERR_FILENO) && text);
}

void cli_setup(const struct cliopt *o)
{
	cli_setup_diag(o, true);
}

int cli_begin(struct cli_run *run, const struct cliopt_cmd *cmd, const char *name, const struct cliopt *o,
	      bool formats_all)
{
	*run = (struct cli_run){0};
	run->name = name;
	run->cmd = cmd;
	run->opt = *o;
	run->format = report_format_default();
	if (o->format && report_format_parse(o->format, &run->format) != 0)
		return cliopt_usage_error(cmd, "--format takes text, json, sarif, github or junit, not '%s'", o->format);
	if (!formats_all && run->format != REPORT_TEXT && run->format != REPORT_JSON) {
		if (o->format)
			return cliopt_usage_error(cmd, "--format takes text or json, not '%s'", o->format);
		run->format = REPORT_TEXT; /* GitHub's default is for verify */
	}
	run->out = stdout;
	if (o->output) {
		run->out = open_memstream(&run->buffer, &run->buffer_len);
		if (!run->out) {
			cliopt_output_failed(cmd->name, "--output=%s: %s", o->output, strerror(errno));
			return -1;
		}
	}
	cli_setup_diag(o, run->format == REPORT_TEXT);
	if (run->format == REPORT_TEXT && o->output)
		diag_init(run->out, false);
	run->report = report_start(run->format, run->out, name);
	return 0;
}

int cli_abandon(struct cli_run *run)
{
	report_discard(run->report);
	run->report = NULL;
	cli_setup_diag(&run->opt, run->format == REPORT_TEXT); /* off --output's stream, if it was on it */
	if (run->opt.output && run->out) {
		fclose(run->out);
		free(run->buffer);
		run->buffer = NULL;
	}
	run->out = NULL;
	return 2;
}

/* A run that finds no course checks nothing: it is refused, never a
 * pass. */
int cli_open_course(const struct cliopt_cmd *cmd, const char *root)
{
	char *why;
	if (repo_find(root, &why) != 0) {
		diag_command(D_COURSE_NOT_FOUND, cmd->name, "%s", why);
		free(why);
		return -1;
	}
	return 0;
}

void cli_operand_unusable(const struct cliopt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vcommand(D_OPERAND_UNUSABLE, cmd->name, fmt, ap);
	va_end(ap);
}

/* Whether path lies in the course's own folders (pages/, programs/,
 * evidence/): a report never writes over the data it checks. */
bool cli_in_course_folders(const char *path)
{
	char *copy = xstrdup(path), *slash = strrchr(copy, '/');
	if (slash)
		*slash = '\0';
	char *dir = realpath(slash ? (*copy ? copy : "/") : ".", NULL), *root = realpath(repo_root(), NULL);
	bool inside = false;
	static const char *const folders[] = {"pages", "programs", "evidence"};
	for (size_t i = 0; dir && root && i < ARRAY_LEN(folders); i++) {
		char *top = xasprintf("%s/%s", root, folders[i]);
		size_t n = strlen(top);
		inside |= strncmp(dir, top, n) == 0 && (dir[n] == '\0' || dir[n] == '/');
		free(top);
	}
	free(dir);
	free(root);
	free(copy);
	return inside;
}

/* Writes the report kept in memory to --output's file. */
static int write_output(struct cli_run *run)
{
	fclose(run->out);
	run->out = NULL;
	if (cli_in_course_folders(run->opt.output)) {
		cliopt_output_failed(run->cmd->name,
			     "--output=%s: refused: a report is not written into pages/, programs/ or evidence/",
			     run->opt.output);
		free(run->buffer);
		run->buffer = NULL;
		return -1;
	}
	/* through the one atomic writer: a reader of the report (a CI step, an
	 * editor) never sees half of it, a report file keeps its mode, and a
	 * link in its place (a checkout's coursecheck.sarif) is replaced, not
	 * written through */
	char *why = NULL;
	int rc = filewrite_replace_named(run->opt.output, run->opt.output, run->buffer, run->buffer_len, &why);
	if (rc != 0) {
		cliopt_output_failed(run->cmd->name, "%s", why);
		free(why);
	}
	free(run->buffer);
	run->buffer = NULL;
	return rc;
}

int cli_end(struct cli_run *run, int floor, size_t pages, size_t programs)
{
	struct report_summary s = {pages, programs, cliopt_status(floor)};
	if (report_finish(run->report, &s) != 0) {
		cliopt_output_failed(run->cmd->name, "cannot write the report: %s", strerror(errno));
		s.status = 2;
	}
	if (run->opt.output && write_output(run) != 0)
		s.status = 2;
	return s.status;
}

/* Names on the command line are taken from the current folder (or from
 * the root with --root) and normalised: see repo_operand(). */
static char *operand_path(const char *arg)
{
	return repo_operand(arg);
}

void cli_release(void)
{
	course_release();
	evsig_release();
	re_release_all();
	numtok_release_patterns();
	repo_close();
	diagwire_release();
	diag_release();
}

/* The summary line on standard error (not under -q), then the report. */
static int finish(struct cli_run *run, int floor, size_t pages, size_t programs)
{
	size_t errors = diag_count(DIAG_ERROR), warnings = diag_count(DIAG_WARNING);
	if (!run->opt.quiet)
		fprintf(stderr, "coursecheck %s: %zu page%s, %zu program%s, %zu check%s: %zu error%s, %zu warning%s\n",
			run->name, pages, pages == 1 ? "" : "s", programs, programs == 1 ? "" : "s", diag_checks(),
			diag_checks() == 1 ? "" : "s", errors, errors == 1 ? "" : "s", warnings,
			warnings == 1 ? "" : "s");
	int status = cli_end(run, floor, pages, programs);
	cli_release();
	return status;
}

/* ---- verify ---- */

struct verify_opts {
	const struct cliopt_cmd *cmd; /* for messages */
	struct check_opts check;
	bool affected;
	bool plan; /* explain --plan */
	size_t jobs; /* -j: processes checking pages; 0: not given (parallel_default_jobs) */
	const char *trust; /* --trust=REF: the trusted keys from git revision REF (evsig.h) */
};

enum { OPT_AS = 0x200, OPT_AFFECTED, OPT_TRUST, OPT_PLAN };

/* The default of -j: every online core. */
static size_t online_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (size_t)n : 1;
}

static const char verify_usage[] =
	"usage: coursecheck verify [OPTION...] [PAGE...]\n"
	"  Checks pages against their programs and evidence.  With no PAGE: every\n"
	"  pages/*.md, every programs/*/README.md and every lesson program.\n"
	"  --as=published    check at published strictness (warnings are errors)\n"
	"  --affected        the operands are changed files (pages, programs, evidence):\n"
	"                    check the pages and programs they affect (pre-commit)\n"
	"  --trust=REF       trust the keys of evidence/allowed_signers as git revision\n"
	"                    REF has them (e.g. the base branch), not the working tree's\n"
	"  -j, --jobs=N      check pages in N processes (default: the online cores,\n"
	"                    one for every 8 pages; at most 256); the output is that\n"
	"                    of -j 1, in the same order\n"
	"  --format=FORMAT   text (default), json, sarif, github or junit\n"
	"  --output=FILE     write the report to FILE instead of standard output\n"
	"  --root=DIR        the course (default: found from the current folder upward)\n"
	"  -q, --quiet       only diagnostics: no summary line\n"
	"  --color=WHEN      auto (default), always or never\n"
	"  -h, --help        this text\n"
	"      --version     the version\n"
	"Exit status: 0 no error, 1 errors found, 2 usage or unreadable operand.\n";

static const struct option verify_longs[] = {
	{"as", required_argument, NULL, OPT_AS},
	{"affected", no_argument, NULL, OPT_AFFECTED},
	{"trust", required_argument, NULL, OPT_TRUST},
	{"jobs", required_argument, NULL, 'j'},
	{NULL, 0, NULL, 0},
};

static const struct cliopt_cmd verify_cmd = {"coursecheck verify", verify_usage, "j:", verify_longs, CLIOPT_REPORT};

static int verify_option(int ch, const char *arg, void *ctx)
{
	struct verify_opts *v = ctx;
	switch (ch) {
	case OPT_AS:
		if (strcmp(arg, "published") != 0)
			return cliopt_usage_error(v->cmd, "--as takes 'published', not '%s'", arg);
		v->check.strict = true;
		return 0;
	case OPT_AFFECTED:
		v->affected = true;
		return 0;
	case OPT_TRUST:
		/* a revision, never an option of git's */
		if (!*arg || arg[0] == '-' || strpbrk(arg, " \t\n") || str_control_byte(arg))
			return cliopt_usage_error(v->cmd, "--trust takes a git revision (origin/main), not '%s'", arg);
		v->trust = arg;
		return 0;
	case OPT_PLAN:
		v->plan = true;
		return 0;
	case 'j': {
		char *end;
		errno = 0;
		unsigned long n = arg[0] >= '0' && arg[0] <= '9' ? strtoul(arg, &end, 10) : 0;
		if (n == 0 || *end || errno || n > 4096)
			return cliopt_usage_error(v->cmd, "-j takes a number of processes from 1 to 4096, not '%s'", arg);
		v->jobs = n;
		return 0;
	}
	default:
		return -1;
	}
}

/* Checks one page (or program README), bracketed for the report. */
static int verify_page(struct report *report, const char *rel, const struct check_opts *opts, struct ledger *lg)
{
	report_file_begin(report, rel);
	int rc = check_page(rel, opts, lg);
	report_file_end(report);
	return rc;
}

/* ---- verify's work: one item for each page, README and lesson program, in
 * the order a one-process run checks them (parallel.h runs them) ---- */

enum verify_item_kind {
	ITEM_LISTED,  /* a page of the course (or a program README): counted */
	ITEM_OPERAND, /* a page named on the command line: unreadable -> exit 2 */
	ITEM_NAMED,   /* a page --affected found naming a changed lesson: counted when read */
	ITEM_PROGRAM, /* a lesson's program (name is the lesson) */
	ITEM_SAY,     /* a line for standard error (--affected), nothing checked */
	ITEM_LIST,    /* the listing of the lessons, for its diagnostics (-j N) */
};

struct verify_item {
	enum verify_item_kind kind;
	char *name;   /* the page's path, the lesson or the line (ITEM_PROGRAM: within folder) */
	char *folder; /* ITEM_PROGRAM: programs/LESSON, the report's file */
};

struct verify_work {
	struct verify_item *v;
	size_t n, cap;
	/* -j N over the whole course: each chunk a range of pages and the
	 * lessons after them in the same range (parallel.h) */
	size_t *order, *chunk, n_chunks;
	const struct check_opts *opts;
	struct report *report;  /* borrowed: the command's, for each item's file bracket */
	bool quiet; /* -q: no line for a changed file that affects nothing */
	size_t pages, programs;
	int status;
};

static void work_add(struct verify_work *w, enum verify_item_kind kind, char *name)
{
	w->v = xgrow(w->v, &w->cap, w->n + 1, sizeof *w->v);
	char *folder = NULL;
	if (kind == ITEM_PROGRAM) { /* one string a lesson: its name is the folder's tail */
		folder = xasprintf("programs/%s", name);
		free(name);
		name = folder + strlen("programs/");
	}
	w->v[w->n++] = (struct verify_item){kind, name, folder};
}

static int item_run(size_t i, void *ctx)
{
	struct verify_work *w = ctx;
	const struct verify_item *it = &w->v[i];
	if (it->kind == ITEM_SAY)
		return 0;
	if (it->kind == ITEM_LIST) {
		char **lessons;
		size_t n = course_lessons(&lessons); /* first: its result is the list freed below */
		repo_free_list(lessons, n);
		return 0;
	}
	if (it->kind == ITEM_PROGRAM) {
		check_program(it->name, w->opts);
		return 0;
	}
	return check_page(it->name, w->opts, NULL);
}

static const char *item_name(size_t i, void *ctx)
{
	const struct verify_item *it = &((struct verify_work *)ctx)->v[i];
	return it->folder ? it->folder : it->name;
}

static void item_begin(size_t i, void *ctx)
{
	const struct verify_item *it = &((struct verify_work *)ctx)->v[i];
	if (it->kind == ITEM_SAY)
		fprintf(stderr, "%s", it->name);
	else if (it->kind != ITEM_LIST)
		report_file_begin(((struct verify_work *)ctx)->report, item_name(i, ctx));
}

static void item_end(size_t i, int rc, void *ctx)
{
	struct verify_work *w = ctx;
	switch (w->v[i].kind) {
	case ITEM_SAY:
	case ITEM_LIST:
		return;
	case ITEM_LISTED:
		w->pages++;
		break;
	case ITEM_OPERAND:
		if (rc != 0)
			w->status = 2;
		else
			w->pages++;
		break;
	case ITEM_NAMED:
		w->pages += rc == 0;
		break;
	case ITEM_PROGRAM:
		w->programs++;
		break;
	}
	report_file_end(w->report);
}

static void verify_lesson(struct verify_work *w, const char *lesson)
{
	char *readme;
	if (course_readme_listed(lesson, &readme))
		work_add(w, ITEM_LISTED, readme);
	else
		free(readme);
	work_add(w, ITEM_PROGRAM, xstrdup(lesson));
}

/* Checks the listed items in jobs processes, then forgets them. */
static void work_run(struct verify_work *w, size_t jobs)
{
	struct parallel_job job = {w->n, item_run, item_begin, item_end, item_name, w, w->order, w->chunk, w->n_chunks};
	if (jobs > 1)
		course_share_facts();
	parallel_run(&job, jobs);
	for (size_t i = 0; i < w->n; i++) {
		if (!w->v[i].folder)
			free(w->v[i].name);
		free(w->v[i].folder);
	}
	w->n = 0;
	free(w->order);
	free(w->chunk);
	w->order = w->chunk = NULL;
	w->n_chunks = 0;
}

/* Chunks for n_pages pages (items 0 ..), the listing, then n_lessons lessons
 * whose items start at first[l] (first[n_lessons]: the end): chunk c holds
 * the c-th share of the pages and the c-th share of the lessons, which in
 * a course named by lesson are the same lessons. */
static void work_chunks(struct verify_work *w, size_t n_pages, const size_t *first, size_t n_lessons)
{
	/* one lesson a chunk: its page, README and program one after the
	 * other in one process, each file read once (the course model keeps
	 * the last few used); small chunks also spread the work evenly */
	size_t most = n_pages > n_lessons ? n_pages : n_lessons, n = most ? most : 1;
	w->order = xcalloc(w->n ? w->n : 1, sizeof *w->order);
	w->chunk = xcalloc(n + 1, sizeof *w->chunk);
	size_t k = 0;
	for (size_t c = 0; c < n; c++) {
		w->chunk[c] = k;
		for (size_t i = c * n_pages / n; i < (c + 1) * n_pages / n; i++)
			w->order[k++] = i;
		if (c == 0)
			w->order[k++] = n_pages; /* the listing */
		for (size_t i = first[c * n_lessons / n]; i < first[(c + 1) * n_lessons / n]; i++)
			w->order[k++] = i;
	}
	w->chunk[n] = k;
	w->n_chunks = n;
}

/* The pages and the lessons in one run of the workers (-j 1: this
 * process, in the same chunk order), so that a lesson's page, README and
 * program are checked together (what was read for the page is at hand
 * for the rest); the output is in item order, as one loop over the
 * pages and then the lessons gave it.  The lessons are listed here first,
 * their diagnostics recorded, not printed; the listing item prints them,
 * in a worker, where one process would (diagwire.h: the once regions of
 * the listing are sent again at a page that meets them first). */
static void verify_all_at_once(struct verify_work *w, size_t jobs, size_t n_pages)
{
	struct diagwire_encoder quiet;
	diagwire_encoder_init(&quiet);
	diag_set_forward(&quiet.fwd);
	char **lessons;
	size_t nl = course_lessons(&lessons);
	diag_set_forward(NULL);
	diagwire_encoder_free(&quiet);
	work_add(w, ITEM_LIST, xstrdup("programs"));
	size_t *first = xcalloc(nl + 1, sizeof *first);
	for (size_t i = 0; i < nl; i++) {
		first[i] = w->n;
		verify_lesson(w, lessons[i]);
		free(lessons[i]);
	}
	first[nl] = w->n;
	free(lessons);
	/* the items and their report records, exactly as many as there are
	 * (at 10,000 lessons the next power of two is 60 % more) */
	w->v = xrealloc(w->v, w->n * sizeof *w->v);
	w->cap = w->n;
	report_reserve_files(w->report, w->n);
	work_chunks(w, n_pages, first, nl);
	free(first);
	work_run(w, jobs);
}

/* The pages, then the lessons, in item order: a lesson folder's problem
 * comes out where it always did (at a page that names it, else at the
 * listing), whatever order the items were checked in. */
static void verify_all(struct verify_work *w, size_t jobs)
{
	char **names;
	size_t n = course_pages(&names);
	for (size_t i = 0; i < n; i++)
		work_add(w, ITEM_LISTED, names[i]);
	free(names);
	if (!jobs)
		jobs = parallel_default_jobs(online_cores(), n);
	verify_all_at_once(w, jobs, n);
}

/* "programs/L/..." or "evidence/L/..." -> L (malloc'd), else NULL. */
static char *lesson_of_path(const char *rel)
{
	static const char *const tops[] = {"programs/", "evidence/"};
	for (size_t i = 0; i < ARRAY_LEN(tops); i++) {
		size_t n = strlen(tops[i]);
		if (strncmp(rel, tops[i], n) == 0 && rel[n] && strchr(rel + n, '/'))
			return xstrndup(rel + n, strcspn(rel + n, "/"));
	}
	return NULL;
}

/* Whether the page's text names the lesson at all: a page can only depend
 * on a lesson it names (its front matter, a cite, an evidence path), so
 * this over-approximates what a change of the lesson affects. */
static bool page_names(const char *page, const char *lesson)
{
	/* the raw bytes: a name holds no CR, BOM or invalid byte, so what
	 * textfile_read would normalise cannot change the answer, and it
	 * cost half of --affected's instructions on 10,000 pages (BENCH.md) */
	char *data;
	size_t len;
	const char *why;
	if (textfile_read_small(page, TEXTFILE_MAX_BYTES, &data, &len, &why) != TEXTFILE_SMALL_OK)
		return false; /* as before: names nothing here; the full run reports it */
	bool named = memmem(data, len, lesson, strlen(lesson)) != NULL;
	free(data);
	return named;
}

/* --affected over a change every lesson shares (programs/common/): each
 * page not checked yet (in the course's order), then every lesson, as
 * the full run checks them, the lessons' listing problems with them. */
static void affected_course(struct verify_work *w, char **all, size_t n_all, bool *page_done)
{
	for (size_t k = 0; k < n_all; k++)
		if (!page_done[k]) {
			page_done[k] = true;
			work_add(w, ITEM_NAMED, xstrdup(all[k]));
		}
	char **lessons;
	size_t nl = course_lessons(&lessons);
	for (size_t l = 0; l < nl; l++) {
		verify_lesson(w, lessons[l]);
		free(lessons[l]);
	}
	free(lessons);
}

/* --affected: the changed files' pages, and for a changed program or
 * evidence file its lesson, its README and every page naming the lesson. */
static void verify_affected(char **files, int n, struct verify_work *w)
{
	char **lessons = xcalloc((size_t)n + 1, sizeof *lessons);
	size_t nl = 0;
	char **all;
	size_t n_all = course_pages(&all);
	bool *page_done = xcalloc(n_all + 1, sizeof *page_done);
	bool every_lesson = false;
	for (int i = 0; i < n; i++) {
		char *rel = operand_path(files[i]);
		char *lesson = lesson_of_path(rel);
		size_t len = strlen(rel);
		if (lesson && !lessonfiles_is_lesson(lesson)) {
			/* programs/common/ (or evidence/common/, a hidden
			 * folder): no lesson of its own.  Every lesson's files
			 * take in programs/common/, so a change there is a
			 * change of every lesson: the whole course is what
			 * the full run checks */
			bool shared = strncmp(rel, "programs/", 9) == 0 && strcmp(lesson, LESSONFILES_COMMON) == 0;
			free(lesson);
			if (shared)
				every_lesson = true;
			else if (!w->quiet)
				work_add(w, ITEM_SAY, xasprintf("coursecheck verify: %s: affects no page or program\n", rel));
		} else if (lesson) {
			bool seen = false;
			for (size_t k = 0; k < nl; k++)
				seen |= strcmp(lessons[k], lesson) == 0;
			if (seen)
				free(lesson);
			else
				lessons[nl++] = lesson;
		} else if (strncmp(rel, "pages/", 6) == 0 && len > 3 && strcmp(rel + len - 3, ".md") == 0) {
			size_t k = 0;
			while (k < n_all && strcmp(all[k], rel) != 0)
				k++;
			if (k == n_all || !page_done[k]) {
				if (k < n_all)
					page_done[k] = true;
				/* one the course does not list is checked too: it says why */
				work_add(w, ITEM_OPERAND, xstrdup(rel));
			}
		} else if (!w->quiet) {
			work_add(w, ITEM_SAY, xasprintf("coursecheck verify: %s: affects no page or program\n", rel));
		}
		free(rel);
	}
	if (every_lesson) {
		affected_course(w, all, n_all, page_done);
		for (size_t l = 0; l < nl; l++) /* each is among the course's lessons */
			free(lessons[l]);
		nl = 0;
	}
	for (size_t k = 0; k < n_all; k++)
		for (size_t l = 0; l < nl && !page_done[k]; l++)
			if (page_names(all[k], lessons[l])) {
				page_done[k] = true;
				work_add(w, ITEM_NAMED, xstrdup(all[k]));
			}
	for (size_t l = 0; l < nl; l++)
		verify_lesson(w, lessons[l]);
	repo_free_list(all, n_all);
	for (size_t l = 0; l < nl; l++)
		free(lessons[l]);
	free(lessons);
	free(page_done);
}

int cli_verify(int argc, char **argv)
{
	struct verify_opts v = {.cmd = &verify_cmd};
	struct cliopt o;
	int first = cliopt_parse(argc, argv, &verify_cmd, &o, verify_option, &v);
	if (first < 0)
		return first == CLIOPT_DONE ? 0 : 2;
	struct cli_run run;
	if (cli_begin(&run, &verify_cmd, "verify", &o, true) != 0)
		return 2;
	if (cli_open_course(&verify_cmd, o.root) != 0)
		return cli_abandon(&run);
	diag_set_run_policy((struct diag_policy){.strict = v.check.strict});
	if (v.affected && first == argc) {
		cliopt_usage_error(&verify_cmd, "--affected takes the changed files as operands");
		return cli_abandon(&run);
	}
	/* the course model first (its listings, before any worker is
	 * forked: every worker shares them), then the work, then the checks */
	if (first < argc) {
		course_open(); /* the pages given: each listing when needed */
		evsig_scan_top_only();
	} else {
		course_load();
	}
	evsig_load(v.trust); /* the trusted keys, once, before any worker */
	struct verify_work w = {.opts = &v.check, .report = run.report, .quiet = o.quiet};
	if (v.affected) {
		verify_affected(argv + first, argc - first, &w);
	} else if (first < argc) {
		for (int i = first; i < argc; i++)
			work_add(&w, ITEM_OPERAND, operand_path(argv[i]));
	} else {
		verify_all(&w, v.jobs);
	}
	work_run(&w, v.jobs ? v.jobs : parallel_default_jobs(online_cores(), w.n));
	free(w.v);
	return finish(&run, w.status, w.pages, w.programs);
}

/* ---- explain ---- */

/* Who vouched for each run the page names that could be read (evsig.h),
 * judged once for explain's text and its JSON report alike. */
struct page_run {
	const char *path; /* the course model's */
	struct evsig_verdict v;
};
struct page_runs {
	struct page_run *v;
	size_t n;
};

static struct page_runs page_runs_judge(const struct ledger *lg)
{
	struct page_runs pr = {xcalloc(lg->page.n_evidence ? lg->page.n_evidence : 1, sizeof *pr.v), 0};
	for (size_t i = 0; i < lg->page.n_evidence; i++) {
		char *norm = repo_normalize(lg->page.evidence[i]);
		const struct evfile *ev = course_evidence(norm ? norm : lg->page.evidence[i]);
		free(norm);
		if (ev->state != LOAD_OK)
			continue;
		struct page_run *r = &pr.v[pr.n++];
		r->path = ev->path;
		evsig_judge(ev, &r->v);
	}
	return pr;
}

static void page_runs_free(struct page_runs *pr)
{
	for (size_t i = 0; i < pr->n; i++)
		evsig_verdict_free(&pr->v[i].v);
	free(pr->v);
}

/* After the page's ledger, a line a run:
 * "PAGE: run PATH: signed by PRINCIPAL (key SHA256:..., window), captured AT". */
static void print_page_runs(const struct page_runs *pr, const char *page, FILE *out)
{
	for (size_t i = 0; i < pr->n; i++) {
		char *what = evsig_describe(&pr->v[i].v);
		fprintf(out, "%s: run %s: %s\n", page, pr->v[i].path, what);
		free(what);
	}
}

/* The ledger and the runs into the JSON report (report.h's words). */
static void report_page_runs(struct report *report, const char *page, const struct ledger *lg,
			     const struct page_runs *pr)
{
	struct report_run *runs = xcalloc(pr->n ? pr->n : 1, sizeof *runs);
	for (size_t i = 0; i < pr->n; i++) {
		const struct evsig_verdict *v = &pr->v[i].v;
		runs[i] = (struct report_run){
			.path = pr->v[i].path,
			.signature = evsig_state_name(v->state),
			.principal = v->principal,
			.key = v->fingerprint[0] ? v->fingerprint : NULL,
			.valid_after = v->valid_after,
			.valid_before = v->valid_before,
			.captured = v->captured,
			.why = v->why,
		};
	}
	report_ledger(report, page, lg, runs, pr->n);
	free(runs);
}

static const char explain_usage[] =
	"usage: coursecheck explain [OPTION...] PAGE...\n"
	"  Prints the ledger of each page: every code block with its provenance,\n"
	"  every checked number with where it was traced, derived or declared\n"
	"  external, every number skipped and why, and totals.  Diagnostics go to\n"
	"  standard error as in verify.  The pages are checked one after another in\n"
	"  one process (verify's -j does not apply).\n"
	"  --as=published    check at published strictness (warnings are errors)\n"
	"  --format=FORMAT   text (default) or json (the ledgers and the diagnostics)\n"
	"  --plan            instead of the ledger, the comparisons of measured places\n"
	"                    that capture --repeat auto decides (capture --plan FILE)\n"
	"  --output=FILE     write to FILE instead of standard output\n"
	"  --root=DIR        the course (default: found from the current folder upward)\n"
	"  -q, --quiet       no summary line\n"
	"  --color=WHEN      auto (default), always or never\n"
	"  -h, --help        this text\n"
	"      --version     the version\n";

static const struct option explain_longs[] = {
	{"as", required_argument, NULL, OPT_AS},
	{"plan", no_argument, NULL, OPT_PLAN},
	{NULL, 0, NULL, 0},
};
static const struct cliopt_cmd explain_cmd = {"coursecheck explain", explain_usage, "", explain_longs, CLIOPT_REPORT};

int cli_explain(int argc, char **argv)
{
	struct verify_opts v = {.cmd = &explain_cmd};
	struct cliopt o;
	int first = cliopt_parse(argc, argv, &explain_cmd, &o, verify_option, &v);
	if (first < 0)
		return first == CLIOPT_DONE ? 0 : 2;
	if (first == argc) {
		cliopt_usage_error(&explain_cmd, "no PAGE given");
		return 2;
	}
	struct cli_run run;
	if (cli_begin(&run, &explain_cmd, "explain", &o, false) != 0)
		return 2;
	if (cli_open_course(&explain_cmd, o.root) != 0)
		return cli_abandon(&run);
	diag_set_run_policy((struct diag_policy){.strict = v.check.strict});
	int status = 0;
	size_t pages = 0;
	for (int i = first; i < argc; i++) {
		char *rel = operand_path(argv[i]);
		struct ledger lg = {0};
		v.check.plan = v.plan ? run.out : NULL;
		if (verify_page(run.report, rel, &v.check, &lg) != 0) {
			status = 2;
		} else {
			struct page_runs pr = page_runs_judge(&lg);
			/* with --plan, its lines were written as the claims were checked */
			if (!v.plan && run.format == REPORT_JSON)
				report_page_runs(run.report, rel, &lg, &pr);
			else if (!v.plan)
				ledger_print(&lg, rel, run.out);
			if (run.format != REPORT_JSON)
				print_page_runs(&pr, rel, run.out);
			page_runs_free(&pr);
			pages++;
		}
		ledger_free(&lg);
		free(rel);
	}
	fflush(run.out);
	return finish(&run, status, pages, 0);
}

/* ---- ids, source-sha256 ---- */

static const char ids_usage[] =
	"usage: coursecheck ids [OPTION...]\n"
	"  Lists the diagnostic kinds: their stable ids, levels and meanings.\n"
	"  -h, --help        this text\n"
	"      --version     the version\n"
	"  (--root, -q and --color are accepted, as by every command)\n";
static const struct cliopt_cmd ids_cmd = {"coursecheck ids", ids_usage, "", NULL, 0};

int cli_ids(int argc, char **argv)
{
	struct cliopt o;
	int first = cliopt_parse(argc, argv, &ids_cmd, &o, NULL, NULL);
	if (first < 0)
		return first == CLIOPT_DONE ? 0 : 2;
	if (first < argc) {
		cliopt_usage_error(&ids_cmd, "takes no operand ('%s')", argv[first]);
		return 2;
	}
	diag_print_table(stdout);
	return 0;
}

static const char sha_usage[] =
	"usage: coursecheck source-sha256 [OPTION...] FILE...\n"
	"  Prints the SHA-256 that capture records as source-sha256: the program's text\n"
	"  with LF line endings and without its Verified paragraph.\n"
	"  -h, --help        this text\n"
	"      --version     the version\n"
	"  (--root, -q and --color are accepted, as by every command)\n";
static const struct cliopt_cmd sha_cmd = {"coursecheck source-sha256", sha_usage, "", NULL, 0};

int cli_source_sha256(int argc, char **argv)
{
	struct cliopt o;
	int first = cliopt_parse(argc, argv, &sha_cmd, &o, NULL, NULL);
	if (first < 0)
		return first == CLIOPT_DONE ? 0 : 2;
	if (first == argc) {
		cliopt_usage_error(&sha_cmd, "no FILE given");
		return 2;
	}
	int status = 0;
	for (int i = first; i < argc; i++) {
		struct textfile tf;
		const char *why;
		if (textfile_read(argv[i], argv[i], &tf, &why) != 0) {
			cli_operand_unusable(&sha_cmd, "%s: %s", argv[i], why);
			status = 2;
			continue;
		}
		char sha[SHA256_HEX_LEN + 1];
		proghdr_source_sha256(&tf, sha);
		printf("%s  %s\n", sha, argv[i]);
		textfile_free(&tf);
	}
	return cliopt_status(status);
}

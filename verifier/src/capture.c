/* capture.c - see capture.h: the command line, the choice of lessons, the
 * facts read once for all of them, and the summary. */
#include "capture.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture_gpu.h"
#include "capture_lesson.h"
#include "capture_proc.h"
#include "capture_sched.h"
#include "filewrite.h"
#include "repo.h"
#include "util.h"

#define DEFAULT_TIMEOUT_S 600L
#define MAX_TIMEOUT_S (7L * 24 * 3600)

static const char usage_text[] =
	"usage: coursecheck capture [OPTION...] [LESSON...]\n"
	"Builds and runs each lesson program under programs/ (all of them when no\n"
	"LESSON is named) on this GPU machine and writes evidence/LESSON/run-DATE.txt.\n"
	"  --root DIR          the repository (default: the current folder)\n"
	"  --timeout SECONDS   time limit of each build and each run (default 600)\n"
	"  --keep-failed       write evidence of failed runs and builds too\n"
	"  --stale             only lessons whose newest evidence is missing or out of date\n"
	"  -j N                builds at once (default: the number of CPUs)\n"
	"  --repeat K          run each program K times; record which numbers varied\n"
	"  --build-only OUTDIR build each program into OUTDIR/LESSON/; no run, no evidence\n"
	"  --help              this text\n"
	"Exit status: 0 all captured, 1 some lesson failed, 2 usage.\n";

struct options {
	const char *root;
	long timeout;
	bool keep_failed;
	bool stale;
	long jobs;
	long repeat;
	const char *build_only;
	char **lessons;
	size_t n_lessons;
	bool help;
};

/* ---- options ---- */

static int usage_error(const char *fmt, ...) PRINTF_LIKE(1, 2);
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("capture: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	fputs(usage_text, stderr);
	return 2;
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
	if (!s || !*s)
		return false;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi || s[0] == '+' || s[0] == '-' || s[0] == ' ')
		return false;
	*out = v;
	return true;
}

/* An option that takes a value: "--name VALUE", "--name=VALUE", or for a
 * short option "-jN".  Returns the value (NULL if missing) and advances *i. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *matched)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	*matched = false;
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '\0') {
		*matched = true;
		return *i + 1 < argc ? argv[++*i] : NULL;
	}
	bool is_long = name[1] == '-';
	if ((is_long && a[n] == '=') || (!is_long && n == 2)) {
		*matched = true;
		return a + n + (is_long ? 1 : 0);
	}
	return NULL;
}

static int parse_valued(struct options *o, int argc, char **argv, int *i, bool *done)
{
	static const struct {
		const char *name;
		long lo, hi;
	} numeric[] = {{"--timeout", 1, MAX_TIMEOUT_S}, {"-j", 1, 4096}, {"--repeat", 1, 1000}};
	long *targets[] = {&o->timeout, &o->jobs, &o->repeat};
	bool matched;
	*done = true;
	for (size_t k = 0; k < ARRAY_LEN(numeric); k++) {
		const char *v = option_value(argc, argv, i, numeric[k].name, &matched);
		if (!matched)
			continue;
		if (!parse_long(v, numeric[k].lo, numeric[k].hi, targets[k]))
			return v ? usage_error("bad value for %s: '%s' (a whole number from %ld to %ld)", numeric[k].name, v,
					       numeric[k].lo, numeric[k].hi)
				 : usage_error("%s needs a value", numeric[k].name);
		return 0;
	}
	const char **paths[] = {&o->root, &o->build_only};
	const char *names[] = {"--root", "--build-only"};
	for (size_t k = 0; k < ARRAY_LEN(names); k++) {
		const char *v = option_value(argc, argv, i, names[k], &matched);
		if (!matched)
			continue;
		if (!v || !*v)
			return usage_error("%s needs a folder", names[k]);
		*paths[k] = v;
		return 0;
	}
	*done = false;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof *o);
	o->timeout = DEFAULT_TIMEOUT_S;
	o->repeat = 1;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	o->jobs = cpus > 0 ? cpus : 1;
	o->lessons = xcalloc((size_t)argc + 1, sizeof *o->lessons);
	bool options_end = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (options_end || a[0] != '-' || strcmp(a, "-") == 0) {
			o->lessons[o->n_lessons++] = argv[i];
			continue;
		}
		bool done;
		if (strcmp(a, "--") == 0)
			options_end = true;
		else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
			o->help = true;
		else if (strcmp(a, "--keep-failed") == 0)
			o->keep_failed = true;
		else if (strcmp(a, "--stale") == 0)
			o->stale = true;
		else if (parse_valued(o, argc, argv, &i, &done) != 0)
			return 2;
		else if (!done)
			return usage_error("unknown option %s", a);
	}
	return 0;
}

/* ---- COURSECHECK_NOW ---- */

/* A fixed capture time for tests: YYYY-MM-DDTHH:MM:SSZ with sane fields. */
static bool valid_now(const char *v)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	if (strlen(v) != 20)
		return false;
	for (int i = 0; i < 20; i++)
		if (shape[i] == 'd' ? (v[i] < '0' || v[i] > '9') : v[i] != shape[i])
			return false;
	int mo = atoi(v + 5), d = atoi(v + 8), h = atoi(v + 11), mi = atoi(v + 14), s = atoi(v + 17);
	return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h < 24 && mi < 60 && s < 61;
}

/* ---- lessons ---- */

/* "programs/day31/" -> "day31": names may be given as paths too. */
static char *lesson_arg(const char *arg)
{
	const char *p = strncmp(arg, "programs/", 9) == 0 ? arg + 9 : arg;
	size_t n = strlen(p);
	while (n && p[n - 1] == '/')
		n--;
	return xstrndup(p, n);
}

static bool listed(char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* The names to capture: all, or those named (each must exist).  Returns 0,
 * or 2 after saying what is wrong. */
static int choose(const struct options *o, char ***chosen, size_t *n_chosen)
{
	char **all = NULL, *why = NULL;
	size_t n_all = 0;
	if (lesson_names(&all, &n_all, &why) != 0) {
		fprintf(stderr, "capture: cannot list the lessons: %s\n", why);
		free(why);
		return 2;
	}
	if (!o->n_lessons) {
		*chosen = all;
		*n_chosen = n_all;
		return 0;
	}
	*chosen = xcalloc(o->n_lessons, sizeof **chosen);
	*n_chosen = 0;
	int status = 0;
	for (size_t i = 0; i < o->n_lessons; i++) {
		char *name = lesson_arg(o->lessons[i]);
		if (!listed(all, n_all, name)) {
			fprintf(stderr, "capture: %s: no such lesson under programs/\n", o->lessons[i]);
			status = 2;
			free(name);
		} else if (listed(*chosen, *n_chosen, name)) {
			free(name); /* named twice: captured once */
		} else {
			(*chosen)[(*n_chosen)++] = name;
		}
	}
	if (status) {
		fputs("capture: the lessons are:", stderr);
		for (size_t i = 0; i < n_all; i++)
			fprintf(stderr, " %s", all[i]);
		fputs(n_all ? "\n" : " none\n", stderr);
	}
	repo_free_list(all, n_all);
	return status;
}

/* Loads the chosen lessons; with --stale keeps only those out of date.
 * Lessons that cannot be loaded are reported and counted as failed. */
static struct lesson *load(const struct options *o, char **names, size_t n, size_t *n_loaded, size_t *failed,
			   size_t *current)
{
	struct lesson *ls = xcalloc(n ? n : 1, sizeof *ls);
	*n_loaded = *failed = *current = 0;
	for (size_t i = 0; i < n; i++) {
		char *why = NULL, *reason = NULL;
		struct lesson *l = &ls[*n_loaded];
		if (lesson_load(names[i], l, &why) != 0) {
			fprintf(stderr, "capture: %s: %s\n", names[i], why);
			free(why);
			lesson_free(l);
			++*failed;
		} else if (o->stale && !lesson_stale(l, &reason)) {
			lesson_free(l);
			++*current;
		} else {
			if (o->stale)
				fprintf(stderr, "capture: %s: stale: %s\n", names[i], reason);
			++*n_loaded;
		}
		free(reason);
	}
	return ls;
}

/* ---- the machine ---- */

/* CUDA_VISIBLE_DEVICES as nvidia-smi indices.  Returns 0 (only NULL when
 * unset), or -1 with *why when it names GPUs some other way. */
static int visible_devices(int **only, size_t *n, char **why)
{
	*only = NULL;
	*n = 0;
	const char *v = getenv("CUDA_VISIBLE_DEVICES");
	if (!v)
		return 0;
	*only = xcalloc(strlen(v) + 1, sizeof **only);
	for (const char *p = v;;) {
		size_t k = strcspn(p, ",");
		long idx;
		char *item = xstrndup(p, k);
		bool ok = parse_long(item, 0, 4096, &idx);
		free(item);
		if (!ok) {
			*why = xasprintf("CUDA_VISIBLE_DEVICES=%s names GPUs by something other than their index: "
					 "capture cannot tell which GPUs it may use (unset it, or list indices)", v);
			free(*only);
			*only = NULL;
			return -1;
		}
		(*only)[(*n)++] = (int)idx;
		if (!p[k])
			break;
		p += k + 1;
	}
	return 0;
}

struct facts {
	struct machine machine;
	char *node;
	char *commit;
	const char *dirty;
};

static int read_facts(struct facts *f, char **why)
{
	memset(f, 0, sizeof *f);
	int *only;
	size_t n_only;
	if (visible_devices(&only, &n_only, why) != 0)
		return -1;
	int r = machine_probe(&f->machine, only, n_only, why);
	free(only);
	if (r != 0)
		return -1;
	f->node = node_name();
	f->commit = repo_commit(repo_root(), &f->dirty);
	return 0;
}

static void free_facts(struct facts *f)
{
	machine_free(&f->machine);
	free(f->node);
	free(f->commit);
}

/* ---- the command ---- */

static void summary(const struct options *o, size_t considered, size_t current, const struct capture_tally *t)
{
	fprintf(stderr, "capture: %zu lesson%s", considered, considered == 1 ? "" : "s");
	if (o->stale)
		fprintf(stderr, ", %zu up to date", current);
	fprintf(stderr, ", %zu %s, %zu failed\n", t->done, o->build_only ? "built" : "captured", t->failed);
	if (t->interrupted)
		fprintf(stderr, "capture: interrupted by %s: what was running was stopped, nothing partial was written\n",
			proc_signal_name(t->interrupted) ? proc_signal_name(t->interrupted) : "a signal");
}

/* Everything after the options and the repository are settled. */
static int capture_lessons(const struct options *o, const char *now)
{
	char **names = NULL;
	size_t n_names = 0;
	int status = choose(o, &names, &n_names);
	if (status) {
		repo_free_list(names, n_names);
		return status;
	}
	/* What killed captures left: their scratch folders and temporaries. */
	scratch_sweep();
	for (size_t i = 0; i < n_names; i++)
		lesson_sweep_evidence(names[i]);
	char *outdir = NULL, *why = NULL;
	if (o->build_only) {
		if (filewrite_mkdirs(o->build_only, &why) != 0 || !(outdir = realpath(o->build_only, NULL))) {
			fprintf(stderr, "capture: --build-only %s: %s\n", o->build_only, why ? why : strerror(errno));
			free(why);
			repo_free_list(names, n_names);
			return 2;
		}
	}
	size_t n, failed, current;
	struct lesson *ls = load(o, names, n_names, &n, &failed, &current);
	struct capture_tally tally = {0, failed, 0};
	struct facts f;
	memset(&f, 0, sizeof f);
	if (n && !o->build_only && read_facts(&f, &why) != 0) {
		/* No GPU facts, no evidence: every lesson is refused. */
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "capture: %s: refused: %s\n", ls[i].name, why);
		tally.failed += n;
		free(why);
	} else if (n) {
		struct capture_plan plan = {(double)o->timeout, o->keep_failed, o->jobs, o->repeat, outdir,
					    o->build_only, now, &f.machine, f.node, f.commit, f.dirty};
		capture_schedule(ls, n, &plan, &tally);
	}
	summary(o, n_names, current, &tally);
	for (size_t i = 0; i < n; i++)
		lesson_free(&ls[i]);
	free(ls);
	free_facts(&f);
	free(outdir);
	repo_free_list(names, n_names);
	return tally.failed || tally.interrupted ? 1 : 0;
}

int capture_command(int argc, char **argv)
{
	struct options o;
	int status = parse_options(argc, argv, &o);
	if (status == 0 && o.help) {
		fputs(usage_text, stdout);
		free(o.lessons);
		return 0;
	}
	const char *now = getenv("COURSECHECK_NOW");
	if (status == 0 && now && !valid_now(now)) {
		fprintf(stderr, "capture: COURSECHECK_NOW=%s is not a UTC time like 2026-11-30T10:05:12Z\n", now);
		status = 2;
	}
	if (status == 0 && (o.root || strcmp(repo_root(), ".") == 0) && repo_open(o.root ? o.root : ".") != 0) {
		fprintf(stderr, "capture: --root %s: %s\n", o.root ? o.root : ".", strerror(errno));
		status = 2;
	}
	if (status == 0) {
		proc_catch_signals();
		proc_become_reaper();
		status = capture_lessons(&o, now);
		proc_reap_strays();
		proc_release_signals();
	}
	free(o.lessons);
	return status;
}

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
#include "capture_slurm.h"
#include "cliopt.h"
#include "diag.h"
#include "filewrite.h"
#include "repo.h"
#include "util.h"

#define DEFAULT_TIMEOUT_S 600L
#define MAX_TIMEOUT_S (7L * 24 * 3600)

/* After "usage: NAME", NAME being how the binary was called: `coursecheck
 * capture` or `coursecheck-capture` (parse_options joins them). */
static const char usage_text[] =
	" [OPTION...] [LESSON...]\n"
	"Builds and runs each lesson program under programs/ (all of them when no\n"
	"LESSON is named) on this GPU machine and writes evidence/LESSON/run-DATE.txt.\n"
	"  --root=DIR          the repository (default: the current folder)\n"
	"  --timeout SECONDS   time limit of each build and each run (default 600)\n"
	"  --keep-failed       write evidence of failed runs and builds too\n"
	"  --stale             only lessons whose newest evidence is missing or out of date\n"
	"  -j, --jobs=N        builds at once (default: the number of CPUs)\n"
	"  --repeat K          run each program K times; record which numbers varied\n"
	"  --build-only OUTDIR build each program into OUTDIR/LESSON/; no run, no evidence\n"
	"Through Slurm (one array job, one task and one GPU per lesson):\n"
	"  --slurm             submit the lessons to Slurm and follow the job to its end\n"
	"  --no-wait           with --slurm: print the job id and return\n"
	"  --collect=JOBID     follow a job submitted with --no-wait and summarise it\n"
	"  --gres=GRES         each task's generic resources (default gpu:1)\n"
	"  --partition=NAME    the partition, passed to sbatch\n"
	"  --account=NAME      the account, passed to sbatch\n"
	"  --array-limit=N     at most N tasks at once (the %N of the array job)\n"
	"  --sbatch=OPTION     any other sbatch option, as it is (repeatable)\n"
	"  -q, --quiet         no summary line\n"
	"  --color=WHEN        accepted, as by every command\n"
	"  -h, --help          this text\n"
	"      --version       the version\n"
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
	bool quiet; /* -q: no summary line */
	/* Slurm */
	bool slurm;
	bool no_wait;
	const char *collect;
	const char *gres, *partition, *account;
	long array_limit;
	const char **sbatch_args; /* borrowed from argv */
	size_t n_sbatch_args;
};

/* ---- options ---- */

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

enum {
	OPT_TIMEOUT = 0x200, OPT_KEEP_FAILED, OPT_STALE, OPT_REPEAT, OPT_BUILD_ONLY,
	OPT_SLURM, OPT_NO_WAIT, OPT_COLLECT, OPT_GRES, OPT_PARTITION, OPT_ACCOUNT, OPT_ARRAY_LIMIT, OPT_SBATCH
};

static const struct option capture_longs[] = {
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"keep-failed", no_argument, NULL, OPT_KEEP_FAILED},
	{"stale", no_argument, NULL, OPT_STALE},
	{"jobs", required_argument, NULL, 'j'},
	{"repeat", required_argument, NULL, OPT_REPEAT},
	{"build-only", required_argument, NULL, OPT_BUILD_ONLY},
	{"slurm", no_argument, NULL, OPT_SLURM},
	{"no-wait", no_argument, NULL, OPT_NO_WAIT},
	{"collect", required_argument, NULL, OPT_COLLECT},
	{"gres", required_argument, NULL, OPT_GRES},
	{"partition", required_argument, NULL, OPT_PARTITION},
	{"account", required_argument, NULL, OPT_ACCOUNT},
	{"array-limit", required_argument, NULL, OPT_ARRAY_LIMIT},
	{"sbatch", required_argument, NULL, OPT_SBATCH},
	{NULL, 0, NULL, 0},
};

struct parse_ctx {
	const struct cliopt_cmd *cmd;
	struct options *o;
};

static int numeric(const struct cliopt_cmd *cmd, const char *name, const char *v, long lo, long hi, long *out)
{
	if (parse_long(v, lo, hi, out))
		return 0;
	return cliopt_usage_error(cmd, "bad value for %s: '%s' (a whole number from %ld to %ld)", name, v, lo, hi);
}

static int capture_option(int ch, const char *arg, void *ctx)
{
	struct parse_ctx *p = ctx;
	struct options *o = p->o;
	switch (ch) {
	case OPT_TIMEOUT:
		return numeric(p->cmd, "--timeout", arg, 1, MAX_TIMEOUT_S, &o->timeout);
	case 'j':
		return numeric(p->cmd, "-j", arg, 1, 4096, &o->jobs);
	case OPT_REPEAT:
		return numeric(p->cmd, "--repeat", arg, 1, 1000, &o->repeat);
	case OPT_KEEP_FAILED:
		o->keep_failed = true;
		return 0;
	case OPT_STALE:
		o->stale = true;
		return 0;
	case OPT_BUILD_ONLY:
		if (!*arg)
			return cliopt_usage_error(p->cmd, "--build-only needs a folder");
		o->build_only = arg;
		return 0;
	case OPT_SLURM:
		o->slurm = true;
		return 0;
	case OPT_NO_WAIT:
		o->no_wait = true;
		return 0;
	case OPT_ARRAY_LIMIT:
		return numeric(p->cmd, "--array-limit", arg, 1, 100000, &o->array_limit);
	case OPT_COLLECT:
	case OPT_GRES:
	case OPT_PARTITION:
	case OPT_ACCOUNT:
	case OPT_SBATCH: {
		static const char *const names[] = {"--collect", "--gres", "--partition", "--account", "--sbatch"};
		if (!*arg)
			return cliopt_usage_error(p->cmd, "%s needs a value", names[ch - OPT_COLLECT]);
		if (ch == OPT_SBATCH)
			o->sbatch_args[o->n_sbatch_args++] = arg;
		else
			*(ch == OPT_COLLECT ? &o->collect : ch == OPT_GRES ? &o->gres : ch == OPT_PARTITION ? &o->partition
											     : &o->account) = arg;
		return 0;
	}
	default:
		return -1;
	}
}

/* Returns 0; 1 after --help or --version (exit 0); 2 after a usage error. */
static int parse_options(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof *o);
	o->timeout = DEFAULT_TIMEOUT_S;
	o->repeat = 1;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	o->jobs = cpus > 0 ? cpus : 1;
	/* the small binary names itself in --version and messages */
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *name = strcmp(base, "capture") == 0 ? "coursecheck capture" : "coursecheck-capture";
	char usage_line[sizeof usage_text + 40];
	snprintf(usage_line, sizeof usage_line, "usage: %s%s", name, usage_text);
	const struct cliopt_cmd cmd = {name, usage_line, "j:", capture_longs, 0};
	struct parse_ctx ctx = {&cmd, o};
	struct cliopt common;
	o->sbatch_args = xcalloc((size_t)argc + 1, sizeof *o->sbatch_args);
	int first = cliopt_parse(argc, argv, &cmd, &common, capture_option, &ctx);
	if (first < 0)
		return first == CLIOPT_DONE ? 1 : 2;
	o->root = common.root;
	o->quiet = common.quiet;
	o->lessons = xcalloc((size_t)(argc - first) + 1, sizeof *o->lessons);
	for (int i = first; i < argc; i++)
		o->lessons[o->n_lessons++] = argv[i];
	bool slurm_only = o->no_wait || o->gres || o->partition || o->account || o->array_limit || o->n_sbatch_args;
	const char *misuse = slurm_only && !o->slurm ? "--no-wait, --gres, --partition, --account, --array-limit and --sbatch go with --slurm"
			   : o->slurm && o->build_only ? "--slurm cannot go with --build-only"
			   : o->slurm && o->collect ? "--slurm cannot go with --collect"
			   : o->collect && o->n_lessons ? "--collect takes a job id, not lessons"
							  : NULL;
	if (misuse) {
		cliopt_usage_error(&cmd, "%s", misuse);
		return 2;
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
		diag_command(D_CAPTURE_SETUP, "capture", "cannot list the lessons: %s", why);
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
			struct buf known = {0};
			for (size_t k = 0; k < n_all; k++)
				buf_printf(&known, " %s", all[k]);
			struct diag *d = diag_begin(D_CAPTURE_UNKNOWN, (struct diag_loc){.path = "programs"},
						    "%s: no such lesson under programs/", o->lessons[i]);
			diag_hint(d, "the lessons are:%s", n_all ? known.s : " none");
			diag_end(d);
			buf_free(&known);
			status = 2;
			free(name);
		} else if (listed(*chosen, *n_chosen, name)) {
			free(name); /* named twice: captured once */
		} else {
			(*chosen)[(*n_chosen)++] = name;
		}
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
			char *shown = str_escape_controls(names[i]); /* one line, whatever the name */
			lesson_report(D_CAPTURE_LESSON, shown, NULL, "%s", why);
			free(shown);
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
	char *slurm_job, *slurm_node; /* when this capture is a Slurm task */
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
	slurm_task_facts(&f->slurm_job, &f->slurm_node);
	f->commit = capture_gpu_commit(repo_root(), &f->dirty);
	return 0;
}

static void free_facts(struct facts *f)
{
	machine_free(&f->machine);
	free(f->node);
	free(f->slurm_job);
	free(f->slurm_node);
	free(f->commit);
}

/* ---- the command ---- */

/* The summary, and the --stale plan lines ("L: stale: why") and "nothing
 * to submit" above: progress on standard error, not findings (every
 * problem of a lesson is a diagnostic at programs/LESSON, every problem of
 * the command one of capture-setup or capture-slurm), so they carry no id. */
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

/* The small capture binary the Slurm tasks run: this one, or the
 * repository's build/coursecheck-capture when this is the full binary.
 * Malloc'd absolute path, or NULL after saying why. */
static char *task_binary(void)
{
	char *self = realpath("/proc/self/exe", NULL);
	const char *base = self ? strrchr(self, '/') : NULL;
	if (base && strcmp(base + 1, "coursecheck-capture") == 0)
		return self;
	free(self);
	char *rel = xasprintf("%s/build/coursecheck-capture", repo_root());
	char *small = realpath(rel, NULL);
	if (!small || access(small, X_OK) != 0) {
		diag_command(D_CAPTURE_SETUP, "capture",
			     "the Slurm tasks run %s, which is not built (make build/coursecheck-capture)", rel);
		free(small);
		small = NULL;
	}
	free(rel);
	return small;
}

/* --slurm: the chosen (and, with --stale, out-of-date) lessons go to one
 * array job; nothing is built or run here. */
static int capture_slurm(const struct options *o, char **names, size_t n_names)
{
	size_t n, failed, current;
	struct lesson *ls = load(o, names, n_names, &n, &failed, &current);
	char **chosen = xcalloc(n ? n : 1, sizeof *chosen);
	for (size_t i = 0; i < n; i++)
		chosen[i] = ls[i].name;
	int status = failed ? 1 : 0;
	char *bin = n ? task_binary() : NULL;
	if (!n) {
		fprintf(stderr, "capture: %zu lesson%s, %zu up to date, %zu failed: nothing to submit\n", n_names,
			n_names == 1 ? "" : "s", current, failed);
	} else if (!bin) {
		status = 2;
	} else {
		struct slurm_options so = {o->gres, o->partition, o->account, o->array_limit, o->sbatch_args,
					   o->n_sbatch_args, !o->no_wait, o->timeout, o->repeat, o->keep_failed};
		int r = slurm_capture(&so, bin, chosen, n);
		status = r > status ? r : status;
	}
	free(bin);
	free(chosen);
	for (size_t i = 0; i < n; i++)
		lesson_free(&ls[i]);
	free(ls);
	return status;
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
	lesson_scratch_sweep();
	for (size_t i = 0; i < n_names; i++)
		lesson_sweep_evidence(names[i]);
	if (o->slurm) {
		status = capture_slurm(o, names, n_names);
		repo_free_list(names, n_names);
		return status;
	}
	char *outdir = NULL, *why = NULL;
	if (o->build_only) {
		if (filewrite_mkdirs(o->build_only, &why) != 0 || !(outdir = realpath(o->build_only, NULL))) {
			diag_command(D_CAPTURE_SETUP, "capture", "--build-only %s: %s", o->build_only,
				     why ? why : strerror(errno));
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
			lesson_report(D_CAPTURE_REFUSED, ls[i].name, NULL, "refused: %s", why);
		tally.failed += n;
		free(why);
	} else if (n) {
		struct capture_plan plan = {(double)o->timeout, o->keep_failed, o->jobs, o->repeat, outdir,
					    o->build_only, now, &f.machine, f.node, f.commit, f.dirty,
					    f.slurm_job, f.slurm_node};
		capture_schedule(ls, n, &plan, &tally);
	}
	if (!o->quiet || tally.interrupted)
		summary(o, n_names, current, &tally);
	for (size_t i = 0; i < n; i++)
		lesson_free(&ls[i]);
	free(ls);
	free_facts(&f);
	free(outdir);
	repo_free_list(names, n_names);
	/* the one rule: an error reported (a lesson that could not be
	 * captured), or an interrupted capture, is exit 1 */
	return cliopt_status(tally.interrupted ? 1 : 0);
}

int capture_command(int argc, char **argv)
{
	struct options o;
	int status = parse_options(argc, argv, &o);
	if (status == 1) {
		free(o.sbatch_args);
		return 0; /* --help or --version */
	}
	const char *now = getenv("COURSECHECK_NOW");
	if (status == 0 && now && !valid_now(now)) {
		diag_command(D_CAPTURE_SETUP, "capture", "COURSECHECK_NOW=%s is not a UTC time like 2026-11-30T10:05:12Z",
			     now);
		status = 2;
	}
	if (status == 0 && (o.root || strcmp(repo_root(), ".") == 0) && repo_open(o.root ? o.root : ".") != 0) {
		diag_command(D_CAPTURE_SETUP, "capture", "--root %s: %s", o.root ? o.root : ".", strerror(errno));
		status = 2;
	}
	if (status == 0 && o.collect) {
		status = slurm_collect(o.collect);
	} else if (status == 0) {
		proc_catch_signals();
		proc_become_reaper();
		status = capture_lessons(&o, now);
		proc_reap_strays();
		proc_release_signals();
	}
	free(o.lessons);
	free(o.sbatch_args);
	return cliopt_status(status);
}

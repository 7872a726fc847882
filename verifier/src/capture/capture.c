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

#include "capture_auto.h"
#include "capture_gpu.h"
#include "capture_lesson.h"
#include "capture_proc.h"
#include "capture_sched.h"
#include "capture_sign.h"
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
	"  --repeat auto[:MAX] repeat until the claims of --plan are decided, or MAX\n"
	"                      runs (default 20); record why it stopped\n"
	"  --plan FILE         the comparisons to decide (coursecheck explain --plan)\n"
	"  --build-only OUTDIR build each program into OUTDIR/LESSON/; no run, no evidence\n"
	"  --sign-key=FILE     sign each run with this node key (default: $COURSECHECK_SIGN_KEY)\n"
	"  --allow-dirty       capture a tree with uncommitted changes (the run says so)\n"
	"  --rehearse          try the whole flow without a GPU node: runs go to\n"
	"                      build/rehearsal/LESSON/, are never signed and never evidence\n"
	"The node key (made on the node, kept outside the repository):\n"
	"  --keygen=FILE       write a new Ed25519 key to FILE and FILE.pub; print its\n"
	"                      allowed_signers line\n"
	"  --principal=NAME    with --keygen: who the key speaks for (default: the host name)\n"
	"  --valid-for=TIME    with --keygen: 7d, 12h or 90m from now (default 7d)\n"
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
	bool repeat_auto;  /* --repeat auto[:MAX]: repeat is MAX */
	const char *plan;  /* --plan FILE */
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
	/* capture_sign.h */
	const char *sign_key; /* --sign-key or COURSECHECK_SIGN_KEY */
	bool allow_dirty;
	bool rehearse;
	const char *keygen, *principal;
	long long valid_for;
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
	OPT_TIMEOUT = 0x200, OPT_KEEP_FAILED, OPT_STALE, OPT_REPEAT, OPT_BUILD_ONLY, OPT_PLAN,
	OPT_SLURM, OPT_NO_WAIT, OPT_COLLECT, OPT_GRES, OPT_PARTITION, OPT_ACCOUNT, OPT_ARRAY_LIMIT, OPT_SBATCH,
	OPT_SIGN_KEY, OPT_ALLOW_DIRTY, OPT_KEYGEN, OPT_PRINCIPAL, OPT_VALID_FOR, OPT_REHEARSE
};

static const struct option capture_longs[] = {
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"keep-failed", no_argument, NULL, OPT_KEEP_FAILED},
	{"stale", no_argument, NULL, OPT_STALE},
	{"jobs", required_argument, NULL, 'j'},
	{"repeat", required_argument, NULL, OPT_REPEAT},
	{"plan", required_argument, NULL, OPT_PLAN},
	{"build-only", required_argument, NULL, OPT_BUILD_ONLY},
	{"slurm", no_argument, NULL, OPT_SLURM},
	{"no-wait", no_argument, NULL, OPT_NO_WAIT},
	{"collect", required_argument, NULL, OPT_COLLECT},
	{"gres", required_argument, NULL, OPT_GRES},
	{"partition", required_argument, NULL, OPT_PARTITION},
	{"account", required_argument, NULL, OPT_ACCOUNT},
	{"array-limit", required_argument, NULL, OPT_ARRAY_LIMIT},
	{"sbatch", required_argument, NULL, OPT_SBATCH},
	{"sign-key", required_argument, NULL, OPT_SIGN_KEY},
	{"allow-dirty", no_argument, NULL, OPT_ALLOW_DIRTY},
	{"rehearse", no_argument, NULL, OPT_REHEARSE},
	{"keygen", required_argument, NULL, OPT_KEYGEN},
	{"principal", required_argument, NULL, OPT_PRINCIPAL},
	{"valid-for", required_argument, NULL, OPT_VALID_FOR},
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
		o->repeat_auto = strncmp(arg, "auto", 4) == 0 && (arg[4] == '\0' || arg[4] == ':');
		if (!o->repeat_auto)
			return numeric(p->cmd, "--repeat", arg, 1, 1000, &o->repeat);
		o->repeat = AUTO_DEFAULT_MAX;
		return arg[4] ? numeric(p->cmd, "--repeat auto:MAX", arg + 5, AUTO_MIN_RUNS, 1000, &o->repeat) : 0;
	case OPT_PLAN:
		o->plan = arg;
		return 0;
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
	case OPT_SIGN_KEY:
	case OPT_KEYGEN:
	case OPT_PRINCIPAL:
		if (!*arg)
			return cliopt_usage_error(p->cmd, "%s needs a value", ch == OPT_SIGN_KEY ? "--sign-key"
									  : ch == OPT_KEYGEN ? "--keygen" : "--principal");
		*(ch == OPT_SIGN_KEY ? &o->sign_key : ch == OPT_KEYGEN ? &o->keygen : &o->principal) = arg;
		if (ch == OPT_PRINCIPAL && (strpbrk(arg, " \t\",#") || str_control_byte(arg)))
			return cliopt_usage_error(p->cmd, "--principal '%s': a name without blank space, quotes, commas or #", arg);
		return 0;
	case OPT_VALID_FOR:
		o->valid_for = capture_parse_duration(arg);
		if (o->valid_for < 0)
			return cliopt_usage_error(p->cmd, "bad value for --valid-for: '%s' (7d, 12h or 90m; at most 366d)", arg);
		return 0;
	case OPT_ALLOW_DIRTY:
		o->allow_dirty = true;
		return 0;
	case OPT_REHEARSE:
		o->rehearse = true;
		return 0;
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
	if (!o->sign_key && getenv("COURSECHECK_SIGN_KEY") && *getenv("COURSECHECK_SIGN_KEY"))
		o->sign_key = getenv("COURSECHECK_SIGN_KEY");
	o->lessons = xcalloc((size_t)(argc - first) + 1, sizeof *o->lessons);
	for (int i = first; i < argc; i++)
		o->lessons[o->n_lessons++] = argv[i];
	bool slurm_only = o->no_wait || o->gres || o->partition || o->account || o->array_limit || o->n_sbatch_args;
	const char *misuse = slurm_only && !o->slurm ? "--no-wait, --gres, --partition, --account, --array-limit and --sbatch go with --slurm"
			   : o->slurm && o->build_only ? "--slurm cannot go with --build-only"
			   : o->slurm && o->repeat_auto ? "--slurm cannot go with --repeat auto (yet): give --repeat K"
			   : o->plan && !o->repeat_auto ? "--plan goes with --repeat auto"
			   : o->slurm && o->collect ? "--slurm cannot go with --collect"
			   : o->collect && o->n_lessons ? "--collect takes a job id, not lessons"
			   : (o->principal || o->valid_for) && !o->keygen ? "--principal and --valid-for go with --keygen"
			   : o->keygen && (o->n_lessons || o->slurm || o->collect || o->build_only) ? "--keygen makes a key and captures nothing"
			   : o->rehearse && (o->slurm || o->collect || o->build_only || o->sign_key) ? "--rehearse goes with none of --slurm, --collect, --build-only and --sign-key"
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

/* read_facts(); a rehearsal on a machine nvidia-smi or nvcc cannot describe
 * goes on with one GPU named for what is missing: it is no evidence anyway. */
static int read_facts_or_rehearse(const struct options *o, struct facts *f, char **why)
{
	char *problem = NULL;
	if (read_facts(f, &problem) == 0)
		return 0;
	if (!o->rehearse) {
		*why = problem;
		return -1;
	}
	machine_free(&f->machine);
	memset(f, 0, sizeof *f);
	f->machine.gpus = xcalloc(1, sizeof *f->machine.gpus);
	f->machine.n_gpus = 1;
	struct gpu *g = &f->machine.gpus[0];
	char *shown = str_escape_controls(problem);
	g->name = xasprintf("none (rehearsal: %s)", shown);
	free(shown);
	free(problem);
	g->cc = xstrdup("none");
	g->driver = xstrdup("none");
	f->machine.cuda = xstrdup("none");
	f->node = node_name();
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

/* ---- what the runs are vouched for by (capture_sign.h) ---- */

struct vouch {
	const struct capture_signer *signer; /* &key when one was loaded and this is a GPU node */
	struct capture_signer key;
	char *not_gpu_node;
	bool dirty_allowed;
};

static void vouch_free(struct vouch *v)
{
	if (v->signer)
		capture_signer_free(&v->key);
	free(v->not_gpu_node);
}

/* The tree's changes, the node's key and whether this is a GPU node:
 * 0, or -1 with *why when the capture must be refused. */
static int vouch_for(const struct options *o, struct vouch *v, char **why)
{
	char *not_node = NULL;
	if (!capture_gpu_node(&not_node))
		v->not_gpu_node = not_node;
	if (o->rehearse) /* nothing a rehearsal writes is vouched for: no key, any tree */
		return 0;
	char *changed = capture_tree_change(repo_root());
	if (changed && !o->allow_dirty) {
		*why = xasprintf("the tree has uncommitted changes (%s): commit them, or give --allow-dirty "
				 "(the runs then say dirty-allowed: yes and are not accepted for publishing)", changed);
		free(changed);
		return -1;
	}
	v->dirty_allowed = changed != NULL;
	free(changed);
	if (o->sign_key && capture_signer_load(o->sign_key, &v->key, why) != 0)
		return -1;
	if (o->sign_key && v->not_gpu_node) {
		diag_command(D_CAPTURE_UNSIGNED, "capture", "the runs are not signed: %s", v->not_gpu_node);
		capture_signer_free(&v->key);
	} else if (o->sign_key) {
		v->signer = &v->key;
	}
	return 0;
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

/* --slurm: each task signs its run on its node (README, Signed evidence),
 * with the key --sign-key named, passed in the environment sbatch hands
 * its tasks; checked here first, so a key that cannot be used stops the
 * job before it is submitted.  False after saying why. */
static bool sign_on_nodes(const struct options *o)
{
	if (!o->sign_key)
		return true;
	struct capture_signer s;
	char *why = NULL, *abs = realpath(o->sign_key, NULL);
	bool ok = abs && capture_signer_load(abs, &s, &why) == 0;
	if (ok) {
		capture_signer_free(&s);
		setenv("COURSECHECK_SIGN_KEY", abs, 1);
	} else {
		diag_command(D_CAPTURE_SETUP, "capture", "--sign-key %s: %s", o->sign_key, why ? why : strerror(errno));
	}
	free(why);
	free(abs);
	return ok;
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
	} else if (!bin || !sign_on_nodes(o)) {
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
	struct vouch v = {0};
	if (n && !o->build_only && (read_facts_or_rehearse(o, &f, &why) != 0 || vouch_for(o, &v, &why) != 0)) {
		/* No GPU facts, no evidence: every lesson is refused (and so
		 * is every lesson of a tree with changes, without --allow-dirty) */
		for (size_t i = 0; i < n; i++)
			lesson_report(D_CAPTURE_REFUSED, ls[i].name, NULL, "refused: %s", why);
		tally.failed += n;
		free(why);
	} else if (n) {
		struct auto_plan pairs = {0};
		struct capture_plan plan = {(double)o->timeout, o->keep_failed, o->jobs, o->repeat, outdir,
					    o->build_only, now, &f.machine, f.node, f.commit, f.dirty,
					    f.slurm_job, f.slurm_node, v.signer, v.not_gpu_node, v.dirty_allowed,
					    o->rehearse, o->repeat_auto, &pairs};
		if (o->plan && auto_plan_read(o->plan, &pairs, &why) != 0) {
			diag_command(D_CAPTURE_SETUP, "capture", "--plan: %s", why);
			free(why);
			tally.failed += n;
		} else {
			capture_schedule(ls, n, &plan, &tally);
		}
		auto_plan_free(&pairs);
	}
	vouch_free(&v);
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
	if (status == 0 && o.keygen) {
		char host[256] = "node";
		gethostname(host, sizeof host - 1);
		host[sizeof host - 1] = '\0';
		char *why = NULL;
		if (capture_keygen(o.keygen, o.principal ? o.principal : host, o.valid_for ? o.valid_for : 7 * 86400LL, now,
				   &why) != 0) {
			diag_command(D_CAPTURE_SETUP, "capture", "%s", why);
			free(why);
			status = 2;
		}
	} else if (status == 0 && o.collect) {
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

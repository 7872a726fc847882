/* capture_sched.c - see capture_sched.h. */
#include "capture_sched.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture_proc.h"
#include "capture_reads.h"
#include "capture_repeats.h"
#include "capture_sign.h"
#include "capture_text.h"
#include "capture_write.h"
#include "filewrite.h"
#include "lessonfiles.h"
#include "proghdr.h"
#include "util.h"

#define TAIL_LINES 20
#define TAIL_BYTES (64u * 1024u)
#define NAP_S 0.05
#define SAMPLE_EVERY_S 1.0
#define CAPTURE_TOOL "coursecheck-capture 1"

enum state { QUEUED, BUILDING, READY, RUNNING, DONE };

struct job {
	const struct lesson *ls;
	enum state state;
	char *scratch;           /* our private folder, removed when the job ends */
	char *workdir;           /* where the program is built and run */
	struct proc proc;        /* the build or run in progress */
	double build_s;
	size_t gpu;              /* while RUNNING: index into machine->gpus */
	long runs;               /* runs finished */
	pid_t last_pid;          /* the last run's process group */
	char captured[21];       /* UTC time the first run started */
	struct transcript out, err; /* the first run's output */
	double run_s;
	size_t run_k;            /* the header's run in progress (0: the first, repeated) */
	struct transcript *outs, *errs; /* runs 1.. of the header: their output */
	char **exits;            /* and their exits */
	double *secs;
	long expect_failed;      /* 1 + the run whose stdout did not match Expect:, else 0 */
	struct volatility vol;
	long auto_needed;        /* --repeat auto: the runs after which the claims were decided, 0: never */
	struct pidset known;     /* pids nvidia-smi showed that were ours */
	pid_t foreign;           /* a process not ours seen on the GPU, 0: none */
	bool unchecked;          /* nvidia-smi could not be asked during the run */
	double last_sample;
	struct readset reads;    /* what the build read (readset.h), once it ended */
};

struct sched {
	const struct capture_plan *plan;
	struct job *jobs;
	size_t n;
	bool *gpu_busy;
	struct capture_tally *tally;
};

/* ---- reporting ---- */

static void say(const struct job *j, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void say(const struct job *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "capture: %s: %s\n", j->ls->name, msg);
	fflush(stderr);
	free(msg);
}

/* The last TAIL_BYTES of an output file, from its first whole line, as a
 * transcript: a run stopped at the output cap left 60 MiB, of which only
 * the last lines are shown. */
static int read_tail(const char *path, struct transcript *t, char **why)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		*why = xstrdup(strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	size_t size = (size_t)st.st_size, want = size < TAIL_BYTES ? size : TAIL_BYTES;
	char *data = xmalloc(want + 1);
	ssize_t got = pread(fd, data, want, (off_t)(size - want));
	close(fd);
	if (got < 0) {
		*why = xstrdup(strerror(errno));
		free(data);
		return -1;
	}
	size_t from = 0;
	if (want < size) { /* started mid-line: drop the piece */
		char *nl = memchr(data, '\n', (size_t)got);
		from = nl ? (size_t)(nl + 1 - data) : 0;
	}
	transcript_from_memory(data + from, (size_t)got - from, t);
	free(data);
	return 0;
}

/* The end of an output file, as text under a failure: stderr, or stdout
 * when stderr is empty (malloc'd). */
static char *tail_text(const char *what, const char *err_path, const char *out_path)
{
	const char *paths[2] = {err_path, out_path};
	const char *names[2] = {"stderr", "stdout"};
	struct buf b = {0};
	for (int i = 0; i < 2; i++) {
		struct transcript t;
		char *why = NULL;
		if (read_tail(paths[i], &t, &why) != 0) {
			free(why);
			continue;
		}
		if (t.n_lines) {
			char *tail = transcript_tail(&t, TAIL_LINES);
			size_t shown = t.n_lines < TAIL_LINES ? t.n_lines : TAIL_LINES;
			buf_printf(&b, "last %zu line%s of %s (%s):\n", shown, shown == 1 ? "" : "s", names[i], what);
			for (char *line = tail; *line;) {
				size_t n = strcspn(line, "\n");
				buf_printf(&b, "| %.*s\n", (int)n, line);
				line += n + (line[n] ? 1 : 0);
			}
			free(tail);
			transcript_free(&t);
			return b.s;
		}
		transcript_free(&t);
	}
	buf_printf(&b, "nothing on stderr or stdout (%s)\n", what);
	return b.s;
}

/* An exit for people to read: "exit 3" rather than the bare "3" of the
 * evidence field; signals and time limits read the same. */
static char *shown_exit(const struct proc *p)
{
	char *e = proc_describe(p);
	if (e[0] < '0' || e[0] > '9')
		return e;
	char *s = xasprintf("exit %s", e);
	free(e);
	return s;
}

/* The files in the scratch folder: build.out, build.err, run1.out, ... */
static char *scratch_file(const struct job *j, const char *name)
{
	return xasprintf("%s/%s", j->scratch, name);
}

static char *run_file(const struct job *j, long k, const char *ext)
{
	return xasprintf("%s/run%ld.%s", j->scratch, k, ext);
}

/* The output files of the run in progress (or just finished): the
 * repeats of the first run are run1, run2, ...; the header's further runs
 * named2, named3, ... */
static char *cur_file(const struct job *j, const char *ext)
{
	if (j->run_k == 0)
		return run_file(j, j->runs ? j->runs : 1, ext);
	return xasprintf("%s/named%zu.%s", j->scratch, j->run_k + 1, ext);
}

/* Whether a finished run ended with the exit status its header expects. */
static bool ended_as_expected(const struct proc *p, int want)
{
	return !p->timed_out && !p->stop_sig && !p->over_stream && WIFEXITED(p->wstatus) &&
	       WEXITSTATUS(p->wstatus) == want;
}

static const struct lesson_run *cur_run(const struct job *j)
{
	return &j->ls->runs[j->run_k];
}

/* ---- ending a job ---- */

static void release(struct sched *s, struct job *j)
{
	if (j->state == RUNNING)
		s->gpu_busy[j->gpu] = false;
	if (j->scratch)
		lesson_remove_tree(j->scratch);
	free(j->scratch);
	free(j->workdir);
	j->scratch = j->workdir = NULL;
	transcript_free(&j->out);
	transcript_free(&j->err);
	for (size_t k = 0; j->outs && k < j->ls->n_runs; k++) {
		transcript_free(&j->outs[k]); /* [0] unused: the first run is out, err */
		transcript_free(&j->errs[k]);
		free(j->exits[k]);
	}
	free(j->outs);
	free(j->errs);
	free(j->exits);
	free(j->secs);
	j->outs = j->errs = NULL;
	j->exits = NULL;
	j->secs = NULL;
	volatility_free(&j->vol);
	pidset_free(&j->known);
	readset_free(&j->reads);
	j->state = DONE;
}

static void succeed(struct sched *s, struct job *j)
{
	s->tally->done++;
	release(s, j);
}

/* Reports a failed job, then (tail_of: what ran) the end of its output,
 * which must be read before the scratch folder goes. */
static void vfail(struct sched *s, struct job *j, enum diag_kind kind, const char *tail_of, const char *err_path,
		  const char *out_path, const char *fmt, va_list ap)
{
	char *msg = xvasprintf(fmt, ap);
	char *text = tail_of ? tail_text(tail_of, err_path, out_path) : NULL;
	lesson_report(kind, j->ls->name, text, "%s", msg);
	free(text);
	free(msg);
	s->tally->failed++;
	release(s, j);
}

static void fail(struct sched *s, struct job *j, enum diag_kind kind, const char *fmt, ...) PRINTF_LIKE(4, 5);
static void fail(struct sched *s, struct job *j, enum diag_kind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(s, j, kind, NULL, NULL, NULL, fmt, ap);
	va_end(ap);
}

static void fail_with_tail(struct sched *s, struct job *j, const char *tail_of, const char *err_path,
			   const char *out_path, const char *fmt, ...) PRINTF_LIKE(6, 7);
static void fail_with_tail(struct sched *s, struct job *j, const char *tail_of, const char *err_path,
			   const char *out_path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(s, j, D_CAPTURE_FAILED, tail_of, err_path, out_path, fmt, ap);
	va_end(ap);
}

/* ---- the evidence ---- */

static void utc_now(const char *fixed, char out[21])
{
	if (fixed) {
		snprintf(out, 21, "%s", fixed);
		return;
	}
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void add_seconds(struct buf *h, const char *key, double s)
{
	char v[32];
	snprintf(v, sizeof v, "%.2f", s);
	header_add(h, key, v);
}

static void add_output_flags(struct buf *h, const char *stream, const struct transcript *t)
{
	char key[64];
	if (t->newline_added) {
		snprintf(key, sizeof key, "%s-final-newline", stream);
		header_add(h, key, "no");
	}
	if (t->nul_replaced) {
		snprintf(key, sizeof key, "%s-nul-replaced", stream);
		header_add(h, key, "yes");
	}
	if (t->cr_replaced) {
		snprintf(key, sizeof key, "%s-cr-replaced", stream);
		header_add(h, key, "yes");
	}
}

/* How a run went, for the header of its evidence. */
struct outcome {
	const char *exit;              /* "0", "3", "signal ...", "timeout ...", "build failed (...)" */
	const struct transcript *out, *err;
	bool ran;                      /* false: the build failed, nothing ran */
	long failed_repeat;            /* 1-based run that failed when repeating, else 0 */
	size_t n_runs;                 /* the header's runs recorded (1 + those in j->outs) */
	const char *last_exit;         /* the exit of run n_runs - 1 when it is not run 0 */
};

/* --repeat auto: why the repeats stopped, and how many the claims needed. */
static void add_auto_stop(struct buf *h, const struct sched *s, const struct job *j)
{
	char k[64];
	if (j->auto_needed) {
		snprintf(k, sizeof k, "decided after %ld runs", j->auto_needed);
		header_add(h, "repeat-stop", k);
		snprintf(k, sizeof k, "%ld", j->auto_needed);
		header_add(h, "repeats-needed", k);
	} else {
		snprintf(k, sizeof k, "undecided at the limit of %ld runs", s->plan->repeat);
		header_add(h, "repeat-stop", k);
		header_add(h, "repeats-needed", "more");
	}
}

/* Every repeat's value of each volatile number, sealed (capture_repeats.h). */
static void add_repeat_values(struct buf *h, const struct volatility *vol, const struct transcript *out)
{
	size_t first_line, dropped = volatility_dropped(vol, &first_line);
	if (dropped) {
		/* the places from first_line on, past the budget: the verifier
		 * refuses a range or bound over them */
		char k[96];
		snprintf(k, sizeof k, "%zu place%s from stdout line %zu on, over %u bytes", dropped,
			 dropped == 1 ? "" : "s", first_line, VOLATILITY_MAX_VALUES);
		header_add(h, "repeat-values-omitted", k);
	}
	char *values = volatility_describe_values(vol);
	if (values && values[0]) {
		char seal[SHA256_HEX_LEN + 1];
		repeats_seal(values, out->text, out->len, seal);
		header_add(h, "repeat-values", values);
		header_add(h, "repeat-values-sha256", seal);
	}
	free(values);
}

/* The header fields every evidence file has, in the order of the format. */
static void add_facts(struct buf *h, const struct sched *s, const struct job *j, const struct outcome *o,
		      const struct gpu *g)
{
	const struct lesson *ls = j->ls;
	header_add(h, "lesson", ls->name);
	header_add(h, "program", ls->program);
	header_add(h, "source-sha256", j->reads.sha);
	header_add(h, "build", ls->build);
	header_add(h, "run", ls->run);
	header_add(h, "gpu", g->name);
	header_add(h, "compute-capability", g->cc);
	header_add(h, "driver", g->driver);
	header_add(h, "cuda", s->plan->machine->cuda);
	header_add(h, "captured", j->captured);
	header_add(h, "node", s->plan->node);
	if (s->plan->slurm_job) {
		header_add(h, "slurm-job", s->plan->slurm_job);
		header_add(h, "slurm-node", s->plan->slurm_node ? s->plan->slurm_node : s->plan->node);
	}
	header_add(h, "exit", o->exit);
}

/* The header lines of several runs (evidence.h): runs:, run.NAME,
 * exit.NAME, expect-exit[.NAME], expect:, expect-failed:. */
static void add_runs(struct buf *h, const struct job *j, const struct outcome *o)
{
	const struct lesson *ls = j->ls;
	size_t n = o->ran ? o->n_runs : 1;
	if (o->ran && (n > 1 || strcmp(ls->runs[0].name, PROGHDR_MAIN_RUN) != 0)) {
		struct buf names = {0};
		for (size_t k = 0; k < n; k++)
			buf_printf(&names, "%s%s", k ? " " : "", ls->runs[k].name);
		header_add(h, "runs", names.s);
		buf_free(&names);
	}
	char key[64], v[32];
	if (ls->runs[0].exit) {
		snprintf(v, sizeof v, "%d", ls->runs[0].exit);
		header_add(h, "expect-exit", v);
	}
	for (size_t k = 1; o->ran && k < n; k++) {
		const char *name = ls->runs[k].name;
		snprintf(key, sizeof key, "run.%s", name);
		header_add(h, key, ls->runs[k].command);
		snprintf(key, sizeof key, "exit.%s", name);
		header_add(h, key, k + 1 == n && o->last_exit ? o->last_exit : j->exits[k]);
		if (ls->runs[k].exit) {
			snprintf(key, sizeof key, "expect-exit.%s", name);
			snprintf(v, sizeof v, "%d", ls->runs[k].exit);
			header_add(h, key, v);
		}
		snprintf(key, sizeof key, "run-seconds.%s", name);
		add_seconds(h, key, j->secs[k]);
	}
	if (ls->expect)
		header_add(h, "expect", ls->expect);
	for (size_t k = 0; k < n; k++)
		if (ls->runs[k].expect) {
			snprintf(key, sizeof key, "expect.%s", ls->runs[k].name);
			header_add(h, key, ls->runs[k].expect);
		}
	if (ls->resolution)
		header_add(h, "resolution", ls->resolution);
	if (j->expect_failed)
		header_add(h, "expect-failed", ls->runs[j->expect_failed - 1].name);
}

static char *compose(const struct sched *s, const struct job *j, const struct outcome *o, size_t *len)
{
	const struct gpu *g = &s->plan->machine->gpus[o->ran ? j->gpu : 0];
	struct buf h = {0};
	add_facts(&h, s, j, o, g);
	if (g->sm_count)
		header_add(&h, "sm-count", g->sm_count);
	if (g->memory)
		header_add(&h, "memory", g->memory);
	char *cc = host_compiler(j->ls->build);
	header_add(&h, "host-compiler", cc);
	free(cc);
	header_add(&h, "commit", s->plan->commit);
	header_add(&h, "dirty", s->plan->dirty);
	if (o->ran) {
		char idx[16];
		snprintf(idx, sizeof idx, "%d", g->index);
		header_add(&h, "gpu-index", idx);
		header_add(&h, "gpu-exclusive", j->foreign || j->unchecked ? "no" : "yes");
	}
	add_seconds(&h, "build-seconds", j->build_s);
	if (o->ran)
		add_seconds(&h, "run-seconds", j->run_s);
	if (s->plan->repeat > 1 && o->ran) {
		char k[32];
		snprintf(k, sizeof k, "%ld", s->plan->repeat_auto ? j->runs : s->plan->repeat);
		header_add(&h, "repeats", k);
		if (s->plan->repeat_auto && !o->failed_repeat)
			add_auto_stop(&h, s, j);
		if (o->failed_repeat) {
			snprintf(k, sizeof k, "%ld", o->failed_repeat);
			header_add(&h, "failed-repeat", k);
		} else {
			char *v = volatility_describe(&j->vol);
			header_add(&h, "volatile", v);
			free(v);
			add_repeat_values(&h, &j->vol, o->out);
		}
	}
	add_output_flags(&h, "stdout", o->out);
	add_output_flags(&h, "stderr", o->err);
	add_runs(&h, j, o);
	readset_header(&h, &j->reads, &j->ls->files);
	capture_sign_header(&h, s->plan->not_gpu_node, s->plan->dirty_allowed, s->plan->rehearsal);
	header_add(&h, "capture-tool", CAPTURE_TOOL);
	size_t n = o->ran ? o->n_runs : 1;
	const struct transcript **outs = xcalloc(n, sizeof *outs), **errs = xcalloc(n, sizeof *errs);
	const char **names = xcalloc(n, sizeof *names);
	outs[0] = o->out;
	errs[0] = o->err;
	for (size_t k = 1; k < n; k++) {
		outs[k] = &j->outs[k];
		errs[k] = &j->errs[k];
		names[k] = j->ls->runs[k].name;
	}
	char *text = evidence_compose_runs(&h, outs, errs, names, n, len);
	free(outs);
	free(errs);
	free(names);
	buf_free(&h);
	return text;
}

/* Writes the evidence; returns its path, or NULL after saying why. */
static char *write_evidence(const struct sched *s, const struct job *j, const struct outcome *o)
{
	size_t len;
	char *text = compose(s, j, o, &len);
	char date[11];
	memcpy(date, j->captured, 10);
	date[10] = '\0';
	char *path = NULL, *why = NULL;
	int r = s->plan->rehearsal ? capture_write_rehearsal(j->ls->name, date, text, len, &path, &why)
				   : capture_write_signed(j->ls->name, date, text, len, s->plan->signer, s->plan->not_gpu_node,
							  &path, &why);
	if (r != 0) {
		lesson_report(D_CAPTURE_WRITE, j->ls->name, NULL, "cannot write evidence: %s", why);
		free(why);
	}
	free(text);
	return path;
}

/* ---- GPU sharing ---- */

/* Asks nvidia-smi whether a process that is not ours uses the job's GPU. */
static void sample(struct sched *s, struct job *j)
{
	pid_t *ours = xcalloc(s->n + 1, sizeof *ours);
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->jobs[i].proc.pid)
			ours[n++] = s->jobs[i].proc.pid;
	if (j->last_pid)
		ours[n++] = j->last_pid;
	pid_t foreign = 0;
	char *why = NULL;
	int index = s->plan->machine->gpus[j->gpu].index;
	if (gpu_foreign_apps(index, ours, n, &j->known, &foreign, &why) != 0) {
		if (!j->unchecked)
			lesson_report(D_CAPTURE_SHARED, j->ls->name, NULL, "cannot ask nvidia-smi who uses GPU %d: %s", index, why);
		j->unchecked = true;
		free(why);
	} else if (foreign && !j->foreign) {
		j->foreign = foreign;
	}
	free(ours);
	j->last_sample = proc_now();
}

/* ---- building ---- */

static void start_build(struct sched *s, struct job *j)
{
	const struct capture_plan *p = s->plan;
	char *why = NULL;
	j->scratch = lesson_scratch_dir(j->ls->name, &why);
	if (!j->scratch) {
		fail(s, j, D_CAPTURE_FAILED, "cannot build: %s", why);
		free(why);
		return;
	}
	/* the lesson's files keep their layout below programs/: NAME/...
	 * and common/..., so "../common/x.h" is found */
	char *top = p->build_only ? xstrdup(p->build_only) : xasprintf("%s/work", j->scratch);
	j->workdir = xasprintf("%s/%s", top, j->ls->name);
	char *out = scratch_file(j, "build.out"), *err = scratch_file(j, "build.err");
	/* the compiler's temporaries go inside the scratch folder: a capture
	 * killed mid-build (kill -9: the build is killed at once, with no time
	 * to remove them) leaves them there, for the next capture's sweep,
	 * never in the user's $TMPDIR */
	char *tmp = scratch_file(j, "tmp"), *tmpdir = xasprintf("TMPDIR=%s", tmp);
	/* and the compilers' dependency output, for the files the build
	 * read (capture_reads.h) */
	char *deps = capture_reads_path(j->scratch);
	char **envp = capture_reads_env(deps, tmpdir);
	int r = filewrite_mkdirs(j->workdir, &why);
	if (r == 0)
		r = filewrite_mkdirs(tmp, &why);
	if (r == 0)
		r = lesson_copy(j->ls, top, &why);
	if (r == 0)
		r = proc_start(&j->proc, j->ls->build, j->workdir, out, err, envp, p->timeout, TRANSCRIPT_MAX_BYTES, &why);
	proc_env_free(envp);
	free(deps);
	free(tmpdir);
	free(tmp);
	free(top);
	free(out);
	free(err);
	if (r != 0) {
		fail(s, j, D_CAPTURE_FAILED, "cannot build: %s", why);
		free(why);
		return;
	}
	j->state = BUILDING;
}

/* Keeps a failed build as evidence (--keep-failed): its output is the transcript. */
static char *keep_failed_build(struct sched *s, struct job *j, const char *exit_text)
{
	char *out_path = scratch_file(j, "build.out"), *err_path = scratch_file(j, "build.err");
	char *why = NULL, *written = NULL;
	if (transcript_read(out_path, TRANSCRIPT_MAX_BYTES, &j->out, &why) == 0 &&
	    transcript_read(err_path, TRANSCRIPT_MAX_BYTES, &j->err, &why) == 0) {
		char *exit = xasprintf("build failed (%s)", exit_text);
		struct outcome o = {exit, &j->out, &j->err, false, 0, 1, NULL};
		utc_now(s->plan->now, j->captured);
		written = write_evidence(s, j, &o);
		free(exit);
	} else {
		lesson_report(D_CAPTURE_WRITE, j->ls->name, NULL, "cannot keep the failed build: %s", why);
		free(why);
	}
	free(out_path);
	free(err_path);
	return written;
}

static void build_done(struct sched *s, struct job *j)
{
	j->build_s = j->proc.seconds;
	char *deps = capture_reads_path(j->scratch);
	capture_reads_take(&j->reads, j->ls, deps, j->workdir);
	free(deps);
	if (proc_succeeded(&j->proc)) {
		if (!s->plan->build_only) {
			j->state = READY;
			return;
		}
		say(j, "build %.1f s -> %s/%s/", j->build_s, s->plan->build_only_shown, j->ls->name);
		succeed(s, j);
		return;
	}
	char *exit_text = shown_exit(&j->proc);
	char *err = scratch_file(j, "build.err"), *out = scratch_file(j, "build.out");
	char *kept = s->plan->keep_failed && !s->plan->build_only ? keep_failed_build(s, j, exit_text) : NULL;
	char *when = j->proc.timed_out ? xstrdup("") : xasprintf(" after %.1f s", j->build_s);
	if (kept)
		fail_with_tail(s, j, "build", err, out, "build failed: %s%s; kept as %s", exit_text, when, kept);
	else
		fail_with_tail(s, j, "build", err, out, "build failed: %s%s: `%s`", exit_text, when, j->ls->build);
	free(when);
	free(kept);
	free(exit_text);
	free(err);
	free(out);
}

/* ---- running ---- */

static void start_run(struct sched *s, struct job *j, size_t gpu)
{
	if (j->state != RUNNING) {
		j->gpu = gpu;
		s->gpu_busy[gpu] = true;
		j->state = RUNNING;
	}
	if (j->runs == 0)
		utc_now(s->plan->now, j->captured);
	sample(s, j); /* before */
	char *visible = xasprintf("CUDA_VISIBLE_DEVICES=%d", s->plan->machine->gpus[j->gpu].index);
	/* nvidia-smi numbers GPUs in PCI bus order; make CUDA count the same way. */
	const char *set[] = {visible, "CUDA_DEVICE_ORDER=PCI_BUS_ID"};
	char **envp = proc_env_with(set, ARRAY_LEN(set));
	char *out, *err;
	if (j->run_k == 0) {
		out = run_file(j, j->runs + 1, "out");
		err = run_file(j, j->runs + 1, "err");
	} else {
		out = cur_file(j, "out");
		err = cur_file(j, "err");
	}
	char *why = NULL;
	int r = proc_start(&j->proc, cur_run(j)->command, j->workdir, out, err, envp, s->plan->timeout,
			   TRANSCRIPT_MAX_BYTES, &why);
	proc_env_free(envp);
	free(visible);
	free(out);
	free(err);
	if (r != 0) {
		fail(s, j, D_CAPTURE_FAILED, "cannot run: %s", why);
		free(why);
		return;
	}
	j->last_pid = j->proc.pid;
	j->last_sample = proc_now();
}

/* The run in progress, for messages: "run", "run 2 of 3", "run racecheck". */
static char *run_label(const struct sched *s, const struct job *j)
{
	if (j->run_k == 0 && s->plan->repeat > 1)
		return xasprintf(s->plan->repeat_auto ? "run %ld of at most %ld" : "run %ld of %ld", j->runs,
				 s->plan->repeat);
	if (j->ls->n_runs == 1 && j->run_k == 0)
		return xstrdup("run");
	return xasprintf("run %s", cur_run(j)->name);
}

/* "; not run: racecheck-32, racecheck-64" for the header's runs after
 * the one that failed (a failed run ends the capture), or "". */
static char *later_runs(const struct job *j)
{
	struct buf b = {0};
	for (size_t k = j->run_k + 1; k < j->ls->n_runs; k++)
		buf_printf(&b, "%s%s", b.len ? ", " : "; not run: ", j->ls->runs[k].name);
	return b.s ? buf_detach(&b) : xstrdup("");
}

/* A run that failed (why: NULL when its exit says it, else the reason):
 * report it, and keep it when asked. */
static void run_failed(struct sched *s, struct job *j, const char *why_failed)
{
	long k = j->runs;
	char *exit_text = proc_describe(&j->proc), *shown = shown_exit(&j->proc);
	char *out_path = cur_file(j, "out"), *err_path = cur_file(j, "err");
	char *which = run_label(s, j);
	char *kept = NULL, *why = NULL;
	if (s->plan->keep_failed) {
		struct transcript out, err;
		if (transcript_read(out_path, TRANSCRIPT_MAX_BYTES, &out, &why) == 0) {
			if (transcript_read(err_path, TRANSCRIPT_MAX_BYTES, &err, &why) == 0) {
				struct outcome o;
				if (j->run_k == 0) {
					j->run_s = j->proc.seconds;
					o = (struct outcome){exit_text, &out, &err, true, s->plan->repeat > 1 ? k : 0, 1, NULL};
				} else {
					/* the earlier runs as they were, this one last */
					j->outs[j->run_k] = out;
					j->errs[j->run_k] = err;
					j->secs[j->run_k] = j->proc.seconds;
					o = (struct outcome){j->exits[0], &j->out, &j->err, true, 0, j->run_k + 1, exit_text};
				}
				kept = write_evidence(s, j, &o);
				if (j->run_k == 0)
					transcript_free(&err);
				if (j->run_k == 0)
					transcript_free(&out);
			} else {
				transcript_free(&out);
			}
		}
		if (why) {
			lesson_report(D_CAPTURE_WRITE, j->ls->name, NULL, "cannot keep the failed run: %s", why);
			free(why);
		}
	}
	char *when = j->proc.timed_out ? xstrdup("") : xasprintf(" after %.1f s", j->proc.seconds);
	char *what = why_failed ? xstrdup(why_failed)
		     : cur_run(j)->exit ? xasprintf("%s, expected exit %d", shown, cur_run(j)->exit)
					: xstrdup(shown);
	char *later = later_runs(j);
	if (kept)
		fail_with_tail(s, j, which, err_path, out_path, "%s failed: %s%s (build %.1f s)%s; kept as %s", which,
			       what, when, j->build_s, later, kept);
	else
		fail_with_tail(s, j, which, err_path, out_path, "%s failed: %s%s (build %.1f s)%s; no evidence written%s",
			       which, what, when, j->build_s, later, s->plan->keep_failed ? "" : " (--keep-failed writes it)");
	free(later);
	free(what);
	free(when);
	free(kept);
	free(which);
	free(exit_text);
	free(shown);
	free(out_path);
	free(err_path);
}

/* A run that ended as expected but whose stdout does not match the
 * header's Expect: a failed run, kept only with --keep-failed. */
static void expect_missed(struct sched *s, struct job *j)
{
	j->expect_failed = (long)j->run_k + 1;
	char *exit_text = proc_describe(&j->proc);
	char *why = xasprintf("exit %s, but its stdout does not match the Expect: line of %s (%s)", exit_text,
			      j->ls->program, lesson_expect_of(j->ls, j->run_k));
	free(exit_text);
	if (j->run_k > 0) {
		/* run_failed reads the transcripts again */
		transcript_free(&j->outs[j->run_k]);
		transcript_free(&j->errs[j->run_k]);
		free(j->exits[j->run_k]);
		j->exits[j->run_k] = NULL;
	}
	run_failed(s, j, why);
	free(why);
}

/* Takes in a successful run's output: the first is kept, later ones are
 * compared with it.  Returns false after failing the job. */
static bool take_output(struct sched *s, struct job *j)
{
	char *out_path = cur_file(j, "out"), *err_path = cur_file(j, "err");
	char *why = NULL;
	bool ok;
	bool matched = true;
	if (j->run_k > 0) {
		size_t k = j->run_k;
		ok = transcript_read(out_path, TRANSCRIPT_MAX_BYTES, &j->outs[k], &why) == 0 &&
		     transcript_read(err_path, TRANSCRIPT_MAX_BYTES, &j->errs[k], &why) == 0;
		if (ok) {
			j->exits[k] = proc_describe(&j->proc);
			j->secs[k] = j->proc.seconds;
			matched = lesson_expect_matches(j->ls, k, j->outs[k].text, j->outs[k].len);
		}
	} else if (j->runs == 1) {
		j->run_s = j->proc.seconds;
		ok = transcript_read(out_path, TRANSCRIPT_MAX_BYTES, &j->out, &why) == 0 &&
		     transcript_read(err_path, TRANSCRIPT_MAX_BYTES, &j->err, &why) == 0;
		if (ok) {
			volatility_init(&j->vol, &j->out);
			matched = lesson_expect_matches(j->ls, 0, j->out.text, j->out.len);
		}
	} else {
		struct transcript other;
		ok = transcript_read(out_path, TRANSCRIPT_MAX_BYTES, &other, &why) == 0;
		if (ok) {
			volatility_compare(&j->vol, &j->out, &other);
			matched = lesson_expect_matches(j->ls, 0, other.text, other.len);
		}
		transcript_free(&other);
	}
	free(out_path);
	free(err_path);
	if (!ok) {
		fail(s, j, D_CAPTURE_FAILED, "cannot take the output of run %ld: %s", j->runs, why);
		free(why);
		return false;
	}
	if (!matched)
		expect_missed(s, j);
	return matched;
}

static size_t count_volatile(const struct volatility *v)
{
	size_t n = 0;
	for (size_t i = 0; i < v->n; i++)
		n += v->nums[i].varies;
	return n;
}

/* A run that nothing checks (no Expect of its own, no Expect:) and that
 * printed at most one line: a program that stopped after its header (no
 * GPU, a missing input) reads as a success.  A warning, naming the run. */
static void report_thin_runs(const struct job *j)
{
	for (size_t k = 0; k < j->ls->n_runs; k++) {
		const struct transcript *t = k == 0 ? &j->out : j->outs ? &j->outs[k] : NULL;
		if (!t || lesson_expect_of(j->ls, k) || t->n_lines > 1)
			continue;
		lesson_report(D_CAPTURE_THIN, j->ls->name, NULL,
			      "run '%s' printed %zu line%s and has no Expect: nothing tells a run that did its work from "
			      "one that stopped early; add '// Expect%s%s: REGEX' to the header",
			      j->ls->runs[k].name, t->n_lines, t->n_lines == 1 ? "" : "s", k ? " " : "",
			      k ? j->ls->runs[k].name : "");
	}
}

static void report_success(struct sched *s, struct job *j, const char *path)
{
	report_thin_runs(j);
	if (j->foreign || j->unchecked) {
		int index = s->plan->machine->gpus[j->gpu].index;
		if (j->foreign > 0)
			lesson_report(D_CAPTURE_SHARED, j->ls->name, NULL,
				      "process %ld, not ours, used GPU %d during the run: timings taken on a "
			       "shared GPU are not evidence (recorded as gpu-exclusive: no)",
			    (long)j->foreign, index);
		else
			lesson_report(D_CAPTURE_SHARED, j->ls->name, NULL,
				      "GPU %d may have been shared during the run: timings taken on a shared GPU "
			       "are not evidence (recorded as gpu-exclusive: no)",
			    index);
	}
	if (s->plan->repeat > 1)
		say(j, "build %.1f s, run %.1f s (%ld runs, %zu volatile), exit 0 -> %s", j->build_s, j->run_s,
		    s->plan->repeat_auto ? j->runs : s->plan->repeat, count_volatile(&j->vol), path);
	else
		say(j, "build %.1f s, run %.1f s, exit 0 -> %s", j->build_s, j->run_s, path);
}

/* --repeat auto: whether the lesson's claims are decided by the runs so
 * far (from AUTO_MIN_RUNS on). */
static bool auto_done(const struct sched *s, struct job *j)
{
	if (!s->plan->repeat_auto || j->runs < AUTO_MIN_RUNS)
		return false;
	if (auto_undecided(s->plan->auto_pairs, j->ls->name, &j->vol, &j->out) > 0)
		return false;
	j->auto_needed = j->runs;
	return true;
}

static void run_done(struct sched *s, struct job *j)
{
	if (j->run_k == 0)
		j->runs++;
	sample(s, j); /* after */
	if (!ended_as_expected(&j->proc, cur_run(j)->exit)) {
		run_failed(s, j, NULL);
		return;
	}
	if (!take_output(s, j))
		return;
	if (j->run_k == 0 && j->runs < s->plan->repeat && !auto_done(s, j)) {
		start_run(s, j, j->gpu); /* the next repeat, on the same GPU */
		return;
	}
	if (j->run_k + 1 < j->ls->n_runs) {
		if (j->run_k == 0) {
			size_t n = j->ls->n_runs;
			j->outs = xcalloc(n, sizeof *j->outs);
			j->errs = xcalloc(n, sizeof *j->errs);
			j->exits = xcalloc(n, sizeof *j->exits);
			j->secs = xcalloc(n, sizeof *j->secs);
			j->exits[0] = xasprintf("%d", j->ls->runs[0].exit);
		}
		j->run_k++;
		start_run(s, j, j->gpu); /* the header's next run, on the same GPU */
		return;
	}
	char first_exit[8];
	snprintf(first_exit, sizeof first_exit, "%d", j->ls->runs[0].exit);
	struct outcome o = {first_exit, &j->out, &j->err, true, 0, j->ls->n_runs, NULL};
	char *path = write_evidence(s, j, &o);
	if (!path) {
		fail(s, j, D_CAPTURE_WRITE, "captured, but not written: build %.1f s, run %.1f s, exit 0", j->build_s, j->run_s);
		return;
	}
	report_success(s, j, path);
	free(path);
	succeed(s, j);
}

/* ---- the loop ---- */

static void start_work(struct sched *s)
{
	long building = 0;
	for (size_t i = 0; i < s->n; i++)
		building += s->jobs[i].state == BUILDING;
	for (size_t i = 0; i < s->n && building < s->plan->max_builds; i++)
		if (s->jobs[i].state == QUEUED) {
			start_build(s, &s->jobs[i]);
			building += s->jobs[i].state == BUILDING;
		}
	if (s->plan->build_only)
		return;
	for (size_t g = 0; g < s->plan->machine->n_gpus; g++) {
		for (size_t i = 0; i < s->n && !s->gpu_busy[g]; i++)
			if (s->jobs[i].state == READY)
				start_run(s, &s->jobs[i], g);
	}
}

/* Polls every child; returns true while any job is unfinished. */
static bool poll_work(struct sched *s)
{
	bool busy = false;
	for (size_t i = 0; i < s->n; i++) {
		struct job *j = &s->jobs[i];
		if (j->state == BUILDING && proc_poll(&j->proc))
			build_done(s, j);
		else if (j->state == RUNNING && proc_poll(&j->proc))
			run_done(s, j);
		else if (j->state == RUNNING && proc_now() - j->last_sample >= SAMPLE_EVERY_S)
			sample(s, j); /* during */
		busy = busy || j->state != DONE;
	}
	return busy;
}

static void abort_all(struct sched *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct job *j = &s->jobs[i];
		if (j->state == DONE)
			continue;
		proc_abort(&j->proc);
		release(s, j);
	}
}

void capture_schedule(const struct lesson *lessons, size_t n, const struct capture_plan *plan,
		      struct capture_tally *tally)
{
	struct sched s = {plan, xcalloc(n, sizeof(struct job)), n, NULL, tally};
	s.gpu_busy = xcalloc(plan->machine ? plan->machine->n_gpus : 1, sizeof *s.gpu_busy);
	for (size_t i = 0; i < n; i++)
		s.jobs[i].ls = &lessons[i];
	for (;;) {
		if ((tally->interrupted = proc_interrupted()) != 0) {
			abort_all(&s);
			break;
		}
		start_work(&s);
		if (!poll_work(&s))
			break;
		proc_nap(NAP_S);
	}
	free(s.jobs);
	free(s.gpu_busy);
}

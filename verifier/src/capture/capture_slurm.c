/* capture_slurm.c - see capture_slurm.h: one Slurm array job for a capture,
 * followed to its end. */
#include "capture_slurm.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture_lesson.h"
#include "capture_proc.h"
#include "diag.h"
#include "filewrite.h"
#include "repo.h"
#include "util.h"

#define TOOL_LIMIT_S 60.0   /* one sbatch, squeue or scontrol call */
#define POLL_S 0.5          /* between looks at the job's folder */
#define SQUEUE_EVERY_S 2.0  /* between asks of the controller */
#define SQUEUE_GIVE_UP 30   /* failed asks in a row before giving up */

/* ---- small helpers ---- */

/* 'text' for sh, single quotes closed and reopened around each quote. */
static void sh_quote(struct buf *b, const char *s)
{
	buf_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			buf_puts(b, "'\\''");
		else
			buf_putc(b, *s);
	}
	buf_putc(b, '\'');
}

/* A job id as Slurm prints it: digits only. */
static bool job_id_valid(const char *s)
{
	if (!*s || strlen(s) > 20)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* The first line of a small file, without its newline; NULL when absent. */
static char *first_line(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char line[512];
	char *r = fgets(line, sizeof line, f) ? xstrndup(line, strcspn(line, "\n")) : NULL;
	fclose(f);
	return r;
}

/* Runs a Slurm tool; its stdout in *out (NUL-terminated).  Returns 0 when it
 * exited 0, else -1 with *why naming the tool and what it said. */
static int slurm_tool(char *const argv[], struct buf *out, char **why)
{
	struct buf err = {0};
	int wstatus = 0;
	char *e = NULL;
	buf_free(out);
	if (proc_tool(argv, NULL, TOOL_LIMIT_S, out, &err, &wstatus, &e) != 0) {
		*why = xasprintf("%s: %s", argv[0], e);
		free(e);
		buf_free(&err);
		return -1;
	}
	buf_putc(out, '\0');
	out->len--;
	if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
		buf_putc(&err, '\0');
		char *said = err.len > 1 ? err.s : (char *)"no message";
		*why = xasprintf("%s failed: %.*s", argv[0], (int)strcspn(said, "\n"), said);
		buf_free(&err);
		return -1;
	}
	buf_free(&err);
	return 0;
}

/* ---- the batch script ---- */

/* What each task runs.  The job's folder is found from the job id, so the
 * script needs no editing after submission.  A signal from Slurm (scancel,
 * time limit) reaches capture too, which stops its lesson and writes
 * nothing; the script waits for that and records "cancelled". */
static char *task_script(const char *root, const char *binary, const struct slurm_options *o)
{
	struct buf b = {0};
	buf_puts(&b, "#!/bin/sh\n"
		     "# One task of a coursecheck capture array job (capture_slurm.h).\n"
		     "root=");
	sh_quote(&b, root);
	buf_puts(&b, "\nbin=");
	sh_quote(&b, binary);
	buf_puts(&b, "\n"
		     "dir=$root/build/slurm/${SLURM_ARRAY_JOB_ID:?not a Slurm array task}\n"
		     "n=$SLURM_ARRAY_TASK_ID\n"
		     "lesson=$(sed -n \"$((n + 1))p\" \"$dir/lessons\")\n"
		     "node=${SLURMD_NODENAME:-$(uname -n)}\n"
		     "put() { printf '%s\\n' \"$2\" >\"$dir/$n.$1.tmp\" && mv \"$dir/$n.$1.tmp\" \"$dir/$n.$1\"; }\n"
		     "put node \"$node\"\n"
		     "echo \"capture: $lesson: task $n of job $SLURM_ARRAY_JOB_ID on node $node\"\n"
		     "stopped=\n"
		     "trap 'stopped=1' TERM HUP INT\n"
		     "# the build and run happen in the node's own scratch space\n"
		     "COURSECHECK_SCRATCH=${TMPDIR:-/tmp}\n"
		     "export COURSECHECK_SCRATCH\n");
	buf_printf(&b, "\"$bin\" --root \"$root\" --timeout %ld --repeat %ld%s -- \"$lesson\" &\n", o->timeout,
		   o->repeat, o->keep_failed ? " --keep-failed" : "");
	buf_puts(&b, "pid=$!\n"
		     "wait $pid\n"
		     "rc=$?\n"
		     "# a trapped signal ends the wait early: wait for capture's own end\n"
		     "while kill -0 $pid 2>/dev/null; do wait $pid; rc=$?; done\n"
		     "if [ -n \"$stopped\" ]; then put status cancelled; else put status $rc; fi\n"
		     "exit $rc\n");
	return buf_detach(&b);
}

/* ---- submitting ---- */

struct job {
	char *id;
	char *dir;      /* absolute: ROOT/build/slurm/ID */
	char **lessons;
	size_t n;
};

static void job_free(struct job *j)
{
	free(j->id);
	free(j->dir);
	repo_free_list(j->lessons, j->n);
	memset(j, 0, sizeof *j);
}

#define SBATCH_OWNED 6
/* sbatch's argument vector (malloc'd array of borrowed strings and of the
 * ones it made, which it lists in owned[] for the caller to free). */
static char **sbatch_argv(const struct slurm_options *o, const char *root, const char *script, size_t n,
			  char *s[SBATCH_OWNED])
{
	size_t cap = 12 + o->n_sbatch_args;
	char **argv = xcalloc(cap, sizeof *argv);
	size_t k = 0;
	size_t ns = 0;
	argv[k++] = (char *)"sbatch";
	argv[k++] = (char *)"--parsable";
	argv[k++] = (char *)"--hold";
	argv[k++] = (char *)"--job-name=coursecheck-capture";
	argv[k++] = s[ns++] = o->array_limit ? xasprintf("--array=0-%zu%%%ld", n - 1, o->array_limit)
					     : xasprintf("--array=0-%zu", n - 1);
	argv[k++] = s[ns++] = xasprintf("--gres=%s", o->gres ? o->gres : "gpu:1");
	if (o->partition)
		argv[k++] = s[ns++] = xasprintf("--partition=%s", o->partition);
	if (o->account)
		argv[k++] = s[ns++] = xasprintf("--account=%s", o->account);
	argv[k++] = s[ns++] = xasprintf("--output=%s/build/slurm/%%A/%%a.log", root);
	argv[k++] = s[ns++] = xasprintf("--chdir=%s", root);
	for (size_t i = 0; i < o->n_sbatch_args; i++)
		argv[k++] = (char *)o->sbatch_args[i];
	argv[k++] = (char *)script;
	argv[k] = NULL;
	return argv;
}

static void cancel(const char *id)
{
	char *argv[] = {(char *)"scancel", (char *)id, NULL};
	struct buf out = {0};
	char *why = NULL;
	if (slurm_tool(argv, &out, &why) != 0) {
		diag_command(D_CAPTURE_SLURM, "capture", "cannot cancel Slurm job %s: %s", id, why);
		free(why);
	}
	buf_free(&out);
}

/* Writes the job's folder, submits it held, renames the folder to the job
 * id and releases the job.  Returns 0, or -1 after saying why (nothing
 * left queued). */
static int submit(const struct slurm_options *o, const char *binary, char **lessons, size_t n, struct job *j)
{
	const char *root = repo_root();
	char *why = NULL;
	/* made only where no link leads out of the repository */
	char *base = filewrite_mkdirs_repo("build/slurm", &why);
	char *tmp = base ? xasprintf("%s/submit-XXXXXX", base) : NULL;
	int status = -1;
	if (!base || !mkdtemp(tmp)) {
		diag_command(D_CAPTURE_SLURM, "capture", "cannot make a job folder under build/slurm/: %s",
			     why ? why : strerror(errno));
		free(why);
		free(tmp);
		free(base);
		return -1;
	}
	struct buf list = {0};
	for (size_t i = 0; i < n; i++)
		buf_printf(&list, "%s\n", lessons[i]);
	char *script = task_script(root, binary, o);
	char *lpath = xasprintf("%s/lessons", tmp), *spath = xasprintf("%s/task.sh", tmp);
	struct buf out = {0};
	char *owned[SBATCH_OWNED] = {0};
	char **argv = NULL;
	if (filewrite_replace(lpath, lpath, list.s, list.len, &why) != 0 ||
	    filewrite_replace(spath, spath, script, strlen(script), &why) != 0) {
		diag_command(D_CAPTURE_SLURM, "capture", "%s", why);
		goto done;
	}
	argv = sbatch_argv(o, root, spath, n, owned);
	if (slurm_tool(argv, &out, &why) != 0) {
		diag_command(D_CAPTURE_SLURM, "capture", "Slurm refused the job: %s", why);
		goto done;
	}
	char *id = xstrndup(out.s, strcspn(out.s, ";\n"));
	if (!job_id_valid(id)) {
		diag_command(D_CAPTURE_SLURM, "capture", "sbatch printed '%s', not a job id", id);
		free(id);
		goto done;
	}
	char *dir = xasprintf("%s/%s", base, id);
	if (rename(tmp, dir) != 0) {
		diag_command(D_CAPTURE_SLURM, "capture", "cannot name the job folder %s: %s", dir, strerror(errno));
		cancel(id);
		free(id);
		free(dir);
		goto done;
	}
	char *rel[] = {(char *)"scontrol", (char *)"release", id, NULL};
	if (slurm_tool(rel, &out, &why) != 0) {
		diag_command(D_CAPTURE_SLURM, "capture", "cannot release Slurm job %s: %s", id, why);
		cancel(id);
		free(id);
		free(dir);
		goto done;
	}
	j->id = id;
	j->dir = dir;
	j->lessons = xcalloc(n, sizeof *j->lessons);
	for (size_t i = 0; i < n; i++)
		j->lessons[i] = xstrdup(lessons[i]);
	j->n = n;
	status = 0;
done:
	if (status != 0) {
		lesson_remove_tree(tmp);
	}
	free(why);
	free(argv);
	for (size_t i = 0; i < SBATCH_OWNED; i++)
		free(owned[i]);
	buf_free(&out);
	free(lpath);
	free(spath);
	free(script);
	buf_free(&list);
	free(tmp);
	free(base);
	return status;
}

/* ---- following ---- */

struct task {
	char *node;   /* NULL until it started */
	char *status; /* NULL until it ended */
};

static char *task_file(const struct job *j, size_t i, const char *what)
{
	return xasprintf("%s/%zu.%s", j->dir, i, what);
}

/* Reads what the tasks have written; with progress, says each start and end. */
static size_t look(const struct job *j, struct task *t, bool progress)
{
	size_t ended = 0;
	for (size_t i = 0; i < j->n; i++) {
		if (!t[i].node) {
			char *p = task_file(j, i, "node");
			if ((t[i].node = first_line(p)) && progress)
				fprintf(stderr, "capture: %s: running on node %s\n", j->lessons[i], t[i].node);
			free(p);
		}
		if (!t[i].status) {
			char *p = task_file(j, i, "status");
			if ((t[i].status = first_line(p)) && progress) {
				const char *st = t[i].status;
				if (strcmp(st, "0") == 0)
					fprintf(stderr, "capture: %s: finished\n", j->lessons[i]);
				else if (strcmp(st, "cancelled") == 0)
					fprintf(stderr, "capture: %s: cancelled\n", j->lessons[i]);
				else
					fprintf(stderr, "capture: %s: failed (capture exit %s)\n", j->lessons[i], st);
			}
			free(p);
		}
		ended += t[i].status != NULL;
	}
	return ended;
}

/* Whether Slurm still holds tasks of the job: 1 yes, 0 no, -1 cannot tell. */
static int still_queued(const char *id)
{
	char *argv[] = {(char *)"squeue", (char *)"-h", (char *)"-r", (char *)"-j", (char *)id, (char *)"-o", (char *)"%i",
			NULL};
	struct buf out = {0};
	char *why = NULL;
	int r = slurm_tool(argv, &out, &why);
	int answer = r == 0 ? out.len > 0 : -1;
	/* A finished job is forgotten by the controller after a while. */
	if (r != 0 && why && strstr(why, "Invalid job id"))
		answer = 0;
	free(why);
	buf_free(&out);
	return answer;
}

/* The evidence file a task wrote: the run of the lesson whose header names
 * the task.  Malloc'd repository-relative path, or NULL. */
static char *evidence_of(const struct job *j, size_t i)
{
	char *want = xasprintf("slurm-job: %s_%zu", j->id, i);
	char *dir = xasprintf("%s/evidence/%s", repo_root(), j->lessons[i]);
	char *found = NULL;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		if (strncmp(e->d_name, "run-", 4) != 0)
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		FILE *f = fopen(p, "r");
		char line[256];
		/* the header is short and comes first; stop at the body */
		for (int k = 0; f && k < 64 && fgets(line, sizeof line, f) && strncmp(line, "stdout:", 7) != 0; k++)
			if (strncmp(line, want, strlen(want)) == 0 && line[strlen(want)] == '\n')
				found = xasprintf("evidence/%s/%s", j->lessons[i], e->d_name);
		if (f)
			fclose(f);
		free(p);
	}
	if (d)
		closedir(d);
	free(dir);
	free(want);
	return found;
}

/* What capture said went wrong with the lesson: its first line about the
 * lesson in the task's log ("run failed: exit 3 after 0.0 s (build 0.2 s)"),
 * up to its first "; ".  Malloc'd, or NULL. */
static char *log_reason(const char *log, const char *lesson)
{
	FILE *f = fopen(log, "r");
	if (!f)
		return NULL;
	char line[1024], *said = NULL;
	/* the task's first error about the lesson (lesson_report(): diag's
	 * "programs/LESSON: error: MESSAGE [id]"), up to its first "; " */
	char *prefix = xasprintf("programs/%s: error: ", lesson);
	size_t np = strlen(prefix);
	while (!said && fgets(line, sizeof line, f)) {
		if (strncmp(line, prefix, np) != 0)
			continue;
		const char *text = line + np;
		size_t n = strcspn(text, "\n");
		const char *semi = strstr(text, "; ");
		if (semi && (size_t)(semi - text) < n)
			n = (size_t)(semi - text);
		else if (n > 2 && text[n - 1] == ']') {
			size_t k = n - 1; /* the id: the last " [" */
			while (k > 0 && !(text[k] == '[' && text[k - 1] == ' '))
				k--;
			if (k > 0)
				n = k - 1;
		}
		said = xstrndup(text, n);
	}
	free(prefix);
	fclose(f);
	return said;
}

static bool log_says(const char *log, const char *what)
{
	FILE *f = fopen(log, "r");
	if (!f)
		return false;
	char line[1024];
	bool yes = false;
	while (!yes && fgets(line, sizeof line, f))
		yes = strstr(line, what) != NULL;
	fclose(f);
	return yes;
}

/* A task that did not leave its lesson's evidence: an error at
 * programs/LESSON, as a capture on this machine reports its lessons. */
static void lesson_problem(const char *lesson, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void lesson_problem(const char *lesson, const char *fmt, ...)
{
	char *at = xasprintf("programs/%s", lesson);
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = diag_vbegin(D_CAPTURE_SLURM, (struct diag_loc){.path = at}, fmt, ap);
	va_end(ap);
	diag_end(d);
	free(at);
}

/* One line a lesson (the captured ones as progress, the others as
 * capture-slurm errors), then the count: the progress lines, like the
 * "running on node" ones above, are no findings and carry no id.
 * Returns how many were captured. */
static size_t summarise(const struct job *j, const struct task *t)
{
	size_t captured = 0;
	for (size_t i = 0; i < j->n; i++) {
		char *log = task_file(j, i, "log");
		char *rel = xasprintf("build/slurm/%s/%zu.log", j->id, i);
		const char *node = t[i].node ? t[i].node : "?";
		const char *st = t[i].status;
		if (st && strcmp(st, "0") == 0) {
			char *ev = evidence_of(j, i);
			if (ev)
				fprintf(stderr, "capture: %s: captured on node %s -> %s\n", j->lessons[i], node, ev);
			else
				lesson_problem(j->lessons[i], "finished on node %s, but no evidence file names this task; log: %s",
					       node, rel);
			captured += ev != NULL;
			free(ev);
		} else {
			char *reason = NULL;
			if (!t[i].node)
				reason = xstrdup("never started: cancelled while pending, or refused by Slurm");
			else if (!st)
				reason = xstrdup("ended without a status: killed by Slurm, or its node failed");
			else if (strcmp(st, "cancelled") == 0)
				reason = xstrdup(log_says(log, "DUE TO TIME LIMIT") ? "stopped by Slurm at the job's time limit"
										     : "cancelled (scancel, preemption or shutdown)");
			else {
				char *said = log_reason(log, j->lessons[i]);
				reason = xasprintf("failed (capture exit %s)%s%s", st, said ? ": " : "", said ? said : "");
				free(said);
			}
			/* with --keep-failed the failed run is on record too */
			char *ev = evidence_of(j, i);
			lesson_problem(j->lessons[i], "%s on node %s; %s%s; log: %s", reason, node,
				       ev ? "evidence of the failed run: " : "no evidence written", ev ? ev : "", rel);
			free(ev);
			free(reason);
		}
		free(rel);
		free(log);
	}
	fprintf(stderr, "capture: Slurm job %s: %zu lesson%s, %zu captured, %zu failed\n", j->id, j->n,
		j->n == 1 ? "" : "s", captured, j->n - captured);
	return captured;
}

/* Follows the job until every task has ended.  An interrupt cancels it:
 * the capture owns the work it started. */
static int follow(const struct job *j)
{
	bool progress = isatty(STDERR_FILENO);
	struct task *t = xcalloc(j->n, sizeof *t);
	double last_ask = 0;
	int fails = 0, status = 0;
	if (progress)
		fprintf(stderr, "capture: Slurm job %s: %zu lesson%s\n", j->id, j->n, j->n == 1 ? "" : "s");
	proc_catch_signals();
	for (;;) {
		if (look(j, t, progress) == j->n)
			break;
		if (proc_interrupted()) {
			fprintf(stderr, "capture: interrupted: cancelling Slurm job %s\n", j->id);
			cancel(j->id);
			status = 1;
			break;
		}
		if (proc_now() - last_ask >= SQUEUE_EVERY_S) {
			last_ask = proc_now();
			int q = still_queued(j->id);
			if (q == 0) {
				look(j, t, progress); /* a task's last rename may have come just now */
				break;
			}
			if (q < 0 && ++fails >= SQUEUE_GIVE_UP) {
				struct diag *d = diag_command_begin(D_CAPTURE_SLURM, "capture",
								    "cannot ask Slurm about job %s (squeue keeps failing)",
								    j->id);
				diag_hint(d, "collect it later with: coursecheck capture --collect %s", j->id);
				diag_end(d);
				status = 1;
				break;
			}
			if (q > 0)
				fails = 0;
		}
		proc_nap(POLL_S);
	}
	proc_release_signals();
	if (summarise(j, t) != j->n)
		status = 1;
	for (size_t i = 0; i < j->n; i++) {
		free(t[i].node);
		free(t[i].status);
	}
	free(t);
	return status;
}

/* ---- the interface ---- */

int slurm_capture(const struct slurm_options *o, const char *capture_binary, char **lessons, size_t n)
{
	if (!n) {
		fputs("capture: no lesson to submit\n", stderr);
		return 1;
	}
	struct job j = {0};
	if (submit(o, capture_binary, lessons, n, &j) != 0)
		return 2;
	int status = 0;
	if (o->wait) {
		status = follow(&j);
	} else {
		printf("%s\n", j.id);
		fprintf(stderr, "capture: submitted Slurm job %s (%zu lesson%s); follow it with: coursecheck capture --collect %s\n",
			j.id, n, n == 1 ? "" : "s", j.id);
	}
	job_free(&j);
	return status;
}

int slurm_collect(const char *jobid)
{
	if (!job_id_valid(jobid)) {
		diag_command(D_CAPTURE_SLURM, "capture", "--collect %s: not a Slurm job id", jobid);
		return 2;
	}
	struct job j = {0};
	j.id = xstrdup(jobid);
	j.dir = xasprintf("%s/build/slurm/%s", repo_root(), jobid);
	char *path = xasprintf("%s/lessons", j.dir);
	FILE *f = fopen(path, "r");
	if (!f) {
		diag_command(D_CAPTURE_SLURM, "capture", "--collect %s: %s: %s (was the job submitted from this repository?)",
			     jobid, path, strerror(errno));
		free(path);
		job_free(&j);
		return 2;
	}
	char line[4096];
	size_t cap = 0;
	while (fgets(line, sizeof line, f)) {
		if (j.n == cap)
			j.lessons = xrealloc(j.lessons, (cap = cap ? 2 * cap : 8) * sizeof *j.lessons);
		j.lessons[j.n++] = xstrndup(line, strcspn(line, "\n"));
	}
	fclose(f);
	free(path);
	int status = follow(&j);
	job_free(&j);
	return status;
}

/* Only the characters a job id or host name has: anything else would
 * break the header's line. */
static char *header_safe(const char *s)
{
	if (!s || !*s || strlen(s) > 200)
		return NULL;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return NULL;
	return xstrdup(s);
}

void slurm_task_facts(char **job, char **node)
{
	const char *array = getenv("SLURM_ARRAY_JOB_ID"), *task = getenv("SLURM_ARRAY_TASK_ID");
	const char *plain = getenv("SLURM_JOB_ID");
	char *id = array && task ? xasprintf("%s_%s", array, task) : plain ? xstrdup(plain) : NULL;
	*job = header_safe(id);
	free(id);
	*node = *job ? header_safe(getenv("SLURMD_NODENAME")) : NULL;
}

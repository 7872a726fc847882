/* capture_proc.c - see capture_proc.h. */
#include "capture_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define TOOL_KEEP_BYTES (1024u * 1024u)

double proc_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void proc_nap(double s)
{
	if (s <= 0)
		return;
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	nanosleep(&ts, NULL); /* EINTR (a child ended, an interrupt) just ends the nap early */
}

/* ---- signals ---- */

static volatile sig_atomic_t caught;
/* SIGCHLD only wakes the scheduler's nap; SIGPIPE is caught (not ignored,
 * which children would inherit) so that a closed stderr cannot kill us
 * and orphan the children. */
static const int watched[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE};
static struct sigaction saved[ARRAY_LEN(watched)];
static bool installed[ARRAY_LEN(watched)];

static void on_signal(int sig)
{
	if (sig != SIGCHLD && sig != SIGPIPE)
		caught = sig;
}

void proc_catch_signals(void)
{
	caught = 0;
	for (size_t i = 0; i < ARRAY_LEN(watched); i++) {
		struct sigaction old;
		if (sigaction(watched[i], NULL, &old) != 0)
			continue;
		/* A signal ignored by whoever started us (nohup, a background
		 * job) stays ignored, as shells do. */
		if (old.sa_handler == SIG_IGN && watched[i] != SIGCHLD)
			continue;
		if (watched[i] == SIGPIPE && old.sa_handler != SIG_DFL)
			continue; /* the caller (coursecheck) has its own plan for SIGPIPE */
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		/* SA_RESTART keeps reads and writes whole; nanosleep() and poll(),
		 * where we wait, return EINTR regardless, so a signal wakes us. */
		sa.sa_flags = SA_RESTART | (watched[i] == SIGCHLD ? SA_NOCLDSTOP : 0);
		if (sigaction(watched[i], &sa, &saved[i]) == 0)
			installed[i] = true;
	}
}

void proc_release_signals(void)
{
	for (size_t i = 0; i < ARRAY_LEN(watched); i++)
		if (installed[i]) {
			sigaction(watched[i], &saved[i], NULL);
			installed[i] = false;
		}
}

int proc_interrupted(void)
{
	return caught;
}

const char *proc_signal_name(int sig)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
		{SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
		{SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
		{SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGCHLD, "SIGCHLD"},
		{SIGCONT, "SIGCONT"}, {SIGSTOP, "SIGSTOP"}, {SIGTSTP, "SIGTSTP"}, {SIGTTIN, "SIGTTIN"},
		{SIGTTOU, "SIGTTOU"}, {SIGURG, "SIGURG"},   {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
		{SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"}, {SIGSYS, "SIGSYS"},
	};
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return NULL;
}

/* ---- starting a child ---- */

/* The executable a command name means: itself when it holds a slash,
 * else the first match on PATH.  Malloc'd, or NULL. */
static char *find_on_path(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? xstrdup(name) : NULL;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		char *cand = n ? xasprintf("%.*s/%s", (int)n, path, name) : xasprintf("./%s", name);
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
			return cand;
		free(cand);
		path += n + (colon ? 1 : 0);
	}
	return NULL;
}

static void reap(pid_t pid, int *wstatus)
{
	while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
		;
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void become(int fd, int target)
{
	if (fd == target)
		fcntl(fd, F_SETFD, 0); /* keep it across exec */
	else
		dup2(fd, target);
}

static void child_exec(const char *path, char *const argv[], char *const envp[], const char *dir,
		       int in, int out, int err, int report)
{
	setpgid(0, 0);
	become(in, 0);
	become(out, 1);
	become(err, 2);
	int e = 0;
	if (dir && chdir(dir) != 0)
		e = errno;
	if (!e) {
		execve(path, argv, envp ? envp : environ);
		e = errno;
	}
	ssize_t w = write(report, &e, sizeof e);
	(void)w;
	_exit(127);
}

/* Forks and execs path; the child leads a new process group.  The report
 * pipe (close-on-exec) carries the errno of a failed chdir or exec back,
 * so that a missing tool is an error here and not a status 127 there. */
static pid_t spawn(const char *path, char *const argv[], char *const envp[], const char *dir, int out,
		   int err, char **why)
{
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		*why = xasprintf("cannot open /dev/null: %s", strerror(errno));
		return -1;
	}
	int report[2];
	if (pipe(report) != 0) {
		*why = xasprintf("cannot make a pipe: %s", strerror(errno));
		close(in);
		return -1;
	}
	fcntl(report[0], F_SETFD, FD_CLOEXEC);
	fcntl(report[1], F_SETFD, FD_CLOEXEC);
	pid_t pid = fork();
	if (pid == 0)
		child_exec(path, argv, envp, dir, in, out, err, report[1]);
	int fork_errno = errno;
	close(in);
	close(report[1]);
	if (pid < 0) {
		close(report[0]);
		*why = xasprintf("cannot fork: %s", strerror(fork_errno));
		return -1;
	}
	setpgid(pid, pid); /* also here, so the group exists before we might signal it */
	int e = 0;
	ssize_t got;
	while ((got = read(report[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (got == (ssize_t)sizeof e) {
		int st;
		reap(pid, &st);
		*why = xasprintf("cannot run %s%s%s: %s", path, dir ? " in " : "", dir ? dir : "", strerror(e));
		return -1;
	}
	return pid;
}

/* ---- commands with a time limit ---- */

static int open_output(const char *path, char **why)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		*why = xasprintf("cannot create %s: %s", path, strerror(errno));
	return fd;
}

/* Words that `exec` cannot precede: the shell's reserved words and the
 * builtins with no program of the same name. */
static bool shell_only_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"!", "{", "}", "[[", "if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until",
		"do", "done", "in", "function", "select", "time", "break", ":", ".", "continue", "eval", "exec",
		"exit", "export", "readonly", "return", "set", "shift", "times", "trap", "unset", "cd", "alias",
		"unalias", "read", "wait", "umask", "ulimit", "jobs", "fg", "bg", "getopts", "hash", "type",
		"local", "source", "command", "builtin",
	};
	for (size_t i = 0; i < ARRAY_LEN(words); i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return true;
	return false;
}

char *proc_exec_form(const char *cmd)
{
	const char *w = cmd + strspn(cmd, " \t");
	size_t n = strcspn(w, " \t");
	bool simple = n > 0 && !strpbrk(cmd, ";&|(){}`\n\r") && !strstr(cmd, "$(") && !memchr(w, '=', n) &&
		      !shell_only_word(w, n);
	return simple ? xasprintf("exec %s", cmd) : xstrdup(cmd);
}

int proc_start(struct proc *p, const char *cmd, const char *dir, const char *out_path,
	       const char *err_path, char *const envp[], double limit, char **why)
{
	memset(p, 0, sizeof *p);
	int out = open_output(out_path, why);
	if (out < 0)
		return -1;
	int err = open_output(err_path, why);
	if (err < 0) {
		close(out);
		return -1;
	}
	char *line = proc_exec_form(cmd);
	char *argv[] = {"sh", "-c", line, NULL};
	p->started = proc_now();
	p->limit = limit;
	pid_t pid = spawn("/bin/sh", argv, envp, dir, out, err, why);
	free(line);
	close(out);
	close(err);
	if (pid < 0)
		return -1;
	p->pid = pid;
	return 0;
}

/* The leader has ended (it is a zombie until reaped, which keeps its
 * process group id from being reused): kill what it left in its group,
 * then reap it. */
static void finish(struct proc *p)
{
	kill(-p->pid, SIGKILL);
	reap(p->pid, &p->wstatus);
	p->seconds = proc_now() - p->started;
	p->pid = 0;
}

bool proc_poll(struct proc *p)
{
	if (!p->pid)
		return true;
	siginfo_t si;
	memset(&si, 0, sizeof si);
	int r = waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT);
	if (r == 0 && si.si_pid == p->pid) {
		finish(p);
		return true;
	}
	if (r < 0 && errno == ECHILD) { /* reaped behind our back: cannot happen here */
		p->wstatus = 127 << 8;
		p->pid = 0;
		return true;
	}
	double now = proc_now();
	if (!p->timed_out && now - p->started >= p->limit) {
		p->timed_out = true;
		p->term_sent = now;
		kill(-p->pid, SIGTERM);
	} else if (p->timed_out && now - p->term_sent >= 1.0) {
		kill(-p->pid, SIGKILL);
	}
	return false;
}

void proc_abort(struct proc *p)
{
	if (!p->pid)
		return;
	kill(-p->pid, SIGKILL);
	finish(p);
}

bool proc_succeeded(const struct proc *p)
{
	return !p->timed_out && WIFEXITED(p->wstatus) && WEXITSTATUS(p->wstatus) == 0;
}

char *proc_describe(const struct proc *p)
{
	if (p->timed_out)
		return xasprintf("timeout after %.0f s", p->limit);
	if (WIFSIGNALED(p->wstatus)) {
		int sig = WTERMSIG(p->wstatus);
		const char *name = proc_signal_name(sig);
		return name ? xasprintf("signal %d (%s)", sig, name) : xasprintf("signal %d", sig);
	}
	return xasprintf("%d", WIFEXITED(p->wstatus) ? WEXITSTATUS(p->wstatus) : 127);
}

/* ---- tools whose output we read ---- */

/* Reads what is ready on fd into b (keeping at most TOOL_KEEP_BYTES).
 * Returns false at end of file or on an error. */
static bool drain(int fd, struct buf *b)
{
	char chunk[4096];
	ssize_t n = read(fd, chunk, sizeof chunk);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return false;
	size_t keep = b->len < TOOL_KEEP_BYTES ? TOOL_KEEP_BYTES - b->len : 0;
	buf_append(b, chunk, (size_t)n < keep ? (size_t)n : keep);
	return true;
}

/* Collects both pipes until both close or the deadline passes.  Returns
 * false on the deadline or an interrupt. */
static bool collect(int fds[2], struct buf *out, struct buf *err, double deadline)
{
	struct buf *bufs[2] = {out, err};
	bool open_[2] = {true, true};
	while (open_[0] || open_[1]) {
		if (proc_interrupted())
			return false;
		double left = deadline - proc_now();
		if (left <= 0)
			return false;
		struct pollfd pf[2];
		nfds_t n = 0;
		int which[2];
		for (int i = 0; i < 2; i++)
			if (open_[i]) {
				pf[n] = (struct pollfd){.fd = fds[i], .events = POLLIN};
				which[n++] = i;
			}
		int r = poll(pf, n, left > 1.0 ? 1000 : (int)(left * 1000) + 1);
		if (r < 0 && errno != EINTR)
			return false;
		for (nfds_t k = 0; r > 0 && k < n; k++)
			if (pf[k].revents && !drain(fds[which[k]], bufs[which[k]]))
				open_[which[k]] = false;
	}
	return true;
}

/* Waits for the leader to end until the deadline; false if it did not. */
static bool wait_leader(pid_t pid, double deadline)
{
	for (;;) {
		siginfo_t si;
		memset(&si, 0, sizeof si);
		int r = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT);
		if ((r == 0 && si.si_pid == pid) || (r < 0 && errno == ECHILD))
			return true;
		if (proc_interrupted() || proc_now() >= deadline)
			return false;
		proc_nap(0.01);
	}
}

int proc_tool(char *const argv[], const char *dir, double limit, struct buf *out, struct buf *err,
	      int *wstatus, char **why)
{
	buf_append(out, "", 0);
	buf_append(err, "", 0);
	char *path = find_on_path(argv[0]);
	if (!path) {
		*why = xasprintf("%s: not found on PATH", argv[0]);
		return -1;
	}
	int po[2], pe[2];
	if (pipe(po) != 0) {
		*why = xasprintf("cannot make a pipe: %s", strerror(errno));
		free(path);
		return -1;
	}
	if (pipe(pe) != 0) {
		*why = xasprintf("cannot make a pipe: %s", strerror(errno));
		close(po[0]);
		close(po[1]);
		free(path);
		return -1;
	}
	int all[4] = {po[0], po[1], pe[0], pe[1]};
	for (int i = 0; i < 4; i++)
		fcntl(all[i], F_SETFD, FD_CLOEXEC);
	pid_t pid = spawn(path, argv, NULL, dir, po[1], pe[1], why);
	free(path);
	close(po[1]);
	close(pe[1]);
	if (pid < 0) {
		close(po[0]);
		close(pe[0]);
		return -1;
	}
	double deadline = proc_now() + limit;
	int fds[2] = {po[0], pe[0]};
	bool whole = collect(fds, out, err, deadline) && wait_leader(pid, deadline);
	close(po[0]);
	close(pe[0]);
	kill(-pid, SIGKILL); /* the leader is a zombie or still running: its group goes */
	reap(pid, wstatus);
	if (!whole) {
		*why = proc_interrupted() ? xasprintf("%s: interrupted", argv[0])
					  : xasprintf("%s: did not finish within %.0f s", argv[0], limit);
		return -1;
	}
	return 0;
}

/* ---- environments ---- */

static bool same_name(const char *a, const char *b)
{
	const char *ea = strchr(a, '='), *eb = strchr(b, '=');
	size_t na = ea ? (size_t)(ea - a) : strlen(a), nb = eb ? (size_t)(eb - b) : strlen(b);
	return na == nb && memcmp(a, b, na) == 0;
}

char **proc_env_with(const char *const set[], size_t n_set)
{
	size_t n = 0;
	while (environ && environ[n])
		n++;
	char **envp = xcalloc(n + n_set + 1, sizeof *envp);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool replaced = false;
		for (size_t j = 0; j < n_set && !replaced; j++)
			replaced = same_name(environ[i], set[j]);
		if (!replaced)
			envp[k++] = xstrdup(environ[i]);
	}
	for (size_t j = 0; j < n_set; j++)
		envp[k++] = xstrdup(set[j]);
	envp[k] = NULL;
	return envp;
}

void proc_env_free(char **envp)
{
	for (size_t i = 0; envp && envp[i]; i++)
		free(envp[i]);
	free(envp);
}

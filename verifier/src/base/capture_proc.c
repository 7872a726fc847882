/* capture_proc.c - see capture_proc.h. */
#include "capture_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define TOOL_KEEP_BYTES (1024u * 1024u)
/* How long a keeper goes on killing what its command left (a process in
 * uninterruptible sleep, a GPU driver call, may take a while to die). */
#define KEEPER_CLEANUP_S 20.0

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

/* The last steps of every child: its three streams, its folder, then the
 * program; a failed chdir or exec sends its errno back through report. */
__attribute__((noreturn)) static void exec_or_report(const char *path, char *const argv[], char *const envp[],
						   const char *dir, int in, int out, int err, int report)
{
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

static void child_exec(pid_t parent, const char *path, char *const argv[], char *const envp[], const char *dir,
		       int in, int out, int err, int report)
{
	/* A session of its own: no controlling terminal (a read of /dev/tty
	 * fails at once), and its process group is its pid. */
	setsid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127); /* we died before the line above: so does the tool */
	exec_or_report(path, argv, envp, dir, in, out, err, report);
}

/* Forks and execs path; the child leads a new session.  The report
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
	pid_t self = getpid();
	pid_t pid = fork();
	if (pid == 0)
		child_exec(self, path, argv, envp, dir, in, out, err, report[1]);
	int fork_errno = errno;
	close(in);
	close(report[1]);
	if (pid < 0) {
		close(report[0]);
		*why = xasprintf("cannot fork: %s", strerror(fork_errno));
		return -1;
	}
	/* Reading the report to its end waits for the exec, so the child's
	 * session (and group) exists before we might signal it. */
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

/* A command's output file, in capture's scratch folder, where the
 * lesson's build and runs write too: a link one of them left at the name
 * (symbolic, or a hard link to a file elsewhere) would aim the next
 * run's output at whatever it names.  The name is removed, never
 * followed, and the file made anew; one put back between the two fails
 * the open (O_EXCL, O_NOFOLLOW), never writes through. */
static int open_output(const char *path, char **why)
{
	if (unlink(path) != 0 && errno != ENOENT) {
		*why = xasprintf("cannot replace %s: %s", path, strerror(errno));
		return -1;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
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

/* ---- the keeper: one per command, owning all it starts ---- */

/* What a keeper tells capture on its status pipe: first the command's
 * pid, then this, once the command has ended and everything it left
 * behind is dead. */
struct keeper_report {
	int wstatus;  /* the command's waitpid status */
	int stop_sig; /* it was stopped by this signal (and then killed), or 0 */
	double ended; /* proc_now() when it ended or stopped */
};

/* Sends SIGKILL to every live process whose parent is parent, or (when
 * session is not 0) whose session is session, but not to session itself.
 * Returns how many were signalled, or -1 when /proc cannot be read (then
 * only what a process group reaches can be killed). */
static long kill_where(pid_t parent, pid_t session)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		pid_t pid = (pid_t)atol(e->d_name);
		char path[64], text[512];
		snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t got = read(fd, text, sizeof text - 1);
		close(fd);
		if (got <= 0)
			continue;
		text[got] = '\0';
		char *p = strrchr(text, ')'); /* the name may hold ')' and spaces */
		char state;
		int ppid, pgrp, sid;
		if (!p || sscanf(p + 1, " %c %d %d %d", &state, &ppid, &pgrp, &sid) != 4 || state == 'Z')
			continue;
		if (pid != session && (ppid == parent || (session && sid == session))) {
			kill(pid, SIGKILL);
			n++;
		}
	}
	closedir(d);
	return (long)n;
}

/* Kills the command's group and every other descendant, and reaps them,
 * until none is left (or KEEPER_CLEANUP_S has passed). */
static void keeper_cleanup(pid_t keeper, pid_t cmd)
{
	double deadline = proc_now() + KEEPER_CLEANUP_S;
	kill(-cmd, SIGKILL);
	for (;;) {
		/* Its children (orphans come to a subreaper) and its session. */
		long signalled = kill_where(keeper, keeper);
		int st;
		pid_t w = waitpid(-1, &st, WNOHANG);
		if (w > 0)
			continue;
		if (w < 0 && errno == ECHILD && signalled <= 0)
			return;
		if (signalled < 0 || proc_now() >= deadline)
			return; /* without /proc, what lives on cannot be found */
		proc_nap(0.002);
	}
}

/* In the command, between fork and exec: its own process group in the
 * keeper's session, killed if the keeper dies, and no file (its output
 * files included) larger than fsize. */
static void command_exec(pid_t keeper, const char *path, char *const argv[], char *const envp[],
			 const char *dir, int in, int out, int err, int report, unsigned long long fsize)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != keeper)
		_exit(127);
	if (fsize) {
		struct rlimit rl = {(rlim_t)fsize, (rlim_t)fsize};
		setrlimit(RLIMIT_FSIZE, &rl);
	}
	exec_or_report(path, argv, envp, dir, in, out, err, report);
}

/* Waits for the command to end or stop, or for SIGTERM (capture aborts,
 * or died: the parent-death signal).  Orphans that end are reaped on the
 * way.  Returns false on SIGTERM. */
static bool keeper_wait(pid_t cmd, const sigset_t *wake, struct keeper_report *r)
{
	for (;;) {
		int st;
		pid_t w;
		while ((w = waitpid(-1, &st, WNOHANG | WUNTRACED)) > 0) {
			if (w != cmd)
				continue; /* an orphan that ended, or stopped: cleanup kills it */
			r->ended = proc_now();
			if (WIFSTOPPED(st))
				r->stop_sig = WSTOPSIG(st);
			else
				r->wstatus = st;
			return true;
		}
		struct timespec nap = {0, 200 * 1000 * 1000}; /* a lost SIGCHLD costs at most this */
		if (sigtimedwait(wake, NULL, &nap) == SIGTERM)
			return false;
	}
}

static void keeper_main(pid_t capture, const char *path, char *const argv[], char *const envp[], const char *dir,
			int in, int out, int err, int report, int status, unsigned long long fsize)
{
	/* SIGTERM and SIGCHLD are taken by sigtimedwait; a closed status pipe
	 * (capture gone) must not kill us before the cleanup. */
	static const int reset[] = {SIGINT, SIGHUP, SIGTERM, SIGCHLD, SIGQUIT};
	for (size_t i = 0; i < ARRAY_LEN(reset); i++)
		signal(reset[i], SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	sigset_t wake;
	sigemptyset(&wake);
	sigaddset(&wake, SIGTERM);
	sigaddset(&wake, SIGCHLD);
	sigprocmask(SIG_BLOCK, &wake, NULL);
	setsid(); /* no controlling terminal for anything below */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	bool live = getppid() == capture;
	pid_t self = getpid();
	pid_t cmd = live ? fork() : -1;
	if (cmd == 0)
		command_exec(self, path, argv, envp, dir, in, out, err, report, fsize);
	if (cmd < 0) {
		int e = live ? errno : ESRCH;
		ssize_t w = write(report, &e, sizeof e);
		(void)w;
		_exit(127);
	}
	setpgid(cmd, cmd); /* also here, so the group exists before anyone signals it */
	ssize_t w = write(status, &cmd, sizeof cmd);
	close(report);
	close(in);
	close(out);
	close(err);
	struct keeper_report r = {0, 0, 0};
	if (!keeper_wait(cmd, &wake, &r))
		r.wstatus = SIGKILL; /* aborted: what it says is not read */
	keeper_cleanup(self, cmd);
	w = write(status, &r, sizeof r);
	(void)w;
	_exit(0);
}

/* Starts a keeper, which starts path.  Returns the command's pid (and
 * *keeper, *status_fd), or -1 with *why. */
static pid_t spawn_kept(const char *path, char *const argv[], char *const envp[], const char *dir, int out, int err,
			unsigned long long fsize, pid_t *keeper, int *status_fd, char **why)
{
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		*why = xasprintf("cannot open /dev/null: %s", strerror(errno));
		return -1;
	}
	int report[2], status[2];
	if (pipe(report) != 0 || pipe(status) != 0) {
		*why = xasprintf("cannot make a pipe: %s", strerror(errno));
		close(in);
		return -1;
	}
	int all[4] = {report[0], report[1], status[0], status[1]};
	for (int i = 0; i < 4; i++)
		fcntl(all[i], F_SETFD, FD_CLOEXEC);
	pid_t capture = getpid();
	pid_t k = fork();
	if (k == 0) {
		close(report[0]);
		close(status[0]);
		keeper_main(capture, path, argv, envp, dir, in, out, err, report[1], status[1], fsize);
	}
	int fork_errno = errno;
	close(in);
	close(report[1]);
	close(status[1]);
	if (k < 0) {
		close(report[0]);
		close(status[0]);
		*why = xasprintf("cannot fork: %s", strerror(fork_errno));
		return -1;
	}
	/* The report pipe closes at the command's exec (or carries why not). */
	int e = 0;
	ssize_t got;
	while ((got = read(report[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(report[0]);
	pid_t cmd = -1;
	ssize_t got_pid;
	while ((got_pid = read(status[0], &cmd, sizeof cmd)) < 0 && errno == EINTR)
		;
	if (got == (ssize_t)sizeof e || got_pid != (ssize_t)sizeof cmd) {
		int st;
		reap(k, &st);
		close(status[0]);
		*why = xasprintf("cannot run %s%s%s: %s", path, dir ? " in " : "", dir ? dir : "",
				 strerror(got == (ssize_t)sizeof e ? e : ECHILD));
		return -1;
	}
	*keeper = k;
	*status_fd = status[0];
	return cmd;
}

int proc_start(struct proc *p, const char *cmd, const char *dir, const char *out_path, const char *err_path,
	       char *const envp[], double limit, size_t max_output, char **why)
{
	memset(p, 0, sizeof *p);
	p->out_fd = p->err_fd = p->status_fd = -1;
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
	p->max_output = max_output;
	/* One byte past the cap is allowed, so that passing it is seen. */
	pid_t pid = spawn_kept("/bin/sh", argv, envp, dir, out, err, max_output ? (unsigned long long)max_output + 1 : 0,
			       &p->keeper, &p->status_fd, why);
	free(line);
	if (pid < 0) {
		close(out);
		close(err);
		return -1;
	}
	p->pid = pid;
	p->out_fd = out; /* kept to watch their size */
	p->err_fd = err;
	return 0;
}

/* Which output passed the cap, or NULL. */
static const char *over_cap(const struct proc *p)
{
	static const char *const names[] = {"stdout", "stderr"};
	int fds[2] = {p->out_fd, p->err_fd};
	for (int i = 0; i < 2 && p->max_output; i++) {
		struct stat st;
		if (fds[i] >= 0 && fstat(fds[i], &st) == 0 && (unsigned long long)st.st_size > p->max_output)
			return names[i];
	}
	return NULL;
}

/* The keeper has exited: its report says how the command ended. */
static void finish(struct proc *p)
{
	int kst;
	reap(p->keeper, &kst);
	struct keeper_report r;
	ssize_t got;
	while ((got = read(p->status_fd, &r, sizeof r)) < 0 && errno == EINTR)
		;
	if (got == (ssize_t)sizeof r) {
		p->wstatus = r.wstatus;
		p->stop_sig = r.stop_sig;
		p->seconds = r.ended - p->started;
	} else { /* the keeper itself was killed */
		p->wstatus = kst;
		p->seconds = proc_now() - p->started;
	}
	if (!p->over_stream)
		p->over_stream = over_cap(p);
	close(p->status_fd);
	close(p->out_fd);
	close(p->err_fd);
	p->status_fd = p->out_fd = p->err_fd = -1;
	p->pid = p->keeper = 0;
}

bool proc_poll(struct proc *p)
{
	if (!p->keeper)
		return true;
	siginfo_t si;
	memset(&si, 0, sizeof si);
	int r = waitid(P_PID, (id_t)p->keeper, &si, WEXITED | WNOHANG | WNOWAIT);
	if ((r == 0 && si.si_pid == p->keeper) || (r < 0 && errno == ECHILD)) {
		finish(p);
		return true;
	}
	if (!p->over_stream && (p->over_stream = over_cap(p)) != NULL) {
		kill(-p->pid, SIGKILL); /* the keeper kills the rest */
		return false;
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
	if (!p->keeper)
		return;
	kill(-p->pid, SIGKILL);
	kill(p->keeper, SIGTERM);
	finish(p);
}

bool proc_succeeded(const struct proc *p)
{
	return !p->timed_out && !p->stop_sig && !p->over_stream && WIFEXITED(p->wstatus) &&
	       WEXITSTATUS(p->wstatus) == 0;
}

static char *signal_text(const char *what, int sig)
{
	const char *name = proc_signal_name(sig);
	return name ? xasprintf("%s %d (%s)", what, sig, name) : xasprintf("%s %d", what, sig);
}

char *proc_describe(const struct proc *p)
{
	if (p->over_stream)
		return xasprintf("stopped: %s passed the cap of %zu MiB", p->over_stream, p->max_output / (1024 * 1024));
	if (p->timed_out)
		return xasprintf("timeout after %.0f s", p->limit);
	if (p->stop_sig)
		return signal_text("stopped by signal", p->stop_sig);
	if (WIFSIGNALED(p->wstatus))
		return signal_text("signal", WTERMSIG(p->wstatus));
	return xasprintf("%d", WIFEXITED(p->wstatus) ? WEXITSTATUS(p->wstatus) : 127);
}

/* ---- capture's own children ---- */

void proc_become_reaper(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

void proc_reap_strays(void)
{
	double deadline = proc_now() + KEEPER_CLEANUP_S;
	for (;;) {
		int st;
		pid_t w = waitpid(-1, &st, WNOHANG);
		if (w > 0)
			continue;
		if (w < 0)
			return; /* no child left */
		/* Children only: our session is not ours alone. */
		if (kill_where(getpid(), 0) <= 0 || proc_now() >= deadline)
			return;
		proc_nap(0.002);
	}
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

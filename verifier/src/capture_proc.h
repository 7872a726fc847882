/*
 * capture_proc.h - child processes for capture: the build and run commands
 * of a lesson (started, polled, timed out) and the short tool queries
 * (nvidia-smi, nvcc, git) whose output capture reads.
 *
 * Every child gets stdin from /dev/null and is the leader of its own
 * process group, so that a time limit or an interrupt kills everything it
 * started (SIGTERM to the group, SIGKILL a second later), and so that
 * nothing it leaves running outlives its capture: once the leader exits,
 * the rest of its group is killed before the leader is reaped.  Every
 * child started here is reaped here; callers never see a zombie.
 *
 * Output goes to files (commands) or is read while the child runs
 * (tools), never to a pipe nobody drains.  Single-threaded; the interrupt
 * flag is the only state shared with a signal handler.
 */
#ifndef COURSECHECK_CAPTURE_PROC_H
#define COURSECHECK_CAPTURE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util.h"

/* Seconds on the monotonic clock. */
double proc_now(void);
/* Sleeps about s seconds; returns early on a signal. */
void proc_nap(double s);

/* The interrupt flag: proc_catch_signals() makes SIGINT, SIGTERM and SIGHUP
 * set it (and SIGCHLD wake the scheduler's nap, and SIGPIPE do no harm);
 * proc_release_signals() puts the previous handlers back.
 * proc_interrupted() returns the signal caught, or 0. */
void proc_catch_signals(void);
void proc_release_signals(void);
int proc_interrupted(void);

/* A shell command running as a child. */
struct proc {
	pid_t pid;        /* the child and its process group; 0 when none */
	double started;   /* proc_now() at the start */
	double limit;     /* seconds allowed */
	double term_sent; /* when SIGTERM went to the group; 0 before */
	bool timed_out;
	int wstatus;      /* waitpid status, valid once finished */
	double seconds;   /* how long it ran, valid once finished */
};

/* The command as the shell is given it: "exec CMD" when CMD is one simple
 * command, so that the program replaces the shell and its exit status or
 * signal reaches us as its own (dash does not exec the last command of
 * -c, and would turn a SIGSEGV into status 139); else CMD as it is.  A
 * compound command keeps the shell's 128+N for a program it lost to a
 * signal.  Malloc'd. */
char *proc_exec_form(const char *cmd);

/* Starts `/bin/sh -c cmd` (in its proc_exec_form) in dir with stdout and stderr written to the
 * files out_path and err_path (created or truncated) and the environment
 * envp (NULL: this process's).  Returns 0, or -1 with *why (malloc'd). */
int proc_start(struct proc *p, const char *cmd, const char *dir, const char *out_path,
	       const char *err_path, char *const envp[], double limit, char **why);
/* Enforces the time limit and reaps the child when it has ended.  Returns
 * true once it has finished (p->wstatus and p->seconds are then set). */
bool proc_poll(struct proc *p);
/* Kills the child's whole group at once and reaps it (an interrupt). */
void proc_abort(struct proc *p);
/* True when the child exited with status 0 within its limit. */
bool proc_succeeded(const struct proc *p);
/* The exit as evidence spells it: "0", "3", "signal 11 (SIGSEGV)" or
 * "timeout after 600 s".  Malloc'd. */
char *proc_describe(const struct proc *p);

/* Runs a tool (argv[0] looked up on PATH; no shell) with stdin from
 * /dev/null and collects its stdout and stderr (each kept up to 1 MiB).
 * Returns 0 when it ran to its end (its status in *wstatus), or -1 with
 * *why (malloc'd: "not found on PATH", "did not finish within 30 s", ...). */
int proc_tool(char *const argv[], const char *dir, double limit, struct buf *out, struct buf *err,
	      int *wstatus, char **why);

/* A copy of this process's environment with each "NAME=value" of set put
 * in place of any NAME already there.  Free with proc_env_free(). */
char **proc_env_with(const char *const set[], size_t n_set);
void proc_env_free(char **envp);

/* A signal's name ("SIGSEGV"), or NULL for one without a common name. */
const char *proc_signal_name(int sig);

#endif

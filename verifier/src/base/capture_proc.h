/*
 * capture_proc.h - child processes for capture: the build and run commands
 * of a lesson (started, polled, timed out) and the short tool queries
 * (nvidia-smi, nvcc, git) whose output capture reads.
 *
 * Every child gets stdin from /dev/null and a session of its own, so it
 * has no controlling terminal: a program that reads /dev/tty fails at
 * once instead of being stopped (SIGTTIN) until its time limit.
 *
 * A command (a build or a run) is started by a keeper: a forked copy of
 * capture that leads the command's session, is its parent and a child
 * subreaper (PR_SET_CHILD_SUBREAPER), so every descendant the command
 * leaves behind, setsid() ones included, becomes the keeper's child once
 * its parent is gone.  When the command ends, stops (WUNTRACED: reported,
 * then killed) or is killed, the keeper kills what is left in its session
 * and among its children, reaps them all, then reports the command's
 * status to capture and exits: nothing a command starts outlives its
 * capture.  The keeper has a parent-death signal (SIGTERM), so a capture
 * killed with SIGKILL still has its commands and their descendants killed
 * by their keepers; the command has one too (SIGKILL), should its keeper
 * die.  Capture is a child subreaper as well, so that the orphans of a
 * keeper killed from outside come back to it (proc_reap_strays).  The
 * short tools are plain children in their own session, killed with it.
 *
 * A command's output goes to files, each limited to max_output bytes: no
 * file it writes may pass one byte over (RLIMIT_FSIZE: a write past it
 * fails with SIGXFSZ), and capture stops the command when either output
 * file has passed the cap (it watches their sizes while it polls), so
 * the disk holds at most the cap plus one byte of each.  Tools' output is
 * read while they run, never to a pipe nobody drains.  Single-threaded;
 * the interrupt flag is the only state shared with a signal handler.
 * Descendants are found by reading /proc (Linux); where it cannot be
 * read, only what is left in the command's process group is killed.
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

/* A shell command running as a child, under its keeper. */
struct proc {
	pid_t pid;        /* the command, leader of its process group; 0 when none */
	pid_t keeper;     /* its keeper; 0 when none */
	int status_fd;    /* the keeper's report */
	int out_fd, err_fd; /* the output files, watched for their size */
	size_t max_output; /* bytes allowed in each output file; 0: no cap */
	double started;   /* proc_now() at the start */
	double limit;     /* seconds allowed */
	double term_sent; /* when SIGTERM went to the group; 0 before */
	bool timed_out;
	int stop_sig;     /* it was stopped by this signal (then killed); 0: not */
	const char *over_stream; /* "stdout" or "stderr" when that passed the cap */
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

/* Starts `/bin/sh -c cmd` (in its proc_exec_form) under a keeper, in dir,
 * with stdout and stderr written to the files out_path and err_path
 * (created or truncated; max_output bytes each, 0: no cap) and the
 * environment envp (NULL: this process's).  Returns 0, or -1 with *why
 * (malloc'd). */
int proc_start(struct proc *p, const char *cmd, const char *dir, const char *out_path, const char *err_path,
	       char *const envp[], double limit, size_t max_output, char **why);
/* Enforces the time limit and the output cap, and collects the keeper's
 * report once the command and all it left are gone.  Returns true once it
 * has finished (p->wstatus, p->seconds, p->stop_sig, p->over_stream are
 * then set). */
bool proc_poll(struct proc *p);
/* Kills the command and everything it started at once, and reaps its
 * keeper (an interrupt). */
void proc_abort(struct proc *p);
/* True when the command exited with status 0 within its limits. */
bool proc_succeeded(const struct proc *p);
/* The exit as evidence spells it: "0", "3", "signal 11 (SIGSEGV)",
 * "timeout after 600 s", "stopped by signal 19 (SIGSTOP)" or "stopped:
 * stdout passed 60 MiB".  Malloc'd. */
char *proc_describe(const struct proc *p);

/* Makes this process a child subreaper (capture, at its start). */
void proc_become_reaper(void);
/* Kills and reaps every child of this process that is left (at the end
 * of capture: orphans that came back to it). */
void proc_reap_strays(void);

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

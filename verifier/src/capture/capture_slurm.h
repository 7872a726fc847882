/*
 * capture_slurm.h - capture through Slurm: one array job, one task per
 * lesson, each task running this same capture binary for its one lesson on
 * whatever node Slurm gives it, with one GPU.
 *
 * The repository is on the cluster's shared file system (the usual set-up),
 * so a task writes its evidence straight into evidence/LESSON/ with the same
 * atomic, never-overwrite writer as a local capture; nothing is copied back.
 * A task that fails, times out or is cancelled writes no evidence (unless
 * --keep-failed), exactly as locally.
 *
 * The job's folder, build/slurm/JOBID/, holds what the submitter and the
 * tasks share, all written by one side only:
 *   task.sh        the batch script (written before submission)
 *   lessons        the lesson names, one a line; task N captures line N+1
 *   N.log          the task's stdout and stderr (Slurm writes it)
 *   N.node         the node's name, written by the task when it starts
 *   N.status       the task's end: its capture's exit status, or
 *                  "cancelled" when Slurm stopped it; written by a rename,
 *                  so a reader sees all of it or nothing
 * The job is submitted held, its folder renamed to the job id, then released,
 * so no task starts before its folder exists.
 *
 * No root, no installs on the nodes: sbatch, squeue, scontrol and scancel on
 * the PATH of the submitting machine, a POSIX sh on the nodes.
 */
#ifndef COURSECHECK_CAPTURE_SLURM_H
#define COURSECHECK_CAPTURE_SLURM_H

#include <stdbool.h>
#include <stddef.h>

struct slurm_options {
	const char *gres;         /* --gres (default "gpu:1") */
	const char *partition;    /* NULL: the cluster's default */
	const char *account;      /* NULL: the user's default */
	long array_limit;         /* tasks at once ("%N"); 0: no limit */
	const char **sbatch_args; /* further sbatch options, passed as they are */
	size_t n_sbatch_args;
	bool wait;                /* false: submit, print the job id, return */
	/* passed on to each task's capture */
	long timeout;
	long repeat;
	bool keep_failed;
};

/* Submits one array job for the lessons (names as capture chose them) and,
 * with o->wait, follows it to its end and prints the summary.  The
 * repository is repo_root(); capture_binary the absolute path of the
 * capture binary the tasks run (it must be reachable from the nodes).
 * Returns capture's exit status: 0 all captured, 1 some lesson failed or
 * Slurm refused the job, 2 nothing could be submitted. */
int slurm_capture(const struct slurm_options *o, const char *capture_binary, char **lessons, size_t n);

/* Follows a job submitted earlier with --no-wait (build/slurm/JOBID/) to
 * its end and prints the summary.  Same exit status as slurm_capture. */
int slurm_collect(const char *jobid);

/* The header lines a task adds to its evidence: "slurm-job" (JOBID_TASK for
 * an array task, JOBID otherwise) and "slurm-node", from the environment
 * Slurm gives a task; both NULL outside Slurm.  Malloc'd. */
void slurm_task_facts(char **job, char **node);

#endif

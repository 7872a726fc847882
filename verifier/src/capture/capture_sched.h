/*
 * capture_sched.h - the scheduler of capture: builds lessons in parallel
 * on the CPUs, runs each built program on a GPU of its own (never two on
 * one GPU), repeats runs, watches the GPU for other users, and writes the
 * evidence.  One line per lesson on stderr as it finishes.
 *
 * One process, no threads: children are started and polled (fork/exec,
 * waitid), and the loop naps between polls, waking early on SIGCHLD.
 * Every child and scratch folder started here is gone when it returns,
 * also after an interrupt.
 */
#ifndef COURSECHECK_CAPTURE_SCHED_H
#define COURSECHECK_CAPTURE_SCHED_H

#include <stdbool.h>
#include <stddef.h>

#include "capture_auto.h"
#include "capture_gpu.h"
#include "capture_lesson.h"

struct capture_plan {
	double timeout;         /* seconds for each build and each run */
	bool keep_failed;       /* write evidence of failed runs too */
	long max_builds;        /* builds at once (-j) */
	long repeat;            /* runs of each program (--repeat) */
	const char *build_only; /* NULL, or the folder (absolute) to build into, no run */
	const char *build_only_shown; /* that folder as the user named it */
	const char *now;        /* COURSECHECK_NOW, or NULL for the clock */
	/* the machine, read once (unused with build_only) */
	const struct machine *machine;
	const char *node;
	const char *commit;
	const char *dirty;
	/* a Slurm task's job (JOBID_TASK) and node, or NULL outside Slurm */
	const char *slurm_job;
	const char *slurm_node;
	/* capture_sign.h: the node key that signs each run (NULL: unsigned),
	 * and why this machine is no GPU node (NULL: it is one; its runs
	 * then say gpu-node: no and are never signed) */
	const struct capture_signer *signer;
	const char *not_gpu_node;
	bool dirty_allowed; /* --allow-dirty over a tree with changes: the run says so */
	bool rehearsal;     /* --rehearse: written under build/rehearsal/, never signed */
	/* --repeat auto: repeat is the most runs; stop once the pairs of the
	 * lesson in auto_pairs are decided (capture_auto.h) */
	bool repeat_auto;
	const struct auto_plan *auto_pairs;
};

struct capture_tally {
	size_t done;   /* captured (or built) */
	size_t failed;
	int interrupted; /* the signal that stopped the work, or 0 */
};

/* Works through the lessons (borrowed).  Fills *tally. */
void capture_schedule(const struct lesson *lessons, size_t n, const struct capture_plan *plan,
		      struct capture_tally *tally);

#endif

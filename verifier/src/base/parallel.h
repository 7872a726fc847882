/*
 * parallel.h - items of work checked by worker processes, their findings
 * printed as one process would have printed them.
 *
 * Once the course is read, its pages (and program READMEs and lesson
 * programs) are independent; the modules keep process-wide state (the
 * reporter, the course cache, compiled patterns), so the workers are
 * processes, not threads.  parallel_run() forks them after everything
 * shared is set up; each takes the next item not yet taken (a counter in
 * shared memory: a worker's items come in increasing order) and runs it
 * with diag forwarding to a diagwire encoder (diagwire.h), then sends the
 * item's bytes to the parent over its own pipe.  The parent drains every
 * pipe while the workers run (poll: a worker may write more than a pipe
 * holds) and replays each item's findings in item order through the
 * normal diag path (diag_replay): the printer, the per-file cap, the
 * sink and the reports see exactly what one process would have given them.
 *
 * Once a run: a shared file's own problems (diag_once_begin) are reported
 * by each worker at its first item that touches the file; the parent keeps
 * the first region of each key in item order, which is where one process
 * reports it, and drops later ones with what they counted.
 *
 * A worker that dies (a crash, a signal) or sends bytes that do not read
 * back leaves its item unchecked: the parent reports worker-failed at that
 * item (an error), never a pass; an item no worker was left to take is
 * reported the same way.
 *
 * Threads: none.  Call from the main process only, with nothing of diag's
 * file or once brackets open.
 */
#ifndef COURSECHECK_PARALLEL_H
#define COURSECHECK_PARALLEL_H

#include <stddef.h>

/* At most this many workers, whatever jobs asks. */
#define PARALLEL_MAX_WORKERS 256

/* What parallel_run runs.  run() checks item i, in a worker or in this
 * process, and returns a small result; begin() and end() run in this
 * process around the item's findings, in item order, end() with run()'s
 * result (0 for an item that was not checked).  name() is the file an
 * unchecked item is reported at.  ctx is passed to each.
 *
 * order and chunk (optional) say how workers take the items: chunk c is
 * the items order[chunk[c]] .. order[chunk[c + 1] - 1], taken whole by
 * one worker (a lesson's page, README and program together share what
 * the worker has read); chunk has n_chunks + 1 bounds and every item is
 * in one chunk.  Without them each item is a chunk, in item order.  The
 * output is the same either way. */
struct parallel_job {
	size_t n_items;
	int (*run)(size_t i, void *ctx);
	void (*begin)(size_t i, void *ctx);
	void (*end)(size_t i, int result, void *ctx);
	const char *(*name)(size_t i, void *ctx);
	void *ctx;
	const size_t *order, *chunk;
	size_t n_chunks;
};

/* The processes worth starting when the user named none (verify with no
 * -j): every core, but one process for every PARALLEL_MIN_PAGES_PER_WORKER
 * pages at most, and one alone below that.  Forking, each worker's cold
 * start and the replay cost about as much as checking a few pages: a
 * course of 10 lessons took 15 ms in one process and 21 ms in two on the
 * development machine.  n is the pages (or operands) to check.  An
 * explicit -j N is never changed: the jobs-test and the mutation test run
 * -j 4 on small courses and must get four processes. */
#define PARALLEL_MIN_PAGES_PER_WORKER 8
size_t parallel_default_jobs(size_t cores, size_t n);

/* Runs every item of job with up to jobs processes.  jobs 1: in this
 * process, one item after the other, exactly as a loop would; with
 * chunks (order), in this process in chunk order, each item's findings
 * forwarded and replayed in item order, as one worker's would be (so a
 * lesson's page, README and program are checked one after the other,
 * with what was read for the first at hand for the rest).  More, where
 * there is one chunk only or no worker can be started: in this process
 * too, in item order, each item's findings forwarded and replayed as a
 * worker's would be.  Returns the number of items reported unchecked
 * (worker-failed). */
size_t parallel_run(const struct parallel_job *job, size_t jobs);

#endif

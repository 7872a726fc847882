/* parallel.c - see parallel.h. */
#include "parallel.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"
#include "diagwire.h"
#include "util.h"

/* ---- frames: what a worker writes on its pipe --------------------------- */

/* 'S' item: the worker took the item (so a death is laid at its door);
 * 'D' item result len, then len bytes of diagwire events: its findings. */
struct frame {
	uint32_t type;
	int32_t result;
	uint64_t item;
	uint64_t len;
};

/* A worker's findings for one item are bounded by what its checks can
 * print; a length past this is a damaged pipe, not an allocation. */
#define FRAME_MAX ((uint64_t)1 << 40)

static bool write_all(int fd, const void *p, size_t n)
{
	const char *s = p;
	while (n) {
		ssize_t k = write(fd, s, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		s += k;
		n -= (size_t)k;
	}
	return true;
}

static void send_frame(int fd, char type, size_t item, int result, const char *data, size_t len)
{
	struct frame f = {(uint32_t)type, result, item, len};
	if (!write_all(fd, &f, sizeof f) || (len && !write_all(fd, data, len)))
		_exit(3); /* the parent is gone or the pipe broke: it reports the item */
}

/* ---- a worker ------------------------------------------------------------ */

static _Noreturn void work(const struct parallel_job *job, atomic_size_t *next, int fd)
{
	struct diagwire_encoder enc;
	diagwire_encoder_init(&enc);
	diag_set_forward(&enc.fwd);
	size_t n_chunks = job->order ? job->n_chunks : job->n_items;
	for (;;) {
		size_t c = atomic_fetch_add(next, 1);
		if (c >= n_chunks)
			break;
		size_t from = job->order ? job->chunk[c] : c, to = job->order ? job->chunk[c + 1] : c + 1;
		for (size_t k = from; k < to; k++) {
			size_t i = job->order ? job->order[k] : k;
			send_frame(fd, 'S', i, 0, NULL, 0);
			diagwire_item_begin(&enc);
			int result = job->run(i, job->ctx);
			diagwire_flush_checks(&enc);
			send_frame(fd, 'D', i, result, enc.out.s, enc.out.len);
		}
	}
	/* _exit: the parent's stdio buffers and atexit work are not ours */
	_exit(0);
}

/* ---- the parent ------------------------------------------------------------ */

enum item_state { ITEM_PENDING, ITEM_RUNNING, ITEM_DONE, ITEM_FAILED };

struct item {
	enum item_state state;
	int result;
	char *data; /* ITEM_DONE: its diagwire bytes; ITEM_FAILED: why */
	size_t len;
};

struct worker {
	pid_t pid;
	int fd;          /* -1 once it reached its end */
	struct buf in;   /* bytes read and not yet taken as frames */
	size_t taken;    /* of in */
	bool busy;       /* took an item and has not sent it */
	bool damaged;    /* sent bytes that are no frame: read, not taken */
	size_t item;
};

struct parent {
	const struct parallel_job *job;
	struct item *items;
	struct worker *w;
	size_t n_w, live;
	size_t next_replay, failed;
};

static void fail_item(struct item *it, char *why)
{
	free(it->data);
	it->state = ITEM_FAILED;
	it->data = why;
	it->len = 0;
}

/* Takes each whole frame of w's bytes. */
static void take_frames(struct parent *p, struct worker *w)
{
	struct frame f;
	if (w->damaged)
		w->taken = w->in.len;
	while (w->in.len - w->taken >= sizeof f) {
		memcpy(&f, w->in.s + w->taken, sizeof f);
		bool known = (f.type == 'S' || f.type == 'D') && f.item < p->job->n_items && f.len <= FRAME_MAX;
		if (!known) { /* not our worker's bytes any more: its item fails at its end */
			w->damaged = true;
			w->taken = w->in.len;
			break;
		}
		if (w->in.len - w->taken - sizeof f < f.len)
			return; /* the rest is still on its way */
		struct item *it = &p->items[f.item];
		const char *body = w->in.s + w->taken + sizeof f;
		w->taken += sizeof f + (size_t)f.len;
		if (f.type == 'S') {
			it->state = ITEM_RUNNING;
			w->busy = true;
			w->item = (size_t)f.item;
		} else {
			it->state = ITEM_DONE;
			it->result = f.result;
			it->data = f.len ? xmalloc((size_t)f.len) : NULL;
			it->len = (size_t)f.len;
			if (f.len)
				memcpy(it->data, body, (size_t)f.len);
			w->busy = false;
		}
	}
	if (w->taken == w->in.len) {
		w->in.len = w->taken = 0;
	} else if (w->taken > 65536 && w->taken * 2 > w->in.len) { /* keep the buffer to what is unread */
		memmove(w->in.s, w->in.s + w->taken, w->in.len - w->taken);
		w->in.len -= w->taken;
		w->taken = 0;
	}
}

/* How a worker ended, in words, or NULL for a clean exit. */
static char *ending(int status)
{
	if (WIFSIGNALED(status))
		return xasprintf("was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		return xasprintf("exited with status %d", WEXITSTATUS(status));
	return NULL;
}

static void worker_ended(struct parent *p, struct worker *w)
{
	close(w->fd);
	w->fd = -1;
	p->live--;
	int status = 0;
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	char *why = ending(status);
	/* not busy: what it sent is whole; an item it took and never started
	 * stays pending and is reported when every worker is gone */
	if (w->busy)
		fail_item(&p->items[w->item], why ? why : xstrdup("ended without sending its findings"));
	else
		free(why);
	w->busy = false;
}

static void read_worker(struct parent *p, struct worker *w)
{
	char chunk[65536];
	ssize_t n = read(w->fd, chunk, sizeof chunk);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		worker_ended(p, w);
		return;
	}
	buf_append(&w->in, chunk, (size_t)n);
	take_frames(p, w);
}

/* Replays an item's events; a once region already reported (by an
 * earlier item: its key is claimed, diag.h) is dropped whole, nested
 * regions with it. */
static void replay_events(const struct item *it)
{
	struct diagwire_reader r;
	struct diagwire_event ev;
	diagwire_reader_init(&r, it->data, it->len);
	size_t drop = 0;
	while (diagwire_next(&r, &ev) == 1) {
		if (ev.type == DW_ONCE) {
			if (drop || !diag_once_claim(ev.str))
				drop++;
			continue;
		}
		if (ev.type == DW_ONCE_END) {
			if (drop)
				drop--;
			continue;
		}
		if (drop)
			continue;
		switch (ev.type) {
		case DW_RECORD:
		case DW_HIDDEN:
			diag_replay(&ev.rec, ev.type == DW_HIDDEN);
			break;
		case DW_FILE:
			diag_file_begin(ev.str, NULL); /* the worker's records carry their level */
			break;
		case DW_FILE_END:
			diag_file_end();
			break;
		case DW_CHECKS:
			diag_checks_add(ev.checks);
			break;
		default:
			break;
		}
	}
	diagwire_reader_free(&r);
}

/* Whether the bytes read back whole, before any of them is replayed: a
 * damaged item prints nothing but its worker-failed. */
static bool readable(const struct item *it)
{
	struct diagwire_reader r;
	struct diagwire_event ev;
	diagwire_reader_init(&r, it->data, it->len);
	int rc;
	while ((rc = diagwire_next(&r, &ev)) == 1)
		;
	diagwire_reader_free(&r);
	return rc == 0;
}

static void replay_item(struct parent *p, size_t i)
{
	const struct parallel_job *job = p->job;
	struct item *it = &p->items[i];
	if (it->state == ITEM_DONE && !readable(it))
		fail_item(it, xstrdup("sent findings that do not read back"));
	job->begin(i, job->ctx);
	if (it->state == ITEM_DONE) {
		replay_events(it);
	} else {
		p->failed++;
		struct diag *d = diag_begin(D_WORKER_FAILED, (struct diag_loc){.path = job->name(i, job->ctx)},
					    "not checked: the worker process that checked it %s",
					    it->data ? it->data : "was gone before it could");
		diag_hint(d, "check it in one process to see what stops it: 'coursecheck verify -j 1 %s'",
			  job->name(i, job->ctx));
		diag_end(d);
	}
	job->end(i, it->state == ITEM_DONE ? it->result : 0, job->ctx);
	free(it->data);
	it->data = NULL;
}

static void replay_ready(struct parent *p)
{
	while (p->next_replay < p->job->n_items) {
		enum item_state s = p->items[p->next_replay].state;
		if (s != ITEM_DONE && s != ITEM_FAILED)
			return;
		replay_item(p, p->next_replay++);
	}
}

/* Forks up to n workers; returns how many started. */
static size_t start_workers(struct parent *p, size_t n, atomic_size_t *next)
{
	p->w = xcalloc(n, sizeof *p->w);
	fflush(NULL); /* nothing buffered is written twice */
	for (size_t k = 0; k < n; k++) {
		int fds[2];
		if (pipe(fds) != 0)
			break;
		pid_t pid = fork();
		if (pid < 0) {
			close(fds[0]);
			close(fds[1]);
			break;
		}
		if (pid == 0) {
			close(fds[0]);
			for (size_t j = 0; j < k; j++)
				close(p->w[j].fd);
			signal(SIGPIPE, SIG_DFL);
			work(p->job, next, fds[1]);
		}
		close(fds[1]); /* the parent keeps only read ends: a pipe ends with its worker */
		p->w[k] = (struct worker){.pid = pid, .fd = fds[0]};
		p->n_w++;
		p->live++;
	}
	return p->n_w;
}

static void drain(struct parent *p)
{
	struct pollfd *pfd = xcalloc(p->n_w, sizeof *pfd);
	size_t *of = xcalloc(p->n_w, sizeof *of);
	while (p->live) {
		size_t n = 0;
		for (size_t k = 0; k < p->n_w; k++)
			if (p->w[k].fd >= 0) {
				pfd[n] = (struct pollfd){.fd = p->w[k].fd, .events = POLLIN};
				of[n++] = k;
			}
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (size_t i = 0; i < n; i++)
			if (pfd[i].revents)
				read_worker(p, &p->w[of[i]]);
		replay_ready(p);
	}
	free(pfd);
	free(of);
}

/* One process: the loop the job stands for. */
static void run_here(const struct parallel_job *job)
{
	for (size_t i = 0; i < job->n_items; i++) {
		job->begin(i, job->ctx);
		int result = job->run(i, job->ctx);
		job->end(i, result, job->ctx);
	}
}

/* This process as its own worker, taking the items as a worker would (in
 * chunk order when the job has chunks, else in item order), replayed in
 * item order: what the caller set up for workers (a once region recorded
 * before the fork) holds here too. */
static void run_forwarded(struct parent *p)
{
	struct diagwire_encoder enc;
	diagwire_encoder_init(&enc);
	for (size_t k = 0; k < p->job->n_items; k++) {
		size_t i = p->job->order ? p->job->order[k] : k;
		diag_set_forward(&enc.fwd);
		diagwire_item_begin(&enc);
		enc.replayed_at_end = i == p->next_replay;
		int result = p->job->run(i, p->job->ctx);
		diagwire_flush_checks(&enc);
		diag_set_forward(NULL);
		struct item *it = &p->items[i];
		*it = (struct item){ITEM_DONE, result, xmalloc(enc.out.len + 1), enc.out.len};
		memcpy(it->data, enc.out.s ? enc.out.s : "", enc.out.len);
		replay_ready(p);
	}
	diagwire_encoder_free(&enc);
}

size_t parallel_default_jobs(size_t cores, size_t n)
{
	size_t by_work = n / PARALLEL_MIN_PAGES_PER_WORKER;
	size_t jobs = cores < by_work ? cores : by_work;
	return jobs ? jobs : 1;
}

size_t parallel_run(const struct parallel_job *job, size_t jobs)
{
	if (jobs <= 1 && !job->order) {
		run_here(job);
		return 0;
	}
	size_t n_chunks = job->order ? job->n_chunks : job->n_items, n = jobs < n_chunks ? jobs : n_chunks;
	if (n > PARALLEL_MAX_WORKERS)
		n = PARALLEL_MAX_WORKERS;
	struct parent p = {.job = job, .items = xcalloc(job->n_items ? job->n_items : 1, sizeof *p.items)};
	atomic_size_t *next = NULL;
	if (n > 1 && atomic_is_lock_free(next)) {
		void *m = mmap(NULL, sizeof *next, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		next = m == MAP_FAILED ? NULL : m;
	}
	if (next)
		atomic_init(next, 0);
	if (!next || start_workers(&p, n, next) == 0) {
		run_forwarded(&p);
		free(p.w);
		free(p.items);
		if (next)
			munmap(next, sizeof *next);
		return 0;
	}
	drain(&p);
	/* every worker is gone: what none of them sent was not checked */
	for (size_t i = p.next_replay; i < job->n_items; i++)
		if (p.items[i].state == ITEM_PENDING || p.items[i].state == ITEM_RUNNING)
			fail_item(&p.items[i], NULL);
	replay_ready(&p);
	for (size_t k = 0; k < p.n_w; k++)
		buf_free(&p.w[k].in);
	free(p.w);
	free(p.items);
	munmap(next, sizeof *next);
	return p.failed;
}

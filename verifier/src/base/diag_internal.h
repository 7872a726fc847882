/*
 * diag_internal.h - the reporter's side of verify -j (parallel.h), for
 * diagwire.c, parallel.c and cli.c only: a check needs diag.h alone.
 *
 * A worker forwards each event the reporter would print (diag_forward);
 * the parent replays a worker's diagnostic as diag_end would have printed
 * it (diag_replay) and keeps the first once region of each key in page
 * order (diag_once_claim; diag_release frees those keys at exit).
 * Implemented in diag.c: the counts, the cap and the sink are the one
 * reporter's.
 */
#ifndef COURSECHECK_DIAG_INTERNAL_H
#define COURSECHECK_DIAG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* A worker of verify -j (parallel.h) forwards what would be printed.  Set,
 * diag_end hands each reported (not dropped) diagnostic to record() instead of printing
 * it (hidden: past its file's cap, only kind and level are set), and
 * file()/once() receive the diag_file_begin/end and diag_once_begin/end
 * brackets (NULL for an end), touch() diag_once_touch's key, checks()
 * what diag_checks_add adds.  Nothing is counted here: the counts are the
 * replaying process's (diag_replay, diag_checks_add).  Inside a
 * once region nothing is hidden and nothing counts toward the cap: the
 * parent, which drops a repeated region, applies the cap as one process
 * would.  NULL: print as usual. */
struct diag_forward {
	void (*record)(const struct diag_record *r, bool hidden, void *ctx);
	void (*file)(const char *path, void *ctx);
	void (*once)(const char *key, void *ctx);
	void (*touch)(const char *key, void *ctx);
	void (*checks)(size_t n, void *ctx);
	void *ctx;
};
void diag_set_forward(const struct diag_forward *fwd);
/* The parent of verify -j: a worker's diagnostic, printed (or given to the
 * sink), counted and capped exactly as diag_end would have (r->rendered
 * is the text printer's output, its hint line last). */
void diag_replay(const struct diag_record *r, bool hidden);

/* The parent's record of the once keys kept: false when key was claimed
 * already (its region was kept from an earlier item). */
bool diag_once_claim(const char *key);
/* Frees the claimed keys (at exit). */
void diag_release(void);

#endif

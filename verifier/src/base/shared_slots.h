/*
 * shared_slots.h - fixed-size records shared by the worker processes of
 * one run, each put once by whichever process gets there first.
 *
 * parallel_run's workers are forked processes: what one of them learns
 * is lost to the others.  A table made here before the fork is mapped
 * shared (anonymous, MAP_SHARED), so a record one worker puts is seen by
 * every other.  Slot i holds up to `size` bytes; the first put wins and a
 * put that races it gives way; a get sees a put only once it is complete
 * (the slot's state is stored with release order after its bytes and
 * loaded with acquire order before them).  A slot not yet put, being put,
 * or offered more bytes than it holds reads as absent, and the caller
 * works the answer out itself, exactly as it would with no table: the
 * table saves work, it never decides anything.
 *
 * Threads: none needed; processes only (C11 atomics on shared memory,
 * lock-free for a 32-bit int on every platform the tool builds for).
 * Owner: the creator; shared_slots_free() unmaps it in the process that
 * calls it (the memory goes when the last process has unmapped or ended).
 * Memory: n * (size + 8) bytes of address space; only the pages of the
 * slots put are ever touched.
 */
#ifndef COURSECHECK_SHARED_SLOTS_H
#define COURSECHECK_SHARED_SLOTS_H

#include <stdbool.h>
#include <stddef.h>

struct shared_slots;

/* n slots of size bytes each; NULL when the mapping cannot be made (or
 * n * size overflows): callers go on without sharing. */
struct shared_slots *shared_slots_create(size_t n, size_t size);

/* Puts bytes[0 .. len) into slot i.  False, and nothing changes, when
 * the slot was put (or is being put) already, i is out of range or len
 * is more than the slot holds. */
bool shared_slots_put(struct shared_slots *t, size_t i, const void *bytes, size_t len);

/* Copies slot i into out (room for shared_slots_size(t) bytes) and its
 * length into *len; false when it has not been put (completely). */
bool shared_slots_get(const struct shared_slots *t, size_t i, void *out, size_t *len);

/* The bytes one slot holds. */
size_t shared_slots_size(const struct shared_slots *t);

/* NULL is allowed. */
void shared_slots_free(struct shared_slots *t);

#endif

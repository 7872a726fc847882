/* shared_slots.c - see shared_slots.h. */
#include "shared_slots.h"
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "util.h"

enum { SLOT_EMPTY, SLOT_WRITING, SLOT_READY };

/* Each slot: its state, its length, then its bytes. */
struct slot_head {
	atomic_uint state;
	uint32_t len;
};

struct shared_slots {
	unsigned char *base; /* the shared mapping */
	size_t n, size, stride, mapped;
};

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "a slot's state must be lock-free to be shared between processes");

struct shared_slots *shared_slots_create(size_t n, size_t size)
{
	if (!n || size > UINT32_MAX)
		return NULL;
	size_t stride = (sizeof(struct slot_head) + size + 7) & ~(size_t)7;
	if (stride < size || n > SIZE_MAX / stride)
		return NULL;
	/* anonymous memory is zero: every slot starts SLOT_EMPTY */
	void *m = mmap(NULL, n * stride, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	struct shared_slots *t = xmalloc(sizeof *t);
	*t = (struct shared_slots){m, n, size, stride, n * stride};
	return t;
}

static struct slot_head *head_of(const struct shared_slots *t, size_t i)
{
	return (struct slot_head *)(t->base + i * t->stride);
}

bool shared_slots_put(struct shared_slots *t, size_t i, const void *bytes, size_t len)
{
	if (!t || i >= t->n || len > t->size)
		return false;
	struct slot_head *h = head_of(t, i);
	unsigned expected = SLOT_EMPTY;
	if (!atomic_compare_exchange_strong_explicit(&h->state, &expected, SLOT_WRITING, memory_order_acquire,
						     memory_order_relaxed))
		return false;
	h->len = (uint32_t)len;
	if (len)
		memcpy(h + 1, bytes, len);
	atomic_store_explicit(&h->state, SLOT_READY, memory_order_release);
	return true;
}

bool shared_slots_get(const struct shared_slots *t, size_t i, void *out, size_t *len)
{
	if (!t || i >= t->n)
		return false;
	struct slot_head *h = head_of(t, i);
	if (atomic_load_explicit(&h->state, memory_order_acquire) != SLOT_READY)
		return false;
	*len = h->len;
	if (h->len)
		memcpy(out, h + 1, h->len);
	return true;
}

size_t shared_slots_size(const struct shared_slots *t)
{
	return t ? t->size : 0;
}

void shared_slots_free(struct shared_slots *t)
{
	if (!t)
		return;
	munmap(t->base, t->mapped);
	free(t);
}

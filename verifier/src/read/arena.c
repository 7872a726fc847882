/* arena.c - see arena.h. */
#include "arena.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/*
 * cmark-gfm allocates every node, literal and buffer of a page through a
 * cmark_mem, and frees each one again when the page is done: about 170
 * callocs, reallocs and frees a page, a third of cmark's own work.  One
 * page at a time (verify's workers are forked, never threaded; update
 * and the tests may hold a second page, which then takes the default
 * allocator) takes its memory from a bump arena: a block is cut from the
 * arena's newest chunk, a realloc of the newest block grows it in place,
 * a free does nothing, and page_free drops the page's blocks at once
 * without walking the tree.  The arena keeps its newest chunk for the
 * next page, unless it is over PAGE_ARENA_KEEP.  A page over
 * PAGE_ARENA_MAX_TEXT bytes takes the default allocator (the arena reuses
 * nothing a page frees, so its size grows with all that cmark ever
 * allocated for the page; the course's pages are a few kilobytes).
 * cmark-gfm's own arena (cmark_get_arena_mem_allocator) would not do:
 * it is one per process, its table extension marks and drops it around
 * every header row it tries, and it zeroes a new 4 MiB chunk a page.
 */
#define PAGE_ARENA_MAX_TEXT (1024u * 1024u)
#define PAGE_ARENA_KEEP (4u * 1024u * 1024u)
#define PAGE_ARENA_FIRST (64u * 1024u)

struct arena_chunk {
	struct arena_chunk *prev;
	size_t size;
	_Alignas(16) unsigned char data[];
};

/* Each block is preceded by its size (for realloc's copy), in a header
 * that keeps the block 16-byte aligned. */
#define ARENA_HEADER 16u

/* Under AddressSanitizer, the arena's memory that is no block of a live
 * page is poisoned, so a read of a page's tree after page_free is caught
 * as it was when cmark freed every node. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define ARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define ARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define ARENA_POISON(p, n) ((void)(p), (void)(n))
#define ARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* No room, with no chunk: where next and end point then. */
static unsigned char arena_none[1];

/* The one arena (the process parses one page in it at a time). */
static struct {
	struct arena_chunk *top; /* blocks are cut from this one */
	/* top's free bytes, [next, end) (both at arena_none, no room, with
	 * no chunk): every cmark allocation of a page passes here, about
	 * 2,600 for the day 31 page, so a block is cut with one compare */
	unsigned char *next, *end;
	unsigned char *last; /* the newest block, which realloc may grow in place */
	bool held;           /* a page's tree is in the arena */
} arena = {NULL, arena_none, arena_none, NULL, false};

static size_t arena_round(size_t n)
{
	if (n > SIZE_MAX / 4)
		abort(); /* no page asks that much: cmark's own allocator aborts too */
	return (n + 15u) & ~(size_t)15u;
}

/* A new newest chunk with room for need bytes (twice the last one's size,
 * or more).  Not inlined: arena_alloc's one compare stays all it costs. */
__attribute__((noinline)) static void arena_new_chunk(size_t need)
{
	size_t sz = arena.top ? 2 * arena.top->size : PAGE_ARENA_FIRST;
	if (sz < need)
		sz = need;
	struct arena_chunk *c = xmalloc(sizeof *c + sz);
	c->prev = arena.top;
	c->size = sz;
	ARENA_POISON(c->data, sz);
	arena.top = c;
	arena.next = c->data;
	arena.end = c->data + sz;
}

static inline void *arena_alloc(size_t size)
{
	size_t need = ARENA_HEADER + arena_round(size);
	if ((size_t)(arena.end - arena.next) < need)
		arena_new_chunk(need);
	unsigned char *p = arena.next;
	arena.next = p + need;
	ARENA_UNPOISON(p, need);
	memcpy(p, &size, sizeof size);
	arena.last = p + ARENA_HEADER;
	return arena.last;
}

static size_t arena_size_of(const unsigned char *block)
{
	size_t size;
	memcpy(&size, block - ARENA_HEADER, sizeof size);
	return size;
}

static void *arena_calloc(size_t n, size_t size)
{
	size_t bytes;
	if (__builtin_mul_overflow(n, size, &bytes))
		abort();
	return memset(arena_alloc(bytes), 0, bytes); /* a tail call */
}

static void *arena_realloc(void *ptr, size_t size)
{
	if (!ptr)
		return arena_alloc(size);
	unsigned char *block = ptr;
	size_t old = arena_size_of(block);
	if (size <= old)
		return ptr; /* shrinking: the block stays as large as it was */
	if (block == arena.last) {
		/* the newest block of the newest chunk: grown where it is */
		size_t grown = arena_round(size);
		if (grown <= (size_t)(arena.end - block)) {
			ARENA_UNPOISON(arena.next, (size_t)(block + grown - arena.next));
			arena.next = block + grown;
			memcpy(block - ARENA_HEADER, &size, sizeof size);
			return ptr;
		}
	}
	void *grown = arena_alloc(size);
	memcpy(grown, ptr, old);
	return grown;
}

static void arena_free(void *ptr)
{
	(void)ptr; /* dropped with the page */
}

static cmark_mem arena_mem = {arena_calloc, arena_realloc, arena_free};

void arena_release(void)
{
	struct arena_chunk *keep = arena.top && arena.top->size <= PAGE_ARENA_KEEP ? arena.top : NULL;
	struct arena_chunk *c = keep ? keep->prev : arena.top;
	while (c) {
		struct arena_chunk *prev = c->prev;
		free(c);
		c = prev;
	}
	arena.next = arena.end = arena_none;
	if (keep) {
		keep->prev = NULL;
		ARENA_POISON(keep->data, keep->size);
		arena.next = keep->data;
		arena.end = keep->data + keep->size;
	}
	arena.top = keep;
	arena.last = NULL;
	arena.held = false;
}

cmark_mem *arena_take(size_t text_len)
{
	if (arena.held || text_len > PAGE_ARENA_MAX_TEXT)
		return NULL;
	arena.held = true;
	return &arena_mem;
}

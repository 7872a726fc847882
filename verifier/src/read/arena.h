/*
 * arena.h - the bump allocator cmark-gfm parses a page in.
 *
 * cmark-gfm allocates every node, literal and buffer of a page through a
 * cmark_mem and frees each one again when the page is done.  The arena
 * hands cmark a cmark_mem whose blocks are cut from chunks it owns, whose
 * free does nothing, and drops all of a page's blocks at once when the
 * page is freed.  One page at a time holds it: verify's workers are
 * processes, and update and the tests, which may hold a second page,
 * give that page cmark's default allocator.
 *
 * Ownership: the arena (one per process, a static of arena.c, listed in
 * verifier/README.md) owns its chunks; the page that took it owns the
 * right to release it.  Every block it gave out dies at arena_release.
 */
#ifndef COURSECHECK_ARENA_H
#define COURSECHECK_ARENA_H

#include <stddef.h>

#include <cmark-gfm.h>

/* The arena's allocator for a page of text_len bytes, now held by the
 * caller until arena_release; NULL (the caller takes cmark's default)
 * while another page holds it or for a text over 1 MiB (the arena reuses
 * nothing a page frees, so its size grows with all cmark allocates). */
cmark_mem *arena_take(size_t text_len);
/* Drops every block of the page that held the arena and lets the next
 * page take it: its newest chunk is kept for that page (when not over
 * 4 MiB), the others freed.  Under AddressSanitizer the dropped memory
 * is poisoned, so a read of a freed page's tree is caught. */
void arena_release(void);

#endif

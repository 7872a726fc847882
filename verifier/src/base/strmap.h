/*
 * strmap.h - a map from byte strings to indices, for lookups that must not
 * be linear (evidence header keys, snippet names, cited lessons, the lines
 * of a transcript).
 *
 * Keys are borrowed: the map keeps (pointer, length) pairs, so each key's
 * bytes must outlive the map and not move.  Values are size_t (usually an
 * index into the caller's own array).  Open addressing (linear probing,
 * FNV-1a 64 finished by MurmurHash3's fmix64: strmap.c), grown at three quarters full: a
 * course-wide index of 10,000 lessons takes 16,384 slots, not 32,768;
 * every operation is O(1) expected, O(length of the key).
 * Release with strmap_free().
 */
#ifndef COURSECHECK_STRMAP_H
#define COURSECHECK_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 16 bytes a slot (10,000 lessons keep several course-wide maps): a
 * key's length and a value are below 4 GiB, as every input is bounded far
 * below that (TEXTFILE_MAX_BYTES); one that is not stops the run
 * (strmap_add), never a wrong answer. */
struct strmap_slot {
	const char *key; /* NULL: empty */
	uint32_t len;
	uint32_t value;
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap; /* a power of two, or 0 */
	size_t n;
};

/* Looks key up; returns true and sets *value when it is there. */
bool strmap_get(const struct strmap *m, const char *key, size_t len, size_t *value);
/* Adds key -> value unless key is there already (len and value below
 * UINT32_MAX).  Returns true when it was
 * added; false when present (then *old, when given, receives its value and
 * the map is unchanged). */
bool strmap_add(struct strmap *m, const char *key, size_t len, size_t value, size_t *old);
/* Makes room for n keys in all, so that adding up to n never grows (nor
 * rehashes) the map; an empty map only. */
void strmap_reserve(struct strmap *m, size_t n);
void strmap_free(struct strmap *m);
/* The hash the map places keys by (for the tests: every byte of a key
 * counts, and none outside it is read). */
uint64_t strmap_hash(const char *s, size_t len);

#endif

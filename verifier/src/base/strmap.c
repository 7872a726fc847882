/* strmap.c - see strmap.h. */
#include "strmap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* FNV-1a, 64 bits (Fowler, Noll and Vo; the offset basis and prime of
 * draft-eastlake-fnv, "The FNV Non-Cryptographic Hash Algorithm"), then
 * the 64-bit finalizer of Austin Appleby's MurmurHash3 (fmix64) over the
 * result and the length.  FNV-1a takes every byte of the key in order,
 * each one read once and none outside it; fmix64 spreads each input bit
 * over every output bit, so the low bits the map indexes by depend on
 * the whole key, which a family of names differing in their last digits
 * (lesson00001 ... lesson10000) needs.  Written once, here. */
#define FNV64_OFFSET_BASIS 14695981039346656037ULL
#define FNV64_PRIME 1099511628211ULL

static inline uint64_t fmix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

static inline uint64_t hash(const char *s, size_t len)
{
	uint64_t h = FNV64_OFFSET_BASIS;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= FNV64_PRIME;
	}
	return fmix64(h ^ (uint64_t)len);
}

uint64_t strmap_hash(const char *s, size_t len)
{
	return hash(s, len);
}

/* The slot that holds key, or the empty slot where it would go (the
 * hash inlined: every look-up of the tool passes here). */
static struct strmap_slot *probe(struct strmap_slot *slots, size_t cap, const char *key, size_t len)
{
	size_t i = (size_t)hash(key, len) & (cap - 1);
	for (;;) {
		struct strmap_slot *s = &slots[i];
		if (!s->key || (s->len == len && memcmp(s->key, key, len) == 0))
			return s;
		i = (i + 1) & (cap - 1);
	}
}

bool strmap_get(const struct strmap *m, const char *key, size_t len, size_t *value)
{
	if (m->cap == 0)
		return false;
	if (len >= UINT32_MAX) /* no key that long was added */
		return false;
	const struct strmap_slot *s = probe(m->slots, m->cap, key, len);
	if (!s->key)
		return false;
	*value = s->value;
	return true;
}

static void grow(struct strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16;
	struct strmap_slot *slots = xcalloc(cap, sizeof *slots);
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*probe(slots, cap, m->slots[i].key, m->slots[i].len) = m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
}

bool strmap_add(struct strmap *m, const char *key, size_t len, size_t value, size_t *old)
{
	if (len >= UINT32_MAX || value >= UINT32_MAX) { /* see strmap.h: inputs are bounded far below */
		fprintf(stderr, "coursecheck: strmap: key length %zu or value %zu past its 4 GiB bound\n", len, value);
		abort();
	}
	if (4 * (m->n + 1) > 3 * m->cap)
		grow(m);
	struct strmap_slot *s = probe(m->slots, m->cap, key, len);
	if (s->key) {
		if (old)
			*old = s->value;
		return false;
	}
	*s = (struct strmap_slot){key, (uint32_t)len, (uint32_t)value};
	m->n++;
	return true;
}

void strmap_reserve(struct strmap *m, size_t n)
{
	if (m->cap)
		return; /* grown already: it keeps growing as it must */
	size_t cap = 16;
	while (4 * n > 3 * cap)
		cap *= 2;
	m->slots = xcalloc(cap, sizeof *m->slots);
	m->cap = cap;
}

void strmap_free(struct strmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

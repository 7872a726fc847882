/* strmap.c - see strmap.h. */
#include "strmap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Eight bytes at a time, each word mixed in by a multiply (keys are
 * paths and names: most are longer than a word); the tail bytes as one
 * last word, and the length, so "a" and "a\0" differ.  The tail is read
 * in at most two loads, never byte by byte (it was a third of the cost
 * of every look-up): a key of 8 bytes or more takes its last 8, which
 * overlap the word before; a shorter one its first and last 4 bytes, or
 * its first, middle and last byte.  Each covers every tail byte, and
 * reads no byte outside the key. */
static inline uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ULL ^ (uint64_t)len;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, sizeof w);
		h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
		h ^= h >> 29;
	}
	uint64_t w = 0;
	size_t rest = len - i;
	if (rest && len >= 8) {
		memcpy(&w, s + len - 8, sizeof w);
	} else if (rest >= 4) {
		uint32_t a, b;
		memcpy(&a, s, sizeof a);
		memcpy(&b, s + rest - 4, sizeof b);
		w = a | (uint64_t)b << 32;
	} else if (rest) {
		w = (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[rest / 2] << 8 |
		    (uint64_t)(unsigned char)s[rest - 1] << 16;
	}
	h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
	h ^= h >> 32;
	return h;
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

/* strmap.c - see strmap.h. */
#include "strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* The slot that holds key, or the empty slot where it would go. */
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
	if (2 * (m->n + 1) > m->cap)
		grow(m);
	struct strmap_slot *s = probe(m->slots, m->cap, key, len);
	if (s->key) {
		if (old)
			*old = s->value;
		return false;
	}
	*s = (struct strmap_slot){key, len, value};
	m->n++;
	return true;
}

void strmap_free(struct strmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

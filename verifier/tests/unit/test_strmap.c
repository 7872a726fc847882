/*
 * test_strmap.c - the map against a linear list of the same keys, and its
 * hash: every byte of a key changes it (a tail read that skipped one
 * would still give a working map, only a slower one, so this is where it
 * shows), and no byte outside the key is read (each key is the last
 * bytes of its own allocation, for AddressSanitizer to see an overread);
 * and how many slots a look-up visits on the name families a course is
 * made of (lesson00001, day01, week1-lesson-01, their paths), which a
 * weak mix crowded into a few runs of slots (issue 37: 50 to 98 extra
 * probes a look-up at 1,000 to 10,000 names).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

static uint64_t next(uint64_t *seed)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return *seed >> 33;
}

/* len bytes at the very end of a malloc'd block of exactly len (plus
 * none): reading past the key is an overflow. */
static char *exact_copy(const char *s, size_t len)
{
	char *p = malloc(len ? len : 1);
	assert_non_null(p);
	memcpy(p, s, len);
	return p;
}

static void test_hash_reads_every_byte_and_no_other(void **state)
{
	(void)state;
	char key[64];
	for (size_t len = 0; len <= 40; len++) {
		for (size_t i = 0; i < len; i++)
			key[i] = (char)('a' + i % 26);
		char *k = exact_copy(key, len);
		uint64_t h = strmap_hash(k, len);
		assert_int_equal(strmap_hash(k, len), h); /* deterministic */
		for (size_t p = 0; p < len; p++)
			for (int v = 0; v < 256; v += 37) {
				if ((char)v == k[p])
					continue;
				char old = k[p];
				k[p] = (char)v;
				if (strmap_hash(k, len) == h)
					fail_msg("key of %zu bytes: byte %zu changed to %d leaves the hash alone", len, p, v);
				k[p] = old;
			}
		free(k);
		/* the same bytes one longer (a NUL more) hash apart */
		key[len] = '\0';
		if (len < 40)
			assert_true(strmap_hash(key, len + 1) != strmap_hash(key, len));
	}
}

static void test_map_agrees_with_a_list(void **state)
{
	(void)state;
	enum { N = 6000 };
	char **keys = calloc(N, sizeof *keys);
	size_t *lens = calloc(N, sizeof *lens);
	assert_non_null(keys);
	assert_non_null(lens);
	struct strmap m = {0};
	uint64_t seed = 42;
	size_t distinct = 0;
	for (size_t i = 0; i < N; i++) {
		/* short keys over a small alphabet, so many repeat and many share
		 * all but their tail */
		size_t len = next(&seed) % 20;
		char buf[24];
		for (size_t k = 0; k < len; k++)
			buf[k] = "ab\0/"[next(&seed) % 4];
		keys[i] = exact_copy(buf, len);
		lens[i] = len;
		size_t first = SIZE_MAX;
		for (size_t j = 0; j < i && first == SIZE_MAX; j++)
			if (lens[j] == len && memcmp(keys[j], buf, len) == 0)
				first = j;
		size_t old = SIZE_MAX;
		bool added = strmap_add(&m, keys[i], len, i, &old);
		assert_int_equal(added, first == SIZE_MAX);
		if (!added)
			assert_int_equal(old, first);
		distinct += added;
	}
	assert_int_equal(m.n, distinct);
	for (size_t i = 0; i < N; i++) {
		size_t v = SIZE_MAX;
		assert_true(strmap_get(&m, keys[i], lens[i], &v));
		assert_true(lens[v] == lens[i] && memcmp(keys[v], keys[i], lens[i]) == 0 && v <= i);
	}
	assert_false(strmap_get(&m, "abc", 3, &(size_t){0})); /* 'c' is in no key */
	strmap_free(&m);
	for (size_t i = 0; i < N; i++)
		free(keys[i]);
	free(keys);
	free(lens);
}

/* The slots a look-up of each key visits, the hit included, averaged:
 * read off the map's own slots (a key's distance from its home slot,
 * strmap_hash's low bits), so the test needs no hook in the map. */
static double mean_probes(const struct strmap *m)
{
	size_t total = 0, keys = 0;
	for (size_t i = 0; i < m->cap; i++) {
		const struct strmap_slot *s = &m->slots[i];
		if (!s->key)
			continue;
		size_t home = (size_t)strmap_hash(s->key, s->len) & (m->cap - 1);
		total += ((i - home) & (m->cap - 1)) + 1;
		keys++;
	}
	return keys ? (double)total / (double)keys : 0.0;
}

/* Linear probing at the map's load (at most three quarters) visits about
 * 0.5 * (1 + 1 / (1 - load)) slots a hit with a hash of uniform
 * distribution: 2.5 at three quarters, 1.5 to 1.8 at the loads 1,000 and
 * 10,000 keys give.  2.5 is the bound: a family a weak hash crowds
 * together costs tens of probes. */
#define PROBE_BOUND 2.5

static void check_family(const char *format, size_t n, bool two)
{
	struct strmap m = {0};
	char **keys = calloc(n, sizeof *keys);
	assert_non_null(keys);
	for (size_t i = 0; i < n; i++) {
		char buf[96];
		if (two) /* week, then lesson in the week */
			snprintf(buf, sizeof buf, format, i / 7 + 1, i % 7 + 1);
		else
			snprintf(buf, sizeof buf, format, i + 1);
		keys[i] = strdup(buf);
		assert_non_null(keys[i]);
		assert_true(strmap_add(&m, keys[i], strlen(keys[i]), i, NULL));
	}
	double mean = mean_probes(&m);
	if (mean > PROBE_BOUND)
		fail_msg("%zu keys like '%s': %.2f slots a look-up, over %.1f", n, keys[0], mean, PROBE_BOUND);
	strmap_free(&m);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

static void test_probes_on_course_names(void **state)
{
	(void)state;
	static const size_t sizes[] = {1000, 10000};
	static const char *const one[] = {
		"lesson%05zu", "day%02zu", "day%zu", "%04zu-lesson", "programs/lesson%05zu",
		"evidence/lesson%05zu/run-2026-12-05T10:00:00Z.txt", "pages/day%03zu.md",
	};
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		for (size_t f = 0; f < sizeof one / sizeof *one; f++)
			check_family(one[f], sizes[s], false);
		check_family("week%zu-lesson-%02zu", sizes[s], true);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_reads_every_byte_and_no_other),
		cmocka_unit_test(test_map_agrees_with_a_list),
		cmocka_unit_test(test_probes_on_course_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

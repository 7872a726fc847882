/*
 * test_shared_slots.c - the slots worker processes share (shared_slots.h):
 * a put is seen by another process, the first put of a slot wins, a slot
 * not put or offered too much reads as absent, and racing processes
 * never leave a slot half written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shared_slots.h"

static void test_put_then_get(void **state)
{
	(void)state;
	struct shared_slots *t = shared_slots_create(4, 16);
	assert_non_null(t);
	assert_int_equal(shared_slots_size(t), 16);
	char out[16];
	size_t len = 99;
	assert_false(shared_slots_get(t, 0, out, &len)); /* never put */
	assert_int_equal(len, 99);
	assert_true(shared_slots_put(t, 2, "lesson", 7));
	assert_true(shared_slots_get(t, 2, out, &len));
	assert_int_equal(len, 7);
	assert_string_equal(out, "lesson");
	assert_true(shared_slots_put(t, 3, "", 0)); /* an empty record is a record */
	assert_true(shared_slots_get(t, 3, out, &len));
	assert_int_equal(len, 0);
	shared_slots_free(t);
}

static void test_first_put_wins(void **state)
{
	(void)state;
	struct shared_slots *t = shared_slots_create(2, 8);
	char out[8];
	size_t len;
	assert_true(shared_slots_put(t, 0, "first", 6));
	assert_false(shared_slots_put(t, 0, "second", 7));
	assert_true(shared_slots_get(t, 0, out, &len));
	assert_string_equal(out, "first");
	shared_slots_free(t);
}

static void test_limits(void **state)
{
	(void)state;
	struct shared_slots *t = shared_slots_create(2, 8);
	char out[8];
	size_t len;
	assert_false(shared_slots_put(t, 1, "123456789", 9)); /* more than a slot holds */
	assert_false(shared_slots_get(t, 1, out, &len));
	assert_true(shared_slots_put(t, 1, "12345678", 8)); /* exactly a slot: still free to put */
	assert_false(shared_slots_put(t, 2, "x", 1));        /* out of range */
	assert_false(shared_slots_get(t, 2, out, &len));
	shared_slots_free(t);
	assert_null(shared_slots_create(0, 8));
	assert_null(shared_slots_create(SIZE_MAX / 2, 64)); /* n * size overflows */
	assert_false(shared_slots_put(NULL, 0, "x", 1));
	assert_false(shared_slots_get(NULL, 0, out, &len));
	shared_slots_free(NULL);
}

/* A child's put is the parent's get: the table is shared, not copied. */
static void test_seen_across_fork(void **state)
{
	(void)state;
	struct shared_slots *t = shared_slots_create(3, 32);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(shared_slots_put(t, 1, "from the child", 15) ? 0 : 1);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	char out[32];
	size_t len;
	assert_true(shared_slots_get(t, 1, out, &len));
	assert_int_equal(len, 15);
	assert_string_equal(out, "from the child");
	assert_false(shared_slots_put(t, 1, "parent", 7)); /* the child's put came first */
	shared_slots_free(t);
}

/* Processes racing for the same slots: one put wins each slot and every
 * slot read back is one writer's record whole, never a mix. */
static void test_racing_writers(void **state)
{
	(void)state;
	enum { SLOTS = 512, WRITERS = 4 };
	struct shared_slots *t = shared_slots_create(SLOTS, 64);
	pid_t pids[WRITERS];
	for (int w = 0; w < WRITERS; w++) {
		pids[w] = fork();
		assert_true(pids[w] >= 0);
		if (pids[w] == 0) {
			char rec[64];
			memset(rec, 'a' + w, sizeof rec);
			for (size_t i = 0; i < SLOTS; i++)
				shared_slots_put(t, i, rec, sizeof rec);
			_exit(0);
		}
	}
	for (int w = 0; w < WRITERS; w++) {
		int st;
		assert_int_equal(waitpid(pids[w], &st, 0), pids[w]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	for (size_t i = 0; i < SLOTS; i++) {
		char out[64];
		size_t len;
		assert_true(shared_slots_get(t, i, out, &len));
		assert_int_equal(len, 64);
		for (size_t k = 1; k < len; k++)
			assert_int_equal(out[k], out[0]);
		assert_true(out[0] >= 'a' && out[0] < 'a' + WRITERS);
	}
	shared_slots_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_then_get),
		cmocka_unit_test(test_first_put_wins),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_seen_across_fork),
		cmocka_unit_test(test_racing_writers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

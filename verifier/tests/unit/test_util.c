/*
 * test_util.c - xasprintf's hand-joined formats (literal text, %%, %s,
 * %.*s) against vsnprintf (xvasprintf_general) on many random formats
 * and arguments: the same bytes for every one, including the cases the
 * fast path must hand back (a NULL string, a negative precision, any
 * other conversion) and results past the 256-byte stack buffer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint64_t next(uint64_t *seed)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return *seed >> 33;
}

/* xasprintf and xvasprintf_general on the same arguments, compared. */
static void both(const char *fmt, ...)
{
	va_list ap, copy;
	va_start(ap, fmt);
	va_copy(copy, ap);
	char *fast = xvasprintf(fmt, ap);
	char *general = xvasprintf_general(fmt, copy);
	va_end(copy);
	va_end(ap);
	if (strcmp(fast, general) != 0)
		fail_msg("format \"%s\": \"%s\" by hand, \"%s\" by vsnprintf", fmt, fast, general);
	free(fast);
	free(general);
}

/* A random run of literal text: any byte but NUL and '%', or a "%%". */
static void literal(uint64_t *seed, char *f, size_t *n)
{
	size_t k = next(seed) % 6;
	for (size_t i = 0; i < k; i++) {
		if (next(seed) % 8 == 0) {
			f[(*n)++] = '%';
			f[(*n)++] = '%';
			continue;
		}
		char c = (char)(1 + next(seed) % 255);
		f[(*n)++] = c == '%' ? '/' : c;
	}
}

enum kind { K_S, K_PREC_S, K_D, K_COUNT };

static const char *const conv[K_COUNT] = {"%s", "%.*s", "%d"};

/* A random argument string: empty, short, or past the stack buffer. */
static const char *text(uint64_t *seed, char *buf, size_t cap)
{
	size_t len = next(seed) % 4 == 0 ? next(seed) % cap : next(seed) % 12;
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)('!' + next(seed) % 90);
	buf[len] = '\0';
	return next(seed) % 40 == 0 ? NULL : buf;
}

static int precision(uint64_t *seed)
{
	return (int)(next(seed) % 24) - 3; /* negative now and then: "as if omitted" */
}

/* One call with conversions a then b (K_COUNT: none), literal runs around them. */
static void one(uint64_t *seed, enum kind a, enum kind b)
{
	char f[128];
	size_t n = 0;
	literal(seed, f, &n);
	if (a < K_COUNT) {
		memcpy(f + n, conv[a], strlen(conv[a]));
		n += strlen(conv[a]);
		literal(seed, f, &n);
	}
	if (b < K_COUNT) {
		memcpy(f + n, conv[b], strlen(conv[b]));
		n += strlen(conv[b]);
		literal(seed, f, &n);
	}
	f[n] = '\0';
	char s1[400], s2[400];
	const char *x = text(seed, s1, sizeof s1), *y = text(seed, s2, sizeof s2);
	int p = precision(seed), q = precision(seed), d = (int)next(seed) - (1 << 29);
	/* every pair of argument shapes, as C needs them spelt out */
#define CASE(ka, kb, ...)                                                                                              \
	if (a == ka && b == kb) {                                                                                      \
		both(f, __VA_ARGS__);                                                                                  \
		return;                                                                                                \
	}
	if (a == K_COUNT) {
		both(f);
		return;
	}
	if (b == K_COUNT) {
		CASE(K_S, K_COUNT, x)
		CASE(K_PREC_S, K_COUNT, p, x)
		CASE(K_D, K_COUNT, d)
	}
	CASE(K_S, K_S, x, y)
	CASE(K_S, K_PREC_S, x, q, y)
	CASE(K_S, K_D, x, d)
	CASE(K_PREC_S, K_S, p, x, y)
	CASE(K_PREC_S, K_PREC_S, p, x, q, y)
	CASE(K_PREC_S, K_D, p, x, d)
	CASE(K_D, K_S, d, y)
	CASE(K_D, K_PREC_S, d, q, y)
	CASE(K_D, K_D, d, d)
#undef CASE
}

static void test_asprintf_same_as_vsnprintf(void **state)
{
	(void)state;
	uint64_t seed = 15;
	for (int round = 0; round < 4000; round++)
		for (int a = 0; a <= K_COUNT; a++)
			for (int b = 0; b <= K_COUNT; b++)
				one(&seed, (enum kind)a, a == K_COUNT ? K_COUNT : (enum kind)b);
}

static void test_asprintf_joins(void **state)
{
	(void)state;
	/* the shapes the checks use, spelt out: a fast path that dropped a
	 * byte would still agree with itself */
	char *p = xasprintf("%s/%s", "programs", "l1/scan.cu");
	assert_string_equal(p, "programs/l1/scan.cu");
	free(p);
	p = xasprintf("programs/%s/%.*s", "l1", 4, "scan.cu");
	assert_string_equal(p, "programs/l1/scan");
	free(p);
	p = xasprintf("100%% %s", "");
	assert_string_equal(p, "100% ");
	free(p);
	p = xasprintf("%.*s|", 9, "ab"); /* a precision past the string's NUL */
	assert_string_equal(p, "ab|");
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asprintf_same_as_vsnprintf),
		cmocka_unit_test(test_asprintf_joins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

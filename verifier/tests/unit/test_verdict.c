/*
 * test_verdict.c - the verdict rule (verdict.h) point by point: the exact
 * Mann-Whitney distribution against published table values, U itself,
 * the rule's three verdicts (resolution, noise, both), every operator,
 * the every repeat against a lone value, and the nearest flip.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* Exact lower-tail probabilities of U (the same as the upper ones, by
 * symmetry) from the published tables: n1 = n2 = 3, P(U <= 0) = 1/20;
 * n1 = n2 = 5, P(U <= 0) = 1/252, P(U <= 2) = 4/252, P(U <= 3) = 7/252
 * (so the one-sided 0.025 critical value is U = 2: the two-sided 0.05 table
 * value); n1 = n2 = 8, critical U = 13; n1 = n2 = 10, 23; n1 = 4, n2 = 6, 2. */
static void test_exact_table_values(void **state)
{
	(void)state;
	assert_true(fabs(verdict_mw_upper_tail(3, 3, 9) - 1.0 / 20) < 1e-12);
	assert_true(fabs(verdict_mw_upper_tail(5, 5, 25) - 1.0 / 252) < 1e-12);
	assert_true(fabs(verdict_mw_upper_tail(5, 5, 23) - 4.0 / 252) < 1e-12);
	assert_true(fabs(verdict_mw_upper_tail(5, 5, 22) - 7.0 / 252) < 1e-12);
	assert_true(fabs(verdict_mw_upper_tail(5, 5, 0) - 1.0) < 1e-12);
	/* critical values of the tables: P(U <= c) <= alpha < P(U <= c + 1);
	 * the upper tail of mn - c.  Two-sided 0.05 (one-sided 0.025) and
	 * one-sided 0.05 (this rule's) */
	static const struct {
		size_t m, n, c;
		double alpha;
	} crit[] = {{8, 8, 13, 0.025}, {10, 10, 23, 0.025}, {4, 6, 2, 0.025}, {5, 5, 2, 0.025}, {20, 20, 127, 0.025},
		    {3, 3, 0, 0.05},   {5, 5, 4, 0.05},    {8, 8, 15, 0.05}, {10, 10, 27, 0.05}};
	for (size_t i = 0; i < sizeof crit / sizeof crit[0]; i++) {
		size_t mn = crit[i].m * crit[i].n;
		assert_true(verdict_mw_upper_tail(crit[i].m, crit[i].n, mn - crit[i].c) <= crit[i].alpha + 1e-12);
		assert_true(verdict_mw_upper_tail(crit[i].m, crit[i].n, mn - crit[i].c - 1) > crit[i].alpha);
	}
	assert_true(verdict_mw_upper_tail(21, 5, 3) < 0); /* beyond the exact range */
	assert_true(verdict_mw_upper_tail(0, 5, 3) < 0);
}

/* The counts by the recurrence over both sample sizes, f(i, j, u) =
 * f(i-1, j, u) + f(i, j-1, u-i) (the largest value is an x, below no y,
 * or a y, above all i x's), table by table: the plain count the
 * generating function in verdict.c must equal. */
static void recurrence_counts(size_t m, size_t n, double *out)
{
	size_t width = m * n + 1;
	double *prev = calloc((m + 1) * width, sizeof *prev), *cur = calloc((m + 1) * width, sizeof *cur);
	assert_non_null(prev);
	assert_non_null(cur);
	for (size_t i = 0; i <= m; i++)
		prev[i * width] = 1;
	for (size_t j = 1; j <= n; j++) {
		memset(cur, 0, (m + 1) * width * sizeof *cur);
		cur[0] = 1;
		for (size_t i = 1; i <= m; i++)
			for (size_t u = 0; u <= i * j; u++)
				cur[i * width + u] = cur[(i - 1) * width + u] + (u >= i ? prev[i * width + u - i] : 0);
		double *t = prev;
		prev = cur;
		cur = t;
	}
	memcpy(out, prev + m * width, width * sizeof *out);
	free(prev);
	free(cur);
}

/* Every size pair of the exact range, at the tails' ends, the middle and
 * past the top: the very doubles the recurrence's counts give. */
static void test_exact_against_recurrence(void **state)
{
	(void)state;
	double *f = calloc(VERDICT_EXACT_MAX * VERDICT_EXACT_MAX + 1, sizeof *f);
	assert_non_null(f);
	for (size_t m = 1; m <= VERDICT_EXACT_MAX; m++)
		for (size_t n = 1; n <= VERDICT_EXACT_MAX; n++) {
			size_t mn = m * n;
			recurrence_counts(m, n, f);
			const size_t us[] = {0, 1, 2, mn / 3, mn / 2, mn / 2 + 1, mn - 2, mn - 1, mn};
			for (size_t k = 0; k < sizeof us / sizeof us[0]; k++) {
				if (us[k] > mn)
					continue;
				double total = 0, tail = 0;
				for (size_t v = 0; v <= mn; v++) {
					total += f[v];
					if (v >= us[k])
						tail += f[v];
				}
				assert_true(verdict_mw_upper_tail(m, n, us[k]) == tail / total);
			}
			assert_true(verdict_mw_upper_tail(m, n, mn + 1) == 0);
		}
	free(f);
}

static void test_u_counts_strict_pairs(void **state)
{
	(void)state;
	double x[] = {1, 2, 3}, y[] = {2, 4};
	assert_int_equal(verdict_mw_u(x, 3, y, 2), 1 + 2 + 1); /* 1<2,1<4; 2<4; 3<4 (2<2 is a tie) */
	assert_int_equal(verdict_mw_u(y, 2, x, 3), 1);          /* 2<3 */
}

static struct verdict_side side(const double *v, size_t n, double u)
{
	return (struct verdict_side){v, n, u, VERDICT_MEDIAN};
}

static void test_far_apart_holds(void **state)
{
	(void)state;
	double a[] = {0.0262, 0.0264, 0.0266, 0.0263, 0.0265}, b[] = {0.0354, 0.0357, 0.0355, 0.0356, 0.0354};
	struct verdict_side l = side(a, 5, 0.00005), r = side(b, 5, 0.00005);
	struct verdict_figures f;
	assert_int_equal(verdict_decide(&l, "<", &r, &f), 0);
	assert_int_equal(f.verdict, VERDICT_HOLDS);
	assert_true(fabs(f.p - 1.0 / 252) < 1e-12);
	assert_true(f.exact);
	assert_string_equal(f.test, "Mann-Whitney U");
	assert_true(fabs(f.margin - (0.0355 - 0.0264)) < 1e-12);
	assert_int_equal(verdict_decide(&l, ">", &r, &f), 0);
	assert_int_equal(f.verdict, VERDICT_FAILS);
	assert_int_equal(verdict_decide(&r, ">=", &l, &f), 0);
	assert_int_equal(f.verdict, VERDICT_HOLDS);
	assert_int_equal(verdict_decide(&l, "!=", &r, &f), 0);
	assert_int_equal(f.verdict, VERDICT_HOLDS);
	assert_int_equal(verdict_decide(&l, "==", &r, &f), 0);
	assert_int_equal(f.verdict, VERDICT_FAILS);
}

/* Apart in every repeat, but by less than the resolution. */
static void test_apart_below_resolution_undecided(void **state)
{
	(void)state;
	double a[] = {0.0261, 0.0262, 0.0262, 0.0261, 0.0262}, b[] = {0.0264, 0.0265, 0.0264, 0.0265, 0.0264};
	struct verdict_side l = side(a, 5, 0.00055), r = side(b, 5, 0.00055);
	struct verdict_figures f;
	verdict_decide(&l, "<", &r, &f);
	assert_int_equal(f.verdict, VERDICT_UNDECIDED);
	assert_true(f.p <= VERDICT_ALPHA); /* the test alone would decide */
	assert_string_equal(f.why, "the two are apart by no more than the resolution");
	/* the same values with print rounding only: decided */
	l.u = r.u = 0.00005;
	verdict_decide(&l, "<", &r, &f);
	assert_int_equal(f.verdict, VERDICT_HOLDS);
}

/* The extremes overlap; the medians differ by far more than the
 * resolution, and the ranks tell the sides apart. */
static void test_overlap_decided_by_test(void **state)
{
	(void)state;
	double a[] = {10, 11, 12, 13, 21}, b[] = {20, 22, 23, 24, 25};
	struct verdict_side l = side(a, 5, 0.5), r = side(b, 5, 0.5);
	struct verdict_figures f;
	verdict_decide(&l, "<", &r, &f);
	assert_int_equal(f.verdict, VERDICT_HOLDS);
	assert_true(fabs(f.p - 2.0 / 252) < 1e-12); /* U = 24 of 25 */
	/* and noise that mixes them: undecided */
	double c[] = {10, 12, 14, 26, 28}, d[] = {11, 13, 24, 27, 29};
	l = side(c, 5, 0.5);
	r = side(d, 5, 0.5);
	verdict_decide(&l, "<", &r, &f);
	assert_int_equal(f.verdict, VERDICT_UNDECIDED);
	assert_string_equal(f.why, "the repeats do not tell the two apart");
}

static void test_one_value_and_sign_test(void **state)
{
	(void)state;
	double one[] = {1}, two[] = {2};
	struct verdict_side l = side(one, 1, 0), r = side(two, 1, 0);
	struct verdict_figures f;
	verdict_decide(&l, "<", &r, &f);
	assert_int_equal(f.verdict, VERDICT_UNDECIDED); /* no repeats: no spread to test */
	assert_string_equal(f.test, "none (one value a side)");
	double many[] = {5, 6, 7, 5, 6, 7};
	r = side(many, 6, 0.5);
	verdict_decide(&l, "<", &r, &f);
	assert_string_equal(f.test, "every repeat beyond the threshold (sign test p for reference)");
	assert_true(fabs(f.p - 1.0 / 64) < 1e-12);
	assert_true(fabs(f.margin - 4) < 1e-12); /* the nearest repeat, 5 */
	assert_int_equal(f.verdict, VERDICT_HOLDS);
	r.n = 5; /* p = 1/32, not required */
	verdict_decide(&l, "<", &r, &f);
	assert_int_equal(f.verdict, VERDICT_HOLDS);
	r.u = 4; /* the nearest repeat within the threshold */
	verdict_decide(&l, "<", &r, &f);
	assert_int_equal(f.verdict, VERDICT_UNDECIDED);
	double straddle[] = {0.5, 6, 7};
	r = side(straddle, 3, 0);
	verdict_decide(&l, "<", &r, &f);
	assert_int_equal(f.verdict, VERDICT_UNDECIDED);
	verdict_decide(&r, ">", &l, &f);
	assert_int_equal(f.verdict, VERDICT_UNDECIDED);
	assert_int_equal(verdict_decide(&l, "=", &r, &f), -1);
}

static void test_large_samples_normal(void **state)
{
	(void)state;
	double a[60], b[60];
	for (int i = 0; i < 60; i++) {
		a[i] = i;
		b[i] = i + 30.5;
	}
	struct verdict_side l = side(a, 60, 0.5), r = side(b, 60, 0.5);
	struct verdict_figures f;
	verdict_decide(&l, "<", &r, &f);
	assert_false(f.exact);
	assert_int_equal(f.verdict, VERDICT_HOLDS);
	assert_true(f.p > 0 && f.p < 1e-4);
}

static void test_nearest_flip(void **state)
{
	(void)state;
	double a[] = {1, 2, 3, 4}, b[] = {10, 11, 12, 13};
	struct verdict_side l = side(a, 4, 0.5), r = side(b, 4, 0.5);
	struct verdict_figures f;
	verdict_decide(&l, "<", &r, &f);
	assert_int_equal(f.verdict, VERDICT_HOLDS); /* p = 1/70 */
	struct verdict_flip fl;
	assert_true(verdict_flip_nearest(&l, "<", &r, &fl));
	assert_int_equal(fl.becomes, VERDICT_UNDECIDED);
	/* U = 14 of 16 gives 5/70 > 0.05: two values past each other; the
	 * nearest single change moves 4 just past 11 (or 10 just below 3): 7 away */
	assert_true(fabs(fabs(fl.to - fl.from) - 7) < 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_table_values),
		cmocka_unit_test(test_exact_against_recurrence),
		cmocka_unit_test(test_u_counts_strict_pairs),
		cmocka_unit_test(test_far_apart_holds),
		cmocka_unit_test(test_apart_below_resolution_undecided),
		cmocka_unit_test(test_overlap_decided_by_test),
		cmocka_unit_test(test_one_value_and_sign_test),
		cmocka_unit_test(test_large_samples_normal),
		cmocka_unit_test(test_nearest_flip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

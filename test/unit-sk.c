/* unit-sk: the generalised SK estimator against its formula on small
 * arrays, and the channels flagged against the band. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "sk.h"

static void
sk_is_the_formula(void **state)
{
	const double p[4] = { 1, 3, 2, 6 };
	double s1 = 0, s2 = 0, m = 4, want;
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		s1 += p[i], s2 += p[i] * p[i];
	/* s1 12, s2 50: (4 N d + 1) / 3 (4 * 50 / 144 - 1) */
	want = (4 * 2.0 + 1) / 3 * (200.0 / 144 - 1);
	assert_true(fabs(sps_sk(s1, s2, m, 2) - want) < 1e-12);
	assert_true(isnan(sps_sk(0, 1, m, 1)));
	assert_true(isnan(sps_sk(1, 1, 1, 1)));
}

static void
sk_flags_outliers_of_the_band(void **state)
{
	enum { N = 12 };
	double s1[N], s2[N], m = 100;
	unsigned char flag[N], skip[N] = { 0 };
	float work[2 * N];
	int c;

	(void)state;
	for (c = 0; c < N; c++) {
		/* mean 10, variance 100 (SK about 1) with a little spread */
		s1[c] = m * 10;
		s2[c] = m * (100 + 100 + (c % 3));
	}
	s2[4] = m * (100 + 400);	/* a carrier switching: SK far above */
	s2[9] = m * 100;		/* a dead channel: SK 0 */
	skip[7] = 1;
	s2[7] = m * 900;		/* masked already: not judged */
	assert_int_equal(sps_sk_flag(s1, s2, N, m, 1, 5, skip, flag, work),
	    2);
	for (c = 0; c < N; c++)
		assert_int_equal(flag[c], c == 4 || c == 9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sk_is_the_formula),
		cmocka_unit_test(sk_flags_outliers_of_the_band),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

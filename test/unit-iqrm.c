/* unit-iqrm: IQRM's lags and votes on small arrays worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "iqrm.h"

/* Irregular values in [0, 1): splitmix64 of i, the same on every
 * machine (an arithmetic sequence mod p would give lagged differences
 * of two values only, with no spread to judge by). */
static float
ripple(int i)
{
	uint64_t z = (uint64_t)i * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (float)(z >> 40) / (float)(1 << 24);
}

static void
lags_grow_by_half(void **state)
{
	int lags[64], n;

	(void)state;
	n = sps_iqrm_lags(10, lags);
	assert_int_equal(n, 12);	/* 1 2 3 4 6 9, both signs */
	assert_int_equal(lags[0], 1);
	assert_int_equal(lags[1], -1);
	assert_int_equal(lags[4], 3);
	assert_int_equal(lags[10], 9);
	assert_int_equal(sps_iqrm_lags(0, lags), 0);
}

static void
a_high_channel_on_a_slope_is_flagged(void **state)
{
	enum { N = 40 };
	float x[N];
	unsigned char flag[N];
	int i;

	(void)state;
	/* a smooth bandpass (a slope with a small ripple) is no outlier */
	for (i = 0; i < N; i++)
		x[i] = 10 + 0.5f * (float)i + 0.1f * ripple(i);
	x[17] += 30;
	x[30] += 50;
	assert_int_equal(sps_iqrm(x, N, 4, 3, flag), SPS_OK);
	for (i = 0; i < N; i++)
		assert_int_equal(flag[i], i == 17 || i == 30);
}

static void
a_low_channel_is_not_flagged_neighbours_are_not(void **state)
{
	enum { N = 30 };
	float x[N];
	unsigned char flag[N];
	int i;

	(void)state;
	for (i = 0; i < N; i++)
		x[i] = 5 + 0.1f * ripple(i);
	x[12] = 0;	/* low: the statistic only flags high values */
	assert_int_equal(sps_iqrm(x, N, 3, 3, flag), SPS_OK);
	for (i = 0; i < N; i++)
		assert_int_equal(flag[i], 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lags_grow_by_half),
		cmocka_unit_test(a_high_channel_on_a_slope_is_flagged),
		cmocka_unit_test(a_low_channel_is_not_flagged_neighbours_are_not),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

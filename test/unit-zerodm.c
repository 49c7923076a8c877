/* unit-zerodm: zero-DM subtraction and zdot against the formulas worked
 * out directly on a small block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "zerodm.h"

#define NT	5
#define NC	4

static float
value(int t, int c)
{
	return (float)(10 + c * 3 + ((t * 7 + c * 5) % 11) - 5 * (t == 2));
}

static void
fill(float *x)
{
	int t, c;

	for (t = 0; t < NT; t++)
		for (c = 0; c < NC; c++)
			x[t * NC + c] = value(t, c);
}

static void
zerodm_weighted_by_the_bandpass(void **state)
{
	float x[NT * NC], bp[NC] = { 1, 2, 3, 4 }, share[NC];
	unsigned char masked[NC] = { 0, 0, 1, 0 };
	int t, c;

	(void)state;
	fill(x);
	sps_zerodm(x, NT, NC, masked, bp, share);
	for (t = 0; t < NT; t++) {
		double sum = value(t, 0) + value(t, 1) + value(t, 3);

		for (c = 0; c < NC; c++) {
			double want = c == 2 ? value(t, c) :
			    value(t, c) - sum * bp[c] / 7.0 + bp[c];
			assert_true(fabs(x[t * NC + c] - want) < 1e-4);
		}
	}
}

static void
zerodm_flat_is_mean_off_and_channel_mean_back(void **state)
{
	float x[NT * NC], bp[NC], share[NC];
	int t, c;

	(void)state;
	fill(x);
	for (c = 0; c < NC; c++) {
		bp[c] = 0;
		for (t = 0; t < NT; t++)
			bp[c] += value(t, c) / NT;
	}
	sps_zerodm(x, NT, NC, NULL, bp, share);
	/* every spectrum now sums to the bandpass's sum */
	for (t = 0; t < NT; t++) {
		double sum = 0, want = 0;

		for (c = 0; c < NC; c++)
			sum += x[t * NC + c], want += bp[c];
		assert_true(fabs(sum - want) < 1e-3);
	}
	/* and each channel keeps its mean */
	for (c = 0; c < NC; c++) {
		double mean = 0;

		for (t = 0; t < NT; t++)
			mean += x[t * NC + c] / NT;
		assert_true(fabs(mean - bp[c]) < 1e-3);
	}
}

static void
zdot_removes_each_channels_fit(void **state)
{
	float x[NT * NC], z[NT];
	double k[NC], zt[NT], zbar = 0, var = 0;
	int t, c;

	(void)state;
	fill(x);
	for (t = 0; t < NT; t++) {
		zt[t] = 0;
		for (c = 0; c < NC; c++)
			zt[t] += value(t, c) / (double)NC;
		zbar += zt[t] / NT;
	}
	for (t = 0; t < NT; t++)
		var += (zt[t] - zbar) * (zt[t] - zbar);
	sps_zdot(x, NT, NC, NULL, z, k);
	for (c = 0; c < NC; c++) {
		double mean = 0, cov = 0;

		for (t = 0; t < NT; t++)
			mean += value(t, c) / (double)NT;
		for (t = 0; t < NT; t++)
			cov += (value(t, c) - mean) * (zt[t] - zbar);
		for (t = 0; t < NT; t++) {
			double want = value(t, c) - cov / var * (zt[t] - zbar);

			assert_true(fabs(x[t * NC + c] - want) < 1e-4);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zerodm_weighted_by_the_bandpass),
		cmocka_unit_test(zerodm_flat_is_mean_off_and_channel_mean_back),
		cmocka_unit_test(zdot_removes_each_channels_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

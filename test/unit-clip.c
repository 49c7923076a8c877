/* unit-clip: the zero-DM impulse finder on a series with a spike, a
 * wide step and a dip, against the windows counted by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "clip.h"
#include "robust.h"

#define N	256

/* Noise of rms about 1: the sum of four uniform values of a fixed
 * sequence (a 64-bit LCG), the same on every machine. */
static float
noise(int t)
{
	static float series[N];
	static int made;
	uint64_t s = 12345;
	int i, k;

	if (!made) {
		for (i = 0; i < N; i++) {
			series[i] = 0;
			for (k = 0; k < 4; k++) {
				s = s * 6364136223846793005ULL +
				    1442695040888963407ULL;
				series[i] += (float)(s >> 40) /
				    (float)(1 << 24) - 0.5f;
			}
			series[i] *= 1.73f;
		}
		made = 1;
	}
	return series[t];
}

static void
quantiles_by_selection(void **state)
{
	float x[7] = { 9, 1, 8, 2, 7, 3, 5 }, median, sigma;

	(void)state;
	sps_median_sigma(x, 7, &median, &sigma);
	assert_true(median == 5);
	/* ranks 1 and 4 of 1 2 3 5 7 8 9: 2 and 7 */
	assert_true(sigma > 5 / 1.349f - 1e-5 && sigma < 5 / 1.349f + 1e-5);
}

static void
spike_step_and_dip_are_marked(void **state)
{
	unsigned char bad[N] = { 0 };
	float z[N], work[3 * N];
	int t, n;

	(void)state;
	for (t = 0; t < N; t++)
		z[t] = noise(t);
	z[40] += 30;			/* one spectrum */
	for (t = 100; t < 116; t++)
		z[t] += 4;		/* 16 spectra, each below 6 sigma */
	z[200] -= 30;			/* a drop-out */
	assert_true(sps_clip_find(z, N, 32, 6, bad, work) > 0);
	assert_true(bad[40] && bad[200]);
	/* the step goes in pieces: what is left of it is below 6 sigma */
	for (t = 100, n = 0; t < 116; t++)
		n += bad[t];
	assert_true(n >= 8);
	for (t = 90; t < 100; t++)
		assert_false(bad[t]);
	for (t = 0; t < 30; t++)
		assert_false(bad[t]);
	for (t = 130; t < 180; t++)
		assert_false(bad[t]);
}

static void
noise_alone_is_not_marked(void **state)
{
	unsigned char bad[N] = { 0 };
	float z[N], work[3 * N];
	int t;

	(void)state;
	for (t = 0; t < N; t++)
		z[t] = noise(t);
	assert_int_equal(sps_clip_find(z, N, 32, 6, bad, work), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quantiles_by_selection),
		cmocka_unit_test(spike_step_and_dip_are_marked),
		cmocka_unit_test(noise_alone_is_not_marked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

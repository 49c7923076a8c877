/* unit-noise: streaming moments and their merge (against two passes),
 * clipped statistics of Gaussian noise with and without outliers and
 * non-finite values, the clipping factor, and the windowed model: windows
 * handed out whole and in order once the next is complete, a trend
 * removed, sigma_w of white and of correlated noise measured on the
 * decimated series, the white-noise approximation, non-finite samples,
 * and windows that cannot be searched (zeros, a constant). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "noise.h"
#include "gauss.h"

static float *
noise(size_t n)
{
	float *x = malloc(n * sizeof(float));
	size_t i;

	assert_non_null(x);
	for (i = 0; i < n; i++)
		x[i] = gauss();
	return x;
}

static void
test_moments(void **state)
{
	struct sps_moments a = { 0, 0, 0 }, b = { 0, 0, 0 }, all = { 0, 0, 0 };
	double v[1000], mean = 0, m2 = 0;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		v[i] = 1e6 + 10 * uniform();	/* large mean: stability */
		mean += v[i] / 1000;
	}
	for (i = 0; i < 1000; i++)
		m2 += (v[i] - mean) * (v[i] - mean);
	for (i = 0; i < 1000; i++) {
		sps_moments_add(i < 300 ? &a : &b, v[i]);
		sps_moments_add(&all, v[i]);
	}
	sps_moments_merge(&a, &b);
	assert_float_equal(a.n, 1000, 0);
	assert_float_equal(a.mean, mean, 1e-8);
	assert_float_equal(a.m2, m2, 1e-6 * m2);
	assert_float_equal(all.m2, m2, 1e-6 * m2);
	b.n = 0;
	sps_moments_merge(&a, &b);	/* empty changes nothing */
	assert_float_equal(a.n, 1000, 0);
}

static void
test_clip_factor(void **state)
{
	(void)state;
	assert_float_equal(sps_clip_factor(0), 1, 0);
	assert_float_equal(sps_clip_factor(3), 0.98485, 1e-4);
	assert_float_equal(sps_clip_factor(2.5), 0.93656, 1e-4);
	assert_float_equal(sps_clip_factor(6), 1, 1e-6);
}

static void
test_clipped_stats(void **state)
{
	size_t n = 1000000, i, kept;
	float *x = noise(n);
	double mean, sd;

	(void)state;
	kept = sps_clipped_stats(x, n, 3, &mean, &sd);
	assert_true(kept > 990000 && kept < 999000);
	assert_float_equal(mean, 0, 0.005);
	assert_float_equal(sd, 1, 0.005);
	for (i = 0; i < n; i += 100)		/* 1% outliers at 50 sigma */
		x[i] = 50;
	sps_clipped_stats(x, n, 3, &mean, &sd);
	assert_float_equal(mean, 0, 0.005);
	assert_float_equal(sd, 1, 0.01);
	sps_clipped_stats(x, n, 0, &mean, &sd);	/* no rejection */
	assert_float_equal(sd, sqrt(0.99 + 0.01 * 2500 - 0.25), 0.05);
	for (i = 1; i < n; i += 1000) {
		x[i] = NAN;
		x[i + 1] = INFINITY;
	}
	kept = sps_clipped_stats(x, n, 3, &mean, &sd);
	assert_float_equal(sd, 1, 0.01);
	memset(x, 0, n * sizeof(float));
	sps_clipped_stats(x, n, 3, &mean, &sd);
	assert_true(mean == 0 && sd == 0);
	for (i = 0; i < 10; i++)
		x[i] = NAN;
	assert_int_equal(sps_clipped_stats(x, 10, 3, &mean, &sd), 0);
	assert_true(isnan(mean) && isnan(sd));
	free(x);
}

struct windows {
	size_t	 n[64];
	uint64_t start[64];
	double	 sigma[64], mean[64], resid[64];
	float	 scale[64][257];
	int	 skipped[64];
	size_t	 nbad[64];
	int	 count;
	float	*x;		/* all residuals */
};

static void
drain(struct sps_noise *nz, struct sps_noise_work *nw, struct windows *w,
    int max_width)
{
	struct sps_noise_window win;
	double m, sd;

	while (sps_noise_next(nz, nw, &win)) {
		int k = w->count++;

		assert_true(k < 64);
		w->n[k] = win.n;
		w->start[k] = win.start;
		w->sigma[k] = win.sigma;
		w->mean[k] = win.mean;
		w->nbad[k] = win.nbad;
		w->skipped[k] = win.scale == NULL;
		if (win.scale != NULL)
			memcpy(w->scale[k], win.scale, ((size_t)max_width + 1) *
			    sizeof(float));
		sps_clipped_stats(win.x, win.n, 3, &m, &sd);
		w->resid[k] = m;
		memcpy(w->x + win.start, win.x, win.n * sizeof(float));
	}
}

/* Feed x in pieces of `piece`; check windows come out in order and whole. */
static void
run_model(const float *x, size_t len, size_t piece, size_t window,
    int white, int max_width, struct windows *w)
{
	struct sps_noise_opts o = { window, 3, white, max_width };
	struct sps_noise_work *nw;
	struct sps_noise *nz;
	size_t at, total = 0;
	int k;

	memset(w, 0, sizeof(*w));
	w->x = malloc(len * sizeof(float));
	assert_int_equal(sps_noise_create(&nz, &o), SPS_OK);
	assert_int_equal(sps_noise_work_create(&nw, &o), SPS_OK);
	for (at = 0; at < len; at += piece) {
		size_t n = len - at < piece ? len - at : piece;

		assert_int_equal(sps_noise_push(nz, x + at, n), SPS_OK);
		drain(nz, nw, w, max_width);
		/* a window is out only once the one after it is complete */
		assert_true((size_t)w->count * window + window <= at + n ||
		    w->count == 0);
	}
	sps_noise_finish(nz);
	drain(nz, nw, w, max_width);
	for (k = 0; k < w->count; k++) {
		assert_int_equal(w->start[k], total);
		assert_true(w->n[k] == window || k == w->count - 1);
		total += w->n[k];
	}
	assert_int_equal(total, len);
	sps_noise_work_free(nw);
	sps_noise_free(nz);
}

static void
test_trend_and_white_noise(void **state)
{
	size_t len = 40000, j;
	float *x = noise(len);
	struct windows w;
	int k, width;

	(void)state;
	for (j = 0; j < len; j++)
		x[j] += 100 + 0.001f * (float)j;	/* 40 sigma over the data */
	run_model(x, len, 3000, 4096, 0, 256, &w);
	assert_int_equal(w.count, 10);
	for (k = 0; k < w.count; k++) {
		assert_false(w.skipped[k]);
		assert_float_equal(w.resid[k], 0, 0.06);
		assert_float_equal(w.sigma[k], 1, 0.05);
		assert_float_equal(w.mean[k], 100 + 0.001 * (w.start[k] +
		    (w.n[k] - 1) / 2.0), 0.1);
	}
	k = w.count - 2;
	for (width = 1; width <= 64; width *= 2)
		assert_float_equal(w.scale[k][width] * sqrt(width) *
		    w.sigma[k], 1, 0.08);
	free(w.x);
	free(x);
}

static void
test_correlated_noise(void **state)
{
	size_t len = 200000, j;
	float *n = noise(len + 1), *x = malloc(len * sizeof(float));
	struct windows w;
	int k, width;

	(void)state;
	for (j = 0; j < len; j++)		/* sigma_w^2 = 4w - 2 */
		x[j] = n[j] + n[j + 1];
	run_model(x, len, 16384, 8192, 0, 256, &w);
	k = w.count - 1;
	assert_float_equal(w.sigma[k], sqrt(2), 0.05);
	for (width = 2; width <= 64; width *= 2)
		if (fabs(1 / (w.scale[k][width] * w.sigma[k] * sqrt(width)) -
		    sqrt(2 - 1.0 / width)) > 0.06)
			fail_msg("width %d: ratio %g, expected %g", width, 1 /
			    (w.scale[k][width] * w.sigma[k] * sqrt(width)),
			    sqrt(2 - 1.0 / width));
	/* between powers of two: interpolated in log2 w */
	assert_true(1 / w.scale[k][3] > 1 / w.scale[k][2] && 1 /
	    w.scale[k][3] < 1 / w.scale[k][4]);
	free(w.x);
	run_model(x, len, 16384, 8192, 1, 256, &w);	/* white: by fiat */
	k = w.count - 1;
	for (width = 1; width <= 256; width++)
		assert_float_equal(w.scale[k][width], 1 / (w.sigma[k] *
		    sqrt(width)), 1e-6 * w.scale[k][width]);
	free(w.x);
	free(n);
	free(x);
}

static void
test_bad_samples_and_windows(void **state)
{
	size_t len = 20000, j;
	float *x = noise(len);
	struct windows w;

	(void)state;
	x[5] = NAN;
	x[6] = -INFINITY;
	x[7000] = NAN;
	run_model(x, len, 5000, 4096, 0, 64, &w);
	assert_int_equal(w.nbad[0], 2);
	assert_int_equal(w.nbad[1], 1);
	assert_true(w.x[5] == 0 && w.x[6] == 0 && w.x[7000] == 0);
	assert_float_equal(w.sigma[0], 1, 0.05);
	free(w.x);
	/* zeros, or a constant: not searched */
	for (j = 0; j < 8192; j++)
		x[j] = 0;
	run_model(x, 8192, 5000, 4096, 0, 64, &w);
	assert_true(w.count == 2 && w.skipped[0] && w.skipped[1]);
	free(w.x);
	for (j = 0; j < 8192; j++)
		x[j] = 5;
	run_model(x, 8192, 5000, 4096, 0, 64, &w);
	assert_true(w.count == 2 && w.skipped[0] && w.skipped[1]);
	for (j = 0; j < 8192; j++)
		assert_true(w.x[j] == 0);
	free(w.x);
	/* a short last window takes the sigma of the one before */
	run_model(x + 8192, 4096 + 100, 5000, 4096, 0, 64, &w);
	assert_int_equal(w.count, 2);
	assert_int_equal(w.n[1], 100);
	assert_float_equal(w.sigma[1], w.sigma[0], 0);
	free(w.x);
	/* all NaN: not searched, set to zero */
	for (j = 0; j < 100; j++)
		x[j] = NAN;
	run_model(x, 100, 100, 4096, 0, 64, &w);
	assert_true(w.count == 1 && w.skipped[0] && w.nbad[0] == 100);
	free(w.x);
	free(x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moments),
		cmocka_unit_test(test_clip_factor),
		cmocka_unit_test(test_clipped_stats),
		cmocka_unit_test(test_trend_and_white_noise),
		cmocka_unit_test(test_correlated_noise),
		cmocka_unit_test(test_bad_samples_and_windows),
	};

	test_rng = 0x9e3779b97f4a7c15ULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}

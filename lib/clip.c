/* clip.c: the zero-DM impulse finder. */
#include <math.h>

#include "clip.h"
#include "robust.h"

/* sums[t] = z[t] + ... + z[t + w - 1], t = 0 .. n - w. */
static void
window_sums(const float *z, size_t n, size_t w, float *sums)
{
	double run = 0;
	size_t t;

	for (t = 0; t < w; t++)
		run += z[t];
	sums[0] = (float)run;
	for (t = 1; t + w <= n; t++) {
		run += z[t + w - 1] - z[t - 1];
		sums[t] = (float)run;
	}
}

/* Mark the spectra of window t (w of them), and count them as the
 * median in zc from now on. */
static void
mark(size_t t, size_t w, unsigned char *bad, float *zc, float zmedian,
    size_t *marked)
{
	size_t s;

	for (s = t; s < t + w; s++) {
		*marked += !bad[s];
		bad[s] = 1;
		zc[s] = zmedian;
	}
}

/* In each run of windows beyond the limit, those within 3/4 of the one
 * furthest out: an impulse as wide as the windows marks about itself, a
 * wider one all of itself at once.  Returns the runs. */
static size_t
mark_runs(const float *sums, size_t count, size_t w, float median,
    float limit, unsigned char *bad, float *zc, float zmedian,
    size_t *marked)
{
	size_t t, u, first = 0, runs = 0;
	float best = -1, d;

	for (t = 0; t <= count; t++) {
		d = t < count ? fabsf(sums[t] - median) : 0;
		if (d > limit) {
			if (best < 0)
				first = t;
			if (d > best)
				best = d;
			continue;
		}
		if (best < 0)
			continue;
		for (u = first; u < t; u++)
			if (fabsf(sums[u] - median) >= 0.75f * best)
				mark(u, w, bad, zc, zmedian, marked);
		runs++;
		best = -1;
	}
	return runs;
}

size_t
sps_clip_find(const float *z, size_t n, int maxwidth, double sigma,
    unsigned char *bad, float *work)
{
	float *zc = work, *sums = work + n, *sorted = work + 2 * n;
	float median, spread, zmedian;
	size_t w, t, count, marked = 0;
	int pass;

	for (t = 0; t < n; t++)
		sorted[t] = zc[t] = z[t];
	zmedian = sps_quantile(sorted, n, 0.5);
	for (t = 0; t < n; t++)
		if (bad[t])
			zc[t] = zmedian;
	for (w = 1; w <= (size_t)maxwidth && w * 8 <= n; w *= 2) {
		count = n - w + 1;
		window_sums(zc, n, w, sums);
		for (t = 0; t < count; t++)
			sorted[t] = sums[t];
		sps_median_sigma(sorted, count, &median, &spread);
		if (!(spread > 0))
			continue;
		for (pass = 0; pass < 64 && mark_runs(sums, count, w, median,
		    (float)(sigma * spread), bad, zc, zmedian, &marked) > 0;
		    pass++)
			window_sums(zc, n, w, sums);
	}
	return marked;
}

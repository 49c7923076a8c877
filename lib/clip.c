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

static size_t
mark(unsigned char *bad, size_t from, size_t w)
{
	size_t t, marked = 0;

	for (t = from; t < from + w; t++) {
		marked += !bad[t];
		bad[t] = 1;
	}
	return marked;
}

size_t
sps_clip_find(const float *z, size_t n, int maxwidth, double sigma,
    unsigned char *bad, float *work)
{
	float *sums = work, *sorted = work + n, median, spread;
	size_t w, t, count, marked = 0;

	for (w = 1; w <= (size_t)maxwidth && w * 8 <= n; w *= 2) {
		count = n - w + 1;
		window_sums(z, n, w, sums);
		for (t = 0; t < count; t++)
			sorted[t] = sums[t];
		sps_median_sigma(sorted, count, &median, &spread);
		if (!(spread > 0))
			continue;
		for (t = 0; t < count; t++)
			if (fabsf(sums[t] - median) > sigma * spread)
				marked += mark(bad, t, w);
	}
	return marked;
}

/* noise_clip.c: moments and clipped statistics (noise_clip.h). */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "noise_clip.h"

#define LANES		16	/* partial sums kept apart, for vectors */
#define CHUNK		4096	/* values summed in float before merging */
#define MAX_ITER	100

void
sps_moments_add(struct sps_moments *m, double x)
{
	double d = x - m->mean;

	m->n += 1;
	m->mean += d / m->n;
	m->m2 += d * (x - m->mean);
}

void
sps_moments_merge(struct sps_moments *a, const struct sps_moments *b)
{
	double n = a->n + b->n, d = b->mean - a->mean;

	if (b->n == 0)
		return;
	if (a->n == 0) {
		*a = *b;
		return;
	}
	a->mean += d * b->n / n;
	a->m2 += b->m2 + d * d * a->n * b->n / n;
	a->n = n;
}

/* The widest vectors for the sums, as in boxcar.c. */
#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC target("prefer-vector-width=512")
#endif

/* Moments of the values of x[0..n) in [lo, hi] (NaN never is), summed
 * in float relative to shift, in LANES lanes so that they vectorise. */
static void
chunk_moments(const float *restrict x, size_t n, float shift, float lo,
    float hi, struct sps_moments *out)
{
	float s[LANES], q[LANES], c[LANES];
	double S = 0, Q = 0, C = 0;
	size_t i, l;

	for (l = 0; l < LANES; l++)
		s[l] = q[l] = c[l] = 0;
	for (i = 0; i + LANES <= n; i += LANES) {
		for (l = 0; l < LANES; l++) {
			float v = x[i + l], d = v - shift;
			int keep = (v >= lo) & (v <= hi);

			d = keep ? d : 0.0f;
			s[l] += d;
			q[l] += d * d;
			c[l] += (float)keep;
		}
	}
	for (; i < n; i++) {
		float v = x[i];

		if (v >= lo && v <= hi) {
			s[0] += v - shift;
			q[0] += (v - shift) * (v - shift);
			c[0] += 1;
		}
	}
	for (l = 0; l < LANES; l++) {
		S += s[l];
		Q += q[l];
		C += c[l];
	}
	out->n = C;
	out->mean = C > 0 ? shift + S / C : 0;
	out->m2 = C > 0 ? fmax(Q - S * S / C, 0) : 0;
}

#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

static struct sps_moments
moments(const float *x, size_t n, float shift, float lo, float hi)
{
	struct sps_moments all = { 0, 0, 0 }, part;
	size_t i;

	for (i = 0; i < n; i += CHUNK) {
		chunk_moments(x + i, n - i < CHUNK ? n - i : CHUNK, shift, lo, hi,
		    &part);
		sps_moments_merge(&all, &part);
	}
	return all;
}

double
sps_clip_factor(double t)
{
	static _Thread_local double last_t = -1, last_c = 1;
	double c = 1, a, var;
	int i;

	if (t <= 0)
		return 1;
	if (t == last_t)
		return last_c;
	for (i = 0; i < 1000; i++) {
		a = t * c;
		var = 1 - 2 * a * exp(-a * a / 2) / sqrt(2 * M_PI) /
		    erf(a / sqrt(2));
		if (var <= 0)
			return 1;
		if (fabs(sqrt(var) - c) < 1e-12)
			break;
		c = sqrt(var);
	}
	last_t = t;
	last_c = c;
	return c;
}

static double
sd_of(const struct sps_moments *m)
{
	return m->n > 1 ? sqrt(m->m2 / (m->n - 1)) : 0;
}

size_t
sps_clipped_stats(const float *x, size_t n, double t, double *mean,
    double *sd)
{
	struct sps_moments m;
	double prev = -1;
	float shift = 0;
	size_t i;
	int it;

	for (i = 0; i < n; i++)
		if (isfinite(x[i])) {
			shift = x[i];
			break;
		}
	m = moments(x, n, shift, -FLT_MAX, FLT_MAX);
	/* the same count and mean: the same values kept, converged (a value
	 * that changed sides would move the mean by about t sd / n; float
	 * sums move it by about 1e-7 sd) */
	for (it = 0; t > 0 && m.n > 1 && it < MAX_ITER; it++) {
		double s = sd_of(&m), prev_mean = m.mean;

		prev = m.n;
		m = moments(x, n, (float)m.mean, (float)(m.mean - t * s),
		    (float)(m.mean + t * s));
		if (m.n == prev && fabs(m.mean - prev_mean) <= fmax(0.1 / m.n,
		    1e-6) * s)
			break;
	}
	if (m.n == 0) {
		*mean = *sd = NAN;
		return 0;
	}
	*mean = m.mean;
	*sd = sd_of(&m) / sps_clip_factor(t);
	return (size_t)m.n;
}

/* noise.c: clipped statistics and the windowed noise model (noise.h). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"

#define LANES		16	/* partial sums kept apart, for vectors */
#define CHUNK		4096	/* values summed in float before merging */
#define MAX_ITER	100
#define RING		1024	/* decimated sums kept per power of two */
#define RING_MIN	32	/* sums needed before a ratio is measured */
#define SHORT_WINDOW	256	/* fewer samples: sigma of the window before */

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

/* ---- the windowed noise model ---- */

struct ring {
	float	v[RING];
	int	n, head;
};

struct sps_noise {
	struct sps_noise_opts o;
	float	*raw;		/* samples from rstart at raw + roff, not yet
				 * in a window */
	size_t	 roff, rlen, rcap;
	uint64_t rstart;
	int	 finished;
	int	 have_prev;	/* the window before: centre and mean */
	double	 prev_centre, prev_mean, prev_sigma;
	int	 have_next;	/* mean of the segment after raw's first */
	double	 next_mean;
	size_t	 next_len;
	float	*scale;
	float	*dec;		/* decimated sums */
	int	 nlevels;	/* powers of two 1 .. 2^nlevels */
	double	*ratio;		/* r at 2^k */
	int	*wk;		/* per width: the power of two below */
	float	*wfrac;		/* and log2 w - k */
	float	*wroot;		/* sqrt(w) */
	struct ring *ring;
};

/* Powers of two 1 .. 2^levels(w) reach w. */
static int
levels(int max_width)
{
	int k;

	for (k = 0; (1 << k) < max_width; k++)
		;
	return k;
}

/* Room for need samples not yet in a window: an eighth more than need,
 * not double: the buffer's steady size (two windows and a push) is held
 * by every trial. */
static size_t
raw_room(size_t need)
{
	return need + need / 8;
}

size_t
sps_noise_bytes(const struct sps_noise_opts *o, size_t push, size_t total)
{
	size_t w = (size_t)o->max_width + 1, k = (size_t)levels(o->max_width);
	size_t raw = 2 * o->window + push, win = o->window;

	if (total > 0 && total < raw)
		raw = total;
	if (total > 0 && total < win)
		win = total;
	return sizeof(struct sps_noise) + raw_room(raw) * sizeof(float) + w *
	    (2 * sizeof(float) + sizeof(int) + sizeof(float)) + (win / 2 + 1) *
	    sizeof(float) + (k + 2) * sizeof(double) + (k + 1) *
	    sizeof(struct ring);
}

enum sps_err
sps_noise_create(struct sps_noise **nzp, const struct sps_noise_opts *o)
{
	struct sps_noise *nz;
	int k;

	if (o->window < 1 || o->max_width < 1)
		return sps_fail(SPS_EVALUE, "noise window %zu, width %d",
		    o->window, o->max_width);
	if ((nz = calloc(1, sizeof(*nz))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	nz->o = *o;
	nz->nlevels = k = levels(o->max_width);
	nz->scale = malloc(((size_t)o->max_width + 1) * sizeof(float));
	nz->dec = malloc((o->window / 2 + 1) * sizeof(float));
	nz->ratio = malloc(((size_t)k + 2) * sizeof(double));
	nz->ring = calloc((size_t)k + 1, sizeof(struct ring));
	nz->wk = malloc(((size_t)o->max_width + 1) * sizeof(int));
	nz->wfrac = malloc(((size_t)o->max_width + 1) * sizeof(float));
	nz->wroot = malloc(((size_t)o->max_width + 1) * sizeof(float));
	if (nz->scale == NULL || nz->dec == NULL ||
	    nz->ratio == NULL || nz->ring == NULL || nz->wk == NULL ||
	    nz->wfrac == NULL || nz->wroot == NULL) {
		sps_noise_free(nz);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	for (k = 1; k <= o->max_width; k++) {
		double l = log2((double)k);

		nz->wk[k] = (int)floor(l);
		nz->wfrac[k] = (float)(l - floor(l));
		nz->wroot[k] = (float)sqrt((double)k);
	}
	for (k = 0; k <= nz->nlevels + 1; k++)
		nz->ratio[k] = 1;
	*nzp = nz;
	return SPS_OK;
}

void
sps_noise_free(struct sps_noise *nz)
{
	if (nz == NULL)
		return;
	free(nz->raw);
	free(nz->scale);
	free(nz->dec);
	free(nz->ratio);
	free(nz->ring);
	free(nz->wk);
	free(nz->wfrac);
	free(nz->wroot);
	free(nz);
}

enum sps_err
sps_noise_push(struct sps_noise *nz, const float *x, size_t n)
{
	if (nz->roff > 0 && nz->roff + nz->rlen + n > nz->rcap) {
		memmove(nz->raw, nz->raw + nz->roff, nz->rlen * sizeof(float));
		nz->roff = 0;
	}
	if (nz->rlen + n > nz->rcap) {
		size_t cap = raw_room(nz->rlen + n);
		float *p;

		if ((p = realloc(nz->raw, cap * sizeof(float))) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		nz->raw = p;
		nz->rcap = cap;
	}
	memcpy(nz->raw + nz->roff + nz->rlen, x, n * sizeof(float));
	nz->rlen += n;
	return SPS_OK;
}

void
sps_noise_finish(struct sps_noise *nz)
{
	nz->finished = 1;
}

static double
clipped_mean(const struct sps_noise *nz, const float *x, size_t n)
{
	double mean, sd;

	sps_clipped_stats(x, n, nz->o.outlier, &mean, &sd);
	return mean;
}

/* x minus the baseline, in place: the line through the means at the
 * centres of the window before and this one (up to this centre), and of
 * this one and the next (after it); NaN where x or the mean is not
 * finite. */
static void
subtract(struct sps_noise *nz, float *x, size_t n, double centre,
    double mean, double next_centre)
{
	size_t j, half = (size_t)floor(centre - (double)nz->rstart) + 1;
	double a0 = mean, b0 = 0, a1 = mean, b1 = 0;

	if (half > n)
		half = n;
	if (nz->have_prev)
		b0 = (mean - nz->prev_mean) / (centre - nz->prev_centre);
	if (nz->have_next)
		b1 = (nz->next_mean - mean) / (next_centre - centre);
	/* at the ends of the data the line goes on */
	if (!nz->have_prev)
		b0 = b1;
	if (!nz->have_next)
		b1 = b0;
	a0 = mean + b0 * ((double)nz->rstart - centre);
	a1 = mean + b1 * ((double)nz->rstart - centre);
	if (!isfinite(mean)) {
		for (j = 0; j < n; j++)
			x[j] = NAN;
		return;
	}
	for (j = 0; j < half; j++)
		x[j] = (float)(x[j] - (a0 + b0 * (double)j));
	for (; j < n; j++)
		x[j] = (float)(x[j] - (a1 + b1 * (double)j));
}

static void
push_ring(struct ring *r, const float *v, size_t n)
{
	size_t first;

	if (n > RING) {
		v += n - RING;
		n = RING;
	}
	first = RING - (size_t)r->head < n ? RING - (size_t)r->head : n;
	memcpy(r->v + r->head, v, first * sizeof(float));
	memcpy(r->v, v + first, (n - first) * sizeof(float));
	r->head = (int)(((size_t)r->head + n) % RING);
	r->n = (size_t)r->n + n > RING ? RING : r->n + (int)n;
}

/* r at 2^k from the window's decimated sums (of x / sigma) and the sums
 * before. */
static void
measure_ratios(struct sps_noise *nz, const float *x, size_t n, double sigma)
{
	size_t m = n / 2, i;
	double mean, sd;
	float inv = (float)(1 / sigma);
	int k;

	for (i = 0; i < m; i++)
		nz->dec[i] = (x[2 * i] + x[2 * i + 1]) * inv;
	for (k = 1; k <= nz->nlevels; k++) {
		if (k > 1) {
			m /= 2;
			for (i = 0; i < m; i++)
				nz->dec[i] = nz->dec[2 * i] + nz->dec[2 * i + 1];
		}
		push_ring(&nz->ring[k], nz->dec, m);
		if (m >= RING)		/* enough in this window alone */
			sps_clipped_stats(nz->dec, m, nz->o.outlier, &mean,
			    &sd);
		else if (nz->ring[k].n >= RING_MIN)
			sps_clipped_stats(nz->ring[k].v, (size_t)nz->ring[k].n,
			    nz->o.outlier, &mean, &sd);
		else
			sd = 0;
		if (isfinite(sd) && sd > 0)
			nz->ratio[k] = sd / sqrt((double)(1 << k));
		else
			nz->ratio[k] = nz->ratio[k - 1];
	}
}

double
sps_noise_ratio(const struct sps_noise *nz, int w)
{
	double l = log2((double)w);
	int k = (int)floor(l);

	if (nz->o.white || w <= 1)
		return 1;
	if (k >= nz->nlevels)
		return nz->ratio[nz->nlevels];
	return nz->ratio[k] + (nz->ratio[k + 1] - nz->ratio[k]) * (l - k);
}

static void
make_scale(struct sps_noise *nz, double sigma)
{
	float r[64], s = (float)sigma;
	int w, k;

	for (k = 0; k <= nz->nlevels + 1 && k < 64; k++)
		r[k] = nz->o.white ? 1 : (float)nz->ratio[k <= nz->nlevels ? k :
		    nz->nlevels];
	nz->scale[0] = 0;
	for (w = 1; w <= nz->o.max_width; w++) {
		k = nz->wk[w];
		nz->scale[w] = 1 / (s * nz->wroot[w] * (r[k] + (r[k + 1] -
		    r[k]) * nz->wfrac[w]));
	}
}

int
sps_noise_next(struct sps_noise *nz, struct sps_noise_window *w)
{
	size_t S = nz->o.window, n, j;
	double mean, centre, next_centre, sd, m;
	float *raw = nz->raw + nz->roff;	/* becomes the window */

	if (nz->rlen == 0 || (!nz->finished && nz->rlen < 2 * S))
		return 0;
	n = nz->rlen < S ? nz->rlen : S;
	mean = nz->have_next && nz->next_len == n ? nz->next_mean :
	    clipped_mean(nz, raw, n);
	nz->have_next = 0;
	if (nz->rlen > S) {
		nz->next_len = nz->rlen - S < S ? nz->rlen - S : S;
		nz->next_mean = clipped_mean(nz, raw + S, nz->next_len);
		nz->have_next = isfinite(nz->next_mean);
	}
	centre = (double)nz->rstart + (n - 1) / 2.0;
	next_centre = (double)nz->rstart + S + (nz->next_len - 1) / 2.0;
	memset(w, 0, sizeof(*w));
	w->start = nz->rstart;
	w->n = n;
	w->x = raw;
	w->mean = mean;
	for (j = 0; j < n; j++)
		w->nbad += !isfinite(raw[j]);
	subtract(nz, raw, n, centre, mean, next_centre);
	sps_clipped_stats(raw, n, nz->o.outlier, &m, &sd);
	if (n < SHORT_WINDOW && nz->prev_sigma > 0)
		sd = nz->prev_sigma;
	for (j = 0; j < n; j++)
		if (!isfinite(raw[j]))
			raw[j] = 0;
	w->sigma = sd;
	if (isfinite(sd) && sd > 0) {
		if (!nz->o.white)
			measure_ratios(nz, raw, n, sd);
		nz->prev_sigma = sd;
		make_scale(nz, sd);
		w->scale = nz->scale;
	}
	nz->have_prev = isfinite(mean);
	nz->prev_centre = centre;
	nz->prev_mean = mean;
	nz->roff += n;
	nz->rlen -= n;
	nz->rstart += n;
	return 1;
}

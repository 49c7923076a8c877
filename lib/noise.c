/* noise.c: the windowed noise model (noise.h); its statistics are in
 * noise_clip.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"
#include "samplestore.h"

#define RING		1024	/* decimated sums kept per power of two */
#define RING_MIN	32	/* sums needed before a ratio is measured */
#define SHORT_WINDOW	256	/* fewer samples: sigma of the window before */

struct ring {
	float	v[RING];
	int	n, head;
};

struct sps_noise {
	struct sps_noise_opts o;
	struct sps_samplestore *held;	/* samples from rstart, not yet in
					 * a window */
	uint64_t rstart;
	int	 finished;
	int	 have_prev;	/* the window before: centre and mean */
	double	 prev_centre, prev_mean, prev_sigma;
	int	 have_next;	/* mean of the segment after the first held */
	double	 next_mean;
	size_t	 next_len;
	int	 nlevels;	/* powers of two 1 .. 2^nlevels */
	double	*ratio;		/* r at 2^k */
	struct ring *ring;	/* of 2^k sums at ring[k - 1], k = 1 ..
				 * nlevels */
};

/* What a window needs only while it is made: the same for every trial
 * of a thread. */
struct sps_noise_work {
	float	*x;		/* the window being made */
	size_t	 xcap;
	float	*dec;		/* decimated sums */
	size_t	 dcap;
	float	*scale;
	int	*wk;		/* per width: the power of two below */
	float	*wfrac;		/* and log2 w - k */
	float	*wroot;		/* sqrt(w) */
	int	 wcap;		/* widths 0 .. wcap - 1 */
	int	 tables;	/* the widest boxcar wk.. are for */
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

size_t
sps_noise_bytes(const struct sps_noise_opts *o, size_t push, size_t total,
    int packed)
{
	size_t k = (size_t)levels(o->max_width);
	size_t held = 2 * o->window + push;

	if (total > 0 && total < held)
		held = total;
	return sizeof(struct sps_noise) + sps_samplestore_bytes(2 * o->window,
	    held, packed) + (k + 2) * sizeof(double) + (k > 0 ? k : 1) *
	    sizeof(struct ring);
}

size_t
sps_noise_work_bytes(const struct sps_noise_opts *o)
{
	size_t w = (size_t)o->max_width + 1;

	return sizeof(struct sps_noise_work) + (o->window + o->window / 2 +
	    1) * sizeof(float) + w * (3 * sizeof(float) + sizeof(int));
}

enum sps_err
sps_noise_work_create(struct sps_noise_work **wp,
    const struct sps_noise_opts *o)
{
	enum sps_err e;

	if ((*wp = calloc(1, sizeof(**wp))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if ((e = sps_noise_work_reserve(*wp, o)) != SPS_OK) {
		sps_noise_work_free(*wp);
		*wp = NULL;
	}
	return e;
}

void
sps_noise_work_free(struct sps_noise_work *w)
{
	if (w == NULL)
		return;
	free(w->x);
	free(w->dec);
	free(w->scale);
	free(w->wk);
	free(w->wfrac);
	free(w->wroot);
	free(w);
}

enum sps_err
sps_noise_work_reserve(struct sps_noise_work *w,
    const struct sps_noise_opts *o)
{
	size_t dn = o->window / 2 + 1, wn = (size_t)o->max_width + 1;
	void *p;

	if (o->window > w->xcap) {
		if ((p = realloc(w->x, o->window * sizeof(float))) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		w->x = p;
		w->xcap = o->window;
	}
	if (dn > w->dcap) {
		if ((p = realloc(w->dec, dn * sizeof(float))) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		w->dec = p;
		w->dcap = dn;
	}
	if (o->max_width < w->wcap)
		return SPS_OK;
	free(w->scale);
	free(w->wk);
	free(w->wfrac);
	free(w->wroot);
	w->scale = malloc(wn * sizeof(float));
	w->wk = malloc(wn * sizeof(int));
	w->wfrac = malloc(wn * sizeof(float));
	w->wroot = malloc(wn * sizeof(float));
	w->wcap = 0;
	w->tables = 0;
	if (w->scale == NULL || w->wk == NULL || w->wfrac == NULL ||
	    w->wroot == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	w->wcap = (int)wn;
	return SPS_OK;
}

/* The tables of widths 1 .. max_width. */
static void
make_tables(struct sps_noise_work *w, int max_width)
{
	int k;

	for (k = 1; k <= max_width; k++) {
		double l = log2((double)k);

		w->wk[k] = (int)floor(l);
		w->wfrac[k] = (float)(l - floor(l));
		w->wroot[k] = (float)sqrt((double)k);
	}
	w->tables = max_width;
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
	nz->ratio = malloc(((size_t)k + 2) * sizeof(double));
	nz->ring = calloc(k > 0 ? (size_t)k : 1, sizeof(struct ring));
	if (nz->ratio == NULL || nz->ring == NULL ||
	    sps_samplestore_create(&nz->held, 2 * o->window) != SPS_OK) {
		sps_noise_free(nz);
		return sps_fail(SPS_ENOMEM, "out of memory");
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
	sps_samplestore_free(nz->held);
	free(nz->ratio);
	free(nz->ring);
	free(nz);
}

size_t
sps_noise_room(const struct sps_noise *nz)
{
	size_t two = 2 * nz->o.window, len = sps_samplestore_len(nz->held);

	return nz->finished || len >= two ? 0 : two - len;
}

enum sps_err
sps_noise_push(struct sps_noise *nz, const float *x, size_t n)
{
	return sps_samplestore_push(nz->held, x, n);
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

/* The baseline of a window from sample rstart: the line through the
 * means at the centres of the window before and this one (up to this
 * centre, samples before `half`), and of this one and the next (after
 * it). */
struct line {
	double	a0, b0, a1, b1;
	size_t	half;
	int	finite;		/* the mean is */
};

static struct line
line_of(const struct sps_noise *nz, size_t n, double centre, double mean,
    int have_next, double next_mean, double next_centre)
{
	struct line l = { mean, 0, mean, 0, 0, isfinite(mean) };

	l.half = (size_t)floor(centre - (double)nz->rstart) + 1;
	if (l.half > n)
		l.half = n;
	if (nz->have_prev)
		l.b0 = (mean - nz->prev_mean) / (centre - nz->prev_centre);
	if (have_next)
		l.b1 = (next_mean - mean) / (next_centre - centre);
	/* at the ends of the data the line goes on */
	if (!nz->have_prev)
		l.b0 = l.b1;
	if (!have_next)
		l.b1 = l.b0;
	l.a0 = mean + l.b0 * ((double)nz->rstart - centre);
	l.a1 = mean + l.b1 * ((double)nz->rstart - centre);
	return l;
}

/* out[j] = x[j] minus the baseline, j < n (in place when out is x); NaN
 * where x or the mean is not finite. */
static void
subtract(const struct line *l, const float *x, float *out, size_t n)
{
	size_t j, half = l->half < n ? l->half : n;

	if (!l->finite) {
		for (j = 0; j < n; j++)
			out[j] = NAN;
		return;
	}
	for (j = 0; j < half; j++)
		out[j] = (float)(x[j] - (l->a0 + l->b0 * (double)j));
	for (; j < n; j++)
		out[j] = (float)(x[j] - (l->a1 + l->b1 * (double)j));
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
measure_ratios(struct sps_noise *nz, float *dec, const float *x, size_t n,
    double sigma)
{
	size_t m = n / 2, i;
	double mean, sd;
	float inv = (float)(1 / sigma);
	int k;

	for (i = 0; i < m; i++)
		dec[i] = (x[2 * i] + x[2 * i + 1]) * inv;
	for (k = 1; k <= nz->nlevels; k++) {
		struct ring *r = &nz->ring[k - 1];

		if (k > 1) {
			m /= 2;
			for (i = 0; i < m; i++)
				dec[i] = dec[2 * i] + dec[2 * i + 1];
		}
		push_ring(r, dec, m);
		if (m >= RING)		/* enough in this window alone */
			sps_clipped_stats(dec, m, nz->o.outlier, &mean, &sd);
		else if (r->n >= RING_MIN)
			sps_clipped_stats(r->v, (size_t)r->n, nz->o.outlier,
			    &mean, &sd);
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
make_scale(const struct sps_noise *nz, struct sps_noise_work *wk,
    double sigma)
{
	float r[64], s = (float)sigma;
	int w, k;

	if (wk->tables != nz->o.max_width)
		make_tables(wk, nz->o.max_width);
	for (k = 0; k <= nz->nlevels + 1 && k < 64; k++)
		r[k] = nz->o.white ? 1 : (float)nz->ratio[k <= nz->nlevels ? k :
		    nz->nlevels];
	wk->scale[0] = 0;
	for (w = 1; w <= nz->o.max_width; w++) {
		k = wk->wk[w];
		wk->scale[w] = 1 / (s * wk->wroot[w] * (r[k] + (r[k + 1] -
		    r[k]) * wk->wfrac[w]));
	}
}

/* sigma_1 of the window x[0..n) (minus its baseline), its non-finite
 * samples then set to 0. */
static double
window_sigma(const struct sps_noise *nz, float *x, size_t n)
{
	double m, sd;
	size_t j;

	sps_clipped_stats(x, n, nz->o.outlier, &m, &sd);
	if (n < SHORT_WINDOW && nz->prev_sigma > 0)
		sd = nz->prev_sigma;
	for (j = 0; j < n; j++)
		if (!isfinite(x[j]))
			x[j] = 0;
	return sd;
}

int
sps_noise_next(struct sps_noise *nz, struct sps_noise_work *wk,
    struct sps_noise_window *w)
{
	size_t S = nz->o.window, len = sps_samplestore_len(nz->held), n, j;
	double mean = nz->next_mean, centre, next_centre, sd;
	float *raw = wk->x;	/* becomes the window */
	int known;
	struct line l;

	if (len == 0 || (!nz->finished && len < 2 * S))
		return 0;
	n = len < S ? len : S;
	known = nz->have_next && nz->next_len == n;
	nz->have_next = 0;
	if (len > S) {	/* the next window passes through first */
		nz->next_len = len - S < S ? len - S : S;
		sps_samplestore_read(nz->held, S, nz->next_len, raw);
		nz->next_mean = clipped_mean(nz, raw, nz->next_len);
		nz->have_next = isfinite(nz->next_mean);
	}
	sps_samplestore_read(nz->held, 0, n, raw);
	if (!known)
		mean = clipped_mean(nz, raw, n);
	centre = (double)nz->rstart + (n - 1) / 2.0;
	next_centre = (double)nz->rstart + S + (nz->next_len - 1) / 2.0;
	memset(w, 0, sizeof(*w));
	w->start = nz->rstart;
	w->n = n;
	w->x = raw;
	w->mean = mean;
	for (j = 0; j < n; j++)
		w->nbad += !isfinite(raw[j]);
	l = line_of(nz, n, centre, mean, nz->have_next, nz->next_mean,
	    next_centre);
	subtract(&l, raw, raw, n);
	w->sigma = sd = window_sigma(nz, raw, n);
	if (isfinite(sd) && sd > 0) {
		if (!nz->o.white)
			measure_ratios(nz, wk->dec, raw, n, sd);
		nz->prev_sigma = sd;
		make_scale(nz, wk, sd);
		w->scale = wk->scale;
	}
	nz->have_prev = isfinite(mean);
	nz->prev_centre = centre;
	nz->prev_mean = mean;
	sps_samplestore_drop(nz->held, n);
	nz->rstart += n;
	return 1;
}

size_t
sps_noise_ahead_max(const struct sps_noise_opts *o)
{
	return o->window < SHORT_WINDOW ? 0 : o->window / 2;
}

/* The next window's first half is on the line through this window's
 * mean and its own, known once it is complete; the last window is on
 * that line throughout. */
size_t
sps_noise_ahead(const struct sps_noise *nz, float *x, size_t n)
{
	size_t S = nz->o.window, len = sps_samplestore_len(nz->held), j;
	double centre, mean = nz->have_next ? nz->next_mean : NAN;
	struct line l;

	len = len < S ? len : S;
	centre = (double)nz->rstart + (len - 1) / 2.0;
	if (n > len)
		n = len;
	if (n == 0)
		return 0;
	l = line_of(nz, len, centre, mean, 0, 0, 0);
	sps_samplestore_read(nz->held, 0, n, x);
	subtract(&l, x, x, n);
	for (j = 0; j < n; j++)
		if (!isfinite(x[j]))
			x[j] = 0;
	return n;
}

/* subband.c: sub-band dedispersion, two direct passes (Barsdell et al.
 * 2012 §4, Appendix B); see dedisperse.h. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "dedisperse.h"
#include "dedisperse_plan.h"
#include "dmdelay.h"

static enum sps_err
split_bands(struct sps_dedisp_plan *p, const struct sps_header *h, int nsub)
{
	int per_band = (h->nchans + nsub - 1) / nsub, c, b;

	p->sub_of = malloc((size_t)p->nlive * sizeof(int));
	p->sub_top = malloc((size_t)nsub * sizeof(double));
	p->sub_bottom = malloc((size_t)nsub * sizeof(double));
	if (p->sub_of == NULL || p->sub_top == NULL || p->sub_bottom == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (b = 0; b < nsub; b++) {
		p->sub_top[b] = -INFINITY;
		p->sub_bottom[b] = INFINITY;
	}
	for (c = 0; c < h->nchans; c++) {
		double f = sps_channel_freq(h, c);

		b = c / per_band;
		p->sub_top[b] = fmax(p->sub_top[b], f);
		p->sub_bottom[b] = fmin(p->sub_bottom[b], f);
	}
	for (c = 0; c < p->nlive; c++)
		p->sub_of[c] = p->live[c] / per_band;
	p->nsub = (h->nchans + per_band - 1) / per_band;
	return SPS_OK;
}

/* Runs of at most `group` trials with one scrunch factor. */
static enum sps_err
make_groups(struct sps_dedisp_plan *p, int group)
{
	int d0 = 0, d1, n = 0;

	p->group_start = malloc(((size_t)p->ndms + 1) * sizeof(int));
	p->dm_nominal = malloc((size_t)p->ndms * sizeof(double));
	p->group_span = malloc((size_t)p->ndms * sizeof(size_t));
	if (p->group_start == NULL || p->dm_nominal == NULL ||
	    p->group_span == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	while (d0 < p->ndms) {
		double lo = p->dms[d0], hi = p->dms[d0];

		for (d1 = d0 + 1; d1 < p->ndms && d1 - d0 < group &&
		    p->scrunch[d1] == p->scrunch[d0]; d1++) {
			lo = fmin(lo, p->dms[d1]);
			hi = fmax(hi, p->dms[d1]);
		}
		p->group_start[n] = d0;
		p->dm_nominal[n++] = 0.5 * (lo + hi);
		d0 = d1;
	}
	p->group_start[n] = p->ndms;
	p->ngroups = n;
	return SPS_OK;
}

static long
step1_shift(const struct sps_dedisp_plan *p, int g, int live)
{
	int f = p->scrunch[p->group_start[g]];

	return sps_dm_delay_samples(p->dm_nominal[g], p->freq[live],
	    p->sub_top[p->sub_of[live]], p->tsamp * f);
}

static long
step2_shift(const struct sps_dedisp_plan *p, int trial, int band)
{
	return sps_dm_delay_samples(p->dms[trial], p->sub_top[band], p->fref,
	    p->tsamp * p->scrunch[trial]);
}

long
sps_subband_shift(const struct sps_dedisp_plan *p, int trial, int live)
{
	int g = 0;

	while (p->group_start[g + 1] <= trial)
		g++;
	return step1_shift(p, g, live) + step2_shift(p, trial,
	    p->sub_of[live]);
}

/* Delays, spans and the Appendix B bound, group by group. */
static void
measure_groups(struct sps_dedisp_plan *p)
{
	double widest = 0;
	int g, d, b, c;

	for (b = 0; b < p->nsub; b++)
		widest = fmax(widest, sps_dm_delay(1, p->sub_bottom[b],
		    p->sub_top[b]));
	p->max_delay = 0;
	p->smear_bound = 0;
	for (g = 0; g < p->ngroups; g++) {
		int f = p->scrunch[p->group_start[g]];
		long s1max = 0, s2max = 0;

		for (c = 0; c < p->nlive; c++)
			s1max = fmax(s1max, step1_shift(p, g, c));
		for (d = p->group_start[g]; d < p->group_start[g + 1]; d++) {
			for (b = 0; b < p->nsub; b++)
				s2max = fmax(s2max, step2_shift(p, d, b));
			p->smear_bound = fmax(p->smear_bound,
			    fabs(p->dms[d] - p->dm_nominal[g]) * widest +
			    p->tsamp * f);
		}
		p->group_span[g] = (size_t)s2max;
		if ((size_t)(s1max + s2max) * f > p->max_delay)
			p->max_delay = (size_t)(s1max + s2max) * f;
	}
}

enum sps_err
sps_subband_prepare(struct sps_dedisp_plan *p, const struct sps_header *h,
    int nsub, int group)
{
	enum sps_err e;

	if (nsub > h->nchans)
		return sps_fail(SPS_EVALUE, "%d sub-bands for %d channels",
		    nsub, h->nchans);
	if ((e = split_bands(p, h, nsub)) != SPS_OK)
		return e;
	if (group < 1)
		group = (h->nchans + p->nsub - 1) / p->nsub;
	if ((e = make_groups(p, group)) != SPS_OK)
		return e;
	measure_groups(p);
	return SPS_OK;
}

void
sps_subband_free(struct sps_dedisp_plan *p)
{
	free(p->sub_of);
	free(p->sub_top);
	free(p->sub_bottom);
	free(p->group_start);
	free(p->dm_nominal);
	free(p->group_span);
	free(p->sub_work);
}

static void
add_row(float *restrict acc, const float *restrict row, size_t n)
{
	size_t t;

#pragma omp simd
	for (t = 0; t < n; t++)
		acc[t] += row[t];
}

/* Step 1 for group g: nsub series of len samples into x. */
static void
step1(const struct sps_dedisp_plan *p, int g, const float *level,
    size_t nlev, float *x, size_t len)
{
	int c;

	memset(x, 0, (size_t)p->nsub * len * sizeof(float));
	for (c = 0; c < p->nlive; c++)
		add_row(x + (size_t)p->sub_of[c] * len,
		    level + (size_t)c * nlev + step1_shift(p, g, c), len);
}

/* Step 2: each trial of group g from the band series. */
static void
step2(const struct sps_dedisp_plan *p, int g, const float *x, size_t len,
    size_t n, float *out)
{
	int d, b;

	for (d = p->group_start[g]; d < p->group_start[g + 1]; d++) {
		float *o = out + p->offsets[d];

		memset(o, 0, n * sizeof(float));
		for (b = 0; b < p->nsub; b++)
			add_row(o, x + (size_t)b * len + step2_shift(p, d, b),
			    n);
	}
}

/* Floats of one thread's sub-band series for blocks of nout: the
 * largest group's. */
static size_t
series_floats(const struct sps_dedisp_plan *p, size_t nout)
{
	size_t need = 0;
	int g;

	for (g = 0; g < p->ngroups; g++) {
		size_t len = nout / (size_t)p->scrunch[p->group_start[g]] +
		    p->group_span[g];

		if ((size_t)p->nsub * len > need)
			need = (size_t)p->nsub * len;
	}
	return need;
}

size_t
sps_subband_work_bytes(const struct sps_dedisp_plan *p, size_t nout)
{
	return series_floats(p, nout) * (size_t)p->nthreads * sizeof(float);
}

enum sps_err
sps_subband_reserve(struct sps_dedisp_plan *p, size_t nout)
{
	size_t need = series_floats(p, nout);

	if (need > p->sub_work_len) {
		free(p->sub_work);
		p->sub_work = malloc(need * (size_t)p->nthreads *
		    sizeof(float));
		if (p->sub_work == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory for the "
			    "sub-band series (%zu MB)", need * p->nthreads *
			    sizeof(float) >> 20);
		p->sub_work_len = need;
	}
	return SPS_OK;
}

enum sps_err
sps_subband_execute(struct sps_dedisp_plan *p, size_t nin, size_t nout,
    float *out)
{
	enum sps_err e;
	long g;

	if ((e = sps_subband_reserve(p, nout)) != SPS_OK)
		return e;
#pragma omp parallel for num_threads(p->nthreads) schedule(dynamic, 1)
	for (g = 0; g < p->ngroups; g++) {
		int f = p->scrunch[p->group_start[g]];
		int lev = sps_ceil_log2(f);
		size_t n = nout / (size_t)f, len = n + p->group_span[g];
		float *x = p->sub_work + (size_t)omp_get_thread_num() *
		    p->sub_work_len;

		step1(p, (int)g, p->work + sps_dedisp_level_offset(p, nin, lev),
		    nin >> lev, x, len);
		step2(p, (int)g, x, len, n, out);
	}
	return SPS_OK;
}

enum sps_err
sps_subband_tables(const struct sps_dedisp_plan *p,
    struct sps_subband_tables *t)
{
	int g, c, d, b;

	memset(t, 0, sizeof(*t));
	if (p->nsub < 1)
		return sps_fail(SPS_EUSAGE, "not a sub-band plan");
	t->nsub = p->nsub;
	t->ngroups = p->ngroups;
	t->nlive = p->nlive;
	t->ndms = p->ndms;
	t->group_start = malloc(((size_t)p->ngroups + 1) * sizeof(int));
	t->band_first = malloc(((size_t)p->nsub + 1) * sizeof(int));
	t->step1 = malloc((size_t)p->ngroups * p->nlive * sizeof(int));
	t->step2 = malloc((size_t)p->ndms * p->nsub * sizeof(int));
	t->span = malloc((size_t)p->ngroups * sizeof(size_t));
	if (t->group_start == NULL || t->band_first == NULL ||
	    t->step1 == NULL || t->step2 == NULL || t->span == NULL) {
		sps_subband_tables_free(t);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	memcpy(t->group_start, p->group_start, ((size_t)p->ngroups + 1) *
	    sizeof(int));
	memcpy(t->span, p->group_span, (size_t)p->ngroups * sizeof(size_t));
	/* live channels come in channel order, so each band's are a run */
	for (b = 0, c = 0; b <= p->nsub; b++) {
		while (c < p->nlive && p->sub_of[c] < b)
			c++;
		t->band_first[b] = c;
	}
	for (g = 0; g < p->ngroups; g++)
		for (c = 0; c < p->nlive; c++)
			t->step1[(size_t)g * p->nlive + c] = (int)step1_shift(p,
			    g, c);
	for (d = 0; d < p->ndms; d++)
		for (b = 0; b < p->nsub; b++)
			t->step2[(size_t)d * p->nsub + b] = (int)step2_shift(p,
			    d, b);
	return SPS_OK;
}

void
sps_subband_tables_free(struct sps_subband_tables *t)
{
	free(t->group_start);
	free(t->band_first);
	free(t->step1);
	free(t->step2);
	free(t->span);
	memset(t, 0, sizeof(*t));
}

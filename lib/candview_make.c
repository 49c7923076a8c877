/* candview_make.c: the arrays of one candidate's window (candview.h),
 * dedispersed by the library's engine (dedisperse.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "candview_plan.h"
#include "dedisperse.h"

/* What one window's dedispersion is. */
struct cut {
	size_t	 nout;		/* base samples out: nbins * decimate */
	int	 f;		/* scrunch factor of the plans */
	int	 per;		/* scrunched samples a bin */
	float	 norm;		/* 1 / (decimate * channels used) */
};

/* Dedisperse nin spectra of in at dms (one scrunch factor), channels of
 * kill left out; the output in p->dd. */
static enum sps_err
dedisperse(struct sps_candview_plan *p, const struct cut *k,
    const double *dms, int ndm, const unsigned char *kill, const float *in,
    size_t nin, struct sps_dedisp_plan **dp)
{
	struct sps_dedisp_opts opts = { p->o.nthreads, 0, 0, SPS_ALGO_DIRECT };
	int *scrunch = malloc((size_t)ndm * sizeof(int)), i;
	enum sps_err e;

	if (scrunch == NULL)
		return sps_fail(SPS_ENOMEM, "no memory for %d trials", ndm);
	for (i = 0; i < ndm; i++)
		scrunch[i] = k->f;
	e = sps_dedisp_create(dp, &p->h, dms, scrunch, ndm, kill, &opts);
	free(scrunch);
	if (e != SPS_OK)
		return e;
	if (nin < k->nout + sps_dedisp_max_delay(*dp))
		return sps_fail(SPS_EVALUE, "a window of %zu spectra is short "
		    "of the %zu the delays need", nin, k->nout +
		    sps_dedisp_max_delay(*dp));
	return sps_dedisp_execute(*dp, in, nin, k->nout, p->dd);
}

/* nbins bins of a dedispersed series, each the sum of per samples
 * times norm. */
static void
bin_series(const float *series, const struct cut *k, int nbins, float *out)
{
	int b, j;

	for (b = 0; b < nbins; b++) {
		double sum = 0;

		for (j = 0; j < k->per; j++)
			sum += series[(size_t)b * (size_t)k->per + (size_t)j];
		out[b] = (float)(sum * k->norm);
	}
}

static enum sps_err
make_dm_time(struct sps_candview_plan *p, const struct sps_candview_window *w,
    const struct cut *k)
{
	struct sps_dedisp_plan *dp = NULL;
	int ndm = p->o.ndm, i;
	enum sps_err e;

	for (i = 0; i < ndm; i++)
		p->dms[i] = ndm == 1 ? w->dm_lo : w->dm_lo + (w->dm_hi -
		    w->dm_lo) * i / (ndm - 1);
	e = dedisperse(p, k, p->dms, ndm, NULL, p->win, w->count, &dp);
	for (i = 0; i < ndm && e == SPS_OK; i++)
		bin_series(p->dd + sps_dedisp_out_offset(dp, k->nout, i), k,
		    p->o.nbins, p->dm_time + (size_t)i * (size_t)p->o.nbins);
	sps_dedisp_free(dp);
	return e;
}

/* Sub-band b at the candidate's DM: a plan of its channels alone (the
 * engine's delays are behind the highest channel of the band, killed or
 * not, so the sub-bands line up). */
static enum sps_err
make_subband(struct sps_candview_plan *p, const struct sps_cand *c,
    const struct sps_candview_window *w, struct cut k, int b)
{
	struct sps_dedisp_plan *dp = NULL;
	float *row = p->freq_time + (size_t)b * (size_t)p->o.nbins;
	int used = 0, ch;
	enum sps_err e;

	memset(p->sub_kill, 1, (size_t)p->nchans);
	for (ch = p->sub_first[b]; ch < p->sub_first[b + 1]; ch++) {
		p->sub_kill[ch] = 0;
		used += !p->masked[ch];
	}
	p->sub_used[b] = (float)used / (float)(p->sub_first[b + 1] -
	    p->sub_first[b]);
	if (used == 0) {
		memset(row, 0, (size_t)p->o.nbins * sizeof(float));
		return SPS_OK;
	}
	k.norm /= (float)used;
	e = dedisperse(p, &k, &c->best.dm, 1, p->sub_kill, p->win, w->count,
	    &dp);
	if (e == SPS_OK)
		bin_series(p->dd, &k, p->o.nbins, row);
	sps_dedisp_free(dp);
	return e;
}

/* The profile: the sub-bands' rows weighted by their channels used. */
static void
make_profile(struct sps_candview_plan *p, int used)
{
	int b, j, n = p->o.nbins;

	memset(p->profile, 0, (size_t)n * sizeof(float));
	for (b = 0; b < p->nsub && used > 0; b++) {
		float weight = p->sub_used[b] * (float)(p->sub_first[b + 1] -
		    p->sub_first[b]) / (float)used;

		for (j = 0; j < n; j++)
			p->profile[j] += weight * p->freq_time[(size_t)b *
			    (size_t)n + (size_t)j];
	}
}

/* S/N of a boxcar of wb bins placed best within wb bins of the centre,
 * against the mean and rms of the bins more than 2 wb from it. */
static float
boxcar_snr(const float *x, int n, int centre, int wb)
{
	double s1 = 0, s2 = 0, best = -INFINITY, mean, sd, sum;
	int j, m = 0, s;

	for (j = 0; j < n; j++)
		if (abs(j - centre) > 2 * wb) {
			s1 += x[j];
			s2 += (double)x[j] * x[j];
			m++;
		}
	if (m < 2)
		return 0;
	mean = s1 / m;
	sd = sqrt(fmax(s2 / m - mean * mean, 0));
	for (s = centre - wb; s <= centre; s++) {
		if (s < 0 || s + wb > n)
			continue;
		for (sum = 0, j = s; j < s + wb; j++)
			sum += x[j];
		best = fmax(best, sum);
	}
	if (!(sd > 0) || !isfinite(best))
		return 0;
	return (float)((best - wb * mean) / (sd * sqrt(wb)));
}

static void
make_snr_dm(struct sps_candview_plan *p, const struct sps_cand *c, int d)
{
	int wb = (int)lround((double)c->best.width / d), i;

	wb = wb < 1 ? 1 : wb > p->o.nbins / 4 ? p->o.nbins / 4 : wb;
	if (wb < 1)
		wb = 1;
	for (i = 0; i < p->o.ndm; i++)
		p->snr_dm[i] = boxcar_snr(p->dm_time + (size_t)i *
		    (size_t)p->o.nbins, p->o.nbins, p->o.nbins / 2, wb);
}

static int
nearest_row(const struct sps_candview_plan *p, double dm)
{
	int i, best = 0;

	for (i = 1; i < p->o.ndm; i++)
		if (fabs(p->dms[i] - dm) < fabs(p->dms[best] - dm))
			best = i;
	return best;
}

static int
bins_outside(const struct sps_candview_plan *p, int64_t first, int d)
{
	int b, n = 0;

	for (b = 0; b < p->o.nbins; b++) {
		int64_t s = first + (int64_t)b * d;

		n += s < 0 || (p->nsamples != SPS_NSAMPLES_UNKNOWN &&
		    (uint64_t)(s + d) > p->nsamples);
	}
	return n;
}

static void
fill_view(struct sps_candview_plan *p, const struct sps_cand *c,
    const struct sps_candview_window *w, struct sps_candview *v)
{
	memset(v, 0, sizeof(*v));
	v->cand = c;
	v->nsub = p->nsub;
	v->nbins = p->o.nbins;
	v->ndm = p->o.ndm;
	v->decimate = w->decimate;
	v->tbin = w->decimate * p->h.tsamp;
	v->sample0 = w->first;
	v->t0 = (double)w->first * p->h.tsamp;
	v->centre_bin = p->o.nbins / 2;
	v->bins_outside = bins_outside(p, w->first, w->decimate);
	v->freq_time = p->freq_time;
	v->sub_freq = p->sub_freq;
	v->sub_used = p->sub_used;
	v->chan_masked = p->masked;
	v->profile = p->profile;
	v->dm_time = p->dm_time;
	v->dms = p->dms;
	v->dm_row = nearest_row(p, c->best.dm);
	v->snr_dm = p->snr_dm;
}

enum sps_err
sps_candview_make(struct sps_candview_plan *p, const struct sps_cand *c,
    const struct sps_candview_window *w, struct sps_candview *v)
{
	struct cut k;
	int used = 0, ch, b;
	enum sps_err e;

	for (ch = 0; ch < p->nchans; ch++)
		used += !p->masked[ch];
	k.nout = (size_t)p->o.nbins * (size_t)w->decimate;
	k.f = SPS_CANDVIEW_SCRUNCH(w->decimate);
	k.per = w->decimate / k.f;
	k.norm = 1.0f / (float)w->decimate;
	for (b = 0; b < p->nsub; b++)
		if ((e = make_subband(p, c, w, k, b)) != SPS_OK)
			return e;
	make_profile(p, used);
	if (used > 0)
		k.norm /= (float)used;
	if ((e = make_dm_time(p, w, &k)) != SPS_OK)
		return e;
	make_snr_dm(p, c, w->decimate);
	fill_view(p, c, w, v);
	return SPS_OK;
}

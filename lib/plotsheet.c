/* plotsheet.c: one candidate's sheet (plotsheet.h). */
#ifdef SPS_HAVE_CAIRO
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "plotsheet.h"
#include "robust.h"

/* What the panels share: the page, the time axis and the arrays made
 * fit to draw. */
struct sheet {
	struct sps_plot			*plot;
	const struct sps_candview	*v;
	const struct sps_sheet		*s;
	double	 W, H, font;
	double	 unit;		/* s per unit of the time axis */
	const char *unit_name;	/* "ms" or "s" */
	double	 tlo, thi;	/* the time axis, units from the centre */
	double	 box_lo, box_hi;	/* the boxcar, likewise */
	int	 zlo, zn;	/* the bins of the waterfall and profile: the
				 * middle quarter (at least 32), where the
				 * pulse is more than a line */
	double	 ztlo, zthi;	/* their time axis */
	float	*waterfall;	/* nsub x zn, low frequency row 0, sigma */
	unsigned char *masked;	/* nsub, in the waterfall's row order */
	double	 flo, fhi;	/* MHz, the band's edges */
	int	 flip;		/* 1: the view's row 0 is the top of the band */
	double	*profile;	/* nbins, sigma */
	float	*dmtime;	/* ndm x nbins, sigma */
};

static struct sps_plot_box
box(const struct sheet *sh, double x0, double y0, double x1, double y1)
{
	return sps_plot_box_at(sh->plot, x0, y0, x1, y1);
}

/* Median and robust sigma of n values (scratch: a copy is sorted). */
static void
noise_of(const float *x, size_t n, float *scratch, float *med, float *sig)
{
	memcpy(scratch, x, n * sizeof(*x));
	sps_median_sigma(scratch, n, med, sig);
	if (!(*sig > 0))
		*sig = 1;
}

static void
time_axis(struct sheet *sh)
{
	const struct sps_candview *v = sh->v;
	const struct sps_event *b = &v->cand->best;
	double tsamp = v->tbin / v->decimate;
	double centre = (double)(b->sample + (uint64_t)(b->width / 2)) * tsamp;
	double span = v->nbins * v->tbin;

	sh->unit = span > 2 ? 1 : 1e-3;
	sh->unit_name = span > 2 ? "s" : "ms";
	sh->tlo = (v->t0 - centre) / sh->unit;
	sh->thi = sh->tlo + span / sh->unit;
	sh->box_lo = ((double)b->sample * tsamp - centre) / sh->unit;
	sh->box_hi = sh->box_lo + b->width * tsamp / sh->unit;
	sh->zn = v->nbins / 4 > 32 ? v->nbins / 4 : v->nbins < 32 ? v->nbins :
	    32;
	sh->zlo = v->centre_bin - sh->zn / 2;
	if (sh->zlo < 0)
		sh->zlo = 0;
	if (sh->zlo + sh->zn > v->nbins)
		sh->zlo = v->nbins - sh->zn;
	sh->ztlo = sh->tlo + sh->zlo * v->tbin / sh->unit;
	sh->zthi = sh->ztlo + sh->zn * v->tbin / sh->unit;
}

/* Each sub-band in units of its own noise, low frequencies in row 0. */
static void
normalise_waterfall(struct sheet *sh, float *scratch)
{
	const struct sps_candview *v = sh->v;
	double half;
	int j, i;

	sh->flip = v->nsub > 1 && v->sub_freq[0] > v->sub_freq[v->nsub - 1];
	half = v->nsub > 1 ? fabs(v->sub_freq[1] - v->sub_freq[0]) / 2 :
	    fabs(sh->s->hdr->foff * sh->s->hdr->nchans) / 2;
	sh->flo = fmin(v->sub_freq[0], v->sub_freq[v->nsub - 1]) - half;
	sh->fhi = fmax(v->sub_freq[0], v->sub_freq[v->nsub - 1]) + half;
	for (j = 0; j < v->nsub; j++) {
		int row = sh->flip ? v->nsub - 1 - j : j;
		const float *in = v->freq_time + (size_t)j * v->nbins;
		float *out = sh->waterfall + (size_t)row * sh->zn;
		float med, sig;

		sh->masked[row] = !(v->sub_used[j] > 0);
		noise_of(in, (size_t)v->nbins, scratch, &med, &sig);
		for (i = 0; i < sh->zn; i++)
			out[i] = (in[sh->zlo + i] - med) / sig;
	}
}

static void
normalise_rest(struct sheet *sh, float *scratch)
{
	const struct sps_candview *v = sh->v;
	size_t n = (size_t)v->ndm * v->nbins, k;
	float med, sig;
	int i;

	noise_of(v->profile, (size_t)v->nbins, scratch, &med, &sig);
	for (i = 0; i < v->nbins; i++)
		sh->profile[i] = (v->profile[i] - med) / sig;
	noise_of(v->dm_time, n, scratch, &med, &sig);
	for (k = 0; k < n; k++)
		sh->dmtime[k] = (v->dm_time[k] - med) / sig;
}

static enum sps_err
prepare(struct sheet *sh)
{
	const struct sps_candview *v = sh->v;
	size_t nwf = (size_t)v->nsub * v->nbins, ndt = (size_t)v->ndm *
	    v->nbins;
	float *scratch = malloc((nwf > ndt ? nwf : ndt) * sizeof(float));

	sh->waterfall = malloc(nwf * sizeof(float));
	sh->masked = malloc((size_t)v->nsub);
	sh->profile = malloc((size_t)v->nbins * sizeof(double));
	sh->dmtime = malloc(ndt * sizeof(float));
	if (scratch == NULL || sh->waterfall == NULL || sh->masked == NULL ||
	    sh->profile == NULL || sh->dmtime == NULL) {
		free(scratch);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	time_axis(sh);
	normalise_waterfall(sh, scratch);
	normalise_rest(sh, scratch);
	free(scratch);
	return SPS_OK;
}

/* The range of colours: from the 1st percentile to the 99.7th of the
 * values of rows not masked. */
static void
colour_range(const float *x, size_t n, const unsigned char *masked,
    int ncols, double *lo, double *hi)
{
	float *keep = malloc(n * sizeof(float));
	size_t k, m = 0;

	*lo = -3;
	*hi = 5;
	if (keep == NULL)
		return;
	for (k = 0; k < n; k++)
		if ((masked == NULL || !masked[k / ncols]) && isfinite(x[k]))
			keep[m++] = x[k];
	if (m > 0) {
		*lo = sps_quantile(keep, m, 0.01);
		*hi = sps_quantile(keep, m, 0.997);
	}
	if (!(*hi > *lo))
		*hi = *lo + 1;
	free(keep);
}

static void
draw_profile(struct sheet *sh)
{
	struct sps_plot_panel pn;
	double lo = 0, hi = 0;
	int i;

	for (i = sh->zlo; i < sh->zlo + sh->zn; i++) {
		lo = fmin(lo, sh->profile[i]);
		hi = fmax(hi, sh->profile[i]);
	}
	sps_plot_panel_init(&pn, sh->plot, box(sh, 0.075, 0.07, 0.60, 0.22),
	    sps_plot_axis_of(sh->ztlo, sh->zthi, NULL, 8, 0),
	    sps_plot_axis_of(lo - 0.08 * (hi - lo), hi + 0.12 * (hi - lo),
	    "Flux (σ)", 4, 1));
	sps_plot_band(&pn, sh->box_lo, sh->box_hi, SPS_INK_RED);
	sps_plot_mark(&pn, 0, 0, SPS_INK_GREY);
	sps_plot_steps(&pn, sh->ztlo, (sh->zthi - sh->ztlo) / sh->zn,
	    sh->profile + sh->zlo, (size_t)sh->zn, SPS_INK);
	sps_plot_note(&pn, "boxcar", 1);
	sps_plot_frame(&pn);
}

static enum sps_err
draw_waterfall(struct sheet *sh)
{
	const struct sps_candview *v = sh->v;
	struct sps_plot_panel pn;
	char xlabel[64];
	double lo, hi;
	enum sps_err e;

	snprintf(xlabel, sizeof(xlabel), "Time from the pulse (%s)",
	    sh->unit_name);
	colour_range(sh->waterfall, (size_t)v->nsub * sh->zn, sh->masked,
	    sh->zn, &lo, &hi);
	sps_plot_panel_init(&pn, sh->plot, box(sh, 0.075, 0.225, 0.60, 0.58),
	    sps_plot_axis_of(sh->ztlo, sh->zthi, xlabel, 8, 1),
	    sps_plot_axis_of(sh->flo, sh->fhi, "Frequency (MHz)", 6, 1));
	e = sps_plot_image(&pn, sh->waterfall, sh->zn, v->nsub, lo, hi,
	    sh->s->cmap, sh->masked);
	sps_plot_frame(&pn);
	return e;
}

/* Beside the waterfall: each sub-band's S/N over the boxcar's bins. */
static void
draw_spectrum(struct sheet *sh)
{
	const struct sps_candview *v = sh->v;
	double *snr = malloc((size_t)v->nsub * sizeof(double));
	double *freq = malloc((size_t)v->nsub * sizeof(double));
	double dt = (sh->zthi - sh->ztlo) / sh->zn, lo = 0, hi = 0;
	struct sps_plot_panel pn;
	int i, j;

	if (snr == NULL || freq == NULL)
		goto done;
	for (j = 0; j < v->nsub; j++) {
		double sum = 0;
		int n = 0;

		for (i = 0; i < sh->zn; i++)
			if (sh->ztlo + (i + 1) * dt > sh->box_lo && sh->ztlo +
			    i * dt < sh->box_hi) {
				sum += sh->waterfall[(size_t)j * sh->zn + i];
				n++;
			}
		freq[j] = sh->flo + (j + 0.5) * (sh->fhi - sh->flo) / v->nsub;
		snr[j] = sh->masked[j] || n == 0 ? NAN : sum / sqrt(n);
		if (isfinite(snr[j])) {
			lo = fmin(lo, snr[j]);
			hi = fmax(hi, snr[j]);
		}
	}
	sps_plot_panel_init(&pn, sh->plot, box(sh, 0.61, 0.225, 0.68, 0.58),
	    sps_plot_axis_of(lo - 0.1 * (hi - lo + 1), hi + 0.1 * (hi - lo + 1),
	    "S/N", 3, 1), sps_plot_axis_of(sh->flo, sh->fhi, NULL, 6, 0));
	sps_plot_mark(&pn, 0, 1, SPS_INK_GREY);
	sps_plot_line(&pn, snr, freq, (size_t)v->nsub, SPS_INK, 1.2);
	sps_plot_frame(&pn);
done:
	free(snr);
	free(freq);
}

static enum sps_err
draw_bowtie(struct sheet *sh)
{
	const struct sps_candview *v = sh->v;
	double half = v->ndm > 1 ? (v->dms[1] - v->dms[0]) / 2 : 0.5;
	double dm = v->cand->best.dm, lo, hi;
	struct sps_plot_panel pn;
	char xlabel[64];
	enum sps_err e;

	snprintf(xlabel, sizeof(xlabel), "Time from the pulse (%s)",
	    sh->unit_name);
	colour_range(sh->dmtime, (size_t)v->ndm * v->nbins, NULL, v->nbins,
	    &lo, &hi);
	sps_plot_panel_init(&pn, sh->plot, box(sh, 0.075, 0.655, 0.60, 0.91),
	    sps_plot_axis_of(sh->tlo, sh->thi, xlabel, 8, 1),
	    sps_plot_axis_of(v->dms[0] - half, v->dms[v->ndm - 1] + half,
	    "DM (pc cm⁻³)", 5, 1));
	e = sps_plot_image(&pn, sh->dmtime, v->nbins, v->ndm, lo, hi,
	    sh->s->cmap, NULL);
	sps_plot_span(&pn, sh->ztlo, sh->zthi);
	/* the candidate's DM, at the edges only: the bow tie's waist
	 * stays in view */
	sps_plot_text(sh->plot, pn.box.x + pn.box.w + 2, sps_plot_py(&pn, dm) +
	    sh->font * 0.35, "◀ DM", sh->font, 0, 0);
	sps_plot_frame(&pn);
	return e;
}

static void
draw_snr_dm(struct sheet *sh)
{
	const struct sps_candview *v = sh->v;
	double *dms = malloc((size_t)v->ndm * sizeof(double));
	double *snr = malloc((size_t)v->ndm * sizeof(double));
	double lo = 0, hi = 1, best = -INFINITY, at = v->cand->best.dm;
	struct sps_plot_panel pn;
	char note[64];
	int i;

	if (dms == NULL || snr == NULL)
		goto done;
	for (i = 0; i < v->ndm; i++) {
		dms[i] = v->dms[i];
		snr[i] = v->snr_dm[i];
		lo = fmin(lo, snr[i]);
		hi = fmax(hi, snr[i]);
		if (snr[i] > best) {
			best = snr[i];
			at = dms[i];
		}
	}
	sps_plot_panel_init(&pn, sh->plot, box(sh, 0.74, 0.655, 0.97, 0.91),
	    sps_plot_axis_of(v->dms[0], v->dms[v->ndm - 1], "DM (pc cm⁻³)", 5, 1),
	    sps_plot_axis_of(lo, hi + 0.1 * (hi - lo), "S/N", 5, 1));
	sps_plot_mark(&pn, v->cand->best.dm, 1, SPS_INK_RED);
	sps_plot_line(&pn, dms, snr, (size_t)v->ndm, SPS_INK_BLUE, 1.5);
	snprintf(note, sizeof(note), "peak %.1f at DM %.4g", best, at);
	sps_plot_note(&pn, note, 0);
	sps_plot_frame(&pn);
done:
	free(dms);
	free(snr);
}

static void
draw_title(struct sheet *sh)
{
	const struct sps_event *b = &sh->v->cand->best;
	char title[256];
	int n = 0;

	if (sh->s->rank > 0)
		n = snprintf(title, sizeof(title), "Candidate %zu of %zu:  ",
		    sh->s->rank, sh->s->nranked);
	snprintf(title + n, sizeof(title) - (size_t)n, "DM %.2f pc cm⁻³,  "
	    "S/N %.1f,  %.4f s,  width %.3g ms", b->dm, b->snr,
	    (double)b->sample * sh->v->tbin / sh->v->decimate, b->width *
	    sh->v->tbin / sh->v->decimate * 1e3);
	sps_plot_text(sh->plot, 0.075 * sh->W, 0.045 * sh->H, title,
	    sh->font * 1.35, 0, 1);
}

static void
release(struct sheet *sh)
{
	free(sh->waterfall);
	free(sh->masked);
	free(sh->profile);
	free(sh->dmtime);
}

enum sps_err
sps_plot_sheet(const char *path, const struct sps_candview *v,
    const struct sps_sheet *s)
{
	struct sheet sh = { .v = v, .s = s, .W = s->width, .H = s->height };
	enum sps_err e;

	if ((e = prepare(&sh)) != SPS_OK ||
	    (e = sps_plot_open(&sh.plot, path, s->width, s->height)) != SPS_OK) {
		release(&sh);
		return e;
	}
	sh.font = sps_plot_font(sh.plot);
	draw_title(&sh);
	draw_profile(&sh);
	if ((e = draw_waterfall(&sh)) == SPS_OK)
		e = draw_bowtie(&sh);
	draw_spectrum(&sh);
	draw_snr_dm(&sh);
	sps_sheet_text(sh.plot, v, s, 0.74 * sh.W, 0.085 * sh.H, 0.23 * sh.W);
	release(&sh);
	if (e != SPS_OK) {
		sps_plot_abort(sh.plot);
		return e;
	}
	return sps_plot_close(sh.plot);
}
#endif

/* plotoverview.c: the overview of a search's candidates
 * (plotoverview.h). */
#ifdef SPS_HAVE_CAIRO
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "plotoverview.h"

#define NBINS	40	/* bins of each histogram */

struct columns {
	size_t	 n;
	double	*time, *dm, *snr, *radius;
	double	 tmax, dmax, smin, smax;
};

static enum sps_err
columns_of(struct columns *k, const struct sps_cand *c, size_t n,
    double tobs)
{
	size_t i;

	k->n = n;
	k->time = malloc((n + 1) * 4 * sizeof(double));
	if (k->time == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	k->dm = k->time + n + 1;
	k->snr = k->dm + n + 1;
	k->radius = k->snr + n + 1;
	k->tmax = tobs;
	k->dmax = 0;
	k->smin = n > 0 ? INFINITY : 0;
	k->smax = n > 0 ? -INFINITY : 10;
	for (i = 0; i < n; i++) {
		k->time[i] = c[i].best.time;
		k->dm[i] = c[i].best.dm;
		k->snr[i] = c[i].best.snr;
		k->tmax = fmax(k->tmax, k->time[i]);
		k->dmax = fmax(k->dmax, k->dm[i]);
		k->smin = fmin(k->smin, k->snr[i]);
		k->smax = fmax(k->smax, k->snr[i]);
	}
	return SPS_OK;
}

/* Circles whose area is in proportion to S/N, the brightest's radius
 * `largest', none smaller than 2.5. */
static void
radii(struct columns *k, double largest)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		k->radius[i] = fmax(2.5, largest * sqrt(fmax(k->snr[i], 0) /
		    k->smax));
}

/* A histogram of x over [lo, hi) in NBINS bins; the largest count. */
static double
histogram(const double *x, size_t n, double lo, double hi, double *count)
{
	double most = 0;
	size_t i;
	int b;

	memset(count, 0, NBINS * sizeof(*count));
	for (i = 0; i < n; i++) {
		b = (int)floor((x[i] - lo) / (hi - lo) * NBINS);
		count[b < 0 ? 0 : b >= NBINS ? NBINS - 1 : b]++;
	}
	for (b = 0; b < NBINS; b++)
		most = fmax(most, count[b]);
	return most;
}

static void
draw_histogram(struct sps_plot *p, struct sps_plot_box at, const double *x,
    size_t n, double lo, double hi, const char *label)
{
	struct sps_plot_panel pn;
	double count[NBINS], most = histogram(x, n, lo, hi, count);

	/* counts: at least 0 to 5, so that the ticks are whole numbers */
	sps_plot_panel_init(&pn, p, at, sps_plot_axis_of(lo, hi, label, 5, 1),
	    sps_plot_axis_of(0, fmax(most * 1.1, 5), "Candidates", 5, 1));
	sps_plot_bars(&pn, lo, (hi - lo) / NBINS, count, NBINS, SPS_INK_BLUE);
	sps_plot_frame(&pn);
}

static void
draw_snr_dm(struct sps_plot *p, const struct columns *k)
{
	struct sps_plot_panel pn;

	sps_plot_panel_init(&pn, p, sps_plot_box_at(p, 0.73, 0.08, 0.97, 0.36),
	    sps_plot_axis_of(0, k->dmax * 1.05 + 1, "DM (pc cm⁻³)", 5, 1),
	    sps_plot_axis_of(k->smin * 0.95, k->smax * 1.05 + 0.5, "S/N", 5,
	    1));
	sps_plot_markers(&pn, k->dm, k->snr, NULL, k->n, SPS_INK_BLUE);
	sps_plot_frame(&pn);
}

static void
draw_dm_time(struct sps_plot *p, struct columns *k, double largest)
{
	struct sps_plot_panel pn;

	sps_plot_panel_init(&pn, p, sps_plot_box_at(p, 0.07, 0.47, 0.97, 0.91),
	    sps_plot_axis_of(0, k->tmax > 0 ? k->tmax : 1, "Time (s)", 10, 1),
	    sps_plot_axis_of(0, k->dmax * 1.05 + 1, "DM (pc cm⁻³)", 6, 1));
	radii(k, largest);
	sps_plot_markers(&pn, k->time, k->dm, k->radius, k->n, SPS_INK);
	if (k->n == 0)
		sps_plot_note(&pn, "no candidates", 0);
	sps_plot_frame(&pn);
}

static void
draw_title(struct sps_plot *p, const struct sps_overview *o,
    const struct columns *k)
{
	double f = sps_plot_font(p);
	char text[512];

	snprintf(text, sizeof(text), "%s%s%s:  %zu candidates, S/N %.1f to "
	    "%.1f, DM up to %.1f pc cm⁻³", o->cand_name, o->data_name != NULL ?
	    " of " : "", o->data_name != NULL ? o->data_name : "", k->n,
	    k->smin, k->smax, k->dmax);
	sps_plot_text(p, 0.07 * o->width, 0.035 * o->height, text, f * 1.25, 0,
	    1);
	sps_plot_text(p, 0.07 * o->width, 0.965 * o->height, "Circle area "
	    "grows with S/N", f, 0, 0);
}

enum sps_err
sps_plot_overview(const char *path, const struct sps_cand *c, size_t n,
    const struct sps_overview *o)
{
	struct sps_plot *p;
	struct columns k = { 0 };
	enum sps_err e;

	if ((e = columns_of(&k, c, n, o->tobs)) != SPS_OK)
		return e;
	if ((e = sps_plot_open(&p, path, o->width, o->height)) != SPS_OK) {
		free(k.time);
		return e;
	}
	draw_title(p, o, &k);
	draw_histogram(p, sps_plot_box_at(p, 0.07, 0.08, 0.31, 0.36), k.snr, n,
	    floor(k.smin) - 1, ceil(k.smax) + 1, "S/N");
	draw_histogram(p, sps_plot_box_at(p, 0.40, 0.08, 0.64, 0.36), k.dm, n,
	    0, k.dmax * 1.05 + 1, "DM (pc cm⁻³)");
	draw_snr_dm(p, &k);
	draw_dm_time(p, &k, 0.025 * o->height);
	free(k.time);
	return sps_plot_close(p);
}
#endif

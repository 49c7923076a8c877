/* plotrun.c: candidates' sheets from one pass of reads (plotrun.h); the
 * drawing needs cairo, the choices and names do not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "candread.h"
#include "plotrun.h"

void
sps_plotrun_defaults(struct sps_plotrun_opts *o)
{
	memset(o, 0, sizeof(*o));
	sps_candview_defaults(&o->view);
	/* enough bins for the pulse to stand out and the window to hold
	 * the sweep of 0 to twice its DM (the bow tie's arms) */
	o->view.nsub = 64;
	o->view.nbins = 256;
	o->view.ndm = 128;
	o->view.decimate = SPS_CANDVIEW_DEC_FIT;
	o->view.dmrange = SPS_DMRANGE_SCALE;
	o->view.dm_lo = 0;
	o->view.dm_hi = 2;
	o->sheet.cmap = SPS_CMAP_VIRIDIS;
	o->sheet.width = SPS_SHEET_WIDTH;
	o->sheet.height = SPS_SHEET_HEIGHT;
	o->dir = ".";
	o->format = SPS_PLOT_PNG;
}

static const char *
suffix(enum sps_plot_format f)
{
	return f == SPS_PLOT_PDF ? "pdf" : f == SPS_PLOT_SVG ? "svg" : "png";
}

enum sps_err
sps_plotrun_name(char *buf, size_t len, const struct sps_plotrun_opts *o,
    const struct sps_cand *c, size_t rank, size_t nranked)
{
	int digits = snprintf(NULL, 0, "%zu", nranked), n;

	if (o->file != NULL)
		n = snprintf(buf, len, "%s", o->file);
	else
		n = snprintf(buf, len, "%s/cand_rank%0*zu_t%.4f_dm%.2f.%s",
		    o->dir, digits, rank, c->best.time, c->best.dm,
		    suffix(o->format));
	if (n < 0 || (size_t)n >= len)
		return sps_fail(SPS_EVALUE, "%s: the sheet's name is too long",
		    o->file != NULL ? o->file : o->dir);
	return SPS_OK;
}

enum sps_err
sps_plotrun_pick(const struct sps_candlist *l, const size_t *idx, size_t n,
    struct sps_cand **chosen)
{
	size_t i;

	if ((*chosen = malloc((n + 1) * sizeof(**chosen))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		(*chosen)[i] = l->cands[idx[i]];
	return SPS_OK;
}

#ifdef SPS_HAVE_CAIRO
struct drawing {
	const struct sps_plotrun_opts	*o;
	struct sps_sheet		 sheet;
	size_t				 first_rank;
};

static enum sps_err
draw_one(void *arg, const struct sps_candview *v)
{
	struct drawing *d = arg;
	size_t rank = d->first_rank + v->index;
	char path[4096];
	enum sps_err e;

	if ((e = sps_plotrun_name(path, sizeof(path), d->o, v->cand, rank,
	    d->sheet.nranked)) != SPS_OK)
		return e;
	d->sheet.rank = rank;
	if ((e = sps_plot_sheet(path, v, &d->sheet)) != SPS_OK)
		return e;
	if (d->o->on_sheet != NULL)
		d->o->on_sheet(path, rank);
	return SPS_OK;
}

enum sps_err
sps_plotrun(struct sps_reader *r, const struct sps_cand *c, size_t n,
    size_t first_rank, size_t nranked, const struct sps_plotrun_opts *o,
    struct sps_candview_stats *st)
{
	struct drawing d = { o, o->sheet, first_rank };
	struct sps_candview_opts view = o->view;
	struct sps_candview_plan *plan;
	enum sps_err e;

	if (view.nsub > r->hdr.nchans)
		view.nsub = r->hdr.nchans;
	d.sheet.hdr = &r->hdr;
	d.sheet.data_name = r->name;
	d.sheet.nranked = nranked;
	if ((e = sps_candview_create(&plan, &r->hdr, r->nsamples, &view)) !=
	    SPS_OK)
		return e;
	e = sps_candview_execute(plan, r, c, n, draw_one, &d);
	if (st != NULL)
		sps_candview_stats(plan, st);
	sps_candview_free(plan);
	return e;
}
#endif

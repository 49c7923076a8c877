/* plotsearch.c: a search's sheets and overview (plotsearch.h). */
#ifdef SPS_HAVE_CAIRO
#include <stdio.h>
#include <stdlib.h>

#include "candread.h"
#include "candset.h"
#include "killmask.h"
#include "plotoverview.h"
#include "plotrun.h"
#include "plotsearch.h"

static enum sps_err
sheets(struct sps_reader *r, const struct sps_candlist *l,
    const struct sps_plotsearch *o, const unsigned char *kill, size_t *n)
{
	struct sps_candsel sel;
	struct sps_plotrun_opts run;
	struct sps_cand *chosen;
	size_t *idx;
	enum sps_err e;

	sps_candsel_defaults(&sel);
	sel.top = o->top;
	if ((e = sps_candsel_apply(&sel, l, &idx, n)) != SPS_OK)
		return e;
	e = sps_plotrun_pick(l, idx, *n, &chosen);
	free(idx);
	if (e != SPS_OK)
		return e;
	sps_plotrun_defaults(&run);
	run.view.kill = kill;
	run.view.clean = o->clean;
	run.dir = o->dir;
	run.sheet.cand_name = o->cands;
	run.sheet.settings = o->settings;
	e = sps_plotrun(r, chosen, *n, 1, l->n, &run, NULL);
	free(chosen);
	return e;
}

static enum sps_err
overview(const struct sps_reader *r, const struct sps_candlist *l,
    const struct sps_plotsearch *o)
{
	struct sps_overview ov = { o->cands, o->data, 0, SPS_SHEET_WIDTH,
	    SPS_SHEET_HEIGHT };
	enum sps_err e;
	char *path;

	if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
		ov.tobs = (double)r->nsamples * r->hdr.tsamp;
	if (asprintf(&path, "%s/overview.png", o->dir) < 0)
		return sps_fail(SPS_ENOMEM, "out of memory");
	e = sps_plot_overview(path, l->cands, l->n, &ov);
	free(path);
	return e;
}

enum sps_err
sps_plot_search(const struct sps_plotsearch *o, size_t *nsheets)
{
	struct sps_candlist l;
	struct sps_reader r;
	unsigned char *kill = NULL;
	enum sps_err e;

	*nsheets = 0;
	if ((e = sps_candset_dir(o->dir)) != SPS_OK ||
	    (e = sps_candview_open(&r, o->data)) != SPS_OK)
		return e;
	if ((e = sps_candread(o->cands, r.hdr.tsamp, &l)) != SPS_OK) {
		sps_reader_close(&r);
		return e;
	}
	e = sps_killmask_make(o->killfile, o->ignorechan, &r.hdr, &kill);
	if (e == SPS_OK && o->top > 0 && l.n > 0)
		e = sheets(&r, &l, o, kill, nsheets);
	if (e == SPS_OK)
		e = overview(&r, &l, o);
	free(kill);
	sps_candlist_free(&l);
	sps_reader_close(&r);
	return e;
}
#endif

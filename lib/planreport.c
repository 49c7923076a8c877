/* planreport.c: what sps-plan shows of a plan (planreport.h). */
#include <math.h>
#include <stdlib.h>

#include "planfile.h"
#include "planreport.h"

/* How the plan was made, for the plan file's comment. */
static void
describe(FILE *f, const struct sps_plan_recipe *r,
    const struct sps_header *h)
{
	struct sps_ddplan_opts dd;
	double diag = 0;

	fprintf(f, "made by sps-plan %s: ", SPS_VERSION);
	switch (r->mode) {
	case SPS_PLAN_DEDISP:
		fprintf(f, "dedisp list, --dm %g %g --dm_tol %g "
		    "--dm_pulse_width %g", r->dm_lo, r->dm_hi, r->tol,
		    r->width_us);
		break;
	case SPS_PLAN_DDPLAN:
		sps_plan_ddplan_opts(r, &dd);
		fprintf(f, "DDplan, --loDM %g --hiDM %g --blocklen %d "
		    "--subbands %d --procs %d --cohdm %g --res %g", dd.lodm,
		    dd.hidm, dd.blocklen, dd.numsub, dd.numprocs, dd.cohdm,
		    dd.res);
		break;
	case SPS_PLAN_STEP:
		fprintf(f, "%d --step range%s", r->nsteps, r->nsteps > 1 ? "s" :
		    "");
		break;
	case SPS_PLAN_LIST:
		fprintf(f, "--list %s", r->list);
		break;
	}
	if (r->scrunch && sps_diagonal_dm(h, 1, &diag) == SPS_OK)
		fprintf(f, "\nscrunch factors from the diagonal DM %.6g "
		    "(largest %d)", diag, r->max_scrunch);
}

enum sps_err
sps_plan_write_made(FILE *f, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r)
{
	char *comment = NULL;
	size_t len = 0;
	enum sps_err e;
	FILE *text;

	if ((text = open_memstream(&comment, &len)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	describe(text, r, &m->obs);
	fclose(text);
	e = sps_plan_write(f, &m->plan, comment);
	free(comment);
	return e;
}

/* Members of the JSON object besides the plan's own. */
static void
json_summary(FILE *f, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r)
{
	const struct sps_header *h = &m->obs;
	struct sps_plan_memory mem;
	double diag = 0;

	sps_diagonal_dm(h, 1, &diag);
	sps_plan_memory(&m->plan, h, (size_t)r->gulp, r->nsub, &mem);
	fprintf(f, "\"mode\": \"%s\", \"diagonal_dm\": %.10g, "
	    "\"work_per_second\": %.10g, \"nsamps_gulp\": %lld, "
	    "\"max_delay\": %zu, \"memory_bytes\": %.0f",
	    sps_plan_mode_name(r->mode), diag, sps_plan_work(&m->plan, h,
	    1.0 / h->tsamp, r->nsub, 0), r->gulp, mem.max_delay, mem.total);
	if (m->nlines > 0) {
		fprintf(f, ",\n \"ddplan\": ");
		sps_ddplan_json(f, m->lines, m->nlines);
	}
}

enum sps_err
sps_plan_json_made(FILE *f, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r)
{
	char *extra = NULL;
	size_t len = 0;
	enum sps_err e;
	FILE *text;

	if ((text = open_memstream(&extra, &len)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	json_summary(text, m, r);
	fclose(text);
	e = sps_plan_json(f, &m->plan, m->ranges, m->nranges, extra);
	free(extra);
	return e;
}

static double
ms(double s)
{
	return 1e3 * s;
}

/* The fraction of a matched boxcar's S/N that a pulse of width w keeps
 * when smeared by total (both s). */
static double
snr_kept(double w, double total)
{
	return sqrt(w / sqrt(w * w + total * total));
}

/* The S/N is shown for widths the search covers: its narrowest boxcar,
 * one sample of the range, and a typical burst. */
static void
report_ranges(FILE *f, const struct sps_plan_range *r, size_t n)
{
	size_t i;

	fprintf(f, "%10s %10s %7s %9s %9s %4s %8s %8s %8s %8s %8s %7s %8s\n",
	    "DM lo", "DM hi", "trials", "step min", "step max", "scr",
	    "t_scr", "t_step", "t_chan", "t_sub", "total", "S/N(b)",
	    "S/N(1ms)");
	for (i = 0; i < n; i++, r++)
		fprintf(f, "%10.3f %10.3f %7zu %9.4g %9.4g %4d %8.4g %8.4g "
		    "%8.4g %8.4g %8.4g %6.1f%% %7.1f%%\n", r->dm_lo, r->dm_hi,
		    r->count, r->step_min, r->step_max, r->scrunch,
		    ms(r->t_scrunch), ms(r->t_step), ms(r->t_chan),
		    ms(r->t_sub), ms(r->t_total), 100 * snr_kept(r->t_scrunch,
		    r->t_total), 100 * snr_kept(SPS_PLAN_TYPICAL_WIDTH,
		    r->t_total));
}

void
sps_plan_report(FILE *f, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r)
{
	const struct sps_header *h = &m->obs;
	const struct sps_plan *p = &m->plan;
	double ftop = h->foff < 0 ? h->fch1 : h->fch1 + (h->nchans - 1) *
	    h->foff, diag = 0, per_s;
	struct sps_plan_memory mem;

	if (m->nlines > 0)
		sps_ddplan_print(f, m->lines, m->nlines, r->nsub);
	sps_diagonal_dm(h, 1, &diag);
	fprintf(f, "sps-plan: %zu trials, DM %g to %g (%s)\n", p->ntrials,
	    p->dm[0], p->dm[p->ntrials - 1], sps_plan_mode_name(r->mode));
	fprintf(f, "sps-plan: %d channels, %g to %g MHz, tsamp %g us, "
	    "diagonal DM %.4g\n", h->nchans, ftop, ftop - (h->nchans - 1) *
	    fabs(h->foff), 1e6 * h->tsamp, diag);
	fprintf(f, "sps-plan: smearing in ms%s; S/N kept by a pulse as wide "
	    "as the narrowest boxcar (b = tsamp x scr) and by a %g ms "
	    "pulse:\n", r->nsub > 0 ? ", with sub-bands" : "",
	    ms(SPS_PLAN_TYPICAL_WIDTH));
	report_ranges(f, m->ranges, m->nranges);
	per_s = sps_plan_work(p, h, 1.0 / h->tsamp, r->nsub, 0);
	fprintf(f, "sps-plan: work %.4g channel additions per second of "
	    "data", per_s);
	if (m->nsamples >= 0)
		fprintf(f, ", %.4g for %.0f samples", sps_plan_work(p, h,
		    m->nsamples, r->nsub, 0), m->nsamples);
	sps_plan_memory(p, h, (size_t)r->gulp, r->nsub, &mem);
	fprintf(f, "\nsps-plan: memory %.4g MiB for blocks of %lld samples: "
	    "input %.4g (%zu samples of overlap), scrunched %.4g, sub-band "
	    "%.4g, output %.4g\n", mem.total / 1048576, r->gulp,
	    mem.input / 1048576, mem.max_delay, mem.scrunched / 1048576,
	    mem.subband / 1048576, mem.output / 1048576);
}

/* planreport.c: what sps-plan shows of a plan (planreport.h). */
#include <math.h>
#include <stdlib.h>

#include "planfile.h"
#include "planreport.h"
#include "stagemem.h"

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

/* The memory of every stage of a search with the plan: sps-search's
 * settings, with the recipe's block and sub-bands. */
static enum sps_err
stage_memory(const struct sps_plan_made *m, const struct sps_plan_recipe *r,
    struct sps_stagemem *sm)
{
	struct sps_stagemem_opts o;

	sps_stagemem_defaults(&o);
	o.dedisp.block = (size_t)r->gulp;
	if (r->nsub > 0) {
		o.dedisp.plan.algo = SPS_ALGO_SUBBAND;
		o.dedisp.plan.nsub = r->nsub;
	}
	return sps_stagemem_predict(&m->obs, m->nsamples < 0 ?
	    SPS_NSAMPLES_UNKNOWN : (uint64_t)m->nsamples, &m->plan, &o, sm);
}

/* "memory": {"sps-dedisperse": {"cpu": B, "gpu_host": B, "gpu_device":
 * B}, ...}, in bytes. */
static void
json_memory(FILE *f, const struct sps_stagemem *sm)
{
	int i;

	fprintf(f, ", \"noise_window\": %zu, \"gpu_gulp\": %zu,\n "
	    "\"memory\": {", sm->window, sm->gulp);
	for (i = 0; i < SPS_NSTAGES; i++)
		fprintf(f, "%s\"%s\": {\"cpu\": %.0f, \"gpu_host\": %.0f, "
		    "\"gpu_device\": %.0f}", i > 0 ? ", " : "",
		    sps_stage_name(i), sm->stage[i].cpu, sm->stage[i].gpu_host,
		    sm->stage[i].gpu_device);
	fprintf(f, "}");
}

/* Members of the JSON object besides the plan's own. */
static enum sps_err
json_summary(FILE *f, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r)
{
	const struct sps_header *h = &m->obs;
	struct sps_stagemem sm;
	double diag = 0;
	enum sps_err e;

	sps_diagonal_dm(h, 1, &diag);
	if ((e = stage_memory(m, r, &sm)) != SPS_OK)
		return e;
	fprintf(f, "\"mode\": \"%s\", \"diagonal_dm\": %.10g, "
	    "\"work_per_second\": %.10g, \"nsamps_gulp\": %zu, "
	    "\"max_delay\": %zu, \"memory_bytes\": %.0f",
	    sps_plan_mode_name(r->mode), diag, sps_plan_work(&m->plan, h,
	    1.0 / h->tsamp, r->nsub, 0), sm.block, sm.max_delay,
	    sm.stage[SPS_STAGE_DEDISPERSE].cpu);
	json_memory(f, &sm);
	if (m->nlines > 0) {
		fprintf(f, ",\n \"ddplan\": ");
		sps_ddplan_json(f, m->lines, m->nlines);
	}
	return SPS_OK;
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
	e = json_summary(text, m, r);
	fclose(text);
	if (e == SPS_OK)
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

static double
mib(double bytes)
{
	return bytes / 1048576;
}

/* The table of every stage's memory, MiB. */
static void
report_memory(FILE *f, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r)
{
	struct sps_stagemem sm;
	int i;

	if (stage_memory(m, r, &sm) != SPS_OK) {
		fprintf(f, "sps-plan: memory: %s\n", sps_errmsg());
		return;
	}
	fprintf(f, "sps-plan: memory in MiB, blocks of %zu samples + %zu of "
	    "overlap, noise windows of %zu, %d threads, GPU gulps of %zu",
	    sm.block, sm.max_delay, sm.window, sm.nthreads, sm.gulp);
	if (sm.nbits_assumed > 0)
		fprintf(f, ", %d-bit data assumed", sm.nbits_assumed);
	fprintf(f, ":\n");
	fprintf(f, "%16s %10s %10s %10s\n", "stage", "CPU", "GPU host",
	    "GPU device");
	for (i = 0; i < SPS_NSTAGES; i++)
		fprintf(f, "%16s %10.1f %10.1f %10.1f\n", sps_stage_name(i),
		    mib(sm.stage[i].cpu), mib(sm.stage[i].gpu_host),
		    mib(sm.stage[i].gpu_device));
}

void
sps_plan_report(FILE *f, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r)
{
	const struct sps_header *h = &m->obs;
	const struct sps_plan *p = &m->plan;
	double ftop = h->foff < 0 ? h->fch1 : h->fch1 + (h->nchans - 1) *
	    h->foff, diag = 0, per_s;

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
	fprintf(f, "\n");
	report_memory(f, m, r);
}

/* planmake.c: how sps-plan makes a plan (planmake.h). */
#include <stdlib.h>
#include <string.h>

#include "dedisp_engine.h"
#include "planmake.h"

void
sps_plan_recipe_defaults(struct sps_plan_recipe *r)
{
	memset(r, 0, sizeof(*r));
	r->mode = SPS_PLAN_DEDISP;
	r->dm_hi = 1000;		/* Heimdall's -dm 0 1000 */
	r->tol = 1.25;
	r->width_us = 40;
	r->max_scrunch = SPS_PLAN_MAX_SCRUNCH;
	r->gulp = SPS_DEDISP_BLOCK;
	r->nsamples = -1;
	sps_ddplan_defaults(&r->dd);
}

const char *
sps_plan_mode_name(enum sps_plan_mode mode)
{
	static const char *const names[] = { "dedisp", "ddplan", "step",
	    "list" };

	return names[mode];
}

void
sps_plan_ddplan_opts(const struct sps_plan_recipe *r,
    struct sps_ddplan_opts *dd)
{
	*dd = r->dd;
	if (r->dm_given) {
		dd->lodm = r->dm_lo;
		dd->hidm = r->dm_hi;
	}
	dd->numsub = r->nsub;
}

void
sps_plan_made_init(struct sps_plan_made *m)
{
	memset(m, 0, sizeof(*m));
	sps_plan_init(&m->plan);
	sps_header_init(&m->obs);
	m->nsamples = -1;
}

void
sps_plan_made_free(struct sps_plan_made *m)
{
	sps_plan_free(&m->plan);
	sps_header_free(&m->obs);
	free(m->ranges);
	free(m->lines);
	sps_plan_made_init(m);
}

static int
ddplan_obs(const struct sps_plan_recipe *r)
{
	return r->mode == SPS_PLAN_DDPLAN || r->dd_given != 0;
}

unsigned
sps_plan_obs_known(const struct sps_plan_recipe *r,
    const struct sps_plan_made *m)
{
	if (m->plan.has_obs || ddplan_obs(r))
		return SPS_PLAN_OBS_ALL;
	return r->obs_given;
}

/* Where the observation comes from without data. */
static void
observation_without_data(const struct sps_plan_recipe *r,
    const struct sps_plan *listed, struct sps_header *h)
{
	if (listed->has_obs) {
		h->nchans = listed->nchans;
		h->fch1 = listed->fch1;
		h->foff = listed->foff;
		h->tsamp = listed->tsamp;
	} else if (ddplan_obs(r))
		sps_ddplan_default_header(h);
}

static void
apply_obs_options(const struct sps_plan_recipe *r, struct sps_header *h)
{
	if (r->obs_given & SPS_PLAN_NCHANS)
		h->nchans = r->nchans;
	if (r->obs_given & SPS_PLAN_FCH1)
		h->fch1 = r->fch1;
	if (r->obs_given & SPS_PLAN_FOFF)
		h->foff = r->foff;
	if (r->obs_given & SPS_PLAN_TSAMP)
		h->tsamp = r->tsamp;
}

enum sps_err
sps_plan_observation(const struct sps_plan_recipe *r, int from_data,
    struct sps_plan_made *m)
{
	enum sps_err e;

	if (!from_data)
		observation_without_data(r, &m->plan, &m->obs);
	if (r->dd_given != 0)
		sps_ddplan_obs_apply(&m->obs, &r->dd_obs, r->dd_given);
	apply_obs_options(r, &m->obs);
	if ((e = sps_plan_check_obs(&m->obs)) != SPS_OK)
		return sps_fail(e, "observation: %s", sps_errmsg());
	if (r->nsamples >= 0)
		m->nsamples = r->nsamples;
	return SPS_OK;
}

static enum sps_err
make_ddplan(struct sps_plan_made *m, const struct sps_plan_recipe *r)
{
	struct sps_ddplan_opts dd;
	struct sps_ddplan_obs obs;
	enum sps_err e;

	sps_plan_ddplan_opts(r, &dd);
	sps_ddplan_obs_from_header(&obs, &m->obs);
	if ((e = sps_ddplan(&obs, &dd, &m->lines, &m->nlines)) != SPS_OK)
		return e;
	return sps_plan_add_ddplan(&m->plan, m->lines, m->nlines,
	    dd.blocklen);
}

static enum sps_err
make_steps(struct sps_plan *p, const struct sps_plan_recipe *r)
{
	enum sps_err e;
	int i;

	for (i = 0; i < r->nsteps; i++)
		if ((e = sps_plan_steps(p, r->steps[i].start, r->steps[i].step,
		    r->steps[i].count, 1)) != SPS_OK)
			return sps_fail(e, "--step: %s", sps_errmsg());
	return SPS_OK;
}

static enum sps_err
make_trials(struct sps_plan_made *m, const struct sps_plan_recipe *r)
{
	switch (r->mode) {
	case SPS_PLAN_DEDISP:
		return sps_plan_dedisp(&m->plan, &m->obs, r->dm_lo, r->dm_hi,
		    r->width_us, r->tol);
	case SPS_PLAN_DDPLAN:
		return make_ddplan(m, r);
	case SPS_PLAN_STEP:
		return make_steps(&m->plan, r);
	case SPS_PLAN_LIST:
		break;
	}
	return SPS_OK;
}

enum sps_err
sps_plan_make(struct sps_plan_made *m, const struct sps_plan_recipe *r)
{
	enum sps_err e;

	if ((e = make_trials(m, r)) != SPS_OK)
		return e;
	if (r->scrunch && (e = sps_plan_scrunch(&m->plan, &m->obs,
	    r->max_scrunch)) != SPS_OK)
		return e;
	if ((e = sps_plan_check(&m->plan)) != SPS_OK)
		return e;
	sps_plan_set_obs(&m->plan, &m->obs);
	return sps_plan_ranges(&m->plan, &m->obs, r->nsub, 0, &m->ranges,
	    &m->nranges);
}

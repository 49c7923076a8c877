/* planmake.c: how sps-plan makes a plan (planmake.h). */
#include <stdlib.h>
#include <string.h>

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
	r->gulp = SPS_PLAN_GULP;
	sps_ddplan_defaults(&r->dd);
}

const char *
sps_plan_mode_name(enum sps_plan_mode mode)
{
	static const char *const names[] = { "dedisp", "ddplan", "step",
	    "list" };

	return names[mode];
}

int
sps_plan_ddplan_obs(const struct sps_plan_recipe *r)
{
	return r->mode == SPS_PLAN_DDPLAN || r->dd_given != 0;
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
	} else if (sps_plan_ddplan_obs(r))
		sps_ddplan_default_header(h);
}

enum sps_err
sps_plan_observation(const struct sps_plan_recipe *r,
    const struct sps_plan *listed, int from_data, struct sps_header *h)
{
	enum sps_err e;

	if (!from_data)
		observation_without_data(r, listed, h);
	if (r->dd_given != 0)
		sps_ddplan_obs_apply(h, &r->dd_obs, r->dd_given);
	apply_obs_options(r, h);
	if ((e = sps_plan_check_obs(h)) != SPS_OK)
		return sps_fail(e, "observation: %s", sps_errmsg());
	return SPS_OK;
}

static enum sps_err
make_ddplan(struct sps_plan *p, const struct sps_plan_recipe *r,
    const struct sps_header *h, struct sps_ddplan_line **lines, int *nlines)
{
	struct sps_ddplan_obs obs;
	enum sps_err e;

	sps_ddplan_obs_from_header(&obs, h);
	if ((e = sps_ddplan(&obs, &r->dd, lines, nlines)) != SPS_OK)
		return e;
	return sps_plan_add_ddplan(p, *lines, *nlines, r->dd.blocklen);
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
make_trials(struct sps_plan *p, const struct sps_plan_recipe *r,
    const struct sps_header *h, struct sps_ddplan_line **lines, int *nlines)
{
	switch (r->mode) {
	case SPS_PLAN_DEDISP:
		return sps_plan_dedisp(p, h, r->dm_lo, r->dm_hi, r->width_us,
		    r->tol);
	case SPS_PLAN_DDPLAN:
		return make_ddplan(p, r, h, lines, nlines);
	case SPS_PLAN_STEP:
		return make_steps(p, r);
	case SPS_PLAN_LIST:
		break;
	}
	return SPS_OK;
}

enum sps_err
sps_plan_make(struct sps_plan *p, const struct sps_plan_recipe *r,
    const struct sps_header *h, struct sps_ddplan_line **lines, int *nlines)
{
	enum sps_err e;

	*lines = NULL;
	*nlines = 0;
	e = make_trials(p, r, h, lines, nlines);
	if (e == SPS_OK && r->scrunch)
		e = sps_plan_scrunch(p, h, r->max_scrunch);
	if (e == SPS_OK)
		e = sps_plan_check(p);
	if (e != SPS_OK) {
		free(*lines);
		*lines = NULL;
		*nlines = 0;
		return e;
	}
	sps_plan_set_obs(p, h);
	return SPS_OK;
}

/* planmake.h: how sps-plan makes a plan.
 *
 * A recipe names the generator of the trials (dedisp's list, DDplan.py,
 * fixed steps, or a list the caller reads with sps_plan_read), its
 * parameters, the observation options that change the data's header,
 * and the sub-bands and block size the predictions assume.
 * sps_plan_observation() works out the observation to plan for, and
 * sps_plan_make() the trials. */
#ifndef SPS_PLANMAKE_H
#define SPS_PLANMAKE_H

#include "ddplan.h"
#include "error.h"
#include "header.h"
#include "plan.h"

enum sps_plan_mode {
	SPS_PLAN_DEDISP, SPS_PLAN_DDPLAN, SPS_PLAN_STEP, SPS_PLAN_LIST
};

/* Bits of the observation options given (struct sps_plan_recipe). */
enum {
	SPS_PLAN_NCHANS = 1, SPS_PLAN_FCH1 = 2, SPS_PLAN_FOFF = 4,
	SPS_PLAN_TSAMP = 8, SPS_PLAN_OBS_ALL = 15
};

/* START + i * STEP, i < COUNT. */
struct sps_plan_step {
	double	 start, step;
	long	 count;
};

struct sps_plan_recipe {
	enum sps_plan_mode mode;
	double		 dm_lo, dm_hi;	/* dedisp's DM range */
	double		 tol;		/* dedisp's smearing tolerance */
	double		 width_us;	/* intrinsic pulse width, us */
	struct sps_ddplan_opts dd;
	struct sps_plan_step *steps;
	int		 nsteps;
	const char	*list;		/* the list's name */
	int		 scrunch;	/* scrunch factors from the diagonal DM */
	int		 max_scrunch;
	int		 nsub;		/* sub-bands the predictions assume */
	long long	 gulp;		/* block the memory estimate assumes */
	/* Observation options: those given replace the data's. */
	unsigned	 obs_given;	/* SPS_PLAN_NCHANS ... */
	int		 nchans;
	double		 fch1, foff;	/* MHz */
	double		 tsamp;		/* s */
	unsigned	 dd_given;	/* SPS_DDPLAN_FCTR ... */
	struct sps_ddplan_obs dd_obs;	/* DDplan.py's spellings */
};

/* Heimdall's dedisp list of DM 0-1000, tolerance 1.25, 40 us pulses,
 * DDplan.py's defaults, scrunch factors (when asked) up to
 * SPS_PLAN_MAX_SCRUNCH, blocks of SPS_PLAN_GULP, nothing given. */
void sps_plan_recipe_defaults(struct sps_plan_recipe *r);

/* The mode's name in the report and the JSON: dedisp, ddplan, step,
 * list. */
const char *sps_plan_mode_name(enum sps_plan_mode mode);

/* Does r take its observation from DDplan.py (its generator, or its
 * observation options)? */
int sps_plan_ddplan_obs(const struct sps_plan_recipe *r);

/* The observation to plan for, into h: the data's header, which h holds
 * when from_data, else the list's own (listed->has_obs), else DDplan.py's
 * default when sps_plan_ddplan_obs(r); then DDplan.py's observation
 * options, then sps's.  SPS_EVALUE ("observation: ...") when it cannot be
 * planned for (sps_plan_check_obs). */
enum sps_err sps_plan_observation(const struct sps_plan_recipe *r,
    const struct sps_plan *listed, int from_data, struct sps_header *h);

/* Append r's trials for the observation h to p (a list's are in p
 * already), set their scrunch factors if r asks, check the plan and
 * record h in it.  DDplan.py's lines are kept in *lines (malloc'd,
 * caller frees; NULL and 0 for the other generators). */
enum sps_err sps_plan_make(struct sps_plan *p, const struct sps_plan_recipe *r,
    const struct sps_header *h, struct sps_ddplan_line **lines, int *nlines);

#endif

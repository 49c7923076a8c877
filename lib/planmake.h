/* planmake.h: how sps-plan makes a plan.
 *
 * A recipe names the generator of the trials (dedisp's list, DDplan.py,
 * fixed steps, or a list the caller reads with sps_plan_read), its
 * parameters, the observation options that change the data's header,
 * and the sub-bands and block size the predictions assume.
 * sps_plan_observation() works out the observation to plan for, and
 * sps_plan_make() the trials and their ranges. */
#ifndef SPS_PLANMAKE_H
#define SPS_PLANMAKE_H

#include <stddef.h>

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
	int		 dm_given;	/* DDplan's too when given */
	double		 tol;		/* dedisp's smearing tolerance */
	double		 width_us;	/* intrinsic pulse width, us */
	struct sps_ddplan_opts dd;	/* see sps_plan_ddplan_opts */
	struct sps_plan_step *steps;
	int		 nsteps;
	const char	*list;		/* the list's name */
	int		 scrunch;	/* factors from the diagonal DM */
	int		 max_scrunch;
	int		 nsub;		/* sub-bands the predictions assume */
	long long	 gulp;		/* block the memory estimates assume */
	/* Observation options: those given replace the data's. */
	double		 nsamples;	/* the data's length, -1: theirs */
	unsigned	 obs_given;	/* SPS_PLAN_NCHANS ... */
	int		 nchans;
	double		 fch1, foff;	/* MHz */
	double		 tsamp;		/* s */
	unsigned	 dd_given;	/* SPS_DDPLAN_FCTR ... */
	struct sps_ddplan_obs dd_obs;	/* DDplan.py's spellings */
};

/* A plan as sps-plan makes and shows it. */
struct sps_plan_made {
	struct sps_plan	 plan;
	struct sps_header obs;		/* the observation it is for */
	double		 nsamples;	/* of the data, or -1: unknown */
	struct sps_plan_range *ranges;	/* sps_plan_ranges for r's nsub */
	size_t		 nranges;
	struct sps_ddplan_line *lines;	/* DDplan.py's, or NULL */
	int		 nlines;
};

/* Heimdall's dedisp list of DM 0-1000, tolerance 1.25, 40 us pulses,
 * DDplan.py's defaults, scrunch factors (when asked) up to
 * SPS_PLAN_MAX_SCRUNCH, blocks of SPS_DEDISP_BLOCK (sps-dedisperse's),
 * no observation options. */
void sps_plan_recipe_defaults(struct sps_plan_recipe *r);

/* The mode's name in the report and the JSON: dedisp, ddplan, step,
 * list. */
const char *sps_plan_mode_name(enum sps_plan_mode mode);

/* DDplan.py's options for r: r->dd with the DM range when given and
 * r's sub-bands. */
void sps_plan_ddplan_opts(const struct sps_plan_recipe *r,
    struct sps_ddplan_opts *dd);

void sps_plan_made_init(struct sps_plan_made *m);
void sps_plan_made_free(struct sps_plan_made *m);

/* What is known of the observation without data, as SPS_PLAN_NCHANS ...
 * bits: all of it when the list (m->plan.has_obs) or DDplan.py (its
 * generator or its observation options) gives it, else what the options
 * give. */
unsigned sps_plan_obs_known(const struct sps_plan_recipe *r,
    const struct sps_plan_made *m);

/* The observation to plan for, into m->obs: the data's header, which it
 * holds when from_data, else the list's own, else DDplan.py's default;
 * then DDplan.py's observation options, then sps's (r->nsamples into
 * m->nsamples too).  SPS_EVALUE ("observation: ...") when it cannot be
 * planned for (sps_plan_check_obs). */
enum sps_err sps_plan_observation(const struct sps_plan_recipe *r,
    int from_data, struct sps_plan_made *m);

/* Append r's trials for m->obs to m->plan (a list's are there already),
 * set their scrunch factors if r asks, check the plan, record the
 * observation in it and split it into ranges.  DDplan.py's lines are
 * kept in m->lines. */
enum sps_err sps_plan_make(struct sps_plan_made *m,
    const struct sps_plan_recipe *r);

#endif

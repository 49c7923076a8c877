/* plan.h: the DM trials sps-dedisperse computes.
 *
 * A plan is a list of trials {dm, scrunch}: DMs in pc cm^-3, strictly
 * ascending and not negative; scrunch, a power of 2, is the number of
 * input samples summed into one before the trial is dedispersed.  The
 * generators append trials:
 *
 *	sps_plan_dedisp		dedisp's list (Heimdall's --dm, --dm_tol)
 *	sps_plan_add_ddplan	the lines of PRESTO's DDplan.py (ddplan.h)
 *	sps_plan_steps		START + i * STEP, i < COUNT
 *	sps_plan_read		a text plan, or any list of DMs (planfile.h)
 *
 * and sps_plan_scrunch() sets each trial's factor from the diagonal DM
 * (Barsdell et al. 2012, section 2.1 and eq. 21).  sps_plan_check() says
 * whether a plan can be run.  Its text and JSON forms are in planfile.h. */
#ifndef SPS_PLAN_H
#define SPS_PLAN_H

#include <stddef.h>

#include "error.h"
#include "header.h"

#define SPS_PLAN_MAX_SCRUNCH	(1 << 30)

struct sps_ddplan_line;

struct sps_plan {
	size_t	 ntrials;
	double	*dm;		/* pc cm^-3 */
	int	*scrunch;	/* time-scrunch factor of each trial */
	size_t	 cap;		/* room in dm and scrunch */
	/* The observation the plan was made for: has_obs 0 when unknown. */
	int	 has_obs;
	int	 nchans;
	double	 fch1, foff;	/* MHz, as in the SIGPROC header */
	double	 tsamp;		/* s */
};

/* A run of trials with one scrunch factor and a smoothly varying DM step
 * (a step more than 10% off the one before, or more than twice the
 * range's first step, starts a new range), with the smearing predicted
 * for it.  Times in seconds, each the worst case in
 * the range: */
struct sps_plan_range {
	size_t	 first, count;	/* trials */
	double	 dm_lo, dm_hi;
	double	 step_min, step_max;	/* DM steps from each trial of the
					   range to the next trial */
	int	 scrunch;
	double	 t_samp;	/* tsamp */
	double	 t_scrunch;	/* tsamp * scrunch, the effective sample */
	double	 t_step;	/* half of step_max, across the band */
	double	 t_chan;	/* inside the lowest channel at dm_hi */
	double	 t_sub;		/* sub-band term (Barsdell eq. B1), or 0 */
	double	 t_total;	/* quadrature sum of the four above
				   (t_samp is inside t_scrunch) */
};

void sps_plan_init(struct sps_plan *p);
void sps_plan_free(struct sps_plan *p);

/* Append one trial (checked later by sps_plan_check). */
enum sps_err sps_plan_add(struct sps_plan *p, double dm, int scrunch);

/* Can a plan hold this scrunch factor: a power of 2 up to
 * SPS_PLAN_MAX_SCRUNCH? */
int sps_plan_scrunch_valid(long factor);

/* Record the observation h describes as the one the plan is for. */
void sps_plan_set_obs(struct sps_plan *p, const struct sps_header *h);

/* Is the plan runnable: at least one trial, every DM finite and >= 0,
 * strictly ascending, every scrunch factor a power of 2 up to
 * SPS_PLAN_MAX_SCRUNCH.  SPS_EVALUE naming the first bad trial. */
enum sps_err sps_plan_check(const struct sps_plan *p);

/* Was the plan made for the data h describes (nchans equal; fch1, foff
 * and tsamp within 1e-6 relative)?  SPS_OK also when the plan does not
 * say what it was made for. */
enum sps_err sps_plan_match(const struct sps_plan *p,
    const struct sps_header *h);

/* Check nchans, fch1, foff and tsamp of h for planning: SPS_EVALUE when
 * they are missing or absurd or the band reaches 0 MHz. */
enum sps_err sps_plan_check_obs(const struct sps_header *h);

/* dedisp's DM list (Heimdall's --dm LO HI --dm_tol T --dm_pulse_width US):
 * from dm_lo, each next DM lets the total smearing grow by the factor tol
 * (> 1), until one trial at or past dm_hi.  pulse_width_us is the
 * intrinsic width in microseconds.  Reproduces dedisp's
 * generate_dm_list (its float32 rounding and its constant 8.3 included),
 * with the band's top channel as dedisp's f0. */
enum sps_err sps_plan_dedisp(struct sps_plan *p, const struct sps_header *h,
    double dm_lo, double dm_hi, double pulse_width_us, double tol);

/* sps_plan_dedisp into an empty plan, then (max_scrunch > 1)
 * sps_plan_scrunch, then sps_plan_check: the plan of sps-dedisperse and
 * sps-search --dm LO HI. */
enum sps_err sps_plan_range(struct sps_plan *p, const struct sps_header *h,
    double dm_lo, double dm_hi, double pulse_width_us, double tol,
    int max_scrunch);

/* The plan in the file at path (planfile.h), checked against the data
 * h describes (sps_plan_match), then as sps_plan_range. */
enum sps_err sps_plan_load(struct sps_plan *p, const char *path,
    const struct sps_header *h, int max_scrunch);

/* START + i * STEP for i < count, all with the given scrunch factor. */
enum sps_err sps_plan_steps(struct sps_plan *p, double start, double step,
    long count, int scrunch);

/* Append the trials of DDplan lines (lodm + i * ddm, i < numdms, scrunch
 * = downsamp).  SPS_EVALUE when a factor is not a power of 2. */
enum sps_err sps_plan_add_ddplan(struct sps_plan *p,
    const struct sps_ddplan_line *lines, int nlines, int blocklen);

/* The diagonal DM of Barsdell eq. 21 for sub-bands of nsubchans channels
 * (1 for the direct algorithm): where the rounded delay across the last
 * nsubchans channels of the band reaches nsubchans samples. */
enum sps_err sps_diagonal_dm(const struct sps_header *h, int nsubchans,
    double *dm);

/* Set each trial's scrunch factor to the largest 2^k <= max_factor with
 * DM > 2^k * sps_diagonal_dm(h, 1) (1 below twice the diagonal).
 * max_factor: a power of 2. */
enum sps_err sps_plan_scrunch(struct sps_plan *p, const struct sps_header *h,
    int max_factor);

/* Split the plan into ranges and predict their smearing for data h.
 * nsub > 0 adds the sub-band term for nsub sub-bands with
 * dms_per_nominal trials per nominal DM (0: nchans / nsub, the balance of
 * Barsdell section 4.2).  *ranges is malloc'd; caller frees. */
enum sps_err sps_plan_ranges(const struct sps_plan *p,
    const struct sps_header *h, int nsub, int dms_per_nominal,
    struct sps_plan_range **ranges, size_t *nranges);

/* Sub-band smearing bound of Barsdell eq. B1, seconds: nominal DMs
 * dm_nominal_step apart, sub-bands of nsubchans channels. */
double sps_subband_smear(const struct sps_header *h, int nsubchans,
    double dm_nominal_step);

/* The delay (input samples) of the highest channel's signal in the
 * lowest channel: round(delay / (tsamp * f)) * f, largest over trials. */
size_t sps_plan_max_delay(const struct sps_plan *p,
    const struct sps_header *h);

/* Channel additions to dedisperse nsamples input samples: the direct
 * algorithm (nsub 0) adds nchans values per output sample of every
 * trial; the sub-band algorithm (Barsdell eq. 27-29) sums channels into
 * nsub sub-bands once per nominal DM, then the sub-bands per trial. */
double sps_plan_work(const struct sps_plan *p, const struct sps_header *h,
    double nsamples, int nsub, int dms_per_nominal);

#endif

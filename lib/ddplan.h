/* ddplan.h: PRESTO's DDplan.py (bin/DDplan.py, with its constants).
 *
 * DDplan covers a DM range with lines of constant DM step and
 * downsampling, each step and factor chosen so that no smearing term
 * grows much past the others; with sub-bands it also chooses the DM step
 * of the sub-band sums (mpiprepsubband's calls).  sps_plan_add_ddplan
 * (plan.h) turns the lines into DM trials. */
#ifndef SPS_DDPLAN_H
#define SPS_DDPLAN_H

#include <stdio.h>

#include "error.h"
#include "header.h"

#define SPS_DDPLAN_MAXDS	259	/* largest downsampling DDplan tries */

/* DDplan.py's observation and parameters (its option names). */
struct sps_ddplan_obs {
	double	 dt;		/* s */
	double	 fctr;		/* MHz, centre of the band */
	double	 bw;		/* MHz, nchan channel widths */
	int	 numchan;
};

struct sps_ddplan_opts {
	double	 lodm, hidm;	/* pc cm^-3 */
	int	 blocklen;	/* spectra per block: downsampling divides it */
	double	 cohdm;		/* coherent DM inside each channel */
	int	 numsub;	/* sub-bands, 0: none */
	int	 numprocs;	/* mpiprepsubband processes */
	double	 res;		/* acceptable smearing, ms (DDplan -r) */
};

/* One line of DDplan's table. */
struct sps_ddplan_line {
	double	 lodm, hidm, ddm;
	int	 downsamp;
	double	 dsubdm;
	int	 numdms;
	int	 dms_per_call, calls;	/* 0 without sub-bands */
	double	 work_fract;
};

/* DDplan.py's observation for the data h describes. */
void sps_ddplan_obs_from_header(struct sps_ddplan_obs *obs,
    const struct sps_header *h);

/* DDplan.py's defaults: DM 0-1000, blocklen 1024, no sub-bands. */
void sps_ddplan_defaults(struct sps_ddplan_opts *o);

/* DDplan.py's downsampling factors for blocks of blocklen spectra: the
 * divisors up to SPS_DDPLAN_MAXDS, thinned to a ladder with ratios of
 * about 1.5 to 2.  out holds SPS_DDPLAN_MAXDS; returns how many. */
int sps_ddplan_downsamps(int blocklen, int *out);

/* DDplan.py's plan.  Sets *lines (malloc'd, caller frees) and *nlines.
 * SPS_EVALUE when DDplan would run out of downsampling factors or DM
 * steps. */
enum sps_err sps_ddplan(const struct sps_ddplan_obs *obs,
    const struct sps_ddplan_opts *o, struct sps_ddplan_line **lines,
    int *nlines);

#endif

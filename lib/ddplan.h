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

/* Bits of a struct sps_ddplan_obs given by hand (sps_ddplan_obs_apply). */
enum {
	SPS_DDPLAN_FCTR = 1, SPS_DDPLAN_BW = 2, SPS_DDPLAN_NUMCHAN = 4,
	SPS_DDPLAN_DT = 8
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

/* The observation DDplan.py assumes without a file, as h's channels,
 * band and sampling: 1024 channels over 300 MHz centred on 1400 MHz
 * (descending), 64 us. */
void sps_ddplan_default_header(struct sps_header *h);

/* Change h's channels, band and sampling as DDplan.py reads its --fctr,
 * --bw, --numchan and --dt: the fields of set whose bits are in given
 * replace those of h's observation, and the band keeps h's direction. */
void sps_ddplan_obs_apply(struct sps_header *h,
    const struct sps_ddplan_obs *set, unsigned given);

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

/* DDplan.py's table of the lines, as it prints it, between blank lines;
 * with numsub > 0 the sub-band columns too. */
void sps_ddplan_print(FILE *f, const struct sps_ddplan_line *lines, int n,
    int numsub);

/* The lines as a JSON array, one object (DDplan's columns) a line. */
void sps_ddplan_json(FILE *f, const struct sps_ddplan_line *lines, int n);

#endif

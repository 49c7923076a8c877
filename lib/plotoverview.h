/* plotoverview.h: the overview of a search's candidates, as PRESTO's
 * single_pulse_search.py draws it: the number of candidates against S/N
 * and against DM, S/N against DM, and DM against time with each
 * candidate a circle whose area grows with its S/N.  Needs cairo. */
#ifndef SPS_PLOTOVERVIEW_H
#define SPS_PLOTOVERVIEW_H

#include <stddef.h>

#include "error.h"
#include "peaks.h"

struct sps_overview {
	const char	*cand_name;	/* the candidate file, for the title */
	const char	*data_name;	/* the data file, or NULL */
	double		 tobs;		/* s, the data's length; 0: up to the
					 * last candidate */
	int		 width, height;	/* page, px */
};

/* Draw the n candidates c (times best.time, s after the start) into
 * path (its suffix gives the format); none is an empty overview that
 * says so. */
enum sps_err sps_plot_overview(const char *path, const struct sps_cand *c,
    size_t n, const struct sps_overview *o);

#endif

/* searchpipe.h: sps-search's options, and its --pipe: the same search
 * run as the pipe of the single tools, every setting spelt out for them
 * ([sps-clean |] sps-dedisperse | sps-boxcar > events, then sps-peaks
 * for each output). */
#ifndef SPS_SEARCHPIPE_H
#define SPS_SEARCHPIPE_H

#include "cleanopts.h"
#include "searchrun.h"

struct search_options {
	const char	*input;
	const char	*outdir;
	double		 dm_lo, dm_hi, tol, width_us;
	const char	*plan_file;	/* else the dedisp list of the range */
	int		 scrunch;
	int		 range;	/* --dm given */
	int		 pipe;
	int		 quiet;
	int		 no_clean;
	const char	*plot_dir;	/* --plot: sheets and overview, or
					 * NULL */
	long		 plot_top;	/* sheets of the brightest */
	struct cleanopts clean;	/* the input's cleaning, unless no_clean */
	struct sps_searchrun_opts run;	/* the stages' settings */
};

/* Run the pipe for o; exits 1 naming the stage that failed. */
int search_pipe_run(const struct search_options *o);

#endif

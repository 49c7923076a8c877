/* plotsearch.h: the pictures at the end of a search (sps-search --plot):
 * the sheets of its brightest candidates (plotrun.h) and the overview of
 * all of them (plotoverview.h, overview.png), read back from the
 * candidate table the search wrote.  Needs cairo. */
#ifndef SPS_PLOTSEARCH_H
#define SPS_PLOTSEARCH_H

#include <stddef.h>

#include "clean.h"
#include "error.h"

struct sps_plotsearch {
	const char	*data;		/* the data file searched */
	const char	*cands;		/* the table it wrote (candfile.h) */
	const char	*dir;		/* where the pictures go (made) */
	size_t		 top;		/* sheets of the brightest, 0: none */
	const char	*killfile;	/* the search's channels left out */
	const char	*ignorechan;	/* (NULL: none) */
	const struct sps_clean_options *clean;	/* its cleaning, or NULL */
	const char	*settings;	/* its settings, for the sheets */
};

/* Draw them; *nsheets the sheets drawn. */
enum sps_err sps_plot_search(const struct sps_plotsearch *o, size_t *nsheets);

#endif

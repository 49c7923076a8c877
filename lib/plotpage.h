/* plotpage.h: the page behind plot.h, for the files that draw on it
 * (plot.c, plotpanel.c). */
#ifndef SPS_PLOTPAGE_H
#define SPS_PLOTPAGE_H

#include <cairo.h>

#include "plotscale.h"
#include "writer.h"

struct sps_plot {
	enum sps_plot_format	 format;
	struct sps_writer	 out;	/* the file, under its temporary name */
	cairo_surface_t		*surface;
	cairo_t			*cr;
	int			 width, height;
	double			 font;	/* text size, page units */
};

#endif

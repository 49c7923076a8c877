/* plotscale.h: what a plot decides before it draws, without cairo: the
 * output format named by a file's suffix, the ticks of an axis and their
 * labels, and the colour maps (each of rising luminance, so that an
 * image printed in greyscale keeps its order). */
#ifndef SPS_PLOTSCALE_H
#define SPS_PLOTSCALE_H

#include <stddef.h>

#include "error.h"

enum sps_plot_format {
	SPS_PLOT_PNG,
	SPS_PLOT_PDF,
	SPS_PLOT_SVG
};

/* The format of path from its suffix (.png, .pdf, .svg, any case);
 * another is SPS_EUSAGE "PATH: unknown suffix (.png, .pdf or .svg)". */
enum sps_err sps_plot_format_of(const char *path, enum sps_plot_format *f);

#define SPS_PLOT_MAXTICKS	16

/* Ticks of an axis from lo to hi: multiples of 1, 2 or 5 times a power
 * of ten, the step that gives at most `most` (2 to SPS_PLOT_MAXTICKS)
 * ticks inside [lo, hi], or where that would be fewer than 2, the
 * largest step that gives 2 or more.  Returns how many (0 when lo and
 * hi are not finite or lo >= hi); *step the spacing. */
int sps_plot_ticks(double lo, double hi, int most, double *ticks,
    double *step);

/* A tick's label: the value with as many decimals as the step needs
 * ("0", "2.5", "0.25", "1e+06" for large or small magnitudes). */
void sps_plot_tick_label(char *buf, size_t len, double value, double step);

enum sps_plot_cmap {
	SPS_CMAP_VIRIDIS,	/* dark blue through green to yellow */
	SPS_CMAP_GREY		/* black to white */
};

/* Parse a colour map's name: viridis or grey. */
enum sps_err sps_plot_cmap_parse(const char *name, enum sps_plot_cmap *m);

/* The colour of t in [0, 1] (clamped; NaN gives 0) as red, green and
 * blue in [0, 1]. */
void sps_plot_cmap_rgb(enum sps_plot_cmap m, double t, double rgb[3]);

/* Relative luminance of a colour (ITU-R BT.709 weights), for tests and
 * for choosing a text colour over an image. */
double sps_plot_luminance(const double rgb[3]);

#endif

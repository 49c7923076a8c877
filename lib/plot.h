/* plot.h: figures drawn with cairo: a page (PNG, PDF or SVG by the
 * output's suffix, written under a temporary name and renamed when
 * complete, as writer.h writes), panels with framed axes, ticks and
 * labels in data units, and what goes in them: images through a colour
 * map (plotscale.h), lines, steps, markers and text.
 *
 * Coordinates on the page are in pixels of the PNG (points of the PDF
 * and SVG), from the top left corner.  A panel maps its data ranges onto
 * its box; y rises upwards.  Everything here needs cairo (SPS_HAVE_CAIRO);
 * a build without it has none of it. */
#ifndef SPS_PLOT_H
#define SPS_PLOT_H

#include <stddef.h>

#include "error.h"
#include "plotscale.h"

struct sps_plot;

/* A page of width x height for path ("-": the standard output, PNG);
 * the format is the suffix's (sps_plot_format_of). */
enum sps_err sps_plot_open(struct sps_plot **p, const char *path,
    int width, int height);
/* Write the page and rename it into place; frees p. */
enum sps_err sps_plot_close(struct sps_plot *p);
/* Remove the unfinished page; frees p (NULL allowed). */
void sps_plot_abort(struct sps_plot *p);
/* Free what cairo and fontconfig keep for text between pages, so that
 * a leak checker sees none: at the end of a run, every page closed. */
void sps_plot_release_fonts(void);

/* The page's size of text, in page units (12 on a page 1200 wide, in
 * proportion to its width, at least 9). */
double sps_plot_font(const struct sps_plot *p);

struct sps_plot_box {
	double	x, y, w, h;	/* page units, (x, y) the top left */
};

struct sps_plot_axis {
	double		 lo, hi;	/* data range */
	const char	*label;		/* with its unit, NULL: none */
	int		 ticks;		/* most ticks, 0: none drawn */
	int		 numbers;	/* 1: tick labels drawn */
};

struct sps_plot_panel {
	struct sps_plot		*plot;
	struct sps_plot_box	 box;
	struct sps_plot_axis	 x, y;
};

/* A box from (x0, y0) to (x1, y1) in fractions of the page's width and
 * height; an axis of those fields. */
struct sps_plot_box sps_plot_box_at(const struct sps_plot *p, double x0,
    double y0, double x1, double y1);
struct sps_plot_axis sps_plot_axis_of(double lo, double hi,
    const char *label, int ticks, int numbers);

/* A panel of box over the axes x and y (their lo < hi; an empty range
 * is widened around its value); its frame, ticks and labels are drawn
 * by sps_plot_frame once its contents are. */
void sps_plot_panel_init(struct sps_plot_panel *pn, struct sps_plot *p,
    struct sps_plot_box box, struct sps_plot_axis x, struct sps_plot_axis y);
void sps_plot_frame(const struct sps_plot_panel *pn);

/* Page units of a data point of the panel. */
double sps_plot_px(const struct sps_plot_panel *pn, double x);
double sps_plot_py(const struct sps_plot_panel *pn, double y);

/* An image of ny rows of nx cells (row-major, row 0 at the bottom of
 * the panel), cell (i, j) covering x from xlo + i (xhi - xlo) / nx and
 * likewise in y, the panel's ranges; values from vlo to vhi go through
 * the colour map; rows with masked[j] set (masked may be NULL) and
 * NaN cells are drawn hatched, as no data. */
enum sps_err sps_plot_image(const struct sps_plot_panel *pn,
    const float *values, int nx, int ny, double vlo, double vhi,
    enum sps_plot_cmap cmap, const unsigned char *masked);

/* A colour bar of the map from vlo to vhi in box, labelled. */
void sps_plot_colourbar(struct sps_plot *p, struct sps_plot_box box,
    double vlo, double vhi, enum sps_plot_cmap cmap, const char *label);

enum sps_plot_colour {
	SPS_INK,	/* black */
	SPS_INK_GREY,	/* mid grey: secondary lines */
	SPS_INK_RED,	/* marks: the candidate, the boxcar */
	SPS_INK_BLUE	/* data lines and markers */
};

/* A line through n points (NaN points break it). */
void sps_plot_line(const struct sps_plot_panel *pn, const double *x,
    const double *y, size_t n, enum sps_plot_colour c, double width);
/* Steps: y[i] held over x from x0 + i dx to x0 + (i + 1) dx. */
void sps_plot_steps(const struct sps_plot_panel *pn, double x0, double dx,
    const double *y, size_t n, enum sps_plot_colour c);
/* Bars from 0: y[i] over x from x0 + i dx to x0 + (i + 1) dx, filled. */
void sps_plot_bars(const struct sps_plot_panel *pn, double x0, double dx,
    const double *y, size_t n, enum sps_plot_colour c);
/* Open circles of radius r[i] (page units; r NULL: 3) at the points. */
void sps_plot_markers(const struct sps_plot_panel *pn, const double *x,
    const double *y, const double *r, size_t n, enum sps_plot_colour c);
/* A vertical (vertical 1) or horizontal dashed line at value v. */
void sps_plot_mark(const struct sps_plot_panel *pn, double v, int vertical,
    enum sps_plot_colour c);
/* Brackets at the panel's top and bottom edges over x from x0 to x1:
 * the span another panel shows. */
void sps_plot_span(const struct sps_plot_panel *pn, double x0, double x1);
/* A shaded band over x from x0 to x1, the panel's height. */
void sps_plot_band(const struct sps_plot_panel *pn, double x0, double x1,
    enum sps_plot_colour c);

/* Text at (x, y), its left end at x (align 0), centred (1) or its right
 * end (2), the baseline at y; bold 1 for a heading; size in page units. */
void sps_plot_text(struct sps_plot *p, double x, double y, const char *text,
    double size, int align, int bold);
/* Text in a panel's corner: top left (corner 0) or top right (1). */
void sps_plot_note(const struct sps_plot_panel *pn, const char *text,
    int corner);

#endif

/* plotsheet.h: one candidate's sheet (sps-plot, sps-search --plot) from
 * the arrays of candview.h:
 *
 *	the band-averaged profile, the candidate's boxcar shaded;
 *	below it the dedispersed dynamic spectrum (frequency upwards,
 *	each sub-band in units of its own noise, sub-bands without a
 *	channel used hatched), with the on-pulse spectrum beside it;
 *	the DM-time "bow tie" over the view's DM range;
 *	S/N against DM; a text block: files, source, the pulse's MJD, DM,
 *	width, S/N, sample, the view and the search's settings.
 *
 * Times on the axes are from the centre of the candidate's boxcar at the
 * top of the band, in ms (s for windows over 2 s).  Needs cairo. */
#ifndef SPS_PLOTSHEET_H
#define SPS_PLOTSHEET_H

#include <stddef.h>

#include "candview.h"
#include "error.h"
#include "header.h"
#include "plotscale.h"

#define SPS_SHEET_WIDTH		1200	/* px, default */
#define SPS_SHEET_HEIGHT	900

struct sps_sheet {
	const struct sps_header	*hdr;		/* the data's */
	const char		*data_name;	/* the data file */
	const char		*cand_name;	/* the candidate file, or NULL */
	size_t			 rank;		/* 1: the brightest; 0: none */
	size_t			 nranked;	/* candidates ranked */
	const char		*settings;	/* the search's, or NULL */
	enum sps_plot_cmap	 cmap;
	int			 width, height;	/* page, px */
};

/* Draw v's sheet into path (its suffix gives the format). */
enum sps_err sps_plot_sheet(const char *path, const struct sps_candview *v,
    const struct sps_sheet *s);

struct sps_plot;
/* The sheet's text block, its top left at (x, y), width wide (page
 * units): a line a fact, long values cut or wrapped to the width. */
void sps_sheet_text(struct sps_plot *p, const struct sps_candview *v,
    const struct sps_sheet *s, double x, double y, double width);

#endif

/* plotrun.h: the sheets of chosen candidates of one data file, in one
 * pass of reads (candview.h), a file each, for sps-plot and sps-search
 * --plot.
 *
 * A sheet's file is o->file when there is one candidate and it is
 * given; else DIR/cand_rankR_tT_dmD.EXT in o->dir: R the candidate's
 * rank (1 the brightest, zero-padded to the width of the largest), T
 * the boxcar's start in s after the start of the data, D the DM, EXT
 * the format's suffix. */
#ifndef SPS_PLOTRUN_H
#define SPS_PLOTRUN_H

#include <stddef.h>

#include "candview.h"
#include "error.h"
#include "plotscale.h"
#include "plotsheet.h"
#include "reader.h"

struct sps_plotrun_opts {
	struct sps_candview_opts view;	/* the arrays drawn */
	struct sps_sheet	 sheet;	/* what every sheet shares (hdr and
					 * data_name are set from the
					 * reader) */
	const char		*file;	/* one candidate's sheet, or NULL */
	const char		*dir;	/* else the sheets' directory */
	enum sps_plot_format	 format;	/* of the files in dir */
	/* called after each sheet is written (NULL: none) */
	void			(*on_sheet)(const char *path, size_t rank);
};

/* The defaults of sps-plot: 64 sub-bands (the channels, when fewer),
 * 128 bins of half the candidate's width, 128 DM trials over the
 * candidate's DM +- the offset whose sweep across the band is half the
 * window, no kill mask; PNG pages of SPS_SHEET_WIDTH x
 * SPS_SHEET_HEIGHT, viridis; the current directory. */
void sps_plotrun_defaults(struct sps_plotrun_opts *o);

/* The name of the sheet of candidate c, of rank `rank' of nranked, in
 * buf (len bytes).  SPS_EVALUE when it does not fit. */
enum sps_err sps_plotrun_name(char *buf, size_t len,
    const struct sps_plotrun_opts *o, const struct sps_cand *c, size_t rank,
    size_t nranked);

struct sps_candlist;
/* The n candidates idx of l (sps_candsel_apply's), in that order, in
 * *chosen (malloc'd). */
enum sps_err sps_plotrun_pick(const struct sps_candlist *l,
    const size_t *idx, size_t n, struct sps_cand **chosen);

/* Draw (with cairo only) the sheets of the n candidates c, of ranks first_rank, first_rank
 * + 1, ... of nranked, from the data of r (sps_candview_open'd, at its
 * first spectrum), reading it once; what was read in *st (NULL: not
 * wanted). */
enum sps_err sps_plotrun(struct sps_reader *r, const struct sps_cand *c,
    size_t n, size_t first_rank, size_t nranked,
    const struct sps_plotrun_opts *o, struct sps_candview_stats *st);

#endif

/* candview.h: the data around candidates, for a look at them (sps-plot)
 * and for a classifier (sps-candmaker's FETCH files).
 *
 * For each candidate: the dynamic spectrum dedispersed at its DM (nsub
 * sub-bands x nbins time bins), its band sum (the profile), the DM-time
 * array (ndm trials x nbins) over a DM range, and the S/N of the
 * candidate's boxcar at each of those trials.  Bins are `decimate' base
 * samples; the boxcar's centre (start + width / 2, sps-formats(5)) lies
 * in bin nbins / 2.  Times are those of the top of the band (the centre
 * of the highest channel), as everywhere in sps.
 *
 * Dedispersion is the library's (dedisperse.h, direct algorithm): the
 * DM-time array is one plan of ndm trials; each sub-band of the dynamic
 * spectrum is a one-trial plan over that sub-band's channels (the others
 * killed; the engine's delays stay behind the top of the band, so the
 * sub-bands line up).  Channels left out (killed or cleaned away) are
 * set to 0 before the sums, and each value divided by the channels
 * used.
 *
 * Execution is one pass of reads: candidates are taken in the order of
 * the first spectrum their window needs, the reader skips (seeks) to
 * the next window or reads on from the spectra it holds, and it holds
 * at most the longest window: memory does not grow with the file.
 * Spectra a window needs before the start or past the end of the data
 * are filled with each channel's mean over the window's spectra read.
 * Windows are reached by skipping forward (a seek in a file), never
 * back; sps_candview_open refuses a pipe, whose skips would read it all
 * and whose data cannot be read again by the next tool. */
#ifndef SPS_CANDVIEW_H
#define SPS_CANDVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "clean.h"
#include "error.h"
#include "header.h"
#include "peaks.h"
#include "reader.h"

/* How the DM range of the DM-time array follows a candidate's DM. */
enum sps_candview_dmrange {
	SPS_DMRANGE_SCALE,	/* dm_lo * DM .. dm_hi * DM (FETCH: 0, 2) */
	SPS_DMRANGE_OFFSET,	/* DM + dm_lo .. DM + dm_hi, from 0 up */
	SPS_DMRANGE_ABSOLUTE	/* dm_lo .. dm_hi */
};

#define SPS_CANDVIEW_DEC_WIDTH	0	/* decimate by max(1, width / 2) */
#define SPS_CANDVIEW_DEC_FIT	(-1)	/* at least width / 2, and enough
					 * for the window to hold the
					 * sweep of the DM range */

struct sps_candview_opts {
	int	 nsub;		/* sub-bands (divides nchans is not needed:
				 * channels are shared out in order);
				 * 0: every channel its own */
	int	 nbins;		/* time bins of every array */
	int	 decimate;	/* base samples a bin (> 0), or one of
				 * SPS_CANDVIEW_DEC_* */
	int	 ndm;		/* trials of the DM-time array (>= 1) */
	enum sps_candview_dmrange dmrange;
	double	 dm_lo, dm_hi;	/* pc cm^-3 (or factors, see above); a
				 * range that is empty (a DM of 0 scaled)
				 * is widened to the DM whose sweep across
				 * the band is the window's half length */
	const unsigned char *kill;	/* nchans flags, non-zero: leave the
					 * channel out; NULL: none */
	const struct sps_clean_options *clean;	/* clean each window as
						 * sps-clean does; NULL:
						 * no cleaning */
	int	 nthreads;	/* 0: all cores */
};

/* FETCH's sizes, as your_candmaker.py makes them:
 * nsub 256 (the channels, when fewer), nbins 256, ndm 256, DM 0 to 2 x
 * DM, decimation width / 2; no cleaning, no kill mask. */
void sps_candview_defaults(struct sps_candview_opts *o);

/* One candidate's arrays, valid during the callback only.  Row-major
 * float32 throughout. */
struct sps_candview {
	size_t		 index;		/* in the caller's array */
	const struct sps_cand *cand;
	int		 nsub, nbins, ndm;
	int		 decimate;	/* base samples a bin */
	double		 tbin;		/* s: decimate * tsamp */
	int64_t		 sample0;	/* base sample at the leading edge of
					 * bin 0 (negative: before the data) */
	double		 t0;		/* s after tstart: sample0 * tsamp */
	int		 centre_bin;	/* nbins / 2: holds the centre */
	int		 bins_outside;	/* bins (partly) before the start or
					 * past the end of the data */
	/* The dedispersed dynamic spectrum: nsub rows of nbins, row 0 the
	 * sub-band of channel 0 (fch1), so in the file's channel order;
	 * each value the mean of the bin's samples over the sub-band's
	 * channels used (0 where none is). */
	const float	*freq_time;
	const double	*sub_freq;	/* nsub: MHz, centre of each sub-band */
	const float	*sub_used;	/* nsub: fraction of the sub-band's
					 * channels used (not killed or
					 * cleaned away): 0 all masked */
	const unsigned char *chan_masked; /* nchans: 1 killed or masked by
					 * the cleaning in this window */
	const float	*profile;	/* nbins: mean over the channels used */
	/* DM-time: ndm rows of nbins, row i at dms[i] (ascending), each
	 * value the mean of the bin's samples over the channels used,
	 * dedispersed at that DM. */
	const float	*dm_time;
	const double	*dms;		/* ndm, pc cm^-3 */
	int		 dm_row;	/* the row nearest the candidate's DM */
	/* S/N of a boxcar of the candidate's width (in bins, at least 1)
	 * at each trial, its best placement within a width of the centre,
	 * against the mean and rms of the row's other bins. */
	const float	*snr_dm;	/* ndm */
};

/* Called for each candidate, in the order of the windows; a code other
 * than SPS_OK stops the execution and is returned. */
typedef enum sps_err (*sps_candview_fn)(void *arg,
    const struct sps_candview *v);

struct sps_candview_plan;

/* A plan for data of header h (one IF) with nsamples spectra
 * (SPS_NSAMPLES_UNKNOWN allowed).  SPS_EVALUE for nbins, ndm, nsub or a
 * DM range out of reason, or a kill mask that leaves no channel. */
enum sps_err sps_candview_create(struct sps_candview_plan **p,
    const struct sps_header *h, uint64_t nsamples,
    const struct sps_candview_opts *o);
void sps_candview_free(struct sps_candview_plan *p);

/* The window of base samples candidate c needs: first (may be negative)
 * and count, and the decimation and DM range it gets. */
struct sps_candview_window {
	int64_t	 first;		/* first input spectrum */
	size_t	 count;		/* spectra: nbins * decimate + delay */
	int	 decimate;
	double	 dm_lo, dm_hi;	/* pc cm^-3 */
};
enum sps_err sps_candview_window(const struct sps_candview_plan *p,
    const struct sps_cand *c, struct sps_candview_window *w);

/* Make the arrays of the n candidates cands, reading r (opened by
 * sps_candview_open, at its first spectrum) once, and call fn for each.
 * Errors of the reader name the file. */
enum sps_err sps_candview_execute(struct sps_candview_plan *p,
    struct sps_reader *r, const struct sps_cand *cands, size_t n,
    sps_candview_fn fn, void *arg);

/* What the last execution read. */
struct sps_candview_stats {
	uint64_t spectra_read;		/* read from the file */
	uint64_t spectra_skipped;	/* skipped (seeked) over */
	size_t	 held_max;		/* most spectra held at once */
	size_t	 windows;		/* candidates done */
};
void sps_candview_stats(const struct sps_candview_plan *p,
    struct sps_candview_stats *s);

/* Open a data file for sps_candview_execute: sps_reader_open, but a
 * pipe or standard input is SPS_EUSAGE "PATH: a pipe cannot be read
 * for candidates (it is read by seeking); give a file", and another
 * file that is not a regular one SPS_EUSAGE too. */
enum sps_err sps_candview_open(struct sps_reader *r, const char *path);

#endif

/* cleanbatch.h: sps-clean's decisions for a run of consecutive blocks at
 * once, from sums made elsewhere (the GPU's, gpu_clean.h): each block's
 * channel flags and its clipping on every core, what carries from block
 * to block (the hold, a masked channel's last clean mean, the report) in
 * order.  They are the decisions sps_clean_execute makes (clean.h). */
#ifndef SPS_CLEANBATCH_H
#define SPS_CLEANBATCH_H

#include <stddef.h>
#include <stdint.h>

#include "cleanstream.h"
#include "error.h"

/* A run of nb blocks from the input's spectrum at: block b is spectra
 * first[b] .. first[b] + len[b] - 1 of the run.  Per-block arrays hold
 * nb rows of nchans; per-spectrum ones the run's spectra. */
struct sps_clean_batch {
	int		 nb;
	uint64_t	 at;
	const int	*first, *len;
	const double	*s1, *s2;	/* each channel's sum, of squares */
	const float	*z;		/* each spectrum's sum over the kept
					 * channels (sps_clean_clip's z) */
	const double	*badsum;	/* each channel's over the clipped */
	unsigned char	*mask;		/* out: the channels masked */
	unsigned char	*flags;		/* scratch */
	int		*kept;		/* out: channels kept */
	unsigned char	*bad;		/* out: the spectra clipped */
	float		*bp;		/* out: the replacement values */
	float		*share;		/* out: zero-DM's shares */
	struct sps_clean_block *blk;	/* out */
};

/* In this order, each after the sums it reads are in: the masks (s1, s2;
 * *any_clip: whether any block is to be clipped), the clipping (z;
 * returns the spectra clipped), the bandpass and zero-DM shares (badsum,
 * read only when some spectra are clipped), with each block counted in
 * the report. */
enum sps_err sps_clean_batch_masks(struct sps_cleanstream *cs,
    struct sps_clean_batch *b, int *any_clip);
size_t sps_clean_batch_clips(struct sps_cleanstream *cs,
    struct sps_clean_batch *b);
enum sps_err sps_clean_batch_bandpass(struct sps_cleanstream *cs,
    struct sps_clean_batch *b);

#endif

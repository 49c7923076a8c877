/* clean.h: the block engine of sps-clean.  A plan made once from the
 * header and the options (sps_clean_create) cleans blocks of float
 * spectra in place (sps_clean_execute), one after the other, and says
 * what it did to each; a GPU engine is to mirror this interface.
 *
 * In each block: channels are masked (the static mask, and those that
 * spectral kurtosis or IQRM flag, held for a few blocks so that they do
 * not flicker); spectra whose zero-DM sum stands out at some width are
 * clipped; masked channels and clipped spectra are replaced by the local
 * bandpass (each channel's mean over the block's other spectra; a masked
 * channel's mean when it was last clean, or its neighbours'); then
 * the zero-DM signal is taken off (zerodm.h). */
#ifndef SPS_CLEAN_H
#define SPS_CLEAN_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "header.h"

enum sps_zerodm_mode { SPS_ZERODM_NONE, SPS_ZERODM_MEAN, SPS_ZERODM_ZDOT };

struct sps_clean_options {
	enum sps_zerodm_mode zerodm;
	double	clip_sigma;	/* 0: no clipping */
	int	clip_width;	/* widest window, spectra */
	double	sk_sigma;	/* 0: no spectral kurtosis */
	double	sk_nd;		/* N d of the SK estimator */
	double	iqrm_sigma;	/* 0: no IQRM */
	int	iqrm_radius;	/* 0: nchans / 10 */
	int	hold;		/* blocks a channel stays masked once clear */
};

/* sps-clean's defaults: clipping at 6 sigma up to 32 spectra, IQRM at 5
 * sigma, a hold of 2 blocks; no SK, no zero-DM. */
void sps_clean_defaults(struct sps_clean_options *o);

/* IQRM's radius when the options leave it 0: nchans / 10, at least 1. */
int sps_clean_iqrm_radius(const struct sps_header *h);

/* Fewest spectra a block needs for its own statistics (channel flags and
 * clipping); a shorter block keeps the last flags and is not clipped. */
#define SPS_CLEAN_MIN_BLOCK	32

/* What one block's cleaning did. */
struct sps_clean_block {
	size_t	 nspectra;
	size_t	 clipped;	/* spectra replaced */
	int	 nmasked;	/* channels replaced (every kind) */
	int	 nstatic, nsk, niqrm;	/* masked by the static mask, flagged
					 * by SK and by IQRM in this block */
	uint64_t replaced;	/* samples replaced */
	const unsigned char *masked;	/* nchans flags, file order, until
					 * the next execute */
};

struct sps_clean;

/* A plan for spectra of h (one IF) in blocks of at most maxblock. */
enum sps_err sps_clean_create(struct sps_clean **c,
    const struct sps_header *h, size_t maxblock,
    const struct sps_clean_options *o);
void sps_clean_free(struct sps_clean *c);

/* The channels (file order, nchans flags; NULL: none) masked from the
 * next block on, until set again. */
void sps_clean_set_static(struct sps_clean *c, const unsigned char *masked);

/* Clean n spectra (nchans floats each, time-major) of x in place. */
enum sps_err sps_clean_execute(struct sps_clean *c, float *x, size_t n,
    struct sps_clean_block *b);

/* sps_clean_execute's decisions alone, for an engine that makes the sums
 * and changes the samples itself (the GPU's, gpu_clean.h), so that it
 * decides as the CPU does.  For each block of n spectra, in the order of
 * the blocks:
 *   sps_clean_mask: from each channel's sum s1 and sum of squares s2,
 *	the channels masked (b->masked, valid until the next call: keep a
 *	copy);
 * then for each block, in order:
 *   sps_clean_clip, when sps_clean_clips: from z, each spectrum's sum
 *	over the channels kept (as a double, then rounded to float), the
 *	spectra to replace (n flags, valid until the next call; b->clipped);
 * then for each block, in order, with its b (b->masked pointing at its
 * mask):
 *   sps_clean_bandpass: from s1 and badsum, each channel's sum over the
 *	spectra clipped (read only when some are), the value replacing the
 *	masked and clipped samples (nchans floats, valid until the next
 *	call), and sps_clean_zero_dm_shares, the shares of sps_zerodm
 *	(zerodm.h) when the options ask for zero-DM (it returns 1). */
enum sps_err sps_clean_mask(struct sps_clean *c, const double *s1,
    const double *s2, size_t n, struct sps_clean_block *b);
int sps_clean_clips(const struct sps_clean *c, size_t n);

/* sps_clean_mask in two steps, the first of which may run for many
 * blocks at once, on many threads: sps_clean_flags, a block's channels
 * flagged by SK and IQRM (nchans flags into flag; b->nsk and b->niqrm)
 * from its sums and its static mask fixed, with work of 3 nchans floats;
 * then, block after block, sps_clean_mask_flagged: the hold and the mask
 * (after sps_clean_set_static with the block's static mask). */
enum sps_err sps_clean_flags(const struct sps_clean *c, const double *s1,
    const double *s2, size_t n, const unsigned char *fixed,
    unsigned char *flag, float *work, struct sps_clean_block *b);
enum sps_err sps_clean_mask_flagged(struct sps_clean *c,
    const unsigned char *flag, size_t n, struct sps_clean_block *b);
const unsigned char *sps_clean_clip(struct sps_clean *c, const float *z,
    size_t n, struct sps_clean_block *b);
const float *sps_clean_bandpass(struct sps_clean *c, const double *s1,
    const double *badsum, size_t n, struct sps_clean_block *b);
int sps_clean_zero_dm_shares(const struct sps_clean *c,
    const struct sps_clean_block *b, float *share);

/* The options the plan was made with (iqrm_radius filled in). */
const struct sps_clean_options *sps_clean_opts(const struct sps_clean *c);

#endif

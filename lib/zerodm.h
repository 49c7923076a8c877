/* zerodm.h: removal of the zero-DM signal from a block of spectra
 * (n spectra of nchans floats, time-major), in place.  Channels marked in
 * masked are left as they are and do not enter the zero-DM series. */
#ifndef SPS_ZERODM_H
#define SPS_ZERODM_H

#include <stddef.h>

/* Eatough, Keane & Lyne (2009) in PRESTO's -zerodm form: each spectrum's
 * sum s(t) over the kept channels is taken off, channel c's share in
 * proportion to its bandpass bp[c], and the bandpass is put back:
 * x - s(t) bp[c] / sum(bp) + bp[c].  For a flat bandpass that is the
 * spectrum's mean taken off and each channel's mean restored.  A
 * bandpass that is not positive everywhere shares equally.  share holds
 * nchans floats of scratch. */
void sps_zerodm(float *x, size_t n, int nchans, const unsigned char *masked,
    const float *bp, float *share);

/* sps_zerodm's shares: channel c's share of the zero-DM sum, bp[c] /
 * sum(bp) over the kept channels, or 1 / (kept channels) when some kept
 * bp[c] is not positive (0 for all when none is kept). */
void sps_zerodm_shares(int nchans, const unsigned char *masked,
    const float *bp, float *share);

/* zdot (Men et al. 2019): each kept channel loses its least-squares fit
 * to the zero-DM series z(t) (the mean of the kept channels), x - k_c
 * (z(t) - mean z), with k_c = cov(x_c, z) / var(z) over the block; each
 * channel's mean is unchanged.  z (n floats) and k (nchans doubles) are
 * scratch. */
void sps_zdot(float *x, size_t n, int nchans, const unsigned char *masked,
    float *z, double *k);

#endif

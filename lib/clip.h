/* clip.h: broad-band impulses in the zero-DM series: the spectra of any
 * window of 1, 2, 4, ... samples whose sum stands out of the block. */
#ifndef SPS_CLIP_H
#define SPS_CLIP_H

#include <stddef.h>

/* Mark (bad[t] = 1) the spectra of every window of w samples (w = 1, 2,
 * 4, ... up to maxwidth and n) whose sum of z lies more than sigma from
 * the median of such sums, in units of their robust standard deviation
 * (IQR / 1.349, measured at each width, so red noise does not count as
 * impulses).  Both signs: drop-outs are interference too.  bad is not
 * cleared first.  work holds 2 n floats.  Returns the spectra newly
 * marked. */
size_t sps_clip_find(const float *z, size_t n, int maxwidth, double sigma,
    unsigned char *bad, float *work);

#endif

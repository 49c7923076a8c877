/* clip.h: broad-band impulses in the zero-DM series: the spectra of any
 * window of 1, 2, 4, ... samples whose sum stands out of the block. */
#ifndef SPS_CLIP_H
#define SPS_CLIP_H

#include <stddef.h>

/* Mark (bad[t] = 1) impulses of z: at each width w = 1, 2, 4, ... (up
 * to maxwidth and n / 8), windows of w samples whose sum lies more than
 * sigma from the median of such sums, in units of their robust standard
 * deviation (IQR / 1.349, measured at each width, so red noise does not
 * count as impulses).  Of a run of such windows, those within 3/4 of the
 * one furthest out are marked, and their samples count as the median from
 * then on (again at this width, at most 64 times, and at wider ones), so
 * that an impulse marks about its own spectra, not every window that
 * holds it.  Both signs:
 * drop-outs are interference too.  Spectra marked already in bad count
 * as the median.  work holds 3 n floats.  Returns the spectra newly
 * marked. */
size_t sps_clip_find(const float *z, size_t n, int maxwidth, double sigma,
    unsigned char *bad, float *work);

#endif

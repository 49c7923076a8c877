/* boxcar_check.h: a fast boxcar search (boxcar.h) checked against the
 * reference, sps_boxcar_search_ref, start by start; for benchmarks, which
 * report a speed only once the results it is the speed of are right. */
#ifndef SPS_BOXCAR_CHECK_H
#define SPS_BOXCAR_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "boxcar.h"
#include "error.h"

/* S/N tolerance, times 1 + |reference S/N|: the fast searches sum in
 * float, the reference in double. */
#define SPS_BOXCAR_CHECK_TOL	1e-4

/* The first start at which a search disagrees with the reference. */
struct sps_boxcar_mismatch {
	size_t	 start;		/* counted from the first start searched */
	float	 snr, ref_snr;
	int32_t	 width, ref_width;	/* width 0: widths not compared */
};

/* Compare snr[] and, unless it is NULL, width[], a fast search of starts
 * 0 .. n-1 of x, with the reference over x[0 .. nvalid-1].  They agree
 * when at every start the S/N is the reference's within the tolerance
 * and the width is the reference's, or another width evaluated at that
 * start whose own S/N is as near the reference's (a tie that float sums
 * may break either way).  *agrees is 1, or 0 and *m the first
 * difference.  SPS_ENOMEM if the reference finds no room. */
enum sps_err sps_boxcar_check(const struct sps_boxcar_plan *p,
    const float *x, size_t n, size_t nvalid, const float *scale,
    const float *snr, const int32_t *width, int *agrees,
    struct sps_boxcar_mismatch *m);

#endif

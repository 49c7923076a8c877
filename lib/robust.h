/* robust.h: order statistics of a few thousand values, for noise levels
 * that outliers (the interference being looked for) do not inflate. */
#ifndef SPS_ROBUST_H
#define SPS_ROBUST_H

#include <stddef.h>

/* The k-th smallest (k < n) of x[0..n-1]; x is reordered. */
float sps_select(float *x, size_t n, size_t k);

/* The q-quantile (0 <= q <= 1) of x[0..n-1], the value of rank
 * floor(q (n - 1)); x is reordered.  n > 0. */
float sps_quantile(float *x, size_t n, double q);

/* Median and the Gaussian sigma from the interquartile range
 * (IQR / 1.349) of x[0..n-1]; x is reordered.  n > 0. */
void sps_median_sigma(float *x, size_t n, float *median, float *sigma);

#endif

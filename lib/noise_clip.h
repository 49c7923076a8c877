/* noise_clip.h: streaming moments (Chan, Golub & LeVeque 1983) and the
 * mean and standard deviation of values with iterative outlier
 * rejection, as the noise model (noise.h) measures its windows. */
#ifndef SPS_NOISE_CLIP_H
#define SPS_NOISE_CLIP_H

#include <stddef.h>

/* Streaming moments (count, mean, sum of squared deviations). */
struct sps_moments {
	double	n, mean, m2;
};

void sps_moments_add(struct sps_moments *m, double x);
/* a = a and b together (Chan et al. 1983). */
void sps_moments_merge(struct sps_moments *a, const struct sps_moments *b);

/* Mean and standard deviation of the finite values of x[0..n) with
 * iterative rejection at t standard deviations until convergence (t <= 0:
 * no rejection); the standard deviation is divided by sps_clip_factor(t).
 * Returns the number of values kept (0: mean and sd are NaN). */
size_t sps_clipped_stats(const float *x, size_t n, double t, double *mean,
    double *sd);

/* The standard deviation of unit Gaussian noise after rejection at t
 * standard deviations iterated to convergence (1 for t <= 0). */
double sps_clip_factor(double t);

#endif

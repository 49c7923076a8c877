/* iqrm.h: IQRM (Morello et al. 2022, MNRAS 511, 2766): channels whose
 * statistic (here a block's standard deviation) stands above that of
 * their neighbours at several lags, judged by Tukey's interquartile
 * rule, so that a smooth bandpass is no outlier. */
#ifndef SPS_IQRM_H
#define SPS_IQRM_H

#include "error.h"

/* The lags IQRM compares at, up to radius: 1, then each 1.5 times the
 * last (at least one more), each with both signs; lags[] holds 64.
 * Returns how many. */
int sps_iqrm_lags(int radius, int *lags);

/* Flag (flag[i] = 1) outliers of x[0..n-1].  For each lag l, x[i] -
 * x[i - l] more than threshold sigmas (median and IQR / 1.349 of those
 * differences) above their median is a vote of channel i - l against
 * channel i (channels beyond the edges do not vote).  Channel i is
 * flagged when it received more votes than some channel that voted
 * against it cast: a high channel gets a vote from each neighbour, each of
 * which casts one, while a low channel casts many and its neighbours get
 * one each.  A lag whose differences have no spread casts no votes.
 * SPS_ENOMEM or SPS_OK. */
enum sps_err sps_iqrm(const float *x, int n, int radius, double threshold,
    unsigned char *flag);

#endif

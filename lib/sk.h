/* sk.h: the generalised spectral kurtosis estimator (Nita & Gary 2010,
 * MNRAS 406, L60) and the channels whose value stands out of the band. */
#ifndef SPS_SK_H
#define SPS_SK_H

/* SK of M powers with sum s1 and sum of squares s2, each the sum of N
 * raw powers of shape d (nd = N d): (M nd + 1) / (M - 1) (M s2 / s1^2 -
 * 1), 1 on average for Gamma-distributed powers of shape nd.  NaN when
 * s1 <= 0 or m < 2. */
double sps_sk(double s1, double s2, double m, double nd);

/* Flag (flag[c] = 1) the channels not in skip whose SK (from their s1, s2
 * over m spectra) lies more than sigma robust standard deviations (IQR /
 * 1.349 of the band's SK values) from the band's median SK, on either
 * side: the scale of filterbank data is not known (offsets, gains,
 * requantisation), so SK is judged against the band rather than against
 * its theoretical 1.  Channels with no SK (NaN) are flagged too.  work
 * holds 2 nchans floats.  Returns the channels flagged. */
int sps_sk_flag(const double *s1, const double *s2, int nchans, double m,
    double nd, double sigma, const unsigned char *skip, unsigned char *flag,
    float *work);

#endif

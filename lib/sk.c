/* sk.c: spectral kurtosis per channel and its outliers. */
#include <math.h>

#include "robust.h"
#include "sk.h"

double
sps_sk(double s1, double s2, double m, double nd)
{
	if (s1 <= 0 || m < 2)
		return NAN;
	return (m * nd + 1) / (m - 1) * (m * s2 / (s1 * s1) - 1);
}

int
sps_sk_flag(const double *s1, const double *s2, int nchans, double m,
    double nd, double sigma, const unsigned char *skip, unsigned char *flag,
    float *work)
{
	float *sk = work, *sorted = work + nchans, median, spread;
	int c, kept = 0, nflagged = 0;

	for (c = 0; c < nchans; c++) {
		flag[c] = 0;
		sk[c] = (float)sps_sk(s1[c], s2[c], m, nd);
		if ((skip == NULL || !skip[c]) && !isnan(sk[c]))
			sorted[kept++] = sk[c];
	}
	if (kept == 0)
		return 0;
	sps_median_sigma(sorted, (size_t)kept, &median, &spread);
	for (c = 0; c < nchans; c++) {
		if (skip != NULL && skip[c])
			continue;
		flag[c] = isnan(sk[c]) || fabsf(sk[c] - median) > sigma * spread;
		nflagged += flag[c];
	}
	return nflagged;
}

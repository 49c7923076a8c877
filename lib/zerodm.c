/* zerodm.c: zero-DM subtraction and zdot. */
#include "zerodm.h"

void
sps_zerodm_shares(int nchans, const unsigned char *masked, const float *bp,
    float *share)
{
	double total = 0;
	int c, kept = 0, positive = 1;

	for (c = 0; c < nchans; c++) {
		if (masked != NULL && masked[c])
			continue;
		kept++;
		total += bp[c];
		positive &= bp[c] > 0;
	}
	for (c = 0; c < nchans; c++)
		share[c] = kept == 0 ? 0 : positive ? (float)(bp[c] / total) :
		    1.0f / (float)kept;
}

void
sps_zerodm(float *x, size_t n, int nchans, const unsigned char *masked,
    const float *bp, float *share)
{
	size_t t;
	int c;

	sps_zerodm_shares(nchans, masked, bp, share);
	for (t = 0; t < n; t++) {
		float *s = x + t * (size_t)nchans;
		double sum = 0;

		for (c = 0; c < nchans; c++)
			if (masked == NULL || !masked[c])
				sum += s[c];
		for (c = 0; c < nchans; c++)
			if (masked == NULL || !masked[c])
				s[c] += bp[c] - (float)sum * share[c];
	}
}

/* z(t): the mean of the kept channels; returns the mean of z. */
static double
zero_dm_series(const float *x, size_t n, int nchans,
    const unsigned char *masked, float *z)
{
	double zsum = 0;
	size_t t;
	int c, kept = 0;

	for (c = 0; c < nchans; c++)
		kept += masked == NULL || !masked[c];
	for (t = 0; t < n; t++) {
		const float *s = x + t * (size_t)nchans;
		double sum = 0;

		for (c = 0; c < nchans; c++)
			if (masked == NULL || !masked[c])
				sum += s[c];
		z[t] = kept > 0 ? (float)(sum / kept) : 0;
		zsum += z[t];
	}
	return zsum / (double)n;
}

void
sps_zdot(float *x, size_t n, int nchans, const unsigned char *masked,
    float *z, double *cov)
{
	double zbar, var = 0;
	size_t t;
	int c;

	if (n < 2)
		return;
	zbar = zero_dm_series(x, n, nchans, masked, z);
	for (c = 0; c < nchans; c++)
		cov[c] = 0;
	for (t = 0; t < n; t++) {
		const float *s = x + t * (size_t)nchans;
		double dz = z[t] - zbar;

		var += dz * dz;
		for (c = 0; c < nchans; c++)
			cov[c] += s[c] * dz;	/* sum dz = 0: no mean needed */
	}
	if (var <= 0)
		return;
	for (c = 0; c < nchans; c++)
		cov[c] /= var;
	for (t = 0; t < n; t++) {
		float *s = x + t * (size_t)nchans;
		float dz = (float)(z[t] - zbar);

		for (c = 0; c < nchans; c++)
			if (masked == NULL || !masked[c])
				s[c] -= (float)cov[c] * dz;
	}
}

/* iqrm.c: the IQRM vote over lagged differences. */
#include <stdlib.h>

#include "iqrm.h"
#include "robust.h"

int
sps_iqrm_lags(int radius, int *lags)
{
	int lag = 1, next, count = 0;

	while (lag <= radius && count < 64) {
		lags[count++] = lag;
		lags[count++] = -lag;
		next = lag * 3 / 2;
		lag = next > lag ? next : lag + 1;
	}
	return count;
}

/* Votes at one lag: voted[i] = 1 when i - lag voted against i. */
static void
vote(const float *x, int n, int lag, double threshold, float *diff,
    unsigned char *voted)
{
	int i, lo = lag > 0 ? lag : 0, hi = lag > 0 ? n : n + lag, m = 0;
	float median, sigma;

	for (i = 0; i < n; i++)
		voted[i] = 0;
	for (i = lo; i < hi; i++)
		diff[m++] = x[i] - x[i - lag];
	if (m < 2)
		return;
	sps_median_sigma(diff, (size_t)m, &median, &sigma);
	if (!(sigma > 0))
		return;		/* no spread to judge by: no votes */
	for (i = lo; i < hi; i++)
		voted[i] = x[i] - x[i - lag] > median + threshold * sigma;
}

enum sps_err
sps_iqrm(const float *x, int n, int radius, double threshold,
    unsigned char *flag)
{
	int lags[64], nlags = sps_iqrm_lags(radius, lags), i, k, *votes, *cast;
	unsigned char *voted;
	float *diff;

	votes = calloc((size_t)n, sizeof(*votes));
	cast = calloc((size_t)n, sizeof(*cast));
	voted = malloc((size_t)n * (size_t)(nlags > 0 ? nlags : 1));
	diff = malloc((size_t)n * sizeof(*diff));
	if (votes == NULL || cast == NULL || voted == NULL || diff == NULL) {
		free(votes), free(cast), free(voted), free(diff);
		return sps_fail(SPS_ENOMEM, "IQRM: out of memory");
	}
	for (k = 0; k < nlags; k++) {
		vote(x, n, lags[k], threshold, diff, voted + (size_t)k * n);
		for (i = 0; i < n; i++)
			if (voted[(size_t)k * n + i]) {	/* i - lag is in */
				votes[i]++;
				cast[i - lags[k]]++;
			}
	}
	for (i = 0; i < n; i++) {
		flag[i] = 0;
		for (k = 0; k < nlags && !flag[i]; k++)
			flag[i] = voted[(size_t)k * n + i] &&
			    cast[i - lags[k]] < votes[i];
	}
	free(votes), free(cast), free(voted), free(diff);
	return SPS_OK;
}

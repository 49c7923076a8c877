/* robust.c: quantiles by selection (Hoare's partition), O(n) on average,
 * without sorting. */
#include "robust.h"

static void
swap(float *a, float *b)
{
	float t = *a;

	*a = *b;
	*b = t;
}

/* Put the k-th smallest of x[0..n-1] at x[k]. */
static void
select_rank(float *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, i, j;
	float pivot;

	while (lo < hi) {
		pivot = x[lo + (hi - lo) / 2];
		i = lo;
		j = hi;
		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				swap(&x[i], &x[j]);
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

float
sps_select(float *x, size_t n, size_t k)
{
	select_rank(x, n, k);
	return x[k];
}

float
sps_quantile(float *x, size_t n, double q)
{
	size_t k = (size_t)(q * (double)(n - 1));

	select_rank(x, n, k);
	return x[k];
}

void
sps_median_sigma(float *x, size_t n, float *median, float *sigma)
{
	float q1, q3;

	q1 = sps_quantile(x, n, 0.25);
	*median = sps_quantile(x, n, 0.5);
	q3 = sps_quantile(x, n, 0.75);
	*sigma = (q3 - q1) / 1.349f;
}

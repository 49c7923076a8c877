/* bits.c: powers of two (bits.h). */
#include "bits.h"

int
sps_ceil_log2(long n)
{
	int k = 0;

	while ((1L << k) < n)
		k++;
	return k;
}

/* gauss.h: deterministic Gaussian noise for unit tests (xorshift64 and
 * Box-Muller); each test file seeds its own generator. */
#ifndef SPS_TEST_GAUSS_H
#define SPS_TEST_GAUSS_H

#include <math.h>
#include <stdint.h>

static uint64_t test_rng = 88172645463325252ULL;

static double
uniform(void)
{
	test_rng ^= test_rng << 13;
	test_rng ^= test_rng >> 7;
	test_rng ^= test_rng << 17;
	return ((test_rng >> 11) + 0.5) / 9007199254740992.0;
}

static float
gauss(void)
{
	return (float)(sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform()));
}

#endif

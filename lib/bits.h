/* bits.h: powers of two, as the scrunch levels and trees count them. */
#ifndef SPS_BITS_H
#define SPS_BITS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The smallest k with 2^k >= n (0 for n <= 1): the scrunch level of a
 * factor n, the steps of a tree of n rows. */
int sps_ceil_log2(long n);

#ifdef __cplusplus
}
#endif

#endif

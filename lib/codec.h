/* codec.h: SIGPROC samples <-> float32.
 *
 * nbits 1, 2, 4: unsigned fields, earliest value in the lowest bits of a
 * byte (SIGPROC's order), packing continuous across spectra.  8: unsigned,
 * or two's-complement when is_signed.  16: unsigned little-endian.  32:
 * IEEE float, little-endian. */
#ifndef SPS_CODEC_H
#define SPS_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* Bytes that hold n values of nbits (rounded up). */
size_t sps_packed_bytes(size_t n, int nbits);

/* Unpack n values from raw (starting at value 0 of raw) into out. */
void sps_unpack(const unsigned char *raw, float *out, size_t n, int nbits,
    int is_signed);

/* Pack n floats into raw.  Integer widths round to nearest and clip to
 * [0, 2^nbits - 1] ([-128, 127] when is_signed); NaN packs as 0.  Returns
 * the number of values clipped (NaN counts as clipped).  raw must hold
 * sps_packed_bytes(n, nbits) bytes; sub-byte tails are zero-filled. */
size_t sps_pack(const float *in, unsigned char *raw, size_t n, int nbits,
    int is_signed);

/* Smallest and largest representable value. */
float sps_nbits_min(int nbits, int is_signed);
float sps_nbits_max(int nbits, int is_signed);

#endif

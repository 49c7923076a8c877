/* codec.c: SIGPROC sample packing (see codec.h). */
#include <math.h>
#include <string.h>

#include "codec.h"

size_t
sps_packed_bytes(size_t n, int nbits)
{
	return (n * (size_t)nbits + 7) / 8;
}

float
sps_nbits_min(int nbits, int is_signed)
{
	if (nbits == 32)
		return -INFINITY;
	return (nbits == 8 && is_signed) ? -128.0f : 0.0f;
}

float
sps_nbits_max(int nbits, int is_signed)
{
	if (nbits == 32)
		return INFINITY;
	if (nbits == 8 && is_signed)
		return 127.0f;
	return (float)((1UL << nbits) - 1);
}

static void
unpack_subbyte(const unsigned char *raw, float *out, size_t n, int nbits)
{
	unsigned mask = (1U << nbits) - 1;
	int per_byte = 8 / nbits;
	size_t i;

	for (i = 0; i < n; i++) {
		int shift = (int)(i % per_byte) * nbits;
		out[i] = (float)((raw[i / per_byte] >> shift) & mask);
	}
}

void
sps_unpack(const unsigned char *raw, float *out, size_t n, int nbits,
    int is_signed)
{
	size_t i;

	if (n == 0)
		return;
	switch (nbits) {
	case 1:
	case 2:
	case 4:
		unpack_subbyte(raw, out, n, nbits);
		break;
	case 8:
		if (is_signed)
			for (i = 0; i < n; i++)
				out[i] = (float)(signed char)raw[i];
		else
			for (i = 0; i < n; i++)
				out[i] = (float)raw[i];
		break;
	case 16:
		for (i = 0; i < n; i++)
			out[i] = (float)(raw[2 * i] | raw[2 * i + 1] << 8);
		break;
	case 32:
		memcpy(out, raw, n * sizeof(float));
		break;
	}
}

/* Round to nearest and clip to [lo, hi]; NaN gives 0.  *clipped counts. */
static long
quantise(float v, long lo, long hi, size_t *clipped)
{
	if (isnan(v)) {
		(*clipped)++;
		return 0;
	}
	if (v < lo - 0.5f) {
		(*clipped)++;
		return lo;
	}
	if (v >= hi + 0.5f) {
		(*clipped)++;
		return hi;
	}
	return lrintf(v) < lo ? lo : lrintf(v) > hi ? hi : lrintf(v);
}

size_t
sps_pack(const float *in, unsigned char *raw, size_t n, int nbits,
    int is_signed)
{
	long lo = (long)sps_nbits_min(nbits, is_signed);
	size_t clipped = 0, i;
	long hi;

	if (n == 0)
		return 0;
	if (nbits == 32) {
		memcpy(raw, in, n * sizeof(float));
		return 0;
	}
	hi = (long)sps_nbits_max(nbits, is_signed);
	if (nbits < 8) {
		int per_byte = 8 / nbits;

		memset(raw, 0, sps_packed_bytes(n, nbits));
		for (i = 0; i < n; i++)
			raw[i / per_byte] |= (unsigned char)(quantise(in[i],
			    lo, hi, &clipped) << ((i % per_byte) * nbits));
	} else if (nbits == 8) {
		for (i = 0; i < n; i++)
			raw[i] = (unsigned char)quantise(in[i], lo, hi,
			    &clipped);
	} else {
		for (i = 0; i < n; i++) {
			long v = quantise(in[i], lo, hi, &clipped);

			raw[2 * i] = (unsigned char)(v & 0xff);
			raw[2 * i + 1] = (unsigned char)(v >> 8);
		}
	}
	return clipped;
}

/* codec.c: SIGPROC sample packing (see codec.h).
 *
 * The loops are written so that the compiler vectorises them: one byte or
 * value per iteration, no calls and no branches, every field of a byte
 * spelt out.  Every stage of a pipe goes through here, so this sets the
 * speed of format conversion. */
#include <math.h>
#include <string.h>

#include "codec.h"

#define JOIN_CHUNK	4096	/* sub-byte values quantised at once */

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

/* ---- unpacking ---- */

static void
unpack_whole_bytes(const unsigned char *raw, float *out, size_t nbytes,
    int nbits)
{
	size_t j;

	switch (nbits) {
	case 1:
		for (j = 0; j < nbytes; j++) {
			unsigned b = raw[j];

			out[8 * j] = (float)(b & 1);
			out[8 * j + 1] = (float)(b >> 1 & 1);
			out[8 * j + 2] = (float)(b >> 2 & 1);
			out[8 * j + 3] = (float)(b >> 3 & 1);
			out[8 * j + 4] = (float)(b >> 4 & 1);
			out[8 * j + 5] = (float)(b >> 5 & 1);
			out[8 * j + 6] = (float)(b >> 6 & 1);
			out[8 * j + 7] = (float)(b >> 7);
		}
		break;
	case 2:
		for (j = 0; j < nbytes; j++) {
			unsigned b = raw[j];

			out[4 * j] = (float)(b & 3);
			out[4 * j + 1] = (float)(b >> 2 & 3);
			out[4 * j + 2] = (float)(b >> 4 & 3);
			out[4 * j + 3] = (float)(b >> 6);
		}
		break;
	case 4:
		for (j = 0; j < nbytes; j++) {
			unsigned b = raw[j];

			out[2 * j] = (float)(b & 15);
			out[2 * j + 1] = (float)(b >> 4);
		}
		break;
	}
}

static void
unpack_subbyte(const unsigned char *raw, float *out, size_t n, int nbits)
{
	size_t per_byte = 8 / (size_t)nbits, whole = n / per_byte, i;
	unsigned mask = (1U << nbits) - 1;

	unpack_whole_bytes(raw, out, whole, nbits);
	for (i = whole * per_byte; i < n; i++)
		out[i] = (float)(raw[whole] >> (i % per_byte * nbits) & mask);
}

static void
unpack_8(const unsigned char *raw, float *out, size_t n, int is_signed)
{
	size_t i;

	if (is_signed)
		for (i = 0; i < n; i++)
			out[i] = (float)(signed char)raw[i];
	else
		for (i = 0; i < n; i++)
			out[i] = (float)raw[i];
}

static void
unpack_16(const unsigned char *raw, float *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = (float)(raw[2 * i] | raw[2 * i + 1] << 8);
}

void
sps_unpack(const unsigned char *raw, float *out, size_t n, int nbits,
    int is_signed)
{
	if (n == 0)
		return;
	switch (nbits) {
	case 1:
	case 2:
	case 4:
		unpack_subbyte(raw, out, n, nbits);
		break;
	case 8:
		unpack_8(raw, out, n, is_signed);
		break;
	case 16:
		unpack_16(raw, out, n);
		break;
	case 32:
		memcpy(out, raw, n * sizeof(float));
		break;
	}
}

/* ---- packing ---- */

/* The range values are rounded into, and the bounds past which a value
 * counts as clipped. */
struct range {
	float	lo, hi;
	float	below, above;	/* clipped: v < below or v >= above */
};

static struct range
range_of(int nbits, int is_signed)
{
	struct range r;

	r.lo = sps_nbits_min(nbits, is_signed);
	r.hi = sps_nbits_max(nbits, is_signed);
	r.below = r.lo - 0.5f;
	r.above = r.hi + 0.5f;
	return r;
}

/* v rounded to nearest (the current rounding mode, as lrintf) and clipped
 * to the range; NaN gives 0.  Branch-free, so that loops calling it
 * vectorise. */
static inline int
quantise(float v, const struct range *r)
{
	float q = rintf(v);

	q = q < r->lo ? r->lo : q;
	q = q > r->hi ? r->hi : q;
	return v != v ? 0 : (int)q;
}

/* 1 when packing v counts as clipping (NaN too). */
static inline size_t
clips(float v, const struct range *r)
{
	return (size_t)(!(v >= r->below) | (v >= r->above));
}

static size_t
pack_8(const float *in, unsigned char *raw, size_t n, const struct range *r)
{
	size_t clipped = 0, i;

	for (i = 0; i < n; i++) {
		raw[i] = (unsigned char)quantise(in[i], r);
		clipped += clips(in[i], r);
	}
	return clipped;
}

static size_t
pack_16(const float *in, unsigned char *raw, size_t n, const struct range *r)
{
	size_t clipped = 0, i;

	for (i = 0; i < n; i++) {
		int v = quantise(in[i], r);

		raw[2 * i] = (unsigned char)(v & 0xff);
		raw[2 * i + 1] = (unsigned char)(v >> 8);
		clipped += clips(in[i], r);
	}
	return clipped;
}

/* Quantised values (one a byte) joined into bytes of nbits fields,
 * earliest in the lowest bits. */
static void
join_fields(const unsigned char *q, unsigned char *raw, size_t nbytes,
    int nbits)
{
	size_t j;

	switch (nbits) {
	case 1:
		for (j = 0; j < nbytes; j++)
			raw[j] = (unsigned char)(q[8 * j] | q[8 * j + 1] << 1 |
			    q[8 * j + 2] << 2 | q[8 * j + 3] << 3 |
			    q[8 * j + 4] << 4 | q[8 * j + 5] << 5 |
			    q[8 * j + 6] << 6 | q[8 * j + 7] << 7);
		break;
	case 2:
		for (j = 0; j < nbytes; j++)
			raw[j] = (unsigned char)(q[4 * j] | q[4 * j + 1] << 2 |
			    q[4 * j + 2] << 4 | q[4 * j + 3] << 6);
		break;
	case 4:
		for (j = 0; j < nbytes; j++)
			raw[j] = (unsigned char)(q[2 * j] | q[2 * j + 1] << 4);
		break;
	}
}

/* Whole bytes of 1-, 2- or 4-bit values: quantised a chunk at a time as
 * bytes, then joined. */
static size_t
pack_whole_bytes(const float *in, unsigned char *raw, size_t nbytes,
    int nbits, const struct range *r)
{
	size_t per_byte = 8 / (size_t)nbits, chunk = JOIN_CHUNK / per_byte;
	size_t clipped = 0, j, m;
	unsigned char q[JOIN_CHUNK];

	for (j = 0; j < nbytes; j += m) {
		m = nbytes - j < chunk ? nbytes - j : chunk;
		clipped += pack_8(in + j * per_byte, q, m * per_byte, r);
		join_fields(q, raw + j, m, nbits);
	}
	return clipped;
}

static size_t
pack_subbyte(const float *in, unsigned char *raw, size_t n, int nbits,
    const struct range *r)
{
	size_t per_byte = 8 / (size_t)nbits, whole = n / per_byte, clipped, i;
	unsigned tail = 0;

	clipped = pack_whole_bytes(in, raw, whole, nbits, r);
	if (whole * per_byte == n)
		return clipped;
	for (i = whole * per_byte; i < n; i++) {
		tail |= (unsigned)quantise(in[i], r) << (i % per_byte * nbits);
		clipped += clips(in[i], r);
	}
	raw[whole] = (unsigned char)tail;
	return clipped;
}

size_t
sps_pack(const float *in, unsigned char *raw, size_t n, int nbits,
    int is_signed)
{
	struct range r;

	if (n == 0)
		return 0;
	if (nbits == 32) {
		memcpy(raw, in, n * sizeof(float));
		return 0;
	}
	r = range_of(nbits, is_signed);
	if (nbits < 8)
		return pack_subbyte(in, raw, n, nbits, &r);
	if (nbits == 8)
		return pack_8(in, raw, n, &r);
	return pack_16(in, raw, n, &r);
}

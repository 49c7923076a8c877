/* unit-codec: every nbits packs and unpacks to the same values; packing
 * and unpacking agree value for value with the plain definitions below
 * (one value at a time, lrintf), over every byte, the rounding and
 * clipping edges, NaN and infinities, and every tail length. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "codec.h"

static void
roundtrip(int nbits, int is_signed)
{
	enum { N = 1003 };	/* odd: exercises sub-byte tails */
	float in[N], out[N];
	unsigned char raw[N * 4];
	float lo = sps_nbits_min(nbits, is_signed);
	float hi = sps_nbits_max(nbits, is_signed);
	size_t i;

	for (i = 0; i < N; i++)
		in[i] = nbits == 32 ? (float)i * 0.37f - 100.0f :
		    lo + (float)(i * 7919 % (size_t)(hi - lo + 1));
	assert_int_equal(sps_pack(in, raw, N, nbits, is_signed), 0);
	sps_unpack(raw, out, N, nbits, is_signed);
	assert_memory_equal(in, out, sizeof(in));
}

/* The definitions, one value at a time. */
static long
ref_quantise(float v, long lo, long hi, size_t *clipped)
{
	if (isnan(v) || v < lo - 0.5f || v >= hi + 0.5f)
		(*clipped)++;
	if (isnan(v))
		return 0;
	if (v < lo - 0.5f)
		return lo;
	if (v >= hi + 0.5f)
		return hi;
	return lrintf(v) < lo ? lo : lrintf(v) > hi ? hi : lrintf(v);
}

static size_t
ref_pack(const float *in, unsigned char *raw, size_t n, int nbits,
    int is_signed)
{
	long lo = nbits == 8 && is_signed ? -128 : 0;
	long hi = nbits == 8 && is_signed ? 127 : (1L << nbits) - 1;
	size_t clipped = 0, i;

	memset(raw, 0, (n * (size_t)nbits + 7) / 8);
	for (i = 0; i < n; i++) {
		long v = ref_quantise(in[i], lo, hi, &clipped);

		if (nbits < 8)
			raw[i * nbits / 8] |= (unsigned char)(v << (i * nbits %
			    8));
		else if (nbits == 8)
			raw[i] = (unsigned char)v;
		else {
			raw[2 * i] = (unsigned char)(v & 0xff);
			raw[2 * i + 1] = (unsigned char)(v >> 8);
		}
	}
	return clipped;
}

static float
ref_value(const unsigned char *raw, size_t i, int nbits, int is_signed)
{
	if (nbits < 8)
		return (float)(raw[i * nbits / 8] >> (i * nbits % 8) &
		    ((1 << nbits) - 1));
	if (nbits == 8)
		return is_signed ? (float)(signed char)raw[i] : (float)raw[i];
	return (float)(raw[2 * i] | raw[2 * i + 1] << 8);
}

/* Values around every rounding and clipping edge of every width, the
 * special values, and a spread of others. */
static size_t
edge_values(float *v, size_t max)
{
	static const float special[] = { NAN, -NAN, INFINITY, -INFINITY,
	    0.0f, -0.0f, 1e30f, -1e30f, 3e9f, -3e9f, 65535.5f, 65536.0f,
	    127.5f, -128.5f, 255.5f, 15.5f, 3.5f, 1.5f, -0.5f, 0.5f };
	size_t n = 0, i;
	int k;

	for (i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		v[n++] = special[i];
	for (k = -140; k <= 300 && n + 5 <= max; k++) {
		float half = (float)k + 0.5f;

		v[n++] = (float)k;
		v[n++] = half;
		v[n++] = nextafterf(half, -INFINITY);
		v[n++] = nextafterf(half, INFINITY);
		v[n++] = (float)k + 0.25f;
	}
	for (k = 65500; k < 65600 && n + 2 <= max; k++) {
		v[n++] = (float)k + 0.5f;
		v[n++] = nextafterf((float)k + 0.5f, -INFINITY);
	}
	srand(7);
	while (n < max)
		v[n++] = ((float)rand() / RAND_MAX - 0.2f) * 70000.0f;
	return n;
}

static void
pack_agrees(const float *v, size_t n, int nbits, int is_signed)
{
	unsigned char *got = calloc(n * 2 + 1, 1), *want = calloc(n * 2 + 1,
	    1);
	size_t len = (n * (size_t)nbits + 7) / 8;

	assert_non_null(got);
	assert_non_null(want);
	assert_int_equal(sps_pack(v, got, n, nbits, is_signed),
	    ref_pack(v, want, n, nbits, is_signed));
	assert_memory_equal(got, want, len);
	free(got);
	free(want);
}

static void
test_pack_matches_definition(void **state)
{
	static const int widths[] = { 1, 2, 4, 8, 16 };
	enum { N = 20000 };
	float *v = malloc(N * sizeof(float));
	size_t n, i, len;

	(void)state;
	assert_non_null(v);
	n = edge_values(v, N);
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		pack_agrees(v, n, widths[i], 0);
		for (len = 0; len < 40; len++)	/* every tail */
			pack_agrees(v + 1000 + len, len, widths[i], 0);
	}
	pack_agrees(v, n, 8, 1);
	free(v);
}

static void
test_unpack_matches_definition(void **state)
{
	static const int widths[] = { 1, 2, 4, 8, 16 };
	enum { NBYTES = 4096 + 7 };
	unsigned char raw[NBYTES];
	static float out[NBYTES * 8 + 8];
	size_t i, w, n, len;
	int s;

	(void)state;
	for (i = 0; i < NBYTES; i++)
		raw[i] = (unsigned char)(i < 256 ? i : i * 7919 >> 3);
	for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
		for (s = 0; s <= (widths[w] == 8); s++) {
			n = NBYTES * 8 / (size_t)widths[w];
			for (len = n - 40; len <= n; len++) {
				out[len] = -1;
				sps_unpack(raw, out, len, widths[w], s);
				for (i = 0; i < len; i++)
					assert_true(out[i] == ref_value(raw, i,
					    widths[w], s));
				assert_true(out[len] == -1);
			}
		}
}

static void
test_roundtrip_every_nbits(void **state)
{
	static const int widths[] = { 1, 2, 4, 8, 16, 32 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		roundtrip(widths[i], 0);
	roundtrip(8, 1);
}

static void
test_sigproc_bit_order(void **state)
{
	const unsigned char b4 = 0x21, b2 = 0xE4, b1 = 0x01;
	float v[8];

	(void)state;
	sps_unpack(&b4, v, 2, 4, 0);
	assert_true(v[0] == 1 && v[1] == 2);
	sps_unpack(&b2, v, 4, 2, 0);
	assert_true(v[0] == 0 && v[1] == 1 && v[2] == 2 && v[3] == 3);
	sps_unpack(&b1, v, 8, 1, 0);
	assert_true(v[0] == 1 && v[1] == 0 && v[7] == 0);
}

static void
test_signed_8bit(void **state)
{
	const unsigned char raw[3] = { 0x80, 0xff, 0x7f };
	float v[3];

	(void)state;
	sps_unpack(raw, v, 3, 8, 1);
	assert_true(v[0] == -128 && v[1] == -1 && v[2] == 127);
	sps_unpack(raw, v, 3, 8, 0);
	assert_true(v[0] == 128 && v[1] == 255 && v[2] == 127);
}

static void
test_clipping_counted(void **state)
{
	const float in[6] = { -3.0f, 0.4f, 15.6f, 300.0f, NAN, -0.5f };
	unsigned char raw[6];
	float out[6];

	(void)state;
	assert_int_equal(sps_pack(in, raw, 6, 8, 0), 3);
	sps_unpack(raw, out, 6, 8, 0);
	assert_true(out[0] == 0 && out[1] == 0 && out[2] == 16 &&
	    out[3] == 255 && out[4] == 0 && out[5] == 0);
	assert_int_equal(sps_pack(in, raw, 6, 4, 0), 4);	/* 15.6 too */
	assert_int_equal(sps_pack(in, raw, 6, 8, 1), 2);	/* 300, NaN */
}

static void
test_16bit_little_endian(void **state)
{
	const float in[2] = { 1.0f, 65535.0f };
	unsigned char raw[4];

	(void)state;
	sps_pack(in, raw, 2, 16, 0);
	assert_true(raw[0] == 1 && raw[1] == 0 && raw[2] == 0xff &&
	    raw[3] == 0xff);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_every_nbits),
		cmocka_unit_test(test_sigproc_bit_order),
		cmocka_unit_test(test_signed_8bit),
		cmocka_unit_test(test_clipping_counted),
		cmocka_unit_test(test_16bit_little_endian),
		cmocka_unit_test(test_pack_matches_definition),
		cmocka_unit_test(test_unpack_matches_definition),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* unit-codec: every nbits packs and unpacks to the same values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* unit-samplestore: a trial's samples come back bit for bit, whatever
 * they are (whole numbers close together, which are packed in 16 bits,
 * and fractions, NaN, infinities, negative zeros and values far apart,
 * which are not, mixed within a block), pushed, read and dropped in
 * pieces of every size, across blocks and when emptied. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gauss.h"
#include "samplestore.h"

#define N	200000

/* Dedispersed 8-bit data: whole numbers near 262000, a few thousand
 * apart; with odd values in some stretches. */
static float *
series(void)
{
	float *x = malloc(N * sizeof(float));
	size_t i;

	assert_non_null(x);
	for (i = 0; i < N; i++)
		x[i] = (float)(262000 + floor(1300 * gauss()));
	for (i = 30000; i < 31000; i++)
		x[i] += 0.25f;
	x[50000] = NAN;
	x[50001] = INFINITY;
	x[50002] = -0.0f;
	/* blocks (of 64 and 512 samples here) that begin with NaN, which
	 * follows, with infinity and with a negative zero */
	x[50176] = x[50177] = NAN;
	x[50688] = x[50689] = INFINITY;
	x[51200] = x[51201] = -0.0f;
	x[70000] = 0.0f;		/* far from its neighbours */
	x[90000] = 1e30f;
	for (i = 120000; i < 126000; i++)
		x[i] = gauss();		/* a stretch of floats */
	return x;
}

static size_t
upto(size_t n)
{
	return (size_t)(uniform() * (double)n) + 1;
}

/* The samples held, read back in pieces, are x[first..first + len). */
static void
assert_held(const struct sps_samplestore *s, const float *x, size_t first)
{
	size_t len = sps_samplestore_len(s), at, k;
	float *out = malloc((len + 1) * sizeof(float));

	assert_non_null(out);
	for (at = 0; at < len; at += k) {
		k = upto(len - at);
		sps_samplestore_read(s, at, k, out + at);
	}
	assert_memory_equal(out, x + first, len * sizeof(float));
	free(out);
}

/* Pushes of up to `push` samples, each followed by drops down to no
 * more than `keep`. */
static void
run(const float *x, size_t hold, size_t push, size_t keep)
{
	struct sps_samplestore *s;
	size_t at = 0, first = 0, k;

	assert_int_equal(sps_samplestore_create(&s, hold), SPS_OK);
	while (at < N) {
		k = upto(push < N - at ? push : N - at);
		assert_int_equal(sps_samplestore_push(s, x + at, k), SPS_OK);
		at += k;
		assert_int_equal(sps_samplestore_len(s), at - first);
		assert_held(s, x, first);
		while (sps_samplestore_len(s) > keep) {
			k = upto(sps_samplestore_len(s) - keep);
			sps_samplestore_drop(s, k);
			first += k;
		}
		assert_held(s, x, first);
	}
	sps_samplestore_drop(s, sps_samplestore_len(s));
	assert_int_equal(sps_samplestore_len(s), 0);
	assert_int_equal(sps_samplestore_push(s, x, 10), SPS_OK);
	assert_held(s, x, 0);
	sps_samplestore_free(s);
}

static void
test_round_trip(void **state)
{
	float *x = series();

	(void)state;
	run(x, 20000, 5000, 10000);
	run(x, 20000, 3, 2);		/* emptied often */
	run(x, 100, 300, 50);		/* small blocks */
	run(x, 4000, 50000, 3000);	/* fed past what it was made for */
	sps_samplestore_free(NULL);
	free(x);
}

/* Packed blocks take half the bytes of floats, and a block or two more
 * than the samples. */
static void
test_bytes(void **state)
{
	size_t packed = sps_samplestore_bytes(126976, 126976, 1);
	size_t wide = sps_samplestore_bytes(126976, 126976, 0);

	(void)state;
	assert_true(packed > 126976 * 2 && packed < 126976 * 2 * 1.07);
	assert_true(wide > 126976 * 4 && wide < 126976 * 4 * 1.07);
	assert_true(sps_samplestore_bytes(126976, 1000, 1) < 20000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* unit-clean: the block engine on a small block: a static channel and a
 * hot one replaced by their clean neighbours' means, an impulse replaced
 * by the bandpass, the hold, a channel masked later keeping its clean
 * mean, and the counts of the report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "clean.h"

#define NC	32
#define NT	256

static float
noise(int t, int c)
{
	uint64_t z = ((uint64_t)t * NC + (uint64_t)c + 1) *
	    0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (float)(z >> 40) / (float)(1 << 24) * 3.46f;	/* rms 1 */
}

static void
block(float *x, int hot)
{
	int t, c;

	for (t = 0; t < NT; t++)
		for (c = 0; c < NC; c++)
			x[t * NC + c] = 100 + c + noise(t, c) *
			    (c == hot ? 10 : 1);
	for (c = 0; c < NC; c++)
		x[77 * NC + c] += 20;	/* an impulse: 113 sigma at DM 0 */
}

/* Channel c's mean over the block's spectra but the impulse's. */
static double
clean_mean(int c)
{
	double mean = 0;
	int t;

	for (t = 0; t < NT; t++)
		if (t != 77)
			mean += 100 + c + noise(t, c);
	return mean / (NT - 1);
}

static void
masks_clips_and_replaces(void **state)
{
	static float x[NT * NC];
	unsigned char fixed[NC] = { 0 };
	struct sps_clean_options o;
	struct sps_clean_block b;
	struct sps_header h;
	struct sps_clean *c;
	double mean;
	int t;

	(void)state;
	sps_header_init(&h);
	h.nchans = NC, h.nifs = 1;
	sps_clean_defaults(&o);
	assert_int_equal(sps_clean_create(&c, &h, NT, &o), SPS_OK);
	fixed[4] = 1;
	sps_clean_set_static(c, fixed);
	block(x, 20);
	assert_int_equal(sps_clean_execute(c, x, NT, &b), SPS_OK);
	assert_int_equal(b.clipped, 1);
	assert_int_equal(b.nstatic, 1);
	assert_int_equal(b.niqrm, 1);
	assert_int_equal(b.nmasked, 2);
	assert_true(b.masked[4] && b.masked[20] && !b.masked[5]);
	assert_int_equal(b.replaced, NC + 2 * (NT - 1));
	/* never clean: its clean neighbours' mean */
	mean = (clean_mean(19) + clean_mean(21)) / 2;
	assert_true(fabs(x[3 * NC + 20] - mean) < 1e-3);
	assert_true(fabs(x[3 * NC + 4] - (clean_mean(3) + clean_mean(5)) /
	    2) < 1e-3);
	assert_true(x[77 * NC + 20] == x[3 * NC + 20]);
	assert_true(x[77 * NC + 7] < 110);	/* the impulse is gone */
	/* the hot channel, quiet now, is held for o.hold blocks */
	for (t = 0; t < o.hold + 1; t++) {
		block(x, -1);
		assert_int_equal(sps_clean_execute(c, x, NT, &b), SPS_OK);
		assert_int_equal(b.masked[20], t < o.hold);
	}
	sps_clean_free(c);
}

/* A channel clean in one block and hot in the next keeps the first
 * block's mean, not its own (which holds what made it hot). */
static void
masked_later_keeps_its_clean_mean(void **state)
{
	static float x[NT * NC];
	struct sps_clean_options o;
	struct sps_clean_block b;
	struct sps_header h;
	struct sps_clean *c;
	int t;

	(void)state;
	sps_header_init(&h);
	h.nchans = NC, h.nifs = 1;
	sps_clean_defaults(&o);
	assert_int_equal(sps_clean_create(&c, &h, NT, &o), SPS_OK);
	block(x, -1);
	assert_int_equal(sps_clean_execute(c, x, NT, &b), SPS_OK);
	assert_int_equal(b.nmasked, 0);
	block(x, 20);
	for (t = 0; t < NT; t++)
		x[t * NC + 20] += 50;	/* and a carrier */
	assert_int_equal(sps_clean_execute(c, x, NT, &b), SPS_OK);
	assert_true(b.masked[20]);
	assert_true(fabs(x[5 * NC + 20] - clean_mean(20)) < 1e-3);
	sps_clean_free(c);
}

static void
short_blocks_and_bad_sizes(void **state)
{
	float x[4 * NC];
	struct sps_clean_options o;
	struct sps_clean_block b;
	struct sps_header h;
	struct sps_clean *c;

	(void)state;
	sps_header_init(&h);
	h.nchans = NC, h.nifs = 2;
	sps_clean_defaults(&o);
	assert_int_equal(sps_clean_create(&c, &h, 4, &o), SPS_EVALUE);
	h.nifs = 1;
	assert_int_equal(sps_clean_create(&c, &h, 4, &o), SPS_OK);
	memset(x, 0, sizeof(x));
	x[NC + 3] = 1000;	/* too few spectra to judge: kept */
	assert_int_equal(sps_clean_execute(c, x, 4, &b), SPS_OK);
	assert_int_equal(b.clipped, 0);
	assert_true(x[NC + 3] == 1000);
	assert_int_equal(sps_clean_execute(c, x, 5, &b), SPS_EUSAGE);
	sps_clean_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(masks_clips_and_replaces),
		cmocka_unit_test(masked_later_keeps_its_clean_mean),
		cmocka_unit_test(short_blocks_and_bad_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

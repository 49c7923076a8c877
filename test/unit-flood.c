/* unit-flood: flood flags (lib/flood.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "flood.h"

static struct sps_cand
cand_at(uint64_t sample)
{
	struct sps_cand c;

	memset(&c, 0, sizeof(c));
	c.best.dm_index = 3;
	c.best.dm = 1.5;
	c.best.sample = sample;
	c.best.time = sample * 1e-3;
	c.best.width = 1;
	c.best.snr = 9;
	c.members = 1;
	return c;
}

static void
test_flood(void **state)
{
	/* 1 s windows of 1000 samples; more than 2 is a flood */
	static const uint64_t at[] = { 100, 900, 1100, 1200, 1300, 2500 };
	static const int flag[] = { 0, 0, 1, 1, 1, 0 };
	struct sps_flood_window w;
	struct sps_flood f;
	struct sps_cand c;
	size_t i, k = 0;

	(void)state;
	assert_int_equal(sps_flood_init(&f, 2, 1, 1e-3), SPS_OK);
	for (i = 0; i < 6; i++) {
		c = cand_at(at[i]);
		assert_int_equal(sps_flood_add(&f, &c), SPS_OK);
		if (i == 1)	/* window 0 is not over yet */
			assert_int_equal(sps_flood_next(&f, &c), 0);
		if (i == 4) {	/* window 1 is known to flood */
			while (sps_flood_next(&f, &c)) {
				assert_int_equal(c.best.sample, at[k]);
				assert_int_equal(c.flood, flag[k]);
				k++;
			}
			assert_int_equal(k, 5);
			assert_int_equal(sps_flood_report(&f, &w), 0);
		}
	}
	assert_int_equal(sps_flood_report(&f, &w), 1);	/* window 1 over */
	assert_int_equal(w.number, 1);
	assert_int_equal(w.count, 3);
	assert_true(w.start == 1 && w.length == 1);
	sps_flood_finish(&f);
	assert_int_equal(sps_flood_next(&f, &c), 1);
	assert_int_equal(c.flood, 0);
	assert_int_equal(sps_flood_next(&f, &c), 0);
	assert_int_equal(f.windows, 1);
	assert_int_equal(f.flagged, 3);
	sps_flood_free(&f);
	/* rate 0: off, everything goes at once */
	assert_int_equal(sps_flood_init(&f, 0, 1, 1e-3), SPS_OK);
	for (i = 0; i < 6; i++) {
		c = cand_at(at[i]);
		assert_int_equal(sps_flood_add(&f, &c), SPS_OK);
		assert_int_equal(sps_flood_next(&f, &c), 1);
		assert_int_equal(c.flood, 0);
	}
	sps_flood_free(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flood),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

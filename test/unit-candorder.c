/* unit-candorder: candidate orders and the N brightest
 * (lib/candorder.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "candorder.h"

static void
set(struct sps_cand *c, double snr, uint64_t sample, int dmi, int width)
{
	memset(c, 0, sizeof(*c));
	c->best.snr = (float)snr;
	c->best.sample = sample;
	c->best.dm_index = dmi;
	c->best.dm = dmi * 0.5;
	c->best.width = width;
}

static void
test_parse(void **state)
{
	enum sps_cand_order order;

	(void)state;
	assert_int_equal(sps_cand_order_parse("snr", &order), SPS_OK);
	assert_int_equal(order, SPS_CAND_BY_SNR);
	assert_int_equal(sps_cand_order_parse("time", &order), SPS_OK);
	assert_int_equal(order, SPS_CAND_BY_TIME);
	assert_int_equal(sps_cand_order_parse("dm", &order), SPS_OK);
	assert_int_equal(order, SPS_CAND_BY_DM);
	assert_int_equal(sps_cand_order_parse("S/N", &order), SPS_EUSAGE);
	assert_string_equal(sps_errmsg(), "unknown order 'S/N' (snr, time or "
	    "dm)");
}

/* Ties of S/N or DM go by time, then trial, then width. */
static void
test_ties(void **state)
{
	struct sps_cand c[5];

	(void)state;
	set(&c[0], 9, 500, 4, 8);
	set(&c[1], 9, 100, 4, 8);
	set(&c[2], 9, 100, 2, 8);
	set(&c[3], 9, 100, 2, 4);
	set(&c[4], 10, 900, 6, 1);
	sps_cand_sort(c, 5, SPS_CAND_BY_SNR);
	assert_int_equal(c[0].best.sample, 900);
	assert_int_equal(c[1].best.width, 4);
	assert_int_equal(c[2].best.dm_index, 2);
	assert_int_equal(c[2].best.width, 8);
	assert_int_equal(c[3].best.dm_index, 4);
	assert_int_equal(c[3].best.sample, 100);
	assert_int_equal(c[4].best.sample, 500);
	sps_cand_sort(c, 5, SPS_CAND_BY_DM);
	assert_int_equal(c[0].best.width, 4);
	assert_int_equal(c[1].best.width, 8);
	assert_int_equal(c[2].best.sample, 100);
	assert_int_equal(c[3].best.sample, 500);
	assert_int_equal(c[4].best.dm_index, 6);
	sps_cand_sort(c, 5, SPS_CAND_BY_TIME);
	assert_int_equal(c[0].best.width, 4);
	assert_int_equal(c[4].best.sample, 900);
}

static void
test_keep_top(void **state)
{
	struct sps_cand c[4];
	size_t kept;

	(void)state;
	set(&c[0], 7, 100, 1, 1);
	set(&c[1], 12, 200, 1, 1);
	set(&c[2], 8, 300, 1, 1);
	set(&c[3], 12, 50, 1, 1);
	sps_cand_keep_top(c, 4, 2, &kept);
	assert_int_equal(kept, 2);
	assert_int_equal(c[0].best.sample, 50);
	assert_int_equal(c[1].best.sample, 200);
	sps_cand_keep_top(c, 4, 0, &kept);
	assert_int_equal(kept, 4);
	sps_cand_keep_top(c, 4, 9, &kept);
	assert_int_equal(kept, 4);
	sps_cand_keep_top(NULL, 0, 3, &kept);
	assert_int_equal(kept, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_keep_top),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

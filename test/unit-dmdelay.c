/* unit-dmdelay: the one delay function and constant. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dmdelay.h"

static void
test_delay_values(void **state)
{
	(void)state;
	assert_true(SPS_KDM == 4.148808e3);
	/* 1000 pc cm^-3 from 1500 to 1000 MHz: k*1000*(1e-6 - 1/2.25e6) */
	assert_true(fabs(sps_dm_delay(1000, 1000, 1500) -
	    4.148808e3 * 1000 * (1e-6 - 1 / 2.25e6)) < 1e-12);
	assert_true(sps_dm_delay(300, 1500, 1500) == 0);
	assert_true(sps_dm_delay(300, 1600, 1500) < 0);
}

static void
test_delay_rounds_to_nearest(void **state)
{
	double t = sps_dm_delay(50, 1400, 1500);

	(void)state;
	assert_int_equal(sps_dm_delay_samples(50, 1400, 1500, t / 10.4), 10);
	assert_int_equal(sps_dm_delay_samples(50, 1400, 1500, t / 10.6), 11);
}

static void
test_smear(void **state)
{
	(void)state;
	/* Barsdell eq. 5 intra-channel term: 8.3 us per MHz at 1 GHz, DM 1 */
	assert_true(fabs(sps_dm_smear(1, 1000, 1) - 8.297616e-6) < 1e-11);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delay_values),
		cmocka_unit_test(test_delay_rounds_to_nearest),
		cmocka_unit_test(test_smear),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

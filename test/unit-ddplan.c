/* unit-ddplan: PRESTO's DDplan.py (lib/ddplan.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ddplan.h"

/* The two golden plans of presto-transientx.md 1.4. */
static void
test_ddplan_golden(void **state)
{
	static const struct sps_ddplan_line want[] = {
		{ 0, 38.4, 0.2, 1, 4.8, 192, 24, 8, 0.7273 },
		{ 38.4, 60, 0.3, 2, 7.2, 72, 24, 3, 0.1364 },
		{ 60, 108, 0.5, 4, 12, 96, 24, 4, 0.09091 },
		{ 108, 204, 1, 8, 24, 96, 24, 4, 0.04545 },
	};
	struct sps_ddplan_obs obs = { 0.000072, 820, 48, 96 };
	struct sps_ddplan_opts o;
	struct sps_ddplan_line *l;
	char got[32], exp[32];
	int n, i;

	(void)state;
	sps_ddplan_defaults(&o);
	o.hidm = 200;
	o.numsub = 32;
	assert_int_equal(sps_ddplan(&obs, &o, &l, &n), SPS_OK);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		assert_true(fabs(l[i].lodm - want[i].lodm) < 5e-4);
		assert_true(fabs(l[i].hidm - want[i].hidm) < 5e-4);
		assert_true(l[i].ddm == want[i].ddm);
		assert_int_equal(l[i].downsamp, want[i].downsamp);
		assert_true(fabs(l[i].dsubdm - want[i].dsubdm) < 5e-3);
		assert_int_equal(l[i].numdms, want[i].numdms);
		assert_int_equal(l[i].dms_per_call, want[i].dms_per_call);
		assert_int_equal(l[i].calls, want[i].calls);
		snprintf(got, sizeof(got), "%.4g", l[i].work_fract);
		snprintf(exp, sizeof(exp), "%.4g", want[i].work_fract);
		assert_string_equal(got, exp);
	}
	free(l);
	/* the tutorial: dDM 2/3, D 4/8, dsubDM 48/72, calls 7/3, starts
	 * 0/336 */
	obs.fctr = 1400;
	obs.bw = 96;
	o.hidm = 500;
	o.res = 0.5;
	assert_int_equal(sps_ddplan(&obs, &o, &l, &n), SPS_OK);
	assert_int_equal(n, 2);
	assert_true(l[0].ddm == 2 && l[1].ddm == 3);
	assert_int_equal(l[0].downsamp, 4);
	assert_int_equal(l[1].downsamp, 8);
	assert_true(fabs(l[0].dsubdm - 48) < 1e-9);
	assert_true(fabs(l[1].dsubdm - 72) < 1e-9);
	assert_int_equal(l[0].calls, 7);
	assert_int_equal(l[1].calls, 3);
	assert_true(l[0].lodm == 0 && fabs(l[1].lodm - 336) < 1e-9);
	free(l);
}

static void
test_ddplan_downsamps(void **state)
{
	static const int want2400[] = { 1, 2, 3, 5, 8, 12, 24, 48, 96, 150,
	    240 };
	int ds[SPS_DDPLAN_MAXDS], n, i;

	(void)state;
	n = sps_ddplan_downsamps(2400, ds);
	assert_int_equal(n, 11);
	for (i = 0; i < n; i++)
		assert_int_equal(ds[i], want2400[i]);
	n = sps_ddplan_downsamps(1024, ds);
	assert_int_equal(n, 9);
	for (i = 0; i < n; i++)
		assert_int_equal(ds[i], 1 << i);
	assert_int_equal(sps_ddplan_downsamps(7, ds), 2);	/* 1, 7 */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ddplan_golden),
		cmocka_unit_test(test_ddplan_downsamps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

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

/* DDplan.py's default observation, and its options changing one. */
static void
test_observation(void **state)
{
	struct sps_ddplan_obs obs, set = { 0.0002, 820, 48, 96 };
	struct sps_header h;

	(void)state;
	sps_header_init(&h);
	sps_ddplan_default_header(&h);
	sps_ddplan_obs_from_header(&obs, &h);
	assert_int_equal(obs.numchan, 1024);
	assert_true(fabs(obs.fctr - 1400) < 1e-9);
	assert_true(fabs(obs.bw - 300) < 1e-9);
	assert_true(obs.dt == 64e-6 && h.foff < 0);
	/* --fctr and --numchan only: the band keeps 300 MHz and 64 us */
	sps_ddplan_obs_apply(&h, &set, SPS_DDPLAN_FCTR | SPS_DDPLAN_NUMCHAN);
	sps_ddplan_obs_from_header(&obs, &h);
	assert_int_equal(h.nchans, 96);
	assert_true(fabs(obs.fctr - 820) < 1e-9);
	assert_true(fabs(obs.bw - 300) < 1e-9);
	assert_true(h.tsamp == 64e-6);
	/* all four, on an ascending band: it stays ascending */
	h.fch1 = 700;
	h.foff = 1;
	sps_ddplan_obs_apply(&h, &set, SPS_DDPLAN_FCTR | SPS_DDPLAN_BW |
	    SPS_DDPLAN_NUMCHAN | SPS_DDPLAN_DT);
	assert_true(h.foff == 0.5 && h.tsamp == 0.0002);
	assert_true(fabs(h.fch1 - (820 - 0.25 * 95)) < 1e-9);
	sps_header_free(&h);
}

static char *
printed(const struct sps_ddplan_line *l, int n, int numsub, int json)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (json)
		sps_ddplan_json(f, l, n);
	else
		sps_ddplan_print(f, l, n, numsub);
	fclose(f);
	return text;
}

/* The table as DDplan.py prints it, and the same lines as JSON. */
static void
test_table_and_json(void **state)
{
	static const struct sps_ddplan_line l[] = {
		{ 0, 38.4, 0.2, 1, 4.8, 192, 24, 8, 0.7273 },
		{ 38.4, 60, 0.3, 2, 7.2, 72, 24, 3, 0.1364 },
	};
	char *text;

	(void)state;
	text = printed(l, 2, 32, 0);
	assert_string_equal(text, "\n  Low DM    High DM     dDM  DownSamp  "
	    "dsubDM   #DMs  DMs/call  calls  WorkFract\n"
	    "    0.000     38.400    0.20       1    4.80     192      24"
	    "       8    0.7273\n"
	    "   38.400     60.000    0.30       2    7.20      72      24"
	    "       3    0.1364\n\n");
	free(text);
	text = printed(l, 1, 0, 0);
	assert_string_equal(text, "\n  Low DM    High DM     dDM  DownSamp   "
	    "#DMs  WorkFract\n"
	    "    0.000     38.400    0.20       1     192   0.7273\n\n");
	free(text);
	text = printed(l, 2, 0, 1);
	assert_string_equal(text, "[\n  {\"lodm\": 0, \"hidm\": 38.4, "
	    "\"ddm\": 0.2, \"downsamp\": 1, \"dsubdm\": 4.8, \"numdms\": 192, "
	    "\"dms_per_call\": 24, \"calls\": 8, \"work_fract\": 0.7273},\n"
	    "  {\"lodm\": 38.4, \"hidm\": 60, \"ddm\": 0.3, \"downsamp\": 2, "
	    "\"dsubdm\": 7.2, \"numdms\": 72, \"dms_per_call\": 24, "
	    "\"calls\": 3, \"work_fract\": 0.1364}]");
	free(text);
	text = printed(l, 0, 0, 1);
	assert_string_equal(text, "[]");
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ddplan_golden),
		cmocka_unit_test(test_ddplan_downsamps),
		cmocka_unit_test(test_observation),
		cmocka_unit_test(test_table_and_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* unit-planmake: how sps-plan makes a plan (lib/planmake.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dedisp_engine.h"
#include "planmake.h"

/* 256 channels of 1 MHz below 1500 MHz, 100 us. */
static void
observation(struct sps_header *h)
{
	h->nchans = 256;
	h->fch1 = 1500;
	h->foff = -1;
	h->tsamp = 100e-6;
}

static void
test_defaults(void **state)
{
	struct sps_plan_recipe r;
	struct sps_ddplan_opts dd;

	(void)state;
	sps_plan_recipe_defaults(&r);
	assert_int_equal(r.mode, SPS_PLAN_DEDISP);
	assert_true(r.dm_lo == 0 && r.dm_hi == 1000 && r.tol == 1.25 &&
	    r.width_us == 40);
	assert_int_equal(r.dd.blocklen, 1024);
	assert_int_equal(r.max_scrunch, SPS_PLAN_MAX_SCRUNCH);
	assert_int_equal(r.gulp, SPS_DEDISP_BLOCK);
	assert_false(r.scrunch || r.obs_given || r.dd_given || r.nsub ||
	    r.dm_given);
	assert_string_equal(sps_plan_mode_name(SPS_PLAN_DEDISP), "dedisp");
	assert_string_equal(sps_plan_mode_name(SPS_PLAN_DDPLAN), "ddplan");
	assert_string_equal(sps_plan_mode_name(SPS_PLAN_STEP), "step");
	assert_string_equal(sps_plan_mode_name(SPS_PLAN_LIST), "list");
	/* DDplan's options: its own DM range unless --dm gave one */
	r.dd.hidm = 300;
	r.nsub = 32;
	sps_plan_ddplan_opts(&r, &dd);
	assert_true(dd.lodm == 0 && dd.hidm == 300);
	assert_int_equal(dd.numsub, 32);
	r.dm_lo = 5;
	r.dm_hi = 50;
	r.dm_given = 1;
	sps_plan_ddplan_opts(&r, &dd);
	assert_true(dd.lodm == 5 && dd.hidm == 50);
}

/* The data's header, then the options; the list's or DDplan's without
 * data; an observation that cannot be planned for. */
static void
test_observation(void **state)
{
	struct sps_plan_recipe r;
	struct sps_plan_made m;

	(void)state;
	sps_plan_recipe_defaults(&r);
	sps_plan_made_init(&m);
	assert_int_equal(sps_plan_obs_known(&r, &m), 0);
	observation(&m.obs);
	r.obs_given = SPS_PLAN_TSAMP;
	r.tsamp = 200e-6;
	assert_int_equal(sps_plan_obs_known(&r, &m), SPS_PLAN_TSAMP);
	m.nsamples = 4096;	/* the data's */
	assert_int_equal(sps_plan_observation(&r, 1, &m), SPS_OK);
	assert_true(m.obs.nchans == 256 && m.obs.fch1 == 1500 &&
	    m.obs.tsamp == 200e-6);
	assert_true(m.nsamples == 4096);
	r.nsamples = 1000;	/* --nsamples */
	assert_int_equal(sps_plan_observation(&r, 1, &m), SPS_OK);
	assert_true(m.nsamples == 1000);
	r.nsamples = -1;
	sps_plan_made_free(&m);
	/* without data: the list's own observation, then the options */
	m.plan.has_obs = 1;
	m.plan.nchans = 64;
	m.plan.fch1 = 1400;
	m.plan.foff = -2;
	m.plan.tsamp = 64e-6;
	assert_int_equal(sps_plan_obs_known(&r, &m), SPS_PLAN_OBS_ALL);
	assert_int_equal(sps_plan_observation(&r, 0, &m), SPS_OK);
	assert_true(m.obs.nchans == 64 && m.obs.fch1 == 1400 &&
	    m.obs.foff == -2 && m.obs.tsamp == 200e-6);
	sps_plan_made_free(&m);
	/* DDplan's default, changed by its --numchan */
	r.obs_given = 0;
	r.dd_given = SPS_DDPLAN_NUMCHAN;
	r.dd_obs.numchan = 512;
	assert_int_equal(sps_plan_obs_known(&r, &m), SPS_PLAN_OBS_ALL);
	assert_int_equal(sps_plan_observation(&r, 0, &m), SPS_OK);
	assert_int_equal(m.obs.nchans, 512);
	assert_true(fabs(m.obs.foff + 300.0 / 512) < 1e-12 &&
	    m.obs.tsamp == 64e-6);
	sps_plan_made_free(&m);
	/* an options-only observation that reaches 0 MHz */
	sps_plan_recipe_defaults(&r);
	r.obs_given = SPS_PLAN_OBS_ALL;
	r.nchans = 4096;
	r.fch1 = 1400;
	r.foff = -1;
	r.tsamp = 64e-6;
	assert_int_equal(sps_plan_observation(&r, 0, &m), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "observation: the band"));
	sps_plan_made_free(&m);
}

static void
test_make(void **state)
{
	struct sps_plan_step steps[] = { { 0, 1, 3 }, { 10, 2, 2 } };
	struct sps_plan_recipe r;
	struct sps_plan_made m;
	struct sps_plan q;
	size_t i;

	(void)state;
	sps_plan_recipe_defaults(&r);
	r.dm_hi = 300;
	/* dedisp: the same list as sps_plan_dedisp, with the observation */
	sps_plan_made_init(&m);
	observation(&m.obs);
	sps_plan_init(&q);
	assert_int_equal(sps_plan_make(&m, &r), SPS_OK);
	assert_null(m.lines);
	assert_int_equal(m.nlines, 0);
	assert_int_equal(sps_plan_dedisp(&q, &m.obs, 0, 300, 40, 1.25),
	    SPS_OK);
	assert_int_equal(m.plan.ntrials, q.ntrials);
	for (i = 0; i < q.ntrials; i++)
		assert_true(m.plan.dm[i] == q.dm[i] && m.plan.scrunch[i] == 1);
	assert_true(m.plan.has_obs && m.plan.nchans == 256 &&
	    m.plan.tsamp == 100e-6);
	assert_true(m.nranges >= 1 && m.ranges[0].first == 0);
	sps_plan_made_free(&m);
	sps_plan_free(&q);
	/* steps, scrunched from the diagonal DM */
	r.mode = SPS_PLAN_STEP;
	r.steps = steps;
	r.nsteps = 2;
	r.scrunch = 1;
	r.max_scrunch = 4;
	observation(&m.obs);
	assert_int_equal(sps_plan_make(&m, &r), SPS_OK);
	assert_int_equal(m.plan.ntrials, 5);
	assert_true(m.plan.dm[3] == 10 && m.plan.dm[4] == 12);
	sps_plan_steps(&q, 0, 1, 3, 1);
	sps_plan_steps(&q, 10, 2, 2, 1);
	assert_int_equal(sps_plan_scrunch(&q, &m.obs, 4), SPS_OK);
	for (i = 0; i < q.ntrials; i++)
		assert_int_equal(m.plan.scrunch[i], q.scrunch[i]);
	sps_plan_made_free(&m);
	sps_plan_free(&q);
	/* steps that overlap: the check names the trial */
	steps[1].start = 1;
	observation(&m.obs);
	assert_int_equal(sps_plan_make(&m, &r), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "trial 3: DM 1 is not above"));
	sps_plan_made_free(&m);
	/* a bad step is named as --step */
	steps[0].step = 0;
	observation(&m.obs);
	assert_int_equal(sps_plan_make(&m, &r), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "--step: DM step 0"));
	sps_plan_made_free(&m);
}

static void
test_make_ddplan_and_list(void **state)
{
	struct sps_plan_recipe r;
	struct sps_plan_made m;
	int i, total = 0;

	(void)state;
	sps_plan_recipe_defaults(&r);
	r.mode = SPS_PLAN_DDPLAN;
	r.dd.hidm = 200;
	sps_plan_made_init(&m);
	observation(&m.obs);
	assert_int_equal(sps_plan_make(&m, &r), SPS_OK);
	assert_true(m.nlines > 0 && m.lines != NULL);
	for (i = 0; i < m.nlines; i++)
		total += m.lines[i].numdms;
	assert_int_equal(m.plan.ntrials, total);
	assert_int_equal(m.plan.scrunch[0], m.lines[0].downsamp);
	sps_plan_made_free(&m);
	/* too many sub-bands for the ranges' predictions */
	r.nsub = 257;
	observation(&m.obs);
	assert_int_equal(sps_plan_make(&m, &r), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "sub-bands"));
	sps_plan_made_free(&m);
	/* a list: its trials stay, scrunched if asked */
	sps_plan_recipe_defaults(&r);
	r.mode = SPS_PLAN_LIST;
	r.scrunch = 1;
	observation(&m.obs);
	sps_plan_add(&m.plan, 1, 1);
	sps_plan_add(&m.plan, 1000, 1);
	assert_int_equal(sps_plan_make(&m, &r), SPS_OK);
	assert_int_equal(m.plan.ntrials, 2);
	assert_int_equal(m.plan.scrunch[0], 1);
	assert_true(m.plan.scrunch[1] > 1);
	assert_int_equal(m.nranges, 2);
	sps_plan_made_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_observation),
		cmocka_unit_test(test_make),
		cmocka_unit_test(test_make_ddplan_and_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

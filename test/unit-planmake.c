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

#include "planmake.h"

/* 256 channels of 1 MHz below 1500 MHz, 100 us. */
static void
observation(struct sps_header *h)
{
	sps_header_init(h);
	h->nchans = 256;
	h->fch1 = 1500;
	h->foff = -1;
	h->tsamp = 100e-6;
}

static void
test_defaults(void **state)
{
	struct sps_plan_recipe r;

	(void)state;
	sps_plan_recipe_defaults(&r);
	assert_int_equal(r.mode, SPS_PLAN_DEDISP);
	assert_true(r.dm_lo == 0 && r.dm_hi == 1000 && r.tol == 1.25 &&
	    r.width_us == 40);
	assert_int_equal(r.dd.blocklen, 1024);
	assert_int_equal(r.max_scrunch, SPS_PLAN_MAX_SCRUNCH);
	assert_int_equal(r.gulp, SPS_PLAN_GULP);
	assert_false(r.scrunch || r.obs_given || r.dd_given || r.nsub);
	assert_string_equal(sps_plan_mode_name(SPS_PLAN_DEDISP), "dedisp");
	assert_string_equal(sps_plan_mode_name(SPS_PLAN_DDPLAN), "ddplan");
	assert_string_equal(sps_plan_mode_name(SPS_PLAN_STEP), "step");
	assert_string_equal(sps_plan_mode_name(SPS_PLAN_LIST), "list");
}

/* The data's header, then the options; the list's or DDplan's without
 * data; an observation that cannot be planned for. */
static void
test_observation(void **state)
{
	struct sps_plan_recipe r;
	struct sps_header h;
	struct sps_plan listed;

	(void)state;
	sps_plan_recipe_defaults(&r);
	sps_plan_init(&listed);
	observation(&h);
	r.obs_given = SPS_PLAN_TSAMP;
	r.tsamp = 200e-6;
	assert_int_equal(sps_plan_observation(&r, &listed, 1, &h), SPS_OK);
	assert_true(h.nchans == 256 && h.fch1 == 1500 && h.tsamp == 200e-6);
	/* without data: the list's own observation, then the options */
	listed.has_obs = 1;
	listed.nchans = 64;
	listed.fch1 = 1400;
	listed.foff = -2;
	listed.tsamp = 64e-6;
	sps_header_init(&h);
	assert_int_equal(sps_plan_observation(&r, &listed, 0, &h), SPS_OK);
	assert_true(h.nchans == 64 && h.fch1 == 1400 && h.foff == -2 &&
	    h.tsamp == 200e-6);
	/* DDplan's default, changed by its --numchan */
	listed.has_obs = 0;
	r.obs_given = 0;
	r.mode = SPS_PLAN_DDPLAN;
	r.dd_given = SPS_DDPLAN_NUMCHAN;
	r.dd_obs.numchan = 512;
	assert_true(sps_plan_ddplan_obs(&r));
	sps_header_init(&h);
	assert_int_equal(sps_plan_observation(&r, &listed, 0, &h), SPS_OK);
	assert_int_equal(h.nchans, 512);
	assert_true(fabs(h.foff + 300.0 / 512) < 1e-12 && h.tsamp == 64e-6);
	/* an options-only observation that reaches 0 MHz */
	sps_plan_recipe_defaults(&r);
	assert_false(sps_plan_ddplan_obs(&r));
	r.obs_given = SPS_PLAN_OBS_ALL;
	r.nchans = 4096;
	r.fch1 = 1400;
	r.foff = -1;
	r.tsamp = 64e-6;
	sps_header_init(&h);
	assert_int_equal(sps_plan_observation(&r, &listed, 0, &h),
	    SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "observation: the band"));
}

static void
test_make(void **state)
{
	struct sps_plan_step steps[] = { { 0, 1, 3 }, { 10, 2, 2 } };
	struct sps_ddplan_line *lines;
	struct sps_plan_recipe r;
	struct sps_header h;
	struct sps_plan p, q;
	int nlines;
	size_t i;

	(void)state;
	observation(&h);
	sps_plan_recipe_defaults(&r);
	r.dm_hi = 300;
	/* dedisp: the same list as sps_plan_dedisp, with the observation */
	sps_plan_init(&p);
	sps_plan_init(&q);
	assert_int_equal(sps_plan_make(&p, &r, &h, &lines, &nlines), SPS_OK);
	assert_null(lines);
	assert_int_equal(nlines, 0);
	assert_int_equal(sps_plan_dedisp(&q, &h, 0, 300, 40, 1.25), SPS_OK);
	assert_int_equal(p.ntrials, q.ntrials);
	for (i = 0; i < p.ntrials; i++)
		assert_true(p.dm[i] == q.dm[i] && p.scrunch[i] == 1);
	assert_true(p.has_obs && p.nchans == 256 && p.tsamp == 100e-6);
	sps_plan_free(&p);
	sps_plan_free(&q);
	/* steps, scrunched from the diagonal DM */
	r.mode = SPS_PLAN_STEP;
	r.steps = steps;
	r.nsteps = 2;
	r.scrunch = 1;
	r.max_scrunch = 4;
	assert_int_equal(sps_plan_make(&p, &r, &h, &lines, &nlines), SPS_OK);
	assert_int_equal(p.ntrials, 5);
	assert_true(p.dm[3] == 10 && p.dm[4] == 12);
	sps_plan_init(&q);
	sps_plan_steps(&q, 0, 1, 3, 1);
	sps_plan_steps(&q, 10, 2, 2, 1);
	assert_int_equal(sps_plan_scrunch(&q, &h, 4), SPS_OK);
	for (i = 0; i < p.ntrials; i++)
		assert_int_equal(p.scrunch[i], q.scrunch[i]);
	sps_plan_free(&p);
	sps_plan_free(&q);
	/* steps that overlap: the check names the trial */
	steps[1].start = 1;
	assert_int_equal(sps_plan_make(&p, &r, &h, &lines, &nlines),
	    SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "trial 3: DM 1 is not above"));
	sps_plan_free(&p);
	/* a bad step is named as --step */
	steps[0].step = 0;
	assert_int_equal(sps_plan_make(&p, &r, &h, &lines, &nlines),
	    SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "--step: DM step 0"));
	sps_plan_free(&p);
}

static void
test_make_ddplan_and_list(void **state)
{
	struct sps_ddplan_line *lines;
	struct sps_plan_recipe r;
	struct sps_header h;
	struct sps_plan p;
	int nlines, i, total = 0;

	(void)state;
	observation(&h);
	sps_plan_recipe_defaults(&r);
	r.mode = SPS_PLAN_DDPLAN;
	r.dd.hidm = 200;
	sps_plan_init(&p);
	assert_int_equal(sps_plan_make(&p, &r, &h, &lines, &nlines), SPS_OK);
	assert_true(nlines > 0 && lines != NULL);
	for (i = 0; i < nlines; i++)
		total += lines[i].numdms;
	assert_int_equal(p.ntrials, total);
	assert_int_equal(p.scrunch[0], lines[0].downsamp);
	free(lines);
	sps_plan_free(&p);
	/* DDplan's factors that are not powers of 2: no lines kept */
	r.dd.blocklen = 2400;
	r.dd.hidm = 1000;
	assert_int_equal(sps_plan_make(&p, &r, &h, &lines, &nlines),
	    SPS_EVALUE);
	assert_null(lines);
	assert_int_equal(nlines, 0);
	sps_plan_free(&p);
	/* a list: its trials stay, scrunched if asked */
	sps_plan_recipe_defaults(&r);
	r.mode = SPS_PLAN_LIST;
	r.scrunch = 1;
	sps_plan_add(&p, 1, 1);
	sps_plan_add(&p, 1000, 1);
	assert_int_equal(sps_plan_make(&p, &r, &h, &lines, &nlines), SPS_OK);
	assert_int_equal(p.ntrials, 2);
	assert_int_equal(p.scrunch[0], 1);
	assert_true(p.scrunch[1] > 1);
	sps_plan_free(&p);
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

/* unit-planreport: what sps-plan shows of a plan (lib/planreport.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "planreport.h"

enum { TEXT, JSON, REPORT };

/* A plan of r for 256 channels of 1 MHz below 1500 MHz, 100 us. */
static void
make(struct sps_plan_made *m, const struct sps_plan_recipe *r)
{
	sps_plan_made_init(m);
	m->obs.nchans = 256;
	m->obs.fch1 = 1500;
	m->obs.foff = -1;
	m->obs.tsamp = 100e-6;
	assert_int_equal(sps_plan_make(m, r), SPS_OK);
}

static char *
shown(int what, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (what == TEXT)
		assert_int_equal(sps_plan_write_made(f, m, r), SPS_OK);
	else if (what == JSON)
		assert_int_equal(sps_plan_json_made(f, m, r), SPS_OK);
	else
		sps_plan_report(f, m, r);
	fclose(f);
	return text;
}

static void
assert_has(const char *text, const char *part)
{
	if (strstr(text, part) == NULL)
		fail_msg("'%s' not in:\n%s", part, text);
}

/* The comment of the text plan says how each generator made it. */
static void
test_comment(void **state)
{
	struct sps_plan_step steps[] = { { 0, 1, 3 }, { 10, 2, 2 } };
	struct sps_plan_recipe r;
	struct sps_plan_made m;
	char *text;

	(void)state;
	sps_plan_recipe_defaults(&r);
	r.dm_hi = 300;
	make(&m, &r);
	text = shown(TEXT, &m, &r);
	assert_has(text, "# sps-plan: DM trials for sps-dedisperse "
	    "(sps-plan(1))\n# made by sps-plan " SPS_VERSION ": dedisp list, "
	    "--dm 0 300 --dm_tol 1.25 --dm_pulse_width 40\nsps-plan 1\n"
	    "nchans 256\n");
	free(text);
	sps_plan_made_free(&m);
	r.mode = SPS_PLAN_STEP;
	r.steps = steps;
	r.nsteps = 2;
	r.scrunch = 1;
	r.max_scrunch = 4;
	make(&m, &r);
	text = shown(TEXT, &m, &r);
	assert_has(text, ": 2 --step ranges\n# scrunch factors from the "
	    "diagonal DM ");
	assert_has(text, " (largest 4)\nsps-plan 1\n");
	free(text);
	sps_plan_made_free(&m);
	r.nsteps = 1;
	r.scrunch = 0;
	make(&m, &r);
	text = shown(TEXT, &m, &r);
	assert_has(text, ": 1 --step range\nsps-plan 1\n");
	free(text);
	sps_plan_made_free(&m);
	sps_plan_recipe_defaults(&r);
	r.mode = SPS_PLAN_DDPLAN;
	r.dm_lo = 5;
	r.dm_hi = 50;
	r.dm_given = 1;
	r.nsub = 32;
	make(&m, &r);
	text = shown(TEXT, &m, &r);
	assert_has(text, ": DDplan, --loDM 5 --hiDM 50 --blocklen 1024 "
	    "--subbands 32 --procs 1 --cohdm 0 --res 0\n");
	free(text);
	sps_plan_made_free(&m);
	sps_plan_recipe_defaults(&r);
	r.mode = SPS_PLAN_LIST;
	r.list = "my.plan";
	sps_plan_made_init(&m);
	sps_plan_add(&m.plan, 7, 1);
	m.obs.nchans = 256;
	m.obs.fch1 = 1500;
	m.obs.foff = -1;
	m.obs.tsamp = 100e-6;
	assert_int_equal(sps_plan_make(&m, &r), SPS_OK);
	text = shown(TEXT, &m, &r);
	assert_has(text, ": --list my.plan\n");
	free(text);
	sps_plan_made_free(&m);
}

static void
test_json(void **state)
{
	struct sps_plan_recipe r;
	struct sps_plan_made m;
	char *text;

	(void)state;
	sps_plan_recipe_defaults(&r);
	r.dm_hi = 100;
	r.gulp = 1000;
	make(&m, &r);
	text = shown(JSON, &m, &r);
	assert_has(text, "{\"format\": \"sps-plan\", \"version\": 1,\n "
	    "\"mode\": \"dedisp\", \"diagonal_dm\": ");
	assert_has(text, ", \"nsamps_gulp\": 1000, \"max_delay\": ");
	assert_has(text, "\"ranges\": [\n  {\"first\": 0, ");
	assert_true(strstr(text, "ddplan") == NULL);
	free(text);
	sps_plan_made_free(&m);
	r.mode = SPS_PLAN_DDPLAN;
	r.dd.hidm = 100;
	make(&m, &r);
	text = shown(JSON, &m, &r);
	assert_has(text, "\"mode\": \"ddplan\"");
	assert_has(text, ",\n \"ddplan\": [\n  {\"lodm\": 0, ");
	free(text);
	sps_plan_made_free(&m);
}

static void
test_report(void **state)
{
	struct sps_plan_step steps[] = { { 0, 1, 3 }, { 10, 2, 2 } };
	struct sps_plan_recipe r;
	struct sps_plan_made m;
	char *text;

	(void)state;
	sps_plan_recipe_defaults(&r);
	r.mode = SPS_PLAN_STEP;
	r.steps = steps;
	r.nsteps = 2;
	make(&m, &r);
	text = shown(REPORT, &m, &r);
	assert_has(text, "sps-plan: 5 trials, DM 0 to 12 (step)\nsps-plan: "
	    "256 channels, 1500 to 1245 MHz, tsamp 100 us, diagonal DM ");
	assert_has(text, "sps-plan: smearing in ms; S/N kept by a pulse as "
	    "wide as the narrowest boxcar (b = tsamp x scr) and by a 1 ms "
	    "pulse:\n     DM lo      DM hi  trials  step min  step max  scr"
	    "    t_scr   t_step   t_chan    t_sub    total  S/N(b) S/N(1ms)\n"
	    "     0.000      2.000       3         1         8    1      0.1 ");
	/* the S/N for the widths the search covers, not for the dedisp
	 * list's 40 us: 0.1 ms and 1 ms pulses */
	assert_has(text, "\n    10.000     12.000       2         2         2 "
	    "   1      0.1   0.8327   0.0516        0   0.8403   34.4%    "
	    "87.5%\n");
	assert_true(strstr(text, "40 us") == NULL);
	assert_has(text, "\nsps-plan: work 1.28e+07 channel additions per "
	    "second of data\nsps-plan: memory ");
	assert_true(strstr(text, "Low DM") == NULL);
	free(text);
	/* the data's length, sub-bands */
	m.nsamples = 1000;
	r.nsub = 16;
	text = shown(REPORT, &m, &r);
	assert_has(text, "sps-plan: smearing in ms, with sub-bands; S/N kept ");
	assert_has(text, " for 1000 samples\n");
	free(text);
	sps_plan_made_free(&m);
	/* DDplan's table first */
	sps_plan_recipe_defaults(&r);
	r.mode = SPS_PLAN_DDPLAN;
	r.dd.hidm = 100;
	make(&m, &r);
	text = shown(REPORT, &m, &r);
	assert_true(strncmp(text, "\n  Low DM    High DM", 20) == 0);
	assert_has(text, "\n\nsps-plan: ");
	free(text);
	sps_plan_made_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comment),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* unit-plan: DM-trial plans (lib/plan.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ddplan.h"
#include "dmdelay.h"
#include "plan.h"

/* Heimdall's defaults (heimdall-dedisp.md 1.3). */
static void
heimdall_header(struct sps_header *h)
{
	sps_header_init(h);
	h->nchans = 1024;
	h->fch1 = 1581.804688;
	h->foff = -0.390625;
	h->tsamp = 64e-6;
	h->nbits = 8;
	h->nifs = 1;
}

static int
close_to(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fmax(fabs(a), fabs(b));
}

static void
test_dedisp_heimdall_defaults(void **state)
{
	struct sps_header h;
	struct sps_plan p;

	(void)state;
	heimdall_header(&h);
	sps_plan_init(&p);
	assert_int_equal(sps_plan_dedisp(&p, &h, 0, 1000, 40, 1.25), SPS_OK);
	/* the reference's numbers: 1197 trials, 0, 0.180007, 0.360012, ...
	 * 998.567, 1001.48 */
	assert_int_equal(p.ntrials, 1197);
	assert_true(p.dm[0] == 0);
	assert_true(close_to(p.dm[1], 0.180007, 3e-6));
	assert_true(close_to(p.dm[2], 0.360012, 3e-6));
	assert_true(close_to(p.dm[1195], 998.567, 1e-6));
	assert_true(close_to(p.dm[1196], 1001.48, 1e-5));
	assert_int_equal(sps_plan_check(&p), SPS_OK);
	sps_plan_free(&p);
	/* DM 0-2000: 1435 trials, the last 2003.35 */
	assert_int_equal(sps_plan_dedisp(&p, &h, 0, 2000, 40, 1.25), SPS_OK);
	assert_int_equal(p.ntrials, 1435);
	assert_true(close_to(p.dm[1434], 2003.35, 1e-5));
	sps_plan_free(&p);
}

static void
test_dedisp_edges(void **state)
{
	struct sps_header h;
	struct sps_plan p;

	(void)state;
	heimdall_header(&h);
	sps_plan_init(&p);
	/* lo == hi: the one trial */
	assert_int_equal(sps_plan_dedisp(&p, &h, 50, 50, 40, 1.25), SPS_OK);
	assert_int_equal(p.ntrials, 1);
	assert_true(p.dm[0] == 50);
	sps_plan_free(&p);
	/* tol 1 never advances in dedisp; here it is refused */
	assert_int_equal(sps_plan_dedisp(&p, &h, 0, 10, 40, 1.0), SPS_EVALUE);
	assert_int_equal(sps_plan_dedisp(&p, &h, 0, 10, 40, 0.9), SPS_EVALUE);
	assert_int_equal(sps_plan_dedisp(&p, &h, -1, 10, 40, 1.25),
	    SPS_EVALUE);
	assert_int_equal(sps_plan_dedisp(&p, &h, 10, 5, 40, 1.25), SPS_EVALUE);
	assert_int_equal(p.ntrials, 0);
	h.foff = 0;
	assert_int_equal(sps_plan_dedisp(&p, &h, 0, 10, 40, 1.25), SPS_EVALUE);
	sps_plan_free(&p);
}

/*
 * Barsdell eq. 21 with N' = 1, worked by hand: 2 channels, fch1 1000 MHz,
 * foff -250 MHz, tsamp 64 us.  nu_N = 1000 - 2*250 = 500 MHz and
 * nu_(N-1) = 750 MHz; 1/500^2 - 1/750^2 = 1/450000 MHz^-2, so
 * Delta T(N) - Delta T(N-1) = 4148.808 / (64e-6 * 450000) = 144.05583 samples
 * per unit DM, and DM_diag = 0.5 / 144.05583 = 14.4 / 4148.808
 * = 0.003470876454 pc cm^-3.
 */
static void
test_diagonal_worked_example(void **state)
{
	struct sps_header h;
	double dm;

	(void)state;
	sps_header_init(&h);
	h.nchans = 2;
	h.fch1 = 1000;
	h.foff = -250;
	h.tsamp = 64e-6;
	assert_int_equal(sps_diagonal_dm(&h, 1, &dm), SPS_OK);
	assert_true(close_to(dm, 14.4 / 4148.808, 1e-12));
	assert_true(close_to(dm, 0.003470876454, 1e-9));
	/* the same band in ascending order gives the same diagonal */
	h.fch1 = 750;
	h.foff = 250;
	assert_int_equal(sps_diagonal_dm(&h, 1, &dm), SPS_OK);
	assert_true(close_to(dm, 14.4 / 4148.808, 1e-12));
	/* N' = 2 (the whole band): nu_0 = 1000, nu_2 = 500:
	 * (2 - 0.5) / (4148.808 * (1/500^2 - 1/1000^2) / 64e-6)
	 * = 1.5 * 64e-6 / (4148.808 * 3e-6) = 32 / 4148.808 */
	assert_int_equal(sps_diagonal_dm(&h, 2, &dm), SPS_OK);
	assert_true(close_to(dm, 32 / 4148.808, 1e-12));
	assert_int_equal(sps_diagonal_dm(&h, 3, &dm), SPS_EVALUE);
	/* Heimdall's setup: 2 k df / f^3 at 1182 MHz gives 16.30 */
	heimdall_header(&h);
	assert_int_equal(sps_diagonal_dm(&h, 1, &dm), SPS_OK);
	assert_true(close_to(dm, 16.3038067, 1e-7));
}

static void
test_scrunch_by_diagonal(void **state)
{
	struct sps_header h;
	struct sps_plan p;
	double d;

	(void)state;
	heimdall_header(&h);
	assert_int_equal(sps_diagonal_dm(&h, 1, &d), SPS_OK);
	sps_plan_init(&p);
	sps_plan_add(&p, 0, 1);
	sps_plan_add(&p, 2 * d, 1);		/* not above 2 diag: 1 */
	sps_plan_add(&p, 2 * d * 1.0001, 1);	/* 2 */
	sps_plan_add(&p, 4 * d * 1.0001, 1);	/* 4 */
	sps_plan_add(&p, 7.99 * d, 1);		/* 4 */
	sps_plan_add(&p, 1000 * d, 1);		/* 512 */
	assert_int_equal(sps_plan_scrunch(&p, &h, SPS_PLAN_MAX_SCRUNCH),
	    SPS_OK);
	assert_int_equal(p.scrunch[0], 1);
	assert_int_equal(p.scrunch[1], 1);
	assert_int_equal(p.scrunch[2], 2);
	assert_int_equal(p.scrunch[3], 4);
	assert_int_equal(p.scrunch[4], 4);
	assert_int_equal(p.scrunch[5], 512);
	assert_int_equal(sps_plan_scrunch(&p, &h, 64), SPS_OK);
	assert_int_equal(p.scrunch[5], 64);
	assert_int_equal(sps_plan_scrunch(&p, &h, 3), SPS_EVALUE);
	sps_plan_free(&p);
}

/* sps_plan_range and sps_plan_load: the steps sps-dedisperse and
 * sps-search take, in one call. */
static void
test_range_and_load(void **state)
{
	struct sps_plan a, b, c;
	struct sps_header h;
	char path[] = "/tmp/unit-plan.XXXXXX";
	size_t i;
	FILE *f;
	int fd;

	(void)state;
	heimdall_header(&h);
	sps_plan_init(&b);
	assert_int_equal(sps_plan_dedisp(&b, &h, 0, 1000, 40, 1.25), SPS_OK);
	assert_int_equal(sps_plan_range(&a, &h, 0, 1000, 40, 1.25, 1),
	    SPS_OK);
	assert_int_equal(a.ntrials, b.ntrials);
	for (i = 0; i < a.ntrials; i++)
		assert_true(a.dm[i] == b.dm[i] && a.scrunch[i] == 1);
	sps_plan_free(&a);
	assert_int_equal(sps_plan_range(&a, &h, 0, 1000, 40, 1.25, 64),
	    SPS_OK);
	assert_int_equal(sps_plan_scrunch(&b, &h, 64), SPS_OK);
	for (i = 0; i < a.ntrials; i++)
		assert_int_equal(a.scrunch[i], b.scrunch[i]);
	assert_true(a.scrunch[a.ntrials - 1] > 1);
	assert_int_equal(sps_plan_range(&c, &h, 100, 10, 40, 1.25, 1),
	    SPS_EVALUE);
	sps_plan_free(&c);
	/* a plan file: as written, checked against the data */
	assert_true((fd = mkstemp(path)) >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	fprintf(f, "0\n10\n20\n");
	fclose(f);
	assert_int_equal(sps_plan_load(&c, path, &h, 1), SPS_OK);
	assert_int_equal(c.ntrials, 3);
	assert_true(c.dm[2] == 20);
	sps_plan_free(&c);
	assert_int_equal(sps_plan_load(&c, "/nonexistent/plan", &h, 1),
	    SPS_EIO);
	assert_non_null(strstr(sps_errmsg(), "/nonexistent/plan"));
	sps_plan_free(&c);
	unlink(path);
	sps_plan_free(&a);
	sps_plan_free(&b);
}

static void
test_ddplan_to_trials(void **state)
{
	struct sps_ddplan_obs obs = { 0.000072, 820, 48, 96 };
	struct sps_ddplan_opts o;
	struct sps_ddplan_line *l;
	struct sps_plan p;
	int n;

	(void)state;
	sps_ddplan_defaults(&o);
	o.hidm = 200;
	o.numsub = 32;
	assert_int_equal(sps_ddplan(&obs, &o, &l, &n), SPS_OK);
	sps_plan_init(&p);
	assert_int_equal(sps_plan_add_ddplan(&p, l, n, 1024), SPS_OK);
	assert_int_equal(p.ntrials, 192 + 72 + 96 + 96);
	assert_int_equal(sps_plan_check(&p), SPS_OK);
	assert_true(fabs(p.dm[192] - 38.4) < 1e-9);
	assert_int_equal(p.scrunch[191], 1);
	assert_int_equal(p.scrunch[192], 2);
	assert_int_equal(p.scrunch[p.ntrials - 1], 8);
	sps_plan_free(&p);
	l[1].downsamp = 3;
	assert_int_equal(sps_plan_add_ddplan(&p, l, n, 2400), SPS_EVALUE);
	sps_plan_free(&p);
	free(l);
	/* running out of downsampling factors is an error, not a crash */
	o.blocklen = 1;
	o.hidm = 2000;
	assert_int_equal(sps_ddplan(&obs, &o, &l, &n), SPS_EVALUE);
}

static void
test_check(void **state)
{
	struct sps_plan p;

	(void)state;
	sps_plan_init(&p);
	assert_int_equal(sps_plan_check(&p), SPS_EVALUE);	/* empty */
	sps_plan_add(&p, 1, 1);
	sps_plan_add(&p, 2, 2);
	assert_int_equal(sps_plan_check(&p), SPS_OK);
	p.scrunch[1] = 3;
	assert_int_equal(sps_plan_check(&p), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "power of 2"));
	p.scrunch[1] = 2;
	p.dm[1] = 1;
	assert_int_equal(sps_plan_check(&p), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "ascend"));
	p.dm[1] = 2;
	p.dm[0] = -1;
	assert_int_equal(sps_plan_check(&p), SPS_EVALUE);
	p.dm[0] = NAN;
	assert_int_equal(sps_plan_check(&p), SPS_EVALUE);
	sps_plan_free(&p);
	assert_int_equal(sps_plan_steps(&p, 0, 0, 10, 1), SPS_EVALUE);
	assert_int_equal(sps_plan_steps(&p, 0, 1, 0, 1), SPS_EVALUE);
	assert_int_equal(sps_plan_steps(&p, 5, 0.5, 4, 1), SPS_OK);
	assert_int_equal(p.ntrials, 4);
	assert_true(p.dm[3] == 6.5);
	sps_plan_free(&p);
}

static void
test_ranges_and_smearing(void **state)
{
	struct sps_plan_range *r;
	struct sps_header h;
	struct sps_plan p;
	double fb, ft;
	size_t n;

	(void)state;
	heimdall_header(&h);
	ft = h.fch1;
	fb = h.fch1 + 1023 * h.foff;
	sps_plan_init(&p);
	sps_plan_steps(&p, 0, 1, 10, 1);	/* 0..9 */
	sps_plan_steps(&p, 50, 2, 10, 1);	/* 50..68 */
	sps_plan_steps(&p, 100, 4, 5, 2);	/* 100..116, scrunch 2 */
	assert_int_equal(sps_plan_ranges(&p, &h, 0, 0, &r, &n), SPS_OK);
	assert_int_equal(n, 3);
	assert_int_equal(r[0].count, 10);
	assert_int_equal(r[1].first, 10);
	assert_int_equal(r[1].count, 10);
	assert_int_equal(r[2].scrunch, 2);
	/* range 0 steps 1 and the gap of 41 to DM 50 */
	assert_true(r[0].step_min == 1 && r[0].step_max == 41);
	assert_true(r[1].step_max == 32);	/* 68 to 100 */
	assert_true(r[2].step_max == 4 && r[2].step_min == 4);
	assert_true(close_to(r[2].t_step, sps_dm_delay(2, fb, ft), 1e-12));
	assert_true(close_to(r[2].t_chan, sps_dm_smear(116, fb, h.foff),
	    1e-12));
	assert_true(r[2].t_scrunch == 2 * h.tsamp);
	assert_true(r[2].t_sub == 0);
	assert_true(close_to(r[2].t_total, sqrt(pow(r[2].t_scrunch, 2) +
	    pow(r[2].t_step, 2) + pow(r[2].t_chan, 2)), 1e-12));
	free(r);
	/* sub-band term: 32 sub-bands of 32 channels, 32 trials per nominal
	 * DM: eq. B1 with nu_N = top - 1024 df and nu_(N-32) */
	assert_int_equal(sps_plan_ranges(&p, &h, 32, 0, &r, &n), SPS_OK);
	assert_true(close_to(r[2].t_sub, 32 * 4 * SPS_KDM *
	    (1 / pow(ft - 1024 * 0.390625, 2) - 1 / pow(ft - 992 * 0.390625,
	    2)), 1e-12));
	free(r);
	assert_int_equal(sps_plan_ranges(&p, &h, 2048, 0, &r, &n), SPS_EVALUE);
	sps_plan_free(&p);
}

static void
test_work_delay(void **state)
{
	struct sps_header h;
	struct sps_plan p;

	(void)state;
	heimdall_header(&h);
	sps_plan_init(&p);
	sps_plan_steps(&p, 0, 100, 3, 1);
	sps_plan_add(&p, 1000, 4);
	/* direct: 1024 channels x (3 x 4096 + 4096 / 4) */
	assert_true(sps_plan_work(&p, &h, 4096, 0, 0) == 1024.0 * (3 * 4096 +
	    1024));
	/* sub-band, 2 trials per nominal DM, 8 sub-bands: groups {0, 100},
	 * {200}, {1000 (f 4)}; 1024 x (2 x 4096 + 1024) + 8 x (3 x 4096 +
	 * 1024) */
	assert_true(sps_plan_work(&p, &h, 4096, 8, 2) == 1024.0 * (2 * 4096 +
	    1024) + 8.0 * (3 * 4096 + 1024));
	/* DM 1000 at f 4: round(delay / (4 tsamp)) * 4 */
	assert_int_equal(sps_plan_max_delay(&p, &h), 4 *
	    sps_dm_delay_samples(1000, h.fch1 + 1023 * h.foff, h.fch1,
	    4 * h.tsamp));
	sps_plan_free(&p);
}

/* No fixed limit on channels: 65536 of them, and 200000 trials. */
static void
test_many_channels(void **state)
{
	struct sps_plan_range *r;
	struct sps_header h;
	struct sps_plan p;
	size_t n;

	(void)state;
	sps_header_init(&h);
	h.nchans = 65536;
	h.fch1 = 1500;
	h.foff = -400.0 / 65536;
	h.tsamp = 64e-6;
	sps_plan_init(&p);
	assert_int_equal(sps_plan_dedisp(&p, &h, 0, 2000, 40, 1.25), SPS_OK);
	assert_true(p.ntrials > 1000);
	assert_int_equal(sps_plan_scrunch(&p, &h, 1024), SPS_OK);
	assert_int_equal(sps_plan_ranges(&p, &h, 256, 0, &r, &n), SPS_OK);
	assert_true(n >= 1 && sps_plan_max_delay(&p, &h) > 0);
	free(r);
	sps_plan_free(&p);
	assert_int_equal(sps_plan_steps(&p, 0, 0.01, 200000, 1), SPS_OK);
	assert_int_equal(p.ntrials, 200000);
	assert_int_equal(sps_plan_check(&p), SPS_OK);
	sps_plan_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dedisp_heimdall_defaults),
		cmocka_unit_test(test_dedisp_edges),
		cmocka_unit_test(test_diagonal_worked_example),
		cmocka_unit_test(test_scrunch_by_diagonal),
		cmocka_unit_test(test_ddplan_to_trials),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_ranges_and_smearing),
		cmocka_unit_test(test_work_delay),
		cmocka_unit_test(test_many_channels),
		cmocka_unit_test(test_range_and_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* unit-candview: the data around candidates (lib/candview.c,
 * candview_make.c) on a file of fake pulses (fake.h): the profile peaks
 * at the centre bin, the DM-time array and the S/N-DM curve at the
 * candidate's DM, killed channels show as such, one pass of reads. */
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

#include "candview.h"
#include "fake.h"
#include "header.h"
#include "reader.h"

#define NCHANS	64
#define NSPEC	20000
#define TSAMP	256e-6

static char path[64];

static void
header_of(struct sps_header *h)
{
	static const char *keys[] = { "data_type", "nchans", "nbits", "nifs",
	    "fch1", "foff", "tsamp", "tstart", "source_name" };
	int k;

	sps_header_init(h);
	h->data_type = 1;
	h->nchans = NCHANS;
	h->nbits = 32;
	h->nifs = 1;
	h->fch1 = 1500;
	h->foff = -4;
	h->tsamp = TSAMP;
	h->tstart = 60000;
	snprintf(h->source_name, sizeof(h->source_name), "FAKE");
	for (k = 0; k < 9; k++)
		sps_header_mark(h, keys[k]);
}

/* Two pulses: DM 300 at 2 s (16 samples wide) and DM 100 at 4 s (4). */
static int
setup(void **state)
{
	struct sps_header h;
	struct sps_fake_pulse p[2];
	struct sps_fake_plan *plan;
	double mean[NCHANS], rms[NCHANS];
	float *x = malloc((size_t)NSPEC * NCHANS * sizeof(float));
	FILE *f;
	int fd, c;

	(void)state;
	assert_non_null(x);
	header_of(&h);
	for (c = 0; c < NCHANS; c++) {
		mean[c] = 100;
		rms[c] = 10;
	}
	assert_int_equal(sps_fake_pulse_parse("dm=300,t=2,width=16samp,"
	    "snr=60,shape=rect", TSAMP, &p[0]), SPS_OK);
	assert_int_equal(sps_fake_pulse_parse("dm=100,t=4,width=4samp,snr=40,"
	    "shape=rect", TSAMP, &p[1]), SPS_OK);
	sps_fake_noise(5, 0, NSPEC, NCHANS, mean, rms, x);
	assert_int_equal(sps_fake_plan_create(&plan, &h, NSPEC, rms, p, 2,
	    NULL, 0), SPS_OK);
	sps_fake_plan_add(plan, x, 0, NSPEC);
	sps_fake_plan_free(plan);
	snprintf(path, sizeof(path), "/tmp/unit-candview-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_int_equal(sps_header_write(f, &h), SPS_OK);
	assert_int_equal(fwrite(x, sizeof(float) * NCHANS, NSPEC, f), NSPEC);
	assert_int_equal(fclose(f), 0);
	free(x);
	sps_header_free(&h);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void
cand_at(struct sps_cand *c, double t, int width, double dm)
{
	memset(c, 0, sizeof(*c));
	c->best.sample = (uint64_t)floor(t / TSAMP - width / 2.0 + 0.5);
	c->best.width = width;
	c->best.dm = dm;
	c->best.snr = 10;
}

static int
argmax(const float *x, size_t n)
{
	size_t i, best = 0;

	for (i = 1; i < n; i++)
		if (x[i] > x[best])
			best = i;
	return (int)best;
}

struct seen {
	int	 calls;
	size_t	 order[4];
};

static enum sps_err
look(void *arg, const struct sps_candview *v)
{
	struct seen *s = arg;
	int peak = argmax(v->dm_time, (size_t)v->ndm * (size_t)v->nbins);
	double dm_step = v->dms[1] - v->dms[0];
	int b;

	s->order[s->calls++] = v->index;
	assert_int_equal(v->centre_bin, v->nbins / 2);
	assert_true(abs(argmax(v->profile, (size_t)v->nbins) -
	    v->centre_bin) <= 1);
	assert_true(fabs(v->dms[peak / v->nbins] - v->cand->best.dm) <=
	    2 * dm_step);
	assert_true(abs(peak % v->nbins - v->centre_bin) <= 1);
	assert_true(abs(argmax(v->snr_dm, (size_t)v->ndm) - v->dm_row) <= 2);
	assert_true(v->snr_dm[v->dm_row] > 10);
	assert_true(fabs(v->dms[v->ndm - 1] - 2 * v->cand->best.dm) < 1e-9);
	assert_int_equal(v->decimate, v->cand->best.width / 2);
	/* channels 0-7 killed: the two top sub-bands of 4 channels */
	assert_true(v->chan_masked[0] && v->chan_masked[7] &&
	    !v->chan_masked[8]);
	assert_true(v->sub_used[0] == 0 && v->sub_used[1] == 0 &&
	    v->sub_used[2] == 1);
	for (b = 0; b < v->nbins; b++)
		assert_true(v->freq_time[b] == 0);
	assert_true(fabs(v->sub_freq[0] - 1494) < 1e-9);
	/* the pulse is in every sub-band left at the centre */
	for (b = 2; b < v->nsub; b++)
		assert_true(abs(argmax(v->freq_time + (size_t)b * v->nbins,
		    (size_t)v->nbins) - v->centre_bin) <= 2);
	assert_int_equal(v->bins_outside, 0);
	return SPS_OK;
}

static void
options(struct sps_candview_opts *o, unsigned char *kill)
{
	sps_candview_defaults(o);
	o->nsub = 16;
	o->nbins = 64;
	o->ndm = 64;
	memset(kill, 0, NCHANS);
	memset(kill, 1, 8);
	o->kill = kill;
	o->nthreads = 1;
}

static void
test_pulses_centred(void **state)
{
	struct sps_reader r;
	struct sps_candview_plan *p;
	struct sps_candview_opts o;
	struct sps_candview_stats st;
	struct sps_cand c[2];
	struct seen s = { 0, { 0 } };
	unsigned char kill[NCHANS];

	(void)state;
	options(&o, kill);
	cand_at(&c[0], 4, 4, 100);	/* given out of time order */
	cand_at(&c[1], 2, 16, 300);
	if (sps_candview_open(&r, path) != SPS_OK)
		fail_msg("%s", sps_errmsg());
	if (sps_candview_create(&p, &r.hdr, r.nsamples, &o) != SPS_OK)
		fail_msg("%s", sps_errmsg());
	assert_int_equal(sps_candview_execute(p, &r, c, 2, look, &s), SPS_OK);
	assert_int_equal(s.calls, 2);
	assert_int_equal(s.order[0], 1);
	assert_int_equal(s.order[1], 0);
	sps_candview_stats(p, &st);
	assert_int_equal(st.windows, 2);
	assert_true(st.spectra_skipped > 0);
	assert_true(st.spectra_read + st.spectra_skipped <= NSPEC);
	sps_candview_free(p);
	sps_reader_close(&r);
}

static enum sps_err
edge(void *arg, const struct sps_candview *v)
{
	(void)arg;
	assert_true(v->sample0 < 0);
	assert_true(v->bins_outside > 0);
	assert_true(isfinite(v->profile[0]) && v->profile[0] > 50);
	return SPS_OK;
}

static void
test_edge_and_refusals(void **state)
{
	struct sps_reader r;
	struct sps_candview_plan *p;
	struct sps_candview_opts o;
	struct sps_cand c;
	unsigned char kill[NCHANS];

	(void)state;
	options(&o, kill);
	cand_at(&c, 0.002, 8, 50);
	if (sps_candview_open(&r, path) != SPS_OK)
		fail_msg("%s", sps_errmsg());
	if (sps_candview_create(&p, &r.hdr, r.nsamples, &o) != SPS_OK)
		fail_msg("%s", sps_errmsg());
	assert_int_equal(sps_candview_execute(p, &r, &c, 1, edge, NULL),
	    SPS_OK);
	sps_candview_free(p);
	memset(kill, 1, NCHANS);
	assert_int_equal(sps_candview_create(&p, &r.hdr, r.nsamples, &o),
	    SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "the kill mask leaves no channel");
	sps_reader_close(&r);
	assert_int_equal(sps_candview_open(&r, "-"), SPS_EUSAGE);
	assert_string_equal(sps_errmsg(), "stdin: a pipe cannot be read for "
	    "candidates (it is read by seeking); give a file");
	assert_int_equal(sps_candview_open(&r, "/dev/null"), SPS_EUSAGE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pulses_centred),
		cmocka_unit_test(test_edge_and_refusals),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

/* unit-fakedata: the data sps-fake writes (lib/fakedata.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fakedata.h"
#include "writer.h"

static void
test_header(void **state)
{
	struct sps_fake_spec s;
	struct sps_fake_data d;

	(void)state;
	sps_fake_spec_defaults(&s);
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_OK);
	assert_int_equal(d.nsamples, 12500);	/* 1 s of 80 us */
	assert_int_equal(d.hdr.nchans, 128);
	assert_int_equal(d.hdr.nbits, 8);
	assert_int_equal(d.hdr.data_type, 1);
	assert_true(d.hdr.fch1 == 1500 && d.hdr.foff == -2 &&
	    d.hdr.tsamp == 80e-6 && d.hdr.tstart == 50000);
	assert_string_equal(d.hdr.source_name, "FAKE");
	assert_false(sps_header_has(&d.hdr, "signed"));	/* as SIGPROC's fake */
	assert_true(sps_header_has(&d.hdr, "src_raj"));
	assert_false(sps_header_has(&d.hdr, "refdm"));
	sps_fake_data_free(&d);
	/* one channel: a time series with its DM; 16 bits: no "signed" */
	s.nchans = 1;
	s.nbits = 16;
	s.pulsar.dm = 42;
	s.tobs = 0;
	s.nsamples = 10;
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_OK);
	assert_int_equal(d.nsamples, 10);
	assert_int_equal(d.hdr.data_type, 2);
	assert_true(sps_header_has(&d.hdr, "refdm") && d.hdr.refdm == 42);
	assert_false(sps_header_has(&d.hdr, "signed"));
	sps_fake_data_free(&d);
}

static void
test_length_errors(void **state)
{
	struct sps_fake_spec s;
	struct sps_fake_data d;

	(void)state;
	sps_fake_spec_defaults(&s);
	s.tobs = 1e8;
	s.tsamp = 1e-6;
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "--tobs 1e+08 s at --tsamp 1 us "
	    "gives 100000000000000 samples, not in [1, 1000000000000]");
	sps_fake_data_free(&d);
	sps_fake_spec_defaults(&s);
	s.nbits = 1;
	s.nchans = 3;
	s.tobs = 0;
	s.nsamples = 5;
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "5 spectra of 3 channels of 1 bits "
	    "are not a whole number of bytes");
	sps_fake_data_free(&d);
	s.nsamples = 8;
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_OK);
	sps_fake_data_free(&d);
}

/* Each channel's mean and rms: nbits' defaults or the options, times
 * the bandpass gain. */
static void
test_levels(void **state)
{
	struct sps_fake_spec s;
	struct sps_fake_data d;
	double gain[16];
	int c;

	(void)state;
	sps_fake_spec_defaults(&s);
	s.nchans = 16;
	s.bandpass = SPS_FAKE_GAUSSIAN;
	sps_fake_bandpass(SPS_FAKE_GAUSSIAN, 16, gain);
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_OK);
	for (c = 0; c < 16; c++) {
		assert_true(d.mean[c] == 64 * gain[c]);
		assert_true(d.rms[c] == gain[c] * 10);
	}
	sps_fake_data_free(&d);
	s.mean = 3;
	s.mean_set = 1;
	s.rms = 0.5;
	s.rms_set = 1;
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_OK);
	for (c = 0; c < 16; c++)
		assert_true(d.mean[c] == 3 * gain[c] &&
		    d.rms[c] == gain[c] * 0.5);
	sps_fake_data_free(&d);
}

/* A block is the noise of its spectra plus the pulses, and does not
 * depend on where blocks are cut. */
static void
test_block(void **state)
{
	struct sps_fake_pulse p;
	struct sps_fake_spec s;
	struct sps_fake_data d;
	struct sps_fake_plan *plan;
	float *got, *want;
	size_t i, n = 1000, nv;

	(void)state;
	sps_fake_spec_defaults(&s);
	s.nchans = 32;
	s.nbits = 32;
	s.tobs = 0;
	s.nsamples = (long long)n;
	s.seed = 9;
	s.pulsar.period = 0.02;
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_OK);
	assert_int_equal(sps_fake_pulse_parse("t=0.04,dm=30,snr=20", s.tsamp,
	    &p), SPS_OK);
	assert_int_equal(sps_fake_data_plan(&d, &s, &p, 1), SPS_OK);
	nv = n * 32;
	got = calloc(nv, sizeof(float));
	want = calloc(nv, sizeof(float));
	sps_fake_data_block(&d, got, 0, 300);
	sps_fake_data_block(&d, got + 300 * 32, 300, n - 300);
	sps_fake_noise(9, 0, n, 32, d.mean, d.rms, want);
	assert_int_equal(sps_fake_plan_create(&plan, &d.hdr, n, d.rms, &p, 1,
	    &s.pulsar, 1), SPS_OK);
	sps_fake_plan_add(plan, want, 0, n);
	for (i = 0; i < nv; i++)
		assert_true(got[i] == want[i]);
	sps_fake_plan_free(plan);
	sps_fake_data_free(&d);
	/* without noise: the mean and the pulses */
	s.noise = 0;
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_OK);
	assert_int_equal(sps_fake_data_plan(&d, &s, NULL, 0), SPS_OK);
	sps_fake_data_block(&d, got, 0, 1);
	assert_true(got[5] == d.mean[5]);
	sps_fake_data_free(&d);
	free(got);
	free(want);
}

/* Injection into a file: its first block read whole, its noise
 * measured, the pulses added and dithered to integers. */
static void
test_inject(void **state)
{
	char path[] = "/tmp/unit-fakedata.XXXXXX";
	struct sps_fake_pulse p;
	struct sps_fake_spec s;
	struct sps_fake_data d, in;
	struct sps_reader r;
	struct sps_writer w;
	float *buf, *want;
	size_t n, i;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	sps_fake_spec_defaults(&s);
	s.nchans = 16;
	s.tobs = 0;
	s.nsamples = 512;
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_OK);
	assert_int_equal(sps_fake_data_plan(&d, &s, NULL, 0), SPS_OK);
	buf = calloc(512 * 16, sizeof(float));
	want = calloc(512 * 16, sizeof(float));
	sps_fake_data_block(&d, buf, 0, 512);
	assert_int_equal(sps_writer_open(&w, path), SPS_OK);
	assert_int_equal(sps_writer_header(&w, &d.hdr), SPS_OK);
	assert_int_equal(sps_writer_spectra(&w, buf, 512), SPS_OK);
	assert_int_equal(sps_writer_close(&w), SPS_OK);
	sps_fake_data_free(&d);
	assert_int_equal(sps_reader_open(&r, path), SPS_OK);
	assert_int_equal(sps_fake_read_block(&r, buf, 600, &n), SPS_OK);
	assert_int_equal(n, 512);
	memcpy(want, buf, 512 * 16 * sizeof(float));
	assert_int_equal(sps_fake_data_inject(&in, &r.hdr, r.nsamples, buf, n,
	    3), SPS_OK);
	assert_true(in.rms[0] > 5 && in.rms[0] < 15);	/* 8-bit noise: 10 */
	assert_int_equal(sps_fake_pulse_parse("t=0.02,snr=30", s.tsamp, &p),
	    SPS_OK);
	assert_int_equal(sps_fake_data_plan(&in, &s, &p, 1), SPS_OK);
	sps_fake_data_add(&in, buf, 0, n);
	sps_fake_plan_add(in.plan, want, 0, n);
	sps_fake_dither(3, 0, n, 16, want);
	for (i = 0; i < n * 16; i++)
		assert_true(buf[i] == want[i] && buf[i] == (int)buf[i]);
	assert_int_equal(sps_fake_read_block(&r, buf, 600, &n), SPS_EEOF);
	sps_fake_data_free(&in);
	sps_reader_close(&r);
	unlink(path);
	free(buf);
	free(want);
}

static void
test_report(void **state)
{
	struct sps_fake_pulse p[2];
	struct sps_fake_spec s;
	struct sps_fake_data d;
	char *text = NULL;
	size_t len;
	FILE *f;

	(void)state;
	sps_fake_spec_defaults(&s);
	s.pulsar.period = 0.1;
	assert_int_equal(sps_fake_data_init(&d, &s), SPS_OK);
	assert_int_equal(sps_fake_pulse_parse("t=0.2", s.tsamp, &p[0]),
	    SPS_OK);
	assert_int_equal(sps_fake_pulse_parse("t=0.6", s.tsamp, &p[1]),
	    SPS_OK);
	assert_int_equal(sps_fake_data_plan(&d, &s, p, 2), SPS_OK);
	f = open_memstream(&text, &len);
	sps_fake_data_report(f, &d, 100, 5);
	sps_fake_data_report(f, &d, 0, 0);
	fclose(f);
	assert_string_equal(text, "sps-fake: 100 spectra of 128 channels, 2 "
	    "pulses and a pulsar; 5 values clipped (0.0391%)\n"
	    "sps-fake: 0 spectra of 128 channels, 2 pulses and a pulsar; 0 "
	    "values clipped (0%)\n");
	free(text);
	sps_fake_data_free(&d);
}

static void
test_block_spectra(void **state)
{
	(void)state;
	assert_int_equal(sps_fake_block_spectra(128), 4096);
	assert_int_equal(sps_fake_block_spectra(3000), 1392);
	assert_int_equal(sps_fake_block_spectra(1 << 20), 8);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_length_errors),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_block),
		cmocka_unit_test(test_inject),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_block_spectra),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* unit-filterbank: time ranges in spectra and seconds, cut at the end of
 * the input; channel and frequency ranges; the output nbits and sign;
 * the output header (tstart, a flipped band, the frequency table,
 * nsamples, sigpyproc's band keywords); masks filled with zero or the
 * median; cutting and flipping two IFs; rescaling by the first block;
 * the values left where they are when nothing changes them, and when the
 * input's bytes can be copied as they are. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "filterbank.h"
#include "reader.h"

static void
make_header(struct sps_header *h, int nchans, int nifs)
{
	sps_header_init(h);
	sps_header_set(h, "nchans", "1");
	h->nchans = nchans;
	sps_header_set(h, "nifs", "1");
	h->nifs = nifs;
	sps_header_set(h, "nbits", "8");
	sps_header_set(h, "tsamp", "0.001");
	sps_header_set(h, "fch1", "1500");
	sps_header_set(h, "foff", "-1");
	sps_header_set(h, "tstart", "60000");
}

/* A whole plan over h, with no mask. */
static void
plan(struct sps_filterbank *p, const struct sps_filterbank_params *prm,
    const struct sps_header *h, uint64_t nsamples)
{
	assert_int_equal(sps_filterbank_time(p, prm, h->tsamp, nsamples),
	    SPS_OK);
	assert_int_equal(sps_filterbank_channels(p, prm, h), SPS_OK);
	assert_int_equal(sps_filterbank_output(p, prm, h, h->nbits), SPS_OK);
}

static void
test_time(void **state)
{
	struct sps_filterbank_params prm;
	struct sps_filterbank p;

	(void)state;
	sps_filterbank_defaults(&prm);
	assert_int_equal(sps_filterbank_time(&p, &prm, 1e-3, 100), SPS_OK);
	assert_true(p.start == 0 && p.count == 100 && p.asked == SPS_FILTERBANK_ALL);
	assert_int_equal(sps_filterbank_time(&p, &prm, 1e-3,
	    SPS_NSAMPLES_UNKNOWN), SPS_OK);
	assert_true(p.count == SPS_FILTERBANK_ALL);
	prm.start_s = 0.0104;	/* 10.4 samples: rounded */
	prm.read_s = 0.0206;
	assert_int_equal(sps_filterbank_time(&p, &prm, 1e-3, 100), SPS_OK);
	assert_true(p.start == 10 && p.count == 21 && p.asked == 21);
	prm.start = 90;
	prm.count = 50;
	assert_int_equal(sps_filterbank_time(&p, &prm, 1e-3, 100), SPS_OK);
	assert_true(p.start == 90 && p.count == 10 && p.asked == 50);
	assert_int_equal(sps_filterbank_time(&p, &prm, 1e-3,
	    SPS_NSAMPLES_UNKNOWN), SPS_OK);
	assert_true(p.count == 50);
	prm.start = 100;
	assert_int_equal(sps_filterbank_time(&p, &prm, 1e-3, 100),
	    SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "start at spectrum 100: the input "
	    "has only 100");
}

/* A plan started over 10 spectra, then its channels. */
static enum sps_err
channels(struct sps_filterbank *p, const struct sps_filterbank_params *prm,
    const struct sps_header *h)
{
	assert_int_equal(sps_filterbank_time(p, prm, h->tsamp, 10), SPS_OK);
	return sps_filterbank_channels(p, prm, h);
}

static void
test_channels(void **state)
{
	struct sps_filterbank_params prm;
	struct sps_filterbank p;
	struct sps_header h;

	(void)state;
	make_header(&h, 16, 1);
	sps_filterbank_defaults(&prm);
	assert_int_equal(channels(&p, &prm, &h), SPS_OK);
	assert_true(p.first == 0 && p.nout == 16 && p.nin == 16);
	sps_filterbank_free(&p);
	prm.chan_first = 3;
	prm.chan_last = 5;
	assert_int_equal(channels(&p, &prm, &h), SPS_OK);
	assert_true(p.first == 3 && p.nout == 3);
	sps_filterbank_free(&p);
	prm.chan_last = 16;
	assert_int_equal(channels(&p, &prm, &h), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "-c 3:16: the input has channels 0 "
	    "to 15");
	/* 1500 down to 1485 MHz: centres 1494 .. 1490 are channels 6 .. 10 */
	prm.chan_first = prm.chan_last = -1;
	prm.freq_lo = 1489.5;
	prm.freq_hi = 1494;
	assert_int_equal(channels(&p, &prm, &h), SPS_OK);
	assert_true(p.first == 6 && p.nout == 5);
	sps_filterbank_free(&p);
	prm.freq_lo = 1000;
	prm.freq_hi = 1200;
	assert_int_equal(channels(&p, &prm, &h), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "--freqs 1000:1200: no channel "
	    "centre in it (the band is 1500 to 1485 MHz)");
	sps_header_free(&h);
}

static void
test_output(void **state)
{
	struct sps_filterbank_params prm;
	struct sps_filterbank p;
	struct sps_header h;

	(void)state;
	make_header(&h, 16, 1);
	h.sign = -1;
	sps_filterbank_defaults(&prm);
	prm.chan_first = 2;
	prm.chan_last = 9;
	assert_int_equal(sps_filterbank_time(&p, &prm, h.tsamp, 10), SPS_OK);
	assert_int_equal(sps_filterbank_channels(&p, &prm, &h), SPS_OK);
	p.masked[0] = p.masked[2] = p.masked[9] = p.masked[10] = 1;
	assert_int_equal(sps_filterbank_output(&p, &prm, &h, 8), SPS_OK);
	assert_int_equal(p.nmasked, 2);	/* 0 and 10 are not kept */
	assert_true(p.nbits == 8 && p.is_signed);
	assert_null(p.mean);
	sps_filterbank_free(&p);
	/* PSRFITS scaled to floats: the values' nbits, not the file's */
	assert_int_equal(sps_filterbank_time(&p, &prm, h.tsamp, 10), SPS_OK);
	assert_int_equal(sps_filterbank_channels(&p, &prm, &h), SPS_OK);
	assert_int_equal(sps_filterbank_output(&p, &prm, &h, 32), SPS_OK);
	assert_true(p.nbits == 32 && !p.is_signed);
	sps_filterbank_free(&p);
	prm.rescale = 1;
	plan(&p, &prm, &h, 10);
	assert_true(p.nbits == 8 && !p.is_signed);
	assert_true(p.level == 127.5f && p.spread == 16);
	sps_filterbank_free(&p);
	prm.nbits = 2;
	plan(&p, &prm, &h, 10);
	assert_true(p.level == 1.5f && p.spread == 1);
	sps_filterbank_free(&p);
	sps_header_free(&h);
}

static void
test_header(void **state)
{
	const double f[6] = { 1500, 1499, 1497, 1494, 1490, 1485 };
	struct sps_filterbank_params prm;
	struct sps_header h, out;
	struct sps_filterbank p;

	(void)state;
	make_header(&h, 6, 1);
	sps_header_set(&h, "nsamples", "100");
	sps_header_set(&h, "bandwidth", "6");
	sps_header_set(&h, "signed", "1");
	sps_filterbank_defaults(&prm);
	prm.start = 10;
	prm.count = 20;
	prm.chan_first = 1;
	prm.chan_last = 3;
	prm.flip = 1;
	plan(&p, &prm, &h, 100);
	assert_int_equal(sps_filterbank_header(&p, &h, &out), SPS_OK);
	assert_true(fabs(out.tstart - (60000 + 10 * 1e-3 / 86400)) < 1e-12);
	assert_true(out.nchans == 3 && out.fch1 == 1497 && out.foff == 1);
	assert_int_equal(out.nsamples, 20);
	assert_false(sps_header_has(&out, "bandwidth"));
	assert_false(sps_header_has(&out, "signed"));	/* unsigned data */
	sps_header_free(&out);
	/* a frequency table is cut and flipped with the channels */
	h.fchannel = malloc(sizeof(f));
	memcpy(h.fchannel, f, sizeof(f));
	h.nfchannel = 6;
	assert_int_equal(sps_filterbank_header(&p, &h, &out), SPS_OK);
	assert_int_equal(out.nfchannel, 3);
	assert_true(out.fchannel[0] == 1494 && out.fchannel[2] == 1499);
	assert_true(out.fch1 == 1494);
	sps_header_free(&out);
	sps_filterbank_free(&p);
	/* the whole band, unflipped, keeps the band keywords; a count the
	 * input does not know leaves nsamples out */
	sps_filterbank_defaults(&prm);
	plan(&p, &prm, &h, SPS_NSAMPLES_UNKNOWN);
	assert_int_equal(sps_filterbank_header(&p, &h, &out), SPS_OK);
	assert_true(sps_header_has(&out, "bandwidth"));
	assert_false(sps_header_has(&out, "nsamples"));
	assert_true(out.tstart == 60000);
	sps_header_free(&out);
	sps_filterbank_free(&p);
	sps_header_free(&h);
}

/* 2 spectra of 2 IFs of 6 channels: x = 100 s + 10 i + c. */
static void
fill(float *x)
{
	int s, i, c;

	for (s = 0; s < 2; s++)
		for (i = 0; i < 2; i++)
			for (c = 0; c < 6; c++)
				x[(s * 2 + i) * 6 + c] = (float)(100 * s +
				    10 * i + c);
}

static void
test_mask_cut_flip(void **state)
{
	struct sps_filterbank_params prm;
	struct sps_filterbank p;
	float in[24], out[24];
	struct sps_header h;

	(void)state;
	make_header(&h, 6, 2);
	sps_filterbank_defaults(&prm);
	prm.chan_first = 1;
	prm.chan_last = 4;
	prm.flip = 1;
	assert_int_equal(sps_filterbank_time(&p, &prm, h.tsamp, 2), SPS_OK);
	assert_int_equal(sps_filterbank_channels(&p, &prm, &h), SPS_OK);
	p.masked[2] = 1;
	assert_int_equal(sps_filterbank_output(&p, &prm, &h, 8), SPS_OK);
	fill(in);
	sps_filterbank_execute(&p, in, out, 2);
	/* spectrum 0, IF 0: channels 4, 3, 2 (masked), 1 */
	assert_true(out[0] == 4 && out[1] == 3 && out[2] == 0 && out[3] == 1);
	/* spectrum 1, IF 1 */
	assert_true(out[12] == 114 && out[14] == 0 && out[15] == 111);
	sps_filterbank_free(&p);
	/* the median of the other kept channels: 1, 3, 4 -> 3 */
	prm.median_fill = 1;
	assert_int_equal(sps_filterbank_time(&p, &prm, h.tsamp, 2), SPS_OK);
	assert_int_equal(sps_filterbank_channels(&p, &prm, &h), SPS_OK);
	p.masked[2] = 1;
	assert_int_equal(sps_filterbank_output(&p, &prm, &h, 8), SPS_OK);
	fill(in);
	sps_filterbank_execute(&p, in, out, 2);
	assert_true(out[0] == 4 && out[1] == 3 && out[2] == 3 && out[3] == 1);
	assert_true(out[4] == 14 && out[5] == 13 && out[6] == 13 &&
	    out[7] == 11);
	sps_filterbank_free(&p);
	sps_header_free(&h);
}

/* The first block sets each value's mean and spread; later blocks keep
 * them. */
static void
test_rescale(void **state)
{
	float in[24], out[24], again[24];
	struct sps_filterbank_params prm;
	struct sps_filterbank p;
	struct sps_header h;
	int v;

	(void)state;
	make_header(&h, 6, 2);
	sps_filterbank_defaults(&prm);
	prm.rescale = 1;
	plan(&p, &prm, &h, 2);
	fill(in);
	sps_filterbank_execute(&p, in, out, 2);
	/* two spectra 100 apart: mean at the centre, one spread each side */
	for (v = 0; v < 12; v++) {
		assert_true(fabsf(out[v] - (127.5f - 16 / sqrtf(2))) < 1e-4);
		assert_true(fabsf(out[12 + v] - (127.5f + 16 / sqrtf(2))) <
		    1e-4);
	}
	fill(in);
	sps_filterbank_execute(&p, in + 12, again, 1);
	assert_true(fabsf(again[0] - out[12]) < 1e-6);
	sps_filterbank_free(&p);
	sps_header_free(&h);
}

/* A plan that changes no value hands its input back; any change writes
 * the output. */
static void
test_values_kept_in_place(void **state)
{
	struct sps_filterbank_params prm;
	struct sps_filterbank p;
	float in[24], out[24];
	struct sps_header h;

	(void)state;
	make_header(&h, 6, 2);
	sps_filterbank_defaults(&prm);
	prm.start = 1;
	prm.nbits = 32;
	plan(&p, &prm, &h, 2);
	fill(in);
	assert_ptr_equal(sps_filterbank_execute(&p, in, out, 2), in);
	assert_true(in[13] == 101);
	sps_filterbank_free(&p);
	prm.chan_first = 0;
	prm.chan_last = 4;
	plan(&p, &prm, &h, 2);
	assert_ptr_equal(sps_filterbank_execute(&p, in, out, 2), out);
	assert_true(out[0] == 0 && out[5] == 10 && out[19] == 114);
	sps_filterbank_free(&p);
	sps_header_free(&h);
}

/* A SIGPROC reader over h, as far as sps_filterbank_copies_bytes looks. */
static void
sigproc_reader(struct sps_reader *r, const struct sps_header *h,
    uint64_t nsamples)
{
	memset(r, 0, sizeof(*r));
	r->hdr = *h;
	r->nsamples = nsamples;
}

static int
copies_bytes(const struct sps_filterbank_params *prm,
    const struct sps_header *h, uint64_t nsamples)
{
	struct sps_filterbank p;
	struct sps_reader r;
	int yes;

	sigproc_reader(&r, h, nsamples);
	plan(&p, prm, h, nsamples == SPS_NSAMPLES_UNKNOWN ? 100 : nsamples);
	yes = sps_filterbank_copies_bytes(&p, &r);
	sps_filterbank_free(&p);
	return yes;
}

static void
test_copies_bytes(void **state)
{
	struct sps_filterbank_params prm;
	struct sps_header h;

	(void)state;
	make_header(&h, 6, 2);
	sps_filterbank_defaults(&prm);
	assert_true(copies_bytes(&prm, &h, 100));
	assert_true(copies_bytes(&prm, &h, SPS_NSAMPLES_UNKNOWN));
	prm.start = 3;
	prm.count = 5;
	assert_true(copies_bytes(&prm, &h, 100));
	prm.nbits = 8;		/* the same nbits, asked for */
	assert_true(copies_bytes(&prm, &h, 100));
	prm.nbits = 32;
	assert_false(copies_bytes(&prm, &h, 100));
	prm.nbits = 0;
	prm.flip = 1;
	assert_false(copies_bytes(&prm, &h, 100));
	prm.flip = 0;
	prm.rescale = 1;
	assert_false(copies_bytes(&prm, &h, 100));
	prm.rescale = 0;
	prm.chan_first = 0;
	prm.chan_last = 4;
	assert_false(copies_bytes(&prm, &h, 100));
	prm.chan_last = 5;	/* every channel, by number */
	assert_true(copies_bytes(&prm, &h, 100));
	h.sign = -1;		/* signed bytes stay signed */
	assert_true(copies_bytes(&prm, &h, 100));
	h.sps_order = 1;	/* channel-major: refused by the values path */
	assert_false(copies_bytes(&prm, &h, 100));
	h.sps_order = 0;
	prm.chan_first = prm.chan_last = -1;
	h.nbits = 16;		/* a stream of wider values: values path */
	assert_true(copies_bytes(&prm, &h, 100));
	assert_false(copies_bytes(&prm, &h, SPS_NSAMPLES_UNKNOWN));
	h.nbits = 2;
	h.nchans = 3;		/* spectra of 2 IFs of 3 channels: 12 bits */
	assert_false(copies_bytes(&prm, &h, 100));
	sps_header_free(&h);
}

static void
test_no_bytes_with_mask_or_gaps(void **state)
{
	struct sps_filterbank_params prm;
	struct sps_filterbank p;
	struct sps_reader r;
	struct sps_header h;

	(void)state;
	make_header(&h, 6, 1);
	sps_filterbank_defaults(&prm);
	sigproc_reader(&r, &h, 100);
	assert_int_equal(sps_filterbank_time(&p, &prm, h.tsamp, 100), SPS_OK);
	assert_int_equal(sps_filterbank_channels(&p, &prm, &h), SPS_OK);
	p.masked[4] = 1;
	assert_int_equal(sps_filterbank_output(&p, &prm, &h, 8), SPS_OK);
	assert_false(sps_filterbank_copies_bytes(&p, &r));
	p.nmasked = 0;
	assert_true(sps_filterbank_copies_bytes(&p, &r));
	r.gap_spectra = 10;	/* filled from the values read */
	assert_false(sps_filterbank_copies_bytes(&p, &r));
	sps_filterbank_free(&p);
	sps_header_free(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_channels),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_mask_cut_flip),
		cmocka_unit_test(test_rescale),
		cmocka_unit_test(test_values_kept_in_place),
		cmocka_unit_test(test_copies_bytes),
		cmocka_unit_test(test_no_bytes_with_mask_or_gaps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

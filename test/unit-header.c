/* unit-header: every keyword round-trips; each malformed header fails
 * with a message naming the problem. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "header.h"

static void
fill_every_keyword(struct sps_header *h)
{
	char text[64];
	int k;

	sps_header_init(h);
	for (k = 0; k < sps_nkeywords; k++) {
		switch (sps_keywords[k].type) {
		case SPS_KW_STRING:
			snprintf(text, sizeof(text), "value of %s",
			    sps_keywords[k].name);
			break;
		case SPS_KW_CHAR:
			snprintf(text, sizeof(text), "%d", -1);
			break;
		default:
			snprintf(text, sizeof(text), "%d", 3 + k);
			break;
		}
		assert_int_equal(sps_header_set(h, sps_keywords[k].name, text),
		    SPS_OK);
	}
	h->nbits = 8;
	h->tsamp = 64e-6;
	h->foff = -0.5;
	h->fch1 = 1500.25;
}

static void
test_every_keyword_roundtrip(void **state)
{
	struct sps_header h, back;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int k;

	(void)state;
	fill_every_keyword(&h);
	h.fchannel = malloc(h.nchans * sizeof(double));
	h.nfchannel = h.nchans;
	for (k = 0; k < h.nchans; k++)
		h.fchannel[k] = 1500.25 - 0.5 * k;
	{
		double dms[3] = { 0, 10.5, 3000 };
		int sc[3] = { 1, 2, 4 };

		assert_int_equal(sps_header_set_dms(&h, dms, sc, 3), SPS_OK);
		h.sps_dmtime = 1;
		h.sps_block = 4096;
	}
	f = open_memstream(&buf, &len);
	assert_int_equal(sps_header_write(f, &h), SPS_OK);
	fclose(f);
	assert_int_equal(len, sps_header_size(&h));
	f = fmemopen(buf, len, "rb");
	assert_int_equal(sps_header_read(f, NULL, 0, &back), SPS_OK);
	fclose(f);
	assert_int_equal(back.length, len);
	for (k = 0; k < sps_nkeywords; k++) {
		char a[128], b[128];

		/* sigpyproc's keywords are read, never written */
		assert_int_equal(back.present >> k & 1, strcmp(
		    sps_keywords[k].origin, "sigpyproc") != 0);
		if (!(back.present >> k & 1))
			continue;

		sps_header_format(&h, k, a, sizeof(a));
		sps_header_format(&back, k, b, sizeof(b));
		assert_string_equal(a, b);
	}
	assert_int_equal(back.nfchannel, h.nchans);
	assert_memory_equal(back.fchannel, h.fchannel,
	    h.nchans * sizeof(double));
	assert_int_equal(back.ndms, 3);
	assert_true(back.dms[1] == 10.5 && back.scrunch[2] == 4);
	sps_header_free(&h);
	sps_header_free(&back);
	free(buf);
}

/* `signed` is written for signed 8-bit data only. */
static void
test_signed_only_when_signed(void **state)
{
	static const struct { int nbits, sign, written; } cases[] = {
		{ 8, -1, 1 }, { 8, 1, 0 }, { 8, 0, 0 }, { 16, -1, 0 },
		{ 32, 1, 0 },
	};
	struct sps_header h;
	size_t i, plain;
	int k = sps_keyword_find("signed");

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sps_header_init(&h);
		plain = sps_header_size(&h);
		h.nbits = cases[i].nbits;
		h.sign = (signed char)cases[i].sign;
		sps_header_mark(&h, "signed");
		assert_int_equal(sps_keyword_written(&h, k), cases[i].written);
		assert_int_equal(sps_header_size(&h), plain +
		    (cases[i].written ? 4 + strlen("signed") + 1 : 0));
	}
}

/* A header built token by token, to break it on purpose. */
struct hb {
	char	*buf;
	size_t	 len;
	FILE	*f;
};

static void
hb_open(struct hb *b)
{
	b->buf = NULL;
	b->f = open_memstream(&b->buf, &b->len);
}

static void
hb_tok(struct hb *b, const char *s)
{
	int32_t n = (int32_t)strlen(s);

	fwrite(&n, 4, 1, b->f);
	fwrite(s, 1, (size_t)n, b->f);
}

static void
hb_int(struct hb *b, const char *key, int32_t v)
{
	hb_tok(b, key);
	fwrite(&v, 4, 1, b->f);
}

static void
hb_dbl(struct hb *b, const char *key, double v)
{
	hb_tok(b, key);
	fwrite(&v, 8, 1, b->f);
}

static void
hb_minimal(struct hb *b, int nchans, int nbits, double tsamp, int nifs,
    double foff)
{
	hb_open(b);
	hb_tok(b, "HEADER_START");
	hb_int(b, "nchans", nchans);
	hb_int(b, "nbits", nbits);
	hb_dbl(b, "tsamp", tsamp);
	hb_int(b, "nifs", nifs);
	hb_dbl(b, "fch1", 1400);
	hb_dbl(b, "foff", foff);
}

/* Parse b (optionally cut to len bytes); expect code and a message
 * containing needle. */
static void
expect_error(struct hb *b, long cut, enum sps_err code, const char *needle)
{
	struct sps_header h;
	FILE *f;

	fclose(b->f);
	f = fmemopen(b->buf, cut >= 0 ? (size_t)cut : b->len, "rb");
	assert_int_equal(sps_header_read(f, NULL, 0, &h), code);
	if (strstr(sps_errmsg(), needle) == NULL)
		fail_msg("message '%s' lacks '%s'", sps_errmsg(), needle);
	fclose(f);
	free(b->buf);
}

static void
test_valid_minimal(void **state)
{
	struct sps_header h;
	struct hb b;
	FILE *f;

	(void)state;
	hb_minimal(&b, 64, 8, 64e-6, 1, -1);
	hb_tok(&b, "HEADER_END");
	fclose(b.f);
	f = fmemopen(b.buf, b.len, "rb");
	assert_int_equal(sps_header_read(f, NULL, 0, &h), SPS_OK);
	assert_int_equal(h.nchans, 64);
	assert_int_equal(h.length, b.len);
	fclose(f);
	free(b.buf);
}

static void
test_errors(void **state)
{
	struct hb b;
	int32_t bad;

	(void)state;
	hb_minimal(&b, 64, 8, 64e-6, 1, -1);
	hb_int(&b, "frobnicate", 1);
	hb_tok(&b, "HEADER_END");
	expect_error(&b, -1, SPS_EFORMAT, "unknown header keyword 'frobnicate' "
	    "at byte 104");

	hb_open(&b);
	hb_tok(&b, "HEADER_BEGIN");
	expect_error(&b, -1, SPS_EFORMAT, "no HEADER_START");

	hb_minimal(&b, 64, 8, 64e-6, 1, -1);
	expect_error(&b, -1, SPS_ETRUNC, "truncated header");

	hb_minimal(&b, 64, 8, 64e-6, 1, -1);
	expect_error(&b, 50, SPS_ETRUNC, "truncated header");

	hb_minimal(&b, 64, 8, 64e-6, 1, -1);
	bad = 81;
	fwrite(&bad, 4, 1, b.f);
	expect_error(&b, -1, SPS_EFORMAT, "length 81 (not in 1..80)");

	hb_minimal(&b, 64, 8, 64e-6, 1, -1);
	bad = 0;
	fwrite(&bad, 4, 1, b.f);
	expect_error(&b, -1, SPS_EFORMAT, "length 0");

	hb_minimal(&b, 64, 8, 64e-6, 1, -1);
	for (bad = 0; bad < 7000; bad++)
		hb_dbl(&b, "refdm", 1);
	expect_error(&b, -1, SPS_EFORMAT, "longer than 65536");

	hb_minimal(&b, 0, 8, 64e-6, 1, -1);
	hb_tok(&b, "HEADER_END");
	expect_error(&b, -1, SPS_EVALUE, "nchans 0");

	hb_minimal(&b, 64, 3, 64e-6, 1, -1);
	hb_tok(&b, "HEADER_END");
	expect_error(&b, -1, SPS_EVALUE, "nbits 3");

	hb_minimal(&b, 64, 8, 0, 1, -1);
	hb_tok(&b, "HEADER_END");
	expect_error(&b, -1, SPS_EVALUE, "tsamp 0");

	hb_minimal(&b, 64, 8, NAN, 1, -1);
	hb_tok(&b, "HEADER_END");
	expect_error(&b, -1, SPS_EVALUE, "tsamp nan");

	hb_minimal(&b, 64, 8, 64e-6, 0, -1);
	hb_tok(&b, "HEADER_END");
	expect_error(&b, -1, SPS_EVALUE, "nifs 0");

	hb_minimal(&b, 64, 8, 64e-6, 1, 0);
	hb_tok(&b, "HEADER_END");
	expect_error(&b, -1, SPS_EVALUE, "foff 0");

	hb_minimal(&b, 64, 8, 64e-6, 1, INFINITY);
	hb_tok(&b, "HEADER_END");
	expect_error(&b, -1, SPS_EVALUE, "not finite");
}

static void
test_signed_is_one_byte(void **state)
{
	struct sps_header h;
	struct hb b;
	FILE *f;

	(void)state;
	hb_minimal(&b, 4, 8, 1e-3, 1, -1);
	hb_tok(&b, "signed");
	fputc(0xff, b.f);
	hb_dbl(&b, "refdm", 12.5);
	hb_int(&b, "data_type", 0);
	hb_int(&b, "nbins", 7);
	hb_tok(&b, "HEADER_END");
	fclose(b.f);
	f = fmemopen(b.buf, b.len, "rb");
	assert_int_equal(sps_header_read(f, NULL, 0, &h), SPS_OK);
	assert_int_equal(h.sign, -1);
	assert_true(h.refdm == 12.5);
	assert_int_equal(h.nbins, 7);
	assert_true(sps_header_has(&h, "data_type"));
	fclose(f);
	free(b.buf);
}

static void
test_set_rejects(void **state)
{
	struct sps_header h;

	(void)state;
	sps_header_init(&h);
	assert_int_equal(sps_header_set(&h, "nchans", "1.5"), SPS_EVALUE);
	assert_int_equal(sps_header_set(&h, "bogus", "1"), SPS_EVALUE);
	assert_int_equal(sps_header_set(&h, "fch1", "abc"), SPS_EVALUE);
	assert_int_equal(sps_header_set(&h, "fch1", "1400.5"), SPS_OK);
	assert_true(h.fch1 == 1400.5 && sps_header_has(&h, "fch1"));
}

/* Sub-byte spectra pack across bytes: 8 spectra of 3 one-bit values
 * take 3 bytes, a part-filled last byte counts whole. */
static void
test_data_bytes(void **state)
{
	struct sps_header h;

	(void)state;
	sps_header_init(&h);
	h.nchans = 3;
	h.nifs = 1;
	h.nbits = 1;
	assert_int_equal(sps_data_bytes(&h, 8), 3);
	assert_int_equal(sps_data_bytes(&h, 9), 4);
	assert_false(sps_spectrum_whole_bytes(&h));
	h.nifs = 8;
	assert_true(sps_spectrum_whole_bytes(&h));
	h.nchans = 832;
	h.nifs = 1;
	h.nbits = 32;
	assert_int_equal(sps_data_bytes(&h, (uint64_t)1 << 32),
	    (uint64_t)832 * 4 << 32);
	assert_true(sps_spectrum_whole_bytes(&h));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_keyword_roundtrip),
		cmocka_unit_test(test_signed_only_when_signed),
		cmocka_unit_test(test_valid_minimal),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_signed_is_one_byte),
		cmocka_unit_test(test_set_rejects),
		cmocka_unit_test(test_data_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

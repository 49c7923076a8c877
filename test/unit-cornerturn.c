/* unit-cornerturn: every value lands where the channel-major layout says,
 * for every nbits and odd sizes; turning back restores the bytes (NaN
 * payloads included); headers gain and lose sps_order/sps_block byte for
 * byte; the raw input reader reads time-major data cut inside a
 * spectrum to its last whole one, and refuses a cut channel-major block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cornerturn.h"

static const int widths[] = { 1, 2, 4, 8, 16, 32 };
#define NWIDTHS	(sizeof(widths) / sizeof(widths[0]))

/* Value i of a packed stream, by the definition in sps-formats(5):
 * sub-byte values from the lowest bits up, wider ones little-endian. */
static uint32_t
get_value(const unsigned char *raw, size_t i, int nbits)
{
	size_t bit = i * (size_t)nbits, b;
	uint32_t v = 0;

	if (nbits < 8)
		return raw[bit / 8] >> (bit % 8) & ((1u << nbits) - 1);
	for (b = 0; b < (size_t)nbits / 8; b++)
		v |= (uint32_t)raw[bit / 8 + b] << (8 * b);
	return v;
}

static void
set_value(unsigned char *raw, size_t i, int nbits, uint32_t v)
{
	size_t bit = i * (size_t)nbits, b;

	if (nbits < 8) {
		raw[bit / 8] |= (unsigned char)(v << (bit % 8));
		return;
	}
	for (b = 0; b < (size_t)nbits / 8; b++)
		raw[bit / 8 + b] = (unsigned char)(v >> (8 * b));
}

static uint32_t
next_random(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state ^ (*state >> 15);
}

/* Turn n samples of ncols values (blocks of `block`) both ways. */
static void
check_turn(int nbits, size_t ncols, size_t block, size_t n)
{
	size_t bytes = sps_cornerturn_block_bytes(n, ncols, nbits), t, k;
	unsigned char *tm = calloc(bytes + 1, 1), *cm = malloc(bytes + 1);
	unsigned char *back = malloc(bytes + 1);
	uint32_t mask = nbits == 32 ? UINT32_MAX : (1u << nbits) - 1;
	uint32_t state = (uint32_t)(nbits * 1000 + ncols);
	struct sps_cornerturn *plan;

	assert_int_equal(sps_cornerturn_create(&plan, block, ncols, nbits),
	    SPS_OK);
	for (t = 0; t < n * ncols; t++)
		set_value(tm, t, nbits, next_random(&state) & mask);
	memset(cm, 0xAA, bytes + 1);
	sps_cornerturn_execute(plan, SPS_ORDER_TIME, tm, cm, n);
	for (t = 0; t < n; t++)
		for (k = 0; k < ncols; k++)
			assert_int_equal(get_value(cm, k * n + t, nbits),
			    get_value(tm, t * ncols + k, nbits));
	assert_int_equal(cm[bytes], 0xAA);	/* nothing written past */
	memset(back, 0x55, bytes + 1);
	sps_cornerturn_execute(plan, SPS_ORDER_CHANNEL, cm, back, n);
	assert_memory_equal(back, tm, bytes);
	assert_int_equal(back[bytes], 0x55);
	sps_cornerturn_free(plan);
	free(tm);
	free(cm);
	free(back);
}

static void
test_every_nbits_and_odd_sizes(void **state)
{
	static const size_t ncols[] = { 1, 3, 37, 130 };
	size_t w, c;

	(void)state;
	for (w = 0; w < NWIDTHS; w++)
		for (c = 0; c < sizeof(ncols) / sizeof(ncols[0]); c++) {
			check_turn(widths[w], ncols[c], 72, 72);
			check_turn(widths[w], ncols[c], 72, 1);
			check_turn(widths[w], ncols[c], 72, 71);
			check_turn(widths[w], ncols[c], 200, 133);
		}
}

static void
test_float_bits_kept(void **state)
{
	const uint32_t pattern[6] = {
		0x7fc01234u,	/* quiet NaN with a payload */
		0x7f800001u,	/* signalling NaN */
		0xffc00000u,	/* negative NaN */
		0x80000000u,	/* -0 */
		0x00000001u,	/* smallest denormal */
		0x7f800000u,	/* +inf */
	};
	unsigned char in[24], mid[24], out[24];
	struct sps_cornerturn *plan;

	(void)state;
	memcpy(in, pattern, sizeof(in));
	assert_int_equal(sps_cornerturn_create(&plan, 3, 2, 32), SPS_OK);
	sps_cornerturn_execute(plan, SPS_ORDER_TIME, in, mid, 3);
	assert_memory_equal(mid + 4, pattern + 2, 4);	/* (1, 0) -> 1 */
	sps_cornerturn_execute(plan, SPS_ORDER_CHANNEL, mid, out, 3);
	assert_memory_equal(out, in, sizeof(in));
	sps_cornerturn_free(plan);
}

static void
test_block_must_be_whole_bytes(void **state)
{
	(void)state;
	assert_int_equal(sps_cornerturn_check_block(4096, 832, 1), SPS_OK);
	assert_int_equal(sps_cornerturn_check_block(8, 3, 1), SPS_OK);
	assert_int_equal(sps_cornerturn_check_block(3, 1, 8), SPS_OK);
	assert_int_equal(sps_cornerturn_check_block(3, 5, 1), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "multiple of 8"));
	assert_int_equal(sps_cornerturn_check_block(0, 5, 8), SPS_EVALUE);
	assert_int_equal(sps_cornerturn_check_block((size_t)1 << 20,
	    (size_t)1 << 20, 8), SPS_EVALUE);
}

static void
make_header(struct sps_header *h, int nchans, int nbits)
{
	sps_header_init(h);
	h->nchans = nchans;
	h->nbits = nbits;
	h->nifs = 1;
	h->tsamp = 64e-6;
	h->fch1 = 1500;
	h->foff = -0.5;
	h->tstart = 60000.5;
	h->data_type = 1;
	sps_header_mark(h, "nchans");
	sps_header_mark(h, "nbits");
	sps_header_mark(h, "nifs");
	sps_header_mark(h, "tsamp");
	sps_header_mark(h, "fch1");
	sps_header_mark(h, "foff");
	sps_header_mark(h, "tstart");
	sps_header_mark(h, "data_type");
}

static void
test_stream_shape(void **state)
{
	struct sps_stream_shape s;
	struct sps_header h;

	(void)state;
	make_header(&h, 64, 2);
	h.nifs = 2;
	assert_int_equal(sps_stream_shape(&h, &s), SPS_OK);
	assert_int_equal(s.order, SPS_ORDER_TIME);
	assert_int_equal(s.ncols, 128);
	h.sps_order = 1;
	assert_int_equal(sps_stream_shape(&h, &s), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "sps_block"));
	h.sps_block = 100;
	assert_int_equal(sps_stream_shape(&h, &s), SPS_OK);
	assert_int_equal(s.order, SPS_ORDER_CHANNEL);
	assert_int_equal(s.block, 100);
	h.sps_order = 2;
	assert_int_equal(sps_stream_shape(&h, &s), SPS_EVALUE);
	h.sps_order = 0;
	h.sps_dmtime = 1;
	assert_int_equal(sps_stream_shape(&h, &s), SPS_OK);
	assert_int_equal(s.order, SPS_ORDER_DMTIME);
}

/* The header bytes of h as sps writes them. */
static unsigned char *
header_bytes(const struct sps_header *h, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(sps_header_write(f, h), SPS_OK);
	fclose(f);
	return (unsigned char *)buf;
}

static void
read_header_bytes(const unsigned char *raw, size_t len, struct sps_header *h)
{
	FILE *f = fmemopen((void *)raw, len, "rb");

	assert_non_null(f);
	assert_int_equal(sps_header_read(f, NULL, 0, h), SPS_OK);
	fclose(f);
}

static void
test_header_round_trip(void **state)
{
	unsigned char *raw, *cm, *tm;
	size_t len, cmlen, tmlen;
	struct sps_header h, hc, ht;

	(void)state;
	make_header(&h, 336, 8);
	raw = header_bytes(&h, &len);
	read_header_bytes(raw, len, &ht);
	assert_int_equal(sps_cornerturn_header(&ht, raw, len,
	    SPS_ORDER_CHANNEL, 1000, &cm, &cmlen), SPS_OK);
	assert_int_equal(cmlen, len + 34);
	assert_memory_equal(cm, raw, len - 14);	/* the input's own bytes */
	read_header_bytes(cm, cmlen, &hc);
	assert_int_equal(hc.sps_order, 1);
	assert_int_equal(hc.sps_block, 1000);
	assert_int_equal(hc.nchans, 336);
	assert_int_equal(sps_cornerturn_header(&hc, cm, cmlen,
	    SPS_ORDER_TIME, 0, &tm, &tmlen), SPS_OK);
	assert_int_equal(tmlen, len);
	assert_memory_equal(tm, raw, len);
	free(tm);
	/* No input bytes: written afresh, without the sps keywords. */
	assert_int_equal(sps_cornerturn_header(&hc, NULL, 0, SPS_ORDER_TIME,
	    0, &tm, &tmlen), SPS_OK);
	assert_int_equal(tmlen, len);
	assert_memory_equal(tm, raw, len);
	free(tm);
	free(cm);
	free(raw);
	sps_header_free(&h);
	sps_header_free(&hc);
	sps_header_free(&ht);
}

/* Header, then nbytes of data, as a stream to read. */
static FILE *
stream_of(const struct sps_header *h, size_t nbytes, char **buf)
{
	size_t len;
	FILE *f = open_memstream(buf, &len);
	size_t i;

	assert_int_equal(sps_header_write(f, h), SPS_OK);
	for (i = 0; i < nbytes; i++)
		fputc((int)(i * 7 & 0xff), f);
	fclose(f);
	return fmemopen(*buf, len, "rb");
}

static void
test_input_clean_end(void **state)
{
	struct sps_ct_input ci;
	unsigned char data[5 * 10];
	struct sps_header h;
	char *buf = NULL;
	size_t got;
	FILE *f;

	(void)state;
	make_header(&h, 5, 8);
	f = stream_of(&h, sizeof(data), &buf);
	assert_int_equal(sps_ct_input_open(&ci, f, "test"), SPS_OK);
	assert_int_equal(ci.hdr.length, sps_header_size(&h));
	assert_int_equal(sps_ct_input_read(&ci, data, 4, &got), SPS_OK);
	assert_int_equal(got, 4);
	assert_int_equal(data[1], 7);
	assert_int_equal(sps_ct_input_read(&ci, data, 4, &got), SPS_OK);
	assert_int_equal(sps_ct_input_read(&ci, data, 4, &got), SPS_OK);
	assert_int_equal(got, 2);
	assert_int_equal(sps_ct_input_read(&ci, data, 4, &got), SPS_EEOF);
	assert_int_equal(got, 0);
	assert_int_equal(ci.nsamples, 10);
	sps_ct_input_close(&ci);
	fclose(f);
	free(buf);
}

static void
test_input_truncated(void **state)
{
	struct sps_ct_input ci;
	unsigned char data[64];
	struct sps_header h;
	char *buf = NULL;
	size_t got;
	FILE *f;

	(void)state;
	make_header(&h, 5, 8);
	/* time-major data cut inside a spectrum: the whole ones are read */
	f = stream_of(&h, 5 * 3 + 2, &buf);
	assert_int_equal(sps_ct_input_open(&ci, f, "cut"), SPS_OK);
	assert_int_equal(sps_ct_input_read(&ci, data, 8, &got), SPS_OK);
	assert_int_equal(got, 3);
	assert_int_equal(data[14], 14 * 7);
	assert_int_equal(ci.cut_bytes, 2);
	assert_int_equal(sps_ct_input_read(&ci, data, 8, &got), SPS_EEOF);
	assert_int_equal(ci.nsamples, 3);
	sps_ct_input_close(&ci);
	fclose(f);
	free(buf);
	/* not one whole spectrum */
	f = stream_of(&h, 3, &buf);
	assert_int_equal(sps_ct_input_open(&ci, f, "short"), SPS_OK);
	assert_int_equal(sps_ct_input_read(&ci, data, 8, &got), SPS_ETRUNC);
	assert_non_null(strstr(sps_errmsg(), "short: truncated data: 3 "
	    "bytes, not one whole spectrum of 5"));
	sps_ct_input_close(&ci);
	fclose(f);
	free(buf);
	/* A channel-major block cut in the middle of a sample. */
	h.sps_order = 1;
	h.sps_block = 8;
	sps_header_mark(&h, "sps_order");
	sps_header_mark(&h, "sps_block");
	f = stream_of(&h, 40 + 13, &buf);
	assert_int_equal(sps_ct_input_open(&ci, f, "cm"), SPS_OK);
	assert_int_equal(ci.shape.order, SPS_ORDER_CHANNEL);
	assert_int_equal(ci.shape.block, 8);
	assert_int_equal(sps_ct_input_read(&ci, data, 8, &got), SPS_OK);
	assert_int_equal(sps_ct_input_read(&ci, data, 8, &got), SPS_ETRUNC);
	assert_non_null(strstr(sps_errmsg(), "channel-major block"));
	sps_ct_input_close(&ci);
	fclose(f);
	free(buf);
}

static void
test_input_not_sigproc(void **state)
{
	static char text[] = "SIMPLE  =                    T";
	struct sps_ct_input ci;
	FILE *f = fmemopen(text, sizeof(text) - 1, "rb");

	(void)state;
	assert_int_equal(sps_ct_input_open(&ci, f, "x.fits"), SPS_EFORMAT);
	assert_non_null(strstr(sps_errmsg(), "x.fits: not a SIGPROC"));
	sps_ct_input_close(&ci);
	fclose(f);
	f = fmemopen(text, 0, "rb");
	assert_int_equal(sps_ct_input_open(&ci, f, "empty"), SPS_ETRUNC);
	sps_ct_input_close(&ci);
	fclose(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_nbits_and_odd_sizes),
		cmocka_unit_test(test_float_bits_kept),
		cmocka_unit_test(test_block_must_be_whole_bytes),
		cmocka_unit_test(test_stream_shape),
		cmocka_unit_test(test_header_round_trip),
		cmocka_unit_test(test_input_clean_end),
		cmocka_unit_test(test_input_truncated),
		cmocka_unit_test(test_input_not_sigproc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

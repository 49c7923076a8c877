/* unit-tscrunch: sums and means against sums written out by hand, any
 * feeding of blocks, the partial tail held back, the output nbits that
 * cannot overflow, and the header (fch1 at the merged channel's centre,
 * foff, tsamp, nchans, frequency table, nsamples, signed). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tscrunch.h"

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
	sps_header_mark(h, "nchans");
	sps_header_mark(h, "nbits");
	sps_header_mark(h, "nifs");
	sps_header_mark(h, "tsamp");
	sps_header_mark(h, "fch1");
	sps_header_mark(h, "foff");
	sps_header_mark(h, "tstart");
}

static void
test_nbits_cannot_overflow(void **state)
{
	struct sps_header h;

	(void)state;
	make_header(&h, 4, 1);
	assert_int_equal(sps_tscrunch_nbits(&h, 1, 1, 0), 1);
	assert_int_equal(sps_tscrunch_nbits(&h, 2, 1, 0), 2);	/* max 2 */
	assert_int_equal(sps_tscrunch_nbits(&h, 3, 1, 0), 2);	/* max 3 */
	assert_int_equal(sps_tscrunch_nbits(&h, 2, 2, 0), 4);	/* max 4 */
	h.nbits = 2;
	assert_int_equal(sps_tscrunch_nbits(&h, 5, 1, 0), 4);	/* 15 */
	assert_int_equal(sps_tscrunch_nbits(&h, 3, 2, 0), 8);	/* 18 */
	h.nbits = 8;
	assert_int_equal(sps_tscrunch_nbits(&h, 1, 1, 0), 8);
	assert_int_equal(sps_tscrunch_nbits(&h, 2, 1, 0), 16);
	assert_int_equal(sps_tscrunch_nbits(&h, 257, 1, 0), 16); /* 65535 */
	assert_int_equal(sps_tscrunch_nbits(&h, 258, 1, 0), 32);
	assert_int_equal(sps_tscrunch_nbits(&h, 64, 64, 1), 8);	/* mean */
	h.nbits = 16;
	assert_int_equal(sps_tscrunch_nbits(&h, 2, 1, 0), 32);
	h.nbits = 32;
	assert_int_equal(sps_tscrunch_nbits(&h, 1000, 8, 0), 32);
	h.nbits = 8;
	h.sign = -1;
	assert_int_equal(sps_tscrunch_nbits(&h, 1, 1, 0), 8);
	assert_int_equal(sps_tscrunch_nbits(&h, 2, 1, 0), 32);
}

static void
test_header(void **state)
{
	struct sps_tscrunch_params p = { 3, 4, 0, 0 };
	struct sps_header h, out;

	(void)state;
	make_header(&h, 16, 8);
	h.nsamples = 100;
	sps_header_mark(&h, "nsamples");
	assert_int_equal(sps_tscrunch_header(&h, &p, 100, &out), SPS_OK);
	assert_int_equal(out.nchans, 4);
	assert_true(out.foff == -2.0);
	assert_true(out.fch1 == 1500 - 0.75);	/* centre of 1500 .. 1498.5 */
	assert_true(fabs(out.tsamp - 192e-6) < 1e-18);
	assert_true(out.tstart == h.tstart);
	assert_int_equal(out.nbits, 16);
	assert_int_equal(out.nsamples, 33);
	sps_header_free(&out);
	assert_int_equal(sps_tscrunch_header(&h, &p, UINT64_MAX, &out),
	    SPS_OK);
	assert_false(sps_header_has(&out, "nsamples"));
	sps_header_free(&out);
	/* -f 1 keeps fch1 exactly; a forced nbits is kept. */
	p.ffactor = 1;
	p.nbits = 4;
	assert_int_equal(sps_tscrunch_header(&h, &p, 100, &out), SPS_OK);
	assert_true(out.fch1 == 1500 && out.foff == -0.5);
	assert_int_equal(out.nbits, 4);
	sps_header_free(&out);
	sps_header_free(&h);
}

static void
test_header_frequency_table_and_sign(void **state)
{
	struct sps_tscrunch_params p = { 2, 2, 0, 0 };
	const double f[4] = { 1400, 1399, 1390, 1388 };
	struct sps_header h, out;

	(void)state;
	make_header(&h, 4, 8);
	h.fchannel = malloc(sizeof(f));
	memcpy(h.fchannel, f, sizeof(f));
	h.nfchannel = 4;
	h.sign = -1;
	sps_header_mark(&h, "signed");
	assert_int_equal(sps_tscrunch_header(&h, &p, 10, &out), SPS_OK);
	assert_int_equal(out.nfchannel, 2);
	assert_true(out.fchannel[0] == 1399.5 && out.fchannel[1] == 1389);
	assert_int_equal(out.nbits, 32);
	assert_true(out.sign > 0);
	sps_header_free(&out);
	p.tfactor = p.ffactor = 1;
	assert_int_equal(sps_tscrunch_header(&h, &p, 10, &out), SPS_OK);
	assert_int_equal(out.nbits, 8);
	assert_true(out.sign < 0);
	sps_header_free(&out);
	sps_header_free(&h);
}

static void
test_bad_factors(void **state)
{
	struct sps_tscrunch_params p = { 1, 3, 0, 0 };
	struct sps_tscrunch *plan;
	struct sps_header h, out;

	(void)state;
	make_header(&h, 16, 8);
	assert_int_equal(sps_tscrunch_header(&h, &p, 10, &out), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "-f 3 does not divide nchans "
	    "16"));
	assert_int_equal(sps_tscrunch_create(&plan, &h, &p), SPS_EVALUE);
	assert_null(plan);
	p.ffactor = 1;
	p.tfactor = 0;
	assert_int_equal(sps_tscrunch_create(&plan, &h, &p), SPS_EVALUE);
	p.tfactor = 1;
	p.nbits = 3;
	assert_int_equal(sps_tscrunch_header(&h, &p, 10, &out), SPS_EVALUE);
}

/* 2 IFs of 6 channels, 7 samples: x = 1000 s + 100 i + c. */
#define NS	7
#define NIF	2
#define NCH	6

static void
fill(float *x)
{
	int s, i, c;

	for (s = 0; s < NS; s++)
		for (i = 0; i < NIF; i++)
			for (c = 0; c < NCH; c++)
				x[(s * NIF + i) * NCH + c] = (float)(1000 * s +
				    100 * i + c);
}

static void
test_sums_by_hand(void **state)
{
	struct sps_tscrunch_params p = { 3, 2, 0, 0 };
	float x[NS * NIF * NCH], out[3 * NIF * NCH / 2];
	struct sps_tscrunch *plan;
	struct sps_header h;

	(void)state;
	make_header(&h, NCH, 32);
	h.nifs = NIF;
	fill(x);
	assert_int_equal(sps_tscrunch_create(&plan, &h, &p), SPS_OK);
	assert_int_equal(sps_tscrunch_execute(plan, x, NS, out), 2);
	assert_int_equal(sps_tscrunch_pending(plan), 1);
	/* sample 0: s 0..2, IF 0, channels 0, 1: 2 (0+1000+2000) + 3 * 1 */
	assert_true(out[0] == 6003);
	/* IF 0, channels 4, 5: 6000 + 3 * 9 */
	assert_true(out[2] == 6027);
	/* IF 1, channels 2, 3: 6000 + 6 * 100 + 3 * 5 */
	assert_true(out[4] == 6615);
	/* sample 1: s 3..5: 2 (3000+4000+5000) + 3 */
	assert_true(out[6] == 24003);
	sps_tscrunch_free(plan);
	p.mean = 1;
	assert_int_equal(sps_tscrunch_create(&plan, &h, &p), SPS_OK);
	assert_int_equal(sps_tscrunch_execute(plan, x, NS, out), 2);
	assert_true(out[0] == 1000.5f && out[6] == 4000.5f);
	sps_tscrunch_free(plan);
}

static void
test_blocks_do_not_matter(void **state)
{
	struct sps_tscrunch_params p = { 4, 3, 0, 0 };
	float x[NS * NIF * NCH], whole[NIF * NCH], parts[NIF * NCH * 2];
	struct sps_tscrunch *plan;
	struct sps_header h;
	size_t s, made = 0;

	(void)state;
	make_header(&h, NCH, 8);
	h.nifs = NIF;
	fill(x);
	assert_int_equal(sps_tscrunch_create(&plan, &h, &p), SPS_OK);
	assert_int_equal(sps_tscrunch_execute(plan, x, NS, whole), 1);
	sps_tscrunch_free(plan);
	assert_int_equal(sps_tscrunch_create(&plan, &h, &p), SPS_OK);
	for (s = 0; s < NS; s++)
		made += sps_tscrunch_execute(plan, x + s * NIF * NCH, 1,
		    parts + made * NIF * NCH / 3);
	assert_int_equal(made, 1);
	assert_int_equal(sps_tscrunch_pending(plan), 3);
	assert_memory_equal(parts, whole, sizeof(float) * NIF * NCH / 3);
	sps_tscrunch_free(plan);
}

static void
test_factor_one_is_identity(void **state)
{
	struct sps_tscrunch_params p = { 1, 1, 0, 0 };
	float x[NS * NIF * NCH], out[NS * NIF * NCH];
	struct sps_tscrunch *plan;
	struct sps_header h;

	(void)state;
	make_header(&h, NCH, 32);
	h.nifs = NIF;
	fill(x);
	x[5] = -0.0f;
	x[6] = 1e-40f;
	assert_int_equal(sps_tscrunch_create(&plan, &h, &p), SPS_OK);
	assert_int_equal(sps_tscrunch_execute(plan, x, NS, out), NS);
	assert_memory_equal(out, x, sizeof(x));
	assert_int_equal(sps_tscrunch_pending(plan), 0);
	sps_tscrunch_free(plan);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nbits_cannot_overflow),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_header_frequency_table_and_sign),
		cmocka_unit_test(test_bad_factors),
		cmocka_unit_test(test_sums_by_hand),
		cmocka_unit_test(test_blocks_do_not_matter),
		cmocka_unit_test(test_factor_one_is_identity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

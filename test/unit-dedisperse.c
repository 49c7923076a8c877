/* unit-dedisperse: the tiled, threaded engine equals a naive triple loop
 * bit for bit on integer data, for both channel orders, DM 0, odd sizes,
 * time-scrunching and a kill mask. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dedisperse.h"
#include "dmdelay.h"

static void
make_header(struct sps_header *h, int nchans, double fch1, double foff,
    int nifs)
{
	sps_header_init(h);
	h->nchans = nchans;
	h->nifs = nifs;
	h->nbits = 8;
	h->tsamp = 256e-6;
	h->fch1 = fch1;
	h->foff = foff;
}

/* The definition in dedisperse.h, written as plainly as possible. */
static float
naive(const struct sps_header *h, const float *in, double dm, int f,
    const unsigned char *kill, size_t j)
{
	double fref = fmax(h->fch1, h->fch1 + (h->nchans - 1) * h->foff);
	float sum = 0;
	int c, i, k;

	for (c = 0; c < h->nchans; c++) {
		long s;

		if (kill != NULL && kill[c])
			continue;
		s = sps_dm_delay_samples(dm, h->fch1 + c * h->foff, fref,
		    h->tsamp * f);
		for (k = 0; k < f; k++)
			for (i = 0; i < h->nifs; i++)
				sum += in[((j + s) * f + k) * h->nchans *
				    h->nifs + i * h->nchans + c];
	}
	return sum;
}

static void
check(int nchans, double foff, int nifs, int maxval, const int *scrunch,
    const unsigned char *kill, size_t nout)
{
	static const double dms[] = { 0, 0.7, 13, 55.5, 120, 121, 122, 300 };
	const int ndms = 8;
	struct sps_dedisp_opts opts = { 2, 0, 0, SPS_ALGO_DIRECT };
	struct sps_header h;
	struct sps_dedisp_plan *p;
	size_t nin, i, j;
	float *in, *out;
	int d;

	make_header(&h, nchans, foff < 0 ? 1500 : 1500 - 64 * 1, foff, nifs);
	assert_int_equal(sps_dedisp_create(&p, &h, dms, scrunch, ndms, kill,
	    &opts), SPS_OK);
	nin = nout + sps_dedisp_max_delay(p) + 3;
	in = malloc(nin * nchans * nifs * sizeof(float));
	out = malloc(sps_dedisp_out_size(p, nout) * sizeof(float));
	srand(7);
	for (i = 0; i < nin * nchans * nifs; i++)
		in[i] = (float)(rand() % (maxval + 1));
	assert_int_equal(sps_dedisp_execute(p, in, nin, nout, out), SPS_OK);
	for (d = 0; d < ndms; d++) {
		int f = scrunch != NULL ? scrunch[d] : 1;
		const float *o = out + sps_dedisp_out_offset(p, nout, d);

		for (j = 0; j < nout / f; j++)
			if (o[j] != naive(&h, in, dms[d], f, kill, j))
				fail_msg("nchans %d foff %g trial %d sample %zu: "
				    "%g != %g", nchans, foff, d, j, o[j],
				    naive(&h, in, dms[d], f, kill, j));
	}
	sps_dedisp_free(p);
	free(in);
	free(out);
}

static void
test_equals_naive(void **state)
{
	(void)state;
	check(64, -1, 1, 255, NULL, NULL, 3000);
	check(64, 1, 1, 255, NULL, NULL, 3000);		/* ascending */
	check(37, -1.7, 1, 65535, NULL, NULL, 1111);	/* odd, 16-bit */
	check(5, -0.3, 2, 3, NULL, NULL, 17);		/* two IFs */
	check(1, -1, 1, 1, NULL, NULL, 100);		/* one channel */
}

static void
test_scrunch_and_kill(void **state)
{
	static const int scrunch[] = { 1, 1, 2, 2, 2, 4, 4, 8 };
	unsigned char kill[64] = { 0 };

	(void)state;
	kill[0] = kill[5] = kill[63] = 1;
	check(64, -1, 1, 255, scrunch, NULL, 4096);
	check(64, -1, 1, 255, NULL, kill, 2000);
	check(64, 1, 1, 15, scrunch, kill, 1024 + 8);
}

static void
test_bad_plans(void **state)
{
	static const double dms[] = { 1, -2 };
	static const int bad_scrunch[] = { 1, 3 };
	unsigned char kill[4] = { 1, 1, 1, 1 };
	struct sps_dedisp_plan *p;
	struct sps_header h;

	(void)state;
	make_header(&h, 4, 1400, -1, 1);
	assert_int_equal(sps_dedisp_create(&p, &h, dms, NULL, 2, NULL, NULL),
	    SPS_EVALUE);
	assert_int_equal(sps_dedisp_create(&p, &h, dms, bad_scrunch, 1, NULL,
	    NULL), SPS_OK);
	sps_dedisp_free(p);
	assert_int_equal(sps_dedisp_create(&p, &h, dms + 0, bad_scrunch + 1, 1,
	    NULL, NULL), SPS_EVALUE);
	assert_int_equal(sps_dedisp_create(&p, &h, dms, NULL, 1, kill, NULL),
	    SPS_EVALUE);
}

/* A dispersed impulse, one sample per channel on the DM-300 curve: the
 * direct sum puts all nchans units in one sample; the sub-band sum puts
 * them within the Appendix B bound of it. */
static void
test_subband_within_bound(void **state)
{
	enum { NCH = 256, T0 = 100 };
	double dms[40];
	struct sps_dedisp_opts opts = { 2, 16, 0, SPS_ALGO_SUBBAND };
	struct sps_dedisp_plan *p;
	struct sps_header h;
	size_t nin, nout = 512, j;
	float *in, *out;
	double bound;
	int c, d, reach;

	(void)state;
	for (d = 0; d < 40; d++)
		dms[d] = 280 + d;	/* trial 20 is DM 300 */
	make_header(&h, NCH, 1500, -0.5, 1);
	assert_int_equal(sps_dedisp_create(&p, &h, dms, NULL, 40, NULL, &opts),
	    SPS_OK);
	bound = sps_dedisp_smear_bound(p);
	assert_true(bound > 0);
	reach = (int)ceil(bound / h.tsamp);
	nin = nout + sps_dedisp_max_delay(p);
	in = calloc(nin * NCH, sizeof(float));
	out = malloc(sps_dedisp_out_size(p, nout) * sizeof(float));
	for (c = 0; c < NCH; c++)
		in[(T0 + sps_dm_delay_samples(300, 1500 - 0.5 * c, 1500,
		    h.tsamp)) * NCH + c] = 1;
	assert_int_equal(sps_dedisp_execute(p, in, nin, nout, out), SPS_OK);
	{
		const float *o = out + sps_dedisp_out_offset(p, nout, 20);
		float sum = 0;

		for (j = T0 - reach; j <= (size_t)(T0 + reach); j++)
			sum += o[j];
		assert_true(sum == NCH);
		for (j = 0; j < nout; j++)
			assert_true(o[j] == 0 || labs((long)j - T0) <= reach);
	}
	sps_dedisp_free(p);
	free(in);
	free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equals_naive),
		cmocka_unit_test(test_scrunch_and_kill),
		cmocka_unit_test(test_bad_plans),
		cmocka_unit_test(test_subband_within_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

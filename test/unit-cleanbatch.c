/* unit-cleanbatch: the decisions of a run of blocks made at once from
 * sums (cleanbatch.h, the GPU's way) are those sps_clean_execute makes
 * block after block: the same masks, spectra clipped, replacement values
 * and report, on integer data with a hot channel that comes and goes, a
 * carrier, a dead channel, impulses and a short last block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cleanbatch.h"

#define NC	48
#define NB	6
#define BLOCK	256
#define NT	(NB * BLOCK - 100)	/* the last block short */

static float
sample(int t, int c)
{
	uint64_t z = ((uint64_t)t * NC + (uint64_t)c + 7) *
	    0x9e3779b97f4a7c15ULL;
	float v;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z ^= z >> 31;
	v = 100 + c + (float)(z % 9) - 4;
	if (c == 20 && t / BLOCK % 3 == 1)
		v += (float)(z % 61) - 30;	/* hot, then quiet */
	if (c >= 30 && c < 33 && t % 500 < 250)
		v += 12;			/* a switching carrier */
	if (c == 5)
		v = 0;
	if (t % 301 == 17)
		v += 15;			/* impulses */
	return v;
}

static void
make_stream(struct sps_cleanstream **cs)
{
	struct sps_clean_setup s;
	struct sps_header h;

	sps_header_init(&h);
	h.nchans = NC, h.nifs = 1, h.nbits = 8;
	sps_clean_setup_defaults(&s);
	s.block = BLOCK;
	assert_int_equal(sps_cleanstream_create(cs, &h, &s, NULL), SPS_OK);
}

/* The sums of the batch, as the device makes them. */
static void
sums(const float *x, int b, int n, const unsigned char *mask,
    const unsigned char *bad, double *s1, double *s2, float *z, double *bs)
{
	int t, c;

	for (c = 0; c < NC; c++) {
		s1[b * NC + c] = s2[b * NC + c] = bs[b * NC + c] = 0;
		for (t = 0; t < n; t++) {
			double v = x[(b * BLOCK + t) * NC + c];

			s1[b * NC + c] += v;
			s2[b * NC + c] += v * v;
			if (bad != NULL && bad[b * BLOCK + t])
				bs[b * NC + c] += v;
		}
	}
	for (t = 0; mask != NULL && t < n; t++) {
		double sum = 0;

		for (c = 0; c < NC; c++)
			if (!mask[b * NC + c])
				sum += x[(b * BLOCK + t) * NC + c];
		z[b * BLOCK + t] = (float)sum;
	}
}

static void
batch_equals_block_by_block(void **state)
{
	static float x[NB * BLOCK * NC], y[NB * BLOCK * NC], z[NB * BLOCK];
	static double s1[NB * NC], s2[NB * NC], bs[NB * NC];
	static unsigned char mask[NB * NC], flags[NB * NC], bad[NB * BLOCK];
	static float bp[NB * NC], share[NB * NC];
	struct sps_clean_block seq[NB], blk[NB];
	struct sps_cleanstream *a, *b;
	struct sps_clean_batch run;
	int first[NB], len[NB], kept[NB], t, c, k, any;

	(void)state;
	for (t = 0; t < NT; t++)
		for (c = 0; c < NC; c++)
			x[t * NC + c] = y[t * NC + c] = sample(t, c);
	make_stream(&a);
	make_stream(&b);
	for (k = 0; k < NB; k++) {
		first[k] = k * BLOCK;
		len[k] = k < NB - 1 ? BLOCK : NT - k * BLOCK;
		sps_cleanstream_begin(a, (uint64_t)first[k]);
		assert_int_equal(sps_cleanstream_block(a, (uint64_t)first[k],
		    y + first[k] * NC, (size_t)len[k], &seq[k]), SPS_OK);
		seq[k].masked = NULL;
		sums(x, k, len[k], NULL, NULL, s1, s2, z, bs);
	}
	run = (struct sps_clean_batch){ NB, 0, first, len, s1, s2, z, bs,
	    mask, flags, kept, bad, bp, share, blk };
	assert_int_equal(sps_clean_batch_masks(b, &run, &any), SPS_OK);
	assert_true(any);
	for (k = 0; k < NB; k++)
		sums(x, k, len[k], mask, NULL, s1, s2, z, bs);
	assert_true(sps_clean_batch_clips(b, &run) > 0);
	for (k = 0; k < NB; k++)
		sums(x, k, len[k], mask, bad, s1, s2, z, bs);
	assert_int_equal(sps_clean_batch_bandpass(b, &run), SPS_OK);
	for (k = 0; k < NB; k++) {
		assert_int_equal(blk[k].clipped, seq[k].clipped);
		assert_int_equal(blk[k].nmasked, seq[k].nmasked);
		assert_int_equal(blk[k].niqrm, seq[k].niqrm);
		assert_int_equal((int)blk[k].replaced, (int)seq[k].replaced);
		for (t = 0; t < len[k]; t++)
			for (c = 0; c < NC; c++) {
				int i = (first[k] + t) * NC + c;
				int r = bad[first[k] + t] || mask[k * NC + c];

				assert_true(y[i] == (r ? bp[k * NC + c] :
				    x[i]));
			}
	}
	for (k = 0, any = 0; k < NB; k++)
		any += blk[k].niqrm;
	assert_true(any > 0);	/* not a test of nothing */
	assert_int_equal(sps_cleanstream_report(a)->replaced,
	    sps_cleanstream_report(b)->replaced);
	sps_cleanstream_free(a);
	sps_cleanstream_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(batch_equals_block_by_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

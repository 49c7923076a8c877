/* unit-tree: the tree dedispersion algorithms (Barsdell et al. 2012
 * §3.1) sum exactly what sps_dedisp_effective_shift says, bit for bit on
 * integer data; exactly what struct sps_tree_tables says (the GPU's
 * contract), bit for bit on Gaussian noise; their delays stay within the
 * plan's smearing bound; a dispersed pulse is found at the direct
 * algorithm's DM; bad plans are refused. */
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
#include "gauss.h"
#include "plan.h"

#define MAX_CHANS	1024

static void
make_header(struct sps_header *h, int nchans, double fch1, double foff,
    double tsamp)
{
	sps_header_init(h);
	h->nchans = nchans;
	h->nifs = 1;
	h->nbits = 8;
	h->tsamp = tsamp;
	h->fch1 = fch1;
	h->foff = foff;
}

static int
live_channels(const struct sps_header *h, const unsigned char *kill,
    int *live)
{
	int c, n = 0;

	for (c = 0; c < h->nchans; c++)
		if (kill == NULL || !kill[c])
			live[n++] = c;
	return n;
}

/* dedisperse.h's promise, plainly: out_i[j] = sum over live c of
 * S_f[c][j + e(i, c)]. */
static float
naive(const struct sps_dedisp_plan *p, const struct sps_header *h,
    const float *in, const int *live, int nlive, int trial, int f, size_t j)
{
	float sum = 0;
	int c, k;

	for (c = 0; c < nlive; c++) {
		long e = sps_dedisp_effective_shift(p, trial, c);

		for (k = 0; k < f; k++)
			sum += in[((j + e) * f + k) * h->nchans + live[c]];
	}
	return sum;
}

static int
largest_pass(const struct sps_dedisp_plan *p)
{
	struct sps_tree_tables t;
	int i, most = 0;

	assert_int_equal(sps_tree_tables(p, &t), SPS_OK);
	for (i = 0; i < t.ndms * t.nsub; i++)
		if (t.pass[i] > most)
			most = t.pass[i];
	sps_tree_tables_free(&t);
	return most;
}

static void
check(int algo, const struct sps_header *h, const double *dms,
    const int *scrunch, int ndms, const unsigned char *kill, size_t nout,
    int min_pass)
{
	struct sps_dedisp_opts opts = { 2, 0, 0, 0 };
	struct sps_dedisp_plan *p;
	int live[MAX_CHANS], nlive = live_channels(h, kill, live), d;
	size_t nin, i, j;
	float *in, *out;

	opts.algo = algo;
	assert_int_equal(sps_dedisp_create(&p, h, dms, scrunch, ndms, kill,
	    &opts), SPS_OK);
	assert_int_equal(sps_dedisp_algo(p), algo);
	if (algo == SPS_ALGO_TREE_LINEAR || algo == SPS_ALGO_TREE_PADDED)
		assert_true(largest_pass(p) >= min_pass);
	nin = nout + sps_dedisp_max_delay(p);
	in = malloc(nin * h->nchans * sizeof(float));
	out = malloc(sps_dedisp_out_size(p, nout) * sizeof(float));
	assert_non_null(in);
	assert_non_null(out);
	srand(11);
	for (i = 0; i < nin * h->nchans; i++)
		in[i] = (float)(rand() % 256);
	assert_int_equal(sps_dedisp_execute(p, in, nin, nout, out), SPS_OK);
	for (d = 0; d < ndms; d++) {
		int f = scrunch != NULL ? scrunch[d] : 1;
		const float *o = out + sps_dedisp_out_offset(p, nout, d);

		for (j = 0; j < nout / f; j++)
			if (o[j] != naive(p, h, in, live, nlive, d, f, j))
				fail_msg("algo %d nchans %d foff %g trial %d "
				    "sample %zu: %g != %g", algo, h->nchans,
				    h->foff, d, j, o[j], naive(p, h, in, live,
				    nlive, d, f, j));
	}
	sps_dedisp_free(p);
	free(in);
	free(out);
}

/* DM 0 up to many times the diagonal DM of the sub-bands, so that later
 * passes (§3.1.3) are used; one scrunch level left empty. */
static const double wide_dms[] = { 0, 0.4, 3, 17, 40, 41, 90, 160, 250,
	400, 610 };
static const int wide_scrunch[] = { 1, 1, 1, 1, 1, 1, 1, 2, 2, 4, 4 };

static void
test_equals_naive(void **state)
{
	unsigned char kill[MAX_CHANS] = { 0 };
	struct sps_header h;
	int algo, c;

	(void)state;
	for (algo = SPS_ALGO_TREE_LINEAR; algo <= SPS_ALGO_TREE_PADDED;
	    algo++) {
		make_header(&h, 64, 1500, -1, 256e-6);
		check(algo, &h, wide_dms, NULL, 11, NULL, 1000, 5);
		check(algo, &h, wide_dms, wide_scrunch, 11, NULL, 1024, 1);
		make_header(&h, 256, 1300, 0.5, 128e-6);	/* ascending */
		check(algo, &h, wide_dms, wide_scrunch, 11, NULL, 800, 1);
		make_header(&h, 1000, 1500, -0.3, 64e-6);
		check(algo, &h, wide_dms, wide_scrunch, 9, NULL, 512, 1);
		/* blocks longer than the tree's chunks */
		make_header(&h, 32, 1500, -2, 256e-6);
		check(algo, &h, wide_dms, wide_scrunch, 11, NULL, 40000, 1);
	}
	/* the top channel, scattered ones and a whole sub-band killed */
	make_header(&h, 64, 1500, -1, 256e-6);
	kill[0] = kill[5] = kill[63] = 1;
	for (c = 8; c < 16; c++)
		kill[c] = 1;
	check(SPS_ALGO_TREE_LINEAR, &h, wide_dms, wide_scrunch, 11, kill, 512,
	    1);
	check(SPS_ALGO_TREE_PADDED, &h, wide_dms, wide_scrunch, 11, kill, 512,
	    1);
	make_header(&h, 256, 1300, 0.5, 128e-6);
	for (c = 0; c < 256; c += 7)
		kill[c] = 1;
	check(SPS_ALGO_TREE_LINEAR, &h, wide_dms, wide_scrunch, 11, kill, 256,
	    1);
	check(SPS_ALGO_TREE_PADDED, &h, wide_dms, wide_scrunch, 11, kill, 256,
	    1);
}

/* The other algorithms' effective shifts describe their sums too. */
static void
test_effective_shift_other_algorithms(void **state)
{
	unsigned char kill[64] = { 0 };
	struct sps_header h;

	(void)state;
	kill[3] = kill[40] = 1;
	make_header(&h, 64, 1500, -1, 256e-6);
	check(SPS_ALGO_DIRECT, &h, wide_dms, wide_scrunch, 11, kill, 512, 0);
	check(SPS_ALGO_SUBBAND, &h, wide_dms, wide_scrunch, 11, kill, 512, 0);
}

/* The tree's delay of slot s in trial d, from the header's recursion. */
static long
tree_delay(int width, int d, int s)
{
	if (width == 1)
		return 0;
	if (s < width / 2)
		return tree_delay(width / 2, d >> 1, s);
	return ((d + 1) >> 1) + tree_delay(width / 2, d >> 1, s - width / 2);
}

/* How far the tree's delays stray from the straight line d s / (w - 1). */
static double
tree_wobble(int width)
{
	double most = 0;
	int d, s;

	for (d = 0; d < width; d++)
		for (s = 0; s < width; s++)
			most = fmax(most, fabs(tree_delay(width, d, s) -
			    (double)d * s / (width - 1)));
	return most;
}

/* Each trial's spread of x - e, in its scrunched samples; checks that
 * every |x - e| lies within the plan's bound and that the largest
 * spread is that bound. */
static void
spreads(const struct sps_dedisp_plan *p, const struct sps_header *h,
    const struct sps_plan *pl, double *spread)
{
	double bound = sps_dedisp_smear_bound(p), most = 0;
	double fref = fmax(h->fch1, h->fch1 + (h->nchans - 1) * h->foff);
	size_t i;
	int c;

	for (i = 0; i < pl->ntrials; i++) {
		double ts = h->tsamp * pl->scrunch[i], lo = INFINITY;
		double hi = -INFINITY;

		for (c = 0; c < h->nchans; c++) {
			double x = sps_dm_delay(pl->dm[i], h->fch1 + c *
			    h->foff, fref) / ts;
			double r = x - sps_dedisp_effective_shift(p, (int)i, c);

			assert_true(fabs(r) <= bound / ts + 1e-9);
			lo = fmin(lo, r);
			hi = fmax(hi, r);
		}
		spread[i] = hi - lo;
		most = fmax(most, spread[i] * ts);
	}
	assert_true(fabs(most - bound) <= 1e-9 * bound);
}

/* Barsdell eq. A4 at DM dm, for the band falling from fch1. */
static double
eq_a4(const struct sps_header *h, int width, double dm)
{
	double lambda = -fabs(h->foff) * h->nchans / h->fch1;
	double ratio = (double)width / h->nchans;

	return 0.75 * dm * SPS_KDM / (h->fch1 * h->fch1) * ratio * ratio *
	    lambda * lambda / pow(1 + lambda, 4);
}

/* A realistic search: 1024 channels from 1581.8 MHz, 64 us, dedisp's
 * DM list 0-1000 with scrunching.  A4 bounds the curvature within a
 * sub-band; the tree's own delays wobble about a straight line (Taylor's
 * tree is not eq. 8 exactly) and the sub-band offsets and the exact
 * delays are rounded, so x - e spreads over at most A4 + twice the
 * wobble + 1 sample. */
static void
test_within_bounds(void **state)
{
	struct sps_dedisp_opts opts = { 1, 0, 0, SPS_ALGO_TREE_LINEAR };
	struct sps_dedisp_plan *p;
	struct sps_tree_tables t;
	struct sps_header h;
	struct sps_plan pl;
	double *spread, a4, wobble;
	size_t i;

	(void)state;
	make_header(&h, 1024, 1581.8, -0.390625, 64e-6);
	sps_plan_init(&pl);
	assert_int_equal(sps_plan_dedisp(&pl, &h, 0, 1000, 40, 1.25), SPS_OK);
	assert_int_equal(sps_plan_scrunch(&pl, &h, 1 << 30), SPS_OK);
	spread = malloc(pl.ntrials * sizeof(double));
	for (opts.algo = SPS_ALGO_TREE_LINEAR; opts.algo <=
	    SPS_ALGO_TREE_PADDED; opts.algo++) {
		assert_int_equal(sps_dedisp_create(&p, &h, pl.dm, pl.scrunch,
		    (int)pl.ntrials, NULL, &opts), SPS_OK);
		assert_int_equal(sps_tree_tables(p, &t), SPS_OK);
		spreads(p, &h, &pl, spread);
		wobble = tree_wobble(t.width);
		for (i = 0; i < pl.ntrials; i++) {
			a4 = opts.algo == SPS_ALGO_TREE_LINEAR ? eq_a4(&h,
			    t.width, pl.dm[i]) / (h.tsamp * pl.scrunch[i]) : 0;
			if (spread[i] > a4 + 2 * wobble + 1)
				fail_msg("algo %d trial %zu (DM %g): spread %g "
				    "samples, A4 %g", opts.algo, i, pl.dm[i],
				    spread[i], a4);
		}
		if (opts.algo == SPS_ALGO_TREE_LINEAR) {
			assert_int_equal(t.width, 32);
			assert_int_equal(t.nsub, 32);
			assert_true(fabs(sps_dedisp_tree_linear_error(p) - eq_a4(&h,
			    32, pl.dm[pl.ntrials - 1])) < 1e-15);
		} else {
			assert_int_equal(t.nsub, 1);
			assert_true(sps_dedisp_tree_linear_error(p) == 0);
		}
		sps_tree_tables_free(&t);
		sps_dedisp_free(p);
	}
	free(spread);
	sps_plan_free(&pl);
}

/* Widths: opts.nsub gives the power of 2 >= nchans / nsub; by default
 * 2^ceil(log2(sqrt(nchans))). */
static void
test_widths(void **state)
{
	static const int cases[][3] = {	/* nchans, nsub, width */
		{ 1024, 0, 32 }, { 4096, 0, 64 }, { 1000, 0, 32 },
		{ 1000, 16, 64 }, { 64, 4, 16 }, { 64, 32, 2 }, { 65, 0, 16 },
	};
	struct sps_dedisp_opts opts = { 1, 0, 0, SPS_ALGO_TREE_LINEAR };
	struct sps_dedisp_plan *p;
	struct sps_tree_tables t;
	struct sps_header h;
	double dm = 10;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		make_header(&h, cases[k][0], 1500, -200.0 / cases[k][0], 64e-6);
		opts.nsub = cases[k][1];
		assert_int_equal(sps_dedisp_create(&p, &h, &dm, NULL, 1, NULL,
		    &opts), SPS_OK);
		assert_int_equal(sps_tree_tables(p, &t), SPS_OK);
		assert_int_equal(t.width, cases[k][2]);
		assert_int_equal(t.nsub, (cases[k][0] + t.width - 1) / t.width);
		sps_tree_tables_free(&t);
		sps_dedisp_free(p);
	}
}

/* The GPU's contract: the output rebuilt from the tables alone, with the
 * formulas of struct sps_tree_tables written out plainly. */
struct rebuild {
	const struct sps_tree_tables *t;
	float	**level;	/* S_k, nlive rows of len[k] */
	size_t	 *len;
	size_t	  span;		/* samples of each tree row */
};

/* T_{b,p}[0 .. width - 1] of level k, rows of r->span samples. */
static float *
tree_rows(const struct rebuild *r, int k, int b, int pass)
{
	const struct sps_tree_tables *t = r->t;
	size_t n = r->span, u, w = (size_t)t->width;
	float *rows = calloc(w * n, sizeof(float));
	float *next = calloc(w * n, sizeof(float)), *swap;
	int s, l, B, d;

	for (s = 0; s < t->width; s++) {
		int c = t->slot_live[b * t->width + s];

		for (u = 0; c >= 0 && u < n; u++) {
			size_t at = u + (size_t)pass * s;

			rows[s * n + u] = at < r->len[k] ?
			    r->level[k][c * r->len[k] + at] : 0;
		}
	}
	for (l = 0; (1 << l) < t->width; l++) {
		int half = 1 << l;

		for (B = 0; B < t->width / (2 * half); B++)
			for (d = 0; d < 2 * half; d++) {
				size_t top = (size_t)(2 * B * half + (d >> 1));
				size_t bot = top + (size_t)half;
				float *o = next + (2 * B * half + d) * n;
				size_t sh = (size_t)((d + 1) >> 1);

				for (u = 0; u < n; u++)
					o[u] = rows[top * n + u] + (u + sh < n ?
					    rows[bot * n + u + sh] : 0);
			}
		swap = rows;
		rows = next;
		next = swap;
	}
	free(next);
	return rows;
}

static void
rebuild_check(int algo, const struct sps_header *h, const double *dms,
    const int *scrunch, int ndms, const unsigned char *kill, size_t nout)
{
	struct sps_dedisp_opts opts = { 2, 0, 0, 0 };
	struct sps_dedisp_plan *p;
	struct sps_tree_tables t;
	struct rebuild r;
	int live[MAX_CHANS], nlive = live_channels(h, kill, live), i, b, k, c;
	size_t nin, j, u;
	float *in, *out;

	opts.algo = algo;
	assert_int_equal(sps_dedisp_create(&p, h, dms, scrunch, ndms, kill,
	    &opts), SPS_OK);
	assert_int_equal(sps_tree_tables(p, &t), SPS_OK);
	assert_int_equal(t.nlive, nlive);
	assert_int_equal(t.ndms, ndms);
	nin = nout + sps_dedisp_max_delay(p);
	in = malloc(nin * h->nchans * sizeof(float));
	out = malloc(sps_dedisp_out_size(p, nout) * sizeof(float));
	for (j = 0; j < nin * h->nchans; j++)
		in[j] = gauss();
	assert_int_equal(sps_dedisp_execute(p, in, nin, nout, out), SPS_OK);
	/* the scrunch levels as dedisperse.c makes them */
	r.t = &t;
	r.level = calloc((size_t)t.nlevels, sizeof(float *));
	r.len = calloc((size_t)t.nlevels, sizeof(size_t));
	r.span = nin + (size_t)t.width;
	for (k = 0; k < t.nlevels; k++) {
		r.len[k] = nin >> k;
		r.level[k] = malloc((size_t)nlive * r.len[k] * sizeof(float));
		for (c = 0; c < nlive; c++)
			for (u = 0; u < r.len[k]; u++)
				r.level[k][c * r.len[k] + u] = k == 0 ?
				    in[u * h->nchans + live[c]] :
				    r.level[k - 1][c * r.len[k - 1] + 2 * u] +
				    r.level[k - 1][c * r.len[k - 1] + 2 * u +
				    1];
	}
	for (i = 0; i < ndms; i++) {
		int f = scrunch != NULL ? scrunch[i] : 1;
		const float *o = out + sps_dedisp_out_offset(p, nout, i);
		float *want = calloc(nout / f, sizeof(float));

		k = 0;
		while ((1 << k) < f)
			k++;
		for (b = 0; b < t.nsub; b++) {
			int at = i * t.nsub + b;
			float *rows;

			assert_true(t.pass[at] >= t.pass_lo[k * t.nsub + b]);
			assert_true(t.pass[at] <= t.pass_hi[k * t.nsub + b]);
			assert_true(t.tdm[at] >= 0 && t.tdm[at] < t.width);
			assert_true(t.offset[at] >= 0);
			rows = tree_rows(&r, k, b, t.pass[at]);
			for (j = 0; j < nout / f; j++)
				want[j] += rows[(size_t)t.tdm[at] * r.span + j +
				    (size_t)t.offset[at]];
			free(rows);
		}
		if (memcmp(o, want, nout / f * sizeof(float)) != 0)
			fail_msg("algo %d trial %d differs from the tables",
			    algo, i);
		free(want);
	}
	for (k = 0; k < t.nlevels; k++)
		free(r.level[k]);
	free(r.level);
	free(r.len);
	sps_tree_tables_free(&t);
	sps_dedisp_free(p);
	free(in);
	free(out);
}

static void
test_tables_contract(void **state)
{
	static const int scrunch[] = { 1, 1, 1, 1, 1, 1, 2, 2, 4, 4, 4 };
	unsigned char kill[100] = { 0 };
	struct sps_header h;

	(void)state;
	kill[0] = kill[17] = kill[50] = kill[51] = 1;
	make_header(&h, 100, 1400, -1.5, 128e-6);
	rebuild_check(SPS_ALGO_TREE_LINEAR, &h, wide_dms, scrunch, 11, kill,
	    700);
	rebuild_check(SPS_ALGO_TREE_PADDED, &h, wide_dms, scrunch, 11, kill,
	    700);
	make_header(&h, 48, 1200, 2, 256e-6);
	rebuild_check(SPS_ALGO_TREE_LINEAR, &h, wide_dms, NULL, 11, NULL, 300);
	rebuild_check(SPS_ALGO_TREE_PADDED, &h, wide_dms, NULL, 11, NULL, 300);
	make_header(&h, 24, 1400, -4, 256e-6);
	rebuild_check(SPS_ALGO_TREE_LINEAR, &h, wide_dms, scrunch, 11, NULL,
	    40000);
	rebuild_check(SPS_ALGO_TREE_PADDED, &h, wide_dms, scrunch, 11, NULL,
	    40000);
}

/* One dispersed sample per channel at the exact delay of DM 500 on 1024
 * channels, trials 1 pc cm^-3 apart all with scrunch factor f: the best
 * trial, its peak and the pulse summed around it. */
static void
pulse(int algo, const struct sps_header *h, const double *dms, int ndms,
    int f, size_t t0, size_t nout, int *best, float *peak, double *sum)
{
	struct sps_dedisp_opts opts = { 2, 0, 0, 0 };
	struct sps_dedisp_plan *p;
	size_t nin, j;
	float *in, *out;
	int c, d, reach;
	int *sc = malloc(ndms * sizeof(int));

	for (d = 0; d < ndms; d++)
		sc[d] = f;
	opts.algo = algo;
	assert_int_equal(sps_dedisp_create(&p, h, dms, sc, ndms, NULL,
	    &opts), SPS_OK);
	reach = (int)ceil(sps_dedisp_smear_bound(p) / (h->tsamp * f));
	nin = nout + sps_dedisp_max_delay(p);
	in = calloc(nin * h->nchans, sizeof(float));
	out = malloc(sps_dedisp_out_size(p, nout) * sizeof(float));
	for (c = 0; c < h->nchans; c++)
		in[(t0 + sps_dm_delay_samples(500, h->fch1 + c * h->foff,
		    h->fch1, h->tsamp)) * h->nchans + c] = 1;
	assert_int_equal(sps_dedisp_execute(p, in, nin, nout, out), SPS_OK);
	*peak = 0;
	for (d = 0; d < ndms; d++) {
		const float *o = out + sps_dedisp_out_offset(p, nout, d);

		for (j = 0; j < nout / f; j++)
			if (o[j] > *peak) {
				*peak = o[j];
				*best = d;
			}
	}
	*sum = 0;
	for (j = t0 / f - reach - 1; j <= t0 / f + reach + 1; j++)
		*sum += out[sps_dedisp_out_offset(p, nout, *best) + j];
	sps_dedisp_free(p);
	free(in);
	free(out);
	free(sc);
}

/* The trees' best trial is the direct algorithm's, with all of the pulse
 * within their smearing bound.  Scrunched by 8 (the trees' design: the
 * delay per slot near 1 sample), most of the direct peak stays in one
 * sample.  Unscrunched, the linear tree's delays stray about 2 samples
 * across the band and split the pulse; the padded tree, 6 samples per
 * slot there, spreads it over the rounding of its slots times that. */
static void
test_dispersed_pulse(void **state)
{
	static const int algos[] = { SPS_ALGO_DIRECT, SPS_ALGO_TREE_LINEAR,
		SPS_ALGO_TREE_PADDED };
	static const double least[2][3] = {
		{ 1, 0.6, 0.1 }, { 1, 0.85, 0.85 }
	};
	double dms[41], sum;
	struct sps_header h;
	int d, f, best[3], a;
	float peak[3];

	(void)state;
	for (d = 0; d < 41; d++)
		dms[d] = 480 + d;
	make_header(&h, 1024, 1581.8, -0.390625, 64e-6);
	for (f = 1; f <= 8; f *= 8)
		for (a = 0; a < 3; a++) {
			pulse(algos[a], &h, dms, 41, f, 512, 1024, &best[a],
			    &peak[a], &sum);
			assert_int_equal(best[a], best[0]);
			assert_true(sum == 1024);
			if (peak[a] < least[f == 8][a] * peak[0])
				fail_msg("scrunch %d, algo %d: peak %g, direct "
				    "%g", f, algos[a], peak[a], peak[0]);
		}
}

static void
test_bad_plans(void **state)
{
	struct sps_dedisp_opts opts = { 1, 0, 0, 7 };
	struct sps_dedisp_plan *p;
	struct sps_tree_tables t;
	struct sps_header h;
	double dm = 100;

	(void)state;
	make_header(&h, 64, 1500, -1, 64e-6);
	assert_int_equal(sps_dedisp_create(&p, &h, &dm, NULL, 1, NULL,
	    &opts), SPS_EVALUE);
	opts.algo = -1;
	assert_int_equal(sps_dedisp_create(&p, &h, &dm, NULL, 1, NULL,
	    &opts), SPS_EVALUE);
	/* a sub-band of one channel: no tree */
	opts.algo = SPS_ALGO_TREE_LINEAR;
	opts.nsub = 64;
	assert_int_equal(sps_dedisp_create(&p, &h, &dm, NULL, 1, NULL,
	    &opts), SPS_EVALUE);
	opts.nsub = 1000;
	assert_int_equal(sps_dedisp_create(&p, &h, &dm, NULL, 1, NULL,
	    &opts), SPS_EVALUE);
	/* one channel */
	opts.nsub = 0;
	make_header(&h, 1, 1500, -1, 64e-6);
	assert_int_equal(sps_dedisp_create(&p, &h, &dm, NULL, 1, NULL,
	    &opts), SPS_EVALUE);
	opts.algo = SPS_ALGO_TREE_PADDED;
	assert_int_equal(sps_dedisp_create(&p, &h, &dm, NULL, 1, NULL,
	    &opts), SPS_EVALUE);
	/* 1500 MHz down to 240 MHz: padding to 2^16 slots */
	make_header(&h, 64, 1500, -20, 64e-6);
	assert_int_equal(sps_dedisp_create(&p, &h, &dm, NULL, 1, NULL,
	    &opts), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "slots"));
	/* not a tree plan */
	opts.algo = SPS_ALGO_DIRECT;
	assert_int_equal(sps_dedisp_create(&p, &h, &dm, NULL, 1, NULL,
	    &opts), SPS_OK);
	assert_int_equal(sps_tree_tables(p, &t), SPS_EUSAGE);
	assert_true(sps_dedisp_tree_linear_error(p) == 0);
	sps_dedisp_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equals_naive),
		cmocka_unit_test(test_effective_shift_other_algorithms),
		cmocka_unit_test(test_within_bounds),
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_tables_contract),
		cmocka_unit_test(test_dispersed_pulse),
		cmocka_unit_test(test_bad_plans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

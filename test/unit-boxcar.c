/* unit-boxcar: plans (widths and separations of BoxDIT, IGRID, DIT and
 * the exhaustive search), the fast searches against the reference, the
 * idealised model of Adamek & Armour (2020) for rectangular pulses of
 * every width 1..256 at every offset across the boxcar separation (the
 * recovered S/N lies between the predicted worst case and systematic
 * value, and reaches the systematic value; the exhaustive search recovers
 * the true S/N), hand-worked losses, and the streaming search (windows
 * searched once, boxcars across windows, the end of the data, events,
 * boxcars side by side). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "boxcar.h"
#include "gauss.h"

static const char *const lossy[] = {
	"BD-8", "BD-16", "BD-32", "IG(1)", "IG(2)", "IG(3)", "DIT",
	"BD-32,16,8"
};
#define NLOSSY ((int)(sizeof(lossy) / sizeof(lossy[0])))

static struct sps_boxcar_plan
plan(const char *name, int max)
{
	struct sps_boxcar_plan p;

	assert_int_equal(sps_boxcar_plan_make(&p, name, max), SPS_OK);
	return p;
}

static void
check_level(const struct sps_boxcar_plan *p, int i, int sep, int first,
    int step, int n)
{
	assert_true(i < p->nlevels);
	assert_int_equal(p->level[i].sep, sep);
	assert_int_equal(p->level[i].first, first);
	assert_int_equal(p->level[i].step, step);
	assert_int_equal(p->level[i].nwidths, n);
}

static void
test_plans(void **state)
{
	struct sps_boxcar_plan p;

	(void)state;
	p = plan("BD-16", 256);		/* C(i) = 16, 48, 112, 240 */
	check_level(&p, 0, 1, 1, 1, 16);
	check_level(&p, 1, 2, 18, 2, 16);
	check_level(&p, 2, 4, 52, 4, 16);
	check_level(&p, 3, 8, 120, 8, 16);
	check_level(&p, 4, 16, 256, 16, 1);	/* cut at the first >= 256 */
	assert_int_equal(p.nlevels, 5);
	assert_int_equal(p.max_width, 256);
	assert_int_equal(p.period, 16);
	assert_string_equal(p.name, "BD-16");
	p = plan("bd-32,16,8", 100);
	check_level(&p, 0, 1, 1, 1, 32);
	check_level(&p, 1, 2, 34, 2, 16);
	check_level(&p, 2, 4, 68, 4, 8);	/* up to 96 < 100 */
	check_level(&p, 3, 8, 104, 8, 1);
	assert_int_equal(p.max_width, 104);
	assert_string_equal(p.name, "BD-32,16,8");
	p = plan("IG(1)", 100);		/* 1 2 3 | 4 6 | 8 12 | 16 24 | ... */
	check_level(&p, 0, 1, 1, 1, 3);
	check_level(&p, 1, 1, 4, 2, 2);
	check_level(&p, 2, 2, 8, 4, 2);
	check_level(&p, 3, 4, 16, 8, 2);
	check_level(&p, 4, 8, 32, 16, 2);
	check_level(&p, 5, 16, 64, 32, 2);
	check_level(&p, 6, 32, 128, 64, 1);
	assert_string_equal(p.name, "IG(1)");
	p = plan("ig3", 1000);		/* 1..15 | 16..30 | 32, 34, .. sep 2 */
	check_level(&p, 0, 1, 1, 1, 15);
	check_level(&p, 1, 1, 16, 2, 8);
	check_level(&p, 2, 2, 32, 4, 8);
	assert_string_equal(p.name, "IG(3)");
	p = plan("IG2", 5);
	assert_int_equal(p.nlevels, 1);
	check_level(&p, 0, 1, 1, 1, 5);
	p = plan("DIT", 100);
	assert_int_equal(p.nlevels, 8);
	check_level(&p, 7, 128, 128, 1, 1);
	p = plan("exhaustive", 77);
	assert_int_equal(p.nlevels, 1);
	check_level(&p, 0, 1, 1, 1, 77);
	assert_int_equal(sps_boxcar_plan_make(&p, "IG4", 10), SPS_EUSAGE);
	assert_int_equal(sps_boxcar_plan_make(&p, "BD-0", 10), SPS_EUSAGE);
	assert_int_equal(sps_boxcar_plan_make(&p, "BD-16,", 10), SPS_EUSAGE);
	assert_int_equal(sps_boxcar_plan_make(&p, "boxcar", 10), SPS_EUSAGE);
	assert_int_equal(sps_boxcar_plan_make(&p, "BD-16", 0), SPS_EVALUE);
}

static void
test_scrunched_and_widths_at(void **state)
{
	struct sps_boxcar_plan p = plan("BD-16", 4096), q;
	int w[8192], n;

	(void)state;
	assert_int_equal(sps_boxcar_plan_scrunched(&q, &p, 4096, 4), SPS_OK);
	assert_true(q.max_width >= 1024 && q.max_width < 1024 + q.period);
	assert_string_equal(q.name, "BD-16");
	n = sps_boxcar_widths_at(&p, 0, w);
	assert_int_equal(w[0], 1);
	assert_int_equal(w[n - 1], p.max_width);
	n = sps_boxcar_widths_at(&p, 6, w);	/* iterations 0 and 1 */
	assert_int_equal(n, 32);
	assert_int_equal(w[31], 48);
	n = sps_boxcar_widths_at(&p, 7, w);
	assert_int_equal(n, 16);
}

static float *
white_scale(int max)
{
	float *s = malloc(((size_t)max + 1) * sizeof(float));
	int w;

	assert_non_null(s);
	s[0] = 0;
	for (w = 1; w <= max; w++)
		s[w] = (float)(1 / sqrt((double)w));
	return s;
}

/* The fast search equals the reference for any n. */
static void
check_fast(const char *name, int max, size_t n)
{
	struct sps_boxcar_plan p = plan(name, max);
	size_t len = n + sps_boxcar_tail(&p), s;
	float *x = malloc(len * sizeof(float)), *scale = white_scale(p.max_width);
	float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
	float *c = malloc(n * sizeof(float));
	int32_t *wa = malloc(n * sizeof(int32_t)), *wb = malloc(n *
	    sizeof(int32_t));
	struct sps_boxcar_work *w;

	assert_non_null(x);
	assert_int_equal(sps_boxcar_work_create(&w), SPS_OK);
	for (s = 0; s < len; s++)
		x[s] = gauss();
	assert_int_equal(sps_boxcar_search(&p, w, x, n, scale, a, wa), SPS_OK);
	assert_int_equal(sps_boxcar_search(&p, w, x, n, scale, c, NULL),
	    SPS_OK);
	sps_boxcar_search_ref(&p, x, 0, n, len, scale, b, wb);
	for (s = 0; s < n; s++) {
		double sum = 0;
		int k;

		if (fabsf(a[s] - b[s]) > 1e-4f * (1 + fabsf(b[s])))
			fail_msg("%s max %d n %zu start %zu: %g, reference %g",
			    name, max, n, s, a[s], b[s]);
		assert_true(a[s] == c[s]);
		for (k = 0; k < wa[s]; k++)
			sum += x[s + (size_t)k];
		if (fabs(sum * scale[wa[s]] - a[s]) > 1e-4 * (1 + fabs(a[s])))
			fail_msg("%s start %zu: width %d gives %g, not %g", name,
			    s, wa[s], sum * scale[wa[s]], a[s]);
	}
	sps_boxcar_work_free(w);
	free(x);
	free(scale);
	free(a);
	free(b);
	free(c);
	free(wa);
	free(wb);
}

static void
test_fast_equals_reference(void **state)
{
	static const size_t ns[] = { 1, 2, 63, 64, 65, 200, 1000, 4099 };
	static const int maxes[] = { 1, 2, 5, 16, 31, 100, 300 };
	size_t i, j;
	int a;

	(void)state;
	for (a = 0; a < NLOSSY; a++)
		for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
			for (j = 0; j < sizeof(maxes) / sizeof(maxes[0]); j++)
				check_fast(lossy[a], maxes[j], ns[i]);
	check_fast("exhaustive", 40, 1000);
	check_fast("exhaustive", 1, 100);
}

/* The idealised model: a rectangular pulse of width S, amplitude
 * 1/sqrt(S) (true S/N 1), at offset off from a lattice point, no noise,
 * sigma_w = sqrt(w).  Returns the recovered S/N. */
static double
recovered(const struct sps_boxcar_plan *p, struct sps_boxcar_work *w,
    float *x, float *snr, const float *scale, size_t t0, int S, int off)
{
	size_t n = t0 + (size_t)off + (size_t)S, s;
	double best = -1;
	int k;

	for (k = 0; k < S; k++)
		x[t0 + (size_t)off + (size_t)k] = (float)(1 / sqrt((double)S));
	assert_int_equal(sps_boxcar_search(p, w, x, n, scale, snr, NULL),
	    SPS_OK);
	for (k = 0; k < S; k++)
		x[t0 + (size_t)off + (size_t)k] = 0;
	for (s = 0; s < n; s++)
		if (snr[s] > best)
			best = snr[s];
	return best;
}

static void
check_model(const char *name, int offsets)
{
	struct sps_boxcar_plan p = plan(name, 256);
	size_t t0 = ((size_t)p.max_width + p.period - 1) / p.period * p.period;
	size_t len = t0 + 256 + (size_t)p.period + 256 + sps_boxcar_tail(&p);
	float *x = calloc(len, sizeof(float)), *snr = malloc(len *
	    sizeof(float)), *scale = white_scale(p.max_width);
	struct sps_boxcar_work *w;
	int S, off, noff;

	assert_non_null(x);
	assert_int_equal(sps_boxcar_work_create(&w), SPS_OK);
	for (S = 1; S <= 256; S++) {
		double hi = sps_boxcar_rsn_max(&p, S);
		double lo = sps_boxcar_rsn_min(&p, S), top = 0;

		noff = offsets > 0 ? offsets : p.period;
		for (off = 0; off < noff; off++) {
			double r = recovered(&p, w, x, snr, scale, t0, S, off);

			if (r < lo - 1e-5 || r > hi + 1e-5)
				fail_msg("%s: pulse of %d at offset %d: RS/N "
				    "%.6f outside [%.6f, %.6f]", name, S, off, r,
				    lo, hi);
			if (r > top)
				top = r;
		}
		if (fabs(top - hi) > 1e-5)
			fail_msg("%s: pulse of %d: best RS/N %.6f, systematic "
			    "%.6f", name, S, top, hi);
	}
	sps_boxcar_work_free(w);
	free(x);
	free(snr);
	free(scale);
}

static void
test_idealised_model(void **state)
{
	int a;

	(void)state;
	for (a = 0; a < NLOSSY; a++)
		check_model(lossy[a], 0);
}

/* One width L every Ls samples: the worst case over the pulse's position
 * is exactly A9 (Figure A5's geometry), the best case exactly A2. */
static void
test_single_width_bounds_are_tight(void **state)
{
	static const int cases[][2] = { { 5, 3 }, { 8, 8 }, { 16, 4 },
	    { 12, 5 }, { 7, 1 }, { 32, 16 }, { 9, 2 } };
	struct sps_boxcar_plan p = plan("DIT", 1);
	float x[512], snr[512], scale[64];
	int32_t wd[512];
	size_t c, s;
	int S, off, k;

	(void)state;
	for (k = 1; k < 64; k++)
		scale[k] = (float)(1 / sqrt((double)k));
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		int L = cases[c][0], Ls = cases[c][1];

		p.nlevels = 1;
		p.level[0].sep = Ls;
		p.level[0].first = L;
		p.level[0].step = 1;
		p.level[0].nwidths = 1;
		p.max_width = L;
		for (S = 1; S <= 3 * L; S++) {
			double lo = 2, hi = 0;

			for (off = 0; off < Ls; off++) {
				double r = 0;

				memset(x, 0, sizeof(x));
				for (k = 0; k < S; k++)
					x[64 + off + k] = (float)(1 /
					    sqrt((double)S));
				sps_boxcar_search_ref(&p, x, 0, 256, 512, scale,
				    snr, wd);
				for (s = 0; s < 256; s++)
					if (snr[s] > r)
						r = snr[s];
				lo = r < lo ? r : lo;
				hi = r > hi ? r : hi;
			}
			if (fabs(lo - sps_boxcar_rsn_min(&p, S)) > 1e-6 ||
			    fabs(hi - sps_boxcar_rsn_max(&p, S)) > 1e-6)
				fail_msg("L %d Ls %d S %d: measured [%.6f, "
				    "%.6f], predicted [%.6f, %.6f]", L, Ls, S,
				    lo, hi, sps_boxcar_rsn_min(&p, S),
				    sps_boxcar_rsn_max(&p, S));
		}
	}
}

static void
test_exhaustive_is_exact(void **state)
{
	struct sps_boxcar_plan p = plan("exhaustive", 256);
	size_t t0 = 256, len = t0 + 600 + sps_boxcar_tail(&p);
	float *x = calloc(len, sizeof(float)), *snr = malloc(len *
	    sizeof(float)), *scale = white_scale(256);
	struct sps_boxcar_work *w;
	int S, off;

	(void)state;
	assert_int_equal(sps_boxcar_work_create(&w), SPS_OK);
	for (S = 1; S <= 256; S++) {
		assert_true(sps_boxcar_rsn_max(&p, S) == 1);
		assert_true(sps_boxcar_rsn_min(&p, S) == 1);
		for (off = 0; off < 3; off++) {
			double r = recovered(&p, w, x, snr, scale, t0, S,
			    off * 37);

			if (fabs(r - 1) > 1e-5)	/* float sums */
				fail_msg("exhaustive: pulse of %d: RS/N %.8f",
				    S, r);
		}
	}
	assert_true(sps_boxcar_mean_loss(&p, 256, 1) == 0);
	sps_boxcar_work_free(w);
	free(x);
	free(snr);
	free(scale);
}

static void
test_losses_by_hand(void **state)
{
	struct sps_boxcar_plan p = plan("DIT", 64), q = plan("BD-16", 64);

	(void)state;
	/* width 3 against 2 and 4: max(sqrt(2/3), sqrt(3/4)) */
	assert_float_equal(sps_boxcar_rsn_max(&p, 3), sqrt(0.75), 1e-12);
	/* width 2: the width-1 boxcar at every sample gives sqrt(1/2); the
	 * width-2 boxcar every 2 samples covers one sample at worst */
	assert_float_equal(sps_boxcar_rsn_min(&p, 2), sqrt(0.5), 1e-12);
	/* L = 5, Ls = 3, S = 4 (the paper's Figure A5): d = 3 */
	p.nlevels = 1;
	p.level[0].sep = 3;
	p.level[0].first = 5;
	p.level[0].nwidths = 1;
	assert_float_equal(sps_boxcar_rsn_min(&p, 4), 3 / sqrt(20), 1e-12);
	/* BD-16: widths 16 and 18 about 17 */
	assert_float_equal(sps_boxcar_rsn_max(&q, 17), sqrt(17.0 / 18),
	    1e-12);
	assert_float_equal(sps_boxcar_rsn_max(&q, 16), 1, 1e-12);
	assert_true(sps_boxcar_mean_loss(&q, 16, 0) == 0);
	assert_true(sps_boxcar_mean_loss(&q, 64, 0) > 0);
	assert_true(sps_boxcar_mean_loss(&q, 64, 1) > sps_boxcar_mean_loss(&q,
	    64, 0));
}

/* ---- the streaming search ---- */

struct run {
	float	*snr;
	int32_t	*width;
	size_t	 n;
	struct sps_boxcar_event ev[4096];
	size_t	 nev;
};

static void
take(struct sps_boxcar_stream *st, struct run *r)
{
	const struct sps_boxcar_event *ev;
	const int32_t *wd;
	const size_t *wlen;
	const float *snr;
	uint64_t first;
	size_t n, i;
	int nwin;

	ev = sps_boxcar_stream_events(st, &n);
	for (i = 0; i < n; i++) {
		assert_true(r->nev < 4096);
		r->ev[r->nev++] = ev[i];
	}
	sps_boxcar_stream_plane(st, &snr, &wd, &n, &first, &wlen, &nwin);
	if (n == 0)
		return;
	assert_int_equal(first, r->n);
	memcpy(r->snr + r->n, snr, n * sizeof(float));
	memcpy(r->width + r->n, wd, n * sizeof(int32_t));
	r->n += n;
	for (i = 0; i < (size_t)nwin; i++)
		n -= wlen[i];
	assert_int_equal(n, 0);
}

/* Feed x[0..len) in windows of `window` samples. */
static void
stream_plane(const struct sps_boxcar_plan *p, const float *x, size_t len,
    size_t window, const float *scale, double thr, struct run *r,
    int want_plane)
{
	struct sps_boxcar_stream *st;
	struct sps_boxcar_work *w;
	size_t at;

	r->snr = malloc(len * sizeof(float));
	r->width = malloc(len * sizeof(int32_t));
	r->n = r->nev = 0;
	assert_int_equal(sps_boxcar_work_create(&w), SPS_OK);
	assert_int_equal(sps_boxcar_stream_create(&st, p, thr, want_plane,
	    sps_boxcar_stream_lag(p, window)), SPS_OK);
	for (at = 0; at < len; at += window) {
		size_t n = len - at < window ? len - at : window;

		assert_int_equal(sps_boxcar_stream_push(st, w, x + at, n,
		    scale), SPS_OK);
		take(st, r);
	}
	assert_int_equal(sps_boxcar_stream_finish(st, w), SPS_OK);
	take(st, r);
	assert_int_equal(r->n, want_plane ? len : 0);
	assert_int_equal(sps_boxcar_stream_searched(st), len);
	sps_boxcar_stream_free(st);
	sps_boxcar_work_free(w);
}

static void
stream(const struct sps_boxcar_plan *p, const float *x, size_t len,
    size_t window, const float *scale, double thr, struct run *r)
{
	stream_plane(p, x, len, window, scale, thr, r, 1);
}

/* Events by the rule written out: at or above thr, and no overlapping
 * boxcar better (higher S/N, or equal and earlier). */
static size_t
events_by_rule(const struct run *r, double thr, struct sps_boxcar_event *ev)
{
	size_t s, t, n = 0;

	for (s = 0; s < r->n; s++) {
		int peak = r->snr[s] >= thr;

		for (t = 0; peak && t < r->n; t++) {
			int overlap = t < s ? t + (size_t)r->width[t] > s :
			    s + (size_t)r->width[s] > t;

			if (t != s && overlap && (r->snr[t] > r->snr[s] ||
			    (r->snr[t] == r->snr[s] && t < s)))
				peak = 0;
		}
		if (peak) {
			ev[n].start = s;
			ev[n].width = r->width[s];
			ev[n++].snr = r->snr[s];
		}
	}
	return n;
}

static void
check_stream(const char *name, int max)
{
	struct sps_boxcar_plan p = plan(name, max);
	size_t len = 5000, s, i, nrule;
	static const size_t windows[] = { 64, 256, 1000, 3000, 5000, 8192 };
	float *x = malloc(len * sizeof(float)), *scale = white_scale(p.max_width);
	static struct sps_boxcar_event ev[4096];
	struct run whole, part;
	int k;

	assert_non_null(x);
	for (s = 0; s < len; s++)
		x[s] = gauss();
	for (k = 0; k < 30; k++)		/* pulses, one at the end */
		x[1000 + (size_t)k] += 1.5f;
	for (k = 0; k < 5; k++)
		x[len - 5 + (size_t)k] += 4;
	x[3000] += 8;
	stream(&p, x, len, len, scale, 3.5, &whole);
	for (s = 0; s < len; s++)	/* boxcars end within the data */
		assert_true(s + (size_t)whole.width[s] <= len);
	nrule = events_by_rule(&whole, 3.5, ev);
	assert_int_equal(whole.nev, nrule);
	for (i = 0; i < nrule; i++) {
		assert_int_equal(whole.ev[i].start, ev[i].start);
		assert_int_equal(whole.ev[i].width, ev[i].width);
	}
	assert_true(nrule >= 3);
	/* without the plane, widths are found only above the threshold */
	stream_plane(&p, x, len, len, scale, 3.5, &part, 0);
	assert_int_equal(part.nev, whole.nev);
	for (i = 0; i < nrule; i++) {
		assert_int_equal(part.ev[i].start, whole.ev[i].start);
		assert_int_equal(part.ev[i].width, whole.ev[i].width);
		assert_float_equal(part.ev[i].snr, whole.ev[i].snr, 1e-4);
	}
	free(part.snr);
	free(part.width);
	for (i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
		size_t win = windows[i];

		if (win % (size_t)p.period != 0)
			continue;
		stream(&p, x, len, win, scale, 3.5, &part);
		for (s = 0; s < len; s++) {
			if (fabsf(part.snr[s] - whole.snr[s]) > 1e-5f *
			    (1 + fabsf(whole.snr[s])))
				fail_msg("%s window %zu start %zu: %g, one "
				    "window %g", name, win, s, part.snr[s],
				    whole.snr[s]);
		}
		assert_int_equal(part.nev, whole.nev);
		for (k = 0; k < (int)part.nev; k++)
			assert_int_equal(part.ev[k].start, whole.ev[k].start);
		free(part.snr);
		free(part.width);
	}
	free(whole.snr);
	free(whole.width);
	free(x);
	free(scale);
}

static void
test_stream(void **state)
{
	(void)state;
	check_stream("exhaustive", 50);
	check_stream("BD-16", 300);
	check_stream("BD-8", 40);
	check_stream("IG(1)", 200);
	check_stream("IG(3)", 64);
	check_stream("DIT", 64);
}

/* A window with no scale is not searched: no events, zero plane. */
static void
test_stream_skipped_window(void **state)
{
	struct sps_boxcar_plan p = plan("BD-16", 32);
	float x[600], *scale = white_scale(p.max_width);
	struct sps_boxcar_stream *st;
	struct sps_boxcar_work *w;
	struct run r;
	size_t i;

	(void)state;
	for (i = 0; i < 600; i++)
		x[i] = i == 100 || i == 450 ? 50 : 0;
	r.snr = malloc(600 * sizeof(float));
	r.width = malloc(600 * sizeof(int32_t));
	r.n = r.nev = 0;
	assert_int_equal(sps_boxcar_work_create(&w), SPS_OK);
	assert_int_equal(sps_boxcar_stream_create(&st, &p, 6, 1,
	    sps_boxcar_stream_lag(&p, 200)), SPS_OK);
	assert_int_equal(sps_boxcar_stream_push(st, w, x, 200, NULL), SPS_OK);
	assert_int_equal(sps_boxcar_stream_push(st, w, x + 200, 200, scale),
	    SPS_OK);
	take(st, &r);
	assert_int_equal(sps_boxcar_stream_push(st, w, x + 400, 200, scale),
	    SPS_OK);
	assert_int_equal(sps_boxcar_stream_finish(st, w), SPS_OK);
	take(st, &r);
	assert_int_equal(r.n, 600);
	assert_true(r.snr[100] == 0 && r.width[100] == 0);
	assert_int_equal(r.nev, 1);
	assert_int_equal(r.ev[0].start, 450);
	assert_int_equal(r.ev[0].width, 1);
	assert_float_equal(r.ev[0].snr, 50, 1e-4);
	sps_boxcar_stream_free(st);
	sps_boxcar_work_free(w);
	free(r.snr);
	free(r.width);
	free(scale);
}

/* Boxcars that touch but do not overlap are both events: single samples
 * (widths to 1, so no boxcar spans both) of S/N 30 and 40 side by side,
 * the weaker first and then last. */
static void
test_adjacent_boxcars_are_both_events(void **state)
{
	struct sps_boxcar_plan p = plan("exhaustive", 1);
	float x[400], *scale = white_scale(p.max_width);
	struct run r;
	size_t i;
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		for (i = 0; i < 400; i++)
			x[i] = 0;
		x[200] = k == 0 ? 30 : 40;
		x[201] = k == 0 ? 40 : 30;
		stream(&p, x, 400, 400, scale, 6, &r);
		assert_int_equal(r.nev, 2);
		for (i = 0; i < 2; i++) {
			assert_int_equal(r.ev[i].start, 200 + i);
			assert_int_equal(r.ev[i].width, 1);
			assert_float_equal(r.ev[i].snr, x[200 + i], 1e-4);
		}
		free(r.snr);
		free(r.width);
	}
	free(scale);
}

/* The same with the stronger boxcar first and narrower than the widest:
 * DIT's boxcars of 2^i start at every 2^i-th sample, so none spans
 * samples 199 and 200, and the boxcar 198..199 (S/N 60 / sqrt 2) ends
 * where the single sample 200 (S/N 40) begins. */
static void
test_boxcar_ending_where_another_begins(void **state)
{
	struct sps_boxcar_plan p = plan("DIT", 4);
	float x[400] = { 0 }, *scale = white_scale(p.max_width);
	struct run r;

	(void)state;
	x[198] = x[199] = 30;
	x[200] = 40;
	stream(&p, x, 400, 400, scale, 6, &r);
	assert_int_equal(r.nev, 2);
	assert_int_equal(r.ev[0].start, 198);
	assert_int_equal(r.ev[0].width, 2);
	assert_float_equal(r.ev[0].snr, 60 / sqrt(2), 1e-4);
	assert_int_equal(r.ev[1].start, 200);
	assert_int_equal(r.ev[1].width, 1);
	assert_float_equal(r.ev[1].snr, 40, 1e-4);
	free(r.snr);
	free(r.width);
	free(scale);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plans),
		cmocka_unit_test(test_scrunched_and_widths_at),
		cmocka_unit_test(test_fast_equals_reference),
		cmocka_unit_test(test_losses_by_hand),
		cmocka_unit_test(test_idealised_model),
		cmocka_unit_test(test_single_width_bounds_are_tight),
		cmocka_unit_test(test_exhaustive_is_exact),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_stream_skipped_window),
		cmocka_unit_test(test_adjacent_boxcars_are_both_events),
		cmocka_unit_test(test_boxcar_ending_where_another_begins),
	};

	test_rng = 88172645463325252ULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}

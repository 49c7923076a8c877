/* unit-ahead: a window searched as soon as the noise model makes it,
 * its boxcars reading on into the next window's first samples from
 * sps_noise_ahead (the search engine's way), gives the events, at the
 * same windows, and the S/N plane, bit for bit, that the window pushed
 * to wait for the next window gives: over a trend that bends at every
 * window, pulses across window boundaries, samples not finite, a window
 * all NaN, and last windows shorter than half a window and than the
 * boxcars' tail. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "boxcar.h"
#include "gauss.h"
#include "noise.h"

#define WINDOW	4096
#define NWIN	10

/* What a stream gave: its events, how many at each window made (when
 * they came out) and, with the plane, every start's S/N and width. */
struct result {
	struct sps_boxcar_event	*ev;
	size_t			 nev;
	size_t			 batch[64];
	int			 nbatch;
	float			*snr;
	int32_t			*width;
	size_t			 n;
};

static float *
make_series(size_t len)
{
	float *x = malloc(len * sizeof(float));
	size_t j, k;

	assert_non_null(x);
	test_rng = 7215392ULL;
	for (j = 0; j < len; j++)
		x[j] = gauss() + 50 + 3 * sinf((float)j / 1500.0f);
	for (k = 1; k < len / WINDOW; k++)	/* across each boundary */
		for (j = k * WINDOW - 40; j < k * WINDOW + 40 && j < len; j++)
			x[j] += 0.6f * (float)(k % 3 + 1);
	/* wide, where a short last window's second half starts */
	for (j = NWIN * WINDOW + 100; j < NWIN * WINDOW + 300 && j < len; j++)
		x[j] += 1.5f;
	for (j = 5 * WINDOW; j < 6 * WINDOW && j < len; j++)
		x[j] = NAN;
	x[2 * WINDOW + 3] = NAN;	/* in what window 1 reads ahead */
	x[2 * WINDOW + 7] = INFINITY;
	x[7 * WINDOW + 100] = NAN;
	return x;
}

static void
take(struct sps_boxcar_stream *st, struct result *r)
{
	const struct sps_boxcar_event *ev;
	const int32_t *wd;
	const size_t *wlen;
	const float *snr;
	uint64_t first;
	size_t n;
	int nwin;

	ev = sps_boxcar_stream_events(st, &n);
	assert_true(r->nbatch < 64);
	r->batch[r->nbatch++] = n;
	r->ev = realloc(r->ev, (r->nev + n + 1) * sizeof(*ev));
	assert_non_null(r->ev);
	if (n > 0)
		memcpy(r->ev + r->nev, ev, n * sizeof(*ev));
	r->nev += n;
	sps_boxcar_stream_plane(st, &snr, &wd, &n, &first, &wlen, &nwin);
	if (n == 0)
		return;
	assert_int_equal(first, r->n);
	r->snr = realloc(r->snr, (r->n + n) * sizeof(float));
	r->width = realloc(r->width, (r->n + n) * sizeof(int32_t));
	assert_true(r->snr != NULL && r->width != NULL);
	memcpy(r->snr + r->n, snr, n * sizeof(float));
	memcpy(r->width + r->n, wd, n * sizeof(int32_t));
	r->n += n;
}

/* The windows ready, searched at once or pushed. */
static void
drain(struct sps_noise *nz, struct sps_noise_work *nw,
    struct sps_boxcar_stream *st, struct sps_boxcar_work *w,
    const struct sps_boxcar_plan *p, int at_once, float *ahead,
    struct result *r)
{
	struct sps_noise_window win;
	size_t na;

	while (sps_noise_next(nz, nw, &win)) {
		if (at_once) {
			na = win.scale == NULL ? 0 : sps_noise_ahead(nz, ahead,
			    sps_boxcar_tail(p));
			assert_int_equal(sps_boxcar_stream_search(st, w, win.x,
			    win.n, ahead, na, win.scale), SPS_OK);
		} else
			assert_int_equal(sps_boxcar_stream_push(st, w, win.x,
			    win.n, win.scale), SPS_OK);
		take(st, r);
	}
}

/* x[0..len) through a noise model and a stream, fed pieces of 1000
 * samples (at once: no more than the model has room for). */
static void
run(const struct sps_boxcar_plan *p, const float *x, size_t len,
    int at_once, int want_plane, struct result *r)
{
	struct sps_noise_opts o = { WINDOW, 3, 0, p->max_width };
	float *ahead = malloc((sps_boxcar_tail(p) + 1) * sizeof(float));
	struct sps_boxcar_stream *st;
	struct sps_noise_work *nw;
	struct sps_boxcar_work *w;
	struct sps_noise *nz;
	size_t at, k;

	memset(r, 0, sizeof(*r));
	assert_non_null(ahead);
	assert_true(sps_boxcar_tail(p) <= sps_noise_ahead_max(&o));
	assert_int_equal(sps_noise_create(&nz, &o), SPS_OK);
	assert_int_equal(sps_noise_work_create(&nw, &o), SPS_OK);
	assert_int_equal(sps_boxcar_work_create(&w), SPS_OK);
	assert_int_equal(sps_boxcar_stream_create(&st, p, 4, want_plane,
	    sps_boxcar_stream_lag(p, WINDOW)), SPS_OK);
	for (at = 0; at < len; at += k) {
		k = len - at < 1000 ? len - at : 1000;
		if (at_once && sps_noise_room(nz) < k)
			k = sps_noise_room(nz);
		assert_int_equal(sps_noise_push(nz, x + at, k), SPS_OK);
		drain(nz, nw, st, w, p, at_once, ahead, r);
	}
	sps_noise_finish(nz);
	drain(nz, nw, st, w, p, at_once, ahead, r);
	assert_int_equal(sps_boxcar_stream_finish(st, w), SPS_OK);
	take(st, r);
	sps_boxcar_stream_free(st);
	sps_boxcar_work_free(w);
	sps_noise_work_free(nw);
	sps_noise_free(nz);
	free(ahead);
}

static void
assert_same(const struct result *a, const struct result *b)
{
	size_t k;

	assert_int_equal(a->nev, b->nev);
	assert_int_equal(a->nbatch, b->nbatch);
	assert_memory_equal(a->batch, b->batch, (size_t)a->nbatch *
	    sizeof(a->batch[0]));
	for (k = 0; k < a->nev; k++) {
		assert_int_equal(a->ev[k].start, b->ev[k].start);
		assert_int_equal(a->ev[k].width, b->ev[k].width);
		assert_memory_equal(&a->ev[k].snr, &b->ev[k].snr,
		    sizeof(float));
	}
	assert_int_equal(a->n, b->n);
	if (a->n > 0) {
		assert_memory_equal(a->snr, b->snr, a->n * sizeof(float));
		assert_memory_equal(a->width, b->width, a->n *
		    sizeof(int32_t));
	}
}

static void
result_free(struct result *r)
{
	free(r->ev);
	free(r->snr);
	free(r->width);
}

/* Both ways, with the plane and without, for a series of len samples. */
static void
check(const char *algorithm, size_t len)
{
	struct sps_boxcar_plan p;
	struct result held, once;
	float *x = make_series(len);
	int plane;

	assert_int_equal(sps_boxcar_plan_make(&p, algorithm, 256), SPS_OK);
	for (plane = 0; plane <= 1; plane++) {
		run(&p, x, len, 0, plane, &held);
		run(&p, x, len, 1, plane, &once);
		assert_true(held.nev > 20);	/* noise above 4 too */
		assert_int_equal(held.n, plane ? len : 0);
		assert_same(&held, &once);
		result_free(&held);
		result_free(&once);
	}
	free(x);
}

static void
test_whole_windows(void **state)
{
	(void)state;
	check("BD-16", NWIN * WINDOW);
}

/* The last window shorter than half a window, than the tail, and
 * longer than half. */
static void
test_short_last_window(void **state)
{
	(void)state;
	check("BD-16", NWIN * WINDOW + 400);
	check("BD-16", NWIN * WINDOW + 100);
	check("BD-16", NWIN * WINDOW + 3000);
}

static void
test_other_algorithms(void **state)
{
	(void)state;
	check("IG2", NWIN * WINDOW + 400);
	check("DIT", NWIN * WINDOW + 100);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_windows),
		cmocka_unit_test(test_short_last_window),
		cmocka_unit_test(test_other_algorithms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

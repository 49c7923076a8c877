/* unit-stagemem: the memory predictions against what the code holds:
 * the heap in use (mallinfo2) at its largest while a noise model (of
 * floats, and of whole numbers held in 16 bits), or a boxcar stream with
 * its scratch, runs over many windows (and over data shorter than two
 * windows) must be below the prediction and above 80 %
 * of it; and the stages' table adds up the engines' figures and the
 * program's. */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "boxcar.h"
#include "noise.h"
#include "stagemem.h"

/* AddressSanitizer's allocator keeps its own books: mallinfo2 measures
 * nothing there, and the tests of the heap are left out. */
#if !defined(__SANITIZE_ADDRESS__)
#include "gauss.h"

static double base, most;

/* The heap in use, bytes. */
static double
in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return (double)mi.uordblks + (double)mi.hblkhd;
}

static void
start(void)
{
	base = in_use();
	most = 0;
}

static void
sample(void)
{
	double now = in_use() - base;

	most = now > most ? now : most;
}

/* Below the prediction but for the allocator's rounding (a page for each
 * of a few large buffers), and not far below. */
static void
assert_predicted(double predicted)
{
	if (!(most <= predicted + 4 * 4096 && most >= 0.8 * predicted))
		fail_msg("held at most %.0f bytes, predicted %.0f", most,
		    predicted);
}

static float *
noise(size_t n)
{
	float *x = malloc(n * sizeof(float));
	size_t i;

	assert_non_null(x);
	for (i = 0; i < n; i++)
		x[i] = gauss();
	return x;
}

/* Up to push samples, or (push 0) what the model has room for. */
static size_t
next_push(const struct sps_noise *nz, size_t push, size_t left)
{
	size_t k = push > 0 ? push : sps_noise_room(nz);

	return k < left ? k : left;
}

/* A noise model and its scratch fed n samples, push at a time (0: as
 * many as it has room for), every window taken. */
static void
run_noise(const struct sps_noise_opts *o, const float *x, size_t n,
    size_t push)
{
	struct sps_noise_window w;
	struct sps_noise_work *nw;
	struct sps_noise *nz;
	size_t at, k;

	start();
	assert_int_equal(sps_noise_create(&nz, o), SPS_OK);
	assert_int_equal(sps_noise_work_create(&nw, o), SPS_OK);
	for (at = 0; at < n; at += k) {
		k = next_push(nz, push, n - at);
		assert_int_equal(sps_noise_push(nz, x + at, k), SPS_OK);
		sample();
		while (sps_noise_next(nz, nw, &w))
			sample();
	}
	sps_noise_finish(nz);
	while (sps_noise_next(nz, nw, &w))
		sample();
	sps_noise_work_free(nw);
	sps_noise_free(nz);
}

/* Floats (packed 0), or whole numbers close together as dedispersed
 * 8-bit data are, which the model holds in 16 bits. */
static void
check_noise(float *x, size_t n, int packed)
{
	struct sps_noise_opts o = { 20000, 3, 0, 4096 };
	size_t nw = sps_noise_work_bytes(&o);

	run_noise(&o, x, n, 16384);
	assert_predicted((double)(sps_noise_bytes(&o, 16384, 0, packed) + nw));
	run_noise(&o, x, n, 3000);
	assert_predicted((double)(sps_noise_bytes(&o, 3000, n, packed) + nw));
	/* fed what it has room for: two windows */
	run_noise(&o, x, n, 0);
	assert_predicted((double)(sps_noise_bytes(&o, 0, n, packed) + nw));
	/* shorter than two windows: all of it waits */
	run_noise(&o, x, 30000, 16384);
	assert_predicted((double)(sps_noise_bytes(&o, 16384, 30000, packed) +
	    nw));
}

static void
test_noise(void **state)
{
	size_t n = 400000, i;
	float *x;

	(void)state;
	x = noise(n);
	check_noise(x, n, 0);
	for (i = 0; i < n; i++)
		x[i] = roundf(262000 + 1300 * x[i]);
	check_noise(x, n, 1);
	free(x);
}

/* The next window of a stream of plan p at x[at], len samples of
 * n: pushed (lag > 0) or searched at once with the tail after it. */
static void
stream_window(struct sps_boxcar_stream *st, struct sps_boxcar_work *w,
    const struct sps_boxcar_plan *p, const float *x, size_t at, size_t len,
    size_t n, int lag, const float *scale)
{
	size_t ahead = n - at - len < p->tail ? n - at - len : p->tail;

	if (lag > 0)
		assert_int_equal(sps_boxcar_stream_push(st, w, x + at, len,
		    scale), SPS_OK);
	else
		assert_int_equal(sps_boxcar_stream_search(st, w, x + at, len,
		    x + at + len, ahead, scale), SPS_OK);
}

/* A stream of plan p fed windows of `window` samples, lag windows
 * ahead (0: searched at once), with its scratch. */
static void
run_stream(const struct sps_boxcar_plan *p, const float *x, size_t n,
    size_t window, int lag)
{
	float *scale = malloc(((size_t)p->max_width + 1) * sizeof(float));
	struct sps_boxcar_stream *st;
	struct sps_boxcar_work *w;
	size_t at, k;

	assert_non_null(scale);
	for (k = 0; k <= (size_t)p->max_width; k++)
		scale[k] = 1 / sqrtf((float)(k + 1));
	start();
	assert_int_equal(sps_boxcar_work_create(&w), SPS_OK);
	assert_int_equal(sps_boxcar_stream_create(&st, p, 6, 0, lag > 0 ? lag :
	    1), SPS_OK);
	for (at = 0; at < n; at += window) {
		stream_window(st, w, p, x, at, n - at < window ? n - at :
		    window, n, lag, scale);
		sample();
	}
	assert_int_equal(sps_boxcar_stream_finish(st, w), SPS_OK);
	sample();
	sps_boxcar_stream_free(st);
	sps_boxcar_work_free(w);
	free(scale);
}

static void
test_stream(void **state)
{
	struct sps_boxcar_plan p;
	size_t n = 600000, window = 30000;
	float *x;
	int lag;

	(void)state;
	x = noise(n);
	assert_int_equal(sps_boxcar_plan_make(&p, "BD-16", 4096), SPS_OK);
	for (lag = 1; lag <= 3; lag++) {
		run_stream(&p, x, n, window, lag);
		assert_predicted((double)(sps_boxcar_stream_bytes(&p, window,
		    lag, n) + sps_boxcar_work_bytes(&p, window)));
	}
	/* searched at once: the scratch alone */
	run_stream(&p, x, n, window, 0);
	assert_predicted((double)(sps_boxcar_stream_bytes(&p, 0, 1, n) +
	    sps_boxcar_work_bytes(&p, window)));
	run_stream(&p, x, 45000, window, 1);
	assert_predicted((double)(sps_boxcar_stream_bytes(&p, window, 1,
	    45000) + sps_boxcar_work_bytes(&p, window)));
	free(x);
}

#endif

/* The table: the program and the engines, each stage above the program
 * alone, the fused search above dedispersion. */
static void
test_table(void **state)
{
	struct sps_stagemem_opts o;
	struct sps_stagemem m;
	struct sps_header h;
	struct sps_plan p;
	int i;

	(void)state;
	sps_header_init(&h);
	h.nchans = 64;
	h.nifs = 1;
	h.nbits = 8;
	h.fch1 = 1500;
	h.foff = -1;
	h.tsamp = 64e-6;
	sps_plan_init(&p);
	assert_int_equal(sps_plan_steps(&p, 0, 10, 20, 1), SPS_OK);
	sps_stagemem_defaults(&o);
	assert_int_equal(sps_stagemem_predict(&h, 1000000, &p, &o, &m),
	    SPS_OK);
	assert_int_equal(m.block, SPS_DEDISP_BLOCK);
	assert_true(m.window >= 2 / h.tsamp);
	assert_true(m.stage[SPS_STAGE_PEAKS].cpu == SPS_PROCESS_BYTES);
	for (i = 0; i < SPS_NSTAGES; i++)
		assert_true(m.stage[i].cpu >= SPS_PROCESS_BYTES);
	assert_true(m.stage[SPS_STAGE_SEARCH].cpu >
	    m.stage[SPS_STAGE_DEDISPERSE].cpu);
	assert_true(m.stage[SPS_STAGE_SEARCH].gpu_device >
	    m.stage[SPS_STAGE_BOXCAR].gpu_device);
	assert_string_equal(sps_stage_name(SPS_STAGE_BOXCAR), "sps-boxcar");
	sps_plan_free(&p);
	sps_header_free(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#if !defined(__SANITIZE_ADDRESS__)
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_stream),
#endif
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

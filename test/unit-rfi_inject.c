/* unit-rfi_inject: each kind of sps-fake's interference against the
 * definition in lib/rfi_inject.h, computed directly on a small array. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rfi_inject.h"

#define NCH	8
#define NSAMP	200
#define TS	1e-3
#define TOL	1e-4

static struct sps_header hdr;
static double rms[NCH];
static float buf[NSAMP * NCH];

static int
setup(void **state)
{
	int c;

	(void)state;
	sps_header_init(&hdr);
	hdr.nchans = NCH;
	hdr.nbits = 32;
	hdr.nifs = 1;
	hdr.fch1 = 1500;
	hdr.foff = -1;		/* PRESTO's channel c is file channel 7 - c */
	hdr.tsamp = TS;
	for (c = 0; c < NCH; c++)
		rms[c] = c + 1;
	return 0;
}

static void
fill(float *v, size_t n, float x)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = x;
}

/* buf = base, then the items of the specs applied in one block. */
static void
apply(const char *const *specs, int n, float base, uint64_t seed)
{
	struct sps_rfi items[4];
	struct sps_rfi_plan *plan;
	int i;

	for (i = 0; i < n; i++)
		assert_int_equal(sps_rfi_parse(specs[i], TS, NCH, &items[i]),
		    SPS_OK);
	assert_int_equal(sps_rfi_plan_create(&plan, &hdr, rms, items, n,
	    seed), SPS_OK);
	fill(buf, NSAMP * NCH, base);
	sps_rfi_plan_apply(plan, buf, 0, NSAMP);
	sps_rfi_plan_free(plan);
}

/* The part of sample i that [lo, hi) s covers. */
static double
covered(int i, double lo, double hi)
{
	return fmax(0, fmin(hi, (i + 1) * TS) - fmax(lo, i * TS)) / TS;
}

static void
test_impulse_amp(void **state)
{
	const char *spec = "impulse,t=10.2ms,width=3samp,amp=2,chan=2:3";
	double want;
	int i, c;

	(void)state;
	apply(&spec, 1, 0, 1);
	for (i = 0; i < NSAMP; i++)
		for (c = 0; c < NCH; c++) {
			want = c == 4 || c == 5 ?
			    2 * rms[c] * covered(i, 8.7e-3, 11.7e-3) : 0;
			assert_float_equal(buf[i * NCH + c], want, TOL);
		}
	assert_float_equal(buf[8 * NCH + 4], 2 * 5 * 0.3, TOL);
	assert_float_equal(buf[10 * NCH + 5], 2 * 6, TOL);
	assert_float_equal(buf[11 * NCH + 5], 2 * 6 * 0.7, TOL);
}

static void
test_impulse_snr(void **state)
{
	const char *spec = "impulse,t=12ms,width=4samp,snr=30";
	double sum = 0, var = 0;
	int i, c;

	(void)state;
	apply(&spec, 1, 0, 1);
	for (c = 0; c < NCH; c++)
		var += rms[c] * rms[c];
	for (i = 0; i < NSAMP; i++)
		for (c = 0; c < NCH; c++)
			if (i < 10 || i > 13)
				assert_true(buf[i * NCH + c] == 0);
			else
				sum += buf[i * NCH + c];
	assert_float_equal(sum / sqrt(4 * var), 30, 1e-3);
}

static void
test_carrier(void **state)
{
	const char *spec = "carrier,chan=0:1,amp=2,period=10samp,duty=0.3";
	const char *shifted = "carrier,chan=7,period=10samp,duty=0.3,"
	    "phase=0.5";
	int i, c, on;

	(void)state;
	apply(&spec, 1, 1, 1);
	for (i = 0; i < NSAMP; i++)
		for (c = 0; c < NCH; c++) {
			on = i % 10 < 3 && c >= 6;
			assert_float_equal(buf[i * NCH + c],
			    1 + (on ? 2 * rms[c] : 0), TOL);
		}
	apply(&shifted, 1, 0, 1);
	for (i = 0; i < NSAMP; i++) {
		on = i % 10 >= 5 && i % 10 < 8;
		assert_float_equal(buf[i * NCH], on ? 5 * rms[0] : 0, TOL);
	}
}

static void
test_zero(void **state)
{
	const char *always = "zero,chan=3:4";
	const char *switched = "zero,chan=0,period=4samp,duty=0.25";
	int i, c;

	(void)state;
	apply(&always, 1, 7, 1);
	for (i = 0; i < NSAMP; i++)
		for (c = 0; c < NCH; c++)
			assert_true(buf[i * NCH + c] ==
			    (c == 3 || c == 4 ? 0 : 7));
	apply(&switched, 1, 7, 1);
	for (i = 0; i < NSAMP; i++)
		assert_true(buf[i * NCH + 7] == (i % 4 == 0 ? 0 : 7));
}

static void
test_drift(void **state)
{
	const char *spec = "drift,amp=0.2,period=50samp,phase=0.25,chan=7";
	double gain;
	int i, c;

	(void)state;
	apply(&spec, 1, 10, 1);
	for (i = 0; i < NSAMP; i++) {
		gain = 1 + 0.2 * sin(2 * M_PI * ((i + 0.5) / 50 + 0.25));
		for (c = 0; c < NCH; c++)
			assert_float_equal(buf[i * NCH + c],
			    c == 0 ? 10 * gain : 10, TOL);
	}
}

/* Zeros come last and drifts after what is added, whatever the order. */
static void
test_order(void **state)
{
	const char *specs[] = {
		"zero,chan=6", "drift,amp=0.5,period=4samp",
		"carrier,chan=6:7,amp=1"
	};
	double gain;
	int i;

	(void)state;
	apply(specs, 3, 10, 1);
	for (i = 0; i < NSAMP; i++) {
		gain = 1 + 0.5 * sin(2 * M_PI * (i + 0.5) / 4);
		assert_true(buf[i * NCH + 1] == 0);
		assert_float_equal(buf[i * NCH], (10 + rms[0]) * gain, TOL);
		assert_float_equal(buf[i * NCH + 2], 10 * gain, TOL);
	}
}

static void
test_ascending_band(void **state)
{
	const char *spec = "zero,chan=0";

	(void)state;
	hdr.foff = 1;
	apply(&spec, 1, 7, 1);
	hdr.foff = -1;
	assert_true(buf[0] == 0 && buf[NCH - 1] == 7);
}

/* rate=: the same values however the data are cut into blocks, about
 * rate * T impulses, all of them rendered, and other ones for another
 * seed. */
static void
test_random_times(void **state)
{
	enum { N = 20000 };
	struct sps_rfi r;
	struct sps_rfi_plan *plan, *other;
	static const size_t blocks[] = { 7, 333, 4096 };
	float *whole = calloc(N * NCH, sizeof(float));
	float *cut = calloc(N * NCH, sizeof(float));
	double fluence = 0;
	uint64_t count, done;
	size_t b, n, i;

	(void)state;
	assert_int_equal(sps_rfi_parse("impulse,rate=50,width=1samp,amp=1,"
	    "chan=7", TS, NCH, &r), SPS_OK);
	assert_int_equal(sps_rfi_plan_create(&plan, &hdr, rms, &r, 1, 9),
	    SPS_OK);
	assert_int_equal(sps_rfi_plan_create(&other, &hdr, rms, &r, 1, 10),
	    SPS_OK);
	sps_rfi_plan_apply(plan, whole, 0, N);
	for (b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
		memset(cut, 0, N * NCH * sizeof(float));
		for (done = 0; done < N; done += n) {
			n = N - done < blocks[b] ? N - done : blocks[b];
			sps_rfi_plan_apply(plan, cut + done * NCH, done, n);
		}
		assert_memory_equal(whole, cut, N * NCH * sizeof(float));
	}
	count = sps_rfi_plan_impulses(plan, N);
	assert_true(count > 1000 - 160 && count < 1000 + 160);
	for (i = 0; i < N; i++)
		fluence += whole[i * NCH];	/* rms 1 in file channel 0 */
	assert_float_equal(fluence, (double)count, 1.0);
	memset(cut, 0, N * NCH * sizeof(float));
	sps_rfi_plan_apply(other, cut, 0, N);
	assert_memory_not_equal(whole, cut, N * NCH * sizeof(float));
	sps_rfi_plan_free(plan);
	sps_rfi_plan_free(other);
	free(whole);
	free(cut);
}

static void
test_snr_without_noise(void **state)
{
	struct sps_rfi r;
	struct sps_rfi_plan *plan;
	double none[NCH] = { 0 };

	(void)state;
	assert_int_equal(sps_rfi_parse("impulse,t=1", TS, NCH, &r), SPS_OK);
	assert_int_equal(sps_rfi_plan_create(&plan, &hdr, none, &r, 1, 1),
	    SPS_EVALUE);
	assert_null(plan);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_impulse_amp),
		cmocka_unit_test(test_impulse_snr),
		cmocka_unit_test(test_carrier),
		cmocka_unit_test(test_zero),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_ascending_band),
		cmocka_unit_test(test_random_times),
		cmocka_unit_test(test_snr_without_noise),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}

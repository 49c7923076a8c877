/* unit-fake: noise, pulse model, S/N normalisation and parsing of the
 * synthetic-data generator. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dmdelay.h"
#include "fake.h"
#include "reader.h"

#define NCH	64
#define NSAMP	2048
#define TSAMP	64e-6

static void
make_header(struct sps_header *h, int nchans, double foff)
{
	sps_header_init(h);
	h->nchans = nchans;
	h->nbits = 32;
	h->nifs = 1;
	h->fch1 = 1500;
	h->foff = foff;
	h->tsamp = TSAMP;
	h->data_type = nchans == 1 ? 2 : 1;
}

static void
fill(double *v, int n, double x)
{
	int i;

	for (i = 0; i < n; i++)
		v[i] = x;
}

/* Render one pulse without noise into a zeroed n-spectrum buffer. */
static float *
render(const struct sps_header *h, const struct sps_fake_pulse *p,
    const double *rms, int smear, size_t n)
{
	struct sps_fake_plan *plan;
	float *buf = calloc(n * h->nchans, sizeof(float));

	assert_non_null(buf);
	assert_int_equal(sps_fake_plan_create(&plan, h, n, rms, p, 1, NULL,
	    smear), SPS_OK);
	sps_fake_plan_add(plan, buf, 0, n);
	sps_fake_plan_free(plan);
	return buf;
}

/* The reference measurement: dedisperse with nearest delays relative to
 * the top channel, sum a W-sample boxcar centred on t, divide by the
 * noise rms of that sum. */
static double
boxcar_snr(const struct sps_header *h, const float *buf, size_t n,
    const double *rms, double dm, double t, long w)
{
	double ftop = -INFINITY, sum = 0, var = 0;
	long i0 = (long)floor(t / h->tsamp - 0.5 * w + 0.5), k, j;
	int c;

	for (c = 0; c < h->nchans; c++)
		if (sps_channel_freq(h, c) > ftop)
			ftop = sps_channel_freq(h, c);
	for (c = 0; c < h->nchans; c++) {
		k = sps_dm_delay_samples(dm, sps_channel_freq(h, c), ftop,
		    h->tsamp);
		for (j = i0 + k; j < i0 + k + w; j++) {
			assert_true(j >= 0 && (size_t)j < n);
			sum += buf[(size_t)j * h->nchans + c];
		}
		var += rms[c] * rms[c];
	}
	return sum / sqrt(w * var);
}

static double
total(const float *buf, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += buf[i];
	return s;
}

static void
test_log_matches_libm(void **state)
{
	double x;
	int i;

	(void)state;
	for (i = 1; i <= 100000; i++) {
		x = i / 100000.0;
		assert_true(fabs(sps_fake_log(x) - log(x)) <=
		    1e-15 * fabs(log(x)) + 1e-300);
	}
	assert_true(fabs(sps_fake_log(0x1p-100) - log(0x1p-100)) < 1e-13);
	assert_true(sps_fake_log(1.0) == 0.0);
}

static void
test_noise_independent_of_blocks(void **state)
{
	double mean[NCH], rms[NCH];
	float *a = malloc(100 * NCH * sizeof(float));
	float *b = malloc(100 * NCH * sizeof(float));

	(void)state;
	fill(mean, NCH, 3);
	fill(rms, NCH, 2);
	sps_fake_noise(42, 0, 100, NCH, mean, rms, a);
	sps_fake_noise(42, 0, 37, NCH, mean, rms, b);
	sps_fake_noise(42, 37, 1, NCH, mean, rms, b + 37 * NCH);
	sps_fake_noise(42, 38, 62, NCH, mean, rms, b + 38 * NCH);
	assert_memory_equal(a, b, 100 * NCH * sizeof(float));
	sps_fake_noise(43, 0, 100, NCH, mean, rms, b);
	assert_memory_not_equal(a, b, 100 * NCH * sizeof(float));
	free(a);
	free(b);
}

/* The same values on every machine: pinned to their exact bits. */
static void
test_noise_golden(void **state)
{
	double mean[NCH], rms[NCH];
	float *x = malloc(1000 * NCH * sizeof(float));
	uint64_t hash = 0xcbf29ce484222325ULL;	/* FNV-1a of the bits */
	uint32_t bits;
	size_t i;

	(void)state;
	fill(mean, NCH, 0);
	fill(rms, NCH, 1);
	sps_fake_noise(1, 0, 1000, NCH, mean, rms, x);
	assert_true(x[0] == 0x1.79a20cp+0f && x[1] == 0x1.43a96p-1f &&
	    x[NCH] == 0x1.3bbd2p-4f);
	for (i = 0; i < 1000 * NCH; i++) {
		memcpy(&bits, &x[i], 4);
		hash = (hash ^ bits) * 0x100000001b3ULL;
	}
	assert_true(hash == 0xa2ca4b045600609bULL);
	sps_fake_noise(1, 1000000007, 1, 1, mean, rms, x);
	assert_true(x[0] == -0x1.12d9aap-1f);
	free(x);
}

static void
test_noise_statistics(void **state)
{
	const size_t nspec = 4000, n = nspec * NCH;
	double mean[NCH], rms[NCH], s1 = 0, s2 = 0, s4 = 0, lag_t = 0;
	double lag_c = 0, tail = 0, m, v;
	float *x = malloc(n * sizeof(float));
	size_t i;

	(void)state;
	fill(mean, NCH, 0);
	fill(rms, NCH, 1);
	sps_fake_noise(7, 0, nspec, NCH, mean, rms, x);
	for (i = 0; i < n; i++) {
		s1 += x[i];
		s2 += (double)x[i] * x[i];
		s4 += (double)x[i] * x[i] * x[i] * x[i];
		if (fabs(x[i]) > 3)
			tail++;
		if (i + NCH < n)
			lag_t += (double)x[i] * x[i + NCH];
		if (i % NCH != NCH - 1)
			lag_c += (double)x[i] * x[i + 1];
	}
	m = s1 / n;
	v = s2 / n - m * m;
	assert_true(fabs(m) < 5 / sqrt((double)n));
	assert_true(fabs(v - 1) < 5 * sqrt(2.0 / n));
	assert_true(fabs(s4 / n - 3) < 5 * sqrt(96.0 / n));
	assert_true(fabs(lag_t / n) < 5 / sqrt((double)n));
	assert_true(fabs(lag_c / n) < 5 / sqrt((double)n));
	/* P(|z| > 3) = 0.0027 */
	assert_true(fabs(tail / n - 0.0027) < 5 * sqrt(0.0027 / n));
	free(x);
}

/* Pearson's chi-square against N(0, 1) in 60 bins over [-6, 6] plus the
 * two tails: 61 degrees of freedom, mean 61, sd 11; fail above 61 + 5 sd.
 * Exercises the ziggurat's layers, wedges and tail. */
static void
test_noise_distribution(void **state)
{
	const size_t nspec = 16384, n = nspec * NCH;
	double mean[NCH], rms[NCH], count[62] = { 0 }, chi2 = 0, lo, hi, e;
	float *x = malloc(n * sizeof(float));
	size_t i;
	int b;

	(void)state;
	fill(mean, NCH, 0);
	fill(rms, NCH, 1);
	sps_fake_noise(11, 0, nspec, NCH, mean, rms, x);
	for (i = 0; i < n; i++) {
		b = x[i] < -6 ? 0 : x[i] >= 6 ? 61 : 1 + (int)((x[i] + 6) * 5);
		count[b]++;
	}
	for (b = 0; b < 62; b++) {
		lo = b == 0 ? -INFINITY : -6 + (b - 1) / 5.0;
		hi = b == 61 ? INFINITY : -6 + b / 5.0;
		e = n * 0.5 * (erfc(-hi / sqrt(2)) - erfc(-lo / sqrt(2)));
		if (e < 5) {	/* pool the far tails */
			assert_true(count[b] <= 5 + 5 * sqrt(5));
			continue;
		}
		chi2 += (count[b] - e) * (count[b] - e) / e;
	}
	assert_true(chi2 < 61 + 5 * 11);
	free(x);
}

static void
test_noise_mean_only(void **state)
{
	double mean[3] = { 1, 2, 3 };
	float x[6];

	(void)state;
	sps_fake_noise(1, 0, 2, 3, mean, NULL, x);
	assert_true(x[0] == 1 && x[1] == 2 && x[2] == 3 && x[5] == 3);
}

/* Random rounding keeps integers and the mean of fractions. */
static void
test_dither(void **state)
{
	const size_t n = 100000;
	float *x = malloc(2 * n * sizeof(float));
	float *y = malloc(2 * n * sizeof(float));
	double sum = 0;
	size_t i;

	(void)state;
	for (i = 0; i < n; i++) {
		x[2 * i] = 17;
		x[2 * i + 1] = 3.3f;
	}
	memcpy(y, x, 2 * n * sizeof(float));
	sps_fake_dither(9, 0, n, 2, x);
	for (i = 0; i < n; i++) {
		assert_true(x[2 * i] == 17);
		assert_true(x[2 * i + 1] == 3 || x[2 * i + 1] == 4);
		sum += x[2 * i + 1];
	}
	/* binomial: sd sqrt(0.3 * 0.7 / n) = 0.0014 */
	assert_true(fabs(sum / n - 3.3) < 0.01);
	sps_fake_dither(9, 0, 10, 2, y);	/* the same in two calls */
	sps_fake_dither(9, 10, n - 10, 2, y + 20);
	assert_memory_equal(x, y, 2 * n * sizeof(float));
	free(x);
	free(y);
}

static void
test_estimate_rms(void **state)
{
	const size_t nspec = 4096;
	double mean[4] = { 100, 0, 5, 0 }, rms[4] = { 3, 1, 0.5, 0 }, est[4];
	float *x = malloc(nspec * 4 * sizeof(float));

	(void)state;
	sps_fake_noise(3, 0, nspec, 4, mean, rms, x);
	x[100 * 4] = 1e6;	/* RFI spikes are clipped away */
	x[200 * 4 + 1] = -1e4;
	assert_int_equal(sps_fake_estimate_rms(x, nspec, 4, est), SPS_OK);
	assert_true(fabs(est[0] / 3 - 1) < 0.05);
	assert_true(fabs(est[1] - 1) < 0.05);
	assert_true(fabs(est[2] / 0.5 - 1) < 0.05);
	assert_true(est[3] == 0);
	free(x);
}

static void
test_bandpass(void **state)
{
	double g[5];

	(void)state;
	sps_fake_bandpass(SPS_FAKE_FLAT, 5, g);
	assert_true(g[0] == 1 && g[2] == 1 && g[4] == 1);
	sps_fake_bandpass(SPS_FAKE_PARABOLA, 5, g);
	assert_true(g[0] == 0.5 && g[2] == 1 && g[4] == 0.5);
	sps_fake_bandpass(SPS_FAKE_GAUSSIAN, 5, g);
	assert_true(fabs(g[0] - 0.25) < 1e-15 && g[2] == 1);
	sps_fake_bandpass(SPS_FAKE_PARABOLA, 1, g);
	assert_true(g[0] == 1);
}

static void
test_bandpass_names(void **state)
{
	enum sps_fake_bandpass shape;

	(void)state;
	assert_int_equal(sps_fake_bandpass_parse("flat", &shape), SPS_OK);
	assert_int_equal(shape, SPS_FAKE_FLAT);
	assert_int_equal(sps_fake_bandpass_parse("parabola", &shape), SPS_OK);
	assert_int_equal(shape, SPS_FAKE_PARABOLA);
	assert_int_equal(sps_fake_bandpass_parse("gauss", &shape), SPS_OK);
	assert_int_equal(shape, SPS_FAKE_GAUSSIAN);
	assert_int_equal(sps_fake_bandpass_parse("Gauss", &shape),
	    SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "not flat, parabola or gauss");
}

static void
test_default_levels(void **state)
{
	double m, r;

	(void)state;
	sps_fake_default_level(8, &m, &r);
	assert_true(m == 64 && r == 10);
	sps_fake_default_level(32, &m, &r);
	assert_true(m == 0 && r == 1);
	sps_fake_default_level(2, &m, &r);
	assert_true(m == 1.5);
}

static struct sps_fake_pulse
pulse(const char *spec)
{
	struct sps_fake_pulse p;

	if (sps_fake_pulse_parse(spec, TSAMP, &p) != SPS_OK)
		fail_msg("%s: %s", spec, sps_errmsg());
	snprintf(p.origin, sizeof(p.origin), "test");
	return p;
}

/* The definition of S/N holds exactly on the noise-free model, at any
 * offset of the pulse within a sample, for both shapes and every width,
 * and with a spectral index and a non-flat bandpass. */
static void
test_snr_definition(void **state)
{
	static const char *shapes[] = { "rect", "gauss" };
	static const int widths[] = { 1, 2, 7, 64 };
	struct sps_header h;
	struct sps_fake_pulse p;
	double rms[NCH], t;
	char spec[200];
	float *buf;
	int s, w, k;

	(void)state;
	make_header(&h, NCH, -2);
	sps_fake_bandpass(SPS_FAKE_PARABOLA, NCH, rms);
	for (s = 0; s < 2; s++)
		for (w = 0; w < 4; w++)
			for (k = 0; k < 3; k++) {
				t = 0.03 + k * 0.37 * TSAMP;
				snprintf(spec, sizeof(spec), "dm=100,t=%.9g,"
				    "width=%dsamp,snr=20,shape=%s,index=-1.5",
				    t, widths[w], shapes[s]);
				p = pulse(spec);
				buf = render(&h, &p, rms, 0, NSAMP);
				assert_true(fabs(boxcar_snr(&h, buf, NSAMP, rms,
				    100, t, widths[w]) - 20) < 1e-4);
				free(buf);
			}
}

/* Smearing and scattering move the fluence but keep all of it. */
static void
test_fluence_kept(void **state)
{
	static const char *specs[] = {
		"dm=500,t=0.02,width=3samp,shape=rect",
		"dm=500,t=0.02,width=3samp,shape=gauss",
		"dm=500,t=0.02,width=2samp,shape=rect,tau=1ms",
		"dm=500,t=0.02,width=2samp,shape=gauss,tau=0.3ms",
	};
	struct sps_header h;
	struct sps_fake_pulse p;
	double rms[NCH], plain, smeared;
	float *a, *b;
	size_t i, n = 8192;

	(void)state;
	make_header(&h, NCH, -4);
	fill(rms, NCH, 1);
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		p = pulse(specs[i]);
		a = render(&h, &p, rms, 0, n);
		b = render(&h, &p, rms, 1, n);
		plain = total(a, n * NCH);
		smeared = total(b, n * NCH);
		assert_true(fabs(smeared / plain - 1) < 1e-5);
		if (p.tau == 0)	/* smearing lowers the matched S/N */
			assert_true(boxcar_snr(&h, b, n, rms, 500, 0.02, 3) <
			    0.9 * boxcar_snr(&h, a, n, rms, 500, 0.02, 3));
		free(a);
		free(b);
	}
}

/* A one-sample rectangle centred three quarters into sample 10 covers
 * [10.25, 11.25) samples: 3/4 of it in sample 10, 1/4 in sample 11. */
static void
test_rect_exact_overlap(void **state)
{
	struct sps_header h;
	struct sps_fake_pulse p = pulse("t=10.75samp,width=1samp,shape=rect");
	double rms = 1;
	float *buf;

	(void)state;
	make_header(&h, 1, -1);
	buf = render(&h, &p, &rms, 1, 64);
	assert_true(fabs(buf[10] / buf[11] - 3) < 1e-5);
	assert_true(buf[9] == 0 && buf[12] == 0);
	free(buf);
}

/* Gaussian samples are erf differences, not values at the centre. */
static void
test_gauss_integrated(void **state)
{
	struct sps_header h;
	struct sps_fake_pulse p = pulse("t=20samp,width=2samp,shape=gauss");
	double rms = 1, sigma = 2 / 2.3548200450309494, ref[40], s = 0;
	float *buf;
	int i;

	(void)state;
	make_header(&h, 1, -1);
	buf = render(&h, &p, &rms, 1, 40);
	for (i = 0; i < 40; i++) {
		ref[i] = 0.5 * (erf((i + 1 - 20) / (sigma * sqrt(2))) -
		    erf((i - 20) / (sigma * sqrt(2))));
		s += buf[i];
	}
	for (i = 0; i < 40; i++)
		assert_true(fabs(buf[i] / s - ref[i]) < 1e-6);
	free(buf);
}

/* The analytic scattered and smeared profiles against a brute-force
 * convolution on a fine grid. */
static void
check_against_numeric(const char *spec, double dm, double foff)
{
	const int n = 200, fine = 400;
	const double dt = TSAMP / fine;
	struct sps_header h;
	struct sps_fake_pulse p = pulse(spec);
	double rms = 1, f = 1500, smear, tau, *prof, *ref, s = 0, r, x, a;
	float *buf;
	long i, j, m = (long)n * fine;

	make_header(&h, 1, foff);
	smear = sps_dm_smear(dm, f, fabs(foff));
	p.dm = dm;
	tau = p.tau;
	buf = render(&h, &p, &rms, 1, n);
	prof = calloc(m, sizeof(double));
	ref = calloc(n, sizeof(double));
	for (i = 0; i < m; i++) {	/* intrinsic, at grid midpoints */
		x = (i + 0.5) * dt - p.t;
		if (p.shape == SPS_FAKE_RECT)
			prof[i] = fabs(x) < 0.5 * p.width;
		else
			prof[i] = exp(-0.5 * pow(x / (p.width /
			    2.3548200450309494), 2));
	}
	if (tau > 0) {	/* exact exponential filter for step inputs */
		a = exp(-dt / tau);
		for (r = 0, i = 0; i < m; i++) {
			r = a * r + (1 - a) * prof[i];
			prof[i] = r;
		}
	}
	for (i = 0; i < m; i++) {	/* running mean over the smear */
		long half = lround(0.5 * smear / dt);
		double acc = 0;

		for (j = i - half; j <= i + half; j++)
			if (j >= 0 && j < m)
				acc += prof[j];
		ref[i / fine] += acc / (2 * half + 1);
	}
	for (i = 0; i < n; i++)
		s += buf[i];
	for (r = 0, i = 0; i < n; i++)
		r += ref[i];
	for (i = 0; i < n; i++)
		assert_true(fabs(buf[i] / s - ref[i] / r) < 2e-3);
	free(prof);
	free(ref);
	free(buf);
}

static void
test_scattered_smeared_profiles(void **state)
{
	(void)state;
	check_against_numeric("t=40samp,width=4samp,shape=rect,tau=5samp", 0,
	    -1);
	check_against_numeric("t=40samp,width=4samp,shape=gauss,tau=5samp", 0,
	    -1);
	check_against_numeric("t=40samp,width=3samp,shape=rect", 40, -16);
	check_against_numeric("t=40samp,width=3samp,shape=gauss", 40, -16);
	check_against_numeric("t=40samp,width=2samp,shape=rect,tau=0.3samp",
	    40, -16);
	check_against_numeric("t=40samp,width=2samp,shape=gauss,tau=8samp",
	    40, -16);
}

static void
test_parse(void **state)
{
	struct sps_fake_pulse p;

	(void)state;
	assert_int_equal(sps_fake_pulse_parse("dm=300,t=1.5,width=2ms,snr=20,"
	    "shape=rect,tau=1ms,ftau=1000,index=-1.4", TSAMP, &p), SPS_OK);
	assert_true(p.dm == 300 && p.t == 1.5 && fabs(p.width - 2e-3) < 1e-15);
	assert_true(p.snr == 20 && p.shape == SPS_FAKE_RECT);
	assert_true(fabs(p.tau - 1e-3) < 1e-15 && p.ftau == 1000 &&
	    p.index == -1.4);
	assert_int_equal(sps_fake_pulse_parse("t=10samp width=7samp", TSAMP,
	    &p), SPS_OK);
	assert_true(fabs(p.t - 10 * TSAMP) < 1e-15 && p.dm == 0);
	assert_true(fabs(p.width - 7 * TSAMP) < 1e-15);
	assert_true(p.snr == 10 && p.shape == SPS_FAKE_GAUSS);
	assert_int_equal(sps_fake_pulse_parse("t=250us,width=1s", TSAMP, &p),
	    SPS_OK);
	assert_true(fabs(p.t - 250e-6) < 1e-15 && p.width == 1);
}

static void
check_parse_error(const char *spec, const char *message)
{
	struct sps_fake_pulse p;

	assert_int_equal(sps_fake_pulse_parse(spec, TSAMP, &p), SPS_EVALUE);
	if (strstr(sps_errmsg(), message) == NULL)
		fail_msg("'%s' gave '%s', expected '%s'", spec, sps_errmsg(),
		    message);
}

static void
test_parse_errors(void **state)
{
	(void)state;
	check_parse_error("dm=3", "no arrival time t=");
	check_parse_error("t=1,width=-1ms", "width -0.001 s is not > 0");
	check_parse_error("t=1,width=0", "width 0 s is not > 0");
	check_parse_error("t=1,dm=-4", "dm -4 is negative");
	check_parse_error("t=1,snr=-4", "snr -4 is negative");
	check_parse_error("t=1,tau=-1", "tau -1 s is negative");
	check_parse_error("t=1,shape=box", "shape: 'box' is not rect or gauss");
	check_parse_error("t=1,colour=red", "unknown key 'colour'");
	check_parse_error("t=1,t=2", "t given twice");
	check_parse_error("t=1,dm", "'dm' is not key=value");
	check_parse_error("t=1,dm=abc", "dm: 'abc' is not a number");
	check_parse_error("t=1,width=3 parsecs", "'parsecs' is not key=value");
	check_parse_error("t=1,width=3pc", "width: '3pc' is not a time");
	check_parse_error("t=nan", "t: 'nan' is not a time");
}

static void
test_pulses_file(void **state)
{
	static char text[] = "# t dm\n\n"
	    "t=0.1,dm=10   # first\n"
	    "  t=0.2 dm=20 shape=rect\n";
	static char bad[] = "t=0.1\nt=0.2,width=-1\n";
	struct sps_fake_pulse *list = NULL;
	FILE *f;
	int n = 0;

	(void)state;
	f = fmemopen(text, strlen(text), "r");
	assert_int_equal(sps_fake_pulses_read(f, "p.txt", TSAMP, &list, &n),
	    SPS_OK);
	fclose(f);
	assert_int_equal(n, 2);
	assert_true(list[0].dm == 10 && list[1].t == 0.2);
	assert_true(list[1].shape == SPS_FAKE_RECT);
	assert_string_equal(list[1].origin, "p.txt:4");
	f = fmemopen(bad, strlen(bad), "r");
	assert_int_equal(sps_fake_pulses_read(f, "p.txt", TSAMP, &list, &n),
	    SPS_EVALUE);
	fclose(f);
	assert_string_equal(sps_errmsg(), "p.txt:2: width -1 s is not > 0");
	free(list);
}

static void
check_plan_error(const char *spec, uint64_t nsamples, const char *message)
{
	struct sps_header h;
	struct sps_fake_plan *plan;
	struct sps_fake_pulse p = pulse(spec);
	double rms[NCH];

	make_header(&h, NCH, -2);
	fill(rms, NCH, 1);
	assert_int_equal(sps_fake_plan_create(&plan, &h, nsamples, rms, &p, 1,
	    NULL, 1), SPS_EVALUE);
	assert_null(plan);
	if (strstr(sps_errmsg(), message) == NULL)
		fail_msg("'%s' gave '%s', expected '%s'", spec, sps_errmsg(),
		    message);
}

static void
test_pulse_outside_data(void **state)
{
	struct sps_header h;
	struct sps_fake_plan *plan;
	struct sps_fake_pulse p = pulse("dm=100,t=0.1,width=1samp");
	double rms[NCH];

	(void)state;
	/* DM 100 sweeps 553 samples of 64 us across 1500 .. 1374 MHz */
	check_plan_error("dm=100,t=0.1", NSAMP, "after the end of the data");
	check_plan_error("dm=0,t=0.0001,width=10ms", NSAMP,
	    "before the start of the data");
	check_plan_error("dm=0,t=-1", NSAMP, "before the start of the data");
	make_header(&h, NCH, -2);
	fill(rms, NCH, 1);
	assert_int_equal(sps_fake_plan_create(&plan, &h, SPS_NSAMPLES_UNKNOWN,
	    rms, &p, 1, NULL, 1), SPS_OK);
	assert_int_equal(sps_fake_plan_check_end(plan, 2100), SPS_EVALUE);
	assert_int_equal(sps_fake_plan_check_end(plan, 2200), SPS_OK);
	sps_fake_plan_free(plan);
	fill(rms, NCH, 0);
	assert_int_equal(sps_fake_plan_create(&plan, &h, NSAMP, rms, &p, 1,
	    NULL, 1), SPS_EVALUE);
}

/* A pulsar's pulses sit at (k + 1/2) P, each of S/N snrpeak sqrt(W). */
static void
test_pulsar(void **state)
{
	struct sps_fake_pulsar psr = { 10 * 64 * TSAMP, 0.1, 2, 50 };
	struct sps_header h;
	struct sps_fake_plan *plan;
	double rms[NCH], t;
	float *buf = calloc(8192 * NCH, sizeof(float));
	int k;

	(void)state;
	make_header(&h, NCH, -2);
	fill(rms, NCH, 1);
	assert_int_equal(sps_fake_plan_create(&plan, &h, 8192, rms, NULL, 0,
	    &psr, 0), SPS_OK);
	sps_fake_plan_add(plan, buf, 0, 4000);	/* two blocks */
	sps_fake_plan_add(plan, buf + 4000 * NCH, 4000, 4192);
	sps_fake_plan_free(plan);
	for (k = 0; k < 8; k++) {
		t = (k + 0.5) * psr.period;
		assert_true(fabs(boxcar_snr(&h, buf, 8192, rms, 50, t, 64) -
		    2 * 8) < 1e-3);
	}
	assert_true(fabs(boxcar_snr(&h, buf, 8192, rms, 50, 3 * psr.period,
	    64)) < 1e-6);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_matches_libm),
		cmocka_unit_test(test_noise_independent_of_blocks),
		cmocka_unit_test(test_noise_golden),
		cmocka_unit_test(test_noise_statistics),
		cmocka_unit_test(test_noise_distribution),
		cmocka_unit_test(test_noise_mean_only),
		cmocka_unit_test(test_dither),
		cmocka_unit_test(test_estimate_rms),
		cmocka_unit_test(test_bandpass),
		cmocka_unit_test(test_bandpass_names),
		cmocka_unit_test(test_default_levels),
		cmocka_unit_test(test_snr_definition),
		cmocka_unit_test(test_fluence_kept),
		cmocka_unit_test(test_rect_exact_overlap),
		cmocka_unit_test(test_gauss_integrated),
		cmocka_unit_test(test_scattered_smeared_profiles),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_pulses_file),
		cmocka_unit_test(test_pulse_outside_data),
		cmocka_unit_test(test_pulsar),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

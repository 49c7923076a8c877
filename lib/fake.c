/* fake.c: synthetic data: reproducible noise and exactly integrated
 * pulses (see fake.h for the model and the meaning of S/N). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dmdelay.h"
#include "fake.h"
#include "fakeparse.h"
#include "reader.h"

#define GOLDEN		0x9e3779b97f4a7c15ULL
/* ln 2 = LN2_HI + LN2_LO, LN2_HI with 21 zero low bits: k * LN2_HI is
 * exact for any exponent k */
#define LN2_HI		6.93147180369123816490e-01
#define LN2_LO		1.90821492927058770002e-10
#define SQRT2		1.4142135623730950488
#define SQRTPI		1.7724538509055160273
#define SQRT2PI		2.5066282746310005024
#define FWHM_SIGMA	2.3548200450309493820	/* 2 sqrt(2 ln 2) */
#define GAUSS_REACH	7.0	/* sigmas rendered each side */
#define TAIL_REACH	25.0	/* scattering timescales rendered */
#define SPEC_MAX	1024

/* One pulse with everything derived from the data's layout. */
struct pulse {
	struct sps_fake_pulse spec;
	double	amp;		/* A of fake.h */
	double	half;		/* rect: half width, s */
	double	sigma;		/* gauss: s */
	double	ftau;		/* MHz */
	long long i0;		/* boxcar start, top of the band */
	long	nbox;		/* boxcar width W, samples */
	long	maxdelay;	/* samples, bottom of the band */
	double	lo, hi;		/* rendered span, s from spec.t */
};

struct sps_fake_plan {
	int	 nchans;
	double	 tsamp;
	uint64_t nsamples;
	double	 ftop;
	double	*freq;		/* MHz, per channel */
	double	*chanwidth;	/* MHz, per channel */
	double	*rms;
	int	 smear;
	struct pulse *pulses;
	int	 npulses;
	struct sps_fake_pulsar pulsar;
	struct pulse psr;	/* the pulsar's pulse 0 */
};

/* A pulse's profile in one channel. */
struct profile {
	enum sps_fake_shape shape;
	double	half;		/* rect half width, s */
	double	sigma;		/* gauss, s */
	double	tau;		/* scattering, s; 0: none */
	double	smear;		/* dispersion smear, s; 0: none */
};

/* ---- random numbers ---- */

static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** */
static uint64_t
next64(uint64_t s[4])
{
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Uniform in (0, 1], exactly representable. */
static double
uniform_open0(uint64_t s[4])
{
	return (double)((next64(s) >> 11) + 1) * 0x1p-53;
}

/* Each statement rounds once, so no compiler may fuse a multiply-add and
 * the result is the same wherever IEEE doubles are. */
double
sps_fake_log(double x)
{
	/* 1 / (2k + 1), folded at compile time, correctly rounded */
	static const double inv[] = {
		1.0 / 1, 1.0 / 3, 1.0 / 5, 1.0 / 7, 1.0 / 9, 1.0 / 11,
		1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21, 1.0 / 23,
		1.0 / 25
	};
	double m, f, f2, sum, num, den, r;
	int e, k;

	m = frexp(x, &e);
	if (m < 0.70710678118654752440) {
		m = 2.0 * m;
		e--;
	}
	num = m - 1.0;
	den = m + 1.0;
	f = num / den;
	f2 = f * f;
	sum = inv[12];
	for (k = 11; k >= 0; k--) {
		sum = sum * f2;
		sum = sum + inv[k];
	}
	r = 2.0 * f;
	r = r * sum;
	m = (double)e * LN2_LO;
	r = r + m;
	m = (double)e * LN2_HI;
	return m + r;
}

/* exp(x) for |x| < 700 from IEEE arithmetic only, like sps_fake_log. */
static double
det_exp(double x)
{
	/* 1 / j!, folded at compile time (every j! below 2^53 is exact) */
	static const double inv_fact[] = {
		1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720,
		1.0 / 5040, 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800,
		1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800.0,
		1.0 / 87178291200.0, 1.0 / 1307674368000.0,
		1.0 / 20922789888000.0, 1.0 / 355687428096000.0
	};
	double k, r, t, p;
	int j;

	k = x / (LN2_HI + LN2_LO);
	k = floor(k + 0.5);
	t = k * LN2_HI;		/* exact */
	r = x - t;
	t = k * LN2_LO;
	r = r - t;
	p = inv_fact[17];
	for (j = 16; j >= 0; j--) {
		p = p * r;
		p = p + inv_fact[j];
	}
	return ldexp(p, (int)k);
}

/* The ziggurat of 128 layers for N(0, 1) (Marsaglia and Tsang 2000, in
 * Doornik's 2005 form: layer and abscissa from independent bits).  x[i]
 * is the right edge of layer i (x[0] the base's equivalent width),
 * ratio[i] = x[i + 1] / x[i]. */
#define ZIG_LAYERS	128
#define ZIG_R		3.442619855899
#define ZIG_V		9.91256303526217e-3

struct ziggurat {
	double	x[ZIG_LAYERS + 1];
	double	ratio[ZIG_LAYERS];
};

static void
zig_init(struct ziggurat *z)
{
	double f = det_exp(-0.5 * ZIG_R * ZIG_R), t;
	int i;

	z->x[0] = ZIG_V / f;
	z->x[1] = ZIG_R;
	z->x[ZIG_LAYERS] = 0;
	for (i = 2; i < ZIG_LAYERS; i++) {
		t = ZIG_V / z->x[i - 1];
		t = t + f;
		t = -2.0 * sps_fake_log(t);
		z->x[i] = sqrt(t);
		t = z->x[i] * z->x[i];
		f = det_exp(-0.5 * t);
	}
	for (i = 0; i < ZIG_LAYERS; i++)
		z->ratio[i] = z->x[i + 1] / z->x[i];
}

/* Beyond ZIG_R (Marsaglia's tail method). */
static double
zig_tail(uint64_t s[4], int negative)
{
	double x, y, xx;

	do {
		x = sps_fake_log(uniform_open0(s)) / ZIG_R;
		y = sps_fake_log(uniform_open0(s));
		xx = x * x;
	} while (-2.0 * y < xx);
	return negative ? x - ZIG_R : ZIG_R - x;
}

static double
zig_normal(const struct ziggurat *z, uint64_t s[4])
{
	double u, x, f0, f1, t;
	uint64_t bits;
	int i;

	for (;;) {
		bits = next64(s);
		i = (int)(bits & (ZIG_LAYERS - 1));
		u = (double)(bits >> 11) * 0x1p-53;
		u = 2.0 * u - 1.0;	/* exact */
		if (fabs(u) < z->ratio[i])
			return u * z->x[i];
		if (i == 0)
			return zig_tail(s, u < 0);
		x = u * z->x[i];	/* in a wedge: accept under the curve */
		t = x * x;
		f0 = z->x[i] * z->x[i];
		f0 = det_exp(-0.5 * (f0 - t));
		f1 = z->x[i + 1] * z->x[i + 1];
		f1 = det_exp(-0.5 * (f1 - t));
		t = f0 - f1;
		t = (double)(next64(s) >> 11) * 0x1p-53 * t;
		if (f1 + t < 1.0)
			return x;
	}
}

static void
noise_spectrum(const struct ziggurat *z, uint64_t key, uint64_t index,
    int nchans, const double *mean, const double *rms, float *out)
{
	uint64_t s[4];
	double r;
	int c, k;

	for (k = 0; k < 4; k++)
		s[k] = mix64(key + (4 * index + (uint64_t)k + 1) * GOLDEN);
	for (c = 0; c < nchans; c++) {
		r = zig_normal(z, s);
		r = rms[c] * r;
		r = r + mean[c];
		out[c] = (float)r;
	}
}

void
sps_fake_noise(uint64_t seed, uint64_t first, size_t n, int nchans,
    const double *mean, const double *rms, float *buf)
{
	uint64_t key = mix64(seed + GOLDEN);
	struct ziggurat z;
	size_t i;
	int c;

	if (rms == NULL) {
		for (i = 0; i < n; i++)
			for (c = 0; c < nchans; c++)
				buf[i * nchans + c] = (float)mean[c];
		return;
	}
	zig_init(&z);	/* microseconds; keeps the call reentrant */
#pragma omp parallel for schedule(static) if (n * (size_t)nchans > (1 << 20))
	for (i = 0; i < n; i++)
		noise_spectrum(&z, key, first + i, nchans, mean, rms,
		    buf + i * (size_t)nchans);
}

void
sps_fake_dither(uint64_t seed, uint64_t first, size_t n, int nvalues,
    float *buf)
{
	uint64_t key = mix64(seed ^ 0xd1b54a32d192ed03ULL), s[4];
	double u;
	size_t i;
	int c, k;

#pragma omp parallel for private(s, u, c, k) schedule(static) \
    if (n * (size_t)nvalues > (1 << 20))
	for (i = 0; i < n; i++) {
		for (k = 0; k < 4; k++)
			s[k] = mix64(key + (4 * (first + i) + (uint64_t)k + 1) *
			    GOLDEN);
		for (c = 0; c < nvalues; c++) {
			u = (double)(next64(s) >> 11) * 0x1p-53;
			buf[i * nvalues + c] = (float)floor(buf[i * nvalues +
			    c] + u);
		}
	}
}

/* ---- levels ---- */

void
sps_fake_default_level(int nbits, double *mean, double *rms)
{
	switch (nbits) {
	case 1:
		*mean = 0.5;
		*rms = 0.5;
		break;
	case 2:
		*mean = 1.5;
		*rms = 1.0;
		break;
	case 4:
		*mean = 7.5;
		*rms = 2.0;
		break;
	case 8:
		*mean = 64.0;
		*rms = 10.0;
		break;
	case 16:
		*mean = 4096.0;
		*rms = 256.0;
		break;
	default:
		*mean = 0.0;
		*rms = 1.0;
		break;
	}
}

enum sps_err
sps_fake_bandpass_parse(const char *name, enum sps_fake_bandpass *shape)
{
	static const char *const names[] = { "flat", "parabola", "gauss" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0) {
			*shape = (enum sps_fake_bandpass)i;
			return SPS_OK;
		}
	return sps_fail(SPS_EVALUE, "not flat, parabola or gauss");
}

void
sps_fake_bandpass(enum sps_fake_bandpass shape, int nchans, double *gain)
{
	double x;
	int c;

	for (c = 0; c < nchans; c++) {
		x = nchans > 1 ? 2.0 * c / (nchans - 1) - 1.0 : 0.0;
		switch (shape) {
		case SPS_FAKE_PARABOLA:
			gain[c] = 1.0 - 0.5 * x * x;
			break;
		case SPS_FAKE_GAUSSIAN:
			gain[c] = pow(4.0, -x * x);
			break;
		default:
			gain[c] = 1.0;
			break;
		}
	}
}

enum sps_err
sps_fake_estimate_rms(const float *buf, size_t n, int nchans, double *rms)
{
	double *mean, *s1, *s2, *cnt, d;
	size_t i;
	int c, pass;

	mean = calloc((size_t)nchans * 4, sizeof(double));
	if (mean == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	s1 = mean + nchans;
	s2 = s1 + nchans;
	cnt = s2 + nchans;
	for (c = 0; c < nchans; c++)
		rms[c] = INFINITY;
	for (pass = 0; pass < 4; pass++) {
		for (c = 0; c < nchans; c++)
			s1[c] = s2[c] = cnt[c] = 0;
		for (i = 0; i < n; i++)
			for (c = 0; c < nchans; c++) {
				d = buf[i * nchans + c] - mean[c];
				if (fabs(d) > 4.0 * rms[c] && rms[c] > 0)
					continue;
				s1[c] += d;
				s2[c] += d * d;
				cnt[c] += 1;
			}
		for (c = 0; c < nchans; c++) {
			if (cnt[c] == 0) {
				rms[c] = 0;
				continue;
			}
			d = s1[c] / cnt[c];
			mean[c] += d;
			d = s2[c] / cnt[c] - d * d;
			rms[c] = d > 0 ? sqrt(d) : 0;
		}
	}
	free(mean);
	return SPS_OK;
}

/* ---- profiles ---- */

/* sum over k >= k0 of (-u)^k / k!, for 0 <= u < 1 */
static double
exp_tail(double u, int k0)
{
	double term = 1.0, sum = 0.0;
	int k;

	for (k = 1; k <= k0; k++)
		term *= -u / k;
	for (; k < 60 && fabs(term) > 1e-18 * fabs(sum); k++) {
		sum += term;
		term *= -u / k;
	}
	return sum;
}

/* The unit ramp max(x, 0) convolved with the scattering kernel, and its
 * integral from -infinity. */
static double
ramp_scat(double x, double tau)
{
	double u;

	if (x <= 0)
		return 0;
	if (tau == 0)
		return x;
	u = x / tau;
	if (u < 0.5)
		return tau * exp_tail(u, 2);
	return x + tau * expm1(-u);
}

static double
ramp_scat2(double x, double tau)
{
	double u;

	if (x <= 0)
		return 0;
	if (tau == 0)
		return 0.5 * x * x;
	u = x / tau;
	if (u < 0.5)
		return -tau * tau * exp_tail(u, 3);
	return 0.5 * x * x - tau * x - tau * tau * expm1(-u);
}

static double
norm_cdf(double y)
{
	return 0.5 * erfc(-y / SQRT2);
}

static double
norm_pdf(double y)
{
	return exp(-0.5 * y * y) / SQRT2PI;
}

/* exp(z^2) erfc(z), z >= 0 */
static double
erfcx(double z)
{
	double f;
	int k;

	if (z < 5.0)
		return exp(z * z) * erfc(z);
	f = z;	/* continued fraction, evaluated from the tail */
	for (k = 60; k >= 1; k--)
		f = z + 0.5 * k / f;
	return 1.0 / (SQRTPI * f);
}

/* exp(-x/tau + s^2/2tau^2) Phi(x/s - s/tau): the scattered Gaussian's
 * correction, without overflow. */
static double
gauss_scat_term(double x, double s, double tau)
{
	double b = x / s - s / tau, z = -b / SQRT2;

	if (z > 0)
		return 0.5 * exp(-0.5 * (x / s) * (x / s)) * erfcx(z);
	return 0.5 * exp(-x / tau + 0.5 * (s / tau) * (s / tau)) * erfc(z);
}

/* Cumulative unit-fluence profile at x s from the centre (scattered, not
 * smeared). */
static double
profile_cdf(const struct profile *p, double x)
{
	double y;

	if (p->shape == SPS_FAKE_RECT)
		return (ramp_scat(x + p->half, p->tau) -
		    ramp_scat(x - p->half, p->tau)) / (2 * p->half);
	y = norm_cdf(x / p->sigma);
	if (p->tau > 0)
		y -= gauss_scat_term(x, p->sigma, p->tau);
	return y;
}

/* Its integral from -infinity. */
static double
profile_cdf2(const struct profile *p, double x)
{
	double s = p->sigma, phi, y;

	if (p->shape == SPS_FAKE_RECT)
		return (ramp_scat2(x + p->half, p->tau) -
		    ramp_scat2(x - p->half, p->tau)) / (2 * p->half);
	phi = norm_cdf(x / s);
	y = x * phi + s * norm_pdf(x / s);
	if (p->tau > 0)
		y += p->tau * (gauss_scat_term(x, s, p->tau) - phi);
	return y;
}

/* Cumulative profile with the dispersion smear: a running mean of
 * profile_cdf over the smear width. */
static double
profile_at(const struct profile *p, double x)
{
	if (p->smear == 0)
		return profile_cdf(p, x);
	return (profile_cdf2(p, x + 0.5 * p->smear) -
	    profile_cdf2(p, x - 0.5 * p->smear)) / p->smear;
}

static double
profile_reach(const struct profile *p)
{
	return p->shape == SPS_FAKE_RECT ? p->half : GAUSS_REACH * p->sigma;
}

/* ---- parsing ---- */

static enum sps_err
check_pulse(const struct sps_fake_pulse *p)
{
	if (p->dm < 0)
		return sps_fail(SPS_EVALUE, "dm %g is negative", p->dm);
	if (p->width <= 0)
		return sps_fail(SPS_EVALUE, "width %g s is not > 0",
		    p->width);
	if (p->snr < 0)
		return sps_fail(SPS_EVALUE, "snr %g is negative", p->snr);
	if (p->tau < 0)
		return sps_fail(SPS_EVALUE, "tau %g s is negative", p->tau);
	if (p->ftau < 0)
		return sps_fail(SPS_EVALUE, "ftau %g MHz is negative",
		    p->ftau);
	return SPS_OK;
}

static enum sps_err
set_key(struct sps_fake_pulse *p, const char *key, const char *val,
    double tsamp, unsigned *seen)
{
	static const char *keys[] = {
		"t", "dm", "width", "snr", "shape", "tau", "ftau", "index"
	};
	unsigned k;

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (strcmp(key, keys[k]) == 0)
			break;
	if (k == sizeof(keys) / sizeof(keys[0]))
		return sps_fail(SPS_EVALUE, "unknown key '%s' (known: t, dm, "
		    "width, snr, shape, tau, ftau, index)", key);
	if (*seen >> k & 1)
		return sps_fail(SPS_EVALUE, "%s given twice", key);
	*seen |= 1U << k;
	switch (k) {
	case 0:
		return sps_fake_parse_time(key, val, tsamp, &p->t);
	case 1:
		return sps_fake_parse_number(key, val, &p->dm);
	case 2:
		return sps_fake_parse_time(key, val, tsamp, &p->width);
	case 3:
		return sps_fake_parse_number(key, val, &p->snr);
	case 4:
		if (strcmp(val, "rect") == 0)
			p->shape = SPS_FAKE_RECT;
		else if (strcmp(val, "gauss") == 0)
			p->shape = SPS_FAKE_GAUSS;
		else
			return sps_fail(SPS_EVALUE, "shape: '%s' is not rect "
			    "or gauss", val);
		return SPS_OK;
	case 5:
		return sps_fake_parse_time(key, val, tsamp, &p->tau);
	case 6:
		return sps_fake_parse_number(key, val, &p->ftau);
	default:
		return sps_fake_parse_number(key, val, &p->index);
	}
}

enum sps_err
sps_fake_pulse_parse(const char *spec, double tsamp, struct sps_fake_pulse *p)
{
	char buf[SPEC_MAX], *tok, *save, *eq;
	unsigned seen = 0;
	enum sps_err e;

	memset(p, 0, sizeof(*p));
	p->width = 1e-3;
	p->snr = 10;
	p->shape = SPS_FAKE_GAUSS;
	if (strlen(spec) >= sizeof(buf))
		return sps_fail(SPS_EVALUE, "longer than %d characters",
		    SPEC_MAX - 1);
	strcpy(buf, spec);
	for (tok = strtok_r(buf, ", \t\r\n", &save); tok != NULL;
	    tok = strtok_r(NULL, ", \t\r\n", &save)) {
		if ((eq = strchr(tok, '=')) == NULL || eq == tok)
			return sps_fail(SPS_EVALUE, "'%s' is not key=value",
			    tok);
		*eq = '\0';
		if ((e = set_key(p, tok, eq + 1, tsamp, &seen)) != SPS_OK)
			return e;
	}
	if (!(seen & 1))
		return sps_fail(SPS_EVALUE, "no arrival time t=");
	return check_pulse(p);
}

enum sps_err
sps_fake_pulses_read(FILE *f, const char *name, double tsamp,
    struct sps_fake_pulse **list, int *n)
{
	char line[SPEC_MAX + 2], detail[256], *hash, *s;
	struct sps_fake_pulse p, *grown;
	enum sps_err e;
	int lineno = 0;

	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		if (strchr(line, '\n') == NULL && !feof(f))
			return sps_fail(SPS_EVALUE, "%s:%d: line longer than "
			    "%d characters", name, lineno, SPEC_MAX);
		if ((hash = strchr(line, '#')) != NULL)
			*hash = '\0';
		for (s = line; isspace((unsigned char)*s); s++)
			continue;
		if (*s == '\0')
			continue;
		if ((e = sps_fake_pulse_parse(s, tsamp, &p)) != SPS_OK) {
			snprintf(detail, sizeof(detail), "%s", sps_errmsg());
			return sps_fail(e, "%s:%d: %s", name, lineno, detail);
		}
		snprintf(p.origin, sizeof(p.origin), "%s:%d", name, lineno);
		grown = realloc(*list, (size_t)(*n + 1) * sizeof(**list));
		if (grown == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		*list = grown;
		(*list)[(*n)++] = p;
	}
	if (ferror(f))
		return sps_fail(SPS_EIO, "%s: read error: %s", name,
		    strerror(errno));
	return SPS_OK;
}

/* ---- plan ---- */

static void
channel_profile(const struct sps_fake_plan *plan, const struct pulse *p,
    int c, struct profile *pr)
{
	pr->shape = p->spec.shape;
	pr->half = p->half;
	pr->sigma = p->sigma;
	pr->tau = p->spec.tau > 0 ? p->spec.tau * pow(plan->freq[c] /
	    p->ftau, -4.0) : 0;
	pr->smear = plan->smear ? sps_dm_smear(p->spec.dm, plan->freq[c],
	    plan->chanwidth[c]) : 0;
	if (pr->smear < 1e-4 * plan->tsamp)
		pr->smear = 0;
}

static double
channel_gain(const struct sps_fake_plan *plan, const struct pulse *p,
    int c)
{
	if (p->spec.index == 0)
		return plan->rms[c];
	return plan->rms[c] * pow(plan->freq[c] / plan->ftop, p->spec.index);
}

/* Derive shape, boxcar, amplitude and span of p->spec. */
static enum sps_err
prepare(const struct sps_fake_plan *plan, struct pulse *p)
{
	const struct sps_fake_pulse *s = &p->spec;
	struct profile pr, bare;
	double ts = plan->tsamp, sum = 0, var = 0, tc, x0, reach;
	double lo = 0, hi = 0;
	char detail[256];
	long k;
	int c;

	if (check_pulse(s) != SPS_OK) {
		snprintf(detail, sizeof(detail), "%s", sps_errmsg());
		return sps_fail(SPS_EVALUE, "%s: %s", s->origin, detail);
	}
	p->half = 0.5 * s->width;
	p->sigma = s->width / FWHM_SIGMA;
	p->ftau = s->ftau > 0 ? s->ftau : plan->ftop;
	p->nbox = lround(s->width / ts);
	if (p->nbox < 1)
		p->nbox = 1;
	p->i0 = (long long)floor(s->t / ts - 0.5 * p->nbox + 0.5);
	p->maxdelay = 0;
	for (c = 0; c < plan->nchans; c++) {
		channel_profile(plan, p, c, &pr);
		bare = pr;
		bare.tau = bare.smear = 0;
		k = sps_dm_delay_samples(s->dm, plan->freq[c], plan->ftop, ts);
		tc = s->t + sps_dm_delay(s->dm, plan->freq[c], plan->ftop);
		x0 = (double)(p->i0 + k) * ts - tc;
		sum += channel_gain(plan, p, c) * (profile_cdf(&bare,
		    x0 + p->nbox * ts) - profile_cdf(&bare, x0));
		var += plan->rms[c] * plan->rms[c];
		if (k > p->maxdelay)
			p->maxdelay = k;
		reach = profile_reach(&pr) + 0.5 * pr.smear;
		tc -= s->t;
		if (tc - reach < lo)
			lo = tc - reach;
		if (tc + reach + TAIL_REACH * pr.tau > hi)
			hi = tc + reach + TAIL_REACH * pr.tau;
	}
	p->lo = lo;
	p->hi = hi;
	if (!(sum > 0) && s->snr > 0)
		return sps_fail(SPS_EVALUE, "%s: no signal falls in its boxcar "
		    "(every channel's rms is 0?)", s->origin);
	p->amp = s->snr > 0 ? s->snr * sqrt(p->nbox * var) / sum : 0;
	return SPS_OK;
}

static enum sps_err
check_fits(const struct sps_fake_plan *plan, const struct pulse *p,
    uint64_t nsamples)
{
	double ts = plan->tsamp;
	long long end = p->i0 + p->maxdelay + p->nbox;

	if (p->i0 < 0)
		return sps_fail(SPS_EVALUE, "%s: t=%g s, width %g s: its "
		    "boxcar starts at %g s, before the start of the data",
		    p->spec.origin, p->spec.t, p->spec.width, p->i0 * ts);
	if ((uint64_t)end > nsamples)
		return sps_fail(SPS_EVALUE, "%s: t=%g s, DM %g: its boxcar "
		    "ends at %g s at the bottom of the band, after the end of "
		    "the data (%g s)", p->spec.origin, p->spec.t, p->spec.dm,
		    end * ts, nsamples * ts);
	return SPS_OK;
}

static enum sps_err
plan_channels(struct sps_fake_plan *plan, const struct sps_header *h,
    const double *rms)
{
	int c, n = plan->nchans;

	plan->freq = malloc((size_t)n * 3 * sizeof(double));
	if (plan->freq == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	plan->chanwidth = plan->freq + n;
	plan->rms = plan->chanwidth + n;
	plan->ftop = -INFINITY;
	for (c = 0; c < n; c++) {
		plan->freq[c] = sps_channel_freq(h, c);
		plan->rms[c] = rms[c];
		if (plan->freq[c] > plan->ftop)
			plan->ftop = plan->freq[c];
	}
	for (c = 0; c < n; c++) {
		if (h->foff != 0)
			plan->chanwidth[c] = fabs(h->foff);
		else if (n > 1)
			plan->chanwidth[c] = fabs(plan->freq[c < n - 1 ? c + 1 :
			    c] - plan->freq[c < n - 1 ? c : c - 1]);
		else
			plan->chanwidth[c] = 0;
		if (!(plan->freq[c] > 0))
			return sps_fail(SPS_EVALUE, "channel %d is at %g MHz "
			    "(not > 0)", c, plan->freq[c]);
	}
	return SPS_OK;
}

enum sps_err
sps_fake_plan_create(struct sps_fake_plan **planp, const struct sps_header *h,
    uint64_t nsamples, const double *rms, const struct sps_fake_pulse *pulses,
    int npulses, const struct sps_fake_pulsar *pulsar, int smear)
{
	struct sps_fake_plan *plan;
	enum sps_err e;
	int i;

	*planp = NULL;
	if ((plan = calloc(1, sizeof(*plan))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	plan->nchans = h->nchans;
	plan->tsamp = h->tsamp;
	plan->nsamples = nsamples;
	plan->smear = smear;
	if ((e = plan_channels(plan, h, rms)) != SPS_OK)
		goto fail;
	if (npulses > 0 && (plan->pulses = calloc((size_t)npulses,
	    sizeof(*plan->pulses))) == NULL) {
		e = sps_fail(SPS_ENOMEM, "out of memory");
		goto fail;
	}
	for (i = 0; i < npulses; i++) {
		plan->pulses[i].spec = pulses[i];
		if ((e = prepare(plan, &plan->pulses[i])) != SPS_OK)
			goto fail;
		plan->npulses = i + 1;
		if (nsamples != SPS_NSAMPLES_UNKNOWN && (e = check_fits(plan,
		    &plan->pulses[i], nsamples)) != SPS_OK)
			goto fail;
	}
	if (pulsar != NULL && pulsar->period > 0) {
		if (!(pulsar->duty > 0 && pulsar->duty <= 1) ||
		    pulsar->snrpeak < 0 || pulsar->dm < 0) {
			e = sps_fail(SPS_EVALUE, "pulsar: duty cycle %g, "
			    "S/N %g, DM %g out of range", pulsar->duty,
			    pulsar->snrpeak, pulsar->dm);
			goto fail;
		}
		plan->pulsar = *pulsar;
		plan->psr.spec.shape = SPS_FAKE_RECT;
		plan->psr.spec.dm = pulsar->dm;
		plan->psr.spec.width = pulsar->duty * pulsar->period;
		plan->psr.spec.t = 0.5 * pulsar->period;
		snprintf(plan->psr.spec.origin, sizeof(plan->psr.spec.origin),
		    "pulsar");
		if ((e = prepare(plan, &plan->psr)) != SPS_OK)
			goto fail;
		plan->psr.spec.snr = pulsar->snrpeak * sqrt(plan->psr.nbox);
	}
	*planp = plan;
	return SPS_OK;
fail:
	sps_fake_plan_free(plan);
	return e;
}

enum sps_err
sps_fake_plan_check_end(const struct sps_fake_plan *plan, uint64_t nsamples)
{
	enum sps_err e;
	int i;

	for (i = 0; i < plan->npulses; i++)
		if ((e = check_fits(plan, &plan->pulses[i], nsamples)) !=
		    SPS_OK)
			return e;
	return SPS_OK;
}

double
sps_fake_plan_amplitude(const struct sps_fake_plan *plan, int i)
{
	return plan->pulses[i].amp;
}

/* Add channel c of pulse p to spectra first .. first + n - 1. */
static void
render_channel(const struct sps_fake_plan *plan, const struct pulse *p,
    int c, float *buf, uint64_t first, size_t n)
{
	struct profile pr;
	double ts = plan->tsamp, tc, reach, a, b, prev, next, gain;
	long long i, start, end;

	channel_profile(plan, p, c, &pr);
	gain = p->amp * channel_gain(plan, p, c);
	if (gain == 0)
		return;
	tc = p->spec.t + sps_dm_delay(p->spec.dm, plan->freq[c], plan->ftop);
	reach = profile_reach(&pr) + 0.5 * pr.smear;
	a = floor((tc - reach) / ts);
	b = ceil((tc + reach + TAIL_REACH * pr.tau) / ts);
	if (b <= (double)first || a >= (double)(first + n))
		return;
	start = a > (double)first ? (long long)a : (long long)first;
	end = b < (double)(first + n) ? (long long)b : (long long)(first + n);
	prev = profile_at(&pr, (double)start * ts - tc);
	for (i = start; i < end; i++) {
		next = profile_at(&pr, (double)(i + 1) * ts - tc);
		buf[(size_t)(i - (long long)first) * plan->nchans + c] +=
		    (float)(gain * (next - prev));
		prev = next;
	}
}

static void
render(const struct sps_fake_plan *plan, const struct pulse *p, float *buf,
    uint64_t first, size_t n)
{
	double ts = plan->tsamp;
	int c;

	if (p->spec.t + p->hi < first * ts || p->spec.t + p->lo >
	    (first + n) * ts)
		return;
#pragma omp parallel for schedule(dynamic, 8) if (plan->nchans >= 256)
	for (c = 0; c < plan->nchans; c++)
		render_channel(plan, p, c, buf, first, n);
}

static void
render_pulsar(const struct sps_fake_plan *plan, float *buf, uint64_t first,
    size_t n)
{
	double P = plan->pulsar.period, ts = plan->tsamp;
	double kmin, kmax, k;
	struct pulse p = plan->psr;

	kmin = floor((first * ts - plan->psr.hi) / P - 0.5);
	kmax = ceil(((first + n) * ts - plan->psr.lo) / P - 0.5);
	if (kmin < 0)
		kmin = 0;
	for (k = kmin; k <= kmax; k++) {
		p.spec.t = (k + 0.5) * P;
		/* the same pulse normalised where it falls in the samples */
		if (prepare(plan, &p) != SPS_OK)
			continue;
		render(plan, &p, buf, first, n);
	}
}

void
sps_fake_plan_add(struct sps_fake_plan *plan, float *buf, uint64_t first,
    size_t n)
{
	int i;

	for (i = 0; i < plan->npulses; i++)
		render(plan, &plan->pulses[i], buf, first, n);
	if (plan->pulsar.period > 0)
		render_pulsar(plan, buf, first, n);
}

void
sps_fake_plan_free(struct sps_fake_plan *plan)
{
	if (plan == NULL)
		return;
	free(plan->freq);
	free(plan->pulses);
	free(plan);
}

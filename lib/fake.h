/* fake.h: synthetic filterbank data: noise, single pulses, a pulsar.
 *
 * Times are seconds from the leading edge of sample 0.  A pulse's time t
 * is when its centre reaches the top of the band: the centre frequency of
 * the highest-frequency channel.  Channel c is delayed behind it by
 * sps_dm_delay(dm, f_c, f_top).
 *
 * The model, per channel c and sample i (output units):
 *
 *	x[i][c] = mean_c + rms_c * n[i][c] + sum over pulses of
 *	    A * rms_c * (f_c / f_top)^index * P_c(i)
 *
 * n is N(0, 1) noise, P_c(i) the pulse profile in channel c integrated
 * exactly over sample i (unit fluence, time in samples): the intrinsic
 * shape (rectangle of full width w, or Gaussian of FWHM w), convolved
 * with a one-sided exponential of timescale tau (f_c / ftau)^-4
 * (scattering), convolved with a rectangle of the channel's dispersion
 * smear sps_dm_smear() (unless smearing is off).
 *
 * S/N: A is chosen so that a boxcar of W = max(1, round(w / tsamp))
 * samples starting at sample i0 = floor(t / tsamp - W / 2 + 0.5),
 * applied to the band sum dedispersed at the pulse's DM (channel c
 * advanced by sps_dm_delay_samples(dm, f_c, f_top, tsamp)), measures
 * the requested S/N against the noise rms of that sum, sqrt(W sum
 * rms_c^2), for the pulse without scattering and smearing (which keep
 * its fluence). */
#ifndef SPS_FAKE_H
#define SPS_FAKE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "header.h"

enum sps_fake_shape {
	SPS_FAKE_RECT,		/* rectangle, width = full width */
	SPS_FAKE_GAUSS		/* Gaussian, width = FWHM */
};

enum sps_fake_bandpass {
	SPS_FAKE_FLAT,		/* gain 1 */
	SPS_FAKE_PARABOLA,	/* 1 - x^2 / 2, x = -1 .. 1 across the band */
	SPS_FAKE_GAUSSIAN	/* 4^(-x^2): 1/4 at the band edges */
};

struct sps_fake_pulse {
	double	dm;		/* pc cm^-3 */
	double	t;		/* s, centre at the top of the band */
	double	width;		/* s: full width, or FWHM (gauss) */
	double	snr;		/* S/N as defined above */
	enum sps_fake_shape shape;
	double	tau;		/* s, scattering at ftau; 0: none */
	double	ftau;		/* MHz; 0: the top of the band */
	double	index;		/* spectral index */
	char	origin[96];	/* where it came from, for messages */
};

/* A periodic pulsar: rectangular pulses of width duty * period, the first
 * centred at period / 2 at the top of the band, each of S/N
 * snrpeak * sqrt(W) (SIGPROC fake's per-sample peak S/N). */
struct sps_fake_pulsar {
	double	period;		/* s; 0: no pulsar */
	double	duty;		/* fraction of the period, (0, 1] */
	double	snrpeak;
	double	dm;		/* pc cm^-3 */
};

struct sps_fake_plan;

/* Parse a pulse "dm=300,t=1.5,width=2ms,snr=20,shape=gauss,tau=1ms,
 * index=-1.4" (commas or blanks between keys).  Time values take a
 * suffix s (default), ms, us or samp (samples of tsamp s).  Keys and
 * defaults: t (required), dm 0, width 1 ms, snr 10, shape gauss
 * (rect|gauss), tau 0, ftau 0 (top of the band, MHz), index 0.  Returns
 * SPS_EVALUE for a malformed or out-of-range spec. */
enum sps_err sps_fake_pulse_parse(const char *spec, double tsamp,
    struct sps_fake_pulse *p);

/* Read pulses, one spec per line ('#' starts a comment, blank lines
 * skipped), appending to *list (realloc'd) and *n.  name is for
 * messages ("FILE:LINE: ..."). */
enum sps_err sps_fake_pulses_read(FILE *f, const char *name, double tsamp,
    struct sps_fake_pulse **list, int *n);

/* Default noise mean and rms (output units) for nbits (see sps-fake(1)). */
void sps_fake_default_level(int nbits, double *mean, double *rms);

/* The shape called name: flat, parabola or gauss.  SPS_EVALUE, the
 * detail naming the shapes there are, for another name. */
enum sps_err sps_fake_bandpass_parse(const char *name,
    enum sps_fake_bandpass *shape);

/* Bandpass gain of each of nchans channels into gain[]. */
void sps_fake_bandpass(enum sps_fake_bandpass shape, int nchans,
    double *gain);

/* N(mean_c, rms_c) noise for spectra first .. first + n - 1 into buf
 * (n * nchans floats, time-major).  Spectrum i's values depend only on
 * (seed, i), so output does not depend on how it is cut into blocks, and
 * only on IEEE arithmetic (no libm), so it is the same on every machine.
 * rms NULL: mean only. */
void sps_fake_noise(uint64_t seed, uint64_t first, size_t n, int nchans,
    const double *mean, const double *rms, float *buf);

/* Round each value to an integer at random, up with probability equal
 * to its fractional part, so a pulse added to integer data keeps its mean
 * (integers stay as they are).  Values of spectrum i depend only on
 * (seed, i). */
void sps_fake_dither(uint64_t seed, uint64_t first, size_t n, int nvalues,
    float *buf);

/* Robust per-channel rms of n spectra of nchans values: the standard
 * deviation after three passes of clipping at 4 sigma. */
enum sps_err sps_fake_estimate_rms(const float *buf, size_t n, int nchans,
    double *rms);

/* Plan pulses for data described by h (nifs 1), nsamples spectra long
 * (SPS_NSAMPLES_UNKNOWN allowed: see sps_fake_plan_check_end), with
 * channel noise rms[] (output units).  Pulses are copied.  Returns
 * SPS_EVALUE for a pulse that cannot be represented (width <= 0, a boxcar
 * outside the data, no channel with signal) or SPS_ENOMEM. */
enum sps_err sps_fake_plan_create(struct sps_fake_plan **plan,
    const struct sps_header *h, uint64_t nsamples, const double *rms,
    const struct sps_fake_pulse *pulses, int npulses,
    const struct sps_fake_pulsar *pulsar, int smear);

/* Add the pulses to spectra first .. first + n - 1 held in buf. */
void sps_fake_plan_add(struct sps_fake_plan *plan, float *buf,
    uint64_t first, size_t n);

/* After a stream of unknown length ended at nsamples: SPS_EVALUE when a
 * pulse's boxcar did not fit. */
enum sps_err sps_fake_plan_check_end(const struct sps_fake_plan *plan,
    uint64_t nsamples);

/* The amplitude A of explicit pulse i (for tests). */
double sps_fake_plan_amplitude(const struct sps_fake_plan *plan, int i);

void sps_fake_plan_free(struct sps_fake_plan *plan);

/* Natural logarithm of x > 0 from IEEE arithmetic only (reproducible on
 * every machine); exposed for tests. */
double sps_fake_log(double x);

#endif

/* fakedata.h: the data sps-fake writes, a block at a time: a filterbank
 * of noise with single pulses and a pulsar (fake.h) as a struct
 * sps_fake_spec describes it, or real data with the pulses injected. */
#ifndef SPS_FAKEDATA_H
#define SPS_FAKEDATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "fake.h"
#include "header.h"
#include "reader.h"
#include "rfi_inject.h"

#define SPS_FAKE_MAX_SAMPLES	1000000000000LL

/* The data to make. */
struct sps_fake_spec {
	int		 nchans;
	int		 nbits;
	double		 tsamp;		/* s */
	double		 tobs;		/* s; 0: nsamples gives the length */
	long long	 nsamples;
	double		 fch1, foff;	/* MHz */
	double		 tstart;	/* MJD */
	const char	*source;
	uint64_t	 seed;
	double		 mean, rms;	/* output units, before the bandpass */
	int		 mean_set, rms_set;	/* else nbits' defaults */
	int		 noise;		/* 0: the mean (and the pulses) only */
	enum sps_fake_bandpass bandpass;
	struct sps_fake_pulsar pulsar;
	int		 smear;		/* pulses smeared inside channels */
};

/* Synthetic data being made, or real data with pulses injected. */
struct sps_fake_data {
	struct sps_header hdr;
	uint64_t	 nsamples;
	double		*mean, *rms;	/* of each channel, output units */
	struct sps_fake_plan *plan;	/* the pulses, once planned */
	struct sps_rfi_plan *rfi;	/* the interference; NULL: none */
	int		 npulses;
	int		 pulsar;	/* 1: a pulsar too */
	uint64_t	 seed;
	int		 noise;
};

/* One second of 8-bit noise in 128 channels of 2 MHz below 1500 MHz at
 * 80 us (see sps-fake(1), DEFAULTS), seed 1, no pulsar (its pulses 4% of
 * the period wide, S/N 1 a sample), smearing on. */
void sps_fake_spec_defaults(struct sps_fake_spec *s);

/* The header, length and channel noise levels of the data s describes.
 * SPS_EVALUE when --tobs gives a length out of range, or the data are not
 * a whole number of bytes. */
enum sps_err sps_fake_data_init(struct sps_fake_data *d,
    const struct sps_fake_spec *s);
/* Read n spectra into buf, or those there are before the end of r; *got
 * says how many.  SPS_EEOF when there are none.  Injection reads its
 * first block whole so that its noise is known before a pulse is added. */
enum sps_err sps_fake_read_block(struct sps_reader *r, float *buf,
    size_t n, size_t *got);

/* Real data of header h, nsamples long (SPS_NSAMPLES_UNKNOWN allowed),
 * for injection: the noise levels from n spectra of their first block
 * (sps_fake_estimate_rms); seed dithers the values back to integers. */
enum sps_err sps_fake_data_inject(struct sps_fake_data *d,
    const struct sps_header *h, uint64_t nsamples, const float *first,
    size_t n, uint64_t seed);
/* Plan the pulses (sps_fake_plan_create) and s's pulsar. */
enum sps_err sps_fake_data_plan(struct sps_fake_data *d,
    const struct sps_fake_spec *s, const struct sps_fake_pulse *pulses,
    int npulses);
/* Plan the interference of n items (rfi_inject.h) from the seed. */
enum sps_err sps_fake_data_plan_rfi(struct sps_fake_data *d,
    const struct sps_rfi *items, int n);
/* Spectra first .. first + n - 1 into buf: the noise, the pulses and the
 * interference. */
void sps_fake_data_block(struct sps_fake_data *d, float *buf,
    uint64_t first, size_t n);
/* Add the pulses and the interference to spectra first .. first + n - 1
 * of real data in buf, dithered back to integers unless the data are 32-bit floats. */
void sps_fake_data_add(struct sps_fake_data *d, float *buf,
    uint64_t first, size_t n);
void sps_fake_data_free(struct sps_fake_data *d);

/* sps-fake's summary on f: nsamples spectra written, the pulses, and
 * the values the writer clipped; then the interference's line. */
void sps_fake_data_report(FILE *f, const struct sps_fake_data *d,
    uint64_t nsamples, unsigned long long nclipped);

/* Spectra in a block of nchans channels: a whole number of bytes at any
 * nbits. */
size_t sps_fake_block_spectra(int nchans);

#endif

/* fakedata.c: the data sps-fake writes (fakedata.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakedata.h"

#define BLOCK_VALUES	(1 << 22)	/* floats per block */

void
sps_fake_spec_defaults(struct sps_fake_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->nchans = 128;
	s->nbits = 8;
	s->tsamp = 80e-6;
	s->tobs = 1.0;
	s->fch1 = 1500.0;
	s->foff = -2.0;
	s->tstart = 50000.0;
	s->source = "FAKE";
	s->seed = 1;
	s->noise = 1;
	s->bandpass = SPS_FAKE_FLAT;
	s->pulsar.duty = 0.04;
	s->pulsar.snrpeak = 1.0;
	s->smear = 1;
}

static enum sps_err
count_samples(const struct sps_fake_spec *s, uint64_t *nsamples)
{
	double n;

	if (s->tobs == 0) {
		*nsamples = (uint64_t)s->nsamples;
		return SPS_OK;
	}
	n = floor(s->tobs / s->tsamp + 0.5);
	if (n < 1 || n > SPS_FAKE_MAX_SAMPLES)
		return sps_fail(SPS_EVALUE, "--tobs %g s at --tsamp %g us "
		    "gives %.0f samples, not in [1, %lld]", s->tobs,
		    1e6 * s->tsamp, n, SPS_FAKE_MAX_SAMPLES);
	*nsamples = (uint64_t)n;
	return SPS_OK;
}

static void
build_header(const struct sps_fake_spec *s, struct sps_header *h)
{
	static const char *keys[] = {
		"source_name", "telescope_id", "machine_id", "data_type",
		"src_raj", "src_dej", "fch1", "foff", "nchans", "nbits",
		"tstart", "tsamp", "nifs"
	};
	size_t i;

	sps_header_init(h);
	snprintf(h->source_name, sizeof(h->source_name), "%s", s->source);
	h->data_type = s->nchans == 1 ? 2 : 1;
	h->fch1 = s->fch1;
	h->foff = s->foff;
	h->nchans = s->nchans;
	h->nbits = s->nbits;
	h->tstart = s->tstart;
	h->tsamp = s->tsamp;
	h->nifs = 1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		sps_header_mark(h, keys[i]);
	if (s->nchans == 1) {
		h->refdm = s->pulsar.dm;
		sps_header_mark(h, "refdm");
	}
}

enum sps_err
sps_fake_data_init(struct sps_fake_data *d, const struct sps_fake_spec *s)
{
	double m, r;
	enum sps_err e;
	int c;

	memset(d, 0, sizeof(*d));
	if ((e = count_samples(s, &d->nsamples)) != SPS_OK)
		return e;
	if ((uint64_t)s->nchans * (uint64_t)s->nbits * d->nsamples % 8 != 0)
		return sps_fail(SPS_EVALUE, "%llu spectra of %d channels of %d "
		    "bits are not a whole number of bytes",
		    (unsigned long long)d->nsamples, s->nchans, s->nbits);
	build_header(s, &d->hdr);
	if ((d->mean = malloc((size_t)s->nchans * sizeof(double))) == NULL ||
	    (d->rms = malloc((size_t)s->nchans * sizeof(double))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	sps_fake_default_level(s->nbits, &m, &r);
	sps_fake_bandpass(s->bandpass, s->nchans, d->rms);
	for (c = 0; c < s->nchans; c++) {
		d->mean[c] = (s->mean_set ? s->mean : m) * d->rms[c];
		d->rms[c] *= s->rms_set ? s->rms : r;
	}
	d->seed = s->seed;
	d->noise = s->noise;
	return SPS_OK;
}

enum sps_err
sps_fake_read_block(struct sps_reader *r, float *buf, size_t n, size_t *got)
{
	size_t part;
	enum sps_err e;

	for (*got = 0; *got < n; *got += part) {
		e = sps_reader_read(r, buf + *got * r->hdr.nchans, n - *got,
		    &part);
		if (e == SPS_EEOF)
			break;
		if (e != SPS_OK)
			return e;
	}
	if (*got == 0)
		return sps_fail(SPS_EEOF, "%s: no data", r->name);
	return SPS_OK;
}

enum sps_err
sps_fake_data_inject(struct sps_fake_data *d, const struct sps_header *h,
    uint64_t nsamples, const float *first, size_t n, uint64_t seed)
{
	enum sps_err e;

	memset(d, 0, sizeof(*d));
	sps_header_init(&d->hdr);
	if ((e = sps_header_copy(&d->hdr, h)) != SPS_OK)
		return e;
	if ((d->rms = malloc((size_t)h->nchans * sizeof(double))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	d->nsamples = nsamples;
	d->seed = seed;
	return sps_fake_estimate_rms(first, n, h->nchans, d->rms);
}

enum sps_err
sps_fake_data_plan(struct sps_fake_data *d, const struct sps_fake_spec *s,
    const struct sps_fake_pulse *pulses, int npulses)
{
	d->npulses = npulses;
	d->pulsar = s->pulsar.period > 0;
	return sps_fake_plan_create(&d->plan, &d->hdr, d->nsamples, d->rms,
	    pulses, npulses, &s->pulsar, s->smear);
}

enum sps_err
sps_fake_data_plan_rfi(struct sps_fake_data *d, const struct sps_rfi *items,
    int n)
{
	return sps_rfi_plan_create(&d->rfi, &d->hdr, d->rms, items, n,
	    d->seed);
}

void
sps_fake_data_block(struct sps_fake_data *d, float *buf, uint64_t first,
    size_t n)
{
	sps_fake_noise(d->seed, first, n, d->hdr.nchans, d->mean,
	    d->noise ? d->rms : NULL, buf);
	sps_fake_plan_add(d->plan, buf, first, n);
	sps_rfi_plan_apply(d->rfi, buf, first, n);
}

void
sps_fake_data_add(struct sps_fake_data *d, float *buf, uint64_t first,
    size_t n)
{
	sps_fake_plan_add(d->plan, buf, first, n);
	sps_rfi_plan_apply(d->rfi, buf, first, n);
	if (d->hdr.nbits < 32)
		sps_fake_dither(d->seed, first, n, d->hdr.nchans, buf);
}

void
sps_fake_data_free(struct sps_fake_data *d)
{
	sps_fake_plan_free(d->plan);
	sps_rfi_plan_free(d->rfi);
	sps_header_free(&d->hdr);
	free(d->mean);
	free(d->rms);
	memset(d, 0, sizeof(*d));
}

void
sps_fake_data_report(FILE *f, const struct sps_fake_data *d,
    uint64_t nsamples, unsigned long long nclipped)
{
	double total = (double)nsamples * d->hdr.nchans;

	fprintf(f, "sps-fake: %llu spectra of %d channels, %d pulses%s; %llu "
	    "values clipped (%.3g%%)\n", (unsigned long long)nsamples,
	    d->hdr.nchans, d->npulses, d->pulsar ? " and a pulsar" : "",
	    nclipped, total > 0 ? 100.0 * nclipped / total : 0.0);
	sps_rfi_plan_report(f, d->rfi, nsamples);
}

size_t
sps_fake_block_spectra(int nchans)
{
	size_t n = BLOCK_VALUES / (size_t)nchans;

	if (n > 4096)
		n = 4096;
	n &= ~(size_t)7;	/* sub-byte blocks stay byte aligned */
	return n < 8 ? 8 : n;
}

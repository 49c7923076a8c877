/* filterbank.c: time and channel ranges, masks, flips, nbits and
 * rescaling of sps-filterbank (filterbank.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "filterbank.h"
#include "psrfits.h"
#include "reader.h"
#include "robust.h"

void
sps_filterbank_defaults(struct sps_filterbank_params *prm)
{
	memset(prm, 0, sizeof(*prm));
	prm->start_s = prm->read_s = -1;
	prm->start = prm->count = prm->chan_first = prm->chan_last = -1;
	prm->freq_lo = prm->freq_hi = NAN;
}

static uint64_t
seconds_to_samples(double seconds, double tsamp)
{
	return (uint64_t)llround(seconds / tsamp);
}

enum sps_err
sps_filterbank_time(struct sps_filterbank *p,
    const struct sps_filterbank_params *prm, double tsamp, uint64_t nsamples)
{
	memset(p, 0, sizeof(*p));
	p->start = prm->start >= 0 ? (uint64_t)prm->start : prm->start_s >= 0 ?
	    seconds_to_samples(prm->start_s, tsamp) : 0;
	p->count = prm->count >= 0 ? (uint64_t)prm->count : prm->read_s >= 0 ?
	    seconds_to_samples(prm->read_s, tsamp) : SPS_FILTERBANK_ALL;
	p->asked = p->count;
	if (nsamples == SPS_NSAMPLES_UNKNOWN)
		return SPS_OK;
	if (p->start >= nsamples)
		return sps_fail(SPS_EVALUE, "start at spectrum %llu: the input "
		    "has only %llu", (unsigned long long)p->start,
		    (unsigned long long)nsamples);
	if (p->count > nsamples - p->start)
		p->count = nsamples - p->start;
	return SPS_OK;
}

/* The first and last channel whose centres are in [lo, hi], or -1. */
static void
channels_in(const struct sps_header *h, double lo, double hi, int *first,
    int *last)
{
	double f;
	int c;

	*first = *last = -1;
	for (c = 0; c < h->nchans; c++) {
		f = sps_channel_freq(h, c);
		if (f < lo || f > hi)
			continue;
		if (*first < 0)
			*first = c;
		*last = c;
	}
}

enum sps_err
sps_filterbank_channels(struct sps_filterbank *p,
    const struct sps_filterbank_params *prm, const struct sps_header *h)
{
	int last = h->nchans - 1;

	p->nin = h->nchans;
	p->nifs = h->nifs;
	p->first = 0;
	if (prm->chan_first >= 0) {
		if (prm->chan_last >= h->nchans)
			return sps_fail(SPS_EVALUE, "-c %lld:%lld: the input "
			    "has channels 0 to %d", prm->chan_first,
			    prm->chan_last, h->nchans - 1);
		p->first = (int)prm->chan_first;
		last = (int)prm->chan_last;
	} else if (!isnan(prm->freq_lo)) {
		channels_in(h, prm->freq_lo, prm->freq_hi, &p->first, &last);
		if (p->first < 0)
			return sps_fail(SPS_EVALUE, "--freqs %g:%g: no channel "
			    "centre in it (the band is %g to %g MHz)",
			    prm->freq_lo, prm->freq_hi, sps_channel_freq(h, 0),
			    sps_channel_freq(h, h->nchans - 1));
	}
	p->nout = last - p->first + 1;
	if ((p->masked = calloc((size_t)p->nin, 1)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	return SPS_OK;
}

/* The output's centre and spread that rescaled values are given. */
static void
rescale_targets(struct sps_filterbank *p)
{
	if (p->nbits == 32) {
		p->level = 0;
		p->spread = 1;
	} else {
		p->level = (float)(ldexp(1, p->nbits) - 1) / 2;
		p->spread = (float)fmax(1, ldexp(1, p->nbits) / 16);
	}
}

enum sps_err
sps_filterbank_output(struct sps_filterbank *p,
    const struct sps_filterbank_params *prm, const struct sps_header *h,
    int value_nbits)
{
	int in_signed = value_nbits == 8 && h->nbits == 8 && h->sign < 0;
	size_t values = (size_t)p->nifs * (size_t)p->nout;
	int c;

	for (c = p->first; c < p->first + p->nout; c++)
		p->nmasked += p->masked[c];
	p->flip = prm->flip;
	p->median_fill = prm->median_fill;
	p->nbits = prm->nbits != 0 ? prm->nbits : value_nbits;
	p->is_signed = p->nbits == 8 && in_signed && !prm->rescale;
	if (p->median_fill && (p->work = malloc((size_t)p->nin *
	    sizeof(float))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if (!prm->rescale)
		return SPS_OK;
	rescale_targets(p);
	p->mean = calloc(values, sizeof(double));
	p->scale = calloc(values, sizeof(double));
	if (p->mean == NULL || p->scale == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	return SPS_OK;
}

/* The frequency table of the channels kept, in their output order. */
static enum sps_err
kept_frequencies(const struct sps_filterbank *p, const struct sps_header *in,
    struct sps_header *out)
{
	int c, last = p->first + p->nout - 1;
	double *table;

	if ((table = malloc((size_t)p->nout * sizeof(double))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (c = 0; c < p->nout; c++)
		table[c] = in->fchannel[p->flip ? last - c : p->first + c];
	free(out->fchannel);
	out->fchannel = table;
	out->nfchannel = p->nout;
	return SPS_OK;
}

enum sps_err
sps_filterbank_header(const struct sps_filterbank *p,
    const struct sps_header *in, struct sps_header *out)
{
	int last = p->first + p->nout - 1;
	enum sps_err e;

	if ((e = sps_header_copy(out, in)) != SPS_OK)
		return e;
	if (sps_header_has(in, "tstart"))
		out->tstart = in->tstart + (double)p->start * in->tsamp /
		    86400.0;
	out->nchans = p->nout;
	out->fch1 = sps_channel_freq(in, p->flip ? last : p->first);
	out->foff = p->flip ? -in->foff : in->foff;
	if (in->nfchannel > 0 && (e = kept_frequencies(p, in, out)) !=
	    SPS_OK) {
		sps_header_free(out);
		return e;
	}
	out->nbits = p->nbits;
	out->sign = p->is_signed ? -1 : 0;
	if (p->is_signed)
		sps_header_mark(out, "signed");
	else
		sps_header_unmark(out, "signed");
	if (sps_header_has(in, "nsamples") && p->count < INT32_MAX)
		out->nsamples = (int)p->count;
	else
		sps_header_unmark(out, "nsamples");
	if (p->nout != p->nin || p->flip) {
		sps_header_unmark(out, "bandwidth");
		sps_header_unmark(out, "fbottom");
		sps_header_unmark(out, "ftop");
	}
	return SPS_OK;
}

/* Masked channels of one IF of one spectrum, in place. */
static void
apply_mask(const struct sps_filterbank *p, float *in)
{
	size_t n = 0;
	float fill = 0;
	int c;

	if (p->nmasked == 0)
		return;
	if (p->median_fill) {
		for (c = p->first; c < p->first + p->nout; c++)
			if (!p->masked[c])
				p->work[n++] = in[c];
		if (n > 0)
			fill = sps_select(p->work, n, n / 2);
	}
	for (c = p->first; c < p->first + p->nout; c++)
		if (p->masked[c])
			in[c] = fill;
}

/* Per-channel mean and spread of the first block, for rescaling. */
static void
take_scaling(struct sps_filterbank *p, const float *out, size_t n)
{
	size_t values = (size_t)p->nifs * p->nout, i, v;

	for (v = 0; v < values; v++) {
		double sum = 0, sq = 0, mean, var;

		for (i = 0; i < n; i++)
			sum += out[i * values + v];
		mean = sum / n;
		for (i = 0; i < n; i++)
			sq += (out[i * values + v] - mean) *
			    (out[i * values + v] - mean);
		var = n > 1 ? sq / (n - 1) : 0;
		p->mean[v] = mean;
		p->scale[v] = var > 0 ? p->spread / sqrt(var) : 0;
	}
	p->scaled = 1;
}

static void
apply_scaling(struct sps_filterbank *p, float *out, size_t n)
{
	size_t values = (size_t)p->nifs * p->nout, i, v;

	if (p->mean == NULL)
		return;
	if (!p->scaled)
		take_scaling(p, out, n);
	for (i = 0; i < n; i++)
		for (v = 0; v < values; v++)
			out[i * values + v] = (float)(p->level +
			    (out[i * values + v] - p->mean[v]) * p->scale[v]);
}

/* The plan changes no value: every channel kept in its order, none
 * masked, no rescaling. */
static int
keeps_values(const struct sps_filterbank *p)
{
	return p->nout == p->nin && !p->flip && p->nmasked == 0 &&
	    p->mean == NULL;
}

/* The kept channels of one IF of one spectrum, in their output order. */
static void
cut(const struct sps_filterbank *p, const float *src, float *dst)
{
	const float *last = src + p->first + p->nout - 1;
	int c;

	if (!p->flip) {
		memcpy(dst, src + p->first, (size_t)p->nout * sizeof(float));
		return;
	}
	for (c = 0; c < p->nout; c++)
		dst[c] = last[-c];
}

float *
sps_filterbank_execute(struct sps_filterbank *p, float *in, float *out,
    size_t n)
{
	size_t i, ifs;

	if (keeps_values(p))
		return in;
	for (i = 0; i < n; i++)
		for (ifs = 0; ifs < (size_t)p->nifs; ifs++) {
			float *src = in + (i * p->nifs + ifs) * p->nin;

			apply_mask(p, src);
			cut(p, src, out + (i * p->nifs + ifs) * p->nout);
		}
	apply_scaling(p, out, n);
	return out;
}

int
sps_filterbank_copies_bytes(const struct sps_filterbank *p,
    const struct sps_reader *r)
{
	const struct sps_header *h = &r->hdr;

	/* a stream of wider values that ends in a spectrum is reported in
	 * the whole values read of it, which raw reads do not count */
	if (r->nsamples == SPS_NSAMPLES_UNKNOWN && h->nbits > 8)
		return 0;
	return keeps_values(p) && sps_psrfits_info(r) == NULL &&
	    r->gap_spectra == 0 && h->sps_order == 0 &&
	    sps_spectrum_whole_bytes(h) && p->nbits == h->nbits &&
	    p->is_signed == (h->nbits == 8 && h->sign < 0);
}

void
sps_filterbank_free(struct sps_filterbank *p)
{
	free(p->masked);
	free(p->mean);
	free(p->scale);
	free(p->work);
	memset(p, 0, sizeof(*p));
}

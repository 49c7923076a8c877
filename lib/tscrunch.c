/* tscrunch.c: adding adjacent samples and channels (see tscrunch.h). */
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "tscrunch.h"

struct sps_tscrunch {
	size_t	 nin;		/* values per input spectrum */
	size_t	 nout;		/* values per output spectrum */
	size_t	 tfactor;
	size_t	 ffactor;
	double	 divisor;	/* N M for means, else 1 */
	double	*sums;		/* nout running sums */
	size_t	 pending;	/* input spectra in sums */
};

static int
valid_nbits(int nbits)
{
	return nbits == 1 || nbits == 2 || nbits == 4 || nbits == 8 ||
	    nbits == 16 || nbits == 32;
}

static int
input_signed(const struct sps_header *in)
{
	return in->nbits == 8 && in->sign < 0;
}

int
sps_tscrunch_nbits(const struct sps_header *in, int tfactor, int ffactor,
    int mean)
{
	static const int widths[] = { 1, 2, 4, 8, 16 };
	double hi = (double)tfactor * (double)ffactor *
	    sps_nbits_max(in->nbits, 0);
	size_t i;

	if (mean || in->nbits == 32)
		return in->nbits;
	if (input_signed(in))	/* negative sums: only float holds them */
		return tfactor == 1 && ffactor == 1 ? 8 : 32;
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (hi <= sps_nbits_max(widths[i], 0))
			return widths[i];
	return 32;
}

static enum sps_err
check_params(const struct sps_header *in,
    const struct sps_tscrunch_params *p)
{
	if (p->tfactor < 1 || p->ffactor < 1)
		return sps_fail(SPS_EVALUE, "factors %d (time) and %d "
		    "(channels) must be at least 1", p->tfactor, p->ffactor);
	if (in->nchans % p->ffactor != 0)
		return sps_fail(SPS_EVALUE, "-f %d does not divide nchans %d "
		    "(select channels with sps-filterbank first)", p->ffactor,
		    in->nchans);
	if (p->nbits != 0 && !valid_nbits(p->nbits))
		return sps_fail(SPS_EVALUE, "nbits %d: not 1, 2, 4, 8, 16 or "
		    "32", p->nbits);
	return SPS_OK;
}

/* Each merged channel's frequency: the mean of its channels'. */
static void
merge_frequency_table(struct sps_header *out, int ffactor)
{
	int c, k, n = out->nfchannel / ffactor;

	for (c = 0; c < n; c++) {
		double sum = 0;

		for (k = 0; k < ffactor; k++)
			sum += out->fchannel[c * ffactor + k];
		out->fchannel[c] = sum / ffactor;
	}
	out->nfchannel = n;
}

enum sps_err
sps_tscrunch_header(const struct sps_header *in,
    const struct sps_tscrunch_params *p, uint64_t nsamples_in,
    struct sps_header *out)
{
	enum sps_err e;
	int nbits;

	sps_header_init(out);
	if ((e = check_params(in, p)) != SPS_OK ||
	    (e = sps_header_copy(out, in)) != SPS_OK)
		return e;
	nbits = p->nbits != 0 ? p->nbits : sps_tscrunch_nbits(in, p->tfactor,
	    p->ffactor, p->mean);
	out->nbits = nbits;
	if (sps_header_has(out, "signed") && !(nbits == 8 &&
	    input_signed(in)))
		out->sign = 1;
	out->tsamp = in->tsamp * p->tfactor;
	out->nchans = in->nchans / p->ffactor;
	out->fch1 = in->fch1 + (p->ffactor - 1) / 2.0 * in->foff;
	out->foff = in->foff * p->ffactor;
	if (out->nfchannel > 0)
		merge_frequency_table(out, p->ffactor);
	if (sps_header_has(out, "nsamples")) {
		if (nsamples_in == UINT64_MAX || nsamples_in / (uint64_t)
		    p->tfactor > INT32_MAX)
			sps_header_unmark(out, "nsamples");
		else
			out->nsamples = (int)(nsamples_in / (uint64_t)
			    p->tfactor);
	}
	return SPS_OK;
}

enum sps_err
sps_tscrunch_create(struct sps_tscrunch **plan, const struct sps_header *in,
    const struct sps_tscrunch_params *p)
{
	struct sps_tscrunch *t;
	enum sps_err e;

	*plan = NULL;
	if ((e = check_params(in, p)) != SPS_OK)
		return e;
	if ((t = calloc(1, sizeof(*t))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	t->nin = sps_spectrum_values(in);
	t->nout = t->nin / (size_t)p->ffactor;
	t->tfactor = (size_t)p->tfactor;
	t->ffactor = (size_t)p->ffactor;
	t->divisor = p->mean ? (double)p->tfactor * p->ffactor : 1;
	if ((t->sums = calloc(t->nout, sizeof(double))) == NULL) {
		free(t);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	*plan = t;
	return SPS_OK;
}

/* The first spectrum of a group is assigned rather than added to 0, so
 * that -0 stays -0. */
static void
add_spectrum(struct sps_tscrunch *t, const float *x)
{
	size_t o, k;

	if (t->ffactor == 1) {	/* the common case, vectorised */
		if (t->pending == 0)
			for (o = 0; o < t->nout; o++)
				t->sums[o] = x[o];
		else
			for (o = 0; o < t->nout; o++)
				t->sums[o] += x[o];
		return;
	}
	for (o = 0; o < t->nout; o++) {
		const float *group = x + o * t->ffactor;
		double sum = group[0];

		for (k = 1; k < t->ffactor; k++)
			sum += group[k];
		t->sums[o] = t->pending == 0 ? sum : t->sums[o] + sum;
	}
}

static void
emit_spectrum(struct sps_tscrunch *t, float *out)
{
	size_t o;

	if (t->divisor == 1)
		for (o = 0; o < t->nout; o++)
			out[o] = (float)t->sums[o];
	else
		for (o = 0; o < t->nout; o++)
			out[o] = (float)(t->sums[o] / t->divisor);
}

size_t
sps_tscrunch_execute(struct sps_tscrunch *t, const float *in, size_t n,
    float *out)
{
	size_t s, written = 0;

	if (t->tfactor == 1 && t->ffactor == 1) {	/* bit for bit */
		memcpy(out, in, n * t->nin * sizeof(float));
		return n;
	}
	for (s = 0; s < n; s++) {
		add_spectrum(t, in + s * t->nin);
		if (++t->pending == t->tfactor) {
			emit_spectrum(t, out + written * t->nout);
			written++;
			t->pending = 0;
		}
	}
	return written;
}

size_t
sps_tscrunch_pending(const struct sps_tscrunch *t)
{
	return t->pending;
}

void
sps_tscrunch_free(struct sps_tscrunch *t)
{
	if (t == NULL)
		return;
	free(t->sums);
	free(t);
}

/* cleanstream.c: an input's cleaning, block after block (cleanstream.h). */
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "cleanstream.h"
#include "psrfits.h"
#include "rfimask.h"

struct sps_cleanstream {
	struct sps_clean	*engine;
	struct sps_clean_report	 report;
	int			 nchans, descending;
	size_t			 block;
	unsigned char		*kill;		/* file order */
	struct sps_rfimask	 rfi;
	int			 have_rfi;
	unsigned char		*now;		/* this block's, file order */
	unsigned char		*presto;	/* scratch, PRESTO's order */
	/* sps_cleanstream_read's block */
	float			*buf;
	unsigned char		*packed;
	size_t			 have, served;
	uint64_t		 at;		/* the block's first spectrum */
	uint64_t		 quantised;
};

void
sps_clean_setup_defaults(struct sps_clean_setup *s)
{
	memset(s, 0, sizeof(*s));
	sps_clean_defaults(&s->o);
	s->block = SPS_CLEAN_BLOCK;
}

static enum sps_err
load_rfimask(struct sps_cleanstream *cs, const char *path)
{
	enum sps_err e;

	if ((e = sps_rfimask_load(path, &cs->rfi)) != SPS_OK)
		return e;
	cs->have_rfi = 1;
	return sps_rfimask_check(&cs->rfi, path, cs->nchans);
}

enum sps_err
sps_cleanstream_create(struct sps_cleanstream **csp,
    const struct sps_header *h, const struct sps_clean_setup *s,
    const unsigned char *kill)
{
	size_t nc = (size_t)h->nchans;
	struct sps_cleanstream *cs;
	enum sps_err e;

	*csp = NULL;
	if ((cs = calloc(1, sizeof(*cs))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	cs->nchans = h->nchans;
	cs->descending = h->foff < 0;
	cs->block = s->block > 0 ? s->block : SPS_CLEAN_BLOCK;
	cs->kill = calloc(nc, 1);
	cs->now = calloc(nc, 1);
	cs->presto = calloc(nc, 1);
	if (cs->kill == NULL || cs->now == NULL || cs->presto == NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	else if (s->maskfile == NULL || (e = load_rfimask(cs, s->maskfile)) ==
	    SPS_OK) {
		if (kill != NULL)
			memcpy(cs->kill, kill, nc);
		if ((e = sps_clean_create(&cs->engine, h, cs->block, &s->o)) ==
		    SPS_OK)
			e = sps_clean_report_open(&cs->report, s->report, h,
			    sps_clean_opts(cs->engine));
	}
	if (e != SPS_OK) {
		sps_cleanstream_free(cs);
		return e;
	}
	*csp = cs;
	return SPS_OK;
}

void
sps_cleanstream_free(struct sps_cleanstream *cs)
{
	if (cs == NULL)
		return;
	if (cs->have_rfi)
		sps_rfimask_free(&cs->rfi);
	if (cs->report.have_file)	/* not finished: no file */
		sps_writer_abort(&cs->report.w);
	sps_clean_free(cs->engine);
	free(cs->kill), free(cs->now), free(cs->presto);
	free(cs->buf), free(cs->packed);
	free(cs);
}

void
sps_cleanstream_static(const struct sps_cleanstream *cs, uint64_t at,
    unsigned char *mask, unsigned char *scratch)
{
	int c, n = cs->nchans;

	memset(scratch, 0, (size_t)n);
	if (cs->have_rfi)
		sps_rfimask_channels(&cs->rfi, sps_rfimask_interval(&cs->rfi,
		    at), scratch);
	for (c = 0; c < n; c++)
		mask[c] = cs->kill[c] || scratch[cs->descending ? n - 1 - c : c];
}

size_t
sps_cleanstream_length(const struct sps_cleanstream *cs, uint64_t at)
{
	uint64_t per, left;

	if (!cs->have_rfi)
		return cs->block;
	per = (uint64_t)cs->rfi.ptsperint;
	left = per - at % per;
	return left < cs->block ? (size_t)left : cs->block;
}

size_t
sps_cleanstream_begin(struct sps_cleanstream *cs, uint64_t at)
{
	sps_cleanstream_static(cs, at, cs->now, cs->presto);
	sps_clean_set_static(cs->engine, cs->now);
	return sps_cleanstream_length(cs, at);
}

size_t
sps_cleanstream_block_max(const struct sps_cleanstream *cs)
{
	return cs->block;
}

struct sps_clean *
sps_cleanstream_engine(struct sps_cleanstream *cs)
{
	return cs->engine;
}

const struct sps_clean *
sps_cleanstream_engine_of(const struct sps_cleanstream *cs)
{
	return cs->engine;
}

size_t
sps_cleanstream_nchans(const struct sps_cleanstream *cs)
{
	return (size_t)cs->nchans;
}

enum sps_err
sps_cleanstream_done(struct sps_cleanstream *cs, uint64_t at,
    const struct sps_clean_block *b)
{
	return sps_clean_report_block(&cs->report, at, b);
}

enum sps_err
sps_cleanstream_block(struct sps_cleanstream *cs, uint64_t at, float *x,
    size_t n, struct sps_clean_block *b)
{
	enum sps_err e;

	if ((e = sps_clean_execute(cs->engine, x, n, b)) != SPS_OK)
		return e;
	return sps_cleanstream_done(cs, at, b);
}

enum sps_err
sps_cleanstream_fill(struct sps_reader *r, void *buf, size_t n, int raw,
    size_t *got)
{
	size_t part, width = raw ? sps_spectrum_bytes(&r->hdr) :
	    sps_spectrum_values(&r->hdr) * sizeof(float);
	enum sps_err e = SPS_OK;
	char *at = buf;

	*got = 0;
	while (*got < n && (e = raw ? sps_reader_read_raw(r, (unsigned char *)
	    at + *got * width, n - *got, &part) : sps_reader_read(r,
	    (float *)(void *)(at + *got * width), n - *got, &part)) == SPS_OK)
		*got += part;
	if (e == SPS_EEOF && *got > 0)
		e = SPS_OK;
	return e;
}

/* The cleaned block rounded to nbits and back, as sps-clean writes it
 * and the next stage reads it. */
static void
quantise(struct sps_cleanstream *cs, const struct sps_header *h, int nbits)
{
	size_t nv = cs->have * (size_t)cs->nchans;
	int is_signed = nbits == 8 && h->sign < 0;

	if (nbits == 32)
		return;
	cs->quantised += sps_pack(cs->buf, cs->packed, nv, nbits, is_signed);
	sps_unpack(cs->packed, cs->buf, nv, nbits, is_signed);
}

static enum sps_err
next_block(struct sps_cleanstream *cs, struct sps_reader *r)
{
	size_t nv = cs->block * (size_t)cs->nchans, len;
	struct sps_clean_block b;
	enum sps_err e;

	if (cs->buf == NULL && ((cs->buf = malloc(nv * sizeof(float))) ==
	    NULL || (cs->packed = malloc(sps_packed_bytes(nv,
	    sps_reader_value_nbits(r)))) == NULL))
		return sps_fail(SPS_ENOMEM, "out of memory for a cleaning "
		    "block of %zu spectra", cs->block);
	cs->at += cs->have;
	cs->have = cs->served = 0;
	len = sps_cleanstream_begin(cs, cs->at);
	if ((e = sps_cleanstream_fill(r, cs->buf, len, 0, &cs->have)) !=
	    SPS_OK)
		return e;
	if ((e = sps_cleanstream_block(cs, cs->at, cs->buf, cs->have, &b)) !=
	    SPS_OK)
		return e;
	quantise(cs, &r->hdr, sps_reader_value_nbits(r));
	return SPS_OK;
}

enum sps_err
sps_cleanstream_read(struct sps_cleanstream *cs, struct sps_reader *r,
    float *out, size_t n, size_t *got)
{
	size_t k, nc = (size_t)cs->nchans;
	enum sps_err e;

	*got = 0;
	if (cs->served == cs->have && (e = next_block(cs, r)) != SPS_OK)
		return e;
	k = cs->have - cs->served < n ? cs->have - cs->served : n;
	memcpy(out, cs->buf + cs->served * nc, k * nc * sizeof(float));
	cs->served += k;
	*got = k;
	return SPS_OK;
}

double
sps_cleanstream_read_bytes(const struct sps_header *h, size_t block)
{
	double nv = (double)block * h->nchans;

	return nv * sizeof(float) + nv * h->nbits / 8;
}

uint64_t
sps_cleanstream_quantised(const struct sps_cleanstream *cs)
{
	return cs->quantised;
}

const struct sps_clean_report *
sps_cleanstream_report(const struct sps_cleanstream *cs)
{
	return &cs->report;
}

enum sps_err
sps_cleanstream_close(struct sps_cleanstream *cs)
{
	return sps_clean_report_close(&cs->report);
}

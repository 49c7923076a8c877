/* join.c: several files in time order read as one stream (join.h):
 * PSRFITS joins its own rows; SIGPROC files go through a chain of
 * readers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "join.h"

struct chain {
	char *const	*paths;
	int		 npaths;
	int		 current;	/* index of the open file */
	struct sps_reader sub;
	int		 fill_gaps;
	uint64_t	*gaps;		/* spectra to fill before file i */
	uint64_t	 gap_left;	/* still to fill before current */
	float		*last;		/* mean of the last block read */
	size_t		 nvalues;
};

static int
same_layout(const struct sps_header *a, const struct sps_header *b)
{
	return a->nchans == b->nchans && a->nbits == b->nbits &&
	    a->nifs == b->nifs && a->tsamp == b->tsamp &&
	    a->fch1 == b->fch1 && a->foff == b->foff;
}

/* Spectra missing between a file ending at end_mjd and the next one. */
static enum sps_err
gap_between(const struct sps_header *prev, uint64_t prev_n,
    const struct sps_header *next, const char *name, int fill,
    uint64_t *gap)
{
	double step = prev->tsamp / 86400.0;
	double expect = prev->tstart + (double)prev_n * step;
	double offset = (next->tstart - expect) / step;

	*gap = 0;
	if (fabs(offset) <= 0.5)
		return SPS_OK;
	if (offset < 0)
		return sps_fail(SPS_EVALUE, "%s: starts %.1f samples before "
		    "the end of the previous file (out of order or "
		    "overlapping)", name, -offset);
	if (!fill)
		return sps_fail(SPS_EVALUE, "%s: gap of %.1f samples after "
		    "the previous file", name, offset);
	*gap = (uint64_t)llround(offset);
	return SPS_OK;
}

/* Read every header once: check the layout and continuity, sum lengths. */
static enum sps_err
survey(struct sps_reader *r, struct chain *c)
{
	struct sps_header prev;
	uint64_t prev_n = 0, total = 0;
	struct sps_reader one;
	enum sps_err e = SPS_OK;
	int i;

	sps_header_init(&prev);
	for (i = 0; i < c->npaths && e == SPS_OK; i++) {
		if ((e = sps_reader_open(&one, c->paths[i])) != SPS_OK)
			break;
		if (one.nsamples == SPS_NSAMPLES_UNKNOWN)
			e = sps_fail(SPS_EUSAGE, "%s: joined inputs must be "
			    "files, not pipes", c->paths[i]);
		else if (i > 0 && !same_layout(&prev, &one.hdr))
			e = sps_fail(SPS_EVALUE, "%s: channels, bits, tsamp or "
			    "frequencies differ from %s", c->paths[i],
			    c->paths[0]);
		else if (i > 0)
			e = gap_between(&prev, prev_n, &one.hdr, c->paths[i],
			    c->fill_gaps, &c->gaps[i]);
		if (e == SPS_OK && i == 0)
			e = sps_header_copy(&r->hdr, &one.hdr);
		if (one.cut_bytes > 0 && r->cut_files++ == 0) {
			r->cut_bytes = one.cut_bytes;
			r->cut_name = c->paths[i];
		}
		total += one.nsamples + c->gaps[i];
		prev_n = one.nsamples;
		sps_header_free(&prev);
		if (e == SPS_OK)
			e = sps_header_copy(&prev, &one.hdr);
		sps_reader_close(&one);
	}
	sps_header_free(&prev);
	r->nsamples = total;
	return e;
}

static enum sps_err
chain_fill(struct chain *c, float *buf, size_t n, size_t *got)
{
	size_t take = c->gap_left < n ? (size_t)c->gap_left : n, i;

	for (i = 0; i < take; i++)
		memcpy(buf + i * c->nvalues, c->last,
		    c->nvalues * sizeof(float));
	c->gap_left -= take;
	*got = take;
	return SPS_OK;
}

static void
remember_mean(struct chain *c, const float *buf, size_t n)
{
	size_t i, v;

	if (n == 0)
		return;
	for (v = 0; v < c->nvalues; v++) {
		double sum = 0;

		for (i = 0; i < n; i++)
			sum += buf[i * c->nvalues + v];
		c->last[v] = (float)(sum / n);
	}
}

/* The current file is read to its end: open the next, if any. */
static enum sps_err
next_file(struct chain *c)
{
	enum sps_err e;

	sps_reader_close(&c->sub);
	if (++c->current >= c->npaths)
		return SPS_EEOF;
	if ((e = sps_reader_open(&c->sub, c->paths[c->current])) != SPS_OK)
		return e;
	c->gap_left = c->gaps[c->current];
	return SPS_OK;
}

static enum sps_err
chain_read_float(void *state, float *buf, size_t n, size_t *got)
{
	struct chain *c = state;
	enum sps_err e;

	*got = 0;
	for (;;) {
		if (c->gap_left > 0)
			return chain_fill(c, buf, n, got);
		e = sps_reader_read(&c->sub, buf, n, got);
		if (e != SPS_EEOF) {
			if (e == SPS_OK && c->fill_gaps)
				remember_mean(c, buf, *got);
			return e;
		}
		if ((e = next_file(c)) != SPS_OK)
			return e;
	}
}

/* Gaps are filled from the values read last: what fills them depends on
 * how the spectra before were read, so they are read as values. */
static int
has_gaps(const struct chain *c)
{
	int i;

	for (i = 0; i < c->npaths; i++)
		if (c->gaps[i] > 0)
			return 1;
	return 0;
}

static enum sps_err
chain_read_raw(void *state, unsigned char *buf, size_t n, size_t *got)
{
	struct chain *c = state;
	enum sps_err e;

	*got = 0;
	if (has_gaps(c))
		return sps_fail(SPS_EUSAGE, "raw reads of joined files with "
		    "gaps are not available");
	for (;;) {
		e = sps_reader_read_raw(&c->sub, buf, n, got);
		if (e != SPS_EEOF)
			return e;
		if ((e = next_file(c)) != SPS_OK)
			return e;
	}
}

/* Each file skips what it holds (a seek); the gaps are read. */
static enum sps_err
chain_skip(void *state, uint64_t n, uint64_t *skipped)
{
	struct chain *c = state;
	enum sps_err e;
	uint64_t take;

	*skipped = 0;
	if (has_gaps(c))
		return SPS_OK;
	while (*skipped < n) {
		take = c->sub.nsamples - c->sub.position;
		take = take < n - *skipped ? take : n - *skipped;
		if ((e = sps_reader_skip(&c->sub, take)) != SPS_OK)
			return e;
		*skipped += take;
		if (*skipped < n && (e = next_file(c)) != SPS_OK)
			return e == SPS_EEOF ? SPS_OK : e;
	}
	return SPS_OK;
}

static void
chain_close(void *state)
{
	struct chain *c = state;

	if (c == NULL)
		return;
	if (c->current < c->npaths)
		sps_reader_close(&c->sub);
	free(c->gaps);
	free(c->last);
	free(c);
}

static int
chain_raw_exact(void *state)
{
	struct chain *c = state;

	return c->current >= c->npaths || sps_reader_raw_exact(&c->sub);
}

/* Joined inputs are regular files: their cuts are known on opening. */
static const struct sps_source_ops chain_ops = {
	chain_read_raw, chain_read_float, chain_close, chain_skip,
	chain_raw_exact, NULL
};

static enum sps_err
attach_chain(struct sps_reader *r, char *const *paths, int npaths,
    int fill_gaps)
{
	struct chain *c;
	enum sps_err e;
	int i;

	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->gaps = calloc((size_t)npaths, sizeof(uint64_t))) == NULL) {
		free(c);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	c->paths = paths;
	c->npaths = npaths;
	c->fill_gaps = fill_gaps;
	c->current = npaths;	/* nothing open yet */
	r->ops = &chain_ops;
	r->state = c;
	r->name = paths[0];
	if ((e = survey(r, c)) != SPS_OK)
		return e;
	c->nvalues = sps_spectrum_values(&r->hdr);
	if ((c->last = calloc(c->nvalues, sizeof(float))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < npaths; i++)
		r->gap_spectra += c->gaps[i];
	c->current = 0;
	return sps_reader_open(&c->sub, paths[0]);
}

enum sps_err
sps_reader_open_many(struct sps_reader *r, char *const *paths, int npaths)
{
	return sps_reader_open_joined(r, paths, npaths, 0);
}

enum sps_err
sps_reader_open_joined(struct sps_reader *r, char *const *paths, int npaths,
    int fill_gaps)
{
	enum sps_err e;

	if (npaths == 1)
		return sps_reader_open(r, paths[0]);
	sps_reader_reset(r);
	if (npaths < 1)
		return sps_fail(SPS_EUSAGE, "no input");
	if (sps_reader_is_fits(paths[0]))
		e = sps_reader_attach_psrfits(r, paths, npaths);
	else
		e = attach_chain(r, paths, npaths, fill_gaps);
	if (e != SPS_OK)
		sps_reader_close(r);
	return e;
}

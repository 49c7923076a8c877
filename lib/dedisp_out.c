/* dedisp_out.c: the outputs of dedispersion (dedisp_out.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bytewriter.h"
#include "clock.h"
#include "dedisp_engine.h"
#include "dedisp_out.h"
#include "dmtime.h"
#include "presto.h"
#include "reader.h"
#include "writer.h"

struct sps_dedisp_out {
	struct sps_dedisp_out_opts o;
	int			 ntrials;
	struct sps_writer	 stream;
	struct sps_header	 stream_hdr;
	struct sps_writer	*tim;	/* per trial, or NULL: the stream */
	struct sps_writer	*dat;	/* per trial, or NULL */
	struct sps_header	*tim_hdr;
	uint64_t		*written;	/* samples per trial */
	int			 started;	/* headers written */
	unsigned long long	 nclipped;
	struct sps_bytewriter *packed;	/* an integer stream's */
	int			 gpu_asked;	/* to pack the next gulps */
	int			 in_nchans;	/* for the .inf files */
	double			 in_foff, flow;
};

static double
edge_frequency(const struct sps_header *h, int top)
{
	double a = sps_channel_freq(h, 0), b = sps_channel_freq(h,
	    h->nchans - 1);

	return top ? fmax(a, b) : fmin(a, b);
}

static enum sps_err
series_header(struct sps_header *out, const struct sps_header *in)
{
	enum sps_err e;

	if ((e = sps_header_copy(out, in)) != SPS_OK)
		return e;
	out->nchans = 1;
	out->nifs = 1;
	out->nbits = 32;
	out->data_type = 2;
	out->fch1 = edge_frequency(in, 1);
	out->foff = 0;
	out->nfchannel = 0;
	free(out->fchannel);
	out->fchannel = NULL;
	sps_header_mark(out, "data_type");
	sps_header_mark(out, "fch1");
	sps_header_unmark(out, "foff");
	sps_header_unmark(out, "signed");
	sps_header_unmark(out, "nsamples");
	sps_header_unmark(out, "nbeams");
	sps_header_unmark(out, "ibeam");
	return SPS_OK;
}

enum sps_err
sps_dedisp_stream_header(struct sps_header *h, const struct sps_header *in,
    const double *dms, const int *scrunch, int ntrials, int nbits,
    size_t block, size_t max_delay, uint64_t nsamples)
{
	enum sps_err e;

	if ((e = series_header(h, in)) != SPS_OK)
		return e;
	h->nbits = nbits;
	h->sps_dmtime = 1;
	h->sps_block = (int)block;
	h->sps_maxdelay = (int)max_delay;
	h->sps_nchans_in = in->nchans;
	sps_header_mark(h, "sps_dmtime");
	sps_header_mark(h, "sps_block");
	sps_header_mark(h, "sps_maxdelay");
	sps_header_mark(h, "sps_nchans_in");
	if (nsamples != SPS_NSAMPLES_UNKNOWN && nsamples <= INT32_MAX) {
		h->nsamples = (int)nsamples;
		sps_header_mark(h, "nsamples");
	}
	return sps_header_set_dms(h, dms, scrunch, ntrials);
}

static enum sps_err
open_stream(struct sps_dedisp_out *o, const struct sps_header *in,
    const double *dms, const int *scrunch, size_t block, size_t max_delay,
    uint64_t nsamples)
{
	enum sps_err e;

	if ((e = sps_dedisp_stream_header(&o->stream_hdr, in, dms, scrunch,
	    o->ntrials, o->o.nbits, block, max_delay, nsamples)) != SPS_OK)
		return e;
	return sps_writer_open(&o->stream, NULL);
}

static enum sps_err
raise_file_limit(int need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return SPS_OK;
	if (rl.rlim_cur < (rlim_t)need + 16) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)need +
	    16)
		return sps_fail(SPS_EVALUE, "%d output files need more open "
		    "files than the limit of %llu (ulimit -n)", need,
		    (unsigned long long)rl.rlim_cur);
	return SPS_OK;
}

/* File names carry two decimals of the DM: no two trials may share one. */
static enum sps_err
check_names(const struct sps_dedisp_out *o, const double *dms)
{
	char a[64], b[64];
	int i;

	for (i = 1; o->o.prefix != NULL && i < o->ntrials; i++) {
		snprintf(a, sizeof(a), "%.2f", dms[i - 1]);
		snprintf(b, sizeof(b), "%.2f", dms[i]);
		if (strcmp(a, b) == 0)
			return sps_fail(SPS_EVALUE, "trials %d and %d (DM %g "
			    "and %g) would both be written to %s_DM%s.tim: "
			    "file names carry two decimals", i - 1, i,
			    dms[i - 1], dms[i], o->o.prefix, a);
	}
	return SPS_OK;
}

/* Open PREFIX_DMd.dd.SUFFIX (or the standard output without a prefix). */
static enum sps_err
open_named(struct sps_writer *w, const char *prefix, double dm,
    const char *suffix)
{
	enum sps_err e;
	char *path;

	if (prefix == NULL)
		return sps_writer_open(w, NULL);
	if (asprintf(&path, "%s_DM%.2f.%s", prefix, dm, suffix) < 0)
		return sps_fail(SPS_ENOMEM, "out of memory");
	e = sps_writer_open(w, path);
	free(path);
	return e;
}

static enum sps_err
open_series(struct sps_dedisp_out *o, const struct sps_header *in,
    const double *dms, const int *scrunch)
{
	size_t n = (size_t)o->ntrials;
	enum sps_err e;
	size_t i;

	if ((e = check_names(o, dms)) != SPS_OK ||
	    (e = raise_file_limit(o->o.presto ? 2 * o->ntrials :
	    o->ntrials)) != SPS_OK)
		return e;
	o->tim = calloc(n, sizeof(*o->tim));
	o->tim_hdr = calloc(n, sizeof(*o->tim_hdr));
	if (o->o.presto && o->o.prefix != NULL)
		o->dat = calloc(n, sizeof(*o->dat));
	if (o->tim == NULL || o->tim_hdr == NULL || (o->o.presto &&
	    o->o.prefix != NULL && o->dat == NULL))
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		if ((e = series_header(&o->tim_hdr[i], in)) != SPS_OK)
			return e;
		o->tim_hdr[i].refdm = dms[i];
		o->tim_hdr[i].tsamp = in->tsamp * scrunch[i];
		sps_header_mark(&o->tim_hdr[i], "refdm");
		if ((e = open_named(&o->tim[i], o->o.prefix, dms[i], "tim")) !=
		    SPS_OK)
			return e;
		if (o->dat != NULL && (e = open_named(&o->dat[i], o->o.prefix,
		    dms[i], "dat")) != SPS_OK)
			return e;
	}
	return SPS_OK;
}

enum sps_err
sps_dedisp_out_open(struct sps_dedisp_out **op,
    const struct sps_dedisp_out_opts *opts, const struct sps_header *in,
    const double *dms, const int *scrunch, int ntrials, size_t block,
    size_t max_delay, uint64_t nsamples)
{
	struct sps_dedisp_out *o;
	enum sps_err e;

	*op = NULL;
	if ((o = calloc(1, sizeof(*o))) == NULL ||
	    (o->written = calloc((size_t)ntrials, sizeof(uint64_t))) == NULL) {
		free(o);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	o->o = *opts;
	o->ntrials = ntrials;
	o->in_nchans = in->nchans;
	o->in_foff = in->foff;
	o->flow = edge_frequency(in, 0);
	sps_header_init(&o->stream_hdr);
	if (o->o.prefix != NULL || o->o.series)
		e = open_series(o, in, dms, scrunch);
	else
		e = open_stream(o, in, dms, scrunch, block, max_delay,
		    nsamples);
	if (e != SPS_OK) {
		sps_dedisp_out_abort(o);
		return e;
	}
	*op = o;
	return SPS_OK;
}

/* An integer block packed here and written by the stream's thread
 * (bytewriter.h), from three slots: a reader that starts late, or takes
 * a block at a time, then finds the next packed and waiting. */
#define STREAM_SLOTS	3

static enum sps_err
pack_stream_block(struct sps_dedisp_out *o, const float *out, size_t nout)
{
	struct sps_dmtime_scratch *buf;
	double t0 = sps_clock(), t1;
	size_t bytes = 0;
	enum sps_err e;

	if ((o->packed == NULL && (e = sps_bytewriter_start(&o->packed,
	    o->stream.f, STREAM_SLOTS)) != SPS_OK) ||
	    (e = sps_bytewriter_next(o->packed, &buf)) != SPS_OK)
		return e;
	t1 = sps_clock();
	if ((e = sps_dmtime_pack_block(&o->stream_hdr, out, nout, &o->nclipped,
	    buf, &bytes)) != SPS_OK)
		return e;
	sps_bytewriter_submit(o->packed, buf->raw, bytes);
	sps_trace("stream: a block packed in %.1f ms after %.1f ms waiting "
	    "for the writer", (sps_clock() - t1) * 1e3, (t1 - t0) * 1e3);
	return SPS_OK;
}

static enum sps_err
stream_block(struct sps_dedisp_out *o, const float *out, size_t nout)
{
	enum sps_err e;

	if (!o->started) {
		if (o->stream_hdr.nbits != 32)
			sps_dmtime_choose_scale(&o->stream_hdr, out, nout);
		if ((e = sps_writer_header(&o->stream, &o->stream_hdr)) !=
		    SPS_OK)
			return e;
		o->started = 1;
	}
	if (o->stream_hdr.nbits == 32)
		e = sps_dmtime_write_block(o->stream.f, &o->stream_hdr, out,
		    nout, &o->nclipped);
	else
		e = pack_stream_block(o, out, nout);
	return e == SPS_EIO ? sps_writer_failed(&o->stream, e) : e;
}

enum sps_err
sps_dedisp_out_block(struct sps_dedisp_out *o,
    const struct sps_dedisp_plan *plan, const float *out, size_t nout)
{
	enum sps_err e = SPS_OK;
	int i;

	if (o->tim == NULL)
		return stream_block(o, out, nout);
	for (i = 0; !o->started && i < o->ntrials && e == SPS_OK; i++)
		e = sps_writer_header(&o->tim[i], &o->tim_hdr[i]);
	o->started = 1;
	for (i = 0; i < o->ntrials && e == SPS_OK; i++) {
		size_t at = sps_dedisp_out_offset(plan, nout, i);
		size_t m = sps_dedisp_out_offset(plan, nout, i + 1) - at;

		e = sps_writer_raw(&o->tim[i], out + at, m * sizeof(float));
		if (e == SPS_OK && o->dat != NULL)
			e = sps_writer_raw(&o->dat[i], out + at, m *
			    sizeof(float));
		o->written[i] += m;
	}
	return e;
}

/* A block the engine packed (its 8 opening bytes first), written from
 * a copy: the engine's buffer takes the gulp after next. */
static enum sps_err
packed_block(struct sps_dedisp_out *o, const unsigned char *raw,
    size_t bytes, unsigned long long clipped)
{
	enum sps_err e;

	if (o->tim != NULL || !o->started || o->packed == NULL)
		return sps_fail(SPS_EUSAGE, "a packed block before the "
		    "stream's first");
	if ((e = sps_bytewriter_copy(o->packed, raw, bytes)) != SPS_OK)
		return e == SPS_EIO ? sps_writer_failed(&o->stream, e) : e;
	o->nclipped += clipped;
	return SPS_OK;
}

enum sps_err
sps_dedisp_out_engine_block(struct sps_dedisp_out *o,
    struct sps_dedisp_engine *eng, const float *out, size_t nout)
{
	unsigned long long clipped;
	const unsigned char *raw;
	enum sps_err e;
	size_t bytes;

	if ((raw = sps_dedisp_engine_packed(eng, &bytes, &clipped)) != NULL)
		e = packed_block(o, raw, bytes, clipped);
	else
		e = sps_dedisp_out_block(o, sps_dedisp_engine_plan(eng), out,
		    nout);
	/* the scale is set: the GPU may pack what comes next
	 * (SPS_GPU_HOST_PACK, for tests, leaves it to the host) */
	if (e == SPS_OK && !o->gpu_asked && o->tim == NULL && o->started &&
	    o->stream_hdr.nbits != 32) {
		o->gpu_asked = 1;
		if (getenv("SPS_GPU_HOST_PACK") == NULL)
			(void)sps_dedisp_engine_pack(eng, o->stream_hdr.nbits,
			    o->stream_hdr.sps_scale, o->stream_hdr.sps_offset);
	}
	return e;
}

/* PREFIX_DMd.dd.inf for the .dat of trial i. */
static enum sps_err
write_inf(const struct sps_dedisp_out *o, int i)
{
	const struct sps_header *tim = &o->tim_hdr[i];
	struct sps_presto_inf inf = { NULL, o->written[i], { o->in_nchans,
	    fabs(o->in_foff), o->flow }, "sps-dedisperse",
	    "Dedispersed by sps to the top of the band" };
	enum sps_err e;
	char *root;

	if (asprintf(&root, "%s_DM%.2f", o->o.prefix, tim->refdm) < 0)
		return sps_fail(SPS_ENOMEM, "out of memory");
	inf.root = root;
	e = sps_presto_save_inf(tim, &inf);
	free(root);
	return e;
}

static void
release(struct sps_dedisp_out *o)
{
	int i;

	for (i = 0; o->tim_hdr != NULL && i < o->ntrials; i++)
		sps_header_free(&o->tim_hdr[i]);
	sps_header_free(&o->stream_hdr);
	free(o->tim);
	free(o->dat);
	free(o->tim_hdr);
	free(o->written);
	free(o);
}

enum sps_err
sps_dedisp_out_close(struct sps_dedisp_out *o)
{
	enum sps_err e = SPS_OK;
	int i;

	if (o->packed != NULL) {
		e = sps_bytewriter_finish(o->packed);
		o->packed = NULL;
		if (e != SPS_OK)
			e = sps_writer_failed(&o->stream, e);
	}
	if (o->tim == NULL && e == SPS_OK)
		e = sps_writer_close(&o->stream);
	for (i = 0; o->tim != NULL && i < o->ntrials && e == SPS_OK; i++) {
		e = sps_writer_close(&o->tim[i]);
		if (e == SPS_OK && o->dat != NULL &&
		    (e = sps_writer_close(&o->dat[i])) == SPS_OK)
			e = write_inf(o, i);
	}
	if (e != SPS_OK) {
		sps_dedisp_out_abort(o);
		return e;
	}
	release(o);
	return SPS_OK;
}

void
sps_dedisp_out_abort(struct sps_dedisp_out *o)
{
	int i;

	if (o == NULL)
		return;
	sps_bytewriter_abort(o->packed);
	o->packed = NULL;
	if (o->tim == NULL)
		sps_writer_abort(&o->stream);
	for (i = 0; o->tim != NULL && i < o->ntrials; i++) {
		sps_writer_abort(&o->tim[i]);
		if (o->dat != NULL)
			sps_writer_abort(&o->dat[i]);
	}
	release(o);
}

unsigned long long
sps_dedisp_out_clipped(const struct sps_dedisp_out *o)
{
	return o->nclipped;
}

/* dmtime_in.c: a search's input, stream or series (dmtime_in.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "codec.h"
#include "dmtime.h"
#include "dmtime_in.h"
#include "pipewide.h"
#include "presto.h"

static enum sps_err
check_stream(struct sps_dmtime_in *in)
{
	struct sps_header *h = &in->hdr;

	if (h->ndms < 1 || h->dms == NULL || h->sps_block < 1)
		return sps_fail(SPS_EFORMAT, "%s: DM-time stream without a DM "
		    "table or block size", in->name);
	if (h->nbits != 8 && h->nbits != 16 && h->nbits != 32)
		return sps_fail(SPS_EFORMAT, "%s: DM-time stream of %d bits",
		    in->name, h->nbits);
	if (sps_header_has(h, "nsamples") && h->nsamples > 0)
		in->nsamples = (uint64_t)h->nsamples;
	in->max_block = (size_t)h->sps_block;
	in->max_values = sps_dmtime_block_values(h, in->max_block);
	in->max_packed = sps_dmtime_block_bytes(h, in->max_block);
	return SPS_OK;
}

static enum sps_err
check_series(struct sps_dmtime_in *in)
{
	struct sps_header *h = &in->hdr;
	struct stat st;

	if (h->sps_dmtime != 0 || h->sps_order != 0 || !sps_is_timeseries(h) ||
	    h->nchans != 1)
		return sps_fail(SPS_EFORMAT, "%s: not a DM-time stream or a "
		    "time series (%d channels: dedisperse it with "
		    "sps-dedisperse)", in->name, h->nchans);
	if (h->nifs > 1)
		return sps_fail(SPS_EFORMAT, "%s: time series of %d IFs",
		    in->name, h->nifs);
	in->is_series = 1;
	if (!in->is_dat && fstat(fileno(in->f), &st) == 0 &&
	    S_ISREG(st.st_mode) && (uint64_t)st.st_size > h->length)
		in->nsamples = ((uint64_t)st.st_size - h->length) * 8 /
		    (uint64_t)h->nbits;
	in->max_block = SPS_SERIES_BLOCK;
	in->max_values = SPS_SERIES_BLOCK;
	if ((in->raw = malloc(sps_packed_bytes(SPS_SERIES_BLOCK,
	    h->nbits))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	return SPS_OK;
}

static enum sps_err
open_presto(struct sps_dmtime_in *in, const char *path)
{
	enum sps_err e;

	fclose(in->f);
	if ((e = sps_presto_open_dat(path, &in->f, &in->hdr, &in->nsamples)) !=
	    SPS_OK)
		return e;
	in->is_dat = 1;
	in->left = in->nsamples;
	return SPS_OK;
}

/* The header: SIGPROC's, or a PRESTO .dat's from its .inf. */
static enum sps_err
read_header(struct sps_dmtime_in *in, const char *path)
{
	unsigned char head[16];
	enum sps_err e;
	size_t n;

	n = fread(head, 1, sizeof(head), in->f);
	if (n < sizeof(head) && ferror(in->f))
		return sps_fail(SPS_EIO, "%s: %s", in->name, strerror(errno));
	if (in->f == stdin && sps_presto_not_sigproc(head, n))
		return sps_fail(SPS_EFORMAT, "stdin: not a SIGPROC file (no "
		    "HEADER_START at byte 0); a PRESTO .dat cannot be read "
		    "from standard input: name the file, its .inf beside it");
	if (sps_presto_is_dat(path, head, n))
		return open_presto(in, path);
	if ((e = sps_header_read(in->f, n > 0 ? head : NULL, n, &in->hdr)) !=
	    SPS_OK)
		return sps_fail(e, "%s: %s", in->name, sps_errmsg());
	return SPS_OK;
}

enum sps_err
sps_dmtime_in_open(struct sps_dmtime_in *in, const char *path)
{
	struct sps_header *h = &in->hdr;
	enum sps_err e;

	memset(in, 0, sizeof(*in));
	if (strcmp(path, "-") == 0) {
		in->f = stdin;
		in->name = "stdin";
		sps_pipe_widen(STDIN_FILENO);
	} else {
		in->name = path;
		if ((in->f = fopen(path, "rb")) == NULL)
			return sps_fail(SPS_EIO, "%s: %s", path,
			    strerror(errno));
	}
	if ((e = read_header(in, path)) != SPS_OK)
		return e;
	if (h->sps_dmtime == 2)
		return sps_fail(SPS_EFORMAT, "%s: an S/N plane (sps-boxcar "
		    "--plane), not DM-time data", in->name);
	if (!(h->tsamp > 0))
		return sps_fail(SPS_EFORMAT, "%s: tsamp %g is not a sampling "
		    "time", in->name, h->tsamp);
	if (h->sps_dmtime == 1)
		return check_stream(in);
	return check_series(in);
}

/* A series: whole bytes of samples (of a .dat, the samples its .inf
 * gives). */
static enum sps_err
read_series(struct sps_dmtime_in *in, float *values, size_t *n)
{
	int nbits = in->hdr.nbits;
	size_t bytes = sps_packed_bytes(SPS_SERIES_BLOCK, nbits), got;

	if (in->is_dat && in->left < SPS_SERIES_BLOCK)
		bytes = (size_t)in->left * sizeof(float);
	got = fread(in->raw, 1, bytes, in->f);
	if (ferror(in->f))
		return sps_fail(SPS_EIO, "%s: %s", in->name, strerror(errno));
	*n = got * 8 / (size_t)nbits;
	if (*n * (size_t)nbits != got * 8)
		return sps_fail(SPS_ETRUNC, "%s: truncated data: %zu bytes "
		    "after the last whole sample", in->name, got - *n *
		    (size_t)nbits / 8);
	if (in->is_dat && got < bytes)
		return sps_fail(SPS_ETRUNC, "%s: ends after %llu of the %llu "
		    "samples its .inf gives", in->name, (unsigned long long)
		    (in->nsamples - in->left + *n),
		    (unsigned long long)in->nsamples);
	if (in->is_dat)
		in->left -= *n;
	sps_unpack(in->raw, values, *n, nbits, nbits == 8 &&
	    in->hdr.sign < 0);
	return SPS_OK;
}

enum sps_err
sps_dmtime_in_read(struct sps_dmtime_in *in, float *values, size_t *n)
{
	enum sps_err e;

	*n = 0;
	if (in->is_series)
		return read_series(in, values, n);
	e = sps_dmtime_read_block(in->f, &in->hdr, values, n, &in->scratch);
	if (e == SPS_EEOF)
		return SPS_OK;
	if (e != SPS_OK)
		return sps_fail(e, "%s: %s", in->name, sps_errmsg());
	return SPS_OK;
}

int
sps_dmtime_in_packed(const struct sps_dmtime_in *in)
{
	return !in->is_series && (in->hdr.nbits == 8 || in->hdr.nbits == 16);
}

enum sps_err
sps_dmtime_in_read_packed(struct sps_dmtime_in *in, unsigned char *raw,
    size_t *n)
{
	enum sps_err e;

	*n = 0;
	e = sps_dmtime_read_packed(in->f, &in->hdr, raw, n);
	if (e == SPS_EEOF)
		return SPS_OK;
	if (e != SPS_OK)
		return sps_fail(e, "%s: %s", in->name, sps_errmsg());
	return SPS_OK;
}

void
sps_dmtime_in_close(struct sps_dmtime_in *in)
{
	if (in->f != NULL && in->f != stdin)
		fclose(in->f);
	free(in->raw);
	sps_dmtime_scratch_free(&in->scratch);
	sps_header_free(&in->hdr);
	memset(in, 0, sizeof(*in));
}

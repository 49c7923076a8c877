/* dmtime.c: DM-time stream blocks (see dmtime.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "codec.h"
#include "dmtime.h"
#include "pipewide.h"

static const char block_magic[4] = { 'S', 'P', 'S', 'B' };

#define READ_PART	((size_t)4 << 20)	/* bytes read, then unpacked */

size_t
sps_dmtime_trial_offset(const struct sps_header *h, size_t n, int trial)
{
	size_t off = 0;
	int i;

	for (i = 0; i < trial; i++)
		off += n / (size_t)h->scrunch[i];
	return off;
}

size_t
sps_dmtime_block_values(const struct sps_header *h, size_t n)
{
	return sps_dmtime_trial_offset(h, n, h->ndms);
}

/* raw = round((v - offset * f) / (scale * sqrt f)) + mid, mid keeps 0
 * at the middle of the unsigned range. */
static size_t
pack_trial(const struct sps_header *h, int f, const float *v, size_t n,
    unsigned char *raw, float *tmp)
{
	double mid = h->nbits == 8 ? 128 : 32768;
	double scale = h->sps_scale * sqrt((double)f);
	double offset = h->sps_offset * f - mid * scale;
	size_t j;

	for (j = 0; j < n; j++)
		tmp[j] = (float)((v[j] - offset) / scale);
	return sps_pack(tmp, raw, n, h->nbits, 0);
}

enum sps_err
sps_dmtime_write_frame(FILE *out, size_t n)
{
	int32_t n32 = (int32_t)n;

	if (fwrite(block_magic, 1, 4, out) != 4 ||
	    fwrite(&n32, 4, 1, out) != 1)
		return sps_fail(SPS_EIO, "write error: %s", strerror(errno));
	return SPS_OK;
}

/* Trial i's first value in a block of n, from its packed offset (8 and
 * 16 bits pack whole values in whole bytes). */
static size_t
value_offset(const struct sps_header *h, const size_t *at, int i)
{
	return at[i] * 8 / (size_t)h->nbits;
}

/* Where each trial's packed bytes begin in a block of n base samples;
 * at[ndms] is the block's size.  NULL when out of memory. */
static size_t *
packed_offsets(const struct sps_header *h, size_t n)
{
	size_t *at = malloc(((size_t)h->ndms + 1) * sizeof(*at));
	int i;

	if (at == NULL)
		return NULL;
	at[0] = 0;
	for (i = 0; i < h->ndms; i++)
		at[i + 1] = at[i] + sps_packed_bytes(n / (size_t)h->scrunch[i],
		    h->nbits);
	return at;
}

/* Every trial packed into raw (laid out by at), by several threads:
 * the stream must keep up with the GPU.  The values clipped, or -1 when
 * out of memory. */
static long long
pack_block(const struct sps_header *h, const float *values, size_t n,
    const size_t *at, unsigned char *raw)
{
	long long clipped = 0;
	int failed = 0;

#pragma omp parallel reduction(+:clipped)
	{
		float *tmp = malloc((n + 1) * sizeof(float));
		int i;

		if (tmp == NULL) {
#pragma omp atomic write
			failed = 1;
		}
#pragma omp for schedule(dynamic, 16)
		for (i = 0; i < h->ndms; i++)
			if (tmp != NULL)
				clipped += (long long)pack_trial(h,
				    h->scrunch[i], values +
				    value_offset(h, at, i),
				    n / (size_t)h->scrunch[i], raw + at[i], tmp);
		free(tmp);
	}
	return failed ? -1 : clipped;
}

void
sps_dmtime_scratch_free(struct sps_dmtime_scratch *s)
{
	if (s->raw != NULL)
		munmap(s->raw, s->cap);
	s->raw = NULL;
	s->cap = 0;
}

/* Whole pages of their own (pipewide.h's lending replaces them). */
unsigned char *
sps_dmtime_scratch_room(struct sps_dmtime_scratch *s, size_t bytes)
{
	size_t len;
	void *p;

	if (bytes <= s->cap)
		return s->raw;
	sps_dmtime_scratch_free(s);
	if ((p = sps_pipe_pages(NULL, bytes, &len)) == NULL)
		return NULL;
	s->raw = p;
	s->cap = len;
	return s->raw;
}

enum sps_err
sps_dmtime_pack_block(const struct sps_header *h, const float *values,
    size_t n, unsigned long long *nclipped, struct sps_dmtime_scratch *s,
    size_t *bytes)
{
	unsigned char *raw;
	long long clipped = -1;
	int32_t n32 = (int32_t)n;
	size_t *at;

	if ((at = packed_offsets(h, n)) != NULL &&
	    (raw = sps_dmtime_scratch_room(s, 8 + at[h->ndms] + 1)) != NULL) {
		memcpy(raw, block_magic, 4);
		memcpy(raw + 4, &n32, 4);
		clipped = pack_block(h, values, n, at, raw + 8);
		*bytes = 8 + at[h->ndms];
	}
	free(at);
	if (clipped < 0)
		return sps_fail(SPS_ENOMEM, "out of memory");
	*nclipped += (unsigned long long)clipped;
	return SPS_OK;
}

enum sps_err
sps_dmtime_write_block(FILE *out, const struct sps_header *h,
    const float *values, size_t n, unsigned long long *nclipped)
{
	size_t total = sps_dmtime_block_values(h, n), bytes = 0;
	struct sps_dmtime_scratch own = { NULL, 0 };
	enum sps_err e;

	if (h->nbits == 32) {
		if ((e = sps_dmtime_write_frame(out, n)) != SPS_OK)
			return e;
		if (fwrite(values, sizeof(float), total, out) != total)
			return sps_fail(SPS_EIO, "write error: %s",
			    strerror(errno));
		return SPS_OK;
	}
	if ((e = sps_dmtime_pack_block(h, values, n, nclipped, &own, &bytes))
	    == SPS_OK && fwrite(own.raw, 1, bytes, out) != bytes)
		e = sps_fail(SPS_EIO, "write error: %s", strerror(errno));
	sps_dmtime_scratch_free(&own);
	return e;
}

static enum sps_err
read_exact(FILE *in, void *buf, size_t len, const char *what)
{
	size_t got = fread(buf, 1, len, in);

	if (got == len)
		return SPS_OK;
	if (ferror(in))
		return sps_fail(SPS_EIO, "read error: %s", strerror(errno));
	return sps_fail(SPS_ETRUNC, "DM-time stream cut short in %s (%zu of "
	    "%zu bytes)", what, got, len);
}

/* One pass from the packed bytes to the values (the arithmetic of a
 * float unpacked first, which is exact, then scaled). */
static void
unpack_trial(const struct sps_header *h, int f, const unsigned char *raw,
    size_t m, float *v)
{
	double scale = h->sps_scale * sqrt((double)f);
	double off = h->sps_offset * f;
	size_t j;

	if (h->nbits == 8)
		for (j = 0; j < m; j++)
			v[j] = (float)((raw[j] - 128.0) * scale + off);
	else
		for (j = 0; j < m; j++)
			v[j] = (float)(((raw[2 * j] | raw[2 * j + 1] << 8) -
			    32768.0) * scale + off);
}

/* Bytes from .. to of a block of total read into raw. */
static enum sps_err
read_part(FILE *in, unsigned char *raw, size_t from, size_t to, size_t total)
{
	size_t got = fread(raw + from, 1, to - from, in);

	if (got == to - from)
		return SPS_OK;
	if (ferror(in))
		return sps_fail(SPS_EIO, "read error: %s", strerror(errno));
	return sps_fail(SPS_ETRUNC, "DM-time stream cut short in a block (%zu "
	    "of %zu bytes)", from + got, total);
}

/* Trials i0 .. i1 - 1 of a block of n base samples unpacked. */
static void
unpack_trials(const struct sps_header *h, const unsigned char *raw,
    const size_t *at, int i0, int i1, size_t n, float *values)
{
	for (int i = i0; i < i1; i++)
		unpack_trial(h, h->scrunch[i], raw + at[i], n /
		    (size_t)h->scrunch[i], values + value_offset(h, at, i));
}

enum sps_err
sps_dmtime_read_frame(FILE *in, const struct sps_header *h, size_t *n)
{
	unsigned char head[8];
	size_t got;
	int32_t n32;

	*n = 0;
	got = fread(head, 1, 8, in);
	if (got == 0 && !ferror(in))
		return SPS_EEOF;
	if (got < 8)
		return read_exact(in, head + got, 8 - got, "a block header");
	memcpy(&n32, head + 4, 4);
	if (memcmp(head, block_magic, 4) != 0 || n32 < 1 ||
	    n32 > h->sps_block)
		return sps_fail(SPS_EFORMAT, "corrupt DM-time stream: bad "
		    "block header");
	*n = (size_t)n32;
	return SPS_OK;
}

enum sps_err
sps_dmtime_read_block(FILE *in, const struct sps_header *h, float *values,
    size_t *n, struct sps_dmtime_scratch *s)
{
	struct sps_dmtime_scratch own = { NULL, 0 };
	unsigned char *raw = NULL;
	enum sps_err e;
	size_t *at;
	int i;

	if ((e = sps_dmtime_read_frame(in, h, n)) != SPS_OK)
		return e;
	if (h->nbits == 32)
		return read_exact(in, values, sps_dmtime_block_values(h, *n) *
		    sizeof(float), "a block");
	if (s == NULL)
		s = &own;
	if ((at = packed_offsets(h, *n)) == NULL ||
	    (raw = sps_dmtime_scratch_room(s, at[h->ndms] + 1)) == NULL) {
		free(at);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	/* the calling thread reads a part at a time (its errors are its
	 * own), the others unpack each part read while it reads the next */
#pragma omp parallel
#pragma omp master
	for (i = 0; i < h->ndms && e == SPS_OK; ) {
		int i0 = i;

		for (i++; i < h->ndms && at[i] - at[i0] < READ_PART; i++)
			;
		if ((e = read_part(in, raw, at[i0], at[i], at[h->ndms])) ==
		    SPS_OK) {
			int i1 = i;
#pragma omp task firstprivate(i0, i1)
			unpack_trials(h, raw, at, i0, i1, *n, values);
		}
	}
	free(at);
	sps_dmtime_scratch_free(&own);
	return e;
}

size_t
sps_dmtime_block_bytes(const struct sps_header *h, size_t n)
{
	size_t bytes = 0;
	int i;

	for (i = 0; i < h->ndms; i++)
		bytes += sps_packed_bytes(n / (size_t)h->scrunch[i], h->nbits);
	return bytes;
}

enum sps_err
sps_dmtime_read_packed(FILE *in, const struct sps_header *h,
    unsigned char *raw, size_t *n)
{
	enum sps_err e;
	size_t bytes;

	if (h->nbits != 8 && h->nbits != 16)
		return sps_fail(SPS_EUSAGE, "packed blocks of %d bits",
		    h->nbits);
	if ((e = sps_dmtime_read_frame(in, h, n)) != SPS_OK)
		return e;
	bytes = sps_dmtime_block_bytes(h, *n);
	return read_part(in, raw, 0, bytes, bytes);
}

/* One trial's sum of v (squares: of (v - mean f)^2) over f, in four
 * partial sums: a single chain of additions would wait on each. */
static double
trial_sum(const float *v, size_t m, double f, double mean, int squares)
{
	double s[4] = { 0, 0, 0, 0 }, c = squares ? mean * f : 0;
	size_t j;
	int k;

	for (j = 0; j < m; j++) {
		double d = v[j] - c;

		s[j % 4] += squares ? d * d : d;
	}
	for (k = 0; k < 4; k++)
		s[k] /= f;
	return (s[0] + s[1]) + (s[2] + s[3]);
}

/* Sum over every trial's values of g(v, f): the trials' sums made side
 * by side, added in trial order, so that the result does not hang on
 * the threads (nor on memory for the sums: without it, one by one). */
static double
sum_over(const struct sps_header *h, const float *values, size_t n,
    double mean, int squares, double *count)
{
	size_t *at = malloc(((size_t)h->ndms + 1) * sizeof(*at));
	double *part = malloc((size_t)h->ndms * sizeof(*part)), sum = 0;
	int apart = at != NULL && part != NULL, i;

	*count = 0;
	if (apart) {
		at[0] = 0;
		for (i = 0; i < h->ndms; i++)
			at[i + 1] = at[i] + n / (size_t)h->scrunch[i];
#pragma omp parallel for schedule(dynamic, 16)
		for (i = 0; i < h->ndms; i++)
			part[i] = trial_sum(values + at[i], at[i + 1] - at[i],
			    h->scrunch[i], mean, squares);
	}
	for (i = 0; i < h->ndms; i++) {
		size_t m = n / (size_t)h->scrunch[i];

		sum += apart ? part[i] : trial_sum(values, m, h->scrunch[i],
		    mean, squares);
		values += m;
		*count += (double)m;
	}
	free(at);
	free(part);
	return sum;
}

void
sps_dmtime_choose_scale(struct sps_header *h, const float *values, size_t n)
{
	double count, mean = 0, var = 1;

	if (sps_dmtime_block_values(h, n) > 1) {
		mean = sum_over(h, values, n, 0, 0, &count) / count;
		var = sum_over(h, values, n, mean, 1, &count) / count;
	}
	h->sps_offset = mean;
	/* 8-bit: +-16 rms (a level is rms / 8: quantisation noise 0.036
	 * rms); 16-bit: +-256 rms (a level is rms / 128) */
	h->sps_scale = (var > 0 ? sqrt(var) : 1) * (h->nbits == 8 ? 32.0 :
	    512.0) / (1 << h->nbits);
	sps_header_mark(h, "sps_scale");
	sps_header_mark(h, "sps_offset");
}

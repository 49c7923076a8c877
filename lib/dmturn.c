/* dmturn.c: DM-time stream <-> DM-major file (dmturn.h). */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dmturn.h"
#include "dmtime.h"

static size_t
value_bytes(const struct sps_header *h)
{
	return (size_t)h->nbits / 8;
}

uint64_t
sps_dmturn_trial_samples(const struct sps_header *h, int trial, uint64_t n)
{
	uint64_t block = (uint64_t)h->sps_block, f = (uint64_t)h->scrunch[trial];

	return n / block * (block / f) + n % block / f;
}

static enum sps_err
io_fail(const char *what)
{
	return sps_fail(SPS_EIO, "%s: %s", what, strerror(errno));
}

/* Raw block reading: the values of a block as bytes, trial after trial;
 * errors name the input. */
static enum sps_err
read_raw_block(FILE *in, const char *name, const struct sps_header *h,
    unsigned char *buf, size_t *n)
{
	enum sps_err e;
	size_t len;

	if ((e = sps_dmtime_read_frame(in, h, n)) == SPS_EEOF)
		return e;
	if (e != SPS_OK)
		return sps_fail(e, "%s: %s", name, sps_errmsg());
	len = sps_dmtime_block_values(h, *n) * value_bytes(h);
	if (fread(buf, 1, len, in) != len)
		return ferror(in) ? io_fail(name) : sps_fail(SPS_ETRUNC,
		    "%s: DM-time stream cut short in a block", name);
	return SPS_OK;
}

/* Copy the blocks to a temporary file, counting base samples. */
static enum sps_err
spool(FILE *in, const char *name, const struct sps_header *h,
    unsigned char *buf, FILE **tmp, uint64_t *n)
{
	enum sps_err e;
	size_t got;

	if ((*tmp = tmpfile()) == NULL)
		return io_fail("temporary file");
	*n = 0;
	while ((e = read_raw_block(in, name, h, buf, &got)) == SPS_OK) {
		if (sps_dmtime_write_frame(*tmp, got) != SPS_OK ||
		    fwrite(buf, value_bytes(h), sps_dmtime_block_values(h, got),
		    *tmp) != sps_dmtime_block_values(h, got))
			return io_fail("temporary file");
		*n += got;
	}
	if (e != SPS_EEOF)
		return e;
	rewind(*tmp);
	return SPS_OK;
}

static enum sps_err
write_dm_header(FILE *out, const struct sps_header *h, uint64_t n,
    long *data_start)
{
	struct sps_header dm;
	enum sps_err e;

	if (n > INT32_MAX)
		return sps_fail(SPS_EVALUE, "%llu samples: too many for the "
		    "nsamples keyword", (unsigned long long)n);
	if ((e = sps_header_copy(&dm, h)) != SPS_OK)
		return e;
	dm.sps_order = SPS_ORDER_DM_MAJOR;
	dm.nsamples = (int)n;
	sps_header_mark(&dm, "sps_order");
	sps_header_mark(&dm, "nsamples");
	e = sps_header_write(out, &dm);
	*data_start = (long)sps_header_size(&dm);
	sps_header_free(&dm);
	return e;
}

enum sps_err
sps_dmturn_to_dm(FILE *in, const char *name, const struct sps_header *h,
    FILE *out, uint64_t *n)
{
	size_t vb = value_bytes(h), got, i;
	unsigned char *buf = malloc(sps_dmtime_block_values(h,
	    (size_t)h->sps_block) * vb + 1);
	off_t *at = calloc((size_t)h->ndms + 1, sizeof(off_t));
	off_t *end = calloc((size_t)h->ndms + 1, sizeof(off_t));
	FILE *src = in, *tmp = NULL;
	enum sps_err e = SPS_OK;
	long start;

	if (buf == NULL || at == NULL || end == NULL) {
		e = sps_fail(SPS_ENOMEM, "out of memory");
		goto done;
	}
	*n = sps_header_has(h, "nsamples") ? (uint64_t)h->nsamples : 0;
	if (!sps_header_has(h, "nsamples")) {
		if ((e = spool(in, name, h, buf, &tmp, n)) != SPS_OK)
			goto done;
		src = tmp;
		if (*n == 0) {
			e = sps_fail(SPS_ETRUNC, "%s: empty DM-time stream (a "
			    "header and no blocks)", name);
			goto done;
		}
	}
	if ((e = write_dm_header(out, h, *n, &start)) != SPS_OK)
		goto done;
	at[0] = start;
	for (i = 0; i < (size_t)h->ndms; i++)
		at[i + 1] = at[i] + (off_t)(sps_dmturn_trial_samples(h, (int)i,
		    *n) * vb);
	memcpy(end, at + 1, (size_t)h->ndms * sizeof(off_t));
	while ((e = read_raw_block(src, name, h, buf, &got)) == SPS_OK) {
		size_t off = 0;

		for (i = 0; i < (size_t)h->ndms; i++) {
			size_t len = got / (size_t)h->scrunch[i] * vb;

			if (at[i] + (off_t)len > end[i]) {
				e = sps_fail(SPS_EFORMAT, "%s: the DM-time "
				    "stream holds more samples than its "
				    "nsamples %llu", name, (unsigned long long)*n);
				goto done;
			}
			if (fseeko(out, at[i], SEEK_SET) != 0 ||
			    fwrite(buf + off, 1, len, out) != len) {
				e = io_fail("write");
				goto done;
			}
			at[i] += (off_t)len;
			off += len;
		}
	}
	if (e == SPS_EEOF)
		e = SPS_OK;
	for (i = 0; e == SPS_OK && i < (size_t)h->ndms; i++)
		if (at[i] != end[i])
			e = sps_fail(SPS_ETRUNC, "%s: the DM-time stream holds "
			    "fewer samples than its nsamples %llu", name,
			    (unsigned long long)*n);
	if (e == SPS_OK && fseeko(out, 0, SEEK_END) != 0)
		e = io_fail("write");
done:
	if (tmp != NULL)
		fclose(tmp);
	free(buf);
	free(at);
	free(end);
	return e;
}

static enum sps_err
write_time_header(FILE *out, const struct sps_header *h)
{
	struct sps_header t;
	enum sps_err e;

	if ((e = sps_header_copy(&t, h)) != SPS_OK)
		return e;
	t.sps_order = 0;
	sps_header_unmark(&t, "sps_order");
	e = sps_header_write(out, &t);
	sps_header_free(&t);
	return e;
}

enum sps_err
sps_dmturn_to_time(FILE *in, const char *name, const struct sps_header *h,
    FILE *out)
{
	uint64_t n = (uint64_t)h->nsamples, done = 0;
	size_t vb = value_bytes(h), i;
	size_t cap = sps_dmtime_block_values(h, (size_t)h->sps_block) * vb;
	unsigned char *buf = malloc(cap + 1);
	off_t *at = calloc((size_t)h->ndms + 1, sizeof(off_t));
	enum sps_err e = SPS_OK;

	if (buf == NULL || at == NULL) {
		e = sps_fail(SPS_ENOMEM, "out of memory");
		goto done;
	}
	if (!sps_header_has(h, "nsamples") || h->nsamples < 1) {
		e = sps_fail(SPS_EFORMAT, "%s: DM-major file without "
		    "nsamples", name);
		goto done;
	}
	if ((e = write_time_header(out, h)) != SPS_OK)
		goto done;
	at[0] = (off_t)h->length;
	for (i = 0; i < (size_t)h->ndms; i++)
		at[i + 1] = at[i] + (off_t)(sps_dmturn_trial_samples(h, (int)i,
		    n) * vb);
	while (done < n && e == SPS_OK) {
		size_t m = n - done < (uint64_t)h->sps_block ? (size_t)(n -
		    done) : (size_t)h->sps_block, off = 0;

		for (i = 0; i < (size_t)h->ndms && e == SPS_OK; i++) {
			size_t len = m / (size_t)h->scrunch[i] * vb;

			if (fseeko(in, at[i], SEEK_SET) != 0 ||
			    fread(buf + off, 1, len, in) != len)
				e = ferror(in) ? io_fail(name) : sps_fail(
				    SPS_ETRUNC, "%s: DM-major file cut short "
				    "in trial %zu", name, i);
			at[i] += (off_t)len;
			off += len;
		}
		if (e == SPS_OK && (sps_dmtime_write_frame(out, m) != SPS_OK ||
		    fwrite(buf, 1, off, out) != off))
			e = io_fail("write");
		done += m;
	}
done:
	free(buf);
	free(at);
	return e;
}

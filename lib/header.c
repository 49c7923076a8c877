/* header.c: SIGPROC header keywords, reading, writing, checking. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "header.h"

#define KW(name, type, field, origin) \
	{ name, type, offsetof(struct sps_header, field), origin }

/* Order = the order sps writes them: identification, layout, time,
 * frequency, pointing, processing. */
const struct sps_keyword sps_keywords[] = {
	KW("source_name", SPS_KW_STRING, source_name, "SIGPROC"),
	KW("rawdatafile", SPS_KW_STRING, rawdatafile, "SIGPROC"),
	KW("filename", SPS_KW_STRING, filename, "sigpyproc"),
	KW("telescope", SPS_KW_STRING, telescope, "sigpyproc"),
	KW("obs_date", SPS_KW_STRING, obs_date, "sigpyproc"),
	KW("obs_time", SPS_KW_STRING, obs_time, "sigpyproc"),
	KW("telescope_id", SPS_KW_INT, telescope_id, "SIGPROC"),
	KW("machine_id", SPS_KW_INT, machine_id, "SIGPROC"),
	KW("data_type", SPS_KW_INT, data_type, "SIGPROC"),
	KW("barycentric", SPS_KW_INT, barycentric, "SIGPROC"),
	KW("pulsarcentric", SPS_KW_INT, pulsarcentric, "SIGPROC"),
	KW("src_raj", SPS_KW_DOUBLE, src_raj, "SIGPROC"),
	KW("src_dej", SPS_KW_DOUBLE, src_dej, "SIGPROC"),
	KW("az_start", SPS_KW_DOUBLE, az_start, "SIGPROC"),
	KW("za_start", SPS_KW_DOUBLE, za_start, "SIGPROC"),
	KW("refdm", SPS_KW_DOUBLE, refdm, "SIGPROC"),
	KW("period", SPS_KW_DOUBLE, period, "SIGPROC"),
	KW("fch1", SPS_KW_DOUBLE, fch1, "SIGPROC"),
	KW("foff", SPS_KW_DOUBLE, foff, "SIGPROC"),
	KW("nchans", SPS_KW_INT, nchans, "SIGPROC"),
	KW("nbeams", SPS_KW_INT, nbeams, "SIGPROC"),
	KW("ibeam", SPS_KW_INT, ibeam, "SIGPROC"),
	KW("nbits", SPS_KW_INT, nbits, "SIGPROC"),
	KW("signed", SPS_KW_CHAR, sign, "SIGPROC"),
	KW("tstart", SPS_KW_DOUBLE, tstart, "SIGPROC"),
	KW("tsamp", SPS_KW_DOUBLE, tsamp, "SIGPROC"),
	KW("nifs", SPS_KW_INT, nifs, "SIGPROC"),
	KW("nbins", SPS_KW_INT, nbins, "SIGPROC"),
	KW("npuls", SPS_KW_LONG, npuls, "SIGPROC"),
	KW("nsamples", SPS_KW_INT, nsamples, "SIGPROC"),
	KW("bandwidth", SPS_KW_DOUBLE, bandwidth, "sigpyproc"),
	KW("fbottom", SPS_KW_DOUBLE, fbottom, "sigpyproc"),
	KW("ftop", SPS_KW_DOUBLE, ftop, "sigpyproc"),
	KW("flux", SPS_KW_DOUBLE, flux, "sigpyproc"),
	KW("pb", SPS_KW_DOUBLE, pb, "sigpyproc"),
	KW("ecc", SPS_KW_DOUBLE, ecc, "sigpyproc"),
	KW("asini", SPS_KW_DOUBLE, asini, "sigpyproc"),
	KW("accel", SPS_KW_DOUBLE, accel, "sigpyproc"),
	KW("hdrlen", SPS_KW_INT, hdrlen, "sigpyproc"),
	KW("orig_hdrlen", SPS_KW_INT, orig_hdrlen, "sigpyproc"),
	KW("new_hdrlen", SPS_KW_INT, new_hdrlen, "sigpyproc"),
	KW("sampsize", SPS_KW_INT, sampsize, "sigpyproc"),
	KW("sps_order", SPS_KW_INT, sps_order, "sps"),
	KW("sps_block", SPS_KW_INT, sps_block, "sps"),
	KW("sps_dmtime", SPS_KW_INT, sps_dmtime, "sps"),
	KW("sps_maxdelay", SPS_KW_INT, sps_maxdelay, "sps"),
	KW("sps_nchans_in", SPS_KW_INT, sps_nchans_in, "sps"),
	KW("sps_scale", SPS_KW_DOUBLE, sps_scale, "sps"),
	KW("sps_offset", SPS_KW_DOUBLE, sps_offset, "sps"),
};
const int sps_nkeywords = sizeof(sps_keywords) / sizeof(sps_keywords[0]);

int
sps_keyword_find(const char *name)
{
	int i;

	for (i = 0; i < sps_nkeywords; i++)
		if (strcmp(sps_keywords[i].name, name) == 0)
			return i;
	return -1;
}

void
sps_header_init(struct sps_header *h)
{
	memset(h, 0, sizeof(*h));
	h->fchannel = NULL;
	h->dms = NULL;
	h->scrunch = NULL;
}

void
sps_header_free(struct sps_header *h)
{
	if (h == NULL)
		return;
	free(h->fchannel);
	free(h->dms);
	free(h->scrunch);
	h->fchannel = NULL;
	h->nfchannel = 0;
	h->dms = NULL;
	h->scrunch = NULL;
	h->ndms = 0;
}

enum sps_err
sps_header_set_dms(struct sps_header *h, const double *dms,
    const int *scrunch, int ndms)
{
	double *d = malloc((size_t)ndms * sizeof(double));
	int *s = malloc((size_t)ndms * sizeof(int));
	int i;

	if (d == NULL || s == NULL) {
		free(d);
		free(s);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	for (i = 0; i < ndms; i++) {
		d[i] = dms[i];
		s[i] = scrunch != NULL ? scrunch[i] : 1;
	}
	free(h->dms);
	free(h->scrunch);
	h->dms = d;
	h->scrunch = s;
	h->ndms = ndms;
	return SPS_OK;
}

enum sps_err
sps_header_copy(struct sps_header *dst, const struct sps_header *src)
{
	*dst = *src;
	dst->fchannel = NULL;
	dst->dms = NULL;
	dst->scrunch = NULL;
	dst->ndms = 0;
	if (src->nfchannel > 0) {
		size_t len = (size_t)src->nfchannel * sizeof(double);

		if ((dst->fchannel = malloc(len)) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		memcpy(dst->fchannel, src->fchannel, len);
	}
	if (src->ndms > 0)
		return sps_header_set_dms(dst, src->dms, src->scrunch,
		    src->ndms);
	return SPS_OK;
}

int
sps_header_has(const struct sps_header *h, const char *name)
{
	int i = sps_keyword_find(name);

	return i >= 0 && (h->present >> i & 1);
}

void
sps_header_mark(struct sps_header *h, const char *name)
{
	int i = sps_keyword_find(name);

	if (i >= 0)
		h->present |= (uint64_t)1 << i;
}

void
sps_header_unmark(struct sps_header *h, const char *name)
{
	int i = sps_keyword_find(name);

	if (i >= 0)
		h->present &= ~((uint64_t)1 << i);
}

/* Input that first hands out already-sniffed bytes, counting all bytes. */
struct hin {
	FILE			*f;
	const unsigned char	*prefix;
	size_t			 nprefix;
	size_t			 offset;
	size_t			 allowance;	/* DM table bytes, not limited */
};

static enum sps_err
hin_read(struct hin *in, void *buf, size_t len, const char *what)
{
	unsigned char *p = buf;
	size_t take = 0;

	if (in->offset < in->nprefix) {
		take = in->nprefix - in->offset;
		if (take > len)
			take = len;
		memcpy(p, in->prefix + in->offset, take);
	}
	if (take < len && fread(p + take, 1, len - take, in->f) !=
	    len - take) {
		if (ferror(in->f))
			return sps_fail(SPS_EIO, "header: %s", strerror(errno));
		return sps_fail(SPS_ETRUNC,
		    "truncated header: input ends in %s at byte %zu",
		    what, in->offset);
	}
	in->offset += len;
	if (in->offset > SPS_HEADER_MAX + in->allowance)
		return sps_fail(SPS_EFORMAT,
		    "header longer than %d bytes (no HEADER_END by byte %zu)",
		    SPS_HEADER_MAX, in->offset);
	return SPS_OK;
}

/* Read one length-prefixed string into buf (SPS_STRING_MAX + 1 bytes).
 * Keywords must have 1..80 characters, as in SIGPROC.  String values may
 * be empty or longer (up to SPS_VALUE_MAX: some writers store whole
 * paths); they are cut to 80 characters. */
static enum sps_err
read_string(struct hin *in, char *buf, const char *what, int is_value)
{
	size_t at = in->offset;
	char skip[SPS_VALUE_MAX];
	enum sps_err e;
	int32_t len;

	if ((e = hin_read(in, &len, 4, what)) != SPS_OK)
		return e;
	if (is_value ? len < 0 || len > SPS_VALUE_MAX :
	    len < 1 || len > SPS_STRING_MAX)
		return sps_fail(SPS_EFORMAT,
		    "%s at byte %zu has length %d (not in %d..%d)", what, at,
		    (int)len, is_value ? 0 : 1,
		    is_value ? SPS_VALUE_MAX : SPS_STRING_MAX);
	if (len <= SPS_STRING_MAX) {
		if ((e = hin_read(in, buf, (size_t)len, what)) != SPS_OK)
			return e;
		buf[len] = '\0';
		return SPS_OK;
	}
	if ((e = hin_read(in, skip, (size_t)len, what)) != SPS_OK)
		return e;
	memcpy(buf, skip, SPS_STRING_MAX);
	buf[SPS_STRING_MAX] = '\0';
	return SPS_OK;
}

static enum sps_err
read_token(struct hin *in, char *buf, const char *what)
{
	return read_string(in, buf, what, 0);
}

static enum sps_err
read_value(struct hin *in, struct sps_header *h, int k)
{
	const struct sps_keyword *kw = &sps_keywords[k];
	char *field = (char *)h + kw->offset;
	char what[SPS_STRING_MAX + 32];
	enum sps_err e;
	int32_t i32;
	int64_t i64;

	snprintf(what, sizeof(what), "the value of %s", kw->name);
	switch (kw->type) {
	case SPS_KW_STRING:
		return read_string(in, field, what, 1);
	case SPS_KW_INT:
		if ((e = hin_read(in, &i32, 4, what)) != SPS_OK)
			return e;
		*(int *)field = i32;
		return SPS_OK;
	case SPS_KW_DOUBLE:
		return hin_read(in, field, 8, what);
	case SPS_KW_CHAR:
		return hin_read(in, field, 1, what);
	case SPS_KW_LONG:
		if ((e = hin_read(in, &i64, 8, what)) != SPS_OK)
			return e;
		*(long long *)field = i64;
		return SPS_OK;
	}
	return SPS_OK;
}

static enum sps_err
add_fchannel(struct sps_header *h, double f)
{
	double *grown;

	grown = realloc(h->fchannel, ((size_t)h->nfchannel + 1) *
	    sizeof(double));
	if (grown == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	h->fchannel = grown;
	h->fchannel[h->nfchannel++] = f;
	return SPS_OK;
}

/* DM_TABLE: int32 count, then count x (double dm, int32 scrunch). */
static enum sps_err
read_dm_table(struct hin *in, struct sps_header *h, size_t at)
{
	enum sps_err e;
	int32_t n, f;
	double dm;
	int i;

	if ((e = hin_read(in, &n, 4, "the DM_TABLE count")) != SPS_OK)
		return e;
	if (n < 1 || n > SPS_DMS_MAX || h->ndms > 0)
		return sps_fail(SPS_EFORMAT, "DM_TABLE at byte %zu: %d "
		    "trials (not in 1..%d, or a second table)", at, (int)n,
		    SPS_DMS_MAX);
	in->allowance += (size_t)n * 12;
	h->dms = malloc((size_t)n * sizeof(double));
	h->scrunch = malloc((size_t)n * sizeof(int));
	if (h->dms == NULL || h->scrunch == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		if ((e = hin_read(in, &dm, 8, "the DM_TABLE")) != SPS_OK ||
		    (e = hin_read(in, &f, 4, "the DM_TABLE")) != SPS_OK)
			return e;
		if (!isfinite(dm) || f < 1)
			return sps_fail(SPS_EVALUE, "DM_TABLE entry %d: DM %g, "
			    "scrunch %d", i, dm, (int)f);
		h->dms[i] = dm;
		h->scrunch[i] = f;
		h->ndms = i + 1;
	}
	return SPS_OK;
}

static enum sps_err
read_keyword(struct hin *in, struct sps_header *h, const char *name,
    size_t at, int *in_table)
{
	enum sps_err e;
	double f;
	int k;

	if (strcmp(name, "FREQUENCY_START") == 0) {
		*in_table = 1;
		return SPS_OK;
	}
	if (strcmp(name, "FREQUENCY_END") == 0) {
		*in_table = 0;
		return SPS_OK;
	}
	if (strcmp(name, "DM_TABLE") == 0)
		return read_dm_table(in, h, at);
	if (strcmp(name, "fchannel") == 0) {
		/* outside a FREQUENCY table (sigpyproc 0.x) it says nothing
		 * the channel layout needs */
		if ((e = hin_read(in, &f, 8, "the value of fchannel")) != SPS_OK)
			return e;
		return *in_table ? add_fchannel(h, f) : SPS_OK;
	}
	if ((k = sps_keyword_find(name)) < 0)
		return sps_fail(SPS_EFORMAT, "unknown header keyword '%s' at "
		    "byte %zu", name, at);
	if ((e = read_value(in, h, k)) != SPS_OK)
		return e;
	h->present |= (uint64_t)1 << k;
	h->at[k] = (uint32_t)at;
	return SPS_OK;
}

enum sps_err
sps_header_read(FILE *in_file, const unsigned char *prefix, size_t nprefix,
    struct sps_header *h)
{
	struct hin in = { in_file, prefix, nprefix, 0, 0 };
	char token[SPS_STRING_MAX + 1];
	int in_table = 0;
	enum sps_err e;
	size_t at;

	sps_header_init(h);
	if ((e = read_token(&in, token, "the first token")) != SPS_OK) {
		if (e == SPS_ETRUNC && in.offset == 0 && nprefix == 0)
			return sps_fail_empty(in_file, NULL);
		if (e == SPS_EFORMAT || e == SPS_ETRUNC)
			return sps_fail(SPS_EFORMAT, "not a SIGPROC file "
			    "(no HEADER_START at byte 0)");
		return e;
	}
	if (strcmp(token, "HEADER_START") != 0)
		return sps_fail(SPS_EFORMAT,
		    "not a SIGPROC file (no HEADER_START at byte 0)");
	for (;;) {
		at = in.offset;
		if ((e = read_token(&in, token, "a keyword")) != SPS_OK) {
			if (e == SPS_EFORMAT && in.offset <= SPS_HEADER_MAX)
				e = sps_fail(e, "%s (no HEADER_END, or a "
				    "corrupt header)", sps_errmsg());
			goto fail;
		}
		if (strcmp(token, "HEADER_END") == 0)
			break;
		if (strcmp(token, "HEADER_START") == 0) {
			e = sps_fail(SPS_EFORMAT, "HEADER_START repeated at "
			    "byte %zu", at);
			goto fail;
		}
		if ((e = read_keyword(&in, h, token, at, &in_table)) != SPS_OK)
			goto fail;
	}
	if (in_table) {
		e = sps_fail(SPS_EFORMAT, "FREQUENCY_START without "
		    "FREQUENCY_END before HEADER_END");
		goto fail;
	}
	h->length = in.offset;
	if ((e = sps_header_check(h)) != SPS_OK)
		goto fail;
	return SPS_OK;
fail:
	sps_header_free(h);
	return e;
}

static int
valid_nbits(int nbits)
{
	return nbits == 1 || nbits == 2 || nbits == 4 || nbits == 8 ||
	    nbits == 16 || nbits == 32;
}

/* " (keyword at byte N)" or " (keyword missing)" for messages. */
static const char *
where(const struct sps_header *h, const char *name)
{
	static _Thread_local char buf[64];
	int k = sps_keyword_find(name);

	if (k < 0 || !(h->present >> k & 1))
		return " (keyword missing)";
	if (h->length == 0)
		return "";
	snprintf(buf, sizeof(buf), " (keyword at byte %u)", h->at[k]);
	return buf;
}

enum sps_err
sps_header_check(const struct sps_header *h)
{
	if (!sps_header_has(h, "nchans") || h->nchans < 1)
		return sps_fail(SPS_EVALUE, "nchans %d: must be at least 1%s",
		    h->nchans, where(h, "nchans"));
	if (!valid_nbits(h->nbits))
		return sps_fail(SPS_EVALUE, "nbits %d: not 1, 2, 4, 8, 16 "
		    "or 32%s", h->nbits, where(h, "nbits"));
	if (!isfinite(h->tsamp) || h->tsamp <= 0)
		return sps_fail(SPS_EVALUE, "tsamp %g: must be a positive "
		    "number of seconds%s", h->tsamp, where(h, "tsamp"));
	if (!sps_header_has(h, "nifs") || h->nifs < 1)
		return sps_fail(SPS_EVALUE, "nifs %d: must be at least 1%s",
		    h->nifs, where(h, "nifs"));
	if (h->nchans > 1 << 24 || h->nifs > 1 << 16)
		return sps_fail(SPS_EVALUE, "nchans %d x nifs %d: absurd "
		    "size%s", h->nchans, h->nifs, where(h, "nchans"));
	if (!isfinite(h->fch1))
		return sps_fail(SPS_EVALUE, "fch1 %g: not finite%s", h->fch1,
		    where(h, "fch1"));
	if (!isfinite(h->foff))
		return sps_fail(SPS_EVALUE, "foff %g: not finite%s", h->foff,
		    where(h, "foff"));
	if (h->sps_dmtime && h->ndms < 1)
		return sps_fail(SPS_EVALUE, "DM-time stream without a "
		    "DM_TABLE");
	if (h->sps_dmtime && h->sps_block < 1)
		return sps_fail(SPS_EVALUE, "DM-time stream: sps_block %d "
		    "< 1%s", h->sps_block, where(h, "sps_block"));
	if (h->nfchannel > 0 && h->nfchannel != h->nchans)
		return sps_fail(SPS_EVALUE, "frequency table has %d entries "
		    "for %d channels", h->nfchannel, h->nchans);
	if (!sps_is_timeseries(h) && h->foff == 0 && h->nfchannel == 0 &&
	    h->nchans > 1)
		return sps_fail(SPS_EVALUE, "foff 0: filterbank data need a "
		    "channel width%s", where(h, "foff"));
	return SPS_OK;
}

int
sps_keyword_written(const struct sps_header *h, int k)
{
	if (!(h->present >> k & 1))
		return 0;
	if (sps_keywords[k].type == SPS_KW_CHAR)	/* signed */
		return h->nbits == 8 && h->sign < 0;
	return strcmp(sps_keywords[k].origin, "sigpyproc") != 0;
}

int
sps_header_writes_all(const struct sps_header *h)
{
	int k;

	for (k = 0; k < sps_nkeywords; k++)
		if ((h->present >> k & 1) && !sps_keyword_written(h, k))
			return 0;
	return 1;
}

static int
put_token(FILE *out, const char *s)
{
	int32_t len = (int32_t)strlen(s);

	return fwrite(&len, 4, 1, out) == 1 &&
	    fwrite(s, 1, (size_t)len, out) == (size_t)len;
}

static int
put_value(FILE *out, const struct sps_header *h, int k)
{
	const struct sps_keyword *kw = &sps_keywords[k];
	const char *field = (const char *)h + kw->offset;
	int32_t i32;
	int64_t i64;

	switch (kw->type) {
	case SPS_KW_STRING:
		return put_token(out, field[0] != '\0' ? field : " ");
	case SPS_KW_INT:
		i32 = *(const int *)field;
		return fwrite(&i32, 4, 1, out) == 1;
	case SPS_KW_DOUBLE:
		return fwrite(field, 8, 1, out) == 1;
	case SPS_KW_CHAR:
		return fwrite(field, 1, 1, out) == 1;
	case SPS_KW_LONG:
		i64 = *(const long long *)field;
		return fwrite(&i64, 8, 1, out) == 1;
	}
	return 0;
}

static int
put_frequency_table(FILE *out, const struct sps_header *h)
{
	int c;

	if (!put_token(out, "FREQUENCY_START"))
		return 0;
	for (c = 0; c < h->nfchannel; c++)
		if (!put_token(out, "fchannel") ||
		    fwrite(&h->fchannel[c], 8, 1, out) != 1)
			return 0;
	return put_token(out, "FREQUENCY_END");
}

static int
put_dm_table(FILE *out, const struct sps_header *h)
{
	int32_t n = h->ndms, f;
	int i;

	if (!put_token(out, "DM_TABLE") || fwrite(&n, 4, 1, out) != 1)
		return 0;
	for (i = 0; i < h->ndms; i++) {
		f = h->scrunch[i];
		if (fwrite(&h->dms[i], 8, 1, out) != 1 ||
		    fwrite(&f, 4, 1, out) != 1)
			return 0;
	}
	return 1;
}

enum sps_err
sps_header_write(FILE *out, const struct sps_header *h)
{
	int k;

	if (!put_token(out, "HEADER_START"))
		goto fail;
	for (k = 0; k < sps_nkeywords; k++) {
		if (!sps_keyword_written(h, k))
			continue;
		if (!put_token(out, sps_keywords[k].name) ||
		    !put_value(out, h, k))
			goto fail;
	}
	if (h->nfchannel > 0 && !put_frequency_table(out, h))
		goto fail;
	if (h->ndms > 0 && !put_dm_table(out, h))
		goto fail;
	if (!put_token(out, "HEADER_END"))
		goto fail;
	return SPS_OK;
fail:
	return sps_fail(SPS_EIO, "writing header: %s", strerror(errno));
}

static size_t
value_size(const struct sps_header *h, int k)
{
	const char *field = (const char *)h + sps_keywords[k].offset;

	switch (sps_keywords[k].type) {
	case SPS_KW_STRING:
		return 4 + (field[0] != '\0' ? strlen(field) : 1);
	case SPS_KW_INT:
		return 4;
	case SPS_KW_CHAR:
		return 1;
	default:
		return 8;
	}
}

size_t
sps_header_size(const struct sps_header *h)
{
	size_t len = 4 + strlen("HEADER_START") + 4 + strlen("HEADER_END");
	int k;

	for (k = 0; k < sps_nkeywords; k++)
		if (sps_keyword_written(h, k))
			len += 4 + strlen(sps_keywords[k].name) +
			    value_size(h, k);
	if (h->nfchannel > 0)
		len += 4 + strlen("FREQUENCY_START") + 4 +
		    strlen("FREQUENCY_END") +
		    (size_t)h->nfchannel * (4 + strlen("fchannel") + 8);
	if (h->ndms > 0)
		len += 4 + strlen("DM_TABLE") + 4 + (size_t)h->ndms * 12;
	return len;
}

enum sps_err
sps_header_set(struct sps_header *h, const char *name, const char *value)
{
	int k = sps_keyword_find(name);
	char *field, *end;
	double d;

	if (k < 0)
		return sps_fail(SPS_EVALUE, "unknown header keyword '%s'",
		    name);
	field = (char *)h + sps_keywords[k].offset;
	if (sps_keywords[k].type == SPS_KW_STRING) {
		if (strlen(value) < 1 || strlen(value) > SPS_STRING_MAX)
			return sps_fail(SPS_EVALUE, "%s: value must have 1 to "
			    "%d characters", name, SPS_STRING_MAX);
		strcpy(field, value);
		h->present |= (uint64_t)1 << k;
		return SPS_OK;
	}
	errno = 0;
	d = strtod(value, &end);
	if (end == value || *end != '\0' || errno != 0)
		return sps_fail(SPS_EVALUE, "%s: '%s' is not a number", name,
		    value);
	switch (sps_keywords[k].type) {
	case SPS_KW_DOUBLE:
		*(double *)field = d;
		break;
	case SPS_KW_INT:
		if (d != floor(d) || d < INT32_MIN || d > INT32_MAX)
			return sps_fail(SPS_EVALUE, "%s: '%s' is not a 32-bit "
			    "integer", name, value);
		*(int *)field = (int)d;
		break;
	case SPS_KW_CHAR:
		if (d != floor(d) || d < -128 || d > 127)
			return sps_fail(SPS_EVALUE, "%s: '%s' is not in "
			    "-128..127", name, value);
		*(signed char *)field = (signed char)d;
		break;
	case SPS_KW_LONG:
		if (d != floor(d) || fabs(d) > 9.2e18)
			return sps_fail(SPS_EVALUE, "%s: '%s' is not an "
			    "integer", name, value);
		*(long long *)field = (long long)d;
		break;
	default:
		break;
	}
	h->present |= (uint64_t)1 << k;
	return SPS_OK;
}

void
sps_header_format(const struct sps_header *h, int k, char *buf, size_t len)
{
	const char *field = (const char *)h + sps_keywords[k].offset;

	switch (sps_keywords[k].type) {
	case SPS_KW_STRING:
		snprintf(buf, len, "%s", field);
		break;
	case SPS_KW_INT:
		snprintf(buf, len, "%d", *(const int *)field);
		break;
	case SPS_KW_DOUBLE:
		snprintf(buf, len, "%.17g", *(const double *)field);
		break;
	case SPS_KW_CHAR:
		snprintf(buf, len, "%d", *(const signed char *)field);
		break;
	case SPS_KW_LONG:
		snprintf(buf, len, "%lld", *(const long long *)field);
		break;
	}
}

size_t
sps_spectrum_values(const struct sps_header *h)
{
	return (size_t)h->nifs * (size_t)h->nchans;
}

size_t
sps_spectrum_bytes(const struct sps_header *h)
{
	return (sps_spectrum_values(h) * (size_t)h->nbits + 7) / 8;
}

uint64_t
sps_data_bytes(const struct sps_header *h, uint64_t n)
{
	uint64_t bits = (uint64_t)sps_spectrum_values(h) * (uint64_t)h->nbits;

	return (n * bits + 7) / 8;
}

int
sps_spectrum_whole_bytes(const struct sps_header *h)
{
	return sps_spectrum_values(h) * (size_t)h->nbits % 8 == 0;
}

double
sps_channel_freq(const struct sps_header *h, int c)
{
	if (h->nfchannel > 0 && c >= 0 && c < h->nfchannel)
		return h->fchannel[c];
	return h->fch1 + c * h->foff;
}

int
sps_is_timeseries(const struct sps_header *h)
{
	return h->data_type == 2 || (h->nchans == 1 && h->data_type != 1);
}

const char *
sps_data_type_name(int type)
{
	static const char *names[] = {
		"raw data", "filterbank", "time series", "pulse profiles",
		"amplitude spectrum", "complex spectrum", "dedispersed subbands",
	};

	if (type < 0 || type >= (int)(sizeof(names) / sizeof(names[0])))
		return NULL;
	return names[type];
}

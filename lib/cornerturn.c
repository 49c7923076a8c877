/* cornerturn.c: time-major <-> channel-major blocks (see cornerturn.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cornerturn.h"

#define TILE	32

static const char end_token[] = "\x0a\0\0\0HEADER_END";
#define END_TOKEN_LEN	14
#define INT_KEYWORD_LEN	17	/* length, 9-letter name, int32 value */

struct sps_cornerturn {
	size_t		 block;
	size_t		 ncols;
	int		 nbits;
	unsigned char	*codes_in;	/* sub-byte values, one per byte */
	unsigned char	*codes_out;
};

enum sps_err
sps_stream_shape(const struct sps_header *h, struct sps_stream_shape *s)
{
	enum sps_err e;

	memset(s, 0, sizeof(*s));
	if (h->sps_dmtime > 1)
		return sps_fail(SPS_EFORMAT, "sps_dmtime %d: not a DM-time "
		    "stream (an S/N plane?); only DM-time streams are turned",
		    h->sps_dmtime);
	if (h->sps_dmtime != 0) {
		/* turned by dmturn.c, not by the plans here */
		s->order = h->sps_order == SPS_ORDER_DM ? SPS_ORDER_DM :
		    SPS_ORDER_DMTIME;
		s->nbits = h->nbits;
		return SPS_OK;
	}
	if (h->sps_order != SPS_ORDER_TIME && h->sps_order !=
	    SPS_ORDER_CHANNEL)
		return sps_fail(SPS_EVALUE, "sps_order %d: not 0 (time-major) "
		    "or 1 (channel-major)", h->sps_order);
	s->order = (enum sps_order)h->sps_order;
	s->ncols = sps_spectrum_values(h);
	s->nbits = h->nbits;
	if (s->order == SPS_ORDER_TIME)
		return SPS_OK;
	if (h->sps_block < 1)
		return sps_fail(SPS_EVALUE, "channel-major data with sps_block "
		    "%d (must be at least 1)", h->sps_block);
	s->block = (size_t)h->sps_block;
	if ((e = sps_cornerturn_check_block(s->block, s->ncols, s->nbits)) !=
	    SPS_OK)
		return sps_fail(e, "sps_block %d: %s", h->sps_block,
		    sps_errmsg());
	return SPS_OK;
}

enum sps_err
sps_cornerturn_check_block(size_t block, size_t ncols, int nbits)
{
	if (block < 1 || ncols < 1)
		return sps_fail(SPS_EVALUE, "blocks of %zu samples of %zu "
		    "values: both must be at least 1", block, ncols);
	if (block > SPS_CT_VALUES_MAX / ncols)
		return sps_fail(SPS_EVALUE, "blocks of %zu samples of %zu "
		    "values: more than %zu values", block, ncols,
		    SPS_CT_VALUES_MAX);
	if (block * ncols * (size_t)nbits % 8 != 0)
		return sps_fail(SPS_EVALUE, "blocks of %zu samples of %zu "
		    "%d-bit values do not end on a byte (take a multiple of "
		    "8 samples)", block, ncols, nbits);
	return SPS_OK;
}

size_t
sps_cornerturn_block_bytes(size_t n, size_t ncols, int nbits)
{
	return (n * ncols * (size_t)nbits + 7) / 8;
}

enum sps_err
sps_cornerturn_create(struct sps_cornerturn **plan, size_t block,
    size_t ncols, int nbits)
{
	struct sps_cornerturn *p;
	enum sps_err e;

	*plan = NULL;
	if (nbits != 1 && nbits != 2 && nbits != 4 && nbits != 8 &&
	    nbits != 16 && nbits != 32)
		return sps_fail(SPS_EVALUE, "nbits %d: not 1, 2, 4, 8, 16 or "
		    "32", nbits);
	if ((e = sps_cornerturn_check_block(block, ncols, nbits)) != SPS_OK)
		return e;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	p->block = block;
	p->ncols = ncols;
	p->nbits = nbits;
	if (nbits < 8) {
		p->codes_in = malloc(block * ncols);
		p->codes_out = malloc(block * ncols);
		if (p->codes_in == NULL || p->codes_out == NULL) {
			sps_cornerturn_free(p);
			return sps_fail(SPS_ENOMEM, "out of memory for blocks "
			    "of %zu x %zu values", block, ncols);
		}
	}
	*plan = p;
	return SPS_OK;
}

void
sps_cornerturn_free(struct sps_cornerturn *plan)
{
	if (plan == NULL)
		return;
	free(plan->codes_in);
	free(plan->codes_out);
	free(plan);
}

/* out = the transpose of the rows x cols matrix in, elements of size
 * bytes, one square tile at a time.  A tile is gathered into a small
 * buffer and its rows written out whole, so that power-of-two strides
 * (4096 samples, 1024 channels) do not evict lines half used.  Inlined
 * with a constant size, each memcpy of one element is one move. */
static inline __attribute__((always_inline)) void
transpose(const unsigned char *in, unsigned char *out, size_t rows,
    size_t cols, size_t size)
{
	unsigned char tile[TILE * TILE * 4];
	size_t r0, c0, r, c, nr, nc;

	for (r0 = 0; r0 < rows; r0 += TILE) {
		nr = r0 + TILE < rows ? TILE : rows - r0;
		for (c0 = 0; c0 < cols; c0 += TILE) {
			nc = c0 + TILE < cols ? TILE : cols - c0;
			for (r = 0; r < nr; r++)
				for (c = 0; c < nc; c++)
					memcpy(tile + (c * nr + r) * size,
					    in + ((r0 + r) * cols + c0 + c) *
					    size, size);
			for (c = 0; c < nc; c++)
				memcpy(out + ((c0 + c) * rows + r0) * size,
				    tile + c * nr * size, nr * size);
		}
	}
}

static void
transpose8(const unsigned char *in, unsigned char *out, size_t rows,
    size_t cols)
{
	transpose(in, out, rows, cols, 1);
}

static void
transpose16(const unsigned char *in, unsigned char *out, size_t rows,
    size_t cols)
{
	transpose(in, out, rows, cols, 2);
}

static void
transpose32(const unsigned char *in, unsigned char *out, size_t rows,
    size_t cols)
{
	transpose(in, out, rows, cols, 4);
}

/* Sub-byte values to one byte each, and back (the codec's bit order),
 * a byte of values at a time. */
static inline __attribute__((always_inline)) void
unpack_codes(const unsigned char *raw, unsigned char *codes, size_t n,
    int nbits)
{
	unsigned mask = (1u << nbits) - 1;
	size_t per_byte = 8 / (size_t)nbits, whole = n / per_byte, b, k;

	for (b = 0; b < whole; b++)
		for (k = 0; k < per_byte; k++)
			codes[b * per_byte + k] = (unsigned char)(raw[b] >>
			    (k * (size_t)nbits) & mask);
	for (k = 0; k < n - whole * per_byte; k++)
		codes[whole * per_byte + k] = (unsigned char)(raw[whole] >>
		    (k * (size_t)nbits) & mask);
}

static inline __attribute__((always_inline)) void
pack_codes(const unsigned char *codes, unsigned char *raw, size_t n,
    int nbits)
{
	size_t per_byte = 8 / (size_t)nbits, whole = n / per_byte, b, k;
	unsigned v;

	for (b = 0; b < whole; b++) {
		v = 0;
		for (k = 0; k < per_byte; k++)
			v |= (unsigned)codes[b * per_byte + k] <<
			    (k * (size_t)nbits);
		raw[b] = (unsigned char)v;
	}
	if (whole * per_byte < n) {
		v = 0;
		for (k = 0; k < n - whole * per_byte; k++)
			v |= (unsigned)codes[whole * per_byte + k] <<
			    (k * (size_t)nbits);
		raw[whole] = (unsigned char)v;
	}
}

/* Sub-byte blocks: unpack, turn the bytes, pack; nbits a constant in
 * each call so that the byte loops unroll. */
static void
turn_subbyte(struct sps_cornerturn *plan, const unsigned char *in,
    unsigned char *out, size_t rows, size_t cols)
{
	size_t n = rows * cols;

	switch (plan->nbits) {
	case 1:
		unpack_codes(in, plan->codes_in, n, 1);
		break;
	case 2:
		unpack_codes(in, plan->codes_in, n, 2);
		break;
	default:
		unpack_codes(in, plan->codes_in, n, 4);
		break;
	}
	transpose8(plan->codes_in, plan->codes_out, rows, cols);
	switch (plan->nbits) {
	case 1:
		pack_codes(plan->codes_out, out, n, 1);
		break;
	case 2:
		pack_codes(plan->codes_out, out, n, 2);
		break;
	default:
		pack_codes(plan->codes_out, out, n, 4);
		break;
	}
}

void
sps_cornerturn_execute(struct sps_cornerturn *plan, enum sps_order from,
    const unsigned char *in, unsigned char *out, size_t n)
{
	size_t rows = from == SPS_ORDER_TIME ? n : plan->ncols;
	size_t cols = from == SPS_ORDER_TIME ? plan->ncols : n;

	switch (plan->nbits) {
	case 8:
		transpose8(in, out, rows, cols);
		break;
	case 16:
		transpose16(in, out, rows, cols);
		break;
	case 32:
		transpose32(in, out, rows, cols);
		break;
	default:
		turn_subbyte(plan, in, out, rows, cols);
		break;
	}
}

static unsigned char *
put_int_keyword(unsigned char *p, const char *name, int value)
{
	int32_t len = (int32_t)strlen(name), v = value;

	memcpy(p, &len, 4);
	memcpy(p + 4, name, (size_t)len);
	memcpy(p + 4 + len, &v, 4);
	return p + 4 + len + 4;
}

/* Write h afresh, with sps_order and sps_block as `to` needs. */
static enum sps_err
rewrite_header(const struct sps_header *h, enum sps_order to, size_t block,
    unsigned char **out, size_t *outlen)
{
	struct sps_header copy;
	char *buf = NULL;
	size_t len = 0;
	enum sps_err e;
	FILE *f;

	if ((e = sps_header_copy(&copy, h)) != SPS_OK)
		return e;
	copy.sps_order = (int)to;
	copy.sps_block = (int)block;
	if (to == SPS_ORDER_CHANNEL) {
		sps_header_mark(&copy, "sps_order");
		sps_header_mark(&copy, "sps_block");
	} else {
		copy.sps_block = 0;
		sps_header_unmark(&copy, "sps_order");
		sps_header_unmark(&copy, "sps_block");
	}
	if ((f = open_memstream(&buf, &len)) == NULL) {
		sps_header_free(&copy);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	e = sps_header_write(f, &copy);
	if (fclose(f) != 0 && e == SPS_OK)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	sps_header_free(&copy);
	if (e != SPS_OK) {
		free(buf);
		return e;
	}
	*out = (unsigned char *)buf;
	*outlen = len;
	return SPS_OK;
}

static int
ends_with_header_end(const unsigned char *raw, size_t rawlen)
{
	return rawlen >= END_TOKEN_LEN && memcmp(raw + rawlen -
	    END_TOKEN_LEN, end_token, END_TOKEN_LEN) == 0;
}

static enum sps_err
append_order(const unsigned char *raw, size_t rawlen, size_t block,
    unsigned char **out, size_t *outlen)
{
	size_t keep = rawlen - END_TOKEN_LEN;
	unsigned char *buf, *p;

	*outlen = rawlen + 2 * INT_KEYWORD_LEN;
	if ((buf = malloc(*outlen)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	memcpy(buf, raw, keep);
	p = put_int_keyword(buf + keep, "sps_order", SPS_ORDER_CHANNEL);
	p = put_int_keyword(p, "sps_block", (int)block);
	memcpy(p, end_token, END_TOKEN_LEN);
	*out = buf;
	return SPS_OK;
}

/* raw without the sps_order and sps_block that append_order added, if
 * that is how it ends and what is left is a header without them. */
static int
strip_order(const struct sps_header *h, const unsigned char *raw,
    size_t rawlen, unsigned char **out, size_t *outlen)
{
	unsigned char tail[2 * INT_KEYWORD_LEN + END_TOKEN_LEN], *buf;
	struct sps_header back;
	size_t keep;
	int clean;
	FILE *f;

	if (rawlen < sizeof(tail) + 16 || h->sps_block < 1)
		return 0;
	keep = rawlen - sizeof(tail);
	memcpy(put_int_keyword(put_int_keyword(tail, "sps_order",
	    SPS_ORDER_CHANNEL), "sps_block", h->sps_block), end_token,
	    END_TOKEN_LEN);
	if (memcmp(raw + keep, tail, sizeof(tail)) != 0)
		return 0;
	if ((buf = malloc(keep + END_TOKEN_LEN)) == NULL)
		return 0;
	memcpy(buf, raw, keep);
	memcpy(buf + keep, end_token, END_TOKEN_LEN);
	if ((f = fmemopen(buf, keep + END_TOKEN_LEN, "rb")) == NULL) {
		free(buf);
		return 0;
	}
	clean = sps_header_read(f, NULL, 0, &back) == SPS_OK &&
	    !sps_header_has(&back, "sps_order") &&
	    !sps_header_has(&back, "sps_block");
	fclose(f);
	if (clean)
		sps_header_free(&back);
	if (!clean) {
		free(buf);
		return 0;
	}
	*out = buf;
	*outlen = keep + END_TOKEN_LEN;
	return 1;
}

static enum sps_err
copy_header(const unsigned char *raw, size_t rawlen, unsigned char **out,
    size_t *outlen)
{
	if ((*out = malloc(rawlen)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	memcpy(*out, raw, rawlen);
	*outlen = rawlen;
	return SPS_OK;
}

enum sps_err
sps_cornerturn_header(const struct sps_header *h, const unsigned char *raw,
    size_t rawlen, enum sps_order to, size_t block, unsigned char **out,
    size_t *outlen)
{
	*out = NULL;
	*outlen = 0;
	if (block > INT32_MAX)
		return sps_fail(SPS_EVALUE, "block of %zu samples: more than "
		    "sps_block can hold", block);
	if (!sps_header_writes_all(h))
		raw = NULL;	/* its bytes hold keywords sps does not write */
	if (raw != NULL && (to == SPS_ORDER_TIME ? h->sps_order == 0 :
	    h->sps_order == 1 && (size_t)h->sps_block == block))
		return copy_header(raw, rawlen, out, outlen);
	if (raw != NULL && to == SPS_ORDER_CHANNEL &&
	    ends_with_header_end(raw, rawlen) &&
	    !sps_header_has(h, "sps_order") && !sps_header_has(h, "sps_block"))
		return append_order(raw, rawlen, block, out, outlen);
	if (raw != NULL && to == SPS_ORDER_TIME &&
	    strip_order(h, raw, rawlen, out, outlen))
		return SPS_OK;
	return rewrite_header(h, to, block, out, outlen);
}

/* The recording stream: passes bytes through and keeps a copy of the
 * first ones (the header) while `recording` is set. */
struct tee {
	FILE		*in;
	unsigned char	*buf;
	size_t		 len, cap;
	int		 recording;
	int		 nomem;
};

static ssize_t
tee_read(void *cookie, char *p, size_t n)
{
	struct tee *t = cookie;
	size_t got = fread(p, 1, n, t->in);

	if (got == 0 && ferror(t->in))
		return -1;
	if (t->recording && got > 0) {
		if (t->len + got > t->cap) {
			size_t cap = 2 * (t->len + got);
			unsigned char *grown = realloc(t->buf, cap);

			if (grown == NULL) {
				t->nomem = 1;
				t->recording = 0;
				return (ssize_t)got;
			}
			t->buf = grown;
			t->cap = cap;
		}
		memcpy(t->buf + t->len, p, got);
		t->len += got;
	}
	return (ssize_t)got;
}

static int
tee_close(void *cookie)
{
	struct tee *t = cookie;

	free(t->buf);
	free(t);
	return 0;
}

static enum sps_err
keep_header_bytes(struct sps_ct_input *ci, struct tee *t)
{
	if (t->nomem || t->len < ci->hdr.length)
		return sps_fail(SPS_ENOMEM, "out of memory for the header");
	if ((ci->hdr_bytes = malloc(ci->hdr.length)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory for the header");
	memcpy(ci->hdr_bytes, t->buf, ci->hdr.length);
	t->recording = 0;
	free(t->buf);
	t->buf = NULL;
	t->len = t->cap = 0;
	return SPS_OK;
}

enum sps_err
sps_ct_input_open(struct sps_ct_input *ci, FILE *in, const char *name)
{
	cookie_io_functions_t io = { tee_read, NULL, NULL, tee_close };
	struct tee *t;
	enum sps_err e;
	int c;

	memset(ci, 0, sizeof(*ci));
	sps_header_init(&ci->hdr);
	ci->name = name;
	if ((c = getc(in)) == EOF)	/* before the tee hides what in is */
		return sps_fail_empty(in, name);
	ungetc(c, in);
	if ((t = calloc(1, sizeof(*t))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	t->in = in;
	t->recording = 1;
	if ((ci->f = fopencookie(t, "rb", io)) == NULL) {
		free(t);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	ci->tee = t;
	if ((e = sps_header_read(ci->f, NULL, 0, &ci->hdr)) != SPS_OK)
		return sps_fail(e, "%s: %s", name, sps_errmsg());
	if ((e = keep_header_bytes(ci, t)) != SPS_OK ||
	    (e = sps_stream_shape(&ci->hdr, &ci->shape)) != SPS_OK)
		return sps_fail(e, "%s: %s", name, sps_errmsg());
	return SPS_OK;
}

/* Time-major data cut inside a spectrum end with the last whole one;
 * a channel-major block cut short cannot be read (its length places
 * every value), and no whole spectrum is no data. */
static enum sps_err
cut_short(struct sps_ct_input *ci, size_t nbytes, size_t got)
{
	const struct sps_stream_shape *s = &ci->shape;
	size_t whole = sps_cornerturn_block_bytes(got, s->ncols, s->nbits);
	size_t one = sps_cornerturn_block_bytes(1, s->ncols, s->nbits);

	if (s->order == SPS_ORDER_CHANNEL)
		return sps_fail(SPS_ETRUNC, "%s: truncated data: the last "
		    "channel-major block (from sample %llu) has %zu bytes, "
		    "not a whole number of samples of %zu bytes", ci->name,
		    (unsigned long long)ci->nsamples, nbytes, one);
	if (ci->nsamples + got == 0)
		return sps_fail(SPS_ETRUNC, "%s: truncated data: %zu bytes, "
		    "not one whole spectrum of %zu", ci->name, nbytes, one);
	ci->cut_bytes = nbytes - whole;
	ci->nsamples += got;
	return got == 0 ? SPS_EEOF : SPS_OK;
}

enum sps_err
sps_ct_input_read(struct sps_ct_input *ci, unsigned char *buf, size_t n,
    size_t *got)
{
	const struct sps_stream_shape *s = &ci->shape;
	size_t want = sps_cornerturn_block_bytes(n, s->ncols, s->nbits);
	size_t nbytes, rest_bits;

	*got = 0;
	if (ci->ended)
		return SPS_EEOF;
	nbytes = fread(buf, 1, want, ci->f);
	if (nbytes < want) {
		if (ferror(ci->f))
			return sps_fail(SPS_EIO, "%s: %s", ci->name,
			    strerror(errno));
		ci->ended = 1;
	}
	*got = nbytes * 8 / (size_t)s->nbits / s->ncols;
	rest_bits = nbytes * 8 - *got * s->ncols * (size_t)s->nbits;
	if (rest_bits >= 8)
		return cut_short(ci, nbytes, *got);
	ci->nsamples += *got;
	return nbytes == 0 ? SPS_EEOF : SPS_OK;
}

void
sps_ct_input_close(struct sps_ct_input *ci)
{
	if (ci == NULL)
		return;
	if (ci->f != NULL)
		fclose(ci->f);	/* frees the tee, leaves the input open */
	ci->f = NULL;
	ci->tee = NULL;
	free(ci->hdr_bytes);
	ci->hdr_bytes = NULL;
	sps_header_free(&ci->hdr);
}

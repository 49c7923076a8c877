/* reader.c: the block reader and its SIGPROC source (see reader.h). */
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec.h"
#include "pipewide.h"
#include "presto.h"
#include "reader.h"

#define SNIFF_BYTES 8
#define PARALLEL_READ	((size_t)16 << 20)	/* bytes; fewer: one fread */
#define READ_PIECE	((size_t)4 << 20)
#define READ_THREADS	8

struct sigproc_source {
	FILE		*f;
	int		 owns_file;
	int		 regular;	/* a regular file: pread works */
	int		 nbits;
	int		 is_signed;
	size_t		 nvalues;	/* per spectrum */
	size_t		 spectrum_bytes;
	unsigned char	*bytes;		/* raw block for read_float */
	size_t		 bytes_len;
	float		 carry[8];	/* values decoded past the last spectrum */
	size_t		 ncarry;
	uint64_t	 nread;		/* spectra handed out */
	size_t		 cut;		/* bytes after the last whole one */
	const char	*name;
};

/* Bytes of piece i of a read of len bytes at `at`, read with pread; -1
 * (errno set) on an error. */
static ssize_t
read_piece(int fd, unsigned char *buf, size_t len, off_t at, size_t i)
{
	size_t off = i * READ_PIECE, done = 0;
	size_t want = len - off < READ_PIECE ? len - off : READ_PIECE;

	while (done < want) {
		ssize_t k = pread(fd, buf + off + done, want - done,
		    at + (off_t)(off + done));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -1 : (ssize_t)done;
		done += (size_t)k;
	}
	return (ssize_t)done;
}

/* A large read of a regular file in pieces, by several threads: one
 * read(2) copies from the page cache at a few GB/s, less than the GPU
 * path dedisperses.  The stream is then moved past what was read.
 * Returns 0, or an errno. */
static int
read_parallel(struct sigproc_source *s, unsigned char *buf, size_t len,
    off_t at, size_t *got)
{
	size_t npieces = (len + READ_PIECE - 1) / READ_PIECE, i;
	ssize_t *piece = malloc(npieces * sizeof(*piece));
	int fd = fileno(s->f), threads = omp_get_max_threads(), err = 0;

	if (piece == NULL)
		return ENOMEM;
	threads = threads < READ_THREADS ? threads : READ_THREADS;
#pragma omp parallel for num_threads(threads) schedule(dynamic)
	for (i = 0; i < npieces; i++) {
		piece[i] = read_piece(fd, buf, len, at, i);
		if (piece[i] < 0) {
#pragma omp atomic write
			err = errno;
		}
	}
	*got = 0;
	for (i = 0; i < npieces && err == 0 && piece[i] >= 0; i++) {
		*got += (size_t)piece[i];
		if ((size_t)piece[i] < (i + 1 < npieces ? READ_PIECE :
		    len - i * READ_PIECE))
			break;
	}
	free(piece);
	if (err == 0 && fseeko(s->f, at + (off_t)*got, SEEK_SET) != 0)
		err = errno;
	return err;
}

static enum sps_err
read_bytes(struct sigproc_source *s, unsigned char *buf, size_t len,
    size_t *got)
{
	off_t at;
	int err;

	*got = 0;
	if (s->regular && len >= PARALLEL_READ && (at = ftello(s->f)) >= 0) {
		if ((err = read_parallel(s, buf, len, at, got)) != 0)
			return sps_fail(SPS_EIO, "%s: %s", s->name,
			    strerror(err));
		return SPS_OK;
	}
	*got = fread(buf, 1, len, s->f);
	if (*got < len && ferror(s->f))
		return sps_fail(SPS_EIO, "%s: %s", s->name, strerror(errno));
	return SPS_OK;
}

/* A stream that ends inside a spectrum: the whole spectra before are the
 * data, as SIGPROC and PRESTO read them; none at all is an error. */
static enum sps_err
cut_short(struct sigproc_source *s, size_t got, size_t partial_bytes)
{
	s->cut = partial_bytes;
	if (s->nread > 0)
		return got == 0 ? SPS_EEOF : SPS_OK;
	return sps_fail(SPS_ETRUNC, "%s: truncated data: %zu bytes, not one "
	    "whole spectrum of %zu", s->name, partial_bytes,
	    s->spectrum_bytes);
}

static enum sps_err
sigproc_read_raw(void *state, unsigned char *buf, size_t n, size_t *got)
{
	struct sigproc_source *s = state;
	size_t nbytes;
	enum sps_err e;

	*got = 0;
	if (s->nvalues * s->nbits % 8 != 0)
		return sps_fail(SPS_EUSAGE, "%s: spectra of %zu %d-bit values "
		    "are not whole bytes", s->name, s->nvalues, s->nbits);
	if ((e = read_bytes(s, buf, n * s->spectrum_bytes, &nbytes)) != SPS_OK)
		return e;
	*got = nbytes / s->spectrum_bytes;
	s->nread += *got;
	if (nbytes % s->spectrum_bytes != 0)
		return cut_short(s, *got, nbytes % s->spectrum_bytes);
	return *got == 0 ? SPS_EEOF : SPS_OK;
}

static enum sps_err
grow_bytes(struct sigproc_source *s, size_t len)
{
	unsigned char *grown;

	if (len <= s->bytes_len)
		return SPS_OK;
	if ((grown = realloc(s->bytes, len)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory (%zu bytes)", len);
	s->bytes = grown;
	s->bytes_len = len;
	return SPS_OK;
}

/* Values of sub-byte spectra need not start on byte boundaries: decode
 * whole bytes and carry the values past the request to the next call. */
static void
keep_carry(struct sigproc_source *s, const unsigned char *last_byte,
    size_t extra)
{
	int per_byte = 8 / s->nbits;
	float tail[8];

	sps_unpack(last_byte, tail, (size_t)per_byte, s->nbits, 0);
	memcpy(s->carry, tail + per_byte - extra, extra * sizeof(float));
	s->ncarry = extra;
}

static enum sps_err
sigproc_read_float(void *state, float *buf, size_t n, size_t *got)
{
	struct sigproc_source *s = state;
	size_t need = n * s->nvalues, to_decode, want, nbytes, avail, use;
	size_t total, rest;
	enum sps_err e;

	*got = 0;
	if (s->ncarry >= need) {
		memcpy(buf, s->carry, need * sizeof(float));
		s->ncarry -= need;
		memmove(s->carry, s->carry + need, s->ncarry * sizeof(float));
		*got = n;
		s->nread += n;
		return SPS_OK;
	}
	memcpy(buf, s->carry, s->ncarry * sizeof(float));
	to_decode = need - s->ncarry;
	want = sps_packed_bytes(to_decode, s->nbits);
	if (s->nbits == 32)	/* the bytes are the floats: read in place */
		e = read_bytes(s, (unsigned char *)(buf + s->ncarry), want,
		    &nbytes);
	else if ((e = grow_bytes(s, want)) == SPS_OK)
		e = read_bytes(s, s->bytes, want, &nbytes);
	if (e != SPS_OK)
		return e;
	avail = nbytes * 8 / (size_t)s->nbits;
	use = avail < to_decode ? avail : to_decode;
	if (s->nbits != 32)
		sps_unpack(s->bytes, buf + s->ncarry, use, s->nbits,
		    s->is_signed);
	total = s->ncarry + use;
	s->ncarry = 0;
	if (avail > use)
		keep_carry(s, s->bytes + nbytes - 1, avail - use);
	*got = total / s->nvalues;
	s->nread += *got;
	rest = total % s->nvalues;
	if (rest * (size_t)s->nbits >= 8)
		return cut_short(s, *got, rest * (size_t)s->nbits / 8);
	return *got == 0 ? SPS_EEOF : SPS_OK;
}

/* A seek, in a regular file whose next spectrum starts a byte and whose
 * spectra after the n skipped do too; else nothing (they are read). */
static enum sps_err
sigproc_skip(void *state, uint64_t n, uint64_t *skipped)
{
	struct sigproc_source *s = state;
	uint64_t bits = n * s->nvalues * (uint64_t)s->nbits;

	*skipped = 0;
	if (!s->regular || s->ncarry != 0 || bits % 8 != 0)
		return SPS_OK;
	if (fseeko(s->f, (off_t)(bits / 8), SEEK_CUR) != 0)
		return sps_fail(SPS_EIO, "%s: %s", s->name, strerror(errno));
	s->nread += n;
	*skipped = n;
	return SPS_OK;
}

static void
sigproc_close(void *state)
{
	struct sigproc_source *s = state;

	if (s == NULL)
		return;
	if (s->owns_file && s->f != NULL)
		fclose(s->f);
	free(s->bytes);
	free(s);
}

static uint64_t
sigproc_cut(void *state)
{
	return ((struct sigproc_source *)state)->cut;
}

static const struct sps_source_ops sigproc_ops = {
	sigproc_read_raw, sigproc_read_float, sigproc_close, sigproc_skip,
	NULL, sigproc_cut
};

/* nsamples from the file size when f is a regular file. */
static enum sps_err
count_spectra(struct sps_reader *r, FILE *f)
{
	struct stat st;
	uint64_t data_bits, spectrum_bits, rest;

	r->nsamples = SPS_NSAMPLES_UNKNOWN;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
		return SPS_OK;
	if ((uint64_t)st.st_size < r->hdr.length)
		return sps_fail(SPS_ETRUNC, "%s: file shorter than its header",
		    r->name);
	data_bits = ((uint64_t)st.st_size - r->hdr.length) * 8;
	spectrum_bits = (uint64_t)sps_spectrum_values(&r->hdr) *
	    (uint64_t)r->hdr.nbits;
	r->nsamples = data_bits / spectrum_bits;
	rest = data_bits - r->nsamples * spectrum_bits;
	if (rest < 8)	/* padding of the last byte */
		return SPS_OK;
	if (r->nsamples == 0)
		return sps_fail(SPS_ETRUNC, "%s: truncated data: %llu bytes, "
		    "not one whole spectrum of %llu", r->name,
		    (unsigned long long)(rest / 8),
		    (unsigned long long)((spectrum_bits + 7) / 8));
	r->cut_bytes = rest / 8;
	r->cut_name = r->name;
	r->cut_files = 1;
	return SPS_OK;
}

/* The source of the data at f, which r->hdr describes. */
static enum sps_err
attach_data(struct sps_reader *r, FILE *f, const char *name)
{
	struct sigproc_source *s;
	struct stat st;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	s->f = f;
	s->regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
	s->nbits = r->hdr.nbits;
	s->is_signed = r->hdr.nbits == 8 && r->hdr.sign < 0;
	s->nvalues = sps_spectrum_values(&r->hdr);
	s->spectrum_bytes = sps_spectrum_bytes(&r->hdr);
	s->name = name;
	r->ops = &sigproc_ops;
	r->state = s;
	return count_spectra(r, f);
}

enum sps_err
sps_reader_attach_sigproc(struct sps_reader *r, FILE *f, const char *name,
    const unsigned char *prefix, size_t nprefix)
{
	enum sps_err e;

	if ((e = sps_header_read(f, prefix, nprefix, &r->hdr)) != SPS_OK)
		return sps_fail(e, "%s: %s", name, sps_errmsg());
	return attach_data(r, f, name);
}

/* A PRESTO .dat: its .inf's header, its floats read as a SIGPROC time
 * series' data. */
static enum sps_err
attach_presto(struct sps_reader *r, const char *path)
{
	enum sps_err e;
	uint64_t n;
	FILE *f;

	if ((e = sps_presto_open_dat(path, &f, &r->hdr, &n)) != SPS_OK)
		return e;
	if ((e = attach_data(r, f, path)) != SPS_OK) {
		fclose(f);
		return e;
	}
	((struct sigproc_source *)r->state)->owns_file = 1;
	return SPS_OK;
}

static int
is_fits(const unsigned char *head, size_t n)
{
	return n >= 8 && memcmp(head, "SIMPLE  ", 8) == 0;
}

static enum sps_err
open_input(const char *path, FILE **f, const char **name)
{
	if (strcmp(path, "-") == 0) {
		*f = stdin;
		*name = "stdin";
		sps_pipe_widen(STDIN_FILENO);
		return SPS_OK;
	}
	*name = path;
	if ((*f = fopen(path, "rb")) == NULL)
		return sps_fail(SPS_EIO, "%s: %s", path, strerror(errno));
	return SPS_OK;
}

static enum sps_err
open_one(struct sps_reader *r, const char *path)
{
	unsigned char head[SNIFF_BYTES];
	const char *name;
	enum sps_err e;
	size_t n;
	FILE *f;

	if ((e = open_input(path, &f, &name)) != SPS_OK)
		return e;
	r->name = name;
	n = fread(head, 1, sizeof(head), f);
	if (n < sizeof(head) && ferror(f)) {
		e = sps_fail(SPS_EIO, "%s: %s", name, strerror(errno));
	} else if (n == 0) {
		e = sps_fail_empty(f, name);
	} else if (is_fits(head, n)) {
		char *paths[1] = { (char *)path };

		if (f != stdin)
			fclose(f);
		f = NULL;
		e = sps_reader_attach_psrfits(r, paths, 1);
	} else if (sps_presto_is_dat(path, head, n)) {
		fclose(f);
		f = NULL;
		e = attach_presto(r, path);
	} else {
		e = sps_reader_attach_sigproc(r, f, name, head, n);
		if (r->state != NULL)
			((struct sigproc_source *)r->state)->owns_file =
			    f != stdin;
	}
	if (e != SPS_OK && r->state == NULL && f != NULL && f != stdin)
		fclose(f);
	return e;
}

void
sps_reader_reset(struct sps_reader *r)
{
	memset(r, 0, sizeof(*r));
	sps_header_init(&r->hdr);
	r->nsamples = SPS_NSAMPLES_UNKNOWN;
}

enum sps_err
sps_reader_open(struct sps_reader *r, const char *path)
{
	enum sps_err e;

	sps_reader_reset(r);
	if ((e = open_one(r, path == NULL ? "-" : path)) != SPS_OK)
		sps_reader_close(r);
	return e;
}

int
sps_reader_is_fits(const char *path)
{
	unsigned char head[SNIFF_BYTES];
	struct stat st;
	size_t n = 0;
	FILE *f;

	/* a pipe's bytes read here would be lost to its real reader */
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if ((f = fopen(path, "rb")) != NULL) {
		n = fread(head, 1, sizeof(head), f);
		fclose(f);
	}
	return is_fits(head, n);
}

int
sps_reader_raw_exact(const struct sps_reader *r)
{
	return r->ops == NULL || r->ops->raw_exact == NULL ||
	    r->ops->raw_exact(r->state);
}

/* The end of a stream of unknown length: now it is known, and whether
 * it was cut inside a spectrum. */
static void
at_end(struct sps_reader *r)
{
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
		return;
	r->nsamples = r->position;
	if (r->ops->cut != NULL && (r->cut_bytes = r->ops->cut(r->state)) >
	    0) {
		r->cut_name = r->name;
		r->cut_files = 1;
	}
}

enum sps_err
sps_reader_read_raw(struct sps_reader *r, unsigned char *buf, size_t n,
    size_t *got)
{
	enum sps_err e;

	*got = 0;
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN && n > r->nsamples -
	    r->position)
		n = (size_t)(r->nsamples - r->position);
	if (r->ops->read_raw == NULL)
		return sps_fail(SPS_EUSAGE, "%s: raw reads not available for "
		    "this format", r->name);
	e = r->ops->read_raw(r->state, buf, n, got);
	r->position += *got;
	if (e == SPS_EEOF)
		at_end(r);
	return e;
}

static enum sps_err
read_via_raw(struct sps_reader *r, float *buf, size_t n, size_t *got)
{
	size_t len = n * sps_spectrum_bytes(&r->hdr);
	enum sps_err e;

	if (len > r->scratch_len) {
		unsigned char *grown = realloc(r->scratch, len);

		if (grown == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		r->scratch = grown;
		r->scratch_len = len;
	}
	e = r->ops->read_raw(r->state, r->scratch, n, got);
	sps_unpack(r->scratch, buf, *got * sps_spectrum_values(&r->hdr),
	    r->hdr.nbits, r->hdr.nbits == 8 && r->hdr.sign < 0);
	return e;
}

/* Values come in time order only. */
static enum sps_err
check_order(const struct sps_reader *r)
{
	/* raw bytes are the same in any order; values are not */
	if (r->hdr.sps_order != 0)
		return sps_fail(SPS_EFORMAT, "%s: %s data (sps_order %d): turn "
		    "it back with sps-cornerturn --to time first", r->name,
		    r->hdr.sps_order == 2 ? "DM-major" : "channel-major",
		    r->hdr.sps_order);
	return SPS_OK;
}

enum sps_err
sps_reader_read(struct sps_reader *r, float *buf, size_t n, size_t *got)
{
	enum sps_err e;

	*got = 0;
	if ((e = check_order(r)) != SPS_OK)
		return e;
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN && n > r->nsamples -
	    r->position)
		n = (size_t)(r->nsamples - r->position);
	if (n == 0)
		return r->nsamples == r->position ? SPS_EEOF : SPS_OK;
	if (r->ops->read_float != NULL)
		e = r->ops->read_float(r->state, buf, n, got);
	else
		e = read_via_raw(r, buf, n, got);
	r->position += *got;
	if (e == SPS_EEOF)
		at_end(r);
	return e;
}

static enum sps_err
read_and_drop(struct sps_reader *r, uint64_t n)
{
	size_t block = 4096, got;
	enum sps_err e = SPS_OK;
	float *buf;

	if ((buf = malloc(block * sps_spectrum_values(&r->hdr) *
	    sizeof(float))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	while (n > 0) {
		size_t take = n < block ? (size_t)n : block;

		if ((e = sps_reader_read(r, buf, take, &got)) != SPS_OK)
			break;
		n -= got;
	}
	free(buf);
	if (e == SPS_EEOF)
		return sps_fail(SPS_ETRUNC, "%s: cannot skip past the end of "
		    "the data", r->name);
	return e;
}

enum sps_err
sps_reader_skip(struct sps_reader *r, uint64_t n)
{
	uint64_t most = n, skipped = 0;
	enum sps_err e;

	if (n == 0)
		return SPS_OK;
	if ((e = check_order(r)) != SPS_OK)
		return e;
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN && most > r->nsamples -
	    r->position)
		most = r->nsamples - r->position;
	if (r->ops->skip != NULL) {
		e = r->ops->skip(r->state, most, &skipped);
		r->position += skipped;
		if (e != SPS_OK || skipped == n)
			return e;
	}
	return read_and_drop(r, n - skipped);
}

void
sps_reader_close(struct sps_reader *r)
{
	if (r == NULL)
		return;
	if (r->ops != NULL && r->ops->close != NULL)
		r->ops->close(r->state);
	r->ops = NULL;
	r->state = NULL;
	free(r->scratch);
	r->scratch = NULL;
	r->scratch_len = 0;
	sps_header_free(&r->hdr);
}

/* fbcopy.c: sps-filterbank's data from reader to writer (fbcopy.h). */
#include <stdlib.h>

#include "fbcopy.h"

#define BLOCK_VALUES	(1 << 22)	/* floats per block, about */
#define CACHE_VALUES	(1 << 16)	/* ... when its size does not matter */
#define BLOCK_SPECTRA	4096		/* spectra per block, at most */
/* Bytes per block copied as bytes, about: small enough to stay in the
 * cache from its read to its write.  Blocks of 16 MB and more, read by
 * several threads, went at half the speed on 2 cores; through a pipe,
 * 256 KB went 15% faster than 4 MB on 16. */
#define BYTE_BLOCK	((size_t)256 << 10)

struct sps_fbcopy {
	struct sps_filterbank	*p;
	struct sps_reader	*r;
	int			 bytes;
	size_t			 block;	/* spectra */
	uint64_t		 left;
	unsigned char		*raw;	/* bytes: a block */
	float			*in, *out;	/* values: a block each */
};

/* Spectra per block of values.  The first block sets the rescaling, and
 * a gap between joined files is filled from the block read before it:
 * with either, blocks keep the size they always had.  Else they are small
 * enough to stay in the cache from their read to their write. */
static size_t
value_block(const struct sps_filterbank *p, const struct sps_reader *r)
{
	size_t per = (size_t)p->nifs * p->nin, block;

	block = (p->mean != NULL || r->gap_spectra > 0 ? BLOCK_VALUES :
	    CACHE_VALUES) / per;
	return block < 1 ? 1 : block > BLOCK_SPECTRA ? BLOCK_SPECTRA : block;
}

static enum sps_err
setup(struct sps_fbcopy *c)
{
	size_t spectrum = sps_spectrum_bytes(&c->r->hdr);
	size_t nifs = (size_t)c->p->nifs;

	c->bytes = sps_filterbank_copies_bytes(c->p, c->r);
	if (c->bytes) {
		c->block = BYTE_BLOCK / spectrum > 0 ? BYTE_BLOCK / spectrum : 1;
		c->raw = malloc(c->block * spectrum);
	} else {
		c->block = value_block(c->p, c->r);
		c->in = malloc(c->block * nifs * c->p->nin * sizeof(float));
		c->out = malloc(c->block * nifs * c->p->nout * sizeof(float));
	}
	if ((c->bytes && c->raw == NULL) || (!c->bytes && (c->in == NULL ||
	    c->out == NULL)))
		return sps_fail(SPS_ENOMEM, "out of memory");
	if (c->p->start > 0)
		return sps_reader_skip(c->r, c->p->start);
	return SPS_OK;
}

enum sps_err
sps_fbcopy_create(struct sps_fbcopy **cp, struct sps_filterbank *p,
    struct sps_reader *r)
{
	struct sps_fbcopy *c;
	enum sps_err e;

	*cp = NULL;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	c->p = p;
	c->r = r;
	c->left = p->count;
	if ((e = setup(c)) != SPS_OK) {
		sps_fbcopy_free(c);
		return e;
	}
	*cp = c;
	return SPS_OK;
}

void
sps_fbcopy_free(struct sps_fbcopy *c)
{
	if (c == NULL)
		return;
	free(c->raw);
	free(c->in);
	free(c->out);
	free(c);
}

int
sps_fbcopy_bytes(const struct sps_fbcopy *c)
{
	return c->bytes;
}

enum sps_err
sps_fbcopy_step(struct sps_fbcopy *c, struct sps_writer *w, size_t *got)
{
	size_t want = c->left < c->block ? (size_t)c->left : c->block;
	enum sps_err e, we;

	*got = 0;
	if (want == 0)
		return SPS_EEOF;
	if (c->bytes) {
		e = sps_reader_read_raw(c->r, c->raw, want, got);
		we = sps_writer_raw(w, c->raw, *got *
		    sps_spectrum_bytes(&c->r->hdr));
	} else {
		e = sps_reader_read(c->r, c->in, want, got);
		we = sps_writer_spectra(w, sps_filterbank_execute(c->p, c->in,
		    c->out, *got), *got);
	}
	c->left -= *got;
	return we != SPS_OK ? we : e;
}

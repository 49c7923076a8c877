/* cornerturn.h: time-major <-> channel-major blocks.
 *
 * A stream is cut into blocks of `block` time samples (the last block may
 * be shorter).  A block of n samples is an n x ncols matrix of values of
 * nbits each, where ncols is the number of values per time sample
 * (nifs * nchans for filterbank data):
 *
 *	time-major (SIGPROC):	value (t, k) is value t * ncols + k
 *	channel-major:		value (t, k) is value k * n + t
 *
 * Both are packed continuously in the stream's nbits as the codec packs
 * them (codec.h; 1, 2 and 4 bits: the earliest value in the lowest bits),
 * so a block holds the same number of bytes in either order, and
 * block * ncols * nbits must be a multiple of 8 so that every block
 * starts on a byte.  Values are moved as raw bit patterns (32-bit NaN
 * payloads and signed 8-bit data included), so turning a stream and
 * turning it back gives the same bytes.
 *
 * A channel-major stream has a SIGPROC header with sps_order 1 and
 * sps_block = block (keywords SIGPROC readers do not know, so they refuse
 * the stream rather than misread it).  sps_stream_shape() is the one
 * place that says how a header maps to (order, ncols, nbits): a new
 * stream kind (the DM-time stream) is added there. */
#ifndef SPS_CORNERTURN_H
#define SPS_CORNERTURN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "header.h"

#define SPS_CT_BLOCK_DEFAULT	4096		/* samples per block */
#define SPS_CT_VALUES_MAX	((size_t)1 << 30) /* values per block */

enum sps_order {
	SPS_ORDER_TIME = 0,	/* SIGPROC spectra order */
	SPS_ORDER_CHANNEL = 1,	/* per block, each channel's run of samples */
	SPS_ORDER_DM = 2,	/* DM-major DM-time file (dmturn.h) */
	SPS_ORDER_DMTIME = 3	/* the DM-time stream of sps-dedisperse */
};

/* How a stream's blocks are laid out. */
struct sps_stream_shape {
	enum sps_order	order;
	size_t		ncols;	/* values per time sample */
	int		nbits;
	size_t		block;	/* samples per block (channel-major), or 0 */
};

/* The shape of the stream that h heads.  Returns SPS_EVALUE for a bad
 * sps_order or sps_block, SPS_EFORMAT for a stream kind that cannot be
 * turned (DM-time streams, until their layout is defined here). */
enum sps_err sps_stream_shape(const struct sps_header *h,
    struct sps_stream_shape *s);

/* Whether blocks of `block` samples are possible: at least 1, whole
 * bytes, at most SPS_CT_VALUES_MAX values.  Returns SPS_OK or
 * SPS_EVALUE. */
enum sps_err sps_cornerturn_check_block(size_t block, size_t ncols,
    int nbits);

/* Bytes of a block of n samples (either order). */
size_t sps_cornerturn_block_bytes(size_t n, size_t ncols, int nbits);

/* The plan: scratch space for blocks of up to `block` samples. */
struct sps_cornerturn;

/* Returns SPS_OK, SPS_EVALUE (see sps_cornerturn_check_block) or
 * SPS_ENOMEM.  The plan allocates everything it needs here. */
enum sps_err sps_cornerturn_create(struct sps_cornerturn **plan,
    size_t block, size_t ncols, int nbits);

/* Turn one block of n <= block samples from the order `from` to the
 * other one.  in and out hold sps_cornerturn_block_bytes(n) bytes each
 * and must not overlap; unused bits at the end of out are 0. */
void sps_cornerturn_execute(struct sps_cornerturn *plan,
    enum sps_order from, const unsigned char *in, unsigned char *out,
    size_t n);

void sps_cornerturn_free(struct sps_cornerturn *plan);

/* The header of the turned stream, as bytes in *out (malloc'ed, *outlen
 * bytes).  raw (rawlen bytes, or NULL) is the input header as read: to
 * channel-major, sps_order 1 and sps_block are added just before
 * HEADER_END; to time-major, those two are removed again, so that a round
 * trip gives back the input's header byte for byte; to the order the
 * input has (with the same block), raw itself.  A header not laid out
 * that way (or raw NULL) is written afresh from h in sps's keyword
 * order.  Returns SPS_OK, SPS_ENOMEM or SPS_EIO. */
enum sps_err sps_cornerturn_header(const struct sps_header *h,
    const unsigned char *raw, size_t rawlen, enum sps_order to,
    size_t block, unsigned char **out, size_t *outlen);

/* A SIGPROC stream of either order read as raw blocks, keeping the bytes
 * of its header (the input is read through a recording stream; nothing
 * seeks, so pipes work). */
struct sps_ct_input {
	struct sps_header	 hdr;
	struct sps_stream_shape	 shape;
	unsigned char		*hdr_bytes;	/* hdr.length bytes */
	uint64_t		 nsamples;	/* samples handed out so far */
	const char		*name;		/* for messages */
	FILE			*f;		/* the recording stream */
	void			*tee;
	int			 ended;
	uint64_t		 cut_bytes;	/* after the last spectrum */
};

/* Read the header of in (name is used in messages).  Returns SPS_OK or
 * the errors of sps_header_read and sps_stream_shape, prefixed with the
 * name.  in is not closed by sps_ct_input_close. */
enum sps_err sps_ct_input_open(struct sps_ct_input *ci, FILE *in,
    const char *name);

/* Read up to n samples of raw data (sps_cornerturn_block_bytes(n)
 * bytes); n * ncols * nbits must be a multiple of 8.  *got is n except at
 * the end of the data.  Time-major data cut inside a spectrum end with
 * the last whole one, and cut_bytes counts the bytes after it.  Returns
 * SPS_OK, SPS_EEOF (nothing left), SPS_ETRUNC (channel-major data cut
 * inside a sample, or not one whole spectrum) or SPS_EIO. */
enum sps_err sps_ct_input_read(struct sps_ct_input *ci, unsigned char *buf,
    size_t n, size_t *got);

void sps_ct_input_close(struct sps_ct_input *ci);

#endif

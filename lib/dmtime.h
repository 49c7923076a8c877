/* dmtime.h: the DM-time stream sps-dedisperse writes and sps-boxcar reads.
 *
 * A SIGPROC-style header (sps_dmtime 1, a DM_TABLE of every trial's DM and
 * scrunch factor, sps_block, sps_maxdelay; SIGPROC readers refuse it on
 * the unknown keywords) followed by blocks in time order.  A block opens
 * with 8 bytes: "SPSB" and an int32 n, the base (unscrunched) samples it
 * covers; then, trial after trial, trial i's n / f_i samples: float32,
 * or 8/16-bit unsigned integers with value = (raw - 2^(nbits-1)) * scale *
 * sqrt(f_i) + offset * f_i, scale = sps_scale and offset = sps_offset.  Block k starts at
 * base sample k * sps_block; all blocks but the last have n = sps_block,
 * a multiple of every scrunch factor.  Sample j of trial i in block k is
 * the dedispersed signal that reached the top of the band (fch1) during
 * base samples k * sps_block + j * f_i .. + f_i - 1. */
#ifndef SPS_DMTIME_H
#define SPS_DMTIME_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "header.h"

/* Floats in a block of n base samples, and trial i's offset in it. */
size_t sps_dmtime_block_values(const struct sps_header *h, size_t n);
size_t sps_dmtime_trial_offset(const struct sps_header *h, size_t n,
    int trial);

/* The 8 bytes that open a block of n base samples: write them, or read
 * them and check n (1 .. sps_block); SPS_EEOF at a clean end. */
enum sps_err sps_dmtime_write_frame(FILE *out, size_t n);
enum sps_err sps_dmtime_read_frame(FILE *in, const struct sps_header *h,
    size_t *n);

/* The packed bytes of integer blocks, kept from block to block so that
 * a stream's blocks do not each fault in fresh pages: whole pages of its
 * own (cap bytes), which a pipe may be lent (pipewide.h).  Zeroed to
 * start; sps_dmtime_scratch_free frees it. */
struct sps_dmtime_scratch {
	unsigned char	*raw;
	size_t		 cap;
};

void sps_dmtime_scratch_free(struct sps_dmtime_scratch *s);

/* s's bytes, at least bytes of them (NULL when out of memory). */
unsigned char *sps_dmtime_scratch_room(struct sps_dmtime_scratch *s,
    size_t bytes);

/* Write one block (values as laid out above, float32); integer nbits
 * are packed with the header's scale and offset, clipping counted. */
enum sps_err sps_dmtime_write_block(FILE *out, const struct sps_header *h,
    const float *values, size_t n, unsigned long long *nclipped);

/* An integer block packed into s with its 8 opening bytes, ready to
 * write: *bytes of them (for a writer of its own, bytewriter.h). */
enum sps_err sps_dmtime_pack_block(const struct sps_header *h,
    const float *values, size_t n, unsigned long long *nclipped,
    struct sps_dmtime_scratch *s, size_t *bytes);

/* Read the next block into values (room for sps_block base samples);
 * sets *n.  SPS_EEOF at a clean end, SPS_ETRUNC or SPS_EFORMAT when the
 * stream is cut or corrupt.  s keeps an integer block's packed bytes
 * (NULL: memory had for this block alone). */
enum sps_err sps_dmtime_read_block(FILE *in, const struct sps_header *h,
    float *values, size_t *n, struct sps_dmtime_scratch *s);

/* Bytes of an integer block's samples, its 8 opening bytes not
 * counted. */
size_t sps_dmtime_block_bytes(const struct sps_header *h, size_t n);

/* Read the next integer block's samples into raw (room for the bytes of
 * sps_block base samples) as they are, for the GPU to unpack (each as
 * sps_dmtime_read_block would, in double, then to float); sets *n and
 * fails as sps_dmtime_read_block does. */
enum sps_err sps_dmtime_read_packed(FILE *in, const struct sps_header *h,
    unsigned char *raw, size_t *n);

/* Scale and offset for integer output from a first block of float
 * values (mean and rms per unscrunched sample): 8-bit spans +-16 rms of
 * each trial's noise, 16-bit +-256 rms.  Sets sps_scale and sps_offset
 * in h. */
void sps_dmtime_choose_scale(struct sps_header *h, const float *values,
    size_t n);

#endif

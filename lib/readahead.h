/* readahead.h: a search's input (dmtime_in.h) read one block ahead by a
 * thread, so that reading and unpacking the next block overlaps the
 * search of this one. */
#ifndef SPS_READAHEAD_H
#define SPS_READAHEAD_H

#include <stddef.h>

#include "dmtime_in.h"
#include "error.h"
#include "search.h"

struct sps_readahead;

/* Start reading in, which the read-ahead then owns until stopped, for
 * search: for a search on the GPU, into page-locked blocks (devices.h)
 * that copy to it at its full rate, where they can be had, and an 8- or
 * 16-bit stream's blocks as they were read, for the GPU to unpack (a
 * quarter or half of the floats' bytes to copy, and no unpacking here). */
enum sps_err sps_readahead_start(struct sps_readahead **rp,
    struct sps_dmtime_in *in, const struct sps_search *search);

/* The next block fed to the search it was started for: *n base samples,
 * 0 at the end (nothing fed). */
enum sps_err sps_readahead_feed(struct sps_readahead *r,
    struct sps_search *search, size_t *n);

/* The next block: *data (max_values floats, or max_packed bytes packed,
 * at most; valid until the next call), *n base samples, 0 at the end. */
enum sps_err sps_readahead_next(struct sps_readahead *r, const void **data,
    size_t *n);

/* Stop the thread (waiting for a read in progress) and free the blocks. */
void sps_readahead_stop(struct sps_readahead *r);

#endif

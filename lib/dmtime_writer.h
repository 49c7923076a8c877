/* dmtime_writer.h: the packed blocks of a DM-time stream written by a
 * thread of their own, so that writing one block (to a pipe, at the
 * reader's pace) overlaps dedispersing and packing the next.  Two
 * buffers: the caller packs into one while the thread writes the other. */
#ifndef SPS_DMTIME_WRITER_H
#define SPS_DMTIME_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include "dmtime.h"
#include "error.h"

struct sps_dmtime_writer;

/* Start a thread writing to f, which the caller leaves alone until
 * sps_dmtime_writer_finish. */
enum sps_err sps_dmtime_writer_start(struct sps_dmtime_writer **wp,
    FILE *f);

/* The buffer to pack the next block into, once the thread is done with
 * it; SPS_EIO when a write failed (the thread writes no more). */
enum sps_err sps_dmtime_writer_next(struct sps_dmtime_writer *w,
    struct sps_dmtime_scratch **buf);

/* Hand the buffer of sps_dmtime_writer_next to the thread: its first
 * bytes are written. */
void sps_dmtime_writer_submit(struct sps_dmtime_writer *w, size_t bytes);

/* Wait for every block to be written, stop the thread and free w;
 * SPS_EIO when a write failed. */
enum sps_err sps_dmtime_writer_finish(struct sps_dmtime_writer *w);

/* Stop after the write in progress, unwritten blocks dropped, and free w
 * (NULL: nothing). */
void sps_dmtime_writer_abort(struct sps_dmtime_writer *w);

#endif

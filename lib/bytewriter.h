/* bytewriter.h: blocks of bytes written to a stream by a thread of their
 * own, so that writing one (to a pipe, at its reader's pace) overlaps
 * making the next: an 8- or 16-bit DM-time stream's packed blocks
 * (dmtime.h), the runs of cleaned spectra of sps-clean.  Slots, two to
 * four: the thread writes them in turn while the caller fills the next;
 * more let the caller run further ahead of a reader that takes its data
 * in bursts. */
#ifndef SPS_BYTEWRITER_H
#define SPS_BYTEWRITER_H

#include <stddef.h>
#include <stdio.h>

#include "dmtime.h"
#include "error.h"

struct sps_bytewriter;

/* Start a thread writing to f, which the caller leaves alone until
 * sps_bytewriter_finish, from nslots slots (2 to 4). */
enum sps_err sps_bytewriter_start(struct sps_bytewriter **wp, FILE *f,
    int nslots);

/* Wait until the thread is done with the next slot; *buf (may be NULL)
 * is memory of the slot's own to fill (sps_dmtime_scratch_room), whose
 * bytes are not kept from one use to the next: to a pipe they are lent
 * to it (pipewide.h) and fresh pages take their place.  SPS_EIO when a
 * write failed (the thread writes no more). */
enum sps_err sps_bytewriter_next(struct sps_bytewriter *w,
    struct sps_dmtime_scratch **buf);

/* Hand the thread bytes of data for the slot of the last
 * sps_bytewriter_next: its own memory from its start, or the caller's,
 * which must stay as it is until the slot comes round again
 * (sps_bytewriter_next after nslots - 1 more submits) or
 * sps_bytewriter_finish, and is copied. */
void sps_bytewriter_submit(struct sps_bytewriter *w, const void *data,
    size_t bytes);

/* sps_bytewriter_next, then bytes of data copied (by all threads) into
 * the slot's own memory and handed over: memory the caller is about to
 * change, written as the slot's own (to a pipe, lent). */
enum sps_err sps_bytewriter_copy(struct sps_bytewriter *w, const void *data,
    size_t bytes);

/* Wait for every block to be written, stop the thread and free w;
 * SPS_EIO when a write failed. */
enum sps_err sps_bytewriter_finish(struct sps_bytewriter *w);

/* Stop after the write in progress, unwritten blocks dropped, and free w
 * (NULL: nothing). */
void sps_bytewriter_abort(struct sps_bytewriter *w);

#endif

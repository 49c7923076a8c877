/* dmturn.h: the DM-time stream (dmtime.h) turned DM-major on disk, and
 * back.
 *
 * A DM-major file has the DM-time header with sps_order 2 and nsamples
 * (N, base samples) set, then trial after trial each trial's whole series
 * (its samples of every block, in block order: N / f_i of them when N is
 * a multiple of sps_block, in the stream's nbits).  SIGPROC readers
 * refuse it on the sps keywords; sps-cornerturn turns it back. */
#ifndef SPS_DMTURN_H
#define SPS_DMTURN_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "header.h"

#define SPS_ORDER_DM_MAJOR	2	/* sps_order of a DM-major file */

/* Samples trial i holds in a DM-major file of n base samples. */
uint64_t sps_dmturn_trial_samples(const struct sps_header *h, int trial,
    uint64_t n);

/* Read the DM-time blocks that follow h from in and write the DM-major
 * file to out, which must be a regular file (it is written out of order).
 * When h has no nsamples (a pipe), the blocks are first spooled to a
 * temporary file.  *n gets the base samples.  A fault of the input names
 * it (name). */
enum sps_err sps_dmturn_to_dm(FILE *in, const char *name,
    const struct sps_header *h, FILE *out, uint64_t *n);

/* Read the DM-major file in (a regular file called name; h is its header,
 * just read) and write the DM-time stream to out. */
enum sps_err sps_dmturn_to_time(FILE *in, const char *name,
    const struct sps_header *h, FILE *out);

#endif

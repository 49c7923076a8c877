/* dmtime_in.h: the input of a search: a DM-time stream (dmtime.h) or one
 * dedispersed time series (a SIGPROC .tim, 1 channel, or a PRESTO .dat
 * with its .inf, presto.h), read as DM-time blocks (a series is a stream
 * of one trial). */
#ifndef SPS_DMTIME_IN_H
#define SPS_DMTIME_IN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "dmtime.h"
#include "header.h"

#define SPS_SERIES_BLOCK	65536	/* samples of a series a block */

struct sps_dmtime_in {
	struct sps_header	 hdr;
	FILE			*f;
	const char		*name;		/* "stdin" for - */
	int			 is_series;	/* else a DM-time stream */
	int			 is_dat;	/* a PRESTO .dat */
	uint64_t		 left;		/* samples of a .dat unread */
	uint64_t		 nsamples;	/* base samples; 0: unknown */
	size_t			 max_block;	/* base samples */
	size_t			 max_values;	/* floats of the largest block */
	size_t			 max_packed;	/* its bytes, packed (8, 16
						 * bits) */
	unsigned char		*raw;		/* a series' packed block */
	struct sps_dmtime_scratch scratch;	/* a stream's */
};

/* Open path ("-" for standard input) and read its header.  A file that
 * does not begin as SIGPROC's do is read as a PRESTO .dat when its name
 * ends in .dat or an .inf is beside it.  SPS_EFORMAT for an S/N plane,
 * filterbank data or other things not searchable, and for a .dat on
 * standard input (no .inf). */
enum sps_err sps_dmtime_in_open(struct sps_dmtime_in *in, const char *path);

/* The next block (room for max_values floats): *n base samples, 0 at
 * the end. */
enum sps_err sps_dmtime_in_read(struct sps_dmtime_in *in, float *values,
    size_t *n);

/* Whether blocks can be read packed (an 8- or 16-bit stream), and the
 * next block so (room for max_packed bytes), as dmtime.h's
 * sps_dmtime_read_packed. */
int sps_dmtime_in_packed(const struct sps_dmtime_in *in);
enum sps_err sps_dmtime_in_read_packed(struct sps_dmtime_in *in,
    unsigned char *raw, size_t *n);

void sps_dmtime_in_close(struct sps_dmtime_in *in);

#endif

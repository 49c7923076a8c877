/* killmask.h: Heimdall's channel kill file: one number per channel, in
 * channel order, 1 to use the channel and 0 to leave it out; and the
 * channels a search leaves out, from such a file and PRESTO's
 * -ignorechan list. */
#ifndef SPS_KILLMASK_H
#define SPS_KILLMASK_H

#include <stdio.h>

#include "error.h"
#include "header.h"

/* Read nchans flags from f into kill (non-zero = leave out).  Blank lines
 * and '#' comments are skipped.  SPS_EVALUE when the file holds more or
 * fewer than nchans numbers or a number other than 0 and 1. */
enum sps_err sps_killmask_read(FILE *f, const char *name, int nchans,
    unsigned char *kill);

/* sps_killmask_read of the file at path into *kill (malloc'd, nchans
 * flags); SPS_EIO when it cannot be opened. */
enum sps_err sps_killmask_load(const char *path, int nchans,
    unsigned char **kill);

/* The channels a search leaves out: those the kill file at path marks
 * (NULL: none) and those of a PRESTO channel list (chanmask.h; NULL:
 * none), which numbers channels from the lowest frequency, the reverse
 * of the file's order when h->foff < 0.  *kill is malloc'd (h->nchans
 * flags), or NULL when neither is given. */
enum sps_err sps_killmask_make(const char *path, const char *ignorechan,
    const struct sps_header *h, unsigned char **kill);

#endif

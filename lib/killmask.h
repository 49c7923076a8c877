/* killmask.h: Heimdall's channel kill file: one number per channel, in
 * channel order, 1 to use the channel and 0 to leave it out. */
#ifndef SPS_KILLMASK_H
#define SPS_KILLMASK_H

#include <stdio.h>

#include "error.h"

/* Read nchans flags from f into kill (non-zero = leave out).  Blank lines
 * and '#' comments are skipped.  SPS_EVALUE when the file holds more or
 * fewer than nchans numbers or a number other than 0 and 1. */
enum sps_err sps_killmask_read(FILE *f, const char *name, int nchans,
    unsigned char *kill);

/* sps_killmask_read of the file at path into *kill (malloc'd, nchans
 * flags); SPS_EIO when it cannot be opened. */
enum sps_err sps_killmask_load(const char *path, int nchans,
    unsigned char **kill);

#endif

/* chanmask.h: channels to leave out, as PRESTO's -ignorechan and mask
 * lists give them: "C", "A:B" or "A:B:STEP" (inclusive), separated by
 * blanks or commas, '#' starting a comment to the end of its line. */
#ifndef SPS_CHANMASK_H
#define SPS_CHANMASK_H

#include <stdio.h>

#include "error.h"

/* Set masked[c] to 1 for every channel c the list names.  where names
 * the list in messages.  SPS_EVALUE for a token that is not a channel or
 * a range, or a channel not below nchans. */
enum sps_err sps_chanmask_parse(const char *list, const char *where,
    int nchans, unsigned char *masked);

/* The same for a text file of such lists, named name in messages; CR
 * counts as a blank.  SPS_EVALUE also for a file that is not text (a
 * binary rfifind mask) or longer than 16 MiB, SPS_EIO for a read error.
 * An empty file masks nothing. */
enum sps_err sps_chanmask_read(FILE *f, const char *name, int nchans,
    unsigned char *masked);

#endif

/* passthrough.h: a reader's spectra copied untouched to a writer, as
 * sps-header does under an edited header.  Spectra that are whole bytes
 * go over as raw bytes; others (odd channel counts at 1, 2 or 4 bits) are
 * unpacked and packed again, which keeps every value. */
#ifndef SPS_PASSTHROUGH_H
#define SPS_PASSTHROUGH_H

#include <stdint.h>

#include "error.h"
#include "reader.h"
#include "writer.h"

/* Copy every spectrum left in r to w (or only count them when w is
 * NULL) and set *nspectra to how many there were.  Returns SPS_OK at the
 * end of the input, or the reader's or writer's error. */
enum sps_err sps_passthrough(struct sps_reader *r, struct sps_writer *w,
    uint64_t *nspectra);

#endif

/* fbcopy.h: sps-filterbank's data, from a reader (reader.h) to a writer
 * (writer.h) block after block: as the bytes they are when the plan
 * changes no value (sps_filterbank_copies_bytes), else through
 * sps_filterbank_execute. */
#ifndef SPS_FBCOPY_H
#define SPS_FBCOPY_H

#include <stddef.h>

#include "error.h"
#include "filterbank.h"
#include "reader.h"
#include "writer.h"

struct sps_fbcopy;

/* A copy of plan p's span of r (skipped to its start now). */
enum sps_err sps_fbcopy_create(struct sps_fbcopy **c,
    struct sps_filterbank *p, struct sps_reader *r);
void sps_fbcopy_free(struct sps_fbcopy *c);

/* Whether the spectra go over as bytes. */
int sps_fbcopy_bytes(const struct sps_fbcopy *c);

/* The next block to w: *got spectra (what was read is written before a
 * read error is returned).  SPS_EEOF at the end of the span or input. */
enum sps_err sps_fbcopy_step(struct sps_fbcopy *c, struct sps_writer *w,
    size_t *got);

#endif

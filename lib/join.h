/* join.h: several files in time order read as one stream, through the
 * reader interface of reader.h. */
#ifndef SPS_JOIN_H
#define SPS_JOIN_H

#include "reader.h"

/* Open several files in time order as one stream (SIGPROC or PSRFITS);
 * one path is sps_reader_open. */
enum sps_err sps_reader_open_many(struct sps_reader *r, char *const *paths,
    int npaths);

/* Like sps_reader_open_many for SIGPROC files, with a choice for gaps
 * between files: refused (fill_gaps 0) or filled with the mean of the
 * previous file's last block (fill_gaps 1).  Files must agree in nchans,
 * nbits, nifs, tsamp, fch1 and foff, and follow each other in tstart
 * (within half a sample); r->gap_spectra counts what was filled. */
enum sps_err sps_reader_open_joined(struct sps_reader *r, char *const *paths,
    int npaths, int fill_gaps);

#endif

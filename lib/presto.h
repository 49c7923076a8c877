/* presto.h: PRESTO's .inf description of a .dat time series. */
#ifndef SPS_PRESTO_H
#define SPS_PRESTO_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "header.h"

/* Write the .inf for root.dat: n samples of the time series h describes
 * (tsamp, tstart, refdm, source and telescope), made from nchans input
 * channels of width foff (MHz) whose lowest centre is flow (MHz).  The
 * epoch is the start of the first sample at the top of the band. */
enum sps_err sps_presto_write_inf(FILE *f, const char *root,
    const struct sps_header *h, uint64_t n, int nchans, double foff,
    double flow);

#endif

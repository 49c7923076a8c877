/* fakeparse.h: the values of sps-fake's --pulse and --rfi specs. */
#ifndef SPS_FAKEPARSE_H
#define SPS_FAKEPARSE_H

#include "error.h"

/* A finite number, the whole of text.  SPS_EVALUE "KEY: 'text' is not a
 * number" otherwise. */
enum sps_err sps_fake_parse_number(const char *key, const char *text,
    double *v);

/* A time in s: a number, then nothing or s, ms, us, samp or samples
 * (samples of tsamp s).  SPS_EVALUE naming key otherwise. */
enum sps_err sps_fake_parse_time(const char *key, const char *text,
    double tsamp, double *v);

#endif

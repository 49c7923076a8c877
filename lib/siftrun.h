/* siftrun.h: sps-peaks' stage on an event stream: the stream opened and
 * its header read and checked, then every event through the sift
 * (sift.h) and every candidate into a sink (candsink.h). */
#ifndef SPS_SIFTRUN_H
#define SPS_SIFTRUN_H

#include <stdio.h>

#include "candsink.h"
#include "error.h"
#include "events.h"
#include "sift.h"

struct sps_sift_input {
	FILE			*f;
	const char		*name;	/* the path, or "stdin" */
	struct sps_events_meta	 meta;
};

/* Open path ("-": the standard input) and read its header; SPS_ETRUNC
 * for an empty input, SPS_EUPSTREAM for an empty pipe (the stage before
 * has said why), SPS_EVALUE for a tsamp that is not a positive number.
 * Errors name the input. */
enum sps_err sps_sift_input_open(struct sps_sift_input *in, const char *path);
void sps_sift_input_close(struct sps_sift_input *in);

/* Every event of in through s, every candidate into sink, a warning on
 * warn for each flood as it ends.  An error names the input and the
 * event, or sink_name (if not NULL) for a failure of the sink. */
enum sps_err sps_sift_run(struct sps_sift *s, struct sps_sift_input *in,
    struct sps_cand_sink *sink, const char *sink_name, FILE *warn);

#endif

/* events.h: the event stream sps-boxcar writes and sps-peaks reads.
 *
 * Text, so that it pipes, greps and reads by eye.  First a header of
 * lines "# key value" (the first line is "# sps-events 1"), then the
 * column line "# dm_index dm sample time width snr", then one event per
 * line, in the order found (by block, then trial, then sample):
 *
 *	dm_index  index of the trial in the DM list (0-based)
 *	dm        its DM, pc cm^-3
 *	sample    first base (unscrunched) sample of the boxcar, counted
 *	          from the first sample of the input file
 *	time      sample * tsamp, seconds from tstart, at the top of the band
 *	width     boxcar width in base samples
 *	snr       boxcar S/N: sum over the boxcar minus its mean, divided by
 *	          the standard deviation of such sums in noise
 *
 * An event marks one boxcar (one sample, one width, one trial) at or above
 * the threshold that is the best of its neighbours in time at its trial
 * (see sps-boxcar(1)). */
#ifndef SPS_EVENTS_H
#define SPS_EVENTS_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"

struct sps_events_meta {
	char	 source_name[81];
	double	 tstart;	/* MJD of sample 0 at the top of the band */
	double	 tsamp;		/* s, base sample */
	double	 fch1;		/* MHz, the reference (top) frequency */
	double	 foff;		/* MHz, input channel width */
	int	 nchans;	/* input channels */
	int	 ndms;		/* trials in the DM list */
	double	 dm_lo, dm_hi;	/* first and last trial DM */
	uint64_t nsamples;	/* base samples searched (0 if unknown) */
	double	 threshold;	/* S/N */
	char	 algorithm[32];	/* e.g. "BD-16", "IG(1)", "exhaustive" */
	int	 max_width;	/* base samples */
	char	 input[256];	/* file name, "stdin" for a pipe */
};

struct sps_event {
	int	 dm_index;
	double	 dm;
	uint64_t sample;
	double	 time;
	int	 width;
	float	 snr;
};

enum sps_err sps_events_write_header(FILE *f, const struct sps_events_meta *m);
enum sps_err sps_events_write(FILE *f, const struct sps_event *e);

/* SPS_EFORMAT when the input is not an event stream. */
enum sps_err sps_events_read_header(FILE *f, struct sps_events_meta *m);
/* SPS_EEOF at the end; SPS_EFORMAT naming the line for a bad line. */
enum sps_err sps_events_read(FILE *f, struct sps_event *e);

/* The header m (if not NULL) and events e[0..n) as a reader of the text
 * sees them: written and read back, so that a consumer in the same
 * process gets the values, to the last digit, that a pipe gives
 * sps-peaks. */
enum sps_err sps_events_as_written(struct sps_events_meta *m,
    struct sps_event *e, size_t n);

#endif

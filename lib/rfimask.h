/* rfimask.h: PRESTO rfifind .mask files, read as rfifind writes them
 * (byte layout in sps-formats(5), RFIFIND MASKS).  Channels are numbered
 * as PRESTO numbers them, from the lowest frequency; an interval is
 * ptsperint spectra. */
#ifndef SPS_RFIMASK_H
#define SPS_RFIMASK_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"

struct sps_rfimask {
	double	 timesigma, freqsigma;	/* rfifind's cut-offs */
	double	 mjd, dtint;		/* start; interval, s */
	double	 lofreq, dfreq;		/* lowest channel, width: MHz */
	int	 numchan, numint, ptsperint;
	unsigned char *zap_chan;	/* numchan: masked throughout */
	unsigned char *zap_int;		/* numint: every channel masked */
	int	*first;			/* numint + 1: interval i's channels */
	int	*chans;			/* are chans[first[i] .. first[i+1]) */
};

/* Read a mask from f (named name in messages).  SPS_ETRUNC when it ends
 * early, SPS_EFORMAT for counts or channels out of range or bytes after
 * the end, SPS_EIO for a read error. */
enum sps_err sps_rfimask_read(FILE *f, const char *name,
    struct sps_rfimask *m);
/* The same for the file at path. */
enum sps_err sps_rfimask_load(const char *path, struct sps_rfimask *m);
void sps_rfimask_free(struct sps_rfimask *m);

/* SPS_EVALUE "NAME: N channels, the data have M" unless they agree. */
enum sps_err sps_rfimask_check(const struct sps_rfimask *m,
    const char *name, int nchans);

/* The interval of a spectrum (the last interval for spectra past it). */
int sps_rfimask_interval(const struct sps_rfimask *m, uint64_t spectrum);

/* Set masked[c] (PRESTO's numbers) for the channels masked in interval
 * i, the whole-observation ones included; others are left as they are.
 * Returns how many are masked. */
int sps_rfimask_channels(const struct sps_rfimask *m, int i,
    unsigned char *masked);

#endif

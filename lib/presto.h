/* presto.h: PRESTO time series: a .dat of native float32 samples with
 * no header, described by the text .inf beside it (sps-formats(5),
 * PRESTO TIME SERIES).  presto.c writes .inf files, presto_read.c reads
 * them, presto_dat.c opens .dat files. */
#ifndef SPS_PRESTO_H
#define SPS_PRESTO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "header.h"

/* The channels a series was summed from, as the .inf gives them. */
struct sps_presto_band {
	int	nchans;		/* 0: not known (no radio lines) */
	double	width;		/* MHz, of one channel, >= 0 */
	double	low;		/* MHz, centre of the lowest channel */
};

/* The centre of the top channel (MHz): the frequency an sps series refers
 * to, its header's fch1. */
double sps_presto_band_top(const struct sps_presto_band *b);

/* What an .inf says beyond the header of its series. */
struct sps_presto_inf {
	const char	*root;		/* data file name without suffix */
	uint64_t	 n;		/* samples in root.dat */
	struct sps_presto_band band;	/* the channels summed */
	const char	*analyzer;	/* "Data analyzed by" */
	const char	*note;		/* the additional notes, one line */
};

/* Write the .inf of inf->root.dat, a series h describes (tsamp, tstart,
 * refdm, source, position, telescope and machine).  The epoch is tstart,
 * the start of the first sample at the top of the band.  SPS_EIO when
 * writing fails. */
enum sps_err sps_presto_write_inf(FILE *f, const struct sps_header *h,
    const struct sps_presto_inf *inf);

/* The same into root.inf, under a temporary name until complete
 * (writer.h). */
enum sps_err sps_presto_save_inf(const struct sps_header *h,
    const struct sps_presto_inf *inf);

/* Read an .inf (name: its path, for messages) into h, the header of a
 * one-channel float32 time series, with *n its samples and *band its
 * channels; h's fch1 is sps_presto_band_top(band), so that a header
 * written and read back is the same, and its foff (-width) and
 * sps_nchans_in give the band without being marked present (a SIGPROC
 * series has neither).  The lines are matched by label
 * and PRESTO's two spellings are accepted.  Needed: the telescope, the
 * number of bins and their width; for a real telescope (not "None
 * (Artificial Data Set)") the epoch, "Barycentered?" and the band; for a
 * radio band the DM and the channels.  SPS_EFORMAT, naming the file and
 * the line, for a missing or unreadable value; SPS_EIO. */
enum sps_err sps_presto_read_inf(FILE *f, const char *name,
    struct sps_header *h, uint64_t *n, struct sps_presto_band *band);

/* Whether an .inf is at path that analyzer did not write (by its "Data
 * analyzed by" line; one that cannot be read counts as another's), which
 * a program that would write its own keeps. */
int sps_presto_inf_by_other(const char *path, const char *analyzer);

/* The .inf beside path: path less its suffix (after the last '.' of the
 * file name), plus ".inf".  Allocated; NULL without memory. */
char *sps_presto_inf_path(const char *path);

/* Whether the n bytes read from the start of a file are not how a
 * SIGPROC header begins (a file too short to tell is SIGPROC's to judge:
 * n 0 is not "not"). */
int sps_presto_not_sigproc(const unsigned char *head, size_t n);

/* Whether path, whose first bytes are head[0..n), is a PRESTO .dat: it
 * does not begin as SIGPROC's files do, and its name ends in .dat or an
 * .inf is beside it.  Never for "-": the standard input has no .inf. */
int sps_presto_is_dat(const char *path, const unsigned char *head,
    size_t n);

/* Open the .dat at path: its .inf read into h and *n, *f the .dat at its
 * first sample.  SPS_EFORMAT when the .inf is missing or unreadable, or
 * the .dat (a regular file) does not hold n samples; SPS_EIO. */
enum sps_err sps_presto_open_dat(const char *path, FILE **f,
    struct sps_header *h, uint64_t *n);

#endif

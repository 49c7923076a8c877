/* psrfits.h: PSRFITS search-mode input through libcfitsio.
 *
 * sps_reader_open() recognises a FITS file by its first card and hands it
 * to sps_reader_attach_psrfits() (reader.h); the reader then gives out
 * spectra like any other, with nifs 1 and the SIGPROC frequency
 * convention.  The choices below are taken from the options set last with
 * sps_psrfits_set_options() when the file is opened.
 *
 * Each sample becomes
 *	value = ((raw - ZERO_OFF) * DAT_SCL + DAT_OFFS) * DAT_WTS
 * per channel and polarisation (PRESTO's C reader and the PSRFITS
 * definition), each step switchable off.  1-, 2- and 4-bit samples have
 * the first sample in the high bits of a byte. */
#ifndef SPS_PSRFITS_H
#define SPS_PSRFITS_H

#include <stdint.h>
#include <stdio.h>

#include "reader.h"

#define SPS_POL_AUTO	(-1)	/* sum AA and BB, or take Stokes I */

enum sps_psrfits_fill {
	SPS_FILL_MEAN,		/* per-channel mean of the row before */
	SPS_FILL_ZERO
};

struct sps_psrfits_options {
	int	zero_off;	/* subtract ZERO_OFF (default 1) */
	int	scales;		/* multiply by DAT_SCL (default 1) */
	int	offsets;	/* add DAT_OFFS (default 1) */
	int	weights;	/* multiply by DAT_WTS (default 1) */
	int	pol;		/* polarisation index, or SPS_POL_AUTO */
	int	keep_order;	/* keep the file's channel order (default 0:
				 * foff negative, highest frequency first) */
	enum sps_psrfits_fill fill;	/* spectra of missing rows */
};

/* What a PSRFITS reader found and did: for summaries and warnings. */
#define SPS_PSRFITS_MAXWARN	16
#define SPS_PSRFITS_WARNLEN	200

/* Bits of sps_psrfits_info.applied: steps that change some value. */
#define SPS_STEP_ZERO_OFF	0x1
#define SPS_STEP_SCALES		0x2
#define SPS_STEP_OFFSETS	0x4
#define SPS_STEP_WEIGHTS	0x8

struct sps_psrfits_info {
	int	 nfiles;
	long	 nrows;		/* SUBINT rows in all files */
	int	 nsblk;		/* spectra per row */
	int	 npol;		/* polarisations in the file */
	char	 pol_type[24];	/* POL_TYPE as written */
	char	 pol_used[96];	/* what the reader hands out, in words */
	int	 file_nbits;	/* NBITS */
	double	 zero_off;	/* ZERO_OFF (0 if absent) */
	int	 applied;	/* SPS_STEP_* bits */
	int	 flipped;	/* channels reversed to make foff negative */
	int	 value_nbits;	/* nbits that holds every value exactly */
	int	 value_signed;	/* 8-bit values are signed */
	double	 chan_dm;	/* CHAN_DM (0 if absent) */
	char	 telescope[24], frontend[24], backend[24];
	uint64_t filled;	/* spectra filled for missing rows and gaps */
	int	 nwarnings;
	int	 warnings_dropped;	/* beyond SPS_PSRFITS_MAXWARN */
	char	 warnings[SPS_PSRFITS_MAXWARN][SPS_PSRFITS_WARNLEN];
};

/* All steps on, automatic polarisations, foff negative, mean fill. */
void sps_psrfits_defaults(struct sps_psrfits_options *o);

/* Options for PSRFITS files opened from now on (in this process). */
void sps_psrfits_set_options(const struct sps_psrfits_options *o);

/* The reader's PSRFITS details, or NULL when it reads something else. */
const struct sps_psrfits_info *sps_psrfits_info(const struct sps_reader *r);

/* Those details in three indented lines for people (files, rows, NBITS
 * and polarisations; telescope and backend; what was taken and which
 * steps changed values), written to out. */
void sps_psrfits_describe(FILE *out, const struct sps_psrfits_info *fi);

/* The nbits that holds every value r hands out exactly: hdr.nbits for
 * SIGPROC input; for PSRFITS the file's NBITS when no step changes a value
 * and one polarisation is taken, else 32. */
int sps_reader_value_nbits(const struct sps_reader *r);

#endif

/* candfile.h: candidate files: sps's table, Heimdall's .cand, PRESTO's
 * .singlepulse and the candidate CSV of FETCH (and your), with FETCH's
 * channel mask (sps-formats(5), CANDIDATE FILES); candsink.h says where
 * they go. */
#ifndef SPS_CANDFILE_H
#define SPS_CANDFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "peaks.h"

enum sps_cand_format {
	SPS_CAND_TEXT,		/* sps table with a header line */
	SPS_CAND_HEIMDALL,	/* Heimdall .cand */
	SPS_CAND_PRESTO,	/* PRESTO .singlepulse */
	SPS_CAND_FETCH		/* FETCH / your candidate CSV */
};

struct sps_cand_out {
	enum sps_cand_format format;
	FILE		*f;
	double		 tsamp;		/* s */
	const char	*data_file;	/* FETCH `file' */
	const char	*chan_mask;	/* FETCH `chan_mask_path', NULL: none */
	int		 flood_column;	/* FETCH: add a `flood' column */
	double		 max_rate;	/* for the flood comment */
	double		 flood_length;
	uint64_t	 written;	/* rows written */
	int64_t		 last_flood;	/* last flood window commented */
	int		 begun;		/* what comes before the rows written */
};

/* Parse a format name: text, heimdall, presto, fetch. */
enum sps_err sps_cand_format_parse(const char *name,
    enum sps_cand_format *fmt);
/* Set o up (after which the caller sets the FETCH fields). */
void sps_cand_out_init(struct sps_cand_out *o, enum sps_cand_format fmt,
    FILE *f, double tsamp);
/* Write what comes before the first row (PRESTO's header waits for the
 * first row: its file is empty when there are none).  sps_cand_out_write
 * does it for the first row, sps_cand_out_finish when there was none. */
enum sps_err sps_cand_out_begin(struct sps_cand_out *o);
enum sps_err sps_cand_out_write(struct sps_cand_out *o,
    const struct sps_cand *c);
enum sps_err sps_cand_out_finish(struct sps_cand_out *o);

/* FETCH's channel mask: the numbers of the killed channels (0-based, in
 * the file's channel order), one a line; kill may be NULL (none). */
enum sps_err sps_fetch_mask_write(FILE *f, const unsigned char *kill,
    int nchans);
/* The same to the file at path, under a temporary name until complete
 * (writer.h); errors name path. */
enum sps_err sps_fetch_mask_save(const char *path, const unsigned char *kill,
    int nchans);

#endif

/* candfile.h: candidate files: sps's table, Heimdall's .cand, PRESTO's
 * .singlepulse and the candidate CSV of FETCH (and your), with FETCH's
 * channel mask (sps-formats(5), CANDIDATE FILES). */
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

/* Candidates to one stream (out), or with root set to PRESTO's
 * ROOT_DM%.2f.singlepulse files, one per DM that has candidates (trials
 * whose DMs print alike share one), held until sps_cand_sink_close.
 * With meta set too, each file gets the ROOT_DM%.2f.inf that PRESTO's
 * single_pulse_search.py reads beside it to plot. */
struct sps_cand_sink {
	struct sps_cand_out out;	/* the stream, or the files' settings */
	const char	*root;
	const struct sps_events_meta *meta;	/* NULL: no .inf */
	struct sps_cand	*held;
	size_t		 nheld, capheld;
	uint64_t	 written;	/* candidates put */
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

/* Send candidates to out's stream, or (root not NULL) hold them for the
 * per-DM files that sps_cand_sink_close writes, each under a temporary
 * name until it is complete (writer.h). */
void sps_cand_sink_init(struct sps_cand_sink *s,
    const struct sps_cand_out *out, const char *root);
enum sps_err sps_cand_sink_put(struct sps_cand_sink *s,
    const struct sps_cand *c);
enum sps_err sps_cand_sink_close(struct sps_cand_sink *s);
void sps_cand_sink_free(struct sps_cand_sink *s);

#endif

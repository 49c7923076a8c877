/* candread.h: reading back the candidate files of candfile.h (sps's
 * table, Heimdall's .cand, PRESTO's .singlepulse, FETCH's CSV), and
 * Heimdall's own .cand files, into struct sps_cand (peaks.h); and the
 * choice of candidates that sps-plot and sps-candmaker share (--rank,
 * --top, --snr).
 *
 * The format is recognised by content (the table's and PRESTO's column
 * lines, FETCH's header or commas, Heimdall's nine or more bare
 * columns); the suffix only decides for an empty file.  Each format's
 * times are taken back to the start of the best boxcar as
 * sps-formats(5), CANDIDATE FILES, "Times" says: the table gives the
 * start; Heimdall, PRESTO and FETCH the centre, start + width / 2
 * (rounded down), so start = centre - width / 2.  Widths are
 * 2^filter for Heimdall's and FETCH's log2 columns.
 *
 * In each struct sps_cand read: best.sample is the boxcar's first base
 * sample, best.time = best.sample * tsamp (s after tstart), best.width
 * (samples), best.snr, best.dm, best.dm_index (-1 where the format has
 * none); members, first_sample, last_sample, dm_min/dm_max and flood
 * where the format has them (else members 1, the best boxcar's span and
 * dm_min = dm_max = dm). */
#ifndef SPS_CANDREAD_H
#define SPS_CANDREAD_H

#include <stddef.h>
#include <stdint.h>

#include "candfile.h"
#include "error.h"
#include "header.h"
#include "peaks.h"

struct sps_candlist {
	enum sps_cand_format format;	/* as recognised */
	int		 heimdall_columns; /* Heimdall: columns a line (9,
					 * 10 with beams, 13 coincidencer) */
	size_t		 n;		/* candidates */
	struct sps_cand	*cands;		/* n, in the file's order */
	int		*line;		/* n: each one's line, from 1 */
	double		 tsamp;		/* s, used for the times (given, or
					 * from the file's time columns;
					 * 0: unknown) */
	double		 tsamp_columns;	/* s, what the file's time and
					 * sample columns say (0: nothing) */
	char		 data_file[256];/* FETCH: the first `file' field */
	char		 path[256];	/* the candidate file, for messages */
};

/* Read the candidate file at path ("-": standard input).  tsamp (s) is
 * the data's sample time, or 0 when not known: a FETCH list (times
 * only) then cannot be read (SPS_EUSAGE); other formats take it from
 * their time and sample columns when they can.  Errors name the file
 * and line: "c.cand:12: 8 columns, Heimdall's have 9 or more". */
enum sps_err sps_candread(const char *path, double tsamp,
    struct sps_candlist *l);
/* The same from an open stream, named name in errors (and whose
 * suffix gives the format of an empty file). */
enum sps_err sps_candread_stream(FILE *f, const char *name, double tsamp,
    struct sps_candlist *l);
void sps_candlist_free(struct sps_candlist *l);

/* The format a file name's suffix says (.cand Heimdall, .singlepulse
 * PRESTO, .csv FETCH, .txt/.tab table); SPS_EUSAGE for another one. */
enum sps_err sps_cand_format_of_name(const char *path,
    enum sps_cand_format *fmt);

/* Is every candidate in data of nsamples spectra (SPS_NSAMPLES_UNKNOWN:
 * not checked) of header h, at a DM that makes sense for it?  A start
 * past the end, or a DM below 0, above SPS_CANDREAD_DM_MAX or whose
 * delay across the band is longer than the data, is SPS_EVALUE naming
 * the file and line: "c.cand:3: sample 90000 is past the end of the
 * data (60000 samples)". */
#define SPS_CANDREAD_DM_MAX	1e5
enum sps_err sps_candlist_check(const struct sps_candlist *l,
    const struct sps_header *h, uint64_t nsamples);

/* Which candidates to take: those of S/N >= snr_min, then of them the
 * top brightest (0: all), or only the one of rank `rank' (1: the
 * brightest; 0: no rank chosen). */
struct sps_candsel {
	double	 snr_min;	/* -INFINITY: no limit */
	size_t	 top;		/* 0: all */
	size_t	 rank;		/* 0: none */
};
void sps_candsel_defaults(struct sps_candsel *s);

/* Set the choice named by option ("rank", "top" or "snr", with or
 * without the leading "--") from its value.  SPS_EUSAGE, with a detail
 * naming the option and value, for a bad value (rank and top are
 * integers >= 1, snr a number) or another option.  --rank and --top
 * exclude each other. */
enum sps_err sps_candsel_parse(struct sps_candsel *s, const char *option,
    const char *value);

/* The chosen candidates of l as indices into l->cands, brightest first
 * (equal S/N: earlier in the file first), in *idx (malloc'd, *n of
 * them; NULL when none).  A rank beyond the list is SPS_EVALUE ("rank 5
 * of 3 candidates"). */
enum sps_err sps_candsel_apply(const struct sps_candsel *s,
    const struct sps_candlist *l, size_t **idx, size_t *n);

#endif

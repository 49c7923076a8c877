/* header.h: the SIGPROC header, read and written by counting bytes.
 *
 * Every keyword the real SIGPROC accepts, plus those that sigpyproc,
 * PRESTO, your and blimpy write, is in the keyword table (header.c); the
 * table gives each one its binary width.  A header is parsed without
 * ftell/fseek, so it arrives intact through a pipe. */
#ifndef SPS_HEADER_H
#define SPS_HEADER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "telescope.h"

#define SPS_HEADER_MAX	65536	/* longest header accepted, bytes */
#define SPS_STRING_MAX	80	/* longest keyword; string values kept */
#define SPS_VALUE_MAX	4096	/* longest string value read */
#define SPS_DMS_MAX	(1 << 24)	/* most trials in a DM_TABLE */

enum sps_kwtype {
	SPS_KW_INT,	/* 4-byte int */
	SPS_KW_DOUBLE,	/* 8-byte IEEE double */
	SPS_KW_STRING,	/* 4-byte length, then that many bytes, no NUL */
	SPS_KW_CHAR,	/* 1 byte, signed */
	SPS_KW_LONG	/* 8-byte integer (SIGPROC's long on LP64) */
};

/* The header as an open struct.  Units in the comments; a field counts
 * only when sps_header_has() says it was present (or set). */
struct sps_header {
	/* identification */
	char	source_name[SPS_STRING_MAX + 1];
	char	rawdatafile[SPS_STRING_MAX + 1];
	char	filename[SPS_STRING_MAX + 1];	/* sigpyproc */
	char	telescope[SPS_STRING_MAX + 1];	/* sigpyproc */
	char	obs_date[SPS_STRING_MAX + 1];	/* sigpyproc */
	char	obs_time[SPS_STRING_MAX + 1];	/* sigpyproc */
	int	telescope_id;
	int	machine_id;
	int	data_type;	/* 0 raw, 1 filterbank, 2 time series, ... */
	/* layout */
	int	nchans;
	int	nbits;		/* 1, 2, 4, 8, 16 or 32 */
	int	nifs;
	int	nbeams, ibeam;
	int	nbins;		/* folded data, phase bins */
	int	nsamples;	/* legacy; never trusted for data length */
	int	hdrlen, orig_hdrlen, new_hdrlen, sampsize;	/* sigpyproc */
	signed char sign;	/* keyword "signed": >0 unsigned, <0 signed */
	long long npuls;
	/* time */
	double	tstart;		/* MJD of the first sample */
	double	tsamp;		/* s */
	int	barycentric, pulsarcentric;
	/* frequency */
	double	fch1;		/* MHz, centre of channel 0 */
	double	foff;		/* MHz, channel width (negative: descending) */
	double	bandwidth, fbottom, ftop;	/* MHz, sigpyproc */
	double	*fchannel;	/* FREQUENCY_START table, nfchannel entries */
	int	nfchannel;
	/* pointing */
	double	src_raj;	/* hhmmss.s packed */
	double	src_dej;	/* ddmmss.s packed */
	double	az_start, za_start;	/* deg */
	/* processing */
	double	refdm;		/* pc cm^-3 */
	double	period;		/* s */
	double	flux, pb, ecc, asini, accel;	/* sigpyproc */

	/* sps streams: keywords SIGPROC does not know, so that SIGPROC
	 * readers refuse these streams rather than misread them */
	int	sps_order;	/* 1: channel-major blocks (sps-cornerturn) */
	int	sps_block;	/* samples per block of a channel-major or
				 * DM-time stream */
	int	sps_dmtime;	/* 1: DM-time stream (sps-dedisperse) */
	int	sps_maxdelay;	/* base samples of the input lost at its end
				 * to the largest delay of the plan */
	int	sps_nchans_in;	/* channels that were summed */
	double	sps_scale, sps_offset;	/* 8/16-bit DM-time: value =
					 * raw * scale + offset */
	double	*dms;		/* DM_TABLE: ndms trial DMs, pc cm^-3 */
	int	*scrunch;	/* DM_TABLE: each trial's time-scrunch factor */
	int	ndms;

	uint64_t present;	/* bit i: keyword i of the table was seen */
	uint32_t at[64];	/* byte offset of keyword i where it was read */
	size_t	length;		/* bytes of header read (0 if built) */
};

struct sps_keyword {
	const char	*name;
	enum sps_kwtype	type;
	size_t		offset;		/* into struct sps_header */
	const char	*origin;	/* "SIGPROC", "sigpyproc", ... */
};

/* The keyword table, in the order headers are written. */
extern const struct sps_keyword sps_keywords[];
extern const int sps_nkeywords;

/* Index of a keyword in the table, or -1. */
int sps_keyword_find(const char *name);

/* A header with every field zero, tables NULL, nothing present. */
void sps_header_init(struct sps_header *h);
void sps_header_free(struct sps_header *h);
/* Deep copy (duplicates the fchannel and DM tables). */
enum sps_err sps_header_copy(struct sps_header *dst,
    const struct sps_header *src);

int sps_header_has(const struct sps_header *h, const char *name);
/* Mark a keyword present (after assigning its field) or absent. */
void sps_header_mark(struct sps_header *h, const char *name);
void sps_header_unmark(struct sps_header *h, const char *name);

/* Read a header from in.  Returns SPS_OK, SPS_EFORMAT (not SIGPROC,
 * unknown keyword, bad token length, too long), SPS_ETRUNC (input ends
 * inside the header), SPS_EVALUE (sps_header_check failed) or SPS_EIO.
 * If prefix is not NULL, its nprefix bytes are taken as the first bytes
 * of the stream (already read to sniff the format). */
enum sps_err sps_header_read(FILE *in, const unsigned char *prefix,
    size_t nprefix, struct sps_header *h);

/* Check values the data cannot be read without. */
enum sps_err sps_header_check(const struct sps_header *h);

/* Whether keyword k of h is written: a present keyword of SIGPROC's or of
 * sps's streams, but `signed` only for signed 8-bit data (sign < 0), as
 * SIGPROC's fake writes none and some readers (AstroAccelerate) lose
 * their place on it, and no sigpyproc keyword: those that SIGPROC's
 * readers do not know are derived from the others (bandwidth, fbottom,
 * ftop), wrong once a header is rewritten (hdrlen, sampsize) or only
 * informative (filename, obs_date, ...); PRESTO stops at them. */
int sps_keyword_written(const struct sps_header *h, int k);

/* Whether every present keyword of h is written (a header read from a
 * file that sps_header_write would write back unchanged, but for order). */
int sps_header_writes_all(const struct sps_header *h);

/* Write h (the keywords sps_keyword_written takes) to out.  Returns
 * SPS_OK or SPS_EIO. */
enum sps_err sps_header_write(FILE *out, const struct sps_header *h);

/* Bytes sps_header_write would write. */
size_t sps_header_size(const struct sps_header *h);

/* Set a keyword from text ("fch1", "1400.5"); used by --set.  Returns
 * SPS_EVALUE for an unknown keyword or unparsable value. */
enum sps_err sps_header_set(struct sps_header *h, const char *name,
    const char *value);

/* Format keyword i's value as text into buf (for printing and JSON). */
void sps_header_format(const struct sps_header *h, int i, char *buf,
    size_t len);

/* Replace the DM table (copies dms and scrunch; scrunch NULL = all 1). */
enum sps_err sps_header_set_dms(struct sps_header *h, const double *dms,
    const int *scrunch, int ndms);

/* Derived values. */
size_t sps_spectrum_bytes(const struct sps_header *h);	/* one spectrum, ceil */
size_t sps_spectrum_values(const struct sps_header *h);	/* nifs*nchans */
/* Bytes that n spectra take (sub-byte spectra pack across bytes), and
 * whether one spectrum is a whole number of bytes. */
uint64_t sps_data_bytes(const struct sps_header *h, uint64_t n);
int sps_spectrum_whole_bytes(const struct sps_header *h);
double sps_channel_freq(const struct sps_header *h, int c);	/* MHz */
int sps_is_timeseries(const struct sps_header *h);

/* The name of a data_type, or NULL when unknown (telescope.h names
 * telescope_id and machine_id). */
const char *sps_data_type_name(int type);

#endif

/* header_show.h: a SIGPROC header shown to people: the table SIGPROC's
 * header program prints, single values one a line, or all of it as JSON,
 * with what the data add to the header (the number of samples, the
 * observation length, the band's edges).  Everything is written to the
 * FILE * given; nothing here reads data. */
#ifndef SPS_HEADER_SHOW_H
#define SPS_HEADER_SHOW_H

#include <stdint.h>
#include <stdio.h>

#include "header.h"

/* Single values, one line each (SPS_VALUE_FREQUENCIES: one a channel). */
enum sps_header_value {
	SPS_VALUE_TELESCOPE, SPS_VALUE_MACHINE, SPS_VALUE_SOURCE_NAME,
	SPS_VALUE_RAWDATAFILE, SPS_VALUE_DATATYPE, SPS_VALUE_DATA_TYPE,
	SPS_VALUE_FRAME, SPS_VALUE_BARYCENTRIC, SPS_VALUE_PULSARCENTRIC,
	SPS_VALUE_HEADERSIZE, SPS_VALUE_DATASIZE, SPS_VALUE_NSAMPLES,
	SPS_VALUE_TOBS, SPS_VALUE_FCH1, SPS_VALUE_FOFF, SPS_VALUE_BANDWIDTH,
	SPS_VALUE_FMID, SPS_VALUE_FLOW, SPS_VALUE_FHIGH,
	SPS_VALUE_FREQUENCIES, SPS_VALUE_NCHANS, SPS_VALUE_TSTART,
	SPS_VALUE_MJD, SPS_VALUE_DATE, SPS_VALUE_UTSTART, SPS_VALUE_TSAMP,
	SPS_VALUE_NBITS, SPS_VALUE_NIFS, SPS_VALUE_IBEAM, SPS_VALUE_NBEAMS,
	SPS_VALUE_REFDM, SPS_VALUE_PERIOD, SPS_VALUE_NBINS, SPS_VALUE_SIGNED,
	SPS_VALUE_AZ_START, SPS_VALUE_ZA_START, SPS_VALUE_SRC_RAJ,
	SPS_VALUE_SRC_DEJ, SPS_VALUE_RA_DEG, SPS_VALUE_DEC_DEG
};

struct sps_header_value_name {
	const char		*name;
	enum sps_header_value	 value;
};

/* Every name of a single value (some values have two), in the order
 * sps-header offers them as options. */
extern const struct sps_header_value_name sps_header_value_names[];
extern const int sps_header_nvalue_names;

/* The header plus what the data add to it. */
struct sps_header_derived {
	const struct sps_header	*h;
	uint64_t	nsamples;	/* of a DM-time stream: base samples */
	uint64_t	data_bytes;
	uint64_t	cut_bytes;	/* after the last whole spectrum */
	double		flow, fhigh;	/* centres of the extreme channels */
	double		bandwidth;	/* MHz, channel widths included */
	const char	*telescope;	/* the recording's own names (PSRFITS */
	const char	*backend;	/* TELESCOP, BACKEND), or NULL */
};

/* Derive what is shown of h over nspectra spectra of data (h is kept by
 * pointer, not copied); cut_bytes, telescope and backend are left 0 for
 * the caller to set.  The recording's own names, when set, are shown for
 * the telescope and the backend: a code's name may differ from them (the
 * codes of telescope.h are SIGPROC's). */
void sps_header_derive(struct sps_header_derived *d,
    const struct sps_header *h, uint64_t nspectra);

/* SIGPROC's table: "label : value" lines for the keywords it knows, then
 * every other keyword present under its own name. */
void sps_header_show_table(FILE *out, const struct sps_header_derived *d);

/* One value and a newline (the frequencies: one line a channel). */
void sps_header_show_value(FILE *out, const struct sps_header_derived *d,
    enum sps_header_value v);

/* The keywords present and the derived values as one JSON object. */
void sps_header_show_json(FILE *out, const struct sps_header_derived *d);

#endif

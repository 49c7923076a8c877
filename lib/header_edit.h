/* header_edit.h: edits of a SIGPROC header (sps-header --set, --unset)
 * made over data that are copied untouched, and the checks that the
 * edited header still reads those data as whole spectra. */
#ifndef SPS_HEADER_EDIT_H
#define SPS_HEADER_EDIT_H

#include <stdint.h>

#include "error.h"
#include "header.h"

/* One keyword set from text, or removed. */
struct sps_header_edit {
	const char	*key;
	const char	*value;		/* NULL: remove the keyword */
};

/* Whether e names what it can change: a keyword of the table, or, to be
 * removed, "fchannel" (the whole frequency table). */
int sps_header_edit_known(const struct sps_header_edit *e);

/* Apply e on a blank header, so that a value that cannot be set is
 * refused before any input is read.  Returns SPS_OK or SPS_EVALUE. */
enum sps_err sps_header_edit_try(const struct sps_header_edit *e);

/* Apply n edits to h in order.  telescope_id and machine_id also take a
 * known name, in any case ("parkes", "BPSR").  Returns SPS_OK or
 * SPS_EVALUE (as sps_header_set). */
enum sps_err sps_header_edit_apply(struct sps_header *h,
    const struct sps_header_edit *e, int n);

/* Whether edited, the header in after its edits, reads in's data as
 * whole spectra of its own: spectra of in that are not whole bytes keep
 * their nbits, nchans and nifs, and nspectra of in (when known, not
 * SPS_NSAMPLES_UNKNOWN) fill a whole number of edited's spectra.
 * Returns SPS_OK or SPS_EVALUE ("edited header: ..."). */
enum sps_err sps_header_edit_check(const struct sps_header *in,
    const struct sps_header *edited, uint64_t nspectra);

#endif

/* header_edit.c: --set and --unset on a SIGPROC header (header_edit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "header_edit.h"
#include "reader.h"

int
sps_header_edit_known(const struct sps_header_edit *e)
{
	return sps_keyword_find(e->key) >= 0 || (e->value == NULL &&
	    strcmp(e->key, "fchannel") == 0);
}

/* Set one keyword; telescope_id and machine_id also take known names. */
static enum sps_err
set_keyword(struct sps_header *h, const char *key, const char *value)
{
	char number[16];
	int id = -1, k;

	if ((k = sps_keyword_find(key)) >= 0 &&
	    strcmp(sps_keywords[k].origin, "sigpyproc") == 0)
		return sps_fail(SPS_EVALUE, "%s: a sigpyproc keyword, read "
		    "but never written (SIGPROC's readers do not know it)",
		    key);
	if (strcmp(key, "signed") == 0 && strtol(value, NULL, 10) >= 0)
		return sps_fail(SPS_EVALUE, "signed: only a negative value "
		    "(signed 8-bit data) is written; unsigned data have no "
		    "signed keyword (--unset signed)");
	if (strcmp(key, "telescope_id") == 0)
		id = sps_telescope_id(value);
	else if (strcmp(key, "machine_id") == 0)
		id = sps_machine_id(value);
	if (id < 0)
		return sps_header_set(h, key, value);
	snprintf(number, sizeof(number), "%d", id);
	return sps_header_set(h, key, number);
}

static enum sps_err
apply_one(struct sps_header *h, const struct sps_header_edit *e)
{
	if (e->value != NULL)
		return set_keyword(h, e->key, e->value);
	if (strcmp(e->key, "fchannel") == 0) {
		free(h->fchannel);
		h->fchannel = NULL;
		h->nfchannel = 0;
	} else
		sps_header_unmark(h, e->key);
	return SPS_OK;
}

enum sps_err
sps_header_edit_try(const struct sps_header_edit *e)
{
	struct sps_header scratch;
	enum sps_err err;

	sps_header_init(&scratch);
	err = apply_one(&scratch, e);
	sps_header_free(&scratch);
	return err;
}

enum sps_err
sps_header_edit_apply(struct sps_header *h, const struct sps_header_edit *e,
    int n)
{
	enum sps_err err;
	int i;

	for (i = 0; i < n; i++)
		if ((err = apply_one(h, &e[i])) != SPS_OK)
			return err;
	return SPS_OK;
}

enum sps_err
sps_header_edit_check(const struct sps_header *in,
    const struct sps_header *edited, uint64_t nspectra)
{
	uint64_t bits = (uint64_t)sps_spectrum_values(edited) *
	    (uint64_t)edited->nbits, bytes;

	if (!sps_spectrum_whole_bytes(in) && (edited->nbits != in->nbits ||
	    sps_spectrum_values(edited) != sps_spectrum_values(in)))
		return sps_fail(SPS_EVALUE, "edited header: spectra of %zu "
		    "%d-bit values are not whole bytes, so nbits, nchans and "
		    "nifs must stay", sps_spectrum_values(in), in->nbits);
	if (nspectra == SPS_NSAMPLES_UNKNOWN)
		return SPS_OK;
	bytes = sps_data_bytes(in, nspectra);
	if (sps_data_bytes(edited, bytes * 8 / bits) == bytes)
		return SPS_OK;
	return sps_fail(SPS_EVALUE, "edited header: %llu data bytes are not "
	    "a whole number of its %llu-bit spectra",
	    (unsigned long long)bytes, (unsigned long long)bits);
}

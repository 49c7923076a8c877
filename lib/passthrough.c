/* passthrough.c: spectra copied untouched (passthrough.h). */
#include <stdlib.h>

#include "passthrough.h"

#define BLOCK_BYTES	(1 << 20)	/* data read per block */

/* Spectra per block of about BLOCK_BYTES, at least one. */
static size_t
block_spectra(size_t spectrum_bytes)
{
	size_t n = BLOCK_BYTES / spectrum_bytes;

	return n > 0 ? n : 1;
}

static enum sps_err
pass_raw(struct sps_reader *r, struct sps_writer *out, uint64_t *count)
{
	size_t n = block_spectra(sps_spectrum_bytes(&r->hdr)), got;
	unsigned char *buf;
	enum sps_err e;

	if ((buf = malloc(n * sps_spectrum_bytes(&r->hdr))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	while ((e = sps_reader_read_raw(r, buf, n, &got)) == SPS_OK &&
	    got > 0) {
		if (out != NULL && (e = sps_writer_raw(out, buf,
		    (size_t)sps_data_bytes(&r->hdr, got))) != SPS_OK)
			break;
		*count += got;
	}
	free(buf);
	return e == SPS_EEOF ? SPS_OK : e;
}

static enum sps_err
pass_values(struct sps_reader *r, struct sps_writer *out, uint64_t *count)
{
	size_t values = sps_spectrum_values(&r->hdr), got;
	size_t n = block_spectra(values * sizeof(float));
	enum sps_err e;
	float *buf;

	if ((buf = malloc(n * values * sizeof(float))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	while ((e = sps_reader_read(r, buf, n, &got)) == SPS_OK && got > 0) {
		if (out != NULL && (e = sps_writer_spectra(out, buf, got)) !=
		    SPS_OK)
			break;
		*count += got;
	}
	free(buf);
	return e == SPS_EEOF ? SPS_OK : e;
}

enum sps_err
sps_passthrough(struct sps_reader *r, struct sps_writer *w,
    uint64_t *nspectra)
{
	*nspectra = 0;
	if (sps_spectrum_whole_bytes(&r->hdr))
		return pass_raw(r, w, nspectra);
	return pass_values(r, w, nspectra);
}

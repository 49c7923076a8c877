/* fuzz-sigproc.c: the SIGPROC header and data reader (reader.h), on a
 * stream (as from a pipe) and on a regular file (sps_reader_open: the
 * format sniffed, the spectra counted from the file size, skips by
 * seeking). */
#include <stdlib.h>

#include "fuzz.h"
#include "reader.h"

/* Some raw spectra, a skip, then floats to the end. */
static void
read_data(struct sps_reader *r)
{
	size_t values = sps_spectrum_values(&r->hdr), n, got;
	unsigned char *raw;
	float *buf;

	if (values > FUZZ_MAX_VALUES)
		return;
	n = FUZZ_MAX_VALUES / values < 64 ? FUZZ_MAX_VALUES / values : 64;
	raw = malloc(n * sps_spectrum_bytes(&r->hdr));
	buf = malloc(n * values * sizeof(float));
	if (raw != NULL && buf != NULL &&
	    sps_reader_read_raw(r, raw, n, &got) == SPS_OK &&
	    sps_reader_skip(r, 3) == SPS_OK)
		while (sps_reader_read(r, buf, n, &got) == SPS_OK && got > 0)
			;
	free(raw);
	free(buf);
}

static void
read_stream(const uint8_t *data, size_t size)
{
	struct sps_reader r;
	FILE *f;

	if ((f = fuzz_stream(data, size)) == NULL)
		return;
	sps_reader_reset(&r);
	if (sps_reader_attach_sigproc(&r, f, "fuzz", NULL, 0) == SPS_OK)
		read_data(&r);
	sps_reader_close(&r);
	fclose(f);
}

static void
read_file(const uint8_t *data, size_t size)
{
	struct sps_reader r;
	char path[32];
	int fd;

	if (fuzz_file(data, size, &fd, path) != 0)
		return;
	if (sps_reader_open(&r, path) == SPS_OK) {
		read_data(&r);
		sps_reader_close(&r);
	}
	fuzz_file_close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_stream(data, size);
	read_file(data, size);
	return 0;
}

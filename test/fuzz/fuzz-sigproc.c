/* fuzz-sigproc.c: the SIGPROC header and data reader (reader.h), on a
 * stream (as from a pipe) and on a regular file (sps_reader_open: the
 * format sniffed, the spectra counted from the file size, skips by
 * seeking). */
#include <stdlib.h>

#include "fuzz.h"
#include "reader.h"

static void
read_stream(const uint8_t *data, size_t size)
{
	struct sps_reader r;
	FILE *f;

	if ((f = fuzz_stream(data, size)) == NULL)
		return;
	sps_reader_reset(&r);
	if (sps_reader_attach_sigproc(&r, f, "fuzz", NULL, 0) == SPS_OK)
		fuzz_read_data(&r, 64, 3);
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
		fuzz_read_data(&r, 64, 3);
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

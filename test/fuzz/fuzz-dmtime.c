/* fuzz-dmtime.c: the input of a search (dmtime_in.h): a DM-time stream
 * (header with its DM_TABLE, then framed blocks of float32 or scaled
 * 8/16-bit trials) or a SIGPROC time series, read block by block as
 * sps-boxcar reads it. */
#include <stdlib.h>

#include "dmtime_in.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sps_dmtime_in in;
	float *values = NULL;
	char path[32];
	size_t n;
	int fd;

	if (fuzz_file(data, size, &fd, path) != 0)
		return 0;
	if (sps_dmtime_in_open(&in, path) == SPS_OK &&
	    in.max_values <= FUZZ_MAX_VALUES &&
	    (values = malloc(in.max_values * sizeof(float))) != NULL)
		while (sps_dmtime_in_read(&in, values, &n) == SPS_OK && n > 0)
			;
	free(values);
	sps_dmtime_in_close(&in);
	fuzz_file_close(fd);
	return 0;
}

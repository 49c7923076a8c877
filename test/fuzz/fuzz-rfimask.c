/* fuzz-rfimask.c: PRESTO rfifind masks (rfimask.h), loaded from a file as
 * sps-clean --mask loads them, then every interval's channels asked for,
 * as the cleaning asks spectrum by spectrum. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "rfimask.h"

static void
use_mask(const struct sps_rfimask *m)
{
	unsigned char *masked;
	int i;

	if ((masked = calloc((size_t)m->numchan, 1)) == NULL)
		return;
	for (i = 0; i < m->numint; i++)
		sps_rfimask_channels(m, i, masked);
	sps_rfimask_interval(m, 0);
	sps_rfimask_interval(m, UINT64_MAX);
	sps_rfimask_check(m, "fuzz", 64);
	free(masked);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sps_rfimask m;
	char path[32];
	int fd;

	if (fuzz_file(data, size, &fd, path) != 0)
		return 0;
	if (sps_rfimask_load(path, &m) == SPS_OK) {
		/* sps-clean refuses a mask of other channels than the data's
		 * before it asks for any: no data have more than 2^16 */
		if (m.numchan <= 1 << 16)
			use_mask(&m);
		sps_rfimask_free(&m);
	}
	fuzz_file_close(fd);
	return 0;
}

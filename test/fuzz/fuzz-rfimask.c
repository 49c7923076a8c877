/* fuzz-rfimask.c: PRESTO rfifind masks (rfimask.h): read, then every
 * interval's channels asked for, as sps-clean --mask does spectrum by
 * spectrum. */
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
	FILE *f;

	if ((f = fuzz_stream(data, size)) == NULL)
		return 0;
	if (sps_rfimask_read(f, "fuzz", &m) == SPS_OK) {
		use_mask(&m);
		sps_rfimask_free(&m);
	}
	fclose(f);
	return 0;
}

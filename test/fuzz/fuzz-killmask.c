/* fuzz-killmask.c: Heimdall kill files (killmask.h), read for data of
 * several channel counts: the right one, and those it must refuse. */
#include <stdlib.h>

#include "fuzz.h"
#include "killmask.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int nchans[] = { 1, 16, 64, 512, 4096 };
	unsigned char *kill;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(nchans) / sizeof(nchans[0]); i++) {
		if ((f = fuzz_stream(data, size)) == NULL)
			return 0;
		if ((kill = malloc((size_t)nchans[i])) != NULL)
			sps_killmask_read(f, "fuzz", nchans[i], kill);
		free(kill);
		fclose(f);
	}
	return 0;
}

/* fuzz-chanmask.c: PRESTO channel lists ("C", "A:B", "A:B:STEP"; chanmask.h)
 * in a file, as sps-clean --mask reads a text mask, and as a string, as
 * -ignorechan gives one. */
#include <stdlib.h>
#include <string.h>

#include "chanmask.h"
#include "fuzz.h"

#define NCHANS	1024

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char masked[NCHANS];
	char *list;
	FILE *f;

	if ((f = fuzz_stream(data, size)) == NULL)
		return 0;
	memset(masked, 0, sizeof(masked));
	sps_chanmask_read(f, "fuzz", NCHANS, masked);
	fclose(f);
	if ((list = malloc(size + 1)) == NULL)
		return 0;
	memcpy(list, data, size);
	list[size] = '\0';
	sps_chanmask_parse(list, "fuzz", NCHANS, masked);
	free(list);
	return 0;
}

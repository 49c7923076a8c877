/* fuzz-events.c: the event stream sps-boxcar writes and sps-peaks reads
 * (events.h): its header, then events to the end or the first bad line. */
#include "events.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sps_events_meta m;
	struct sps_event e;
	FILE *f;

	if ((f = fuzz_stream(data, size)) == NULL)
		return 0;
	if (sps_events_read_header(f, &m) == SPS_OK)
		while (sps_events_read(f, &e) == SPS_OK)
			;
	fclose(f);
	return 0;
}

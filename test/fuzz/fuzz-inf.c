/* fuzz-inf.c: PRESTO .inf files (presto.h), read into a time series'
 * header, which must then pass the header's checks or be refused. */
#include "fuzz.h"
#include "presto.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sps_presto_band band;
	struct sps_header h;
	uint64_t n;
	FILE *f;

	if ((f = fuzz_stream(data, size)) == NULL)
		return 0;
	sps_header_init(&h);
	if (sps_presto_read_inf(f, "fuzz.inf", &h, &n, &band) == SPS_OK) {
		sps_header_check(&h);
		sps_presto_band_top(&band);
	}
	sps_header_free(&h);
	fclose(f);
	return 0;
}

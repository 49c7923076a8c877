/* fuzz-cand.c: candidate files read back (candread.h): sps's table,
 * Heimdall's .cand (sps's and Heimdall's own), PRESTO's .singlepulse and
 * FETCH's CSV, found by content, with and without a known sample time;
 * then checked against a header and chosen from as sps-candmaker does. */
#include <stdlib.h>

#include "candread.h"
#include "fuzz.h"

static void
use_list(const struct sps_candlist *l)
{
	struct sps_candsel sel;
	struct sps_header h;
	size_t *idx = NULL, n;

	sps_header_init(&h);
	h.nchans = 64;
	h.nbits = 8;
	h.nifs = 1;
	h.tsamp = 5e-4;
	h.fch1 = 1500;
	h.foff = -4;
	sps_candlist_check(l, &h, 24000);
	sps_candsel_defaults(&sel);
	sel.top = 3;
	if (sps_candsel_apply(&sel, l, &idx, &n) == SPS_OK)
		free(idx);
}

static void
read_as(const uint8_t *data, size_t size, const char *name, double tsamp)
{
	struct sps_candlist l;
	FILE *f;

	if ((f = fuzz_stream(data, size)) == NULL)
		return;
	if (sps_candread_stream(f, name, tsamp, &l) == SPS_OK) {
		use_list(&l);
		sps_candlist_free(&l);
	}
	fclose(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_as(data, size, "fuzz.cand", 0);
	read_as(data, size, "fuzz.csv", 5e-4);
	return 0;
}

/* fuzz-plan.c: DM plan files (planfile.h): text plans and plain lists
 * of DMs, read and checked as sps-dedisperse --plan does. */
#include "fuzz.h"
#include "plan.h"
#include "planfile.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sps_plan p;
	FILE *f;

	if ((f = fuzz_stream(data, size)) == NULL)
		return 0;
	sps_plan_init(&p);
	if (sps_plan_read(f, "fuzz", &p) == SPS_OK)
		sps_plan_check(&p);
	sps_plan_free(&p);
	fclose(f);
	return 0;
}

/* dedisperse_plan.c: the helpers every CPU path of a dedispersion plan
 * uses (dedisperse_plan.h). */
#include "dedisperse_plan.h"
#include "dmdelay.h"

long
sps_dedisp_shift(const struct sps_dedisp_plan *p, int trial, int live)
{
	return sps_dm_delay_samples(p->dms[trial], p->freq[live], p->fref,
	    p->tsamp * p->scrunch[trial]);
}

size_t
sps_dedisp_level_offset(const struct sps_dedisp_plan *p, size_t nin, int k)
{
	size_t off = 0;
	int j;

	for (j = 0; j < k; j++)
		off += (size_t)p->nlive * (nin >> j);
	return off;
}

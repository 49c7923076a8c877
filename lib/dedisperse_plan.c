/* dedisperse_plan.c: the helpers every CPU path of a dedispersion plan
 * uses (dedisperse_plan.h), and the algorithms' names and the scrunch
 * levels (dedisperse.h). */
#include <string.h>

#include "dedisperse.h"
#include "dedisperse_plan.h"
#include "dmdelay.h"

static const char *const algo_names[] = {
	"direct", "subband", "tree-linear", "tree-padded"
};
#define NALGOS	(int)(sizeof(algo_names) / sizeof(algo_names[0]))

enum sps_err
sps_dedisp_algo_named(const char *name, int *algo)
{
	int i;

	for (i = 0; i < NALGOS; i++)
		if (strcmp(name, algo_names[i]) == 0) {
			*algo = i;
			return SPS_OK;
		}
	return sps_fail(SPS_EUSAGE, "%s: not one of direct, subband, "
	    "tree-linear, tree-padded", name);
}

const char *
sps_dedisp_algo_name(int algo)
{
	return algo >= 0 && algo < NALGOS ? algo_names[algo] : "unknown";
}

int
sps_dedisp_level_of(int f)
{
	int k = 0;

	while ((1 << k) < f)
		k++;
	return k;
}

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

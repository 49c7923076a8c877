/* candorder.c: candidate orders and the N brightest (candorder.h). */
#include <stdlib.h>
#include <string.h>

#include "candorder.h"

enum sps_err
sps_cand_order_parse(const char *name, enum sps_cand_order *order)
{
	static const char *names[] = { "time", "snr", "dm" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0) {
			*order = (enum sps_cand_order)i;
			return SPS_OK;
		}
	return sps_fail(SPS_EUSAGE, "unknown order '%s' (snr, time or dm)",
	    name);
}

static int
cmp(double a, double b)
{
	return (a > b) - (a < b);
}

int
sps_cand_by_time(const void *a, const void *b)
{
	const struct sps_event *x = &((const struct sps_cand *)a)->best;
	const struct sps_event *y = &((const struct sps_cand *)b)->best;

	if (x->sample != y->sample)
		return x->sample < y->sample ? -1 : 1;
	if (x->dm_index != y->dm_index)
		return x->dm_index < y->dm_index ? -1 : 1;
	return cmp(x->width, y->width);
}

static int
by_snr(const void *a, const void *b)
{
	const struct sps_event *x = &((const struct sps_cand *)a)->best;
	const struct sps_event *y = &((const struct sps_cand *)b)->best;

	if (x->snr != y->snr)
		return cmp(y->snr, x->snr);
	return sps_cand_by_time(a, b);
}

static int
by_dm(const void *a, const void *b)
{
	const struct sps_event *x = &((const struct sps_cand *)a)->best;
	const struct sps_event *y = &((const struct sps_cand *)b)->best;

	if (x->dm != y->dm)
		return cmp(x->dm, y->dm);
	return sps_cand_by_time(a, b);
}

void
sps_cand_sort(struct sps_cand *c, size_t n, enum sps_cand_order order)
{
	static int (*const by[])(const void *, const void *) = {
		sps_cand_by_time, by_snr, by_dm
	};

	if (n > 1)	/* qsort's base must not be NULL */
		qsort(c, n, sizeof(*c), by[order]);
}

void
sps_cand_keep_top(struct sps_cand *c, size_t n, size_t top, size_t *kept)
{
	sps_cand_sort(c, n, SPS_CAND_BY_SNR);
	*kept = top > 0 && top < n ? top : n;
}

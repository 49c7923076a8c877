/* candsel.c: which candidates to take (candread.h, sps_candsel). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "candread.h"

void
sps_candsel_defaults(struct sps_candsel *s)
{
	s->snr_min = -INFINITY;
	s->top = 0;
	s->rank = 0;
}

static enum sps_err
count(const char *option, const char *value, size_t *n)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(value, &end, 10);
	if (end == value || *end != '\0' || errno != 0 || v < 1 ||
	    value[0] == '-' || v > (unsigned long long)SIZE_MAX / 2)
		return sps_fail(SPS_EUSAGE, "--%s: '%s' is not a whole number "
		    ">= 1", option, value);
	*n = (size_t)v;
	return SPS_OK;
}

enum sps_err
sps_candsel_parse(struct sps_candsel *s, const char *option,
    const char *value)
{
	char *end;

	while (*option == '-')
		option++;
	if (strcmp(option, "snr") == 0) {
		errno = 0;
		s->snr_min = strtod(value, &end);
		if (end == value || *end != '\0' || errno != 0 ||
		    !isfinite(s->snr_min))
			return sps_fail(SPS_EUSAGE, "--snr: '%s' is not a "
			    "number", value);
		return SPS_OK;
	}
	if (strcmp(option, "rank") == 0 || strcmp(option, "top") == 0) {
		int rank = option[0] == 'r';

		if (rank ? s->top != 0 : s->rank != 0)
			return sps_fail(SPS_EUSAGE, "--rank and --top exclude "
			    "each other");
		return count(option, value, rank ? &s->rank : &s->top);
	}
	return sps_fail(SPS_EUSAGE, "--%s: not a choice of candidates (rank, "
	    "top, snr)", option);
}

static const struct sps_candlist *sort_list;

/* Brightest first; equal S/N: earlier in the file first. */
static int
by_snr(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	float si = sort_list->cands[i].best.snr;
	float sj = sort_list->cands[j].best.snr;

	if (si != sj)
		return si > sj ? -1 : 1;
	return (i > j) - (i < j);
}

enum sps_err
sps_candsel_apply(const struct sps_candsel *s, const struct sps_candlist *l,
    size_t **idx, size_t *n)
{
	size_t i, kept = 0, *x;

	*idx = NULL;
	*n = 0;
	if (l->n == 0)
		return s->rank ? sps_fail(SPS_EVALUE, "rank %zu of no "
		    "candidates", s->rank) : SPS_OK;
	x = malloc(l->n * sizeof(*x));
	if (x == NULL)
		return sps_fail(SPS_ENOMEM, "no memory for %zu candidates",
		    l->n);
	for (i = 0; i < l->n; i++)
		if (l->cands[i].best.snr >= s->snr_min)
			x[kept++] = i;
	sort_list = l;
	qsort(x, kept, sizeof(*x), by_snr);
	if (s->rank) {
		if (s->rank > kept) {
			free(x);
			return sps_fail(SPS_EVALUE, "rank %zu of %zu "
			    "candidates", s->rank, kept);
		}
		x[0] = x[s->rank - 1];
		kept = 1;
	} else if (s->top && s->top < kept)
		kept = s->top;
	if (kept == 0) {
		free(x);
		x = NULL;
	}
	*idx = x;
	*n = kept;
	return SPS_OK;
}

/* boxcar_check.c: a fast search against the reference (boxcar_check.h). */
#include <math.h>
#include <stdlib.h>

#include "boxcar_check.h"

static int
near(double v, float ref)
{
	return v == ref || fabs(v - ref) <= SPS_BOXCAR_CHECK_TOL *
	    (1 + fabsf(ref));
}

/* Whether width w is evaluated at start s and its boxcar, summed in
 * double, has an S/N near ref. */
static int
ties(const struct sps_boxcar_plan *p, const float *x, size_t s,
    size_t nvalid, const float *scale, int32_t w, float ref, int *widths)
{
	double sum = 0;
	int i, nw;

	if (w < 1 || w > p->max_width || s + (size_t)w > nvalid)
		return 0;
	nw = sps_boxcar_widths_at(p, s, widths);
	for (i = 0; i < nw && widths[i] != w; i++)
		;
	if (i == nw)
		return 0;
	for (i = 0; i < w; i++)
		sum += x[s + (size_t)i];
	return near(sum * scale[w], ref);
}

/* The first start at which snr[] and width[] disagree with ref[] and
 * ref_width[], or n. */
static size_t
first_difference(const struct sps_boxcar_plan *p, const float *x, size_t n,
    size_t nvalid, const float *scale, const float *snr,
    const int32_t *width, const float *ref, const int32_t *ref_width,
    int *widths)
{
	size_t s;

	for (s = 0; s < n; s++)
		if (!near(snr[s], ref[s]) || (width != NULL &&
		    width[s] != ref_width[s] && !ties(p, x, s, nvalid, scale,
		    width[s], ref[s], widths)))
			break;
	return s;
}

enum sps_err
sps_boxcar_check(const struct sps_boxcar_plan *p, const float *x, size_t n,
    size_t nvalid, const float *scale, const float *snr,
    const int32_t *width, int *agrees, struct sps_boxcar_mismatch *m)
{
	float *ref = malloc(n * sizeof(float) + 1);
	int32_t *ref_width = malloc(n * sizeof(int32_t) + 1);
	int *widths = malloc(((size_t)p->max_width + 1) * sizeof(int));
	enum sps_err e = SPS_OK;
	size_t s;

	*agrees = 1;
	if (ref == NULL || ref_width == NULL || widths == NULL) {
		e = sps_fail(SPS_ENOMEM, "out of memory");
		goto done;
	}
	sps_boxcar_search_ref(p, x, 0, n, nvalid, scale, ref, ref_width);
	/* the reference gives NaN when its own allocations fail */
	if (n > 0 && isnan(ref[0])) {
		e = sps_fail(SPS_ENOMEM, "out of memory");
		goto done;
	}
	s = first_difference(p, x, n, nvalid, scale, snr, width, ref,
	    ref_width, widths);
	if (s < n) {
		*agrees = 0;
		m->start = s;
		m->snr = snr[s];
		m->ref_snr = ref[s];
		m->width = width == NULL ? 0 : width[s];
		m->ref_width = width == NULL ? 0 : ref_width[s];
	}
done:
	free(ref);
	free(ref_width);
	free(widths);
	return e;
}

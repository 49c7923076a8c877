/* gpu_search.c: the device memory of a GPU search, predicted in any
 * build; and the GPU search of a build without CUDA (gpu_search.h):
 * creating one fails with "built without CUDA"; with SPS_HAVE_CUDA,
 * kernels/search.cu provides the functions instead. */
#include "gpu_search.h"

/* As kernels/search.cu has them (the GPU tests compare the prediction
 * with what a search holds). */
#define RING		1024	/* decimated sums kept per level */
#define FOUND_FIRST	(1 << 20)	/* room for boxcars found */
#define FOUND_BYTES	20	/* one boxcar found (struct dfound) */
#define TRIAL_BYTES	40	/* a trial's layout (struct dtrial) */
#define PLAN_BYTES	(4 * (2 + 4 * SPS_BOXCAR_MAXLEVELS))	/* dplan */

static int
levels_of(int max_width)
{
	int k;

	for (k = 0; (1 << k) < max_width; k++)
		;
	return k;
}

double
sps_gpu_search_host_bytes(int ntrials)
{
	return (double)ntrials * (TRIAL_BYTES + PLAN_BYTES + sizeof(size_t));
}

double
sps_gpu_search_bytes(const struct sps_gpu_search_opts *o, int ntrials,
    const int *f, const struct sps_boxcar_plan *const *plans,
    size_t stage_floats)
{
	double nt = ntrials, slots = o->lag + 3, b = 0;
	int i, lmax = 0, maxw = 1, nplans = 0;

	for (i = 0; i < ntrials; i++) {
		size_t win = o->window / (size_t)f[i];
		int l = levels_of(plans[i]->max_width);

		/* the ring of windows, the decimated sums */
		b += (slots * (double)win + win / 2 + win / 4 + 2) *
		    sizeof(float);
		nplans += i == 0 || f[i] != f[i - 1];	/* one per factor */
		lmax = l > lmax ? l : lmax;
		maxw = plans[i]->max_width > maxw ? plans[i]->max_width : maxw;
	}
	lmax = lmax > 0 ? lmax : 1;
	/* means, sigmas, their ratios, the trials' ratios, rings, counts */
	b += nt * slots * (2 * sizeof(double) + (lmax + 2.0) * sizeof(float)) +
	    nt * (lmax + 2.0) * sizeof(double) + nt * lmax * (RING *
	    sizeof(float) + 2 * sizeof(int)) + nt * (sizeof(double) + 3 *
	    sizeof(unsigned long long) + sizeof(size_t));
	b += nt * TRIAL_BYTES + nplans * PLAN_BYTES + (maxw + 2.0) *
	    (sizeof(int) + 2 * sizeof(float)) + sizeof(unsigned) +
	    (double)FOUND_FIRST * FOUND_BYTES;
	/* blocks from the host, and each trial's scale and offset should
	 * they come packed */
	if (stage_floats > 0)
		b += (double)stage_floats * sizeof(float) + nt * 2 *
		    sizeof(double);
	return b;
}

#ifndef SPS_HAVE_CUDA
void
sps_gpu_search_preload(int dev)
{
	(void)dev;
}

enum sps_err
sps_gpu_search_create(struct sps_gpu_search **g,
    const struct sps_gpu_search_opts *o, int ntrials, const int *f,
    const struct sps_boxcar_plan *const *plans)
{
	(void)o;
	(void)ntrials;
	(void)f;
	(void)plans;
	*g = NULL;
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

void
sps_gpu_search_free(struct sps_gpu_search *g)
{
	(void)g;
}

enum sps_err
sps_gpu_search_feed(struct sps_gpu_search *g, const float *block, size_t n,
    int on_device)
{
	(void)g;
	(void)block;
	(void)n;
	(void)on_device;
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

enum sps_err
sps_gpu_search_feed_packed(struct sps_gpu_search *g, const unsigned char *raw,
    size_t n, int nbits, double scale, double offset)
{
	(void)g;
	(void)raw;
	(void)n;
	(void)nbits;
	(void)scale;
	(void)offset;
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

enum sps_err
sps_gpu_search_finish(struct sps_gpu_search *g)
{
	(void)g;
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

const struct sps_gpu_found *
sps_gpu_search_found(struct sps_gpu_search *g, size_t *n)
{
	(void)g;
	*n = 0;
	return NULL;
}

uint64_t
sps_gpu_search_searched(const struct sps_gpu_search *g)
{
	(void)g;
	return 0;
}

enum sps_err
sps_gpu_search_counts(struct sps_gpu_search *g, unsigned long long *windows,
    unsigned long long *skipped, unsigned long long *nbad)
{
	(void)g;
	(void)windows;
	(void)skipped;
	(void)nbad;
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

void
sps_gpu_search_info(const struct sps_gpu_search *g,
    struct sps_gpu_search_info *info)
{
	(void)g;
	info->kernels = 0;
	info->memory = 0;
	info->tile = 0;
}
#endif

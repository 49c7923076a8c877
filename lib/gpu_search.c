/* gpu_search.c: the GPU search of a build without CUDA (gpu_search.h):
 * creating one fails with "built without CUDA"; with SPS_HAVE_CUDA,
 * kernels/search.cu provides the functions instead. */
#include "gpu_search.h"

#ifndef SPS_HAVE_CUDA
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

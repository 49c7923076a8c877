/* gpu.c: the GPU dedispersion of a build without CUDA (see gpu.h): every
 * entry fails with "built without CUDA"; with SPS_HAVE_CUDA, kernels/
 * provides them instead. */
#include <stdlib.h>

#include "gpu.h"

#ifndef SPS_HAVE_CUDA
static enum sps_err
no_cuda(void)
{
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

enum sps_err
sps_gpu_dedisp_create(struct sps_gpu_dedisp **plan, int dev,
    const struct sps_header *h, const double *dms, const int *scrunch,
    int ndms, const unsigned char *kill, size_t nin, size_t nout)
{
	(void)dev;
	(void)h;
	(void)dms;
	(void)scrunch;
	(void)ndms;
	(void)kill;
	(void)nin;
	(void)nout;
	*plan = NULL;
	return no_cuda();
}

enum sps_err
sps_gpu_dedisp_subband(struct sps_gpu_dedisp *plan,
    const struct sps_subband_tables *t)
{
	(void)plan;
	(void)t;
	return no_cuda();
}

enum sps_err
sps_gpu_dedisp_tree(struct sps_gpu_dedisp *plan,
    const struct sps_tree_tables *t)
{
	(void)plan;
	(void)t;
	return no_cuda();
}

size_t
sps_gpu_dedisp_packed_limit(const struct sps_header *h,
    enum sps_dedisp_algo algo)
{
	(void)h;
	(void)algo;
	return 0;
}

const char *
sps_gpu_dedisp_direct_path(const struct sps_gpu_dedisp *plan)
{
	(void)plan;
	return NULL;
}

size_t
sps_gpu_dedisp_memory(const struct sps_gpu_dedisp *plan)
{
	(void)plan;
	return 0;
}

const float *
sps_gpu_dedisp_device_out(const struct sps_gpu_dedisp *plan)
{
	(void)plan;
	return NULL;
}

enum sps_err
sps_gpu_dedisp_submit(struct sps_gpu_dedisp *plan, const unsigned char *raw,
    size_t nin, size_t nout, size_t block, float *out)
{
	(void)plan;
	(void)block;
	(void)raw;
	(void)nin;
	(void)nout;
	(void)out;
	return no_cuda();
}

enum sps_err
sps_gpu_dedisp_wait(struct sps_gpu_dedisp *plan, double *kernel_ms)
{
	(void)plan;
	(void)kernel_ms;
	return no_cuda();
}

enum sps_err
sps_gpu_dedisp_execute(struct sps_gpu_dedisp *plan, const unsigned char *raw,
    size_t nin, size_t nout, float *out, double *kernel_ms)
{
	(void)plan;
	(void)raw;
	(void)nin;
	(void)nout;
	(void)out;
	(void)kernel_ms;
	return no_cuda();
}

void
sps_gpu_dedisp_free(struct sps_gpu_dedisp *plan)
{
	(void)plan;
}
#endif

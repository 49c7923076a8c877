/* gpu.c: the GPU dedispersion of a build without CUDA (see gpu.h); with
 * SPS_HAVE_CUDA, kernels/dedisperse.cu provides it instead. */
#include "gpu.h"

#ifndef SPS_HAVE_CUDA
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
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

enum sps_err
sps_gpu_dedisp_subband(struct sps_gpu_dedisp *plan,
    const struct sps_subband_tables *t)
{
	(void)plan;
	(void)t;
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

size_t
sps_gpu_dedisp_memory(const struct sps_gpu_dedisp *plan)
{
	(void)plan;
	return 0;
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
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

void
sps_gpu_dedisp_free(struct sps_gpu_dedisp *plan)
{
	(void)plan;
}
#endif

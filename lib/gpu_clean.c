/* gpu_clean.c: the device memory of a GPU cleaning, predicted in any
 * build; and the GPU cleaning of a build without CUDA (gpu_clean.h):
 * creating one fails with "built without CUDA"; with SPS_HAVE_CUDA,
 * kernels/clean.cu provides the functions instead. */
#include "gpu_clean.h"

#define SEG	256	/* as kernels/clean.cu has it */

double
sps_gpu_clean_bytes(const struct sps_header *h, size_t maxspectra)
{
	double n = (double)maxspectra, nc = h->nchans;
	double nb = (double)(maxspectra / SPS_CLEAN_BLOCK + 2);
	double ns = (double)(maxspectra / SEG) + nb;

	return n * (sizeof(float) + sizeof(double) + 1 + sizeof(int)) +
	    (5 * nb + 2 * ns) * sizeof(int) + 2 * ns * nc * sizeof(double) +
	    4 * nb * nc * sizeof(double) + nb * nc + 2 * nb * nc *
	    sizeof(float) + 2 * nb * sizeof(double);
}

#ifndef SPS_HAVE_CUDA

void
sps_gpu_clean_preload(int dev)
{
	(void)dev;
}

enum sps_err
sps_gpu_clean_create(struct sps_gpu_clean **g, int dev,
    const struct sps_header *h, size_t maxspectra)
{
	(void)dev, (void)h, (void)maxspectra;
	*g = NULL;
	return sps_fail(SPS_EIO, "built without CUDA");
}

void
sps_gpu_clean_free(struct sps_gpu_clean *g)
{
	(void)g;
}

enum sps_err
sps_gpu_clean_run(struct sps_gpu_clean *g, struct sps_cleanstream *cs,
    unsigned char *raw, size_t n, uint64_t at, void *stream)
{
	(void)g, (void)cs, (void)raw, (void)n, (void)at, (void)stream;
	return sps_fail(SPS_EIO, "built without CUDA");
}

enum sps_err
sps_gpu_clean_fetch(struct sps_gpu_clean *g, void *host, const void *dev,
    size_t bytes, void *stream)
{
	(void)g, (void)host, (void)dev, (void)bytes, (void)stream;
	return sps_fail(SPS_EIO, "built without CUDA");
}

enum sps_err
sps_gpu_clean_host(struct sps_gpu_clean *g, struct sps_cleanstream *cs,
    unsigned char *raw, size_t n, uint64_t at)
{
	(void)g, (void)cs, (void)raw, (void)n, (void)at;
	return sps_fail(SPS_EIO, "built without CUDA");
}

uint64_t
sps_gpu_clean_quantised(const struct sps_gpu_clean *g)
{
	(void)g;
	return 0;
}

double
sps_gpu_clean_seconds(const struct sps_gpu_clean *g)
{
	(void)g;
	return 0;
}

#endif

/* gpu.c: the device memory of a GPU dedispersion plan, predicted in any
 * build; and the GPU dedispersion of a build without CUDA (see gpu.h):
 * every entry fails with "built without CUDA"; with SPS_HAVE_CUDA,
 * kernels/ provides them instead. */
#include <stdint.h>
#include <stdlib.h>

#include "dedisperse_plan.h"
#include "gpu.h"

/* As kernels/gpu_plan.h and kernels/direct_shared.cu have them (the GPU
 * tests compare the prediction with what a plan holds). */
#define ROW_PAD		1088	/* bytes past a row's samples */
#define NCOPIES		16	/* shifted copies of the 8-bit rows */
#define PLAN_TRIALS	32	/* trials per block of the window table */

static size_t
row_stride(size_t n)
{
	return (n + ROW_PAD + 15) & ~(size_t)15;
}

/* The rows of every scrunch level, level 0 as NCOPIES shifted copies of
 * its bytes where the packed kernels read it (alloc_levels). */
static double
level_bytes(const struct sps_dedisp_plan *p, size_t nin, int u8_rows)
{
	double b = 0;
	int k;

	for (k = 0; k < p->nlevels; k++) {
		size_t stride = row_stride(nin >> k);

		if (k == 0 && u8_rows)
			b += (NCOPIES * ((size_t)p->nlive * stride / 4) + 4) *
			    4.0;
		else
			b += (double)p->nlive * stride * sizeof(float);
	}
	return b;
}

/* Two slots of a gulp: raw input, output and the trials' offsets
 * (alloc_slots). */
static double
slot_bytes(const struct sps_dedisp_plan *p, const struct sps_header *h,
    size_t nin, size_t nout)
{
	return 2 * ((double)nin * sps_spectrum_bytes(h) + 1 +
	    ((double)sps_dedisp_out_size(p, nout) + 1) * sizeof(float) +
	    2.0 * ((size_t)p->ndms + 1) * sizeof(size_t));
}

/* The channel list, the shift table and, for the packed kernels, at most
 * a window table per block of PLAN_TRIALS trials of one scrunch factor. */
static double
table_bytes(const struct sps_dedisp_plan *p, int u8_rows)
{
	double b = (double)p->nlive * sizeof(int) + (double)p->ndms *
	    p->nlive * sizeof(int);
	size_t blocks = 0;
	int d0, d1;

	for (d0 = 0; u8_rows && d0 < p->ndms; d0 = d1) {
		for (d1 = d0 + 1; d1 < p->ndms && p->scrunch[d1] ==
		    p->scrunch[d0]; d1++)
			;
		blocks += (size_t)(d1 - d0 + PLAN_TRIALS - 1) / PLAN_TRIALS;
	}
	return b + (double)blocks * p->nlive * sizeof(int);
}

/* The sub-band tables and the band series of the longest run of groups
 * of one scrunch factor (kernels/subband.cu). */
static double
subband_bytes(const struct sps_dedisp_plan *p, size_t nout)
{
	double b = ((double)p->ngroups * p->nlive + 2.0 * p->ndms * p->nsub +
	    p->nsub + 1 + p->ngroups) * sizeof(int), most = 0, x;
	size_t span;
	int g0, g1, g, f;

	for (g0 = 0; g0 < p->ngroups; g0 = g1) {
		f = p->scrunch[p->group_start[g0]];
		span = 0;
		for (g1 = g0; g1 < p->ngroups && p->scrunch[p->group_start[g1]]
		    == f; g1++)
			;
		for (g = g0; g < g1; g++)
			span = p->group_span[g] > span ? p->group_span[g] : span;
		x = (double)(g1 - g0) * p->nsub * (double)((nout / (size_t)f +
		    span + ROW_PAD + 15) & ~(size_t)15);
		most = x > most ? x : most;
	}
	return b + most * sizeof(float);
}

double
sps_gpu_dedisp_bytes(const struct sps_dedisp_plan *p,
    const struct sps_header *h, size_t nin, size_t nout)
{
	int u8_rows = h->nbits <= 8 && h->nifs == 1 && !(h->nbits == 8 &&
	    h->sign < 0) && nin <= sps_gpu_dedisp_packed_limit(h,
	    SPS_ALGO_DIRECT);
	double b = level_bytes(p, nin, u8_rows) + slot_bytes(p, h, nin, nout) +
	    table_bytes(p, u8_rows);

	return p->algo == SPS_ALGO_SUBBAND ? b + subband_bytes(p, nout) : b;
}

#ifndef SPS_HAVE_CUDA
static enum sps_err
no_cuda(void)
{
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

void
sps_gpu_dedisp_preload(int dev)
{
	(void)dev;
}

enum sps_err
sps_gpu_dedisp_create(struct sps_gpu_dedisp **plan, int dev,
    const struct sps_header *h, const int *scrunch, int ndms,
    const unsigned char *kill, const int *shifts, size_t nin, size_t nout)
{
	(void)dev;
	(void)h;
	(void)scrunch;
	(void)ndms;
	(void)kill;
	(void)shifts;
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

/* kernels/dedisperse.cu's limit, so that predictions made without CUDA
 * agree with a CUDA build's plans. */
size_t
sps_gpu_dedisp_packed_limit(const struct sps_header *h,
    enum sps_dedisp_algo algo)
{
	size_t per = (size_t)h->nchans * NCOPIES;

	if (h->nbits > 8 || h->nifs != 1 || (h->nbits == 8 && h->sign < 0) ||
	    algo == SPS_ALGO_TREE_LINEAR || algo == SPS_ALGO_TREE_PADDED)
		return SIZE_MAX;
	return (size_t)UINT32_MAX / per - ROW_PAD - 16;
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
sps_gpu_dedisp_pack(struct sps_gpu_dedisp *plan, int nbits, double scale,
    double offset)
{
	(void)plan;
	(void)nbits;
	(void)scale;
	(void)offset;
	return no_cuda();
}

enum sps_err
sps_gpu_dedisp_packed(const struct sps_gpu_dedisp *plan, size_t *bytes,
    unsigned long long *clipped)
{
	(void)plan;
	*bytes = 0;
	*clipped = 0;
	return no_cuda();
}

enum sps_err
sps_gpu_dedisp_prepare(struct sps_gpu_dedisp *plan)
{
	(void)plan;
	return no_cuda();
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
sps_gpu_dedisp_stage(struct sps_gpu_dedisp *plan, const unsigned char *raw,
    size_t nkeep, size_t n, unsigned char **dev, void **stream)
{
	(void)plan, (void)raw, (void)nkeep, (void)n;
	*dev = NULL;
	*stream = NULL;
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

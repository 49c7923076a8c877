/* gpu_plan.h: the GPU plan's insides, shared by the kernels' files
 * (dedisperse.cu: unpacking, direct and sub-band; tree.cu: the trees).
 * Not for tools. */
#ifndef SPS_GPU_PLAN_H
#define SPS_GPU_PLAN_H

#include <cuda_runtime.h>

#include "gpu.h"

#define ROW_PAD		1088	/* bytes past a row's samples: the widest
				 * 8-bit tile (2 x 512 bytes) reads up to
				 * here */

/* Where sample t of trial d (scrunch factor f) of a gulp goes in the
 * output: the gulp is cut into sub-blocks of `block` base samples, each
 * laid out as one block of sps_dedisp_execute (trial-major), one after
 * the other; the last may be shorter. */
struct out_layout {
	const size_t	*full;		/* trial offsets in a full sub-block */
	const size_t	*last;		/* the same in the shorter last one */
	size_t		 block, nfull, block_floats;
};

__device__ static inline size_t
out_index(const struct out_layout &o, int d, int f, size_t t)
{
	size_t per = o.block / f, q = t / per, w = t - q * per;

	if (q < o.nfull)
		return q * o.block_floats + o.full[d] + w;
	return o.nfull * o.block_floats + o.last[d] + w;
}

/* One of the two gulps that can be queued. */
struct gpu_slot {
	unsigned char	*d_raw;
	float		*d_out;
	size_t		*d_offsets;	/* full, then last: 2 (ndms + 1) */
	size_t		*h_offsets;	/* page-locked */
	struct out_layout layout;	/* pointing into d_offsets */
	float		*out;		/* the caller's */
	size_t		 out_floats;
	size_t		 nin, nout;
	cudaEvent_t	 uploaded, k_start, k_stop, downloaded;
};

struct gpu_tree;

struct sps_gpu_dedisp {
	int		 dev;
	int		 nchans, nifs, nbits, is_signed, nlive, ndms, nlevels;
	size_t		 spectrum_bytes, nin, nout;
	int		 u8_rows;	/* level 0 as bytes (SIMD path) */
	int		 tile;		/* entry of the 8-bit kernel's table */
	int		*scrunch;	/* host copy */
	int		*d_live;
	int		*d_shifts;	/* ndms x nlive */
	unsigned	*d_u8;		/* level 0 bytes, NCOPIES copies
					 * shifted by 0, 1, ... bytes,
					 * copy_words each */
	size_t		 copy_words;
	float		**d_level;	/* levels 0 (float rows) or 1.. */
	size_t		*stride;	/* elements per row of each level */
	size_t		 bytes;
	cudaStream_t	 s_in, s_run, s_out;
	struct gpu_slot	 slot[2];
	int		 queued, head;	/* blocks queued; slot of the oldest */
	/* sub-band algorithm (nsub > 0) */
	int		 nsub, ngroups;
	int		*group_start;	/* host */
	size_t		*span;		/* host */
	int		*d_step1, *d_step2, *d_band_first;
	float		*d_x;		/* one group's band series */
	/* tree algorithms */
	struct gpu_tree	*tree;
};

enum sps_err gpu_cuda_fail(cudaError_t code, const char *what);

#define CHECK(call) do {						\
	cudaError_t code_ = (call);					\
	if (code_ != cudaSuccess)					\
		return gpu_cuda_fail(code_, #call);			\
} while (0)

#define CHECK_LAUNCH(name) do {						\
	cudaError_t code_ = cudaGetLastError();				\
	if (code_ != cudaSuccess)					\
		return gpu_cuda_fail(code_, "launch of " name);		\
} while (0)

int gpu_log2(int f);

/* cudaMalloc counted in the plan, failing with the figures. */
enum sps_err gpu_alloc(struct sps_gpu_dedisp *p, void **ptr, size_t bytes,
    const char *what);

/* Rows of scrunch level k: bytes (copy 0 of d_u8) or floats. */
const void *gpu_level_rows(const struct sps_gpu_dedisp *p, int k,
    int *is_u8);

/* Trials d0 .. d1 - 1, of scrunch factor f: sample j < n of trial d is
 * the sum over c < nc, in order, of rows[row(d, c) * stride + j +
 * shifts[d * nc + c]], where row(d, c) = rowmap[d * nc + c], or c
 * without a rowmap; it goes to out[out_index(o, d, f, j)]. */
enum sps_err gpu_gather_sum(struct sps_gpu_dedisp *p, const float *rows,
    size_t stride, const int *rowmap, const int *shifts, int nc, int d0,
    int d1, int f, size_t n, float *out, const struct out_layout *o);

/* tree.cu */
enum sps_err gpu_tree_setup(struct sps_gpu_dedisp *p,
    const struct sps_tree_tables *t);
enum sps_err gpu_tree_run(struct sps_gpu_dedisp *p, size_t nin, size_t nout,
    float *d_out, const struct out_layout *o);
void gpu_tree_free(struct sps_gpu_dedisp *p);

#endif

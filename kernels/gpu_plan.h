/* gpu_plan.h: the GPU plan's insides, shared by the kernels' files
 * (dedisperse.cu: unpacking, direct and sub-band; tree.cu: the trees).
 * Not for tools. */
#ifndef SPS_GPU_PLAN_H
#define SPS_GPU_PLAN_H

#include "gpu.h"
#include "gpu_util.h"

#define ROW_PAD		1088	/* bytes past a row's samples: the widest
				 * 8-bit tile (2 x 512 bytes) reads up to
				 * here */
#define LANE_CHANNELS	256	/* 16-bit lanes widen after this many
				 * (256 * 255 < 2^16) */
#define NCOPIES		16	/* shifted copies of the 8-bit rows */

/* The even and odd bytes of x as two 16-bit lanes each. */
__device__ static inline unsigned
even_bytes(unsigned x)
{
	return __byte_perm(x, 0, 0x4240);
}

__device__ static inline unsigned
odd_bytes(unsigned x)
{
	return __byte_perm(x, 0, 0x4341);
}

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
	unsigned char	*d_packed;	/* the gulp packed (streampack.cu) */
	size_t		 packed_cap;
	size_t		 packed_bytes;	/* of this gulp; 0: floats */
	unsigned long long *d_clipped;	/* values clipped in packing */
	cudaEvent_t	 uploaded, k_start, k_stop, out_ready, downloaded;
};

/* Lanes of the four words of v added to the accumulators of two pairs of
 * 16-bit lanes per word (even and odd bytes). */
__device__ static inline void
add_vec(uint4 a, uint4 b, unsigned *even, unsigned *odd)
{
	even[0] += even_bytes(a.x) + even_bytes(b.x);
	odd[0] += odd_bytes(a.x) + odd_bytes(b.x);
	even[1] += even_bytes(a.y) + even_bytes(b.y);
	odd[1] += odd_bytes(a.y) + odd_bytes(b.y);
	even[2] += even_bytes(a.z) + even_bytes(b.z);
	odd[2] += odd_bytes(a.z) + odd_bytes(b.z);
	even[3] += even_bytes(a.w) + even_bytes(b.w);
	odd[3] += odd_bytes(a.w) + odd_bytes(b.w);
}

/* The 16-bit lanes of n words (even and odd bytes) widened into the
 * 32-bit sums of their four samples, then cleared. */
template <int N>
__device__ static inline void
widen_lanes(unsigned *even, unsigned *odd, unsigned *sums)
{
#pragma unroll
	for (int i = 0; i < N; i++) {
		sums[4 * i] += even[i] & 0xffff;
		sums[4 * i + 1] += odd[i] & 0xffff;
		sums[4 * i + 2] += even[i] >> 16;
		sums[4 * i + 3] += odd[i] >> 16;
		even[i] = odd[i] = 0;
	}
}

struct gpu_tree;
struct gpu_subband;

/* Trials d0 .. d1 - 1 of the 8-bit direct kernel, one launch: through
 * shared memory, in entry `shape` of its table, windows of `width` bytes
 * per channel, the channels' window starts from block base_block of the
 * base table on; or through the cache (width 0, shape -1). */
struct direct_range {
	int		 d0, d1, width, shape;
	size_t		 base_block;
};

#define DIRECT_LINE	160

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
	int		 last;		/* slot last submitted, -1: none */
	size_t		 staged;	/* spectra of the next gulp on the
					 * device already */
	int		 done;		/* slot last waited for, -1: none */
	/* sub-band algorithm (subband.cu) */
	struct gpu_subband *subband;
	/* tree algorithms */
	struct gpu_tree	*tree;
	/* the 8-bit direct kernel's launches (direct_shared.cu) */
	struct direct_range *ranges;
	int		 nranges;
	int		*d_base;	/* shared blocks x nlive: window
					 * starts, 16-byte vectors */
	int		 smem_optin;	/* bytes of shared memory a block
					 * may have */
	int		 direct_force;	/* -1, or the DIRECT_ path forced */
	int		 direct_tuned;	/* the trial has run */
	int		 tune_started;	/* its kernels are queued */
	cudaEvent_t	 tune_ev[4];	/* each path's timed run: start, stop */
	double		 direct_ms[2];	/* each path's time in the trial */
	char		 direct_line[DIRECT_LINE];	/* for the summary */
	/* gulps packed for an 8- or 16-bit stream (streampack.cu) */
	int		 pack_bits;	/* 0: floats */
	struct pack_trial *d_pack;	/* each trial's scale and offset */
};

enum { DIRECT_CACHE, DIRECT_SHARED };

int gpu_log2(int f);

/* Entry *i (0 .. n - 1) of a table from the environment variable name;
 * *i unchanged when it is unset or empty. */
enum sps_err gpu_env_index(const char *name, int n, int *i);

/* gpu_malloc counted in the plan. */
enum sps_err gpu_alloc(struct sps_gpu_dedisp *p, void **ptr, size_t bytes,
    const char *what);

/* Queue the packing of slot s's gulp after its kernels, where the plan
 * packs (sps_gpu_dedisp_pack); s->packed_bytes says whether it did. */
enum sps_err gpu_pack_gulp(struct sps_gpu_dedisp *p, struct gpu_slot *s,
    cudaStream_t st);
enum sps_err gpu_pack_load(void);	/* its kernel loaded (gpu_preload) */

/* gpu_alloc, then bytes copied from host. */
enum sps_err gpu_upload(struct sps_gpu_dedisp *p, void **ptr,
    const void *host, size_t bytes, const char *what);

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

/* The 8-bit direct kernel through the cache (dedisperse.cu), trials d0 ..
 * d1 - 1. */
enum sps_err gpu_direct_u8_cache(struct sps_gpu_dedisp *p, int d0, int d1,
    size_t n, float *out, const struct out_layout *o);

/* direct_shared.cu: the launches of the 8-bit direct kernel from the
 * host's shift table (ndms x nlive), and the launches themselves over
 * trials d0 .. d1 - 1 (all of scrunch factor 1). */
enum sps_err gpu_direct_plan(struct sps_gpu_dedisp *p, const int *shifts);
enum sps_err gpu_direct_load(void);	/* its kernels loaded (gpu_preload) */
enum sps_err gpu_direct_u8(struct sps_gpu_dedisp *p, int mode, int d0,
    int d1, size_t n, float *out, const struct out_layout *o);
/* The DIRECT_ path the plan's gulps take, and its phrase for the
 * summary, made again after the trial. */
int gpu_direct_path(const struct sps_gpu_dedisp *p);
void gpu_direct_describe(struct sps_gpu_dedisp *p);
void gpu_direct_free(struct sps_gpu_dedisp *p);

/* subband.cu */
enum sps_err gpu_subband_run(struct sps_gpu_dedisp *p, size_t nout,
    float *d_out, const struct out_layout *o);
void gpu_subband_free(struct sps_gpu_dedisp *p);

/* tree.cu */
enum sps_err gpu_tree_setup(struct sps_gpu_dedisp *p,
    const struct sps_tree_tables *t);
enum sps_err gpu_tree_run(struct sps_gpu_dedisp *p, size_t nin, size_t nout,
    float *d_out, const struct out_layout *o);
void gpu_tree_free(struct sps_gpu_dedisp *p);

#endif

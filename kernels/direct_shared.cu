/* direct_shared.cu: the direct kernel for 8-bit and narrower data
 * through shared memory (Novotny et al. §4.1), and the choice, per block
 * of trials, between it and the cache kernel of dedisperse.cu.  The CPU
 * reference is lib/dedisperse.c.
 *
 * A thread block sums T trials over 512 samples.  For each stage of CH
 * channels it copies, for every channel, the window of the row that its
 * trials read (512 samples plus the spread of their shifts, from the
 * smallest shift rounded down to 16 bytes) into shared memory, four
 * times: copy r is the window r bytes later, taken from the shifted
 * copies of the rows, so that every trial reads aligned 32-bit words
 * whatever its shift.  The copies of the next stage are in flight
 * (cp.async) while this one is summed.  Lane k of a warp sums words k,
 * k + 32, k + 64 and k + 96 of the window (16 samples, bank-conflict
 * free), as two 16-bit lanes per word, widened every LANE_CHANNELS
 * channels: exactly the integer sums of the cache kernel.
 *
 * A block whose shifts spread too far for a window of WIDTH_MAX bytes
 * (large DM steps, low frequencies) goes to the cache kernel. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_pipeline.h>

#include "gpu_plan.h"

#define TILE_SAMPLES	512	/* per block: a warp's 128 words */
#define WIDTH_MAX	1024	/* bytes of a window; its reads stay in
				 * ROW_PAD */
#define WIDTH_STEP	128
#define PLAN_TRIALS	32	/* trials per block of the window table;
				 * a kernel's T divides it */

static_assert(WIDTH_MAX + 4 <= ROW_PAD, "windows read past the padding");

/* Issue the copies of the windows of channels c0 .. c0 + CH - 1 into
 * buffer buf, and the word offset of each trial's samples in them. */
template <int T, int CH>
__device__ static void
stage_issue(unsigned char *buf, unsigned (*at)[CH], const uint4 *vecs,
    size_t copy_vecs, size_t row_vecs, const int *shifts, const int *base,
    int nlive, int c0, int d, int d1, size_t v0, int width, int buf_words)
{
	int wv = width / 16, ww = width / 4, row, i, k;

	/* warp y copies rows y, y + T, ... of the CH x 4 (channel, copy)
	 * windows, a vector a lane */
	for (row = threadIdx.y; row < 4 * CH; row += T) {
		int c = c0 + row / 4;
		const uint4 *src;

		if (c >= nlive)
			break;
		src = vecs + (size_t)(row % 4) * copy_vecs + (size_t)c *
		    row_vecs + (size_t)base[c] + v0;
		for (i = threadIdx.x; i < wv; i += 32)
			__pipeline_memcpy_async(buf + ((size_t)row * wv + i) *
			    16, src + i, 16);
	}
	for (k = threadIdx.x; k < CH; k += 32) {
		int c = c0 + k;

		if (c < nlive && d < d1) {
			int o = shifts[(size_t)d * nlive + c] - 16 * base[c];

			at[threadIdx.y][k] = buf_words + (k * 4 + (o & 3)) * ww +
			    (o >> 2);
		}
	}
	__pipeline_commit();
}

/* Words w0 and w1 of two channels added to the lanes of word j. */
__device__ static inline void
add_pair(unsigned w0, unsigned w1, unsigned *even, unsigned *odd)
{
	*even += even_bytes(w0) + even_bytes(w1);
	*odd += odd_bytes(w0) + odd_bytes(w1);
}

template <int T, int CH>
__global__ static void __launch_bounds__(32 * T, 1)
direct_u8_shared(const uint4 *vecs, size_t copy_vecs, size_t row_vecs,
    const int *shifts, const int *base_table, int nlive, int d0, int d1,
    size_t n, int width, float *out, struct out_layout o)
{
	static_assert(PLAN_TRIALS % T == 0, "blocks split the table's");
	extern __shared__ __align__(16) unsigned char windows[];
	__shared__ __align__(16) unsigned at[2][T][CH];
	const unsigned *words = (const unsigned *)windows;
	const int *base = base_table + (size_t)(blockIdx.x * T / PLAN_TRIALS) *
	    nlive;
	unsigned even[4] = { 0 }, odd[4] = { 0 }, sums[16] = { 0 };
	int lane = threadIdx.x, ty = threadIdx.y, s, k, j;
	int d = d0 + blockIdx.x * T + ty, nstages = (nlive + CH - 1) / CH;
	int buf_words = CH * width;	/* 4 copies x width / 4 */
	size_t v0 = (size_t)blockIdx.y * (TILE_SAMPLES / 16);

	stage_issue<T, CH>(windows, at[0], vecs, copy_vecs, row_vecs, shifts,
	    base, nlive, 0, d, d1, v0, width, 0);
	for (s = 0; s < nstages; s++) {
		int b = s & 1, nc = min(CH, nlive - s * CH);

		if (s + 1 < nstages)
			stage_issue<T, CH>(windows + (size_t)(!b) * 4 * buf_words,
			    at[!b], vecs, copy_vecs, row_vecs, shifts, base,
			    nlive, (s + 1) * CH, d, d1, v0, width,
			    !b * buf_words);
		else
			__pipeline_commit();
		__pipeline_wait_prior(1);
		__syncthreads();
		if (d < d1) {
			for (k = 0; k + 4 <= nc; k += 4) {
				uint4 a = *(const uint4 *)&at[b][ty][k];
				const unsigned *p0 = words + a.x + lane;
				const unsigned *p1 = words + a.y + lane;
				const unsigned *p2 = words + a.z + lane;
				const unsigned *p3 = words + a.w + lane;

#pragma unroll
				for (j = 0; j < 4; j++) {
					add_pair(p0[32 * j], p1[32 * j], &even[j],
					    &odd[j]);
					add_pair(p2[32 * j], p3[32 * j], &even[j],
					    &odd[j]);
				}
			}
			for (; k < nc; k++) {
				const unsigned *p0 = words + at[b][ty][k] + lane;

#pragma unroll
				for (j = 0; j < 4; j++)
					add_pair(p0[32 * j], 0, &even[j],
					    &odd[j]);
			}
			if (((s + 1) * CH) % LANE_CHANNELS == 0 ||
			    s + 1 == nstages)
				widen_lanes<4>(even, odd, sums);
		}
		__syncthreads();
	}
	if (d >= d1)
		return;
#pragma unroll
	for (j = 0; j < 4; j++)
#pragma unroll
		for (k = 0; k < 4; k++) {
			size_t t = 16 * v0 + 4 * (lane + 32 * j) + k;

			if (t < n)
				out[out_index(o, d, 1, t)] = (float)sums[4 * j + k];
		}
}

typedef void (*shared_kernel)(const uint4 *, size_t, size_t, const int *,
    const int *, int, int, int, size_t, int, float *, struct out_layout);

/* Shapes of the shared-memory kernel: trials per block, channels per
 * stage.  The first whose two buffers of windows fit the device is used;
 * SPS_GPU_SHARED_TILE=i forces entry i.  Rates: Novotny's 4096 channels,
 * 3051 trials, on an H100. */
static const struct shared_tile {
	int		 trials, chans;
	shared_kernel	 kernel;
} shared_tiles[] = {
	{ 32, 32, direct_u8_shared<32, 32> },
	{ 32, 16, direct_u8_shared<32, 16> },
	{ 16, 16, direct_u8_shared<16, 16> },
	{ 32, 8, direct_u8_shared<32, 8> },
};
#define NSHARED (int)(sizeof(shared_tiles) / sizeof(shared_tiles[0]))


static size_t
window_bytes(const struct shared_tile *t, int width)
{
	return 2 * (size_t)t->chans * 4 * width;
}

static size_t
static_bytes(const struct shared_tile *t)
{
	return 2 * (size_t)t->trials * t->chans * sizeof(unsigned);
}

/* The shape for windows of `width` bytes (entry `forced` if that is not
 * -1), or -1 if none fits. */
static int
shared_shape(const struct sps_gpu_dedisp *p, int width, int forced)
{
	int i;

	for (i = forced >= 0 ? forced : 0; i < NSHARED; i++) {
		if (window_bytes(&shared_tiles[i], width) +
		    static_bytes(&shared_tiles[i]) <= (size_t)p->smem_optin)
			return i;
		if (forced >= 0)
			break;
	}
	return -1;
}

/* The spread of the shifts of trials da .. db - 1 (db > da): the window
 * width they need, and in base (nlive) the start of each channel's
 * window in 16-byte vectors; 0 if the window would be wider than
 * WIDTH_MAX or a shift is negative.  hi is scratch for nlive. */
static int
block_width(const int *shifts, int nlive, int da, int db, int *base,
    int *hi)
{
	const int *row = shifts + (size_t)da * nlive;
	int c, d, span = 0;

	/* row by row, in the table's order: a channel's shifts are a row
	 * apart, and read column by column each would miss the cache */
	for (c = 0; c < nlive; c++)
		base[c] = hi[c] = row[c];
	for (d = da + 1; d < db; d++) {
		row = shifts + (size_t)d * nlive;
		for (c = 0; c < nlive; c++) {
			base[c] = row[c] < base[c] ? row[c] : base[c];
			hi[c] = row[c] > hi[c] ? row[c] : hi[c];
		}
	}
	for (c = 0; c < nlive; c++) {
		if (base[c] < 0)
			return 0;
		base[c] /= 16;
		span = hi[c] - 16 * base[c] > span ? hi[c] - 16 * base[c] : span;
	}
	/* lane 31 reads 4 bytes at 4 * (o / 4) + 508, o <= span */
	span = (span + TILE_SAMPLES + 4 + WIDTH_STEP - 1) / WIDTH_STEP *
	    WIDTH_STEP;
	return span <= WIDTH_MAX ? span : 0;
}

/* Trials da .. db - 1 on the cache (shape -1) or in shared memory:
 * joined to the last range when they follow on the same way. */
static enum sps_err
add_range(struct sps_gpu_dedisp *p, int da, int db, int width, int shape,
    size_t base_block)
{
	struct direct_range *last = p->nranges > 0 ? &p->ranges[p->nranges - 1] :
	    NULL, *grown;

	if (last != NULL && last->d1 == da && last->width == width &&
	    last->shape == shape) {
		last->d1 = db;
		return SPS_OK;
	}
	grown = (struct direct_range *)realloc(p->ranges, (p->nranges + 1) *
	    sizeof(*grown));
	if (grown == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	p->ranges = grown;
	p->ranges[p->nranges++] = (struct direct_range){ da, db, width, shape,
	    base_block };
	return SPS_OK;
}

static enum sps_err
direct_env(struct sps_gpu_dedisp *p, int *forced)
{
	const char *env = getenv("SPS_GPU_DIRECT");

	p->direct_force = -1;
	if (env != NULL && strcmp(env, "cache") == 0)
		p->direct_force = DIRECT_CACHE;
	else if (env != NULL && strcmp(env, "shared") == 0)
		p->direct_force = DIRECT_SHARED;
	else if (env != NULL && *env != '\0' && strcmp(env, "auto") != 0)
		return sps_fail(SPS_EUSAGE, "SPS_GPU_DIRECT=%s: not auto, cache "
		    "or shared", env);
	*forced = -1;
	return gpu_env_index("SPS_GPU_SHARED_TILE", NSHARED, forced);
}

/* Blocks of PLAN_TRIALS trials from the start of each run of scrunch
 * factor 1, as run_trials (dedisperse.cu) launches them, each with its
 * row of window starts in base (room for one row a block) when it can
 * take shared memory; SPS_GPU_DIRECT=cache keeps them all on the cache
 * kernel. */
static enum sps_err
plan_ranges(struct sps_gpu_dedisp *p, const int *shifts, int forced,
    int *base, size_t *nshared)
{
	int d0 = 0, d1, da, db, *hi = (int *)malloc(p->nlive * sizeof(int));
	enum sps_err e = SPS_OK;

	if (hi == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (; e == SPS_OK && d0 < p->ndms; d0 = d1) {
		for (d1 = d0 + 1; d1 < p->ndms && p->scrunch[d1] ==
		    p->scrunch[d0]; d1++)
			;
		if (p->scrunch[d0] != 1)
			continue;
		for (da = d0; e == SPS_OK && da < d1; da = db) {
			int w = 0, shape = -1;

			db = da + PLAN_TRIALS < d1 ? da + PLAN_TRIALS : d1;
			if (p->direct_force != DIRECT_CACHE)
				w = block_width(shifts, p->nlive, da, db, base +
				    *nshared * p->nlive, hi);
			if (w > 0)
				shape = shared_shape(p, w, forced);
			if (shape < 0)
				w = 0;
			e = add_range(p, da, db, w, shape, *nshared);
			*nshared += shape >= 0;
		}
	}
	free(hi);
	return e;
}

/* Blocks of PLAN_TRIALS trials, at most. */
static size_t
count_blocks(const struct sps_gpu_dedisp *p)
{
	size_t n = 0;
	int d0 = 0, d1;

	for (; d0 < p->ndms; d0 = d1) {
		for (d1 = d0 + 1; d1 < p->ndms && p->scrunch[d1] ==
		    p->scrunch[d0]; d1++)
			;
		n += (size_t)(d1 - d0 + PLAN_TRIALS - 1) / PLAN_TRIALS;
	}
	return n;
}

enum sps_err
gpu_direct_load(void)
{
	const void *k[NSHARED];

	for (int i = 0; i < NSHARED; i++)
		k[i] = (const void *)shared_tiles[i].kernel;
	return gpu_load_kernels(k, NSHARED);
}

enum sps_err
gpu_direct_plan(struct sps_gpu_dedisp *p, const int *shifts)
{
	size_t nshared = 0;
	enum sps_err e;
	int *base, forced, i;

	CHECK(cudaDeviceGetAttribute(&p->smem_optin,
	    cudaDevAttrMaxSharedMemoryPerBlockOptin, p->dev));
	if ((e = direct_env(p, &forced)) != SPS_OK)
		return e;
	base = (int *)malloc(count_blocks(p) * p->nlive * sizeof(int));
	if (base == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	e = plan_ranges(p, shifts, forced, base, &nshared);
	if (e == SPS_OK && nshared > 0)
		e = gpu_upload(p, (void **)&p->d_base, base, nshared * p->nlive *
		    sizeof(int), "window table");
	free(base);
	/* each shape may take the shared memory the device allows */
	for (i = 0; e == SPS_OK && nshared > 0 && i < NSHARED; i++)
		CHECK(cudaFuncSetAttribute(shared_tiles[i].kernel,
		    cudaFuncAttributeMaxDynamicSharedMemorySize, p->smem_optin -
		    (int)static_bytes(&shared_tiles[i])));
	if (e == SPS_OK)
		gpu_direct_describe(p);
	return e;
}

static enum sps_err
launch_shared(struct sps_gpu_dedisp *p, const struct direct_range *g,
    size_t n, float *out, const struct out_layout *o)
{
	const struct shared_tile *t = &shared_tiles[g->shape];
	size_t bytes = window_bytes(t, g->width);
	dim3 b(32, t->trials), grid((unsigned)((g->d1 - g->d0 + t->trials - 1) /
	    t->trials), (unsigned)((n + TILE_SAMPLES - 1) / TILE_SAMPLES));

	t->kernel<<<grid, b, bytes, p->s_run>>>((const uint4 *)p->d_u8,
	    p->copy_words / 4, p->stride[0] / 16, p->d_shifts,
	    p->d_base + g->base_block * p->nlive, p->nlive, g->d0, g->d1, n,
	    g->width, out, *o);
	CHECK_LAUNCH("direct_u8_shared");
	return SPS_OK;
}

enum sps_err
gpu_direct_u8(struct sps_gpu_dedisp *p, int mode, int d0, int d1, size_t n,
    float *out, const struct out_layout *o)
{
	enum sps_err e = SPS_OK;
	int r;

	for (r = 0; r < p->nranges && e == SPS_OK; r++) {
		const struct direct_range *g = &p->ranges[r];
		int end = g->d1;

		if (g->d0 < d0 || g->d1 > d1)
			continue;
		if (mode == DIRECT_SHARED && g->width > 0) {
			e = launch_shared(p, g, n, out, o);
			continue;
		}
		/* one cache launch for the ranges that follow on */
		while (r + 1 < p->nranges && p->ranges[r + 1].d0 == end &&
		    p->ranges[r + 1].d1 <= d1 && (mode == DIRECT_CACHE ||
		    p->ranges[r + 1].width == 0))
			end = p->ranges[++r].d1;
		e = gpu_direct_u8_cache(p, g->d0, end, n, out, o);
	}
	return e;
}

/* The path of the 8-bit direct kernel: forced by SPS_GPU_DIRECT, or the
 * faster in the trial at set-up (the results are the same either way),
 * or the cache when no block of trials fits in shared memory. */
int
gpu_direct_path(const struct sps_gpu_dedisp *p)
{
	if (p->d_base == NULL)
		return DIRECT_CACHE;
	if (p->direct_force >= 0)
		return p->direct_force;
	return p->direct_ms[DIRECT_SHARED] > 0 && p->direct_ms[DIRECT_SHARED] <
	    p->direct_ms[DIRECT_CACHE] ? DIRECT_SHARED : DIRECT_CACHE;
}

/* The summary's phrase for the path (sps_gpu_dedisp_direct_path), once
 * it is known: after the plan, or after the trial. */
void
gpu_direct_describe(struct sps_gpu_dedisp *p)
{
	double cache = p->direct_ms[DIRECT_CACHE];
	double shared = p->direct_ms[DIRECT_SHARED];
	char *line = p->direct_line;

	if (p->d_base == NULL)
		snprintf(line, DIRECT_LINE, "through the cache (the shifts "
		    "spread too far for shared memory%s)", p->direct_force ==
		    DIRECT_CACHE ? ", or SPS_GPU_DIRECT=cache" : "");
	else if (p->direct_force >= 0)
		snprintf(line, DIRECT_LINE, "through %s (SPS_GPU_DIRECT)",
		    p->direct_force == DIRECT_CACHE ? "the cache" :
		    "shared memory");
	else if (p->direct_tuned)
		snprintf(line, DIRECT_LINE, "through %s, %.2fx as fast as "
		    "through %s in a trial at set-up", shared < cache ?
		    "shared memory" : "the cache", shared < cache ?
		    cache / shared : shared / cache, shared < cache ?
		    "the cache" : "shared memory");
}

extern "C" const char *
sps_gpu_dedisp_direct_path(const struct sps_gpu_dedisp *p)
{
	if (p->tree != NULL || p->subband != NULL || !p->u8_rows ||
	    p->direct_line[0] == '\0')
		return NULL;
	return p->direct_line;
}

void
gpu_direct_free(struct sps_gpu_dedisp *p)
{
	cudaFree(p->d_base);
	free(p->ranges);
}

/* dedisperse.cu: dedispersion on the GPU (see lib/gpu.h): unpacking,
 * scrunching, the direct and sub-band kernels, and the queue of blocks
 * on three streams; the trees are in tree.cu.  The CPU reference is
 * lib/dedisperse.c; sub-band is in subband.cu, the trees in tree.cu. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "bits.h"
#include "gpu_plan.h"
extern "C" {
#include "clock.h"
}

#define TILE		32	/* unpack tile: samples x channels */
#define F32_SAMPLES	8	/* samples per thread, float kernel */
#define F32_TRIALS	8	/* blockDim.y of the float kernel */

/* Value of (sample t, IF i, channel c) in SIGPROC packing. */
__device__ static float
raw_value(const unsigned char *spec, int nbits, int is_signed, size_t k)
{
	size_t bit = k * (size_t)nbits;
	unsigned b;

	switch (nbits) {
	case 1:
	case 2:
	case 4:
		b = spec[bit >> 3];
		return (float)((b >> (bit & 7)) & ((1u << nbits) - 1));
	case 8:
		return is_signed ? (float)(signed char)spec[k] :
		    (float)spec[k];
	case 16:
		return (float)(spec[2 * k] | spec[2 * k + 1] << 8);
	default: {
		float v;

		memcpy(&v, spec + 4 * k, 4);
		return v;
	}
	}
}

/* Raw spectra to channel-major rows of live channels, IFs summed, through
 * a shared-memory tile so that both sides are coalesced. */
template <typename T>
__global__ static void
unpack_rows(const unsigned char *raw, size_t spectrum_bytes, int nbits,
    int is_signed, int nchans, int nifs, const int *live, int nlive,
    size_t nin, T *rows, size_t stride)
{
	__shared__ float tile[TILE][TILE + 1];
	size_t t0 = (size_t)blockIdx.x * TILE;
	int c0 = blockIdx.y * TILE, k, f;

	for (k = threadIdx.y; k < TILE; k += blockDim.y) {
		size_t t = t0 + k;
		int c = c0 + threadIdx.x;
		float v = 0;

		if (t < nin && c < nlive)
			for (f = 0; f < nifs; f++)
				v += raw_value(raw + t * spectrum_bytes, nbits,
				    is_signed, (size_t)f * nchans + live[c]);
		tile[k][threadIdx.x] = v;
	}
	__syncthreads();
	for (k = threadIdx.y; k < TILE; k += blockDim.y) {
		size_t t = t0 + threadIdx.x;
		int c = c0 + k;

		if (t < nin && c < nlive)
			rows[(size_t)c * stride + t] = (T)tile[threadIdx.x][k];
	}
}

template <typename T>
__global__ static void
scrunch_rows(const T *in, size_t in_stride, float *out, size_t out_stride,
    size_t nout, int nlive)
{
	size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	int c = blockIdx.y;

	if (j < nout && c < nlive)
		out[(size_t)c * out_stride + j] =
		    (float)in[(size_t)c * in_stride + 2 * j] +
		    (float)in[(size_t)c * in_stride + 2 * j + 1];
}

/* Copies 1 .. NCOPIES - 1 of the byte rows: copy r starts r bytes later,
 * so that the 8-bit kernel loads aligned 16-byte vectors at any shift. */
__global__ static void
shift_copies(unsigned *words, size_t copy_words)
{
	size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	int r;

	if (w >= copy_words)
		return;
	for (r = 1; r < NCOPIES; r++) {
		size_t a = w + r / 4, b = a + 1;

		words[r * copy_words + w] = __funnelshift_r(
		    a < copy_words ? words[a] : 0,
		    b < copy_words ? words[b] : 0, 8 * (r % 4));
	}
}

/* 8-bit rows: lane k of a warp sums 16-byte vectors k, k + 32, ... (V of
 * them) of one trial, so that each load of the warp is 512 contiguous
 * bytes, 16-byte aligned thanks to the shifted copies; the even and odd
 * bytes of each word add as two 16-bit lanes, widened into 32-bit sums
 * every LANE_CHANNELS channels.  The byte offset of each channel at the
 * trial's shift (copy and row included; 32-bit, so that an address costs
 * one 64-bit add) waits in shared memory, four channels to a 128-bit
 * read. */
template <int V, int T, int CH, int MINB>
__global__ static void __launch_bounds__(32 * T, MINB)
dedisperse_u8(const uint4 *vecs, size_t copy_vecs, size_t row_vecs,
    const int *shifts, int nlive, int d0, int d1, size_t n, float *out,
    struct out_layout o)
{
	__shared__ __align__(16) unsigned at[T][LANE_CHANNELS];
	unsigned even[4 * V], odd[4 * V], sums[16 * V];
	int lane = threadIdx.x, ty = threadIdx.y, c0, c, i, k;
	int d = d0 + blockIdx.x * T + ty;
	size_t v0 = (size_t)blockIdx.y * 32 * V + lane;
	const char *base = (const char *)(vecs + v0);

#pragma unroll
	for (i = 0; i < 4 * V; i++)
		even[i] = odd[i] = 0;
#pragma unroll
	for (i = 0; i < 16 * V; i++)
		sums[i] = 0;
	for (c0 = 0; c0 < nlive; c0 += LANE_CHANNELS) {
		int nc = min(LANE_CHANNELS, nlive - c0);

		__syncthreads();
		for (k = lane; k < nc; k += 32) {
			int s = d < d1 ? shifts[(size_t)d * nlive + c0 + k] : 0;

			at[ty][k] = (unsigned)(16 * ((size_t)(s % NCOPIES) *
			    copy_vecs + (size_t)(c0 + k) * row_vecs +
			    (size_t)(s / NCOPIES)));
		}
		__syncthreads();
		if (d >= d1)
			continue;
		for (c = 0; c + CH <= nc; c += CH) {
			unsigned a[CH];
			uint4 x[CH][V];

#pragma unroll
			for (k = 0; k < CH; k += 4) {
				uint4 a4 = *(const uint4 *)&at[ty][c + k];

				a[k] = a4.x;
				a[k + 1] = a4.y;
				a[k + 2] = a4.z;
				a[k + 3] = a4.w;
			}
#pragma unroll
			for (k = 0; k < CH; k++)
#pragma unroll
				for (i = 0; i < V; i++)
					x[k][i] = __ldg((const uint4 *)(base +
					    a[k]) + 32 * i);
#pragma unroll
			for (k = 0; k < CH; k += 2)
#pragma unroll
				for (i = 0; i < V; i++)
					add_vec(x[k][i], x[k + 1][i],
					    even + 4 * i, odd + 4 * i);
		}
		for (; c < nc; c++)
#pragma unroll
			for (i = 0; i < V; i++)
				add_vec(__ldg((const uint4 *)(base + at[ty][c]) +
				    32 * i), make_uint4(0, 0, 0, 0),
				    even + 4 * i, odd + 4 * i);
		widen_lanes<4 * V>(even, odd, sums);
	}
	if (d >= d1)
		return;
#pragma unroll
	for (i = 0; i < V; i++)
#pragma unroll
		for (k = 0; k < 16; k++) {
			size_t t = 16 * (v0 + 32 * i) + k;

			if (t < n)
				out[out_index(o, d, 1, t)] =
				    (float)sums[16 * i + k];
		}
}

/* Float rows: thread x of a warp sums samples x, x + 32, ... so that each
 * load of the warp is one contiguous run.  Row c of trial d is
 * rowmap[d * nc + c], or c; the offset of each row at its shift waits in
 * shared memory.  Rows are padded, so loads need no bounds. */
__global__ static void __launch_bounds__(32 * F32_TRIALS)
gather_sum_f32(const float *rows, size_t stride, const int *rowmap,
    const int *shifts, int nc, int d0, int d1, int f, size_t n, float *out,
    struct out_layout o)
{
	__shared__ size_t at[F32_TRIALS][LANE_CHANNELS];
	size_t t = (size_t)blockIdx.y * 32 * F32_SAMPLES + threadIdx.x;
	int ty = threadIdx.y, d = d0 + blockIdx.x * F32_TRIALS + ty;
	const float *base = rows + t;
	float acc[F32_SAMPLES];
	int c0, c, i, k;

#pragma unroll
	for (i = 0; i < F32_SAMPLES; i++)
		acc[i] = 0;
	for (c0 = 0; c0 < nc; c0 += LANE_CHANNELS) {
		int m = min(LANE_CHANNELS, nc - c0);

		__syncthreads();
		for (k = threadIdx.x; d < d1 && k < m; k += 32) {
			size_t dc = (size_t)d * nc + c0 + k;
			size_t row = rowmap != NULL ? (size_t)rowmap[dc] :
			    (size_t)(c0 + k);

			at[ty][k] = row * stride + (size_t)shifts[dc];
		}
		__syncthreads();
		if (d >= d1)
			continue;
		for (c = 0; c + 4 <= m; c += 4) {
			const float *r0 = base + at[ty][c];
			const float *r1 = base + at[ty][c + 1];
			const float *r2 = base + at[ty][c + 2];
			const float *r3 = base + at[ty][c + 3];
			float x0[F32_SAMPLES], x1[F32_SAMPLES];
			float x2[F32_SAMPLES], x3[F32_SAMPLES];

#pragma unroll
			for (i = 0; i < F32_SAMPLES; i++) {
				x0[i] = __ldg(r0 + 32 * i);
				x1[i] = __ldg(r1 + 32 * i);
				x2[i] = __ldg(r2 + 32 * i);
				x3[i] = __ldg(r3 + 32 * i);
			}
#pragma unroll
			for (i = 0; i < F32_SAMPLES; i++)
				acc[i] = acc[i] + x0[i] + x1[i] + x2[i] + x3[i];
		}
		for (; c < m; c++)
#pragma unroll
			for (i = 0; i < F32_SAMPLES; i++)
				acc[i] += __ldg(base + at[ty][c] + 32 * i);
	}
	if (d >= d1)
		return;
#pragma unroll
	for (i = 0; i < F32_SAMPLES; i++)
		if (t + 32 * (size_t)i < n)
			out[out_index(o, d, f, t + 32 * (size_t)i)] = acc[i];
}

static enum sps_err
plan_channels(struct sps_gpu_dedisp *p, const struct sps_header *h,
    const unsigned char *kill, int *live)
{
	int c;

	for (c = 0; c < h->nchans; c++)
		if (kill == NULL || !kill[c])
			live[p->nlive++] = c;
	if (p->nlive == 0)
		return sps_fail(SPS_EVALUE, "every channel is killed");
	return SPS_OK;
}

typedef void (*u8_kernel)(const uint4 *, size_t, size_t, const int *, int,
    int, int, size_t, float *, struct out_layout);

/* The 8-bit kernel's tile shapes: 16-byte vectors (16 samples) per
 * thread, trials per block, channels whose loads are in flight together,
 * blocks per multiprocessor asked of the compiler.  Rates: Novotny's 4096
 * channels, 3050 trials, on an H100.  Entry 0 unless the run has fewer
 * trials than a block of it holds; SPS_GPU_TILE=i (gpu.h) forces entry
 * i. */
static const struct u8_tile {
	int		vecs, trials, chans, minb;
	u8_kernel	kernel;
} u8_tiles[] = {
	{ 1, 32, 16, 1, dedisperse_u8<1, 32, 16, 1> },	/* 15.5 T/s */
	{ 1, 8, 4, 1, dedisperse_u8<1, 8, 4, 1> },	/* for few trials */
	{ 1, 32, 12, 1, dedisperse_u8<1, 32, 12, 1> },	/* 15.4 */
	{ 1, 32, 8, 1, dedisperse_u8<1, 32, 8, 1> },	/* 15.1 */
	{ 1, 32, 4, 1, dedisperse_u8<1, 32, 4, 1> },	/* 14.8 */
	{ 1, 16, 8, 2, dedisperse_u8<1, 16, 8, 2> },	/* 12.6 */
	{ 2, 16, 8, 1, dedisperse_u8<2, 16, 8, 1> },	/* 11.6 */
	{ 2, 8, 4, 1, dedisperse_u8<2, 8, 4, 1> },	/* 11.3 */
	{ 1, 16, 4, 1, dedisperse_u8<1, 16, 4, 1> },	/* 10.8 */
};
#define NTILES (int)(sizeof(u8_tiles) / sizeof(u8_tiles[0]))

enum sps_err
gpu_env_index(const char *name, int n, int *i)
{
	const char *env = getenv(name);
	char *end;
	long v;

	if (env == NULL || *env == '\0')
		return SPS_OK;
	v = strtol(env, &end, 10);
	if (*end != '\0' || v < 0 || v >= n)
		return sps_fail(SPS_EUSAGE, "%s=%s: not a tile number 0 to %d",
		    name, env, n - 1);
	*i = (int)v;
	return SPS_OK;
}

static enum sps_err
choose_tile(struct sps_gpu_dedisp *p)
{
	p->tile = p->ndms < u8_tiles[0].trials ? 1 : 0;
	return gpu_env_index("SPS_GPU_TILE", NTILES, &p->tile);
}

enum sps_err
gpu_alloc(struct sps_gpu_dedisp *p, void **ptr, size_t bytes,
    const char *what)
{
	return gpu_malloc(ptr, bytes, what, &p->bytes);
}

enum sps_err
gpu_upload(struct sps_gpu_dedisp *p, void **ptr, const void *host,
    size_t bytes, const char *what)
{
	enum sps_err e;

	if ((e = gpu_alloc(p, ptr, bytes, what)) != SPS_OK)
		return e;
	CHECK(cudaMemcpy(*ptr, host, bytes, cudaMemcpyHostToDevice));
	return SPS_OK;
}

static enum sps_err
alloc_levels(struct sps_gpu_dedisp *p)
{
	enum sps_err e;
	size_t bytes;
	int k;

	p->d_level = (float **)calloc((size_t)p->nlevels, sizeof(float *));
	p->stride = (size_t *)calloc((size_t)p->nlevels, sizeof(size_t));
	if (p->d_level == NULL || p->stride == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (k = 0; k < p->nlevels; k++) {
		p->stride[k] = ((p->nin >> k) + ROW_PAD + 15) & ~(size_t)15;
		if (k == 0 && p->u8_rows) {
			p->copy_words = p->nlive * p->stride[0] / 4;
			bytes = (NCOPIES * p->copy_words + 4) * sizeof(unsigned);
			if ((e = gpu_alloc(p, (void **)&p->d_u8, bytes,
			    "8-bit rows")) != SPS_OK)
				return e;
			CHECK(cudaMemset(p->d_u8, 0, bytes));
			continue;
		}
		bytes = p->nlive * p->stride[k] * sizeof(float);
		if ((e = gpu_alloc(p, (void **)&p->d_level[k], bytes,
		    "rows")) != SPS_OK)
			return e;
		CHECK(cudaMemset(p->d_level[k], 0, bytes));
	}
	return SPS_OK;
}

const void *
gpu_level_rows(const struct sps_gpu_dedisp *p, int k, int *is_u8)
{
	*is_u8 = k == 0 && p->u8_rows;
	return *is_u8 ? (const void *)p->d_u8 : (const void *)p->d_level[k];
}

static enum sps_err
upload_tables(struct sps_gpu_dedisp *p, const int *live, const int *shifts,
    struct gpu_copy *copy)
{
	size_t bytes = (size_t)p->ndms * p->nlive * sizeof(int);
	enum sps_err e;

	if ((e = gpu_upload(p, (void **)&p->d_live, live, p->nlive *
	    sizeof(int), "channel list")) != SPS_OK ||
	    (e = gpu_alloc(p, (void **)&p->d_shifts, bytes, "shift table")) !=
	    SPS_OK)
		return e;
	gpu_copy_start(copy, p->dev, p->d_shifts, shifts, bytes);
	return SPS_OK;
}

/* The plan's tables on the device; shifts, the CPU plan's, goes over
 * (some 50 MB) while the direct plan is made from it. */
static enum sps_err
setup(struct sps_gpu_dedisp *p, const struct sps_header *h,
    const int *scrunch, const unsigned char *kill, const int *shifts)
{
	int *live = (int *)malloc(h->nchans * sizeof(int));
	struct gpu_copy copy;
	enum sps_err e, ce;
	int d, fmax_s = 1;

	p->scrunch = (int *)malloc(p->ndms * sizeof(int));
	if (live == NULL || p->scrunch == NULL) {
		free(live);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	for (d = 0; d < p->ndms; d++) {
		p->scrunch[d] = scrunch != NULL ? scrunch[d] : 1;
		fmax_s = p->scrunch[d] > fmax_s ? p->scrunch[d] : fmax_s;
	}
	p->nlevels = sps_ceil_log2(fmax_s) + 1;
	if ((e = plan_channels(p, h, kill, live)) == SPS_OK &&
	    (e = upload_tables(p, live, shifts, &copy)) == SPS_OK) {
		if (p->u8_rows)
			e = gpu_direct_plan(p, shifts);
		sps_trace("GPU dedispersion: direct plan made");
		if ((ce = gpu_copy_wait(&copy)) != SPS_OK && e == SPS_OK)
			e = ce;
		sps_trace("GPU dedispersion: tables uploaded");
	}
	free(live);
	return e;
}

static enum sps_err
alloc_slots(struct sps_gpu_dedisp *p)
{
	enum sps_err e;
	int i, d;

	for (d = 0; d < p->ndms; d++)
		p->slot[0].out_floats += p->nout / p->scrunch[d];
	for (i = 0; i < 2; i++) {
		struct gpu_slot *s = &p->slot[i];

		s->out_floats = p->slot[0].out_floats;
		if ((e = gpu_alloc(p, (void **)&s->d_raw, p->nin *
		    p->spectrum_bytes + 1, "input block")) != SPS_OK ||
		    (e = gpu_alloc(p, (void **)&s->d_out, (s->out_floats + 1) *
		    sizeof(float), "output")) != SPS_OK ||
		    (e = gpu_alloc(p, (void **)&s->d_offsets, 2 * (p->ndms + 1) *
		    sizeof(size_t), "trial offsets")) != SPS_OK)
			return e;
		CHECK(cudaMallocHost((void **)&s->h_offsets, 2 * (p->ndms + 1) *
		    sizeof(size_t)));
		s->layout.full = s->d_offsets;
		s->layout.last = s->d_offsets + p->ndms + 1;
		CHECK(cudaEventCreate(&s->uploaded));
		CHECK(cudaEventCreate(&s->k_start));
		CHECK(cudaEventCreate(&s->k_stop));
		CHECK(cudaEventCreate(&s->out_ready));
		CHECK(cudaEventCreate(&s->downloaded));
	}
	return SPS_OK;
}

/* The 8-bit kernel addresses its copies with 32-bit byte offsets;
 * beyond that the float kernel runs instead. */
extern "C" size_t
sps_gpu_dedisp_packed_limit(const struct sps_header *h,
    enum sps_dedisp_algo algo)
{
	size_t per = (size_t)h->nchans * NCOPIES;

	if (h->nbits > 8 || h->nifs != 1 || (h->nbits == 8 && h->sign < 0) ||
	    algo == SPS_ALGO_TREE_LINEAR || algo == SPS_ALGO_TREE_PADDED)
		return SIZE_MAX;
	return (size_t)UINT32_MAX / per - ROW_PAD - 16;
}

/* Every kernel a plan may run, the packing's too, loaded (gpu_preload). */
static enum sps_err
load_kernels(void)
{
	const void *k[NTILES + 6];
	enum sps_err e;
	int n = 0;

	for (int i = 0; i < NTILES; i++)
		k[n++] = (const void *)u8_tiles[i].kernel;
	k[n++] = (const void *)unpack_rows<unsigned char>;
	k[n++] = (const void *)unpack_rows<float>;
	k[n++] = (const void *)scrunch_rows<unsigned char>;
	k[n++] = (const void *)scrunch_rows<float>;
	k[n++] = (const void *)shift_copies;
	k[n++] = (const void *)gather_sum_f32;
	if ((e = gpu_load_kernels(k, (size_t)n)) != SPS_OK ||
	    (e = gpu_direct_load()) != SPS_OK)
		return e;
	return gpu_pack_load();
}

extern "C" void
sps_gpu_dedisp_preload(int dev)
{
	gpu_preload(dev, load_kernels);
}

extern "C" enum sps_err
sps_gpu_dedisp_create(struct sps_gpu_dedisp **plan, int dev,
    const struct sps_header *h, const int *scrunch, int ndms,
    const unsigned char *kill, const int *shifts, size_t nin, size_t nout)
{
	struct sps_gpu_dedisp *p;
	enum sps_err e;

	*plan = NULL;
	if ((p = (struct sps_gpu_dedisp *)calloc(1, sizeof(*p))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	*plan = p;
	p->dev = dev;
	p->done = -1;
	p->last = -1;
	p->nchans = h->nchans;
	p->nifs = h->nifs;
	p->nbits = h->nbits;
	p->is_signed = h->nbits == 8 && h->sign < 0;
	p->ndms = ndms;
	p->nin = nin;
	p->nout = nout;
	p->spectrum_bytes = sps_spectrum_bytes(h);
	p->u8_rows = h->nbits <= 8 && h->nifs == 1 && !p->is_signed &&
	    h->nchans > 0 && nin <= sps_gpu_dedisp_packed_limit(h,
	    SPS_ALGO_DIRECT);	/* sps_gpu_dedisp_tree unpacks them */
	if (sps_spectrum_values(h) * h->nbits % 8 != 0)
		return sps_fail(SPS_EUSAGE, "the GPU path needs spectra of "
		    "whole bytes (%zu values of %d bits)",
		    sps_spectrum_values(h), h->nbits);
	if ((e = choose_tile(p)) != SPS_OK)
		return e;
	CHECK(cudaSetDevice(dev));
	sps_trace("GPU dedispersion: device set");
	if ((e = gpu_stream_create_first(&p->s_in)) != SPS_OK ||
	    (e = gpu_stream_create(&p->s_run)) != SPS_OK ||
	    (e = gpu_stream_create(&p->s_out)) != SPS_OK ||
	    (e = setup(p, h, scrunch, kill, shifts)) != SPS_OK ||
	    (e = alloc_levels(p)) != SPS_OK)
		return e;
	sps_trace("GPU dedispersion: levels allocated");
	return alloc_slots(p);
}

/* The tree algorithms read copy 0 of the byte rows only, with 64-bit
 * offsets: so bytes replace the float rows of level 0 too where the
 * packed kernels' 32-bit offsets could not reach (a long gulp). */
static enum sps_err
tree_rows(struct sps_gpu_dedisp *p)
{
	size_t bytes;
	enum sps_err e;

	if (p->d_u8 != NULL) {
		CHECK(cudaFree(p->d_u8));
		p->d_u8 = NULL;
		p->bytes -= (NCOPIES * p->copy_words + 4) * sizeof(unsigned);
	} else if (p->nbits <= 8 && p->nifs == 1 && !p->is_signed) {
		CHECK(cudaFree(p->d_level[0]));
		p->d_level[0] = NULL;
		p->bytes -= p->nlive * p->stride[0] * sizeof(float);
		p->copy_words = p->nlive * p->stride[0] / 4;
		p->u8_rows = 1;
	} else
		return SPS_OK;
	bytes = (p->copy_words + 4) * sizeof(unsigned);
	if ((e = gpu_alloc(p, (void **)&p->d_u8, bytes, "8-bit rows")) !=
	    SPS_OK)
		return e;
	CHECK(cudaMemset(p->d_u8, 0, bytes));
	return SPS_OK;
}

extern "C" enum sps_err
sps_gpu_dedisp_tree(struct sps_gpu_dedisp *p, const struct sps_tree_tables *t)
{
	enum sps_err e;

	CHECK(cudaSetDevice(p->dev));
	if ((e = tree_rows(p)) != SPS_OK)
		return e;
	return gpu_tree_setup(p, t);
}

enum sps_err
gpu_gather_sum(struct sps_gpu_dedisp *p, const float *rows, size_t stride,
    const int *rowmap, const int *shifts, int nc, int d0, int d1, int f,
    size_t n, float *out, const struct out_layout *o)
{
	dim3 b(32, F32_TRIALS), g((unsigned)((d1 - d0 + F32_TRIALS - 1) /
	    F32_TRIALS), (unsigned)((n + 32 * F32_SAMPLES - 1) /
	    (32 * F32_SAMPLES)));

	/* the float kernel's loads run to 32 * F32_SAMPLES - 1 past n */
	static_assert(32 * F32_SAMPLES <= ROW_PAD, "rows padded too little");

	if (n == 0 || d1 <= d0)
		return SPS_OK;
	gather_sum_f32<<<g, b, 0, p->s_run>>>(rows, stride, rowmap, shifts, nc,
	    d0, d1, f, n, out, *o);
	CHECK_LAUNCH("gather_sum_f32");
	return SPS_OK;
}

static enum sps_err
make_levels(struct sps_gpu_dedisp *p, const unsigned char *d_raw, size_t nin)
{
	dim3 tb(TILE, 8), tg((unsigned)((nin + TILE - 1) / TILE),
	    (unsigned)((p->nlive + TILE - 1) / TILE));
	int k;

	if (p->u8_rows) {
		unpack_rows<unsigned char><<<tg, tb, 0, p->s_run>>>(d_raw,
		    p->spectrum_bytes, p->nbits, p->is_signed, p->nchans,
		    p->nifs, p->d_live, p->nlive, nin,
		    (unsigned char *)p->d_u8, p->stride[0]);
		CHECK_LAUNCH("unpack_rows");
		if (p->tree == NULL) {
			shift_copies<<<(unsigned)((p->copy_words + 255) / 256),
			    256, 0, p->s_run>>>(p->d_u8, p->copy_words);
			CHECK_LAUNCH("shift_copies");
		}
	} else {
		unpack_rows<float><<<tg, tb, 0, p->s_run>>>(d_raw,
		    p->spectrum_bytes, p->nbits, p->is_signed, p->nchans,
		    p->nifs, p->d_live, p->nlive, nin, p->d_level[0],
		    p->stride[0]);
		CHECK_LAUNCH("unpack_rows");
	}
	for (k = 1; k < p->nlevels; k++) {
		size_t n = nin >> k;
		dim3 sg((unsigned)((n + 255) / 256), (unsigned)p->nlive);

		if (k == 1 && p->u8_rows)
			scrunch_rows<unsigned char><<<sg, 256, 0, p->s_run>>>(
			    (const unsigned char *)p->d_u8, p->stride[0],
			    p->d_level[1], p->stride[1], n, p->nlive);
		else
			scrunch_rows<float><<<sg, 256, 0, p->s_run>>>(
			    p->d_level[k - 1], p->stride[k - 1], p->d_level[k],
			    p->stride[k], n, p->nlive);
		CHECK_LAUNCH("scrunch_rows");
	}
	return SPS_OK;
}

enum sps_err
gpu_direct_u8_cache(struct sps_gpu_dedisp *p, int d0, int d1, size_t n,
    float *d_out, const struct out_layout *o)
{
	int v = u8_tiles[p->tile].vecs, t = u8_tiles[p->tile].trials;
	dim3 b(32, t), g((unsigned)((d1 - d0 + t - 1) / t),
	    (unsigned)((n + 512 * v - 1) / (512 * v)));

	u8_tiles[p->tile].kernel<<<g, b, 0, p->s_run>>>((const uint4 *)p->d_u8,
	    p->copy_words / 4, p->stride[0] / 16, p->d_shifts, p->nlive, d0,
	    d1, n, d_out, *o);
	CHECK_LAUNCH("dedisperse_u8");
	return SPS_OK;
}

/* Runs of trials with one scrunch factor, each one launch. */
static enum sps_err
run_trials(struct sps_gpu_dedisp *p, int mode, size_t nout, float *d_out,
    const struct out_layout *o)
{
	enum sps_err e = SPS_OK;
	int d0 = 0, d1;

	while (d0 < p->ndms && e == SPS_OK) {
		int f = p->scrunch[d0], lev = sps_ceil_log2(f);
		size_t n = nout / f;

		for (d1 = d0 + 1; d1 < p->ndms && p->scrunch[d1] == f; d1++)
			;
		if (n > 0 && lev == 0 && p->u8_rows)
			e = gpu_direct_u8(p, mode, d0, d1, n, d_out, o);
		else if (n > 0)
			e = gpu_gather_sum(p, p->d_level[lev], p->stride[lev],
			    NULL, p->d_shifts, p->nlive, d0, d1, f, n, d_out, o);
		d0 = d1;
	}
	return e;
}

static enum sps_err
run_kernels(struct sps_gpu_dedisp *p, struct gpu_slot *s)
{
	enum sps_err e;

	CHECK(cudaStreamWaitEvent(p->s_run, s->uploaded, 0));
	CHECK(cudaMemcpyAsync(s->d_offsets, s->h_offsets, 2 * (p->ndms + 1) *
	    sizeof(size_t), cudaMemcpyHostToDevice, p->s_run));
	if ((e = make_levels(p, s->d_raw, s->nin)) != SPS_OK)
		return e;
	CHECK(cudaEventRecord(s->k_start, p->s_run));
	if (p->tree != NULL)
		e = gpu_tree_run(p, s->nin, s->nout, s->d_out, &s->layout);
	else if (p->subband != NULL)
		e = gpu_subband_run(p, s->nout, s->d_out, &s->layout);
	else
		e = run_trials(p, gpu_direct_path(p), s->nout, s->d_out,
		    &s->layout);
	if (e != SPS_OK)
		return e;
	CHECK(cudaEventRecord(s->k_stop, p->s_run));
	return SPS_OK;
}

/* Trial offsets of a sub-block of nout base samples, from `at` on;
 * returns the floats it holds. */
static size_t
trial_offsets(const struct sps_gpu_dedisp *p, size_t nout, size_t *at)
{
	size_t total = 0;
	int d;

	for (d = 0; d <= p->ndms; d++) {
		at[d] = total;
		if (d < p->ndms)
			total += nout / p->scrunch[d];
	}
	return total;
}

#define TRIAL_SAMPLES	4096	/* 8 tiles of 512 a block of trials: blocks
				 * enough to fill the device for thousands of
				 * trials, at half the set-up time of 8192 */

/* The trial of the direct kernel's two paths (direct_shared.cu), before
 * the first gulp: each path over TRIAL_SAMPLES samples of the trials of
 * scrunch factor 1, twice, the second time timed.  The rows hold zeros,
 * but integer sums take the same time on any data.  Queued on the
 * kernels' stream, ahead of the first gulp's kernels, and not waited
 * for here. */
static enum sps_err
tune_start(struct sps_gpu_dedisp *p)
{
	struct gpu_slot *s = &p->slot[0];
	size_t n = TRIAL_SAMPLES < p->nout ? TRIAL_SAMPLES : p->nout;
	enum sps_err e;
	int mode, rep, i;

	p->tune_started = 1;
	for (i = 0; i < 4; i++)
		CHECK(cudaEventCreate(&p->tune_ev[i]));
	s->layout.block = n;
	s->layout.nfull = 1;
	s->layout.block_floats = trial_offsets(p, n, s->h_offsets);
	trial_offsets(p, 0, s->h_offsets + p->ndms + 1);
	CHECK(cudaMemcpy(s->d_offsets, s->h_offsets, 2 * (p->ndms + 1) *
	    sizeof(size_t), cudaMemcpyHostToDevice));
	for (mode = DIRECT_CACHE; mode <= DIRECT_SHARED; mode++)
		for (rep = 0; rep < 2; rep++) {
			if (rep == 1)
				CHECK(cudaEventRecord(p->tune_ev[2 * mode],
				    p->s_run));
			if ((e = gpu_direct_u8(p, mode, 0, p->ndms, n, s->d_out,
			    &s->layout)) != SPS_OK)
				return e;
			if (rep == 1)
				CHECK(cudaEventRecord(p->tune_ev[2 * mode + 1],
				    p->s_run));
		}
	return SPS_OK;
}

/* The trial's times, once it has run: the path is chosen from them. */
static enum sps_err
tune_finish(struct sps_gpu_dedisp *p)
{
	float ms;
	int mode;

	CHECK(cudaEventSynchronize(p->tune_ev[3]));
	for (mode = DIRECT_CACHE; mode <= DIRECT_SHARED; mode++) {
		CHECK(cudaEventElapsedTime(&ms, p->tune_ev[2 * mode],
		    p->tune_ev[2 * mode + 1]));
		p->direct_ms[mode] = ms;
	}
	p->direct_tuned = 1;
	gpu_direct_describe(p);
	return SPS_OK;
}

static int
needs_tuning(const struct sps_gpu_dedisp *p)
{
	return p->d_base != NULL && p->direct_force < 0 && !p->direct_tuned &&
	    p->tree == NULL && p->subband == NULL;
}

extern "C" enum sps_err
sps_gpu_dedisp_prepare(struct sps_gpu_dedisp *p)
{
	CHECK(cudaSetDevice(p->dev));
	if (needs_tuning(p) && !p->tune_started && p->queued == 0)
		return tune_start(p);
	return SPS_OK;
}

extern "C" enum sps_err
sps_gpu_dedisp_submit(struct sps_gpu_dedisp *p, const unsigned char *raw,
    size_t nin, size_t nout, size_t block, float *out)
{
	struct gpu_slot *s = &p->slot[(p->head + p->queued) % 2];
	enum sps_err e;

	if (nin > p->nin || nout > p->nout)
		return sps_fail(SPS_EUSAGE, "GPU gulp of %zu spectra exceeds "
		    "the plan's %zu", nin, p->nin);
	if (p->queued == 2)
		return sps_fail(SPS_EUSAGE, "two GPU gulps already queued");
	if (needs_tuning(p) && p->queued == 0 && ((!p->tune_started &&
	    (e = tune_start(p)) != SPS_OK) || (e = tune_finish(p)) !=
	    SPS_OK))
		return e;
	if (block == 0 || block % (1u << (p->nlevels - 1)) != 0)
		return sps_fail(SPS_EUSAGE, "block of %zu samples is not a "
		    "multiple of the largest scrunch factor", block);
	s->layout.block = block;
	s->layout.nfull = nout / block;
	s->layout.block_floats = trial_offsets(p, block, s->h_offsets);
	s->out_floats = s->layout.nfull * s->layout.block_floats +
	    trial_offsets(p, nout % block, s->h_offsets + p->ndms + 1);
	s->nin = nin;
	s->nout = nout;
	s->out = out;
	CHECK(cudaSetDevice(p->dev));
	if (nin > p->staged)
		CHECK(cudaMemcpyAsync(s->d_raw + p->staged * p->spectrum_bytes,
		    raw + p->staged * p->spectrum_bytes, (nin - p->staged) *
		    p->spectrum_bytes, cudaMemcpyHostToDevice, p->s_in));
	CHECK(cudaEventRecord(s->uploaded, p->s_in));
	p->staged = 0;
	p->last = (p->head + p->queued) % 2;
	p->queued++;
	if ((e = run_kernels(p, s)) != SPS_OK ||
	    (e = gpu_pack_gulp(p, s, p->s_run)) != SPS_OK)
		return e;
	CHECK(cudaEventRecord(s->out_ready, p->s_run));
	CHECK(cudaStreamWaitEvent(p->s_out, s->out_ready, 0));
	if (out != NULL && s->packed_bytes > 0)
		CHECK(cudaMemcpyAsync(out, s->d_packed, s->packed_bytes,
		    cudaMemcpyDeviceToHost, p->s_out));
	else if (out != NULL)
		CHECK(cudaMemcpyAsync(out, s->d_out, s->out_floats *
		    sizeof(float), cudaMemcpyDeviceToHost, p->s_out));
	CHECK(cudaEventRecord(s->downloaded, p->s_out));
	return SPS_OK;
}

extern "C" enum sps_err
sps_gpu_dedisp_stage(struct sps_gpu_dedisp *p, const unsigned char *raw,
    size_t nkeep, size_t n, unsigned char **dev, void **stream)
{
	struct gpu_slot *s = &p->slot[(p->head + p->queued) % 2], *prev;
	size_t b = p->spectrum_bytes;

	if (nkeep + n > p->nin)
		return sps_fail(SPS_EUSAGE, "GPU gulp of %zu spectra exceeds "
		    "the plan's %zu", nkeep + n, p->nin);
	if (p->queued == 2)
		return sps_fail(SPS_EUSAGE, "two GPU gulps already queued");
	if (nkeep > 0 && p->last < 0)
		return sps_fail(SPS_EUSAGE, "no GPU gulp to keep spectra of");
	CHECK(cudaSetDevice(p->dev));
	if (nkeep > 0) {
		prev = &p->slot[p->last];
		CHECK(cudaMemcpyAsync(s->d_raw, prev->d_raw + prev->nout * b,
		    nkeep * b, cudaMemcpyDeviceToDevice, p->s_in));
	}
	if (n > 0)
		CHECK(cudaMemcpyAsync(s->d_raw + nkeep * b, raw + nkeep * b,
		    n * b, cudaMemcpyHostToDevice, p->s_in));
	p->staged = nkeep + n;
	*dev = s->d_raw;
	*stream = (void *)p->s_in;
	return SPS_OK;
}

/* A gulp queued before the packing was asked for (sps-dedisperse asks
 * once the first block has set the scale: the second gulp is on its way
 * by then) packed now, from its floats still in the slot, on the copies'
 * stream: beside the next gulp's kernels, not after them.  The host's
 * packing of its blocks took some 20 ms each. */
static enum sps_err
late_pack(struct sps_gpu_dedisp *p, struct gpu_slot *s)
{
	enum sps_err e;

	if (p->pack_bits == 0 || s->packed_bytes > 0 || s->out == NULL)
		return SPS_OK;
	if ((e = gpu_pack_gulp(p, s, p->s_in)) != SPS_OK ||
	    s->packed_bytes == 0)
		return e;
	CHECK(cudaMemcpyAsync(s->out, s->d_packed, s->packed_bytes,
	    cudaMemcpyDeviceToHost, p->s_in));
	CHECK(cudaStreamSynchronize(p->s_in));
	return SPS_OK;
}

extern "C" enum sps_err
sps_gpu_dedisp_wait(struct sps_gpu_dedisp *p, double *kernel_ms)
{
	struct gpu_slot *s = &p->slot[p->head];
	float ms = 0;

	if (p->queued == 0)
		return sps_fail(SPS_EUSAGE, "no GPU block queued");
	p->done = p->head;
	p->head = (p->head + 1) % 2;
	p->queued--;
	CHECK(cudaEventSynchronize(s->downloaded));
	CHECK(cudaEventElapsedTime(&ms, s->k_start, s->k_stop));
	if (kernel_ms != NULL)
		*kernel_ms = ms;
	return late_pack(p, s);
}

extern "C" enum sps_err
sps_gpu_dedisp_execute(struct sps_gpu_dedisp *p, const unsigned char *raw,
    size_t nin, size_t nout, float *out, double *kernel_ms)
{
	size_t fmax = (size_t)1 << (p->nlevels - 1);
	size_t block = (nout + fmax) / fmax * fmax;
	enum sps_err e;

	if ((e = sps_gpu_dedisp_submit(p, raw, nin, nout, block, out)) !=
	    SPS_OK)
		return e;
	return sps_gpu_dedisp_wait(p, kernel_ms);
}

extern "C" enum sps_err
sps_gpu_dedisp_packed(const struct sps_gpu_dedisp *p, size_t *bytes,
    unsigned long long *clipped)
{
	const struct gpu_slot *s = p->done >= 0 ? &p->slot[p->done] : NULL;

	*bytes = s != NULL ? s->packed_bytes : 0;
	*clipped = 0;
	if (*bytes > 0)
		CHECK(cudaMemcpy(clipped, s->d_clipped, sizeof(*clipped),
		    cudaMemcpyDeviceToHost));
	return SPS_OK;
}

extern "C" const float *
sps_gpu_dedisp_device_out(const struct sps_gpu_dedisp *p)
{
	return p->done >= 0 ? p->slot[p->done].d_out : NULL;
}

extern "C" size_t
sps_gpu_dedisp_memory(const struct sps_gpu_dedisp *p)
{
	return p->bytes;
}

static void
free_slot(struct gpu_slot *s)
{
	cudaFree(s->d_raw);
	cudaFree(s->d_out);
	cudaFree(s->d_packed);
	cudaFree(s->d_clipped);
	cudaFree(s->d_offsets);
	cudaFreeHost(s->h_offsets);
	if (s->uploaded != NULL)
		cudaEventDestroy(s->uploaded);
	if (s->k_start != NULL)
		cudaEventDestroy(s->k_start);
	if (s->k_stop != NULL)
		cudaEventDestroy(s->k_stop);
	if (s->out_ready != NULL)
		cudaEventDestroy(s->out_ready);
	if (s->downloaded != NULL)
		cudaEventDestroy(s->downloaded);
}

extern "C" void
sps_gpu_dedisp_free(struct sps_gpu_dedisp *p)
{
	int k;

	if (p == NULL)
		return;
	cudaSetDevice(p->dev);
	cudaDeviceSynchronize();
	for (k = 0; k < 4; k++)
		if (p->tune_ev[k] != NULL)
			cudaEventDestroy(p->tune_ev[k]);
	free_slot(&p->slot[0]);
	free_slot(&p->slot[1]);
	gpu_tree_free(p);
	gpu_direct_free(p);
	cudaFree(p->d_live);
	cudaFree(p->d_shifts);
	cudaFree(p->d_pack);
	cudaFree(p->d_u8);
	gpu_subband_free(p);
	for (k = 0; p->d_level != NULL && k < p->nlevels; k++)
		cudaFree(p->d_level[k]);
	if (p->s_in != NULL)
		cudaStreamDestroy(p->s_in);
	if (p->s_run != NULL)
		cudaStreamDestroy(p->s_run);
	if (p->s_out != NULL)
		cudaStreamDestroy(p->s_out);
	free(p->d_level);
	free(p->stride);
	free(p->scrunch);
	free(p);
}

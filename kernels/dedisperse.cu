/* dedisperse.cu: direct dedispersion on the GPU (see lib/gpu.h); the CPU
 * reference is lib/dedisperse.c. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "gpu.h"
extern "C" {
#include "dmdelay.h"
}

#define TILE		32	/* unpack tile: samples x channels */
#define U8_SAMPLES	16	/* samples per thread, 8-bit kernel */
#define F32_SAMPLES	8	/* samples per thread, float kernel */
#define TRIALS_PER_BLOCK 8	/* blockDim.y of the dedispersion kernels */
#define LANE_CHANNELS	256	/* 16-bit lanes widen after this many */
#define ROW_PAD		64	/* bytes past a row's samples, for over-reads */

struct sps_gpu_dedisp {
	int	 dev;
	int	 nchans, nifs, nbits, is_signed, nlive, ndms, nlevels;
	size_t	 spectrum_bytes, nin, nout;
	int	 u8_rows;	/* level 0 as bytes (SIMD path) or floats */
	size_t	 stride0;	/* elements per level-0 row */
	int	*scrunch;	/* host copy */
	size_t	*offsets;	/* host: trial output offsets for nout */
	size_t	*d_offsets;	/* the same on the device */
	unsigned char *d_raw;
	int	*d_live;
	int	*d_shifts;	/* ndms x nlive */
	unsigned char *d_u8;	/* level 0, u8 rows */
	float	**d_level;	/* levels 0 (float rows) or 1.. */
	size_t	*stride;	/* elements per row of each level */
	float	*d_out;
	size_t	 out_floats;
	size_t	 bytes;
	cudaEvent_t start, stop;
	/* sub-band algorithm (nsub > 0) */
	int	 nsub, ngroups;
	int	*group_start;	/* host */
	size_t	*span;		/* host */
	int	*d_step1, *d_step2, *d_band_first;
	float	*d_x;		/* one group's band series */
};

static enum sps_err
cuda_fail(cudaError_t code, const char *what)
{
	return sps_fail(SPS_EIO, "CUDA %s: %s", what, cudaGetErrorString(code));
}

#define CHECK(call) do {						\
	cudaError_t code_ = (call);					\
	if (code_ != cudaSuccess)					\
		return cuda_fail(code_, #call);				\
} while (0)

#define CHECK_LAUNCH(name) do {						\
	cudaError_t code_ = cudaGetLastError();				\
	if (code_ != cudaSuccess)					\
		return cuda_fail(code_, "launch of " name);		\
} while (0)

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

/* Lanes (s0, s2) and (s1, s3) of four packed bytes, zero-extended to
 * 16 bits each. */
__device__ static void
add_lanes(unsigned x, unsigned &even, unsigned &odd)
{
	even += __byte_perm(x, 0, 0x4240);
	odd += __byte_perm(x, 0, 0x4341);
}

__device__ static void
widen(unsigned *lanes, unsigned *sums)
{
	int w;

	for (w = 0; w < U8_SAMPLES / 4; w++) {
		sums[4 * w] += lanes[2 * w] & 0xffff;
		sums[4 * w + 2] += lanes[2 * w] >> 16;
		sums[4 * w + 1] += lanes[2 * w + 1] & 0xffff;
		sums[4 * w + 3] += lanes[2 * w + 1] >> 16;
		lanes[2 * w] = lanes[2 * w + 1] = 0;
	}
}

#define CHANNEL_STEP	4	/* channels whose loads are in flight together */

/* The U8_SAMPLES bytes of a row from byte `at` on, as aligned words
 * shifted into place. */
__device__ static void
load_bytes(const unsigned char *rows, size_t at, unsigned *x)
{
	const unsigned *word = (const unsigned *)(rows + (at & ~(size_t)3));
	unsigned w[U8_SAMPLES / 4 + 1], r = (unsigned)(at & 3) * 8;
	int i;

#pragma unroll
	for (i = 0; i <= U8_SAMPLES / 4; i++)
		w[i] = __ldg(word + i);
#pragma unroll
	for (i = 0; i < U8_SAMPLES / 4; i++)
		x[i] = __funnelshift_r(w[i], w[i + 1], r);
}

/* 8-bit rows: each thread sums U8_SAMPLES consecutive samples of one
 * trial, four per 32-bit word, two per 16-bit lane.  The block's shifts
 * for LANE_CHANNELS channels at a time wait in shared memory, and the
 * loads of CHANNEL_STEP channels are issued before their sums. */
__global__ static void
dedisperse_u8(const unsigned char *rows, size_t stride, const int *shifts,
    int nlive, int d0, int d1, size_t n, float *out, const size_t *offsets)
{
	__shared__ int sh[TRIALS_PER_BLOCK][LANE_CHANNELS];
	unsigned lanes[U8_SAMPLES / 2], sums[U8_SAMPLES];
	size_t t = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) *
	    U8_SAMPLES;
	int d = d0 + blockIdx.y * blockDim.y + threadIdx.y, c0, c, i, k;
	int active = d < d1 && t < n;

#pragma unroll
	for (i = 0; i < U8_SAMPLES / 2; i++)
		lanes[i] = 0;
#pragma unroll
	for (i = 0; i < U8_SAMPLES; i++)
		sums[i] = 0;
	for (c0 = 0; c0 < nlive; c0 += LANE_CHANNELS) {
		int nc = nlive - c0 < LANE_CHANNELS ? nlive - c0 :
		    LANE_CHANNELS;

		__syncthreads();
		for (k = threadIdx.x; k < nc; k += blockDim.x)
			sh[threadIdx.y][k] = d < d1 ? shifts[(size_t)d * nlive +
			    c0 + k] : 0;
		__syncthreads();
		if (!active)
			continue;
		for (c = 0; c + CHANNEL_STEP <= nc; c += CHANNEL_STEP) {
			unsigned x[CHANNEL_STEP][U8_SAMPLES / 4];

#pragma unroll
			for (k = 0; k < CHANNEL_STEP; k++)
				load_bytes(rows, (size_t)(c0 + c + k) * stride +
				    t + sh[threadIdx.y][c + k], x[k]);
#pragma unroll
			for (k = 0; k < CHANNEL_STEP; k++)
#pragma unroll
				for (i = 0; i < U8_SAMPLES / 4; i++)
					add_lanes(x[k][i], lanes[2 * i],
					    lanes[2 * i + 1]);
		}
		for (; c < nc; c++) {
			unsigned x[U8_SAMPLES / 4];

			load_bytes(rows, (size_t)(c0 + c) * stride + t +
			    sh[threadIdx.y][c], x);
#pragma unroll
			for (i = 0; i < U8_SAMPLES / 4; i++)
				add_lanes(x[i], lanes[2 * i], lanes[2 * i + 1]);
		}
		widen(lanes, sums);
	}
	for (i = 0; active && i < U8_SAMPLES && t + i < n; i++)
		out[offsets[d] + t + i] = (float)sums[i];
}

/* Float rows: thread x of a warp sums samples x, x + 32, ... so that each
 * load of the warp is one contiguous run. */
__global__ static void
dedisperse_f32(const float *rows, size_t stride, const int *shifts,
    int nlive, int d0, int d1, size_t n, float *out, const size_t *offsets)
{
	size_t t = (size_t)blockIdx.x * blockDim.x * F32_SAMPLES +
	    threadIdx.x;
	int d = d0 + blockIdx.y * blockDim.y + threadIdx.y, c, i;
	float acc[F32_SAMPLES];

	if (d >= d1)
		return;
#pragma unroll
	for (i = 0; i < F32_SAMPLES; i++)
		acc[i] = 0;
	for (c = 0; c < nlive; c++) {
		const float *row = rows + (size_t)c * stride + t +
		    shifts[(size_t)d * nlive + c];

#pragma unroll
		for (i = 0; i < F32_SAMPLES; i++)
			if (t + (size_t)i * blockDim.x < n)
				acc[i] += __ldg(row + (size_t)i * blockDim.x);
	}
#pragma unroll
	for (i = 0; i < F32_SAMPLES; i++)
		if (t + (size_t)i * blockDim.x < n)
			out[offsets[d] + t + (size_t)i * blockDim.x] = acc[i];
}

/* Sub-band step 1: each band's channels summed at the group's nominal
 * DM, in channel order (as subband.c sums them). */
template <typename T>
__global__ static void
subband_step1(const T *rows, size_t stride, const int *step1,
    const int *band_first, size_t len, float *x)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	int b = blockIdx.y, c;
	float acc = 0;

	if (t >= len)
		return;
	for (c = band_first[b]; c < band_first[b + 1]; c++)
		acc += (float)rows[(size_t)c * stride + t + step1[c]];
	x[(size_t)b * len + t] = acc;
}

static int
log2_of(int f)
{
	int k = 0;

	while ((1 << k) < f)
		k++;
	return k;
}

static enum sps_err
plan_channels(struct sps_gpu_dedisp *p, const struct sps_header *h,
    const unsigned char *kill, int *live, double *freq, double *fref)
{
	int c;

	*fref = -INFINITY;
	for (c = 0; c < h->nchans; c++)
		*fref = fmax(*fref, sps_channel_freq(h, c));
	for (c = 0; c < h->nchans; c++) {
		if (kill != NULL && kill[c])
			continue;
		live[p->nlive] = c;
		freq[p->nlive++] = sps_channel_freq(h, c);
	}
	if (p->nlive == 0)
		return sps_fail(SPS_EVALUE, "every channel is killed");
	return SPS_OK;
}

/* Shifts from the one delay function, as the CPU path computes them. */
static int *
make_shifts(const struct sps_gpu_dedisp *p, const struct sps_header *h,
    const double *dms, const double *freq, double fref)
{
	int *s = (int *)malloc((size_t)p->ndms * p->nlive * sizeof(int));
	int d, c;

	if (s == NULL)
		return NULL;
	for (d = 0; d < p->ndms; d++)
		for (c = 0; c < p->nlive; c++)
			s[(size_t)d * p->nlive + c] = (int)sps_dm_delay_samples(
			    dms[d], freq[c], fref, h->tsamp * p->scrunch[d]);
	return s;
}

static enum sps_err
device_alloc(struct sps_gpu_dedisp *p, void **ptr, size_t bytes,
    const char *what)
{
	cudaError_t code = cudaMalloc(ptr, bytes);

	if (code != cudaSuccess) {
		size_t free_b = 0, total = 0;

		cudaMemGetInfo(&free_b, &total);
		return sps_fail(SPS_EIO, "out of GPU memory for %s (%zu MB; "
		    "%zu MB free of %zu MB): try a smaller --block", what,
		    bytes >> 20, free_b >> 20, total >> 20);
	}
	p->bytes += bytes;
	return SPS_OK;
}

static enum sps_err
alloc_levels(struct sps_gpu_dedisp *p)
{
	enum sps_err e;
	int k;

	p->d_level = (float **)calloc((size_t)p->nlevels, sizeof(float *));
	p->stride = (size_t *)calloc((size_t)p->nlevels, sizeof(size_t));
	if (p->d_level == NULL || p->stride == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (k = 0; k < p->nlevels; k++) {
		p->stride[k] = ((p->nin >> k) + ROW_PAD + 3) & ~(size_t)3;
		if (k == 0 && p->u8_rows) {
			if ((e = device_alloc(p, (void **)&p->d_u8, p->nlive *
			    p->stride[0], "8-bit rows")) != SPS_OK)
				return e;
			CHECK(cudaMemset(p->d_u8, 0, p->nlive * p->stride[0]));
			continue;
		}
		if ((e = device_alloc(p, (void **)&p->d_level[k], p->nlive *
		    p->stride[k] * sizeof(float), "rows")) != SPS_OK)
			return e;
		CHECK(cudaMemset(p->d_level[k], 0, p->nlive * p->stride[k] *
		    sizeof(float)));
	}
	return SPS_OK;
}

static enum sps_err
upload_tables(struct sps_gpu_dedisp *p, const int *live, const int *shifts)
{
	enum sps_err e;

	if ((e = device_alloc(p, (void **)&p->d_live, p->nlive * sizeof(int),
	    "channel list")) != SPS_OK ||
	    (e = device_alloc(p, (void **)&p->d_shifts, (size_t)p->ndms *
	    p->nlive * sizeof(int), "shift table")) != SPS_OK)
		return e;
	CHECK(cudaMemcpy(p->d_live, live, p->nlive * sizeof(int),
	    cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(p->d_shifts, shifts, (size_t)p->ndms * p->nlive *
	    sizeof(int), cudaMemcpyHostToDevice));
	return SPS_OK;
}

static enum sps_err
setup(struct sps_gpu_dedisp *p, const struct sps_header *h,
    const double *dms, const int *scrunch, const unsigned char *kill)
{
	int *live = (int *)malloc(h->nchans * sizeof(int)), *shifts = NULL;
	double *freq = (double *)malloc(h->nchans * sizeof(double)), fref;
	enum sps_err e;
	int d, fmax_s = 1;

	p->scrunch = (int *)malloc(p->ndms * sizeof(int));
	p->offsets = (size_t *)malloc((p->ndms + 1) * sizeof(size_t));
	if (live == NULL || freq == NULL || p->scrunch == NULL ||
	    p->offsets == NULL) {
		free(live);
		free(freq);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	for (d = 0; d < p->ndms; d++) {
		p->scrunch[d] = scrunch != NULL ? scrunch[d] : 1;
		fmax_s = p->scrunch[d] > fmax_s ? p->scrunch[d] : fmax_s;
	}
	p->nlevels = log2_of(fmax_s) + 1;
	e = plan_channels(p, h, kill, live, freq, &fref);
	if (e == SPS_OK && (shifts = make_shifts(p, h, dms, freq, fref)) ==
	    NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	if (e == SPS_OK)
		e = upload_tables(p, live, shifts);
	free(live);
	free(freq);
	free(shifts);
	return e;
}

extern "C" enum sps_err
sps_gpu_dedisp_create(struct sps_gpu_dedisp **plan, int dev,
    const struct sps_header *h, const double *dms, const int *scrunch,
    int ndms, const unsigned char *kill, size_t nin, size_t nout)
{
	struct sps_gpu_dedisp *p;
	enum sps_err e;

	*plan = NULL;
	if ((p = (struct sps_gpu_dedisp *)calloc(1, sizeof(*p))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	*plan = p;
	p->dev = dev;
	p->nchans = h->nchans;
	p->nifs = h->nifs;
	p->nbits = h->nbits;
	p->is_signed = h->nbits == 8 && h->sign < 0;
	p->ndms = ndms;
	p->nin = nin;
	p->nout = nout;
	p->spectrum_bytes = sps_spectrum_bytes(h);
	p->u8_rows = h->nbits <= 8 && h->nifs == 1 && !p->is_signed;
	if (sps_spectrum_values(h) * h->nbits % 8 != 0)
		return sps_fail(SPS_EUSAGE, "the GPU path needs spectra of "
		    "whole bytes (%zu values of %d bits)",
		    sps_spectrum_values(h), h->nbits);
	CHECK(cudaSetDevice(dev));
	CHECK(cudaEventCreate(&p->start));
	CHECK(cudaEventCreate(&p->stop));
	if ((e = setup(p, h, dms, scrunch, kill)) != SPS_OK ||
	    (e = device_alloc(p, (void **)&p->d_raw, nin * p->spectrum_bytes,
	    "input block")) != SPS_OK ||
	    (e = alloc_levels(p)) != SPS_OK)
		return e;
	p->out_floats = 0;
	for (int d = 0; d < ndms; d++)
		p->out_floats += nout / p->scrunch[d];
	if ((e = device_alloc(p, (void **)&p->d_offsets, (ndms + 1) *
	    sizeof(size_t), "trial offsets")) != SPS_OK)
		return e;
	return device_alloc(p, (void **)&p->d_out, (p->out_floats + 1) *
	    sizeof(float), "output");
}

extern "C" enum sps_err
sps_gpu_dedisp_subband(struct sps_gpu_dedisp *p,
    const struct sps_subband_tables *t)
{
	size_t most = 0;
	enum sps_err e;
	int g;

	p->nsub = t->nsub;
	p->ngroups = t->ngroups;
	p->group_start = (int *)malloc((t->ngroups + 1) * sizeof(int));
	p->span = (size_t *)malloc(t->ngroups * sizeof(size_t));
	if (p->group_start == NULL || p->span == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	memcpy(p->group_start, t->group_start, (t->ngroups + 1) * sizeof(int));
	memcpy(p->span, t->span, t->ngroups * sizeof(size_t));
	for (g = 0; g < t->ngroups; g++) {
		size_t len = p->nout / p->scrunch[t->group_start[g]] +
		    t->span[g] + ROW_PAD;

		most = len > most ? len : most;
	}
	if ((e = device_alloc(p, (void **)&p->d_step1, (size_t)t->ngroups *
	    t->nlive * sizeof(int), "step-1 shifts")) != SPS_OK ||
	    (e = device_alloc(p, (void **)&p->d_step2, (size_t)t->ndms *
	    t->nsub * sizeof(int), "step-2 shifts")) != SPS_OK ||
	    (e = device_alloc(p, (void **)&p->d_band_first, (t->nsub + 1) *
	    sizeof(int), "bands")) != SPS_OK ||
	    (e = device_alloc(p, (void **)&p->d_x, most * t->nsub *
	    sizeof(float), "band series")) != SPS_OK)
		return e;
	CHECK(cudaMemcpy(p->d_step1, t->step1, (size_t)t->ngroups * t->nlive *
	    sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(p->d_step2, t->step2, (size_t)t->ndms * t->nsub *
	    sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(p->d_band_first, t->band_first, (t->nsub + 1) *
	    sizeof(int), cudaMemcpyHostToDevice));
	return SPS_OK;
}

/* Each group: step 1 into the band series, step 2 by the float kernel
 * with the bands as its channels. */
static enum sps_err
run_subband(struct sps_gpu_dedisp *p, size_t nout, const size_t *d_offsets)
{
	int g;

	for (g = 0; g < p->ngroups; g++) {
		int d0 = p->group_start[g], d1 = p->group_start[g + 1];
		int f = p->scrunch[d0], lev = log2_of(f);
		size_t n = nout / f, len = n + p->span[g];
		const int *s1 = p->d_step1 + (size_t)g * p->nlive;
		dim3 g1((unsigned)((len + 255) / 256), (unsigned)p->nsub);
		dim3 b2(32, TRIALS_PER_BLOCK), g2((unsigned)((n +
		    32 * F32_SAMPLES - 1) / (32 * F32_SAMPLES)),
		    (unsigned)((d1 - d0 + TRIALS_PER_BLOCK - 1) /
		    TRIALS_PER_BLOCK));

		if (n == 0)
			continue;
		if (lev == 0 && p->u8_rows)
			subband_step1<unsigned char><<<g1, 256>>>(p->d_u8,
			    p->stride[0], s1, p->d_band_first, len, p->d_x);
		else
			subband_step1<float><<<g1, 256>>>(p->d_level[lev],
			    p->stride[lev], s1, p->d_band_first, len, p->d_x);
		CHECK_LAUNCH("subband_step1");
		dedisperse_f32<<<g2, b2>>>(p->d_x, len, p->d_step2, p->nsub,
		    d0, d1, n, p->d_out, d_offsets);
		CHECK_LAUNCH("dedisperse_f32 (sub-band step 2)");
	}
	return SPS_OK;
}

extern "C" size_t
sps_gpu_dedisp_memory(const struct sps_gpu_dedisp *p)
{
	return p->bytes;
}

static enum sps_err
make_levels(struct sps_gpu_dedisp *p, size_t nin)
{
	dim3 tb(TILE, 8), tg((unsigned)((nin + TILE - 1) / TILE),
	    (unsigned)((p->nlive + TILE - 1) / TILE));
	int k;

	if (p->u8_rows)
		unpack_rows<unsigned char><<<tg, tb>>>(p->d_raw,
		    p->spectrum_bytes, p->nbits, p->is_signed, p->nchans,
		    p->nifs, p->d_live, p->nlive, nin, p->d_u8, p->stride[0]);
	else
		unpack_rows<float><<<tg, tb>>>(p->d_raw, p->spectrum_bytes,
		    p->nbits, p->is_signed, p->nchans, p->nifs, p->d_live,
		    p->nlive, nin, p->d_level[0], p->stride[0]);
	CHECK_LAUNCH("unpack_rows");
	for (k = 1; k < p->nlevels; k++) {
		size_t n = nin >> k;
		dim3 sg((unsigned)((n + 255) / 256), (unsigned)p->nlive);

		if (k == 1 && p->u8_rows)
			scrunch_rows<unsigned char><<<sg, 256>>>(p->d_u8,
			    p->stride[0], p->d_level[1], p->stride[1], n,
			    p->nlive);
		else
			scrunch_rows<float><<<sg, 256>>>(p->d_level[k - 1],
			    p->stride[k - 1], p->d_level[k], p->stride[k], n,
			    p->nlive);
		CHECK_LAUNCH("scrunch_rows");
	}
	return SPS_OK;
}

/* Runs of trials with one scrunch factor, each one launch. */
static enum sps_err
run_trials(struct sps_gpu_dedisp *p, size_t nout, const size_t *d_offsets)
{
	int d0 = 0, d1;

	while (d0 < p->ndms) {
		int f = p->scrunch[d0], lev = log2_of(f);
		size_t n = nout / f;

		for (d1 = d0 + 1; d1 < p->ndms && p->scrunch[d1] == f; d1++)
			;
		if (n > 0 && lev == 0 && p->u8_rows) {
			dim3 b(32, TRIALS_PER_BLOCK), g((unsigned)((n +
			    32 * U8_SAMPLES - 1) / (32 * U8_SAMPLES)),
			    (unsigned)((d1 - d0 + TRIALS_PER_BLOCK - 1) /
			    TRIALS_PER_BLOCK));

			dedisperse_u8<<<g, b>>>(p->d_u8, p->stride[0],
			    p->d_shifts, p->nlive, d0, d1, n, p->d_out,
			    d_offsets);
			CHECK_LAUNCH("dedisperse_u8");
		} else if (n > 0) {
			dim3 b(32, TRIALS_PER_BLOCK), g((unsigned)((n +
			    32 * F32_SAMPLES - 1) / (32 * F32_SAMPLES)),
			    (unsigned)((d1 - d0 + TRIALS_PER_BLOCK - 1) /
			    TRIALS_PER_BLOCK));

			dedisperse_f32<<<g, b>>>(p->d_level[lev],
			    p->stride[lev], p->d_shifts, p->nlive, d0, d1, n,
			    p->d_out, d_offsets);
			CHECK_LAUNCH("dedisperse_f32");
		}
		d0 = d1;
	}
	return SPS_OK;
}

extern "C" enum sps_err
sps_gpu_dedisp_execute(struct sps_gpu_dedisp *p, const unsigned char *raw,
    size_t nin, size_t nout, float *out, double *kernel_ms)
{
	size_t total = 0;
	enum sps_err e;
	float ms = 0;
	int d;

	if (nin > p->nin || nout > p->nout)
		return sps_fail(SPS_EUSAGE, "GPU block of %zu spectra exceeds "
		    "the plan's %zu", nin, p->nin);
	for (d = 0; d <= p->ndms; d++) {
		p->offsets[d] = total;
		if (d < p->ndms)
			total += nout / p->scrunch[d];
	}
	CHECK(cudaSetDevice(p->dev));
	CHECK(cudaMemcpy(p->d_raw, raw, nin * p->spectrum_bytes,
	    cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(p->d_offsets, p->offsets, (p->ndms + 1) *
	    sizeof(size_t), cudaMemcpyHostToDevice));
	if ((e = make_levels(p, nin)) != SPS_OK)
		return e;
	CHECK(cudaEventRecord(p->start));
	if ((e = p->nsub > 0 ? run_subband(p, nout, p->d_offsets) :
	    run_trials(p, nout, p->d_offsets)) != SPS_OK)
		return e;
	CHECK(cudaEventRecord(p->stop));
	CHECK(cudaEventSynchronize(p->stop));
	CHECK(cudaEventElapsedTime(&ms, p->start, p->stop));
	if (kernel_ms != NULL)
		*kernel_ms = ms;
	CHECK(cudaMemcpy(out, p->d_out, total * sizeof(float),
	    cudaMemcpyDeviceToHost));
	return SPS_OK;
}

extern "C" void
sps_gpu_dedisp_free(struct sps_gpu_dedisp *p)
{
	int k;

	if (p == NULL)
		return;
	cudaFree(p->d_raw);
	cudaFree(p->d_live);
	cudaFree(p->d_shifts);
	cudaFree(p->d_u8);
	cudaFree(p->d_out);
	cudaFree(p->d_offsets);
	cudaFree(p->d_step1);
	cudaFree(p->d_step2);
	cudaFree(p->d_band_first);
	cudaFree(p->d_x);
	free(p->group_start);
	free(p->span);
	for (k = 0; p->d_level != NULL && k < p->nlevels; k++)
		cudaFree(p->d_level[k]);
	if (p->start != NULL)
		cudaEventDestroy(p->start);
	if (p->stop != NULL)
		cudaEventDestroy(p->stop);
	free(p->d_level);
	free(p->stride);
	free(p->scrunch);
	free(p->offsets);
	free(p);
}

/* search.cu: the search of DM-time data on the GPU (gpu_search.h).  Its
 * CPU reference is lib/noise.c and sps_boxcar_search_ref (lib/boxcar.c);
 * the arithmetic that decides S/N is spelt with explicit roundings
 * (__dadd_rn and the like) where noise.c's C would round, so that the
 * compiler's fused multiply-adds do not move it. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_search.h"
#include "gpu_util.h"
extern "C" {
#include "clock.h"
#include "noise.h"
}

#define NOISE_NT	1024	/* most threads of a noise block */
#ifndef MEAN_NT
#define MEAN_NT		1024	/* threads of a mean block: one per */
#define MEAN_MINB	1	/* multiprocessor, all its window in shared
				 * memory */
#endif
#ifndef NORM_NT
#define NORM_NT		512	/* of a normalisation block: two per */
#define NORM_MINB	2	/* multiprocessor, each part of its window in
				 * shared memory (its many barriers are
				 * another block's time to work; 7.7 ms
				 * against 10.1 for case A on an H100) */
#endif
#ifndef SEARCH_NT
#define SEARCH_NT	1024	/* of a search block: one per multiprocessor,
				 * for its shared memory */
#endif
#define MAX_ITER	100	/* as noise.c */
#define RING		1024
#define RING_MIN	32
#define SHORT_WINDOW	256
#define TILE_MAX	16384	/* starts per search block */
#define FOUND_FIRST	(1 << 20)

struct dplan {
	int	nlevels, max_width;
	int	sep[SPS_BOXCAR_MAXLEVELS], first[SPS_BOXCAR_MAXLEVELS];
	int	step[SPS_BOXCAR_MAXLEVELS], nwidths[SPS_BOXCAR_MAXLEVELS];
	int	wbase[SPS_BOXCAR_MAXLEVELS + 1];	/* of level l's scales */
	/* BoxDIT: sps_boxcar_dit_layout's for a tile */
	int	need[SPS_BOXCAR_MAXLEVELS], full[SPS_BOXCAR_MAXLEVELS];
};


struct dtrial {
	int	f, plan, nlev;
	size_t	win;		/* samples of a window */
	size_t	off;		/* of its ring in buf */
	size_t	doff;		/* of its decimation scratch */
};

struct dfound {
	int		trial, width;
	float		snr;
	unsigned	rel;	/* start in its window */
	unsigned	window;	/* the window's number (its low 32 bits) */
};

/* What every kernel reads of the search. */
struct dstate {
	const struct dtrial	*trial;
	const struct dplan	*plan;
	float			*buf, *dec;
	double			*mean;		/* [trial][slot] */
	double			*sigma;		/* [trial][slot], NaN: skipped */
	float			*rpar;		/* [trial][slot][rmax] */
	double			*ratio;		/* [trial][rmax] */
	float			*ring;		/* [trial][level - 1][RING] */
	int			*ring_n, *ring_head;
	double			*prev_sigma;
	unsigned long long	*windows, *skipped, *nbad;
	const int		*wk;
	const float		*wfrac, *wroot;
	int			 nslots, rmax, lmax, ntrials;
	int			 keep;		/* block_clipped's */
	double			 outlier, clip, threshold;
	int			 white;
};

struct sps_gpu_search {
	struct sps_gpu_search_opts o;
	int		 dev, ntrials, nplans, nslots, rmax, lmax, tile;
	int		 maxw;		/* widest boxcar of any plan */
	size_t		 smem;		/* of a search block */
	size_t		 mean_cache;	/* samples a mean block holds */
	size_t		 norm_cache;	/* and a normalisation block */
	int		 boxdit;	/* every plan BoxDIT: boxdit_kernel */
	int		 na, nr, nb, nw;	/* its shared memory's parts */
	struct dtrial	*trial;		/* host copies */
	struct dplan	*plan;
	const struct sps_boxcar_plan **bplan;	/* plan[i]'s */
	struct dstate	 d;
	size_t		*d_inoff, *inoff, inoff_n;
	float		*d_stage;
	size_t		 stage_cap;
	double2		*d_unpack;	/* each trial's scale and offset */
	double		 unpack_key[3];	/* of packed blocks: nbits, scale,
					 * offset they were made for */
	struct dfound	*d_found;
	unsigned	*d_nfound;
	size_t		 found_cap;
	struct dfound	*hfound;
	struct sps_gpu_found *out;
	size_t		 nout, out_cap, hcap;
	uint64_t	 nbase;		/* base samples in */
	uint64_t	 nmean, nnorm, nsearch;	/* windows */
	int		 finished;
	cudaStream_t	 s;
	cudaEvent_t	 k0, k1;
	double		 kernel_ms;
	size_t		 bytes;
};

#include "clip.cuh"

static_assert(4 * (NORM_NT / 32) + 4 <= BLOCK_SH, "subtract's sums");

/* ---- the noise model, one block per trial ---- */

/* Samples of window j of a trial with len samples so far (0: none). */
__device__ static size_t
window_len(const struct dtrial *t, uint64_t j, uint64_t len)
{
	uint64_t at = j * t->win;

	if (at >= len)
		return 0;
	return len - at < t->win ? (size_t)(len - at) : t->win;
}

__device__ static float *
window_at(const struct dstate *d, const struct dtrial *t, uint64_t j)
{
	return d->buf + t->off + (size_t)(j % (uint64_t)d->nslots) * t->win;
}

/* dst[i] = src[i], and f(src[i]), for i = first, first + step, ...
 * below n, four loads in flight a thread: one at a time, each waits on
 * device memory. */
template <class F>
__device__ static void
copy_strided(float *__restrict__ dst, const float *__restrict__ src,
    size_t n, size_t first, size_t step, F &f)
{
	size_t i;

	for (i = first; i + 3 * step < n; i += 4 * step) {
		float v0 = src[i], v1 = src[i + step], v2 = src[i + 2 * step];
		float v3 = src[i + 3 * step];

		dst[i] = v0;
		dst[i + step] = v1;
		dst[i + 2 * step] = v2;
		dst[i + 3 * step] = v3;
		f(v0);
		f(v1);
		f(v2);
		f(v3);
	}
	for (; i < n; i += step) {
		float v = src[i];

		dst[i] = v;
		f(v);
	}
}

/* copy_strided's f for a copy alone. */
struct no_use {
	__device__ void operator()(float) const {}
};

/* dst[0..n) = src[0..n) by the block, dst 16-byte aligned, f(v) for
 * each value: four float4 loads in flight a thread where src is aligned
 * too (the block's loads then keep device memory busy; each thread's
 * values in span_each's order), else copy_strided's (one read of each
 * value too). */
template <class F>
__device__ static void
copy_window(float *__restrict__ dst, const float *__restrict__ src, size_t n,
    F &f)
{
	const float4 *s4 = (const float4 *)src;
	float4 *d4 = (float4 *)dst;
	unsigned n4 = (unsigned)(n / 4);

	if (((uintptr_t)src & 15) != 0) {
		copy_strided(dst, src, n, threadIdx.x, blockDim.x, f);
		return;
	}
	float4_rounds<4>(s4, n4, [&](unsigned q, float4 v) {
		d4[q] = v;
		f(v.x);
		f(v.y);
		f(v.z);
		f(v.w);
	});
	for (size_t k = 4 * (size_t)n4 + threadIdx.x; k < n; k += blockDim.x) {
		dst[k] = src[k];
		f(src[k]);
	}
}

/* The clipped mean of window j of each trial (one a block), its first
 * `cache` samples copied to shared memory for the passes. */
__global__ static void __launch_bounds__(MEAN_NT, MEAN_MINB)
mean_kernel(struct dstate d, uint64_t j, uint64_t nbase, size_t cache)
{
	extern __shared__ float4 cached4[];
	__shared__ double sh[BLOCK_SH];
	const struct dtrial tr = d.trial[blockIdx.x], *t = &tr;
	size_t n = window_len(t, j, nbase / (uint64_t)t->f);
	struct span x = { (float *)cached4, window_at(&d, t, j),
	    n < cache ? n : cache };
	struct first_sums f = { 0, 0, 0, 0 };
	double m, sd, v[3];

	if (n == 0)
		return;
	/* the clipping's first pass made with the copy, where the first
	 * sample is finite */
	f.shift = x.g[0];
	copy_window(x.sm, x.g, x.ns, f);
#pragma unroll 4
	for (size_t k = x.ns + threadIdx.x; k < n; k += blockDim.x)
		f(x.g[k]);
	block_sums_of(f, v, sh);	/* its barriers: the copy whole */
	if (isfinite(f.shift))
		clip_passes(&x, n, d.outlier, 1, d.keep, sh,
		    first_moments(v, f.shift), &m, &sd);
	else
		block_clipped(&x, n, d.outlier, 1, d.keep, sh, &m, &sd);
	if (threadIdx.x == 0)
		d.mean[blockIdx.x * d.nslots + j % d.nslots] = m;
}

/* The line noise.c's subtract takes from a window's samples: before
 * sample half, a0 + b0 k; from it on, a1 + b1 k (none if the window's
 * mean is not finite). */
struct baseline {
	double	a0, b0, a1, b1, mean;
	size_t	half;
};

/* Window j's line, through the means at the window centres. */
__device__ static struct baseline
baseline_of(const struct dstate *d, const struct dtrial *t, size_t n,
    uint64_t j, size_t next_len)
{
	const double *mv = d->mean + blockIdx.x * d->nslots;
	double mean = mv[j % d->nslots], rel = -((double)n - 1) / 2.0;
	double centre = (double)(j * t->win) + ((double)n - 1) / 2.0;
	double pm = j > 0 ? mv[(j - 1) % d->nslots] : NAN;
	double nm = next_len > 0 ? mv[(j + 1) % d->nslots] : NAN;
	double b0 = 0, b1 = 0;
	int have_prev = isfinite(pm), have_next = isfinite(nm);
	struct baseline l;

	if (have_prev)
		b0 = (mean - pm) / (centre - ((double)((j - 1) * t->win) +
		    ((double)t->win - 1) / 2.0));
	if (have_next)
		b1 = (nm - mean) / (((double)((j + 1) * t->win) +
		    ((double)next_len - 1) / 2.0) - centre);
	if (!have_prev)
		b0 = b1;
	if (!have_next)
		b1 = b0;
	l.a0 = __dadd_rn(mean, __dmul_rn(b0, rel));
	l.a1 = __dadd_rn(mean, __dmul_rn(b1, rel));
	l.b0 = b0;
	l.b1 = b1;
	l.mean = mean;
	l.half = (size_t)floor(-rel) + 1;
	if (l.half > n)
		l.half = n;
	return l;
}

/* Sample k, v, minus the line (NaN without one). */
__device__ static float
off_line(const struct baseline *l, float v, size_t k)
{
	double a = k < l->half ? l->a0 : l->a1, b = k < l->half ? l->b0 :
	    l->b1;

	if (!isfinite(l->mean))
		return NAN;
	return (float)__dsub_rn((double)v, __dadd_rn(a, __dmul_rn(b,
	    (double)k)));
}

/* y as sample k: the shared copy keeps it for the statistics, NaN too;
 * global memory's, which the search reads, is 0 where it is not finite
 * (past the shared copy, global memory is the statistics' and keeps
 * it). */
__device__ static void
put_off_line(const struct span *x, size_t k, float y)
{
	if (k < x->ns) {
		x->sm[k] = y;
		x->g[k] = isfinite(y) ? y : 0;
	} else
		x->g[k] = y;
}

/* put_off_line for samples 4q .. 4q + 3, v, a float4 a store where
 * they all lie on one side of the shared copy's end; their samples not
 * finite added to *bad, the results to f. */
__device__ static void
put_off_line4(const struct span *x, const struct baseline *l, unsigned q,
    float4 v, double *bad, struct first_sums *f)
{
	size_t k = 4 * (size_t)q;
	float4 y = make_float4(off_line(l, v.x, k), off_line(l, v.y, k + 1),
	    off_line(l, v.z, k + 2), off_line(l, v.w, k + 3));

	*bad += !isfinite(v.x) + !isfinite(v.y) + !isfinite(v.z) +
	    !isfinite(v.w);
	(*f)(y.x);
	(*f)(y.y);
	(*f)(y.z);
	(*f)(y.w);
	if (k + 4 <= x->ns) {
		((float4 *)x->sm)[q] = y;
		((float4 *)x->g)[q] = make_float4(isfinite(y.x) ? y.x : 0,
		    isfinite(y.y) ? y.y : 0, isfinite(y.z) ? y.z : 0,
		    isfinite(y.w) ? y.w : 0);
	} else if (k >= x->ns)
		((float4 *)x->g)[q] = y;
	else {
		put_off_line(x, k, y.x);
		put_off_line(x, k + 1, y.y);
		put_off_line(x, k + 2, y.z);
		put_off_line(x, k + 3, y.w);
	}
}

/* x minus the line through the means at the window centres (noise.c's
 * subtract); the samples not finite are counted.  The samples cached in
 * shared memory keep their NaNs for the statistics; their copies in
 * global memory, which the search reads, are already set to 0.  Where
 * the window is 16-byte aligned, two float4 loads in flight a thread,
 * else four floats: the block waits on device memory for each round.
 * The clipping's first pass is made on the way, into *first, where the
 * first sample's result is finite (returned: else it is not made). */
__device__ static int
subtract(const struct dstate *d, const struct dtrial *t, const struct span *x,
    size_t n, uint64_t j, size_t next_len, double *sh,
    unsigned long long *nbad, struct clip_state *first)
{
	struct baseline l = baseline_of(d, t, n, j, next_len);
	struct first_sums f = { off_line(&l, x->g[0], 0), 0, 0, 0 };
	double v[4] = { 0, 0, 0, 0 };
	size_t from = 0, i;

	__syncthreads();	/* every thread has read x[0] before it changes */

	if (((uintptr_t)x->g & 15) == 0) {
		const float4 *g4 = (const float4 *)x->g;
		unsigned n4 = (unsigned)(n / 4);

		float4_rounds<2>(g4, n4, [&](unsigned q, float4 in) {
			put_off_line4(x, &l, q, in, &v[3], &f);
		});
		from = 4 * (size_t)n4;
	}
	for (i = from + threadIdx.x; i < n; i += 4 * (size_t)blockDim.x) {
		float in[4];

#pragma unroll
		for (int r = 0; r < 4; r++) {
			size_t k = i + r * (size_t)blockDim.x;

			in[r] = k < n ? x->g[k] : 0;
		}
#pragma unroll
		for (int r = 0; r < 4; r++) {
			size_t k = i + r * (size_t)blockDim.x;
			float y;

			if (k >= n)
				break;
			y = off_line(&l, in[r], k);
			v[3] += !isfinite(in[r]);
			f(y);
			put_off_line(x, k, y);
		}
	}
	v[0] = f.s;
	v[1] = f.q;
	v[2] = f.c;
	block_sums<4>(v, sh);
	*nbad = (unsigned long long)v[3];
	*first = first_moments(v, f.shift);
	return isfinite(f.shift);
}

/* x[i], set to 0 where it is not finite (in global memory: the shared
 * copy is the statistics', and global memory's is already set). */
__device__ static float
finite_or_zero(const struct span *x, size_t i)
{
	float v = span_at(x, i);

	if (isfinite(v))
		return v;
	if (i >= x->ns)
		x->g[i] = 0;
	return 0;
}

/* fz(x[2i]) + fz(x[2i + 1]), times inv, where fz is finite_or_zero
 * (zero) or nothing; from shared memory a pair in one load. */
__device__ static float
pair_sum(const struct span *x, unsigned i, float inv, int zero)
{
	float u, v;

	if (2 * (size_t)i + 1 < x->ns) {
		float2 p = ((const float2 *)x->sm)[i];

		if (!zero)
			return __fadd_rn(p.x, p.y);
		u = isfinite(p.x) ? p.x : 0;
		v = isfinite(p.y) ? p.y : 0;
	} else if (!zero)
		return __fadd_rn(span_at(x, 2 * (size_t)i), span_at(x, 2 *
		    (size_t)i + 1));
	else {
		u = finite_or_zero(x, 2 * (size_t)i);
		v = finite_or_zero(x, 2 * (size_t)i + 1);
	}
	return __fmul_rn(__fadd_rn(u, v), inv);
}

/* a[i] = get(i) for i < m, where get reads a's own memory at or past
 * i: each round of the block reads HALVE_ROUNDS values a thread before
 * it writes them, and later rounds read only past what earlier ones
 * wrote.  No barrier after the last round. */
#define HALVE_ROUNDS	8
template <class G, class S>
__device__ static void
in_place_rounds(unsigned m, G get, S set)
{
	for (unsigned b = 0; b < m; b += HALVE_ROUNDS * blockDim.x) {
		float v[HALVE_ROUNDS];

#pragma unroll
		for (int r = 0; r < HALVE_ROUNDS; r++) {
			unsigned i = b + r * blockDim.x + threadIdx.x;

			v[r] = i < m ? get(i) : 0;
		}
		__syncthreads();
#pragma unroll
		for (int r = 0; r < HALVE_ROUNDS; r++) {
			unsigned i = b + r * blockDim.x + threadIdx.x;

			if (i < m)
				set(i, v[r]);
		}
	}
}

/* a[i] = pair_sum(x, i) for i < m, where a and x may be the same memory
 * (in_place_rounds). */
__device__ static void
halve(const struct span *x, const struct span *a, size_t m, float inv,
    int zero)
{
	in_place_rounds((unsigned)m,
	    [&](unsigned i) { return pair_sum(x, i, inv, zero); },
	    [&](unsigned i, float v) { span_set(a, i, v); });
	__syncthreads();
}

/* The m sums of level k pushed into its ring (the last RING of them), by
 * the block. */
__device__ static void
push_ring(const struct dstate *d, const struct span *a, size_t m, int k)
{
	int slot = blockIdx.x * d->lmax + (k - 1);
	float *ring = d->ring + (size_t)slot * RING;
	int head = d->ring_head[slot], rn = d->ring_n[slot];
	size_t cnt = m < RING ? m : RING;

	for (size_t i = threadIdx.x; i < cnt; i += blockDim.x)
		ring[(head + i) % RING] = span_at(a, m - cnt + i);
	__syncthreads();	/* every thread has read head */
	if (threadIdx.x == 0) {
		d->ring_head[slot] = (int)((head + cnt) % RING);
		d->ring_n[slot] = rn + (int)cnt > RING ? RING : rn + (int)cnt;
	}
}

/* Clipped statistics of dec[0..m), or of the ring of level k with it
 * pushed, as noise.c's measure_ratios does for one power of two. */
__device__ static double
level_sd(const struct dstate *d, const struct span *dec, size_t m, int k,
    double *sh)
{
	int slot = blockIdx.x * d->lmax + (k - 1);
	int rn = d->ring_n[slot];
	struct span rs = { NULL, d->ring + (size_t)slot * RING, 0 };
	double mean, sd;

	push_ring(d, dec, m, k);
	rn = rn + (int)m > RING ? RING : rn + (int)m;
	if (m >= RING)
		block_clipped(dec, m, d->outlier, d->clip, d->keep, sh, &mean,
		    &sd);
	else if (rn >= RING_MIN)
		block_clipped(&rs, (size_t)rn, d->outlier, d->clip, d->keep,
		    sh, &mean, &sd);
	else
		sd = 0;
	return sd;
}


/* Levels k .. nlev, each of fewer than RING sums (level k's m made), as
 * level_sd and measure_ratios do them: the block decimates them and
 * pushes each into its ring, then a warp a level takes its ring's
 * clipped statistics, the levels side by side, not one after another
 * across the block; sdk holds a double a level. */
__device__ static void
small_levels(const struct dstate *d, const struct dtrial *t,
    const struct span *a, size_t m, int k, double *sdk)
{
	double *ratio = d->ratio + blockIdx.x * d->rmax;
	int w = threadIdx.x >> 5, nw = blockDim.x >> 5, kk;

	for (kk = k; kk <= t->nlev; kk++) {
		if (kk > k) {
			m /= 2;
			halve(a, a, m, 1, 0);
		}
		push_ring(d, a, m, kk);
	}
	__syncthreads();
	for (kk = k + w; kk <= t->nlev; kk += nw) {
		int slot = blockIdx.x * d->lmax + (kk - 1);
		int rn = d->ring_n[slot];
		float *ring = d->ring + (size_t)slot * RING;
		double mean, sd = 0;

		/* the passes from shared memory, free now, where it holds the
		 * rings (their global copies were just written: not in L1) */
		if ((size_t)(t->nlev - k + 1) * RING <= a->ns) {
			float *held = a->sm + (size_t)(kk - k) * RING;

			for (int i = threadIdx.x & 31; i < rn; i += 32)
				held[i] = ring[i];
			__syncwarp();
			ring = held;
		}
		if (rn >= RING_MIN)
			warp_clipped(ring, (unsigned)rn, d->outlier, d->clip,
			    &mean, &sd);
		if ((threadIdx.x & 31) == 0)
			sdk[kk] = sd;
	}
	__syncthreads();
	if (threadIdx.x == 0)
		for (kk = k; kk <= t->nlev; kk++)
			ratio[kk] = isfinite(sdk[kk]) && sdk[kk] > 0 ? sdk[kk] /
			    sqrt((double)(1 << kk)) : ratio[kk - 1];
	__syncthreads();
}

/* r at 2^k, k = 1 .. nlev, from the window's decimated sums, the samples
 * not finite set to 0 on the way.  The sums take the place of the
 * window's shared copy, and the decimation scratch past it. */
__device__ static void
measure_ratios(const struct dstate *d, const struct dtrial *t,
    const struct span *x, size_t n, double sigma, double *sh)
{
	__shared__ double sdk[SPS_BOXCAR_MAXLEVELS + 2];
	double *ratio = d->ratio + blockIdx.x * d->rmax;
	struct span a = { x->sm, d->dec + t->doff, x->ns };
	size_t m = n / 2;

	if (threadIdx.x == 0 && n % 2 == 1)
		finite_or_zero(x, n - 1);
	halve(x, &a, m, (float)(1 / sigma), 1);
	for (int k = 1; k <= t->nlev; k++) {
		double sd;

		if (k > 1) {
			m /= 2;
			halve(&a, &a, m, 1, 0);
		}
		if (m < RING) {
			small_levels(d, t, &a, m, k, sdk);
			return;
		}
		sd = level_sd(d, &a, m, k, sh);
		if (threadIdx.x == 0)
			ratio[k] = isfinite(sd) && sd > 0 ? sd /
			    sqrt((double)(1 << k)) : ratio[k - 1];
		__syncthreads();
	}
}

/* Window j of each trial (one a block) with its baseline subtracted, its
 * sigma_1 and noise ratios measured.  The first `cache` samples of the
 * window are held in shared memory for the passes of the statistics. */
__global__ static void __launch_bounds__(NORM_NT, NORM_MINB)
norm_kernel(struct dstate d, uint64_t j, uint64_t nbase, size_t cache)
{
	extern __shared__ float4 cached4[];
	__shared__ double sh[BLOCK_SH];
	const struct dtrial tr = d.trial[blockIdx.x], *t = &tr;
	uint64_t len = nbase / (uint64_t)t->f;
	size_t n = window_len(t, j, len), next_len, i;
	struct span x = { (float *)cached4, window_at(&d, t, j),
	    n < cache ? n : cache };
	float *r;
	double m, sd, prev = d.prev_sigma[blockIdx.x];
	struct clip_state first;
	unsigned long long bad;
	int slot = blockIdx.x * d.nslots + (int)(j % d.nslots), ok;

	if (n == 0)
		return;
	next_len = window_len(t, j + 1, len);
	if (subtract(&d, t, &x, n, j, next_len, sh, &bad, &first))
		clip_passes(&x, n, d.outlier, d.clip, d.keep, sh, first, &m,
		    &sd);
	else
		block_clipped(&x, n, d.outlier, d.clip, d.keep, sh, &m, &sd);
	if (n < SHORT_WINDOW && prev > 0)
		sd = prev;
	__syncthreads();
	ok = isfinite(sd) && sd > 0;
	if (ok && !d.white)
		measure_ratios(&d, t, &x, n, sd, sh);
	else
		for (i = x.ns + threadIdx.x; i < n; i += blockDim.x)
			finite_or_zero(&x, i);
	if (threadIdx.x != 0)
		return;
	d.windows[blockIdx.x]++;
	d.skipped[blockIdx.x] += !ok;
	d.nbad[blockIdx.x] += bad;
	d.sigma[slot] = ok ? sd : NAN;
	if (!ok)
		return;
	d.prev_sigma[blockIdx.x] = sd;
	r = d.rpar + (size_t)slot * d.rmax;
	for (int k = 0; k <= t->nlev + 1; k++)
		r[k] = d.white ? 1 : (float)d.ratio[blockIdx.x * d.rmax +
		    (k <= t->nlev ? k : t->nlev)];
}

/* ---- the boxcar search: a tile of starts of one trial per block ---- */

/* The block's plan copied to shared memory (the caller's barrier makes
 * it whole): read after each of the block's barriers, it would come from
 * device memory each time, every warp waiting on it. */
__device__ static const struct dplan *
plan_shared(const struct dplan *g, struct dplan *sp)
{
	const int *from = (const int *)g;
	int *to = (int *)sp;

	for (int i = threadIdx.x; i < (int)(sizeof(*sp) / sizeof(int));
	    i += blockDim.x)
		to[i] = from[i];
	return sp;
}

/* Sample k of the run that starts at offset off0 of window j0. */
__device__ static double
sample_at(const struct dstate *d, const struct dtrial *t, uint64_t j0,
    unsigned off0, size_t k)
{
	unsigned win = (unsigned)t->win, rel = off0 + (unsigned)k;
	unsigned wi = rel / win;

	return window_at(d, t, j0 + wi)[rel - wi * win];
}

/* An inclusive sum over the warp's lanes. */
__device__ static double
warp_scan(double v, int lane)
{
	for (int o = 1; o < 32; o <<= 1) {
		double y = __shfl_up_sync(0xffffffffu, v, o);

		if (lane >= o)
			v += y;
	}
	return v;
}

/* Running sums of x from sample `from` (len of them) into P[0..len], a
 * block-wide scan per blockDim.x samples, the next samples loaded while
 * one are summed; sh holds blockDim.x / 32 + 1 doubles. */
__device__ static void
prefix_sums(const struct dstate *d, const struct dtrial *t, uint64_t from,
    size_t len, double *P, double *sh)
{
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
	uint64_t j0 = from / t->win;
	unsigned off0 = (unsigned)(from % t->win);
	double *carry = sh + nw, next;

	if (threadIdx.x == 0) {
		P[0] = 0;
		*carry = 0;
	}
	next = threadIdx.x < len ? sample_at(d, t, j0, off0, threadIdx.x) : 0;
	for (size_t b = 0; b < len; b += blockDim.x) {
		size_t k = b + threadIdx.x;
		double v = next;

		next = k + blockDim.x < len ? sample_at(d, t, j0, off0, k +
		    blockDim.x) : 0;
		v = warp_scan(v, lane);
		__syncthreads();
		if (lane == 31)
			sh[w] = v;
		__syncthreads();
		if (w == 0) {
			double s = warp_scan(lane < nw ? sh[lane] : 0, lane);

			if (lane < nw)
				sh[lane] = s;
		}
		__syncthreads();
		v += (w > 0 ? sh[w - 1] : 0) + *carry;
		if (k < len)
			P[k + 1] = v;
		__syncthreads();
		if (threadIdx.x == blockDim.x - 1)
			*carry = v;
	}
	__syncthreads();
}

/* The scale of noise.c's make_scale for each width of the plan, level
 * by level (sc[p->wbase[l] + k] for width k of level l). */
__device__ static void
scale_table(const struct dstate *d, const struct dplan *p, double sigma,
    const float *r, float *sc)
{
	float s = (float)sigma;

	for (int i = threadIdx.x; i < p->wbase[p->nlevels]; i += blockDim.x) {
		int l = 0, w, k;

		while (i >= p->wbase[l + 1])
			l++;
		w = p->first[l] + (i - p->wbase[l]) * p->step[l];
		k = d->wk[w];
		float rr = __fadd_rn(r[k], __fmul_rn(__fsub_rn(r[k + 1], r[k]),
		    d->wfrac[w]));

		sc[i] = __fdiv_rn(1.0f, __fmul_rn(__fmul_rn(s, d->wroot[w]),
		    rr));
	}
}

/* How many of level l's widths reach no further than room samples. */
__device__ static int
widths_within(const struct dplan *p, int l, long long room)
{
	long long last = p->first[l] + (long long)(p->nwidths[l] - 1) *
	    p->step[l];

	if (room < p->first[l])
		return 0;
	if (last <= room)
		return p->nwidths[l];
	return (int)((room - p->first[l]) / p->step[l]) + 1;
}

__global__ static void __launch_bounds__(SEARCH_NT)
search_kernel(struct dstate d, uint64_t j, uint64_t nbase, uint64_t nnorm,
    int finished, int tile, struct dfound *found, unsigned *nfound,
    unsigned cap)
{
	extern __shared__ double P[];
	__shared__ double sh[SEARCH_NT / 32 + 1];
	__shared__ int cum[SPS_BOXCAR_MAXLEVELS + 1];
	__shared__ struct dplan sp;
	const struct dtrial tr = d.trial[blockIdx.y], *t = &tr;
	const struct dplan *p = plan_shared(&d.plan[t->plan], &sp);
	uint64_t len = nbase / (uint64_t)t->f, ws = j * t->win, s0, vend;
	size_t n = window_len(t, j, len), t0 = (size_t)blockIdx.x * tile;
	size_t nstarts, span, room;
	int slot = blockIdx.y * d.nslots + (int)(j % d.nslots), items;
	double sigma = d.sigma[slot];
	float thr = (float)d.threshold, *sc;

	if (t0 >= n || !isfinite(sigma))
		return;
	__syncthreads();	/* the plan */
	nstarts = n - t0 < (size_t)tile ? n - t0 : (size_t)tile;
	s0 = ws + t0;
	vend = finished ? len : nnorm * t->win;
	span = nstarts - 1 + (size_t)p->max_width;
	if (s0 + span > vend)
		span = (size_t)(vend - s0);
	sc = (float *)(P + tile + p->max_width + 1);
	prefix_sums(&d, t, s0, span, P, sh);
	scale_table(&d, p, sigma, d.rpar + (size_t)slot * d.rmax, sc);
	if (threadIdx.x == 0) {
		cum[0] = 0;
		for (int l = 0; l < p->nlevels; l++)
			cum[l + 1] = cum[l] + (int)((nstarts + p->sep[l] - 1) /
			    p->sep[l]);
	}
	__syncthreads();
	items = cum[p->nlevels];
	room = vend - s0;
	for (int it = threadIdx.x; it < items; it += blockDim.x) {
		int l = 0, bk = 0, nk, step;
		float best = -INFINITY;
		unsigned q;
		const float *scl;
		const double *end;
		double base;

		while (it >= cum[l + 1])
			l++;
		q = (unsigned)(it - cum[l]) * (unsigned)p->sep[l];
		nk = widths_within(p, l, (long long)room - q);
		base = P[q];
		scl = sc + p->wbase[l];
		end = P + q + p->first[l];
		step = p->step[l];
		/* the fewest instructions a width: the kernel is bound by them */
		for (int k = 0; k < nk; k++, end += step) {
			float v = (float)__dmul_rn(*end - base, (double)scl[k]);

			if (v > best) {
				best = v;
				bk = k;
			}
		}
		if (best >= thr) {
			unsigned at = atomicAdd(nfound, 1u);

			if (at < cap) {
				found[at].trial = blockIdx.y;
				found[at].width = p->first[l] + bk * p->step[l];
				found[at].snr = best;
				found[at].rel = (unsigned)(t0 + q);
				found[at].window = (unsigned)j;
			}
		}
	}
}

#include "boxdit_search.cuh"

/* Trial blockIdx.y's part of a block of nbase_part base samples into its
 * window ring. */
__global__ static void
copy_in_kernel(struct dstate d, const float *block, const size_t *inoff,
    uint64_t from_base, uint64_t at_base, size_t nbase_part)
{
	const struct dtrial tr = d.trial[blockIdx.y], *t = &tr;
	size_t cnt = nbase_part / (size_t)t->f;
	uint64_t at = at_base / (uint64_t)t->f;
	struct no_use none;

	copy_strided(window_at(&d, t, at / t->win) + at % t->win, block +
	    inoff[blockIdx.y] + from_base / (uint64_t)t->f, cnt,
	    blockIdx.x * blockDim.x + threadIdx.x,
	    (size_t)gridDim.x * blockDim.x, none);
}

/* An 8- or 16-bit stream's sample i of a trial whose scale and offset
 * are u, as dmtime.c unpacks it: (raw - mid) * scale + offset in double,
 * rounded at each step (no fused multiply-add), then to float. */
__device__ static float
unpack_sample(const unsigned char *raw, size_t i, int nbits, double2 u)
{
	double v = nbits == 8 ? (double)raw[i] - 128.0 :
	    (double)(raw[2 * i] | raw[2 * i + 1] << 8) - 32768.0;

	return (float)__dadd_rn(__dmul_rn(v, u.x), u.y);
}

/* copy_in_kernel's copy from a packed block, unpacked on the way. */
__global__ static void
copy_in_packed_kernel(struct dstate d, const unsigned char *raw,
    const size_t *inoff, const double2 *unpack, int nbits,
    uint64_t from_base, uint64_t at_base, size_t nbase_part)
{
	const struct dtrial tr = d.trial[blockIdx.y], *t = &tr;
	size_t cnt = nbase_part / (size_t)t->f, i;
	uint64_t at = at_base / (uint64_t)t->f;
	float *dst = window_at(&d, t, at / t->win) + at % t->win;
	const unsigned char *src = raw + (inoff[blockIdx.y] + from_base /
	    (uint64_t)t->f) * (size_t)(nbits / 8);
	double2 u = unpack[blockIdx.y];

	for (i = blockIdx.x * blockDim.x + threadIdx.x; i < cnt;
	    i += (size_t)gridDim.x * blockDim.x)
		dst[i] = unpack_sample(src, i, nbits, u);
}

/* ---- the host's side ---- */

static enum sps_err
dev_alloc(struct sps_gpu_search *g, void **p, size_t bytes, const char *what)
{
	enum sps_err e;

	if ((e = gpu_malloc(p, bytes, what, &g->bytes)) != SPS_OK)
		return e;
	CHECK(cudaMemsetAsync(*p, 0, bytes, g->s));
	return SPS_OK;
}

/* After the memsets queued on the search's stream (a plain cudaMemcpy
 * would not wait for them). */
static enum sps_err
upload(struct sps_gpu_search *g, void *dst, const void *src, size_t bytes)
{
	CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, g->s));
	CHECK(cudaStreamSynchronize(g->s));
	return SPS_OK;
}

/* The values near the clipping bounds a noise block keeps: EDGE_CAP, or
 * fewer for tests (SPS_GPU_CLIP_KEEP=N; 0: every pass over the whole
 * window, as noise.c makes them). */
static int
clip_keep(void)
{
	const char *env = getenv("SPS_GPU_CLIP_KEEP");

	if (env != NULL && *env != '\0' && atoi(env) >= 0 &&
	    atoi(env) < EDGE_CAP)
		return atoi(env);
	return EDGE_CAP;
}

static int
plan_index(struct sps_gpu_search *g, const struct sps_boxcar_plan *p)
{
	struct dplan dp;
	int i;

	memset(&dp, 0, sizeof(dp));
	dp.nlevels = p->nlevels;
	dp.max_width = p->max_width;
	for (i = 0; i < p->nlevels; i++) {
		dp.sep[i] = p->level[i].sep;
		dp.first[i] = p->level[i].first;
		dp.step[i] = p->level[i].step;
		dp.nwidths[i] = p->level[i].nwidths;
		dp.wbase[i + 1] = dp.wbase[i] + p->level[i].nwidths;
	}
	for (i = 0; i < g->nplans; i++)
		if (memcmp(&g->plan[i], &dp, sizeof(dp)) == 0)
			return i;
	g->plan[g->nplans] = dp;
	g->bplan[g->nplans] = p;
	return g->nplans++;
}

static int
levels_of(int max_width)
{
	int k;

	for (k = 0; (1 << k) < max_width; k++)
		;
	return k;
}

/* The trials' layout on the host, and the sizes that follow from it. */
static enum sps_err
lay_out(struct sps_gpu_search *g, const int *f,
    const struct sps_boxcar_plan *const *plans, size_t *nbuf, size_t *ndec)
{
	int i;

	*nbuf = *ndec = 0;
	g->nslots = g->o.lag + 3;
	for (i = 0; i < g->ntrials; i++) {
		struct dtrial *t = &g->trial[i];

		if (f[i] < 1 || g->o.window % (size_t)f[i] != 0)
			return sps_fail(SPS_EVALUE, "GPU search: window %zu and "
			    "scrunch factor %d", g->o.window, f[i]);
		t->f = f[i];
		t->plan = plan_index(g, plans[i]);
		t->nlev = levels_of(plans[i]->max_width);
		t->win = g->o.window / (size_t)f[i];
		t->off = *nbuf;
		t->doff = *ndec;
		*nbuf += (size_t)g->nslots * t->win;
		*ndec += t->win / 2 + t->win / 4 + 2;
		if (t->nlev > g->lmax)
			g->lmax = t->nlev;
		if (plans[i]->max_width > g->maxw)
			g->maxw = plans[i]->max_width;
	}
	g->rmax = g->lmax + 2;
	return SPS_OK;
}

static int
period_of(const struct sps_gpu_search *g, const struct sps_boxcar_plan *const
    *plans)
{
	int period = 1, i;

	for (i = 0; i < g->ntrials; i++)
		if (plans[i]->period > period)
			period = plans[i]->period;
	return period;
}

static int
shared_limit(const struct sps_gpu_search *g, int *limit)
{
	*limit = 0;
	return cudaDeviceGetAttribute(limit,
	    cudaDevAttrMaxSharedMemoryPerBlockOptin, g->dev) == cudaSuccess;
}

/* The largest tile (a multiple of every plan's largest separation) whose
 * running sums and scales fit a block's shared memory. */
static enum sps_err
choose_tile(struct sps_gpu_search *g, const struct sps_boxcar_plan *const
    *plans)
{
	int limit = 0, period = period_of(g, plans), nw = 0, i;

	if (!shared_limit(g, &limit))
		CHECK(cudaGetLastError());
	limit -= (SEARCH_NT / 32 + 1) * (int)sizeof(double) +
	    (int)sizeof(struct dplan) + 1024;
	for (i = 0; i < g->nplans; i++)
		if (g->plan[i].wbase[g->plan[i].nlevels] > nw)
			nw = g->plan[i].wbase[g->plan[i].nlevels];
	for (g->tile = TILE_MAX; g->tile >= period && g->tile >= 32;
	    g->tile /= 2) {
		g->smem = ((size_t)g->tile + (size_t)g->maxw + 2) *
		    sizeof(double) + (size_t)nw * sizeof(float);
		if (g->smem <= (size_t)limit)
			break;
	}
	if (g->tile < period || g->tile < 32)
		return sps_fail(SPS_EVALUE, "GPU search: boxcars up to %d "
		    "samples do not fit the device's %d bytes of shared "
		    "memory", g->maxw, limit);
	CHECK(cudaFuncSetAttribute(search_kernel,
	    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)g->smem));
	return SPS_OK;
}

/* The bytes of shared memory a block of kernel k may ask for beside its
 * own, minb such blocks a multiprocessor. */
static enum sps_err
block_shared(const struct sps_gpu_search *g, const void *k, int minb,
    size_t *bytes)
{
	struct cudaFuncAttributes attr;
	int block = 0, sm = 0, reserved = 0;
	long room;

	if (!shared_limit(g, &block) ||
	    cudaDeviceGetAttribute(&sm,
	    cudaDevAttrMaxSharedMemoryPerMultiprocessor, g->dev) !=
	    cudaSuccess ||
	    cudaDeviceGetAttribute(&reserved,
	    cudaDevAttrReservedSharedMemoryPerBlock, g->dev) != cudaSuccess)
		CHECK(cudaGetLastError());
	CHECK(cudaFuncGetAttributes(&attr, k));
	room = sm / minb - reserved;
	if (room > block)
		room = block;
	room -= (long)attr.sharedSizeBytes;
	*bytes = room > 0 ? (size_t)room : 0;
	return SPS_OK;
}

/* The samples of a window a block of kernel k holds in shared memory,
 * minb such blocks a multiprocessor: as many as fit, at most the longest
 * window, win. */
static enum sps_err
shared_cache(const struct sps_gpu_search *g, const void *k, int minb,
    size_t win, size_t *cache)
{
	size_t room;
	enum sps_err e;

	if ((e = block_shared(g, k, minb, &room)) != SPS_OK)
		return e;
	*cache = room / sizeof(float);
	if (*cache > win)
		*cache = win;
	return SPS_OK;
}

/* The samples of a window a mean or normalisation block holds in shared
 * memory (SPS_GPU_NORM_CACHE=N caps them at N, for tests; 0: every pass
 * from global memory). */
static enum sps_err
choose_norm_cache(struct sps_gpu_search *g)
{
	const char *env = getenv("SPS_GPU_NORM_CACHE");
	size_t win = 0, cap;
	enum sps_err e;
	int i;

	for (i = 0; i < g->ntrials; i++)
		if (g->trial[i].win > win)
			win = g->trial[i].win;
	if ((e = shared_cache(g, (const void *)mean_kernel, MEAN_MINB, win,
	    &g->mean_cache)) != SPS_OK ||
	    (e = shared_cache(g, (const void *)norm_kernel, NORM_MINB, win,
	    &g->norm_cache)) != SPS_OK)
		return e;
	if (env != NULL && *env != '\0') {
		cap = (size_t)strtoull(env, NULL, 10);
		if (cap < g->mean_cache)
			g->mean_cache = cap;
		if (cap < g->norm_cache)
			g->norm_cache = cap;
	}
	CHECK(cudaFuncSetAttribute(norm_kernel,
	    cudaFuncAttributeMaxDynamicSharedMemorySize,
	    (int)(g->norm_cache * sizeof(float))));
	CHECK(cudaFuncSetAttribute(mean_kernel,
	    cudaFuncAttributeMaxDynamicSharedMemorySize,
	    (int)(g->mean_cache * sizeof(float))));
	sps_trace("GPU search: windows of %zu samples, %zu of them in shared "
	    "memory for the means, %zu for the rest", win, g->mean_cache,
	    g->norm_cache);
	return SPS_OK;
}

/* boxdit_kernel's shared memory for tiles of `tile` starts, the plans'
 * layouts for it kept: the series (x_0, then the odd levels' in its
 * place and the even levels' nb floats on, each with 4 floats to spare
 * before the next, which the reads of whole float4 may touch), the
 * starting sums, scales, bounds and flags. */
static size_t
boxdit_smem(struct sps_gpu_search *g, int tile)
{
	size_t need[SPS_BOXCAR_MAXLEVELS], na = 0, nb = 0, nb2 = 0, nr;
	int L[SPS_BOXCAR_MAXLEVELS], nw = 0, i, l;

	for (i = 0; i < g->nplans; i++) {
		struct dplan *dp = &g->plan[i];

		sps_boxcar_dit_layout(g->bplan[i], (size_t)tile, need, L);
		for (l = 0; l < dp->nlevels; l++) {
			dp->need[l] = (int)need[l];
			dp->full[l] = L[l];
			if (l > 0 && need[l] > nb)
				nb = need[l];
			if (l > 1 && need[l] > nb2)
				nb2 = need[l];
		}
		if (need[0] > na)
			na = need[0];
		if ((size_t)tile + (size_t)dp->max_width + 1 > na)
			na = (size_t)tile + (size_t)dp->max_width + 1;
		if (dp->wbase[dp->nlevels] > nw)
			nw = dp->wbase[dp->nlevels];
	}
	g->na = (int)(na + 3) / 4 * 4;
	g->nb = (int)(nb + 3) / 4 * 4 + 4;
	nr = (size_t)g->nb + nb2 + 4 > (size_t)g->na + 4 ?
	    (size_t)g->nb + nb2 + 4 : (size_t)g->na + 4;
	g->nr = (int)(nr + 3) / 4 * 4;
	g->nw = (nw + 3) / 4 * 4;
	return ((size_t)g->nr + (size_t)tile / 2 + (size_t)tile / 4 +
	    2 * (size_t)g->nw + BOUND_PAD) * sizeof(float) +
	    ((size_t)tile + 31) / 32 * sizeof(unsigned);
}

/* BoxDIT plans only, unless SPS_GPU_SEARCH=sums asks for search_kernel
 * (for comparisons); SPS_GPU_BOXDIT_TILE caps the tile (for tuning). */
static int
use_boxdit(const struct sps_gpu_search *g)
{
	const char *how = getenv("SPS_GPU_SEARCH");
	int i;

	if (how != NULL && strcmp(how, "sums") == 0)
		return 0;
	for (i = 0; i < g->nplans; i++)
		if (g->bplan[i]->algo != SPS_BOXCAR_BOXDIT &&
		    g->bplan[i]->algo != SPS_BOXCAR_EXHAUSTIVE)
			return 0;
	return 1;
}

/* The largest tile, a multiple of every plan's largest separation and
 * at most `tile`, whose series, sums and scales fit in limit bytes; 0:
 * none. */
static int
fit_boxdit_tile(struct sps_gpu_search *g, int period, int tile, int limit)
{
	for (; tile >= period && tile >= 32; tile /= 2)
		if ((g->smem = boxdit_smem(g, tile)) <= (size_t)limit)
			return tile;
	return 0;
}

/* BOXDIT_MINB blocks a multiprocessor, their many barriers each other's
 * time to work, unless that takes more than halving the tile one block
 * could have (each tile reads the widest boxcar's samples past its end:
 * the smaller the tile, the more of them). */
static enum sps_err
choose_boxdit_tile(struct sps_gpu_search *g, const struct sps_boxcar_plan
    *const *plans)
{
	const char *cap = getenv("SPS_GPU_BOXDIT_TILE");
	int period = period_of(g, plans), one, some;
	int most = cap != NULL && atoi(cap) >= 32 ? atoi(cap) : TILE_MAX;
	size_t room1, room;
	enum sps_err e;

	if ((e = block_shared(g, (const void *)boxdit_kernel, 1, &room1)) !=
	    SPS_OK ||
	    (e = block_shared(g, (const void *)boxdit_kernel, BOXDIT_MINB,
	    &room)) != SPS_OK)
		return e;
	one = fit_boxdit_tile(g, period, most, (int)room1);
	some = fit_boxdit_tile(g, period, most, (int)room);
	if ((g->tile = 2 * some >= one ? some : one) == 0)
		return sps_fail(SPS_EVALUE, "GPU search: boxcars up to %d "
		    "samples do not fit the device's %zu bytes of shared "
		    "memory", g->maxw, room1);
	g->smem = boxdit_smem(g, g->tile);
	g->boxdit = 1;
	sps_trace("GPU search: BoxDIT tiles of %d starts, %zu bytes of shared "
	    "memory", g->tile, g->smem);
	CHECK(cudaFuncSetAttribute(boxdit_kernel,
	    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)g->smem));
	return SPS_OK;
}

/* noise.c's tables of log2 w and sqrt w, made by the same code. */
static enum sps_err
width_tables(struct sps_gpu_search *g)
{
	size_t n = (size_t)g->maxw + 2;
	int *wk = (int *)calloc(n, sizeof(int));
	float *wf = (float *)calloc(n, sizeof(float));
	float *wr = (float *)calloc(n, sizeof(float));
	enum sps_err e = SPS_OK;
	int w;

	if (wk == NULL || wf == NULL || wr == NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	for (w = 1; e == SPS_OK && w <= g->maxw; w++) {
		double l = log2((double)w);

		wk[w] = (int)floor(l);
		wf[w] = (float)(l - floor(l));
		wr[w] = (float)sqrt((double)w);
	}
	if (e == SPS_OK &&
	    ((e = dev_alloc(g, (void **)&g->d.wk, n * sizeof(int), "search "
	    "tables")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&g->d.wfrac, n * sizeof(float),
	    "search tables")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&g->d.wroot, n * sizeof(float),
	    "search tables")) != SPS_OK ||
	    (e = upload(g, (void *)g->d.wk, wk, n * sizeof(int))) != SPS_OK ||
	    (e = upload(g, (void *)g->d.wfrac, wf, n * sizeof(float))) != SPS_OK))
		;
	if (e == SPS_OK)
		e = upload(g, (void *)g->d.wroot, wr, n * sizeof(float));
	free(wk);
	free(wf);
	free(wr);
	return e;
}

static enum sps_err
alloc_state(struct sps_gpu_search *g, size_t nbuf, size_t ndec)
{
	size_t nt = (size_t)g->ntrials, ns = nt * (size_t)g->nslots;
	size_t nr = nt * (size_t)(g->lmax > 0 ? g->lmax : 1);
	struct dstate *d = &g->d;
	double *ones;
	enum sps_err e;
	size_t i;

	if ((e = dev_alloc(g, (void **)&d->trial, nt * sizeof(struct dtrial),
	    "search trials")) != SPS_OK ||
	    (e = upload(g, (void *)d->trial, g->trial, nt * sizeof(struct
	    dtrial))) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->plan, (size_t)g->nplans *
	    sizeof(struct dplan), "search plans")) != SPS_OK ||
	    (e = upload(g, (void *)d->plan, g->plan, (size_t)g->nplans *
	    sizeof(struct dplan))) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->buf, nbuf * sizeof(float),
	    "the DM-time windows")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->dec, ndec * sizeof(float),
	    "decimated series")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->mean, ns * sizeof(double),
	    "window means")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->sigma, ns * sizeof(double),
	    "window sigmas")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->rpar, ns * (size_t)g->rmax *
	    sizeof(float), "window ratios")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->ratio, nt * (size_t)g->rmax *
	    sizeof(double), "noise ratios")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->ring, nr * RING * sizeof(float),
	    "noise rings")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->ring_n, nr * sizeof(int),
	    "noise rings")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->ring_head, nr * sizeof(int),
	    "noise rings")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->prev_sigma, nt * sizeof(double),
	    "noise state")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&d->windows, 3 * nt * sizeof(unsigned
	    long long), "search counts")) != SPS_OK)
		return e;
	d->skipped = d->windows + nt;
	d->nbad = d->skipped + nt;
	if ((ones = (double *)malloc(nt * (size_t)g->rmax * sizeof(double))) ==
	    NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < nt * (size_t)g->rmax; i++)
		ones[i] = 1;
	e = upload(g, d->ratio, ones, nt * (size_t)g->rmax * sizeof(double));
	free(ones);
	return e;
}

/* ---- the kernels loaded ahead ----
 * Loading the search's takes some 20 ms, which sps_gpu_search_preload
 * spends while the caller sets up its other work; and a kernel first
 * launched mid-run would wait for the kernels running then (in
 * sps-search, a gulp's dedispersion). */

static enum sps_err
load_kernels(void)
{
	const void *k[] = { (const void *)mean_kernel,
	    (const void *)norm_kernel, (const void *)boxdit_kernel,
	    (const void *)search_kernel, (const void *)copy_in_kernel,
	    (const void *)copy_in_packed_kernel };

	return gpu_load_kernels(k, sizeof(k) / sizeof(k[0]));
}

extern "C" void
sps_gpu_search_preload(int dev)
{
	gpu_preload(dev, load_kernels);
}

static enum sps_err
make(struct sps_gpu_search *g, const int *f,
    const struct sps_boxcar_plan *const *plans)
{
	size_t nbuf, ndec;
	enum sps_err e;

	g->trial = (struct dtrial *)calloc((size_t)g->ntrials,
	    sizeof(*g->trial));
	g->plan = (struct dplan *)calloc((size_t)g->ntrials, sizeof(*g->plan));
	g->bplan = (const struct sps_boxcar_plan **)calloc((size_t)g->ntrials,
	    sizeof(*g->bplan));
	g->inoff = (size_t *)calloc((size_t)g->ntrials, sizeof(size_t));
	if (g->trial == NULL || g->plan == NULL || g->bplan == NULL ||
	    g->inoff == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if ((e = lay_out(g, f, plans, &nbuf, &ndec)) != SPS_OK)
		return e;
	gpu_preload_wait();
	CHECK(cudaSetDevice(g->dev));
	if ((e = load_kernels()) != SPS_OK)
		return e;
	if ((e = (use_boxdit(g) ? choose_boxdit_tile(g, plans) :
	    choose_tile(g, plans))) != SPS_OK ||
	    (e = choose_norm_cache(g)) != SPS_OK ||
	    (e = gpu_stream_create_first(&g->s)) != SPS_OK)
		return e;
	CHECK(cudaEventCreate(&g->k0));
	CHECK(cudaEventCreate(&g->k1));
	sps_trace("GPU search: laid out, %zu + %zu floats", nbuf, ndec);
	if ((e = alloc_state(g, nbuf, ndec)) != SPS_OK)
		return e;
	sps_trace("GPU search: state allocated");
	if ((e = width_tables(g)) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&g->d_inoff, (size_t)g->ntrials *
	    sizeof(size_t), "block offsets")) != SPS_OK ||
	    (e = dev_alloc(g, (void **)&g->d_nfound, sizeof(unsigned),
	    "found count")) != SPS_OK)
		return e;
	g->found_cap = FOUND_FIRST;
	if ((e = dev_alloc(g, (void **)&g->d_found, g->found_cap *
	    sizeof(struct dfound), "boxcars found")) != SPS_OK)
		return e;
	g->d.nslots = g->nslots;
	g->d.rmax = g->rmax;
	g->d.lmax = g->lmax > 0 ? g->lmax : 1;
	g->d.ntrials = g->ntrials;
	g->d.outlier = g->o.outlier;
	g->d.clip = sps_clip_factor(g->o.outlier);
	g->d.threshold = g->o.threshold;
	g->d.white = g->o.white;
	g->d.keep = clip_keep();
	CHECK(cudaStreamSynchronize(g->s));
	return SPS_OK;
}

extern "C" enum sps_err
sps_gpu_search_create(struct sps_gpu_search **gp,
    const struct sps_gpu_search_opts *o, int ntrials, const int *f,
    const struct sps_boxcar_plan *const *plans)
{
	struct sps_gpu_search *g;
	enum sps_err e;

	*gp = NULL;
	if (ntrials < 1 || o->window < 1 || o->lag < 1)
		return sps_fail(SPS_EVALUE, "GPU search: %d trials, window "
		    "%zu, lag %d", ntrials, o->window, o->lag);
	if ((g = (struct sps_gpu_search *)calloc(1, sizeof(*g))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	g->o = *o;
	g->dev = o->device;
	g->ntrials = ntrials;
	if ((e = make(g, f, plans)) != SPS_OK) {
		sps_gpu_search_free(g);
		return e;
	}
	*gp = g;
	return SPS_OK;
}

extern "C" void
sps_gpu_search_free(struct sps_gpu_search *g)
{
	struct dstate *d;

	if (g == NULL)
		return;
	d = &g->d;
	cudaSetDevice(g->dev);
	if (g->s != NULL)
		cudaStreamSynchronize(g->s);
	cudaFree((void *)d->trial);
	cudaFree((void *)d->plan);
	cudaFree(d->buf);
	cudaFree(d->dec);
	cudaFree(d->mean);
	cudaFree(d->sigma);
	cudaFree(d->rpar);
	cudaFree(d->ratio);
	cudaFree(d->ring);
	cudaFree(d->ring_n);
	cudaFree(d->ring_head);
	cudaFree(d->prev_sigma);
	cudaFree(d->windows);
	cudaFree((void *)d->wk);
	cudaFree((void *)d->wfrac);
	cudaFree((void *)d->wroot);
	cudaFree(g->d_inoff);
	cudaFree(g->d_stage);
	cudaFree(g->d_unpack);
	cudaFree(g->d_found);
	cudaFree(g->d_nfound);
	if (g->k0 != NULL)
		cudaEventDestroy(g->k0);
	if (g->k1 != NULL)
		cudaEventDestroy(g->k1);
	if (g->s != NULL)
		cudaStreamDestroy(g->s);
	free(g->trial);
	free(g->plan);
	free(g->bplan);
	free(g->inoff);
	free(g->hfound);
	free(g->out);
	free(g);
}

/* ---- one step of windows ---- */

static int
by_trial_start(const void *a, const void *b)
{
	const struct dfound *x = (const struct dfound *)a;
	const struct dfound *y = (const struct dfound *)b;

	if (x->trial != y->trial)
		return x->trial < y->trial ? -1 : 1;
	if (x->window != y->window)
		return x->window < y->window ? -1 : 1;
	if (x->rel != y->rel)
		return x->rel < y->rel ? -1 : 1;
	if (x->snr != y->snr)
		return x->snr > y->snr ? -1 : 1;
	return (x->width > y->width) - (x->width < y->width);
}

/* The n boxcars found in windows from j0 (of a step), the best of each
 * start kept. */
static enum sps_err
take_found(struct sps_gpu_search *g, uint64_t j0, size_t n)
{
	size_t i, need = g->nout + n;

	if (n > g->hcap) {
		free(g->hfound);
		if ((g->hfound = (struct dfound *)malloc(n * sizeof(*g->hfound)))
		    == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		g->hcap = n;
	}
	if (need > g->out_cap) {
		void *p = realloc(g->out, need * sizeof(*g->out));

		if (p == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		g->out = (struct sps_gpu_found *)p;
		g->out_cap = need;
	}
	CHECK(cudaMemcpy(g->hfound, g->d_found, n * sizeof(*g->hfound),
	    cudaMemcpyDeviceToHost));
	qsort(g->hfound, n, sizeof(*g->hfound), by_trial_start);
	for (i = 0; i < n; i++) {
		const struct dfound *h = &g->hfound[i];
		/* the window's number from its low 32 bits */
		uint64_t j = j0 + (uint32_t)(h->window - (uint32_t)j0);
		struct sps_gpu_found *o;

		if (i > 0 && h->trial == h[-1].trial && h->window ==
		    h[-1].window && h->rel == h[-1].rel)
			continue;	/* a narrower level's, not the best */
		o = &g->out[g->nout++];
		o->trial = h->trial;
		o->width = h->width;
		o->snr = h->snr;
		o->start = j * g->trial[h->trial].win + h->rel;
	}
	return SPS_OK;
}

/* The search of window j launched, its boxcars found added to those of
 * the step. */
static enum sps_err
launch_search(struct sps_gpu_search *g, uint64_t j)
{
	dim3 grid((unsigned)((g->o.window + (size_t)g->tile - 1) /
	    (size_t)g->tile), (unsigned)g->ntrials);

	if (g->boxdit) {
		boxdit_kernel<<<grid, BOXDIT_NT, g->smem, g->s>>>(g->d, j,
		    g->nbase, g->nnorm, g->finished, g->tile, g->na, g->nr,
		    g->nb, g->nw, g->d_found, g->d_nfound,
		    (unsigned)g->found_cap);
		CHECK_LAUNCH("boxdit_kernel");
	} else {
		search_kernel<<<grid, SEARCH_NT, g->smem, g->s>>>(g->d, j,
		    g->nbase, g->nnorm, g->finished, g->tile, g->d_found,
		    g->d_nfound, (unsigned)g->found_cap);
		CHECK_LAUNCH("search_kernel");
	}
	return SPS_OK;
}

/* The searches of windows j0 .. j1 - 1 launched one after the other on
 * the device, with no wait between them, their count of boxcars found
 * set to 0 first. */
static enum sps_err
launch_windows(struct sps_gpu_search *g, uint64_t j0, uint64_t j1)
{
	enum sps_err e;
	uint64_t j;

	CHECK(cudaMemsetAsync(g->d_nfound, 0, sizeof(unsigned), g->s));
	for (j = j0; j < j1; j++)
		if ((e = launch_search(g, j)) != SPS_OK)
			return e;
	return SPS_OK;
}

/* The device's time from k0 to k1, once k1 is reached, to the kernels'. */
static enum sps_err
add_kernel_time(struct sps_gpu_search *g)
{
	float ms = 0;

	CHECK(cudaEventSynchronize(g->k1));
	CHECK(cudaEventElapsedTime(&ms, g->k0, g->k1));
	g->kernel_ms += ms;
	return SPS_OK;
}

/* The boxcars found by the searches of windows j0 .. j1 - 1 (launched):
 * taken, or, when they found more than there was room for, the searches
 * made again with room for all (their time the kernels' too). */
static enum sps_err
windows_found(struct sps_gpu_search *g, uint64_t j0, uint64_t j1)
{
	enum sps_err e;
	unsigned n;

	for (;;) {
		CHECK(cudaMemcpyAsync(&n, g->d_nfound, sizeof(n),
		    cudaMemcpyDeviceToHost, g->s));
		CHECK(cudaStreamSynchronize(g->s));
		if (n <= g->found_cap)
			break;
		cudaFree(g->d_found);
		g->bytes -= g->found_cap * sizeof(struct dfound);
		g->found_cap = (size_t)n + n / 4;
		if (gpu_malloc((void **)&g->d_found, g->found_cap *
		    sizeof(struct dfound), "boxcars found", &g->bytes) !=
		    SPS_OK)
			return SPS_EIO;
		CHECK(cudaEventRecord(g->k0, g->s));
		if ((e = launch_windows(g, j0, j1)) != SPS_OK)
			return e;
		CHECK(cudaEventRecord(g->k1, g->s));
		if ((e = add_kernel_time(g)) != SPS_OK)
			return e;
	}
	sps_trace("GPU search: windows %llu to %llu searched, %u found",
	    (unsigned long long)j0, (unsigned long long)(j1 - 1), n);
	return take_found(g, j0, n);
}

/* Means of complete windows, normalisation of those whose next window's
 * mean is known, searches of those with lag normalised windows after
 * them; the kernels timed from the first launch to the last's end, not
 * the read-back of what they found. */
static enum sps_err
advance(struct sps_gpu_search *g)
{
	uint64_t complete = g->nbase / g->o.window, j0;
	enum sps_err e;

	if (g->finished && g->nbase % g->o.window != 0)
		complete++;
	CHECK(cudaEventRecord(g->k0, g->s));
	for (; g->nmean < complete; g->nmean++) {
		mean_kernel<<<g->ntrials, MEAN_NT, g->mean_cache *
		    sizeof(float), g->s>>>(g->d, g->nmean, g->nbase,
		    g->mean_cache);
		CHECK_LAUNCH("mean_kernel");
	}
	for (; g->nnorm + 1 < g->nmean || (g->finished && g->nnorm <
	    g->nmean); g->nnorm++) {
		norm_kernel<<<g->ntrials, NORM_NT, g->norm_cache *
		    sizeof(float), g->s>>>(g->d, g->nnorm, g->nbase,
		    g->norm_cache);
		CHECK_LAUNCH("norm_kernel");
	}
	for (j0 = g->nsearch; g->nsearch + (uint64_t)g->o.lag < g->nnorm ||
	    (g->finished && g->nsearch < g->nnorm); g->nsearch++)
		;
	if (g->nsearch > j0 && (e = launch_windows(g, j0, g->nsearch)) !=
	    SPS_OK)
		return e;
	CHECK(cudaEventRecord(g->k1, g->s));
	/* timed before an overflow's re-run records k0 and k1 again */
	if ((e = add_kernel_time(g)) != SPS_OK)
		return e;
	return g->nsearch > j0 ? windows_found(g, j0, g->nsearch) : SPS_OK;
}

/* Trial i's part of a block of n base samples starts at inoff[i]. */
static enum sps_err
block_offsets(struct sps_gpu_search *g, size_t n, size_t *total)
{
	size_t off = 0;
	int i;

	for (i = 0; i < g->ntrials; i++) {
		g->inoff[i] = off;
		off += n / (size_t)g->trial[i].f;
	}
	*total = off;
	if (n == g->inoff_n)
		return SPS_OK;
	g->inoff_n = n;
	return upload(g, g->d_inoff, g->inoff, (size_t)g->ntrials *
	    sizeof(size_t));
}

static enum sps_err
stage(struct sps_gpu_search *g, const void *block, size_t bytes)
{
	size_t floats = (bytes + sizeof(float) - 1) / sizeof(float);
	enum sps_err e;

	if (floats > g->stage_cap) {
		cudaFree(g->d_stage);
		g->bytes -= g->stage_cap * sizeof(float);
		g->stage_cap = 0;
		if ((e = gpu_malloc((void **)&g->d_stage, floats *
		    sizeof(float), "the DM-time block", &g->bytes)) != SPS_OK)
			return e;
		g->stage_cap = floats;
	}
	CHECK(cudaMemcpyAsync(g->d_stage, block, bytes, cudaMemcpyHostToDevice,
	    g->s));
	return SPS_OK;
}

static unsigned
copy_blocks(size_t part)
{
	size_t b = (part + 2047) / 2048;

	return (unsigned)(b < 1 ? 1 : b > 64 ? 64 : b);
}

/* A block on the device (src, floats, or raw, packed) copied into the
 * windows, each window searched as it fills. */
static enum sps_err
copy_in(struct sps_gpu_search *g, const float *src, const unsigned char *raw,
    int nbits, size_t n)
{
	size_t done = 0, part;
	enum sps_err e;

	/* up to each window's end, so a copy lands in one slot */
	for (; done < n; done += part) {
		size_t room = g->o.window - (size_t)(g->nbase % g->o.window);
		dim3 grid;

		part = n - done < room ? n - done : room;
		grid = dim3(copy_blocks(part), (unsigned)g->ntrials);
		/* a few blocks a trial, each thread a few samples: one
		 * sample a thread, the blocks' start-up would cost more than
		 * the copy */
		if (raw != NULL)
			copy_in_packed_kernel<<<grid, 256, 0, g->s>>>(g->d,
			    raw, g->d_inoff, g->d_unpack, nbits, done,
			    g->nbase, part);
		else
			copy_in_kernel<<<grid, 256, 0, g->s>>>(g->d, src,
			    g->d_inoff, done, g->nbase, part);
		CHECK_LAUNCH("copy_in_kernel");
		g->nbase += part;
		if (g->nbase % g->o.window == 0 && (e = advance(g)) != SPS_OK)
			return e;
	}
	CHECK(cudaStreamSynchronize(g->s));
	return SPS_OK;
}

extern "C" enum sps_err
sps_gpu_search_feed(struct sps_gpu_search *g, const float *block, size_t n,
    int on_device)
{
	size_t total;
	enum sps_err e;

	if (g->finished)
		return sps_fail(SPS_EUSAGE, "GPU search fed after its end");
	CHECK(cudaSetDevice(g->dev));
	if ((e = block_offsets(g, n, &total)) != SPS_OK ||
	    (!on_device && (e = stage(g, block, total * sizeof(float))) !=
	    SPS_OK))
		return e;
	return copy_in(g, on_device ? block : g->d_stage, NULL, 32, n);
}

/* Each trial's scale and offset for packed blocks of nbits (dmtime.h). */
static enum sps_err
unpack_params(struct sps_gpu_search *g, int nbits, double scale,
    double offset)
{
	double key[3] = { (double)nbits, scale, offset };
	double2 *u;
	enum sps_err e;
	int i;

	if (g->d_unpack != NULL && memcmp(key, g->unpack_key, sizeof(key)) ==
	    0)
		return SPS_OK;
	if (g->d_unpack == NULL && (e = dev_alloc(g, (void **)&g->d_unpack,
	    (size_t)g->ntrials * sizeof(*u), "the unpacking")) != SPS_OK)
		return e;
	if ((u = (double2 *)malloc((size_t)g->ntrials * sizeof(*u))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < g->ntrials; i++)
		u[i] = make_double2(scale * sqrt((double)g->trial[i].f),
		    offset * g->trial[i].f);
	e = upload(g, g->d_unpack, u, (size_t)g->ntrials * sizeof(*u));
	free(u);
	if (e == SPS_OK)
		memcpy(g->unpack_key, key, sizeof(key));
	return e;
}

extern "C" enum sps_err
sps_gpu_search_feed_packed(struct sps_gpu_search *g, const unsigned char *raw,
    size_t n, int nbits, double scale, double offset)
{
	size_t total;
	enum sps_err e;

	if (g->finished)
		return sps_fail(SPS_EUSAGE, "GPU search fed after its end");
	if (nbits != 8 && nbits != 16)
		return sps_fail(SPS_EUSAGE, "packed blocks of %d bits", nbits);
	CHECK(cudaSetDevice(g->dev));
	if ((e = unpack_params(g, nbits, scale, offset)) != SPS_OK ||
	    (e = block_offsets(g, n, &total)) != SPS_OK ||
	    (e = stage(g, raw, total * (size_t)(nbits / 8))) != SPS_OK)
		return e;
	return copy_in(g, NULL, (const unsigned char *)g->d_stage, nbits, n);
}

extern "C" enum sps_err
sps_gpu_search_finish(struct sps_gpu_search *g)
{
	if (g->finished)
		return SPS_OK;
	CHECK(cudaSetDevice(g->dev));
	g->finished = 1;
	return advance(g);
}

static int
by_trial(const void *a, const void *b)
{
	const struct sps_gpu_found *x = (const struct sps_gpu_found *)a;
	const struct sps_gpu_found *y = (const struct sps_gpu_found *)b;

	if (x->trial != y->trial)
		return x->trial < y->trial ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

extern "C" const struct sps_gpu_found *
sps_gpu_search_found(struct sps_gpu_search *g, size_t *n)
{
	/* windows searched in one step came one after the other */
	qsort(g->out, g->nout, sizeof(*g->out), by_trial);
	*n = g->nout;
	g->nout = 0;
	return g->out;
}

extern "C" uint64_t
sps_gpu_search_searched(const struct sps_gpu_search *g)
{
	if (g->finished && g->nsearch == g->nnorm)
		return g->nbase;
	return g->nsearch * g->o.window;
}

extern "C" enum sps_err
sps_gpu_search_counts(struct sps_gpu_search *g, unsigned long long *windows,
    unsigned long long *skipped, unsigned long long *nbad)
{
	size_t b = (size_t)g->ntrials * sizeof(unsigned long long);

	CHECK(cudaSetDevice(g->dev));
	CHECK(cudaStreamSynchronize(g->s));
	CHECK(cudaMemcpy(windows, g->d.windows, b, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(skipped, g->d.skipped, b, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(nbad, g->d.nbad, b, cudaMemcpyDeviceToHost));
	return SPS_OK;
}

extern "C" void
sps_gpu_search_info(const struct sps_gpu_search *g,
    struct sps_gpu_search_info *info)
{
	info->kernels = g->kernel_ms / 1e3;
	info->memory = g->bytes;
	info->tile = g->tile;
}

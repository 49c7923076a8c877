/* clip.cuh: sps_clipped_stats (lib/noise_clip.c) on the GPU, by a block
 * or by one warp, the block sums they are made of and the block's walks
 * over a window's samples (span_each, float4_rounds); included by
 * search.cu, whose noise model they serve.  The clipping's passes keep
 * the values noise_clip.c keeps (the same bounds, rounded the same way);
 * only the order of the float sums differs. */

/* ---- block reductions ---- */

__device__ static double
warp_sum(double v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

/* v summed over the warp, the same double in every lane (lane 0's). */
__device__ static double
warp_total(double v)
{
	return __shfl_sync(0xffffffffu, warp_sum(v), 0);
}

/* v[0..K) summed over the block, in every thread; sh holds BLOCK_SH
 * doubles, enough for K up to 3. */
#define BLOCK_SH	(3 * NOISE_NT / 32 + 3)
template <int K>
__device__ static void
block_sums(double *v, double *sh)
{
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;

#pragma unroll
	for (int k = 0; k < K; k++)
		v[k] = warp_sum(v[k]);
	__syncthreads();
	if (lane == 0)
#pragma unroll
		for (int k = 0; k < K; k++)
			sh[K * w + k] = v[k];
	__syncthreads();
	if (w == 0) {	/* a warp's shuffles, not one thread's loop */
#pragma unroll
		for (int k = 0; k < K; k++) {
			double x = warp_sum(lane < nw ? sh[K * lane + k] : 0);

			if (lane == 0)
				sh[K * nw + k] = x;
		}
	}
	__syncthreads();
#pragma unroll
	for (int k = 0; k < K; k++)
		v[k] = sh[K * nw + k];
}

/* use(q, v) for each float4 v = src[q], q < n4, by the block: R loads in
 * flight a thread before their uses (one at a time, each would wait on
 * device memory); a thread's q in span_each's order. */
template <int R, class U>
__device__ static void
float4_rounds(const float4 *src, unsigned n4, U use)
{
	for (unsigned q = threadIdx.x; q < n4; q += R * blockDim.x) {
		float4 v[R];

#pragma unroll
		for (int r = 0; r < R; r++)
			if (q + r * blockDim.x < n4)
				v[r] = src[q + r * blockDim.x];
#pragma unroll
		for (int r = 0; r < R; r++)
			if (q + r * blockDim.x < n4)
				use(q + r * blockDim.x, v[r]);
	}
}

/* f's sums s, q and c over the block, into v[0..3). */
template <class F>
__device__ static void
block_sums_of(const F &f, double *v, double *sh)
{
	v[0] = f.s;
	v[1] = f.q;
	v[2] = f.c;
	block_sums<3>(v, sh);
}

/* A window's samples: those before ns in the block's shared memory,
 * the rest at their place in global memory (g[i]). */
struct span {
	float	*sm;
	float	*g;
	size_t	 ns;
};

__device__ static float
span_at(const struct span *x, size_t i)
{
	return i < x->ns ? x->sm[i] : x->g[i];
}

__device__ static void
span_set(const struct span *x, size_t i, float v)
{
	if (i < x->ns)
		x->sm[i] = v;
	else
		x->g[i] = v;
}

__device__ static void
add_moment(float v, float shift, float lo, float hi, float *s, float *q,
    float *c)
{
	if (v >= lo && v <= hi) {
		float d = v - shift;

		*s += d;
		*q += d * d;
		*c += 1;
	}
}

/* f(v) for each of this thread's values of x[0..n): the shared part
 * four values a load, then the rest from global memory. */
template <class F>
__device__ static void
span_each(const struct span *x, size_t n, F &f)
{
	size_t ns = n < x->ns ? n : x->ns, k;
	const float *sm = x->sm, *g = x->g;
	const float4 *x4 = (const float4 *)sm;
	unsigned n4 = (unsigned)ns / 4, i;

#pragma unroll 2
	for (i = threadIdx.x; i < n4; i += blockDim.x) {
		float4 v = x4[i];

		f(v.x);
		f(v.y);
		f(v.z);
		f(v.w);
	}
	for (i = 4 * n4 + threadIdx.x; i < ns; i += blockDim.x)
		f(sm[i]);
#pragma unroll 4
	for (k = ns + threadIdx.x; k < n; k += blockDim.x)
		f(g[k]);
}

/* A thread's sums of the values in [lo, hi] relative to shift. */
struct moment_sums {
	float	shift, lo, hi, s, q, c;

	__device__ void operator()(float v)
	{
		add_moment(v, shift, lo, hi, &s, &q, &c);
	}
};

/* Count, mean and sum of squared deviations from sums relative to shift. */
__device__ static void
moments_of(double S, double Q, double C, double shift, double *cnt,
    double *mean, double *m2)
{
	*cnt = C;
	*mean = C > 0 ? shift + S / C : 0;
	*m2 = C > 0 ? fmax(Q - S * S / C, 0.0) : 0;
}

/* Count, mean and sum of squared deviations of the values of x[0..n) in
 * [lo, hi], summed in float relative to shift (as noise.c). */
__device__ static void
block_moments(const struct span *x, size_t n, float shift, float lo,
    float hi, double *sh, double *cnt, double *mean, double *m2)
{
	struct moment_sums f = { shift, lo, hi, 0, 0, 0 };
	double v[3];

	span_each(x, n, f);
	block_sums_of(f, v, sh);
	moments_of(v[0], v[1], v[2], shift, cnt, mean, m2);
}

__device__ static double
sd_of(double n, double m2)
{
	return n > 1 ? sqrt(m2 / (n - 1)) : 0;
}

/* The clipping's later passes change only which values near the bounds
 * are kept.  A full pass therefore sums, once, the values well inside
 * its bounds, [ilo, ihi], and keeps in shared memory those near them,
 * [olo, ilo) and (ihi, ohi].  While the bounds stay within those
 * margins, a pass is the inner sums (moved to its shift) plus the kept
 * values within the bounds: the same values as a full pass keeps, summed
 * in another order.  Those passes are one warp's, one after another,
 * without the block's barriers. */
#define EDGE_CAP	2048	/* values near the bounds a block keeps */
#define EDGE_MARGIN	0.1	/* of the bounds' half-width */

struct band {
	float		olo, ilo, ihi, ohi, shift;
	double		S, Q, C;	/* of the inner values, from shift */
	unsigned	nkept;
};

/* A full pass's inner sums and kept values, by one thread (the band's
 * bounds held here, in registers). */
struct band_sums {
	float		 ilo, ihi, olo, ohi, shift, *edge;
	unsigned	*nedge;
	float		 s, q, c;

	__device__ void operator()(float v)
	{
		if (v >= ilo && v <= ihi) {
			float d = v - shift;

			s += d;
			q += d * d;
			c += 1;
		} else if (v >= olo && v <= ohi) {
			unsigned at = atomicAdd(nedge, 1u);

			if (at < EDGE_CAP)
				edge[at] = v;
		}
	}
};

/* The band around [lo, hi] from a full pass over x[0..n), into the
 * shared *b by thread 0; whether its kept values fitted in keep. */
__device__ static int
band_pass(const struct span *x, size_t n, float shift, float lo, float hi,
    int keep, double *sh, float *edge, unsigned *nedge, struct band *b)
{
	float margin = (float)(EDGE_MARGIN * ((double)hi - (double)lo) / 2);
	struct band_sums f = { lo, hi, lo, hi, shift, edge, nedge, 0, 0, 0 };
	double v[3];

	if (isfinite(margin) && isfinite(lo) && isfinite(hi)) {
		f.ilo = lo + margin;
		f.ihi = hi - margin;
		f.olo = lo - margin;
		f.ohi = hi + margin;
	}
	if (threadIdx.x == 0)
		*nedge = 0;
	__syncthreads();
	span_each(x, n, f);
	block_sums_of(f, v, sh);
	if (threadIdx.x == 0) {
		b->olo = f.olo;
		b->ilo = f.ilo;
		b->ihi = f.ihi;
		b->ohi = f.ohi;
		b->shift = shift;
		b->S = v[0];
		b->Q = v[1];
		b->C = v[2];
		b->nkept = *nedge;
	}
	return *nedge <= (unsigned)keep;
}

/* Whether bounds [lo, hi] keep every inner value of the band and none
 * beyond its margins. */
__device__ static bool
band_holds(const struct band *b, float lo, float hi)
{
	return lo >= b->olo && lo <= b->ilo && hi >= b->ihi && hi <= b->ohi;
}

/* block_moments from the band, by one warp: the kept values within
 * [lo, hi] summed, the inner sums moved from their shift to this one. */
__device__ static void
warp_band_moments(const struct band *b, const float *edge, float shift,
    float lo, float hi, double *cnt, double *mean, double *m2)
{
	double dd = (double)shift - (double)b->shift, S, Q, C;
	float s = 0, q = 0, c = 0;

	for (unsigned i = threadIdx.x & 31; i < b->nkept; i += 32)
		add_moment(edge[i], shift, lo, hi, &s, &q, &c);
	S = warp_total(s) + b->S - b->C * dd;
	Q = warp_total(q) + b->Q - 2 * dd * b->S + b->C * dd * dd;
	C = warp_total(c) + b->C;
	moments_of(S, Q, C, shift, cnt, mean, m2);
}

/* The state of a clipping: its moments and passes. */
struct clip_state {
	double	C, M, M2;
	int	it, more;	/* passes made; whether to go on */
};

/* The bounds of a clipping pass: t standard deviations s about the mean
 * M. */
__device__ static void
clip_bounds(double M, double s, double t, float *lo, float *hi)
{
	*lo = (float)__dsub_rn(M, __dmul_rn(t, s));
	*hi = (float)__dadd_rn(M, __dmul_rn(t, s));
}

/* Whether sps_clipped_stats's loop goes on after a pass that moved the
 * count from pn and the mean from pm, at sd s. */
__device__ static int
clip_goes_on(const struct clip_state *cs, double pm, double pn, double s,
    double t)
{
	if (cs->C == pn && fabs(cs->M - pm) <= fmax(0.1 / cs->C, 1e-6) * s)
		return 0;
	return t > 0 && cs->C > 1 && cs->it < MAX_ITER;
}

/* One pass of sps_clipped_stats's loop, from the band where it holds
 * (-1: it does not; 0: done, the loop ends; 1: go on). */
__device__ static int
band_step(const struct band *b, const float *edge, double t,
    struct clip_state *cs)
{
	double s = sd_of(cs->C, cs->M2), pm = cs->M, pn = cs->C;
	float lo, hi;

	clip_bounds(cs->M, s, t, &lo, &hi);
	if (!band_holds(b, lo, hi))
		return -1;
	warp_band_moments(b, edge, (float)cs->M, lo, hi, &cs->C, &cs->M,
	    &cs->M2);
	cs->it++;
	return clip_goes_on(cs, pm, pn, s, t);
}

/* sps_clipped_stats's passes after its first, whose moments cs holds,
 * by one block: a full pass where the band does not hold, the passes
 * within it by warp 0; at most keep values kept near the bounds (0: no
 * band, every pass full). */
__device__ static double
clip_passes(const struct span *x, size_t n, double t, double clip,
    int keep, double *sh, struct clip_state cs, double *mean, double *sd)
{
	__shared__ float edge[EDGE_CAP];
	__shared__ unsigned nedge;
	__shared__ struct band b;
	__shared__ struct clip_state shared_cs;

	cs.more = t > 0 && cs.C > 1;
	while (cs.more) {
		double s = sd_of(cs.C, cs.M2);
		float lo, hi;

		clip_bounds(cs.M, s, t, &lo, &hi);
		if (keep <= 0 || !band_pass(x, n, (float)cs.M, lo, hi, keep,
		    sh, edge, &nedge, &b)) {	/* a plain pass */
			double pm = cs.M, pn = cs.C;

			block_moments(x, n, (float)cs.M, lo, hi, sh, &cs.C,
			    &cs.M, &cs.M2);
			cs.it++;
			cs.more = clip_goes_on(&cs, pm, pn, s, t);
			continue;
		}
		if (threadIdx.x < 32) {
			int r;

			__syncwarp();	/* thread 0's band */
			while ((r = band_step(&b, edge, t, &cs)) == 1)
				;
			cs.more = r < 0;
			if (threadIdx.x == 0)
				shared_cs = cs;
		}
		__syncthreads();
		cs = shared_cs;
		__syncthreads();
	}
	if (cs.C == 0) {
		*mean = *sd = NAN;
		return 0;
	}
	*mean = cs.M;
	*sd = sd_of(cs.C, cs.M2) / clip;
	return cs.C;
}

/* The first pass's sums: every finite value, relative to the first. */
struct first_sums {
	float	shift, s, q, c;

	__device__ void operator()(float v)
	{
		add_moment(v, shift, -FLT_MAX, FLT_MAX, &s, &q, &c);
	}
};

/* A first pass's moments from its sums in v[0..3), summed over the
 * block. */
__device__ static struct clip_state
first_moments(const double *v, float shift)
{
	struct clip_state cs = { 0, 0, 0, 0, 1 };

	moments_of(v[0], v[1], v[2], shift, &cs.C, &cs.M, &cs.M2);
	return cs;
}

/* sps_clipped_stats (noise.c) by one block (clip_passes after the first
 * pass). */
__device__ static double
block_clipped(const struct span *x, size_t n, double t, double clip,
    int keep, double *sh, double *mean, double *sd)
{
	struct first_sums f = { 0, 0, 0, 0 };
	double v[3];

	if (threadIdx.x == 0) {
		size_t i;

		for (i = 0; i < n && !isfinite(span_at(x, i)); i++)
			;
		sh[0] = i < n ? span_at(x, i) : 0;
	}
	__syncthreads();
	f.shift = (float)sh[0];
	__syncthreads();
	span_each(x, n, f);
	block_sums_of(f, v, sh);
	return clip_passes(x, n, t, clip, keep, sh, first_moments(v, f.shift),
	    mean, sd);
}

/* block_moments by one warp, the sums the same in every lane. */
__device__ static void
warp_moments(const float *x, unsigned n, float shift, float lo, float hi,
    double *cnt, double *mean, double *m2)
{
	float s = 0, q = 0, c = 0;
	double S, Q, C;

#pragma unroll 8	/* the loads in flight together */
	for (unsigned i = threadIdx.x & 31; i < n; i += 32)
		add_moment(x[i], shift, lo, hi, &s, &q, &c);
	S = warp_total(s);
	Q = warp_total(q);
	C = warp_total(c);
	*cnt = C;
	*mean = C > 0 ? shift + S / C : 0;
	*m2 = C > 0 ? fmax(Q - S * S / C, 0.0) : 0;
}

/* block_clipped by one warp, without the block's barriers: for the short
 * series of the noise rings. */
__device__ static void
warp_clipped(const float *x, unsigned n, double t, double clip,
    double *mean, double *sd)
{
	unsigned first = n, i;
	double C, M, M2;

	for (i = 0; i < n && first == n; i += 32) {
		unsigned k = i + (threadIdx.x & 31);
		unsigned fin = __ballot_sync(0xffffffffu, k < n &&
		    isfinite(x[k]));

		if (fin != 0)
			first = i + (unsigned)(__ffs((int)fin) - 1);
	}
	warp_moments(x, n, first < n ? x[first] : 0, -FLT_MAX, FLT_MAX, &C,
	    &M, &M2);
	for (int it = 0; t > 0 && C > 1 && it < MAX_ITER; it++) {
		double s = sd_of(C, M2), pm = M, pn = C;
		float lo = (float)__dsub_rn(M, __dmul_rn(t, s));
		float hi = (float)__dadd_rn(M, __dmul_rn(t, s));

		warp_moments(x, n, (float)M, lo, hi, &C, &M, &M2);
		if (C == pn && fabs(M - pm) <= fmax(0.1 / C, 1e-6) * s)
			break;
	}
	*mean = C > 0 ? M : NAN;
	*sd = C > 0 ? sd_of(C, M2) / clip : NAN;
}

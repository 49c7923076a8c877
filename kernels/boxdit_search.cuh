/* boxdit_search.cuh: the boxcar search of a BoxDIT (or exhaustive) plan
 * on the GPU, included by search.cu, whose window ring, plans and scales
 * it reads.  A block takes a tile of starts of one trial into shared
 * memory and makes there the same float additions, in the same order, as
 * boxdit() of lib/boxcar.c (the paper's eq. 13-15): running sums of x_i
 * from the starting sums X_i, then x_{i+1}[q] = x_i[2q + L_i] +
 * x_i[2q + L_i + 1].  Those S/N only screen, as on the CPU: a start whose
 * best is at or above the threshold is searched again with sums in
 * double over every width of the plan at it (sps_boxcar_search_ref), and
 * that result is the one found.  The screen compares each running sum
 * with the least sum whose rounded S/N reaches the threshold (exactly the
 * CPU's test, one instruction, not a product and a maximum), and a
 * thread takes four neighbouring starts, each sample loaded once for the
 * four: the double prefix sums of search_kernel cost far more. */

#ifndef BOXDIT_NT
#define BOXDIT_NT	512	/* threads of a block, two a multiprocessor */
#define BOXDIT_MINB	2
#endif

/* A trial's samples one after another from s, read from its window
 * ring (a division only where a window ends). */
struct run {
	const struct dstate	*d;
	const struct dtrial	*t;
	uint64_t		 s;
	const float		*p;
	unsigned		 left;
};

__device__ static float
run_next(struct run *r)
{
	if (r->left == 0) {
		unsigned off = (unsigned)(r->s % r->t->win);

		r->p = window_at(r->d, r->t, r->s / r->t->win) + off;
		r->left = (unsigned)r->t->win - off;
	}
	r->s++;
	r->left--;
	return *r->p++;
}

/* The double search of one start (q samples into the tile, sample s of
 * the trial), over the widths that end within room samples: from the
 * window ring, not the block's shared memory, where the series of later
 * levels have taken the place of the samples. */
__device__ static float
boxdit_refine(const struct dplan *p, const struct dstate *d,
    const struct dtrial *t, uint64_t s, unsigned q, long long room,
    const float *sc, int *width)
{
	struct run x = { d, t, s, NULL, 0 };
	double acc = 0;
	float best = -INFINITY;
	int pos = 0, bw = 0;

	for (int l = 0; l < p->nlevels; l++) {
		int nk = widths_within(p, l, room);

		if (q % (unsigned)p->sep[l] != 0)
			continue;
		for (int k = 0; k < nk; k++) {
			int w = p->first[l] + k * p->step[l];
			float v;

			for (; pos < w; pos++)
				acc = __dadd_rn(acc, (double)run_next(&x));
			v = (float)__dmul_rn(acc, (double)sc[p->wbase[l] + k]);
			if (v > best) {
				best = v;
				bw = w;
			}
		}
	}
	*width = bw;
	return best;
}

/* Flag start q of the tile. */
__device__ static void
boxdit_flag(unsigned *flag, unsigned q)
{
	atomicOr(&flag[q >> 5], 1u << (q & 31));
}

/* The floats' keys: their order as unsigned. */
__device__ static unsigned
float_key(float a)
{
	unsigned b = __float_as_uint(a);

	return b & 0x80000000u ? ~b : b | 0x80000000u;
}

/* The float whose key is k. */
__device__ static float
key_float(unsigned k)
{
	return __uint_as_float(k & 0x80000000u ? k & 0x7fffffffu : ~k);
}

/* The least float a whose rounded product a * s reaches thr, so that the
 * screen's acc * s >= thr is made exactly as acc >= bound: one
 * instruction, not two.  The product grows with a (s > 0): from thr / s,
 * a float or two from the answer, a few steps; a bisection over the
 * floats in their order if that fails.  NaN, which nothing reaches,
 * where no float does. */
__device__ static float
screen_bound(float s, float thr)
{
	unsigned lo = 0x007fffffu, hi = 0xff800000u;	/* -inf, +inf */
	float a = __fdiv_rn(thr, s);

	if (!(__fmul_rn(INFINITY, s) >= thr))
		return NAN;
	if (__fmul_rn(-INFINITY, s) >= thr)
		return -INFINITY;
	if (isfinite(a)) {
		unsigned k = float_key(a);

		for (int step = 0; step < 4; step++)
			if (!(__fmul_rn(key_float(k), s) >= thr))
				k++;
			else if (__fmul_rn(key_float(k - 1), s) >= thr)
				k--;
			else
				return key_float(k);
	}
	while (hi - lo > 1) {	/* lo falls short of thr, hi reaches it */
		unsigned mid = lo + (hi - lo) / 2;

		if (__fmul_rn(key_float(mid), s) >= thr)
			hi = mid;
		else
			lo = mid;
	}
	return key_float(hi);
}

/* One start, any number of widths: whether one of the first nk reaches
 * its bound and, in *acc, the sum of all K (the next level's starting
 * sum). */
__device__ static bool
boxdit_start(const float *x, int K, int nk, const float *bound, float *acc)
{
	float a = *acc;
	bool hit = false;
	int k;

	for (k = 0; k < nk; k++) {
		a = __fadd_rn(a, x[k]);
		hit = hit || a >= bound[k];
	}
	for (; k < K; k++)
		a = __fadd_rn(a, x[k]);
	*acc = a;
	return hit;
}

#define GROUP	4	/* starts a thread takes at once */

/* GROUP neighbouring starts, all K widths within reach, K known to the
 * compiler: the samples read four at a time, each once for the group,
 * the bounds in registers up to 16 widths (from shared memory above: the
 * registers would spill), a start's sums in the order of boxdit_start. */
template <int K>
__device__ static void
boxdit_group(const float *x, const float *Xp, const float *bound,
    const float *held, float *a, bool *hit)
{
	const float4 *x4 = (const float4 *)x;
	float4 c0 = x4[0];

#pragma unroll
	for (int r = 0; r < GROUP; r++) {
		a[r] = Xp != NULL ? Xp[r] : 0.0f;
		hit[r] = false;
	}
#pragma unroll
	for (int q = 0; q < K / 4; q++) {
		float4 c1 = x4[q + 1];
		float w[8] = { c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w };

#pragma unroll
		for (int u = 0; u < 4; u++) {
			float b = K <= 16 ? held[4 * q + u] : bound[4 * q + u];

#pragma unroll
			for (int r = 0; r < GROUP; r++) {
				a[r] = __fadd_rn(a[r], w[u + r]);
				hit[r] = hit[r] || a[r] >= b;
			}
		}
		c0 = c1;
	}
}

/* One start, all K widths within reach, K known to the compiler: for
 * levels with too few starts to give every thread a group. */
template <int K>
__device__ static bool
boxdit_one(const float *x, const float *bound, const float *held,
    float *acc)
{
	float a = *acc;
	bool hit = false;

#pragma unroll
	for (int k = 0; k < K; k++) {
		a = __fadd_rn(a, x[k]);
		hit = hit || a >= (K <= 16 ? held[k] : bound[k]);
	}
	*acc = a;
	return hit;
}

/* A level's starts in the tile, how many of them (the first) reach all
 * the level's widths, and the widths its code is made for (8, 16, 32;
 * 0: any): made once a block, not by every thread at every level (64-bit
 * divisions).  The last level, which makes no sums for a next one, may
 * take the code of more widths than it has: the screen bounds past its
 * last are +inf, and the series it reads has room past its end (what is
 * there can only flag a start, which the exact search then clears). */
#define BOUND_PAD	32	/* +inf bounds after the last level's */

struct blevel {
	unsigned	ns, nfull;
	int		k;
};

__device__ static int
level_code(const struct dplan *p, int l, unsigned ns, int room)
{
	int nw = p->nwidths[l], k = nw <= 8 ? 8 : nw <= 16 ? 16 : 32;

	if (nw == 8 || nw == 16 || nw == 32)
		return nw;
	if (l + 1 == p->nlevels && nw < 32 && (long long)ns + k + 4 <= room)
		return k;
	return 0;
}

__device__ static void
level_table(const struct dplan *p, unsigned nstarts, long long room0,
    int nr, int nb, struct blevel *lv)
{
	for (int l = threadIdx.x; l < p->nlevels; l += blockDim.x) {
		int sep = p->sep[l];
		long long last = p->first[l] + (long long)(p->nwidths[l] - 1) *
		    p->step[l];
		unsigned ns = (nstarts + (unsigned)sep - 1) / (unsigned)sep;

		lv[l].ns = ns;
		lv[l].nfull = room0 < last ? 0 : (unsigned)min((long long)ns,
		    (room0 - last) / sep + 1);
		lv[l].k = level_code(p, l, ns, l == 0 ? nr : l % 2 == 1 ? nb :
		    nr - nb);
	}
}

/* Level l's starts of the tile, from its series xi and the starting sums
 * Xp (NULL at level 0; Xp[m] for start m): flag those of which a width
 * reaches its bound; Xo (NULL at the last level) gets, for each even
 * start m, its sum of all the level's widths at Xo[m / 2]: the starting
 * sums of the next level, whose starts are every other one.  K, the level's widths, known
 * to the compiler (0: not), lets groups of starts share their loads:
 * the kernel is bound by its instructions.  Threads without a start
 * leave at once: at the upper levels most have none. */
template <int K>
__device__ static void
boxdit_level(const struct dplan *p, int l, const struct blevel *lv,
    const float *xi, const float *Xp, float *Xo, const float *bound,
    long long room0, unsigned *flag)
{
	unsigned ns = lv->ns, nfull = lv->nfull;
	int sep = p->sep[l], nw = p->nwidths[l];
	float held[K > 0 && K <= 16 ? K : 1];

	if (K > 0 && ns < GROUP * blockDim.x) {	/* a start a thread */
		if (threadIdx.x >= ns)
			return;
		if (K <= 16)
#pragma unroll
			for (int k = 0; k < (K > 0 && K <= 16 ? K : 1); k++)
				held[k] = bound[k];
		for (unsigned m = threadIdx.x; m < ns; m += blockDim.x) {
			float a = Xp != NULL ? Xp[m] : 0.0f;
			bool hit = m < nfull ? boxdit_one<K>(xi + m, bound, held,
			    &a) : boxdit_start(xi + m, nw, widths_within(p, l,
			    room0 - (long long)m * sep), bound, &a);

			if (Xo != NULL && m % 2 == 0)
				Xo[m / 2] = a;
			if (hit)
				boxdit_flag(flag, m * (unsigned)sep);
		}
		return;
	}
	if (GROUP * threadIdx.x >= ns)
		return;
	if (K > 0 && K <= 16)
#pragma unroll
		for (int k = 0; k < (K > 0 && K <= 16 ? K : 1); k++)
			held[k] = bound[k];
	for (unsigned m0 = GROUP * threadIdx.x; m0 < ns;
	    m0 += GROUP * blockDim.x) {
		float a[GROUP];
		bool hit[GROUP];
		int cnt = (int)min((unsigned)GROUP, ns - m0);

		if (K > 0 && m0 + GROUP <= nfull) {
			boxdit_group<K>(xi + m0, Xp != NULL ? Xp + m0 : NULL,
			    bound, held, a, hit);
			if (Xo != NULL)
				*(float2 *)(Xo + m0 / 2) = make_float2(a[0],
				    a[2]);
		} else
			for (int r = 0; r < cnt; r++) {
				unsigned m = m0 + (unsigned)r;

				a[r] = Xp != NULL ? Xp[m] : 0.0f;
				hit[r] = boxdit_start(xi + m, nw, widths_within(p,
				    l, room0 - (long long)m * sep), bound, &a[r]);
				if (Xo != NULL && m % 2 == 0)
					Xo[m / 2] = a[r];
			}
		for (int r = 0; r < cnt; r++)
			if (hit[r])
				boxdit_flag(flag, (m0 + (unsigned)r) *
				    (unsigned)sep);
	}
}

__device__ static void
boxdit_any_level(const struct dplan *p, int l, const struct blevel *lv,
    const float *xi, const float *Xp, float *Xo, const float *bound,
    long long room0, unsigned *flag)
{
	switch (lv->k) {
	case 8:
		boxdit_level<8>(p, l, lv, xi, Xp, Xo, bound, room0, flag);
		break;
	case 16:
		boxdit_level<16>(p, l, lv, xi, Xp, Xo, bound, room0, flag);
		break;
	case 32:
		boxdit_level<32>(p, l, lv, xi, Xp, Xo, bound, room0, flag);
		break;
	default:
		boxdit_level<0>(p, l, lv, xi, Xp, Xo, bound, room0, flag);
	}
}

/* dst[0..cnt) = src[0..cnt), zero from valid on, both 16-byte aligned:
 * four float4 loads in flight a thread (src, in its window's slot, holds
 * cnt floats; those from valid on are read but not kept). */
__device__ static void
load_run4(float *dst, const float *src, unsigned cnt, unsigned valid)
{
	float4 *d4 = (float4 *)dst;
	unsigned c4 = cnt / 4;

	float4_rounds<4>((const float4 *)src, c4, [&](unsigned q, float4 v) {
		if (4 * q + 3 >= valid) {
			v.x = 4 * q < valid ? v.x : 0;
			v.y = 4 * q + 1 < valid ? v.y : 0;
			v.z = 4 * q + 2 < valid ? v.z : 0;
			v.w = 0;
		}
		d4[q] = v;
	});
	for (unsigned k = 4 * c4 + threadIdx.x; k < cnt; k += blockDim.x)
		dst[k] = k < valid ? src[k] : 0.0f;
}

/* x0[0..na) = the trial's samples from s0, zero from vend on, copied
 * window by window of the ring. */
__device__ static void
boxdit_load(const struct dstate *d, const struct dtrial *t, uint64_t s0,
    uint64_t vend, float *x0, unsigned na)
{
	unsigned done = 0;

	while (done < na) {
		uint64_t s = s0 + done;
		unsigned off = (unsigned)(s % t->win);
		unsigned cnt = (unsigned)t->win - off;
		const float *src = window_at(d, t, s / t->win) + off;
		unsigned valid = s >= vend ? 0 : (unsigned)(vend - s < cnt ?
		    vend - s : cnt);

		if (cnt > na - done)
			cnt = na - done;
		if ((((uintptr_t)src | (uintptr_t)(x0 + done)) & 15) == 0) {
			load_run4(x0 + done, src, cnt, valid);
			done += cnt;
			continue;
		}
		/* four loads in flight a thread: a block waits on them alone */
		for (unsigned k = threadIdx.x; k < cnt; k += 4 * blockDim.x) {
			float v[4];

#pragma unroll
			for (int u = 0; u < 4; u++) {
				unsigned i = k + u * blockDim.x;

				v[u] = i < valid ? src[i] : 0.0f;
			}
#pragma unroll
			for (int u = 0; u < 4; u++)
				if (k + u * blockDim.x < cnt)
					x0[done + k + u * blockDim.x] = v[u];
		}
		done += cnt;
	}
}

/* x[r] = x[2r + f] + x[2r + f + 1] for r < m, in place
 * (in_place_rounds). */
__device__ static void
decimate_in_place(float *x, int f, int m)
{
	in_place_rounds((unsigned)m,
	    [&](unsigned i) { return __fadd_rn(x[2 * i + f], x[2 * i + f +
	    1]); },
	    [&](unsigned i, float v) { x[i] = v; });
}

/* Shared memory of a block: the series (nr floats: x_0, na of them, then
 * x_1 in its place, x_2 nb floats on, x_3 in x_1's place...), the
 * starting sums (tile / 2, then tile / 4), the scales and their screen
 * bounds (nw each, the bounds BOUND_PAD more) and a bit per start.  The
 * buffers are found by offsets from x0, not through pointers kept in an
 * array, so that the compiler knows them for shared memory. */
__global__ static void __launch_bounds__(BOXDIT_NT, BOXDIT_MINB)
boxdit_kernel(struct dstate d, uint64_t j, uint64_t nbase, uint64_t nnorm,
    int finished, int tile, int na, int nr, int nb, int nw,
    struct dfound *found, unsigned *nfound, unsigned cap)
{
	extern __shared__ float4 smem4[];
	float *x0 = (float *)smem4, *sums = x0 + nr;
	__shared__ struct dplan sp;
	__shared__ struct blevel lv[SPS_BOXCAR_MAXLEVELS];
	const struct dtrial tr = d.trial[blockIdx.y], *t = &tr;
	const struct dplan *p = plan_shared(&d.plan[t->plan], &sp);
	uint64_t len = nbase / (uint64_t)t->f, s0, vend;
	size_t n = window_len(t, j, len), t0 = (size_t)blockIdx.x * tile;
	size_t nstarts;
	int slot = blockIdx.y * d.nslots + (int)(j % d.nslots);
	double sigma = d.sigma[slot];
	float *sc = sums + tile / 2 + tile / 4, *bound = sc + nw;
	unsigned *flag = (unsigned *)(bound + nw + BOUND_PAD);
	float thr = (float)d.threshold;

	if (t0 >= n || !isfinite(sigma))
		return;
	nstarts = n - t0 < (size_t)tile ? n - t0 : (size_t)tile;
	s0 = j * t->win + t0;
	vend = finished ? len : nnorm * t->win;
	boxdit_load(&d, t, s0, vend, x0, (unsigned)na);
	for (int k = threadIdx.x; k < (tile + 31) / 32; k += blockDim.x)
		flag[k] = 0;
	__syncthreads();	/* the plan */
	scale_table(&d, p, sigma, d.rpar + (size_t)slot * d.rmax, sc);
	/* each thread the scales it made */
	for (int i = threadIdx.x; i < p->wbase[p->nlevels]; i += blockDim.x)
		bound[i] = screen_bound(sc[i], thr);
	for (int i = threadIdx.x; i < BOUND_PAD; i += blockDim.x)
		bound[p->wbase[p->nlevels] + i] = INFINITY;
	level_table(p, (unsigned)nstarts, (long long)(vend - s0), nr, nb, lv);
	__syncthreads();
	for (int l = 0; l < p->nlevels; l++) {
		const float *xi = x0 + (l == 0 ? 0 : ((l - 1) & 1) * nb);
		const float *Xp = l == 0 ? NULL : sums + ((l - 1) & 1) *
		    (tile / 2);
		float *xo = x0 + (l & 1) * nb;
		float *Xo = l + 1 < p->nlevels ? sums + (l & 1) * (tile / 2) :
		    NULL;

		boxdit_any_level(p, l, &lv[l], xi, Xp, Xo, bound +
		    p->wbase[l], (long long)(vend - s0), flag);
		if (Xo == NULL)
			break;
		if (l == 0) {	/* x_1 takes x_0's place */
			__syncthreads();
			decimate_in_place(x0, p->full[0], p->need[1]);
		} else
			for (int r = threadIdx.x; r < p->need[l + 1];
			    r += blockDim.x)
				xo[r] = __fadd_rn(xi[2 * r + p->full[l]],
				    xi[2 * r + p->full[l] + 1]);
		__syncthreads();
	}
	__syncthreads();
	for (unsigned q = threadIdx.x; q < nstarts; q += blockDim.x) {
		int w;
		float best;

		if (!(flag[q >> 5] >> (q & 31) & 1))
			continue;
		best = boxdit_refine(p, &d, t, s0 + q, q, (long long)(vend -
		    s0 - q), sc, &w);
		if (best >= thr) {
			unsigned at = atomicAdd(nfound, 1u);

			if (at < cap) {
				found[at].trial = blockIdx.y;
				found[at].width = w;
				found[at].snr = best;
				found[at].rel = (unsigned)(t0 + q);
				found[at].window = (unsigned)j;
			}
		}
	}
}

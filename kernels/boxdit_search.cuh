/* boxdit_search.cuh: the boxcar search of a BoxDIT (or exhaustive) plan
 * on the GPU, included by search.cu, whose window ring, plans and scales
 * it reads.  A block takes a tile of starts of one trial into shared
 * memory and makes there the same float additions, in the same order, as
 * boxdit() of lib/boxcar.c (the paper's eq. 13-15): running sums of x_i
 * from the starting sums X_i, then x_{i+1}[q] = x_i[2q + L_i] +
 * x_i[2q + L_i + 1].  Those S/N only screen, as on the CPU: a start whose
 * best is at or above the threshold is searched again with sums in
 * double over every width of the plan at it (sps_boxcar_search_ref), and
 * that result is the one found.  So each sample is read from shared
 * memory once a width, as a float, without bank conflicts: the double
 * prefix sums of search_kernel cost 5 times as much. */

#define BOXDIT_NT	1024

/* The double search of one start (q samples into the tile, whose samples
 * x0 holds), over the widths that end within room samples. */
__device__ static float
boxdit_refine(const struct dplan *p, const float *x0, unsigned q,
    long long room, const float *sc, int *width)
{
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
				acc = __dadd_rn(acc, (double)x0[q + pos]);
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

/* One start of level l, any number of widths: its best S/N and, in *acc,
 * the sum of all K widths (the next level's starting sum). */
__device__ static float
boxdit_start(const float *x, int K, int nk, const float *scl, float *acc)
{
	float a = *acc, best = -INFINITY;
	int k;

	for (k = 0; k < nk; k++) {
		a = __fadd_rn(a, x[k]);
		best = fmaxf(best, __fmul_rn(a, scl[k]));
	}
	for (; k < K; k++)
		a = __fadd_rn(a, x[k]);
	*acc = a;
	return best;
}

/* Level l's starts of the tile: flag those whose best S/N reaches thr;
 * Xo (NULL at the last level) gets each start's sum of all the level's
 * widths, the next level's starting sums.  K, the level's widths, known
 * to the compiler (0: not), unrolls the loop and keeps the scales in
 * registers: the kernel is bound by its instructions. */
template <int K>
__device__ static void
boxdit_level(const struct dplan *p, int l, const float *xi, const float *Xp,
    float *Xo, const float *scl, unsigned nstarts, long long room0,
    float thr, unsigned *flag)
{
	int sep = p->sep[l], nw = p->nwidths[l];
	unsigned ns = (nstarts + (unsigned)sep - 1) / (unsigned)sep;
	float s[K > 0 ? K : 1];

	if (K > 0)
#pragma unroll
		for (int k = 0; k < K; k++)
			s[k] = scl[k];
	for (unsigned m = threadIdx.x; m < ns; m += blockDim.x) {
		int nk = widths_within(p, l, room0 - (long long)m * sep);
		float acc = Xp != NULL ? Xp[2 * m] : 0.0f, best = -INFINITY;
		const float *x = xi + m;

		if (K > 0 && nk == K) {
#pragma unroll
			for (int k = 0; k < K; k++) {
				acc = __fadd_rn(acc, x[k]);
				best = fmaxf(best, __fmul_rn(acc, s[k]));
			}
		} else
			best = boxdit_start(x, nw, nk, scl, &acc);
		if (Xo != NULL)
			Xo[m] = acc;
		if (best >= thr)
			boxdit_flag(flag, m * (unsigned)sep);
	}
}

__device__ static void
boxdit_any_level(const struct dplan *p, int l, const float *xi,
    const float *Xp, float *Xo, const float *scl, unsigned nstarts,
    long long room0, float thr, unsigned *flag)
{
	switch (p->nwidths[l]) {
	case 8:
		boxdit_level<8>(p, l, xi, Xp, Xo, scl, nstarts, room0, thr,
		    flag);
		break;
	case 16:
		boxdit_level<16>(p, l, xi, Xp, Xo, scl, nstarts, room0, thr,
		    flag);
		break;
	case 32:
		boxdit_level<32>(p, l, xi, Xp, Xo, scl, nstarts, room0, thr,
		    flag);
		break;
	default:
		boxdit_level<0>(p, l, xi, Xp, Xo, scl, nstarts, room0, thr,
		    flag);
	}
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

/* Shared memory of a block: x_0 (na floats), two buffers of decimated
 * series (nb each), the starting sums (tile + tile / 2), the scales (nw)
 * and a bit per start. */
__global__ static void __launch_bounds__(BOXDIT_NT)
boxdit_kernel(struct dstate d, uint64_t j, uint64_t nbase, uint64_t nnorm,
    int finished, int tile, int na, int nb, int nw, struct dfound *found,
    unsigned *nfound, unsigned cap)
{
	extern __shared__ float x0[];
	const struct dtrial *t = &d.trial[blockIdx.y];
	const struct dplan *p = &d.plan[t->plan];
	uint64_t len = nbase / (uint64_t)t->f, s0, vend;
	size_t n = window_len(t, j, len), t0 = (size_t)blockIdx.x * tile;
	size_t nstarts;
	int slot = blockIdx.y * d.nslots + (int)(j % d.nslots);
	double sigma = d.sigma[slot];
	float *xb[2], *X[2], *sc;
	const float *xi = x0, *Xp = NULL;
	unsigned *flag;
	float thr = (float)d.threshold;

	if (t0 >= n || !isfinite(sigma))
		return;
	nstarts = n - t0 < (size_t)tile ? n - t0 : (size_t)tile;
	s0 = j * t->win + t0;
	vend = finished ? len : nnorm * t->win;
	xb[0] = x0 + na;
	xb[1] = xb[0] + nb;
	X[0] = xb[1] + nb;
	X[1] = X[0] + tile;
	sc = X[1] + tile / 2;
	flag = (unsigned *)(sc + nw);
	boxdit_load(&d, t, s0, vend, x0, (unsigned)na);
	for (int k = threadIdx.x; k < (tile + 31) / 32; k += blockDim.x)
		flag[k] = 0;
	scale_table(&d, p, sigma, d.rpar + (size_t)slot * d.rmax, sc);
	__syncthreads();
	for (int l = 0; l < p->nlevels; l++) {
		float *Xo = l + 1 < p->nlevels ? X[l & 1] : NULL;

		boxdit_any_level(p, l, xi, Xp, Xo, sc + p->wbase[l],
		    (unsigned)nstarts, (long long)(vend - s0), thr, flag);
		if (Xo == NULL)
			break;
		for (int r = threadIdx.x; r < p->need[l + 1]; r += blockDim.x)
			xb[l & 1][r] = __fadd_rn(xi[2 * r + p->full[l]],
			    xi[2 * r + p->full[l] + 1]);
		__syncthreads();
		xi = xb[l & 1];
		Xp = Xo;
	}
	__syncthreads();
	for (unsigned q = threadIdx.x; q < nstarts; q += blockDim.x) {
		int w;
		float best;

		if (!(flag[q >> 5] >> (q & 31) & 1))
			continue;
		best = boxdit_refine(p, x0, q, (long long)(vend - s0 - q), sc,
		    &w);
		if (best >= thr) {
			unsigned at = atomicAdd(nfound, 1u);

			if (at < cap) {
				found[at].trial = blockIdx.y;
				found[at].width = w;
				found[at].snr = best;
				found[at].rel = (unsigned)(t0 + q);
			}
		}
	}
}

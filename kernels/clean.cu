/* clean.cu: sps-clean's cleaning on the GPU (lib/gpu_clean.h): the sums
 * on the device, the decisions on the host (clean.h), the samples
 * changed in place on the device.  Every float operation that the CPU
 * does in float is spelt with its rounding (__fadd_rn, ...) so that the
 * compiler cannot fuse it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_clean.h"
#include "gpu_util.h"
extern "C" {
#include "clean.h"
#include "cleanbatch.h"
#include "clock.h"
}

#define NT	256	/* threads of a block */
#define SEG	256	/* spectra a partial sum covers */

enum { APPLY_PLAIN, APPLY_ZERODM, APPLY_ZDOT };

/* The packing of the spectra. */
struct fmt {
	int	 nchans, nbits, is_signed;
	size_t	 bytes;		/* a spectrum */
	float	 lo, hi;	/* the values nbits holds */
};

/* The run's blocks, as the kernels read them. */
struct runtab {
	const int	*first, *len;	/* each block's spectra */
	const int	*seg0, *nseg;	/* its partial sums */
	const int	*seg_first, *seg_len;
	const int	*spec_block;	/* each spectrum's block */
	const int	*kept;		/* channels kept in each block */
};

struct sps_gpu_clean {
	int		 dev;
	struct fmt	 f;
	size_t		 maxspectra;
	int		 cap_blocks, cap_segs;
	/* device */
	int		*d_tab;		/* the runtab's arrays, one buffer */
	double		*d_part;	/* cap_segs x nchans, twice */
	double		*d_sums;	/* cap_blocks x nchans: s1, s2, badsum,
					 * zdot's factors */
	unsigned char	*d_mask;	/* cap_blocks x nchans */
	float		*d_bp;		/* cap_blocks x nchans, twice */
	double		*d_zstat;	/* cap_blocks x 2 */
	float		*d_z;		/* maxspectra */
	double		*d_ssum;	/* maxspectra */
	unsigned char	*d_bad;		/* maxspectra */
	unsigned long long *d_clipped;	/* values rounded into range */
	unsigned char	*d_raw;		/* sps_gpu_clean_host's spectra */
	cudaStream_t	 stream;	/* sps_gpu_clean_host's */
	/* host */
	int		*h_tab;
	double		*h_sums;	/* 3 cap_blocks x nchans */
	unsigned char	*h_mask, *h_flags;
	float		*h_bp;		/* bandpass, then shares */
	float		*h_z;
	unsigned char	*h_bad;
	struct sps_clean_block *blk;
	double		 seconds;
	unsigned long long clipped;
};

/* ---- the samples ---- */

__device__ static float
value_at(const unsigned char *s, int c, struct fmt f)
{
	switch (f.nbits) {
	case 8:
		return f.is_signed ? (float)(signed char)s[c] : (float)s[c];
	case 16:
		return (float)(s[2 * c] | s[2 * c + 1] << 8);
	case 32: {
		float v;

		memcpy(&v, s + 4 * (size_t)c, sizeof(v));
		return v;
	}
	default: {
		int per = 8 / f.nbits;

		return (float)(s[c / per] >> (c % per * f.nbits) &
		    ((1 << f.nbits) - 1));
	}
	}
}

/* v rounded to the nearest value nbits holds, as sps_pack rounds it;
 * *out counts one from outside the range (NaN too), as sps_pack does. */
__device__ static int
quantised(float v, struct fmt f, unsigned *out)
{
	float q = rintf(v);

	*out += v != v || v < f.lo - 0.5f || v >= f.hi + 0.5f;
	q = q < f.lo ? f.lo : q;
	q = q > f.hi ? f.hi : q;
	return v != v ? 0 : (int)q;
}

/* The sample after replacement. */
__device__ static float
replaced(const unsigned char *s, int c, int t, int b, struct fmt f,
    const unsigned char *bad, const unsigned char *mask, const float *bp)
{
	size_t bc = (size_t)b * f.nchans + c;

	return bad[t] || mask[bc] ? bp[bc] : value_at(s, c, f);
}

/* ---- the sums ---- */

/* Each channel's sum and sum of squares over each segment. */
__global__ static void
partial_sums(const unsigned char *raw, struct fmt f, struct runtab r,
    double *p1, double *p2)
{
	int c = blockIdx.x * NT + threadIdx.x, g = blockIdx.y, t;
	const unsigned char *s = raw + (size_t)r.seg_first[g] * f.bytes;
	double a = 0, b = 0;

	if (c >= f.nchans)
		return;
	for (t = 0; t < r.seg_len[g]; t++, s += f.bytes) {
		double v = value_at(s, c, f);

		a += v;
		b += v * v;
	}
	p1[(size_t)g * f.nchans + c] = a;
	p2[(size_t)g * f.nchans + c] = b;
}

/* The segments of each block added in order. */
__global__ static void
block_sums(struct fmt f, struct runtab r, const double *p1, const double *p2,
    double *s1, double *s2)
{
	int c = blockIdx.x * NT + threadIdx.x, b = blockIdx.y, g;
	double a = 0, q = 0;

	if (c >= f.nchans)
		return;
	for (g = r.seg0[b]; g < r.seg0[b] + r.nseg[b]; g++) {
		a += p1[(size_t)g * f.nchans + c];
		q += p2[(size_t)g * f.nchans + c];
	}
	s1[(size_t)b * f.nchans + c] = a;
	s2[(size_t)b * f.nchans + c] = q;
}

/* sum over the threads of a block, in a fixed order */
__device__ static double
block_total(double v, double *shared)
{
	int k;

	shared[threadIdx.x] = v;
	__syncthreads();
	for (k = NT / 2; k > 0; k /= 2) {
		if (threadIdx.x < k)
			shared[threadIdx.x] += shared[threadIdx.x + k];
		__syncthreads();
	}
	return shared[0];
}

/* Each spectrum's sum over the channels kept: of the samples as they are
 * (z), or after replacement (ssum), or their mean after replacement
 * (z, zdot's series). */
__global__ static void
spectrum_sums(const unsigned char *raw, struct fmt f, struct runtab r,
    const unsigned char *mask, const unsigned char *bad, const float *bp,
    int after, int mean, float *z, double *ssum)
{
	__shared__ double shared[NT];
	int t = blockIdx.x, b = r.spec_block[t], c;
	const unsigned char *s = raw + (size_t)t * f.bytes;
	const unsigned char *m = mask + (size_t)b * f.nchans;
	double sum = 0;

	for (c = threadIdx.x; c < f.nchans; c += NT)
		if (!m[c])
			sum += after ? replaced(s, c, t, b, f, bad, mask, bp) :
			    value_at(s, c, f);
	sum = block_total(sum, shared);
	if (threadIdx.x != 0)
		return;
	if (ssum != NULL)
		ssum[t] = sum;
	else if (mean)
		z[t] = r.kept[b] > 0 ? (float)(sum / r.kept[b]) : 0;
	else
		z[t] = (float)sum;
}

/* Each channel's sum over the spectra clipped in each block. */
__global__ static void
bad_sums(const unsigned char *raw, struct fmt f, struct runtab r,
    const unsigned char *bad, double *badsum)
{
	int c = blockIdx.x * NT + threadIdx.x, b = blockIdx.y, t;
	double a = 0;

	if (c >= f.nchans)
		return;
	for (t = r.first[b]; t < r.first[b] + r.len[b]; t++)
		if (bad[t])
			a += value_at(raw + (size_t)t * f.bytes, c, f);
	badsum[(size_t)b * f.nchans + c] = a;
}

/* zdot: each block's mean of the series z and its sum of squared
 * deviations. */
__global__ static void
series_stats(struct runtab r, const float *z, double *zstat)
{
	__shared__ double shared[NT];
	int b = blockIdx.x, n = r.len[b], t;
	const float *zb = z + r.first[b];
	double sum = 0, mean, var = 0;

	for (t = threadIdx.x; t < n; t += NT)
		sum += zb[t];
	mean = block_total(sum, shared) / n;
	__syncthreads();
	for (t = threadIdx.x; t < n; t += NT)
		var += (zb[t] - mean) * (zb[t] - mean);
	var = block_total(var, shared);
	if (threadIdx.x == 0) {
		zstat[2 * b] = mean;
		zstat[2 * b + 1] = var;
	}
}

/* zdot: each kept channel's least-squares factor on the series (0 where
 * the series does not vary, as on the CPU, which then changes nothing). */
__global__ static void
zdot_factors(const unsigned char *raw, struct fmt f, struct runtab r,
    const unsigned char *mask, const unsigned char *bad, const float *bp,
    const float *z, const double *zstat, double *k)
{
	int c = blockIdx.x * NT + threadIdx.x, b = blockIdx.y, t;
	double cov = 0;

	if (c >= f.nchans)
		return;
	for (t = r.first[b]; t < r.first[b] + r.len[b]; t++)
		cov += (double)replaced(raw + (size_t)t * f.bytes, c, t, b, f,
		    bad, mask, bp) * (z[t] - zstat[2 * b]);
	k[(size_t)b * f.nchans + c] = zstat[2 * b + 1] > 0 ? cov /
	    zstat[2 * b + 1] : 0;
}

/* ---- the samples changed ---- */

struct apply_args {
	int		 mode;
	const unsigned char *mask, *bad;
	const float	*bp, *share;	/* share: zero-DM's */
	const double	*ssum;		/* zero-DM: each spectrum's sum */
	const float	*z;		/* zdot: the series */
	const double	*zstat, *k;	/* zdot: its mean, the factors */
};

__device__ static float
cleaned(const unsigned char *s, int c, int t, int b, struct fmt f,
    const struct apply_args *a)
{
	size_t bc = (size_t)b * f.nchans + c;
	float v = replaced(s, c, t, b, f, a->bad, a->mask, a->bp);

	if (a->mask[bc] || a->mode == APPLY_PLAIN)
		return v;
	if (a->mode == APPLY_ZERODM)
		return __fadd_rn(v, __fsub_rn(a->bp[bc],
		    __fmul_rn((float)a->ssum[t], a->share[bc])));
	return __fsub_rn(v, __fmul_rn((float)a->k[bc],
	    (float)(a->z[t] - a->zstat[2 * b])));
}

/* One unit of a spectrum (a byte of sub-byte or 8-bit values, a 16- or
 * 32-bit value) cleaned and written back in place. */
__global__ static void
apply(unsigned char *raw, struct fmt f, struct runtab r, size_t units,
    size_t n, struct apply_args a, unsigned long long *clipped)
{
	size_t i = (size_t)blockIdx.x * NT + threadIdx.x, t = i / units;
	int u = (int)(i % units), b, per, k;
	unsigned out = 0;
	unsigned char *s;

	if (t >= n)
		return;
	b = r.spec_block[t];
	s = raw + t * f.bytes;
	if (f.nbits == 32) {
		float v = cleaned(s, u, (int)t, b, f, &a);

		memcpy(s + 4 * (size_t)u, &v, sizeof(v));
	} else if (f.nbits == 16) {
		int q = quantised(cleaned(s, u, (int)t, b, f, &a), f, &out);

		s[2 * u] = (unsigned char)(q & 0xff);
		s[2 * u + 1] = (unsigned char)(q >> 8);
	} else {
		unsigned byte = 0;

		per = 8 / f.nbits;
		for (k = 0; k < per && u * per + k < f.nchans; k++)
			byte |= (unsigned)(quantised(cleaned(s, u * per + k,
			    (int)t, b, f, &a), f, &out) & ((1 << f.nbits) - 1))
			    << (k * f.nbits);
		s[u] = (unsigned char)byte;
	}
	if (out > 0)
		atomicAdd(clipped, (unsigned long long)out);
}

/* ---- the host: memory ---- */

/* The runtab's arrays in one int buffer: first, len, seg0, nseg, kept
 * (cap_blocks each), seg_first, seg_len (cap_segs each), spec_block
 * (maxspectra). */
static size_t
tab_ints(int cap_blocks, int cap_segs, size_t maxspectra)
{
	return 5 * (size_t)cap_blocks + 2 * (size_t)cap_segs + maxspectra;
}

static struct runtab
tab_of(const int *base, int cap_blocks, int cap_segs)
{
	struct runtab r;

	r.first = base;
	r.len = base + cap_blocks;
	r.seg0 = base + 2 * cap_blocks;
	r.nseg = base + 3 * cap_blocks;
	r.kept = base + 4 * cap_blocks;
	r.seg_first = base + 5 * cap_blocks;
	r.seg_len = r.seg_first + cap_segs;
	r.spec_block = r.seg_len + cap_segs;
	return r;
}

static void
free_buffers(struct sps_gpu_clean *g)
{
	cudaFree(g->d_tab), cudaFree(g->d_part), cudaFree(g->d_sums);
	cudaFree(g->d_mask), cudaFree(g->d_bp), cudaFree(g->d_zstat);
	free(g->h_tab), free(g->h_sums), free(g->h_mask), free(g->h_bp);
	free(g->h_flags);
	free(g->blk);
	g->d_tab = NULL, g->d_part = NULL, g->d_sums = NULL;
	g->d_mask = NULL, g->d_bp = NULL, g->d_zstat = NULL;
	g->h_tab = NULL, g->h_sums = NULL, g->h_mask = NULL, g->h_bp = NULL;
	g->h_flags = NULL;
	g->blk = NULL;
	g->cap_blocks = g->cap_segs = 0;
}

/* Room for runs of nb blocks and ns segments. */
static enum sps_err
reserve(struct sps_gpu_clean *g, int nb, int ns)
{
	size_t nc = (size_t)g->f.nchans, ints;
	enum sps_err e;

	if (nb <= g->cap_blocks && ns <= g->cap_segs)
		return SPS_OK;
	free_buffers(g);
	g->cap_blocks = nb;
	g->cap_segs = ns;
	ints = tab_ints(nb, ns, g->maxspectra);
	if ((e = gpu_malloc((void **)&g->d_tab, ints * sizeof(int),
	    "cleaning tables", NULL)) != SPS_OK ||
	    (e = gpu_malloc((void **)&g->d_part, 2 * ns * nc * sizeof(double),
	    "cleaning sums", NULL)) != SPS_OK ||
	    (e = gpu_malloc((void **)&g->d_sums, 4 * nb * nc * sizeof(double),
	    "cleaning sums", NULL)) != SPS_OK ||
	    (e = gpu_malloc((void **)&g->d_mask, nb * nc, "cleaning masks",
	    NULL)) != SPS_OK ||
	    (e = gpu_malloc((void **)&g->d_bp, 2 * nb * nc * sizeof(float),
	    "cleaning bandpasses", NULL)) != SPS_OK ||
	    (e = gpu_malloc((void **)&g->d_zstat, 2 * nb * sizeof(double),
	    "cleaning series", NULL)) != SPS_OK)
		return e;
	g->h_tab = (int *)malloc(ints * sizeof(int));
	g->h_sums = (double *)malloc(3 * nb * nc * sizeof(double));
	g->h_mask = (unsigned char *)malloc(nb * nc);
	g->h_flags = (unsigned char *)malloc(nb * nc);
	g->h_bp = (float *)malloc(2 * nb * nc * sizeof(float));
	g->blk = (struct sps_clean_block *)calloc(nb, sizeof(*g->blk));
	if (g->h_tab == NULL || g->h_sums == NULL || g->h_mask == NULL ||
	    g->h_flags == NULL || g->h_bp == NULL || g->blk == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	return SPS_OK;
}

static enum sps_err
load_kernels(void)
{
	const void *k[] = { (const void *)partial_sums,
	    (const void *)block_sums, (const void *)spectrum_sums,
	    (const void *)bad_sums, (const void *)series_stats,
	    (const void *)zdot_factors, (const void *)apply };

	return gpu_load_kernels(k, sizeof(k) / sizeof(k[0]));
}

extern "C" void
sps_gpu_clean_preload(int dev)
{
	gpu_preload(dev, load_kernels);
}

extern "C" enum sps_err
sps_gpu_clean_create(struct sps_gpu_clean **gp, int dev,
    const struct sps_header *h, size_t maxspectra)
{
	struct sps_gpu_clean *g;
	size_t n = maxspectra;
	enum sps_err e;

	*gp = NULL;
	if ((g = (struct sps_gpu_clean *)calloc(1, sizeof(*g))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	g->dev = dev;
	g->maxspectra = n;
	g->f.nchans = h->nchans;
	g->f.nbits = h->nbits;
	g->f.is_signed = h->nbits == 8 && h->sign < 0;
	g->f.bytes = sps_spectrum_bytes(h);
	g->f.lo = g->f.is_signed ? -128.0f : 0.0f;
	g->f.hi = g->f.is_signed ? 127.0f : h->nbits >= 32 ? 0.0f :
	    (float)((1UL << h->nbits) - 1);
	if ((e = cudaSetDevice(dev) == cudaSuccess ? SPS_OK :
	    gpu_cuda_fail(cudaGetLastError(), "cudaSetDevice")) != SPS_OK ||
	    (e = gpu_malloc((void **)&g->d_z, n * sizeof(float),
	    "the cleaning's series", NULL)) != SPS_OK ||
	    (e = gpu_malloc((void **)&g->d_ssum, n * sizeof(double),
	    "the cleaning's series", NULL)) != SPS_OK ||
	    (e = gpu_malloc((void **)&g->d_bad, n, "the cleaning's flags",
	    NULL)) != SPS_OK ||
	    (e = gpu_malloc((void **)&g->d_clipped, sizeof(*g->d_clipped),
	    "the cleaning's count", NULL)) != SPS_OK ||
	    (e = cudaMemset(g->d_clipped, 0, sizeof(*g->d_clipped)) ==
	    cudaSuccess ? SPS_OK : gpu_cuda_fail(cudaGetLastError(),
	    "cudaMemset")) != SPS_OK ||
	    (e = reserve(g, (int)(n / SPS_CLEAN_BLOCK + 2),
	    (int)(n / SEG + n / SPS_CLEAN_BLOCK + 2))) != SPS_OK ||
	    (g->h_z = (float *)malloc(n * sizeof(float))) == NULL ||
	    (g->h_bad = (unsigned char *)malloc(n)) == NULL) {
		sps_gpu_clean_free(g);
		return e != SPS_OK ? e : sps_fail(SPS_ENOMEM, "out of memory");
	}
	*gp = g;
	return SPS_OK;
}

extern "C" void
sps_gpu_clean_free(struct sps_gpu_clean *g)
{
	if (g == NULL)
		return;
	cudaSetDevice(g->dev);
	free_buffers(g);
	cudaFree(g->d_z), cudaFree(g->d_ssum), cudaFree(g->d_bad);
	cudaFree(g->d_clipped), cudaFree(g->d_raw);
	if (g->stream != NULL)
		cudaStreamDestroy(g->stream);
	free(g->h_z), free(g->h_bad);
	free(g);
}

extern "C" enum sps_err
sps_gpu_clean_fetch(struct sps_gpu_clean *g, void *host, const void *dev,
    size_t bytes, void *stream)
{
	CHECK(cudaSetDevice(g->dev));
	if (bytes > 0)
		CHECK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost,
		    (cudaStream_t)stream));
	CHECK(cudaMemcpyAsync(&g->clipped, g->d_clipped, sizeof(g->clipped),
	    cudaMemcpyDeviceToHost, (cudaStream_t)stream));
	CHECK(cudaStreamSynchronize((cudaStream_t)stream));
	return SPS_OK;
}

extern "C" enum sps_err
sps_gpu_clean_host(struct sps_gpu_clean *g, struct sps_cleanstream *cs,
    unsigned char *raw, size_t n, uint64_t at)
{
	size_t bytes = n * g->f.bytes;
	enum sps_err e;

	CHECK(cudaSetDevice(g->dev));
	if (g->stream == NULL && (e = gpu_stream_create(&g->stream)) != SPS_OK)
		return e;
	if (g->d_raw == NULL && (e = gpu_malloc((void **)&g->d_raw,
	    g->maxspectra * g->f.bytes, "the spectra to clean", NULL)) !=
	    SPS_OK)
		return e;
	CHECK(cudaMemcpyAsync(g->d_raw, raw, bytes, cudaMemcpyHostToDevice,
	    g->stream));
	if ((e = sps_gpu_clean_run(g, cs, g->d_raw, n, at, g->stream)) !=
	    SPS_OK)
		return e;
	return sps_gpu_clean_fetch(g, raw, g->d_raw, bytes, g->stream);
}

extern "C" uint64_t
sps_gpu_clean_quantised(const struct sps_gpu_clean *g)
{
	return g->clipped;
}

extern "C" double
sps_gpu_clean_seconds(const struct sps_gpu_clean *g)
{
	return g->seconds;
}

/* ---- the host: a run ---- */

/* The run's blocks (from at, over n spectra) and their segments, laid
 * out in h_tab; *nb and *ns get their counts. */
static enum sps_err
layout(struct sps_gpu_clean *g, const struct sps_cleanstream *cs, size_t n,
    uint64_t at, int *nb, int *ns)
{
	size_t pos, len, t;
	int b = 0, s = 0, *first, *lens, *seg0, *nseg, *sfirst, *slen, *sb;
	enum sps_err e;

	*nb = *ns = 0;
	for (pos = 0; pos < n; pos += len, (*nb)++) {
		len = sps_cleanstream_length(cs, at + pos);
		len = len < n - pos ? len : n - pos;
		*ns += (int)((len + SEG - 1) / SEG);
	}
	if ((e = reserve(g, *nb, *ns)) != SPS_OK)
		return e;
	first = g->h_tab, lens = first + g->cap_blocks;
	seg0 = lens + g->cap_blocks, nseg = seg0 + g->cap_blocks;
	sfirst = nseg + 2 * g->cap_blocks, slen = sfirst + g->cap_segs;
	sb = slen + g->cap_segs;
	for (pos = 0; pos < n; pos += len, b++) {
		len = sps_cleanstream_length(cs, at + pos);
		len = len < n - pos ? len : n - pos;
		first[b] = (int)pos, lens[b] = (int)len;
		seg0[b] = s;
		for (t = 0; t < len; t += SEG, s++) {
			sfirst[s] = (int)(pos + t);
			slen[s] = (int)(len - t < SEG ? len - t : SEG);
		}
		nseg[b] = s - seg0[b];
		for (t = 0; t < len; t++)
			sb[pos + t] = b;
	}
	return SPS_OK;
}

/* The host's view of a run for its decisions (cleanbatch.h). */
static struct sps_clean_batch
batch_of(struct sps_gpu_clean *g, uint64_t at, int nb)
{
	size_t cap = (size_t)g->cap_blocks * (size_t)g->f.nchans;
	struct sps_clean_batch b;

	b.nb = nb;
	b.at = at;
	b.first = g->h_tab;
	b.len = g->h_tab + g->cap_blocks;
	b.kept = g->h_tab + 4 * g->cap_blocks;
	b.s1 = g->h_sums;
	b.s2 = g->h_sums + cap;
	b.badsum = g->h_sums + 2 * cap;
	b.z = g->h_z;
	b.mask = g->h_mask;
	b.flags = g->h_flags;
	b.bad = g->h_bad;
	b.bp = g->h_bp;
	b.share = g->h_bp + cap;
	b.blk = g->blk;
	return b;
}

static unsigned
grid_of(size_t threads)
{
	return (unsigned)((threads + NT - 1) / NT);
}

/* The device's sums of the blocks, then the masks decided from them. */
static enum sps_err
masks(struct sps_gpu_clean *g, struct sps_cleanstream *cs,
    const unsigned char *raw, uint64_t at, int nb, int ns, cudaStream_t st,
    int *any_clip)
{
	size_t nc = (size_t)g->f.nchans, cap = (size_t)g->cap_blocks * nc;
	struct runtab r = tab_of(g->d_tab, g->cap_blocks, g->cap_segs);
	struct sps_clean_batch batch;
	unsigned cx = grid_of(nc);
	enum sps_err e;

	CHECK(cudaMemcpyAsync(g->d_tab, g->h_tab, tab_ints(g->cap_blocks,
	    g->cap_segs, g->maxspectra) * sizeof(int), cudaMemcpyHostToDevice,
	    st));
	partial_sums<<<dim3(cx, ns), NT, 0, st>>>(raw, g->f, r, g->d_part,
	    g->d_part + (size_t)g->cap_segs * nc);
	CHECK_LAUNCH("partial_sums");
	block_sums<<<dim3(cx, nb), NT, 0, st>>>(g->f, r, g->d_part,
	    g->d_part + (size_t)g->cap_segs * nc, g->d_sums, g->d_sums + cap);
	CHECK_LAUNCH("block_sums");
	CHECK(cudaMemcpyAsync(g->h_sums, g->d_sums, 2 * cap * sizeof(double),
	    cudaMemcpyDeviceToHost, st));
	CHECK(cudaStreamSynchronize(st));
	batch = batch_of(g, at, nb);
	if ((e = sps_clean_batch_masks(cs, &batch, any_clip)) != SPS_OK)
		return e;
	CHECK(cudaMemcpyAsync(g->d_mask, g->h_mask, nb * nc,
	    cudaMemcpyHostToDevice, st));
	CHECK(cudaMemcpyAsync(g->d_tab + 4 * g->cap_blocks, g->h_tab +
	    4 * g->cap_blocks, nb * sizeof(int), cudaMemcpyHostToDevice, st));
	return SPS_OK;
}

/* The zero-DM sums, the spectra clipped, their sums, the bandpass. */
static enum sps_err
clips(struct sps_gpu_clean *g, struct sps_cleanstream *cs,
    const unsigned char *raw, size_t n, uint64_t at, int nb, int any_clip,
    cudaStream_t st)
{
	size_t nc = (size_t)g->f.nchans, cap = (size_t)g->cap_blocks * nc;
	struct runtab r = tab_of(g->d_tab, g->cap_blocks, g->cap_segs);
	struct sps_clean_batch batch = batch_of(g, at, nb);
	size_t nbad = 0;

	if (any_clip) {
		spectrum_sums<<<(unsigned)n, NT, 0, st>>>(raw, g->f, r,
		    g->d_mask, g->d_bad, g->d_bp, 0, 0, g->d_z, NULL);
		CHECK_LAUNCH("spectrum_sums");
		CHECK(cudaMemcpyAsync(g->h_z, g->d_z, n * sizeof(float),
		    cudaMemcpyDeviceToHost, st));
		CHECK(cudaStreamSynchronize(st));
	}
	nbad = sps_clean_batch_clips(cs, &batch);
	if (nbad == 0)
		CHECK(cudaMemsetAsync(g->d_bad, 0, n, st));
	else {
		CHECK(cudaMemcpyAsync(g->d_bad, g->h_bad, n,
		    cudaMemcpyHostToDevice, st));
		bad_sums<<<dim3(grid_of(nc), nb), NT, 0, st>>>(raw, g->f, r,
		    g->d_bad, g->d_sums + 2 * cap);
		CHECK_LAUNCH("bad_sums");
		CHECK(cudaMemcpyAsync(g->h_sums + 2 * cap, g->d_sums + 2 * cap,
		    nb * nc * sizeof(double), cudaMemcpyDeviceToHost, st));
		CHECK(cudaStreamSynchronize(st));
	}
	return sps_clean_batch_bandpass(cs, &batch);
}

/* The samples replaced, zero-DM or zdot, rounded, in place. */
static enum sps_err
change(struct sps_gpu_clean *g, int zerodm, unsigned char *raw, size_t n,
    int nb, cudaStream_t st)
{
	size_t nc = (size_t)g->f.nchans, cap = (size_t)g->cap_blocks * nc;
	struct runtab r = tab_of(g->d_tab, g->cap_blocks, g->cap_segs);
	size_t units = g->f.nbits <= 8 ? g->f.bytes : nc;
	struct apply_args a;

	CHECK(cudaMemcpyAsync(g->d_bp, g->h_bp, nb * nc * sizeof(float),
	    cudaMemcpyHostToDevice, st));
	memset(&a, 0, sizeof(a));
	a.mode = zerodm == SPS_ZERODM_MEAN ? APPLY_ZERODM : zerodm ==
	    SPS_ZERODM_ZDOT ? APPLY_ZDOT : APPLY_PLAIN;
	a.mask = g->d_mask, a.bad = g->d_bad, a.bp = g->d_bp;
	a.share = g->d_bp + cap, a.ssum = g->d_ssum, a.z = g->d_z;
	a.zstat = g->d_zstat, a.k = g->d_sums + 3 * cap;
	if (a.mode == APPLY_ZERODM) {
		CHECK(cudaMemcpyAsync(g->d_bp + cap, g->h_bp + cap, nb * nc *
		    sizeof(float), cudaMemcpyHostToDevice, st));
		spectrum_sums<<<(unsigned)n, NT, 0, st>>>(raw, g->f, r,
		    g->d_mask, g->d_bad, g->d_bp, 1, 0, NULL, g->d_ssum);
		CHECK_LAUNCH("spectrum_sums");
	} else if (a.mode == APPLY_ZDOT) {
		spectrum_sums<<<(unsigned)n, NT, 0, st>>>(raw, g->f, r,
		    g->d_mask, g->d_bad, g->d_bp, 1, 1, g->d_z, NULL);
		CHECK_LAUNCH("spectrum_sums");
		series_stats<<<nb, NT, 0, st>>>(r, g->d_z, g->d_zstat);
		CHECK_LAUNCH("series_stats");
		zdot_factors<<<dim3(grid_of(nc), nb), NT, 0, st>>>(raw, g->f, r,
		    g->d_mask, g->d_bad, g->d_bp, g->d_z, g->d_zstat,
		    g->d_sums + 3 * cap);
		CHECK_LAUNCH("zdot_factors");
	}
	apply<<<grid_of(n * units), NT, 0, st>>>(raw, g->f, r, units, n, a,
	    g->d_clipped);
	CHECK_LAUNCH("apply");
	return SPS_OK;
}

extern "C" enum sps_err
sps_gpu_clean_run(struct sps_gpu_clean *g, struct sps_cleanstream *cs,
    unsigned char *raw, size_t n, uint64_t at, void *stream)
{
	cudaStream_t st = (cudaStream_t)stream;
	double t0 = sps_clock(), t1, t2;
	int nb, ns, any_clip;
	enum sps_err e;

	if (n == 0)
		return SPS_OK;
	if (n > g->maxspectra)
		return sps_fail(SPS_EUSAGE, "a cleaning run of %zu spectra, "
		    "more than the plan's %zu", n, g->maxspectra);
	CHECK(cudaSetDevice(g->dev));
	if ((e = layout(g, cs, n, at, &nb, &ns)) != SPS_OK ||
	    (e = masks(g, cs, raw, at, nb, ns, st, &any_clip)) != SPS_OK)
		return e;
	t1 = sps_clock();
	if ((e = clips(g, cs, raw, n, at, nb, any_clip, st)) != SPS_OK)
		return e;
	t2 = sps_clock();
	if ((e = change(g, sps_clean_opts(sps_cleanstream_engine(cs))->zerodm,
	    raw, n, nb, st)) != SPS_OK)
		return e;
	g->seconds += sps_clock() - t0;
	sps_trace("cleaning: %d blocks: masks %.1f ms, clipping %.1f ms",
	    nb, (t1 - t0) * 1e3, (t2 - t1) * 1e3);
	return SPS_OK;
}

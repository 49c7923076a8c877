/* tree.cu: the piecewise-linear and frequency-padded tree algorithms on
 * the GPU (Barsdell et al. 2012 §3), from the tables of the CPU plan
 * (struct sps_tree_tables in dedisperse.h); the CPU reference is
 * lib/tree.c.  Per scrunch level: one kernel lays out the slots of every
 * (sub-band, pass) instance with the pass's diagonal delay and runs the
 * first steps of the tree in shared memory, one kernel per further step
 * runs it between two buffers, and the gather kernel of dedisperse.cu
 * sums each trial's sub-bands (stage 2). */
#include <stdlib.h>
#include <string.h>

#include "gpu_plan.h"

#define TREE_THREADS	256
#define FUSED_SLOTS	32	/* slots whose first steps run in shared memory */
#define FUSED_TILE	256	/* output samples per block of the fused kernel */
#define FUSED_SPAN	(FUSED_TILE + FUSED_SLOTS)	/* with the leak */

struct gpu_tree {
	int	 nsub, width, steps, nlevels, ndms;
	int	*ninst;		/* per level: instances (sub-band, pass) */
	int	**d_inst_band;	/* per level: sub-band of each instance */
	int	**d_inst_pass;	/* per level: pass of each instance */
	int	*d_slot_live;	/* nsub * width */
	int	*d_rowmap;	/* ndms * nsub: row of the final buffer */
	int	*d_offset;	/* ndms * nsub */
	float	*d_buf[2];
	size_t	 stride;	/* floats per row (level 0's length + pad) */
};

/* The slots of one block of M slots of an instance laid out (as
 * lay_out_slots) and its first log2(M) tree steps, in shared memory: the
 * tile of FUSED_TILE samples needs M - 1 more of each slot (the delays
 * leak forward), and each step leaves valid half a block fewer.  Values
 * past the row's end are 0, so every sum equals that of the step-by-step
 * kernels bit for bit.  8-bit rows sum in 16-bit integers (M * 255 <
 * 2^16: exact, as the float sums are), which halves the shared memory. */
template <typename T, typename A, int M>
__global__ static void __launch_bounds__(TREE_THREADS)
tree_fused(const T *rows, size_t row_stride, size_t len, const int *slot_live,
    const int *inst_band, const int *inst_pass, int width, float *x,
    size_t stride)
{
	extern __shared__ __align__(16) unsigned char bytes[];
	A *a = (A *)bytes, *b = a + M * FUSED_SPAN, *swap;
	size_t t0 = (size_t)blockIdx.x * FUSED_TILE;
	int inst = blockIdx.y / (width / M), first = blockIdx.y % (width / M) * M;
	int band = inst_band[inst], pass = inst_pass[inst], idx, l;
	int valid = FUSED_SPAN;

	for (idx = threadIdx.x; idx < M * FUSED_SPAN; idx += blockDim.x) {
		int j = idx / FUSED_SPAN, u = idx % FUSED_SPAN;
		int c = slot_live[band * width + first + j];
		size_t t = t0 + u, at = t + (size_t)pass * (first + j);

		a[idx] = c >= 0 && t < len && at < len ?
		    (A)rows[(size_t)c * row_stride + at] : (A)0;
	}
	__syncthreads();
	for (l = 0; (1 << l) < M; l++) {
		int half = 1 << l;

		valid -= half;
		for (idx = threadIdx.x; idx < M / 2 * valid; idx += blockDim.x) {
			int q = idx / valid, u = idx % valid;
			int base = (q >> l) * 2 * half, h = q & (half - 1);
			const A *bot = a + (base + half + h) * FUSED_SPAN + u;
			A top = a[(base + h) * FUSED_SPAN + u];

			b[(base + 2 * h) * FUSED_SPAN + u] = (A)(top + bot[h]);
			b[(base + 2 * h + 1) * FUSED_SPAN + u] = (A)(top +
			    bot[h + 1]);
		}
		__syncthreads();
		swap = a;
		a = b;
		b = swap;
	}
	for (idx = threadIdx.x; idx < M * FUSED_TILE; idx += blockDim.x) {
		int j = idx / FUSED_TILE, u = idx % FUSED_TILE;
		size_t t = t0 + u;

		if (t < len)
			x[((size_t)inst * width + first + j) * stride + t] =
			    (float)a[j * FUSED_SPAN + u];
	}
}

/* Step l of the tree: rows of blocks of 2^(l+1) slots from the halves,
 * trials 2h and 2h + 1 of a block from trial h of both halves. */
__global__ static void
tree_step(const float *in, float *out, size_t stride, size_t len, int l,
    int npairs, int width)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	int q, half = 1 << l;

	if (t >= len)
		return;
	for (q = blockIdx.y; q < npairs; q += gridDim.y) {
		int inst = q / (width / 2), in_inst = q % (width / 2);
		int blk = in_inst >> l, h = in_inst & (half - 1);
		size_t base = (size_t)inst * width + (size_t)blk * 2 * half;
		const float *top = in + (base + h) * stride;
		const float *bot = in + (base + half + h) * stride;
		float a = top[t];
		float b0 = t + h < len ? bot[t + h] : 0.0f;
		float b1 = t + h + 1 < len ? bot[t + h + 1] : 0.0f;

		out[(base + 2 * h) * stride + t] = a + b0;
		out[(base + 2 * h + 1) * stride + t] = a + b1;
	}
}

static unsigned
grid_rows(int n)
{
	return (unsigned)(n < 65535 ? n : 65535);
}

/* Instances of level k: for each sub-band, passes pass_lo .. pass_hi. */
static int
count_instances(const struct sps_tree_tables *t, int k, int *band, int *pass)
{
	int b, p, n = 0;

	for (b = 0; b < t->nsub; b++)
		for (p = t->pass_lo[k * t->nsub + b];
		    p <= t->pass_hi[k * t->nsub + b]; p++) {
			if (band != NULL) {
				band[n] = b;
				pass[n] = p;
			}
			n++;
		}
	return n;
}

/* First instance of (k, b), to find the row of a trial's pass. */
static int
instance_of(const struct sps_tree_tables *t, int k, int b, int pass)
{
	int bb, n = 0;

	for (bb = 0; bb < b; bb++)
		if (t->pass_hi[k * t->nsub + bb] >= t->pass_lo[k * t->nsub + bb])
			n += t->pass_hi[k * t->nsub + bb] -
			    t->pass_lo[k * t->nsub + bb] + 1;
	return n + pass - t->pass_lo[k * t->nsub + b];
}

static enum sps_err
upload_instances(struct sps_gpu_dedisp *p, struct gpu_tree *g,
    const struct sps_tree_tables *t, int k)
{
	int n = count_instances(t, k, NULL, NULL);
	int *band = (int *)malloc((n + 1) * sizeof(int));
	int *pass = (int *)malloc((n + 1) * sizeof(int));
	enum sps_err e = SPS_OK;

	g->ninst[k] = n;
	if (band == NULL || pass == NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	if (e == SPS_OK) {
		count_instances(t, k, band, pass);
		e = gpu_alloc(p, (void **)&g->d_inst_band[k], (n + 1) *
		    sizeof(int), "tree instances");
	}
	if (e == SPS_OK)
		e = gpu_alloc(p, (void **)&g->d_inst_pass[k], (n + 1) *
		    sizeof(int), "tree instances");
	if (e == SPS_OK && (cudaMemcpy(g->d_inst_band[k], band, n *
	    sizeof(int), cudaMemcpyHostToDevice) != cudaSuccess ||
	    cudaMemcpy(g->d_inst_pass[k], pass, n * sizeof(int),
	    cudaMemcpyHostToDevice) != cudaSuccess))
		e = sps_fail(SPS_EIO, "CUDA cudaMemcpy of the tree instances: "
		    "%s", cudaGetErrorString(cudaGetLastError()));
	free(band);
	free(pass);
	return e;
}

/* Stage 2's row of each trial and sub-band in the final buffer. */
static enum sps_err
upload_stage2(struct sps_gpu_dedisp *p, struct gpu_tree *g,
    const struct sps_tree_tables *t)
{
	size_t n = (size_t)t->ndms * t->nsub;
	int *rowmap = (int *)malloc(n * sizeof(int)), i, b;
	enum sps_err e;

	if (rowmap == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < t->ndms; i++) {
		int k = gpu_log2(p->scrunch[i]);

		for (b = 0; b < t->nsub; b++)
			rowmap[(size_t)i * t->nsub + b] = instance_of(t, k, b,
			    t->pass[(size_t)i * t->nsub + b]) * t->width +
			    t->tdm[(size_t)i * t->nsub + b];
	}
	e = gpu_alloc(p, (void **)&g->d_rowmap, n * sizeof(int),
	    "tree stage-2 rows");
	if (e == SPS_OK)
		e = gpu_alloc(p, (void **)&g->d_offset, n * sizeof(int),
		    "tree stage-2 shifts");
	if (e == SPS_OK && (cudaMemcpy(g->d_rowmap, rowmap, n * sizeof(int),
	    cudaMemcpyHostToDevice) != cudaSuccess || cudaMemcpy(g->d_offset,
	    t->offset, n * sizeof(int), cudaMemcpyHostToDevice) !=
	    cudaSuccess))
		e = sps_fail(SPS_EIO, "CUDA cudaMemcpy of the tree tables: %s",
		    cudaGetErrorString(cudaGetLastError()));
	free(rowmap);
	return e;
}

static enum sps_err
check_tables(const struct sps_gpu_dedisp *p, const struct sps_tree_tables *t)
{
	if (t->ndms != p->ndms || t->nlive != p->nlive ||
	    t->nlevels > p->nlevels)
		return sps_fail(SPS_EUSAGE, "tree tables of another plan "
		    "(%d trials, %d channels)", t->ndms, t->nlive);
	if (t->width < 2 || (t->width & (t->width - 1)) != 0)
		return sps_fail(SPS_EUSAGE, "tree width %d is not a power of 2",
		    t->width);
	return SPS_OK;
}

enum sps_err
gpu_tree_setup(struct sps_gpu_dedisp *p, const struct sps_tree_tables *t)
{
	struct gpu_tree *g;
	enum sps_err e;
	size_t rows = 0, bytes;
	int k;

	if ((e = check_tables(p, t)) != SPS_OK)
		return e;
	if ((g = (struct gpu_tree *)calloc(1, sizeof(*g))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	p->tree = g;
	g->nsub = t->nsub;
	g->width = t->width;
	g->steps = gpu_log2(t->width);
	g->nlevels = t->nlevels;
	g->ndms = t->ndms;
	g->ninst = (int *)calloc(t->nlevels, sizeof(int));
	g->d_inst_band = (int **)calloc(t->nlevels, sizeof(int *));
	g->d_inst_pass = (int **)calloc(t->nlevels, sizeof(int *));
	if (g->ninst == NULL || g->d_inst_band == NULL ||
	    g->d_inst_pass == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (k = 0; k < t->nlevels; k++) {
		if ((e = upload_instances(p, g, t, k)) != SPS_OK)
			return e;
		if ((size_t)g->ninst[k] * t->width > rows)
			rows = (size_t)g->ninst[k] * t->width;
	}
	if ((e = upload_stage2(p, g, t)) != SPS_OK ||
	    (e = gpu_alloc(p, (void **)&g->d_slot_live, (size_t)t->nsub *
	    t->width * sizeof(int), "tree slots")) != SPS_OK)
		return e;
	CHECK(cudaMemcpy(g->d_slot_live, t->slot_live, (size_t)t->nsub *
	    t->width * sizeof(int), cudaMemcpyHostToDevice));
	g->stride = (p->nin + ROW_PAD + 3) & ~(size_t)3;
	bytes = (rows > 0 ? rows : 1) * g->stride * sizeof(float);
	for (k = 0; k < 2; k++)
		if ((e = gpu_alloc(p, (void **)&g->d_buf[k], bytes,
		    "tree rows")) != SPS_OK)
			return e;
	return SPS_OK;
}

static int
fused_slots(int width)
{
	return width < FUSED_SLOTS ? width : FUSED_SLOTS;
}

template <int M>
static enum sps_err
launch_fused(struct sps_gpu_dedisp *p, int k, size_t len, float *x)
{
	struct gpu_tree *g = p->tree;
	int is_u8, nblocks = g->ninst[k] * (g->width / M);
	const void *rows = gpu_level_rows(p, k, &is_u8);
	size_t smem = 2 * M * FUSED_SPAN * sizeof(float);
	dim3 grid((unsigned)((len + FUSED_TILE - 1) / FUSED_TILE),
	    (unsigned)nblocks);

	if (nblocks > 65535)
		return sps_fail(SPS_EUSAGE, "%d tree blocks exceed the grid",
		    nblocks);
	static_assert(FUSED_SLOTS * 255 < 65536, "16-bit tree sums overflow");
	if (is_u8) {
		smem /= 2;
		CHECK(cudaFuncSetAttribute(tree_fused<unsigned char,
		    unsigned short, M>,
		    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		tree_fused<unsigned char, unsigned short, M><<<grid,
		    TREE_THREADS, smem, p->s_run>>>((const unsigned char *)rows,
		    p->stride[0], len, g->d_slot_live, g->d_inst_band[k],
		    g->d_inst_pass[k], g->width, x, g->stride);
	} else {
		CHECK(cudaFuncSetAttribute(tree_fused<float, float, M>,
		    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		tree_fused<float, float, M><<<grid, TREE_THREADS, smem,
		    p->s_run>>>((const float *)rows, p->stride[k], len,
		    g->d_slot_live, g->d_inst_band[k], g->d_inst_pass[k],
		    g->width, x, g->stride);
	}
	CHECK_LAUNCH("tree_fused");
	return SPS_OK;
}

/* Stage 1 of level k into the buffer it returns: the first steps fused
 * in shared memory, the rest step by step between the two buffers. */
static enum sps_err
run_stage1(struct sps_gpu_dedisp *p, int k, size_t len, float **final)
{
	struct gpu_tree *g = p->tree;
	int nrows = g->ninst[k] * g->width, l, m = gpu_log2(fused_slots(g->width));
	enum sps_err e;
	dim3 grid((unsigned)((len + TREE_THREADS - 1) / TREE_THREADS),
	    grid_rows(nrows / 2));

	switch (fused_slots(g->width)) {
	case 2:
		e = launch_fused<2>(p, k, len, g->d_buf[0]);
		break;
	case 4:
		e = launch_fused<4>(p, k, len, g->d_buf[0]);
		break;
	case 8:
		e = launch_fused<8>(p, k, len, g->d_buf[0]);
		break;
	case 16:
		e = launch_fused<16>(p, k, len, g->d_buf[0]);
		break;
	default:
		e = launch_fused<FUSED_SLOTS>(p, k, len, g->d_buf[0]);
	}
	if (e != SPS_OK)
		return e;
	for (l = m; l < g->steps; l++) {
		tree_step<<<grid, TREE_THREADS, 0, p->s_run>>>(
		    g->d_buf[(l - m) % 2], g->d_buf[(l - m + 1) % 2], g->stride,
		    len, l, nrows / 2, g->width);
		CHECK_LAUNCH("tree_step");
	}
	*final = g->d_buf[(g->steps - m) % 2];
	return SPS_OK;
}

/* Runs of trials of one scrunch level: stage 1 of the level (unless the
 * previous run built it), then stage 2 for the run. */
enum sps_err
gpu_tree_run(struct sps_gpu_dedisp *p, size_t nin, size_t nout, float *d_out,
    const struct out_layout *o)
{
	struct gpu_tree *g = p->tree;
	float *final = NULL;
	enum sps_err e = SPS_OK;
	int d0 = 0, d1, built = -1;

	while (d0 < p->ndms && e == SPS_OK) {
		int f = p->scrunch[d0], k = gpu_log2(f);

		for (d1 = d0 + 1; d1 < p->ndms && p->scrunch[d1] == f; d1++)
			;
		if (k != built && g->ninst[k] > 0) {
			if ((e = run_stage1(p, k, nin >> k, &final)) != SPS_OK)
				return e;
			built = k;
		}
		if (final == NULL)
			return sps_fail(SPS_EUSAGE, "tree tables without a "
			    "pass for scrunch level %d", k);
		if (nout / f > 0)
			e = gpu_gather_sum(p, final, g->stride, g->d_rowmap,
			    g->d_offset, g->nsub, d0, d1, f, nout / f, d_out, o);
		d0 = d1;
	}
	return e;
}

void
gpu_tree_free(struct sps_gpu_dedisp *p)
{
	struct gpu_tree *g = p->tree;
	int k;

	if (g == NULL)
		return;
	for (k = 0; k < g->nlevels; k++) {
		if (g->d_inst_band != NULL)
			cudaFree(g->d_inst_band[k]);
		if (g->d_inst_pass != NULL)
			cudaFree(g->d_inst_pass[k]);
	}
	cudaFree(g->d_slot_live);
	cudaFree(g->d_rowmap);
	cudaFree(g->d_offset);
	cudaFree(g->d_buf[0]);
	cudaFree(g->d_buf[1]);
	free(g->ninst);
	free(g->d_inst_band);
	free(g->d_inst_pass);
	free(g);
	p->tree = NULL;
}

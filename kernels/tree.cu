/* tree.cu: the piecewise-linear and frequency-padded tree algorithms on
 * the GPU (Barsdell et al. 2012 §3), from the tables of the CPU plan
 * (struct sps_tree_tables in dedisperse.h); the CPU reference is
 * lib/tree.c.  Per scrunch level: one kernel lays out the slots of every
 * (sub-band, pass) instance with the pass's diagonal delay and runs the
 * first five steps of the tree in shared memory, one kernel per five
 * further steps runs them in shared memory between two buffers, and the
 * gather kernel of dedisperse.cu sums each trial's sub-bands (stage 2),
 * which with one sub-band the last launch of stage 1 does itself.
 *
 * Step l of the tree makes rows of blocks of 2^(l+1) from their halves:
 * rows 2h and 2h + 1 of a block are row h of the top half plus row h of
 * the bottom half h and h + 1 samples on, 0 past the row's end. */
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "gpu_plan.h"

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
	unsigned char **d_keep;	/* per level: final rows some trial reads */
	int	**d_first;	/* per level, one sub-band: row r's trials are */
	int	**d_trials;	/* d_trials[k][d_first[k][r] ..] */
	int	*d_offset;	/* ndms * nsub */
	float	*d_buf[2];
	size_t	 stride;	/* floats per row (level 0's length + pad) */
};

/* Steps l and l + 1 of a tree at once, column u of rows 0 .. M - 1 of a
 * to b: rows 4h + 2e + f of a block of 4 * 2^l draw on rows h, 2^l + h,
 * 2^(l+1) + h and 3 * 2^l + h, through the rows of step l, which are
 * summed as that step would (the bottom one twice, at two times). */
template <typename A, int M>
__device__ static void
radix4_step(const A *a, A *b, int l, int u)
{
	int half = 1 << l, q;

#pragma unroll
	for (q = 0; q < M / 4; q++) {
		int base = (q >> l) * 4 * half, h = q & (half - 1);
		const A *r1 = a + (base + half + h) * FUSED_SPAN + u + h;
		const A *r2 = a + (base + 2 * half + h) * FUSED_SPAN + u + 2 * h;
		const A *r3 = a + (base + 3 * half + h) * FUSED_SPAN + u + 3 * h;
		A r0 = a[(base + h) * FUSED_SPAN + u];
		A top0 = (A)(r0 + r1[0]), top1 = (A)(r0 + r1[1]);
		A *out = b + (base + 4 * h) * FUSED_SPAN + u;

		out[0] = (A)(top0 + (A)(r2[0] + r3[0]));
		out[FUSED_SPAN] = (A)(top0 + (A)(r2[1] + r3[1]));
		out[2 * FUSED_SPAN] = (A)(top1 + (A)(r2[1] + r3[2]));
		out[3 * FUSED_SPAN] = (A)(top1 + (A)(r2[2] + r3[3]));
	}
}

/* Step l of a tree, column u of rows 0 .. M - 1 of a to b. */
template <typename A, int M>
__device__ static void
radix2_step(const A *a, A *b, int l, int u)
{
	int half = 1 << l, q;

#pragma unroll
	for (q = 0; q < M / 2; q++) {
		int base = (q >> l) * 2 * half, h = q & (half - 1);
		const A *bot = a + (base + half + h) * FUSED_SPAN + u + h;
		A top = a[(base + h) * FUSED_SPAN + u];

		b[(base + 2 * h) * FUSED_SPAN + u] = (A)(top + bot[0]);
		b[(base + 2 * h + 1) * FUSED_SPAN + u] = (A)(top + bot[1]);
	}
}

/* The first log2(M) steps of a tree of M rows held in shared memory,
 * each FUSED_SPAN samples long (the FUSED_TILE a block makes and the
 * M - 1 more its delays leak forward), two at a time where they can be;
 * step l leaves valid 2^l samples fewer.  Thread u keeps column u
 * (FUSED_SPAN threads a block).  Returns the buffer (a or b) that holds
 * the result. */
template <typename A, int M>
__device__ static A *
mini_tree(A *a, A *b)
{
	int u = threadIdx.x, valid = FUSED_SPAN, l;
	A *swap;

#pragma unroll
	for (l = 0; (1 << l) < M; l += 2) {
		if ((2 << l) < M) {
			valid -= 3 << l;
			if (u < valid)
				radix4_step<A, M>(a, b, l, u);
		} else {
			valid -= 1 << l;
			if (u < valid)
				radix2_step<A, M>(a, b, l, u);
		}
		__syncthreads();
		swap = a;
		a = b;
		b = swap;
	}
	return a;
}

/* What the last launch of stage 1 does with its rows: of those some
 * trial reads (keep; the others none), with one sub-band (the padded
 * tree), each trial's samples straight to the output, as the gather
 * would copy them (out set: trials[first[r] .. first[r + 1]) read row r
 * at offset[trial]); else the rows to the buffer.  Earlier launches: all
 * rows to the buffer (keep NULL). */
struct tree_final {
	const unsigned char *keep;
	const int	*first, *trials, *offset;
	float		*out;
	struct out_layout o;
	int		 f;
	size_t		 n;
};

/* Does the last launch want any of rows first .. first + M - 1? */
template <int M>
__device__ static bool
wanted(const struct tree_final &fin, size_t first)
{
	int j;

	if (fin.keep == NULL)
		return true;
	for (j = 0; j < M; j++)
		if (fin.keep[first + j])
			return true;
	return false;
}

/* Sample t of row r (value v) to the trials that read it. */
__device__ static void
store_trials(const struct tree_final &fin, size_t r, size_t t, float v)
{
	int k;

	for (k = fin.first[r]; k < fin.first[r + 1]; k++) {
		int i = fin.trials[k];
		size_t off = (size_t)fin.offset[i];

		if (t >= off && t - off < fin.n)	/* 0 + v as stage 2 */
			fin.out[out_index(fin.o, i, fin.f, t - off)] = 0.0f + v;
	}
}

/* The tile's M rows from shared memory to rows first .. first + M - 1 of
 * x, or to the trials (as fin says), those samples before the row's
 * end. */
template <typename A, typename O, int M>
__device__ static void
store_tile(const A *a, size_t t0, size_t len, O *x, size_t first,
    size_t stride, const struct tree_final &fin)
{
	size_t t = t0 + threadIdx.x;
	int j;

	if (threadIdx.x >= FUSED_TILE || t >= len)
		return;
#pragma unroll
	for (j = 0; j < M; j++)
		if (fin.out != NULL)
			store_trials(fin, first + j, t,
			    (float)a[j * FUSED_SPAN + threadIdx.x]);
		else if (fin.keep == NULL || fin.keep[first + j])
			x[(first + j) * stride + t] =
			    (O)a[j * FUSED_SPAN + threadIdx.x];
}

/* The slots of one block of M slots of an instance laid out (as
 * layout_chunk of lib/tree.c) and its first log2(M) tree steps, in
 * shared memory.  Values past the row's end are 0, so every sum equals
 * that of the step-by-step tree bit for bit.  8-bit rows sum in 16-bit
 * integers (M * 255 < 2^16: exact, as the float sums are), which halves
 * the shared memory, and, where steps follow, the rows they read. */
template <typename T, typename A, typename O, int M>
__global__ static void __launch_bounds__(FUSED_SPAN)
tree_fused(const T *rows, size_t row_stride, size_t len, const int *slot_live,
    const int *inst_band, const int *inst_pass, int width, int nblocks,
    O *x, size_t stride, const struct tree_final fin)
{
	extern __shared__ __align__(16) unsigned char bytes[];
	A *a = (A *)bytes;
	size_t t = (size_t)blockIdx.x * FUSED_TILE + threadIdx.x;
	int blk, j;

	for (blk = blockIdx.y; blk < nblocks; blk += gridDim.y) {
		int inst = blk / (width / M), first = blk % (width / M) * M;
		int band = inst_band[inst], pass = inst_pass[inst];

		if (!wanted<M>(fin, (size_t)inst * width + first))
			continue;
#pragma unroll
		for (j = 0; j < M; j++) {
			int c = slot_live[band * width + first + j];
			size_t at = t + (size_t)pass * (first + j);

			a[j * FUSED_SPAN + threadIdx.x] = c >= 0 && t < len &&
			    at < len ? (A)rows[(size_t)c * row_stride + at] :
			    (A)0;
		}
		__syncthreads();
		store_tile<A, O, M>(mini_tree<A, M>(a, a + M * FUSED_SPAN),
		    t - threadIdx.x, len, x, (size_t)inst * width + first,
		    stride, fin);
		__syncthreads();
	}
}

/* Steps l .. l + log2(M) - 1 of the tree at once, in shared memory.  In
 * those steps output rows B + M h .. B + M h + M - 1 (B a block of
 * M 2^l rows, h < 2^l) draw on rows B + j 2^l + h (j < M) alone, and
 * row j's part in all of them lies j h samples on, besides the delays of
 * a tree of M rows: so a block loads each such row from there and runs
 * mini_tree.  The sums are those of the steps one by one, in order. */
template <typename I, int M>
__global__ static void __launch_bounds__(FUSED_SPAN)
tree_block(const I *in, float *out, size_t stride, size_t len, int l,
    int ngroups, const struct tree_final fin)
{
	extern __shared__ __align__(16) unsigned char bytes[];
	float *a = (float *)bytes;
	size_t t = (size_t)blockIdx.x * FUSED_TILE + threadIdx.x;
	int q, j, half = 1 << l;

	for (q = blockIdx.y; q < ngroups; q += gridDim.y) {
		int h = q & (half - 1);
		size_t base = (size_t)(q >> l) * M * half;
		const I *row = in + (base + h) * stride + t;

		if (!wanted<M>(fin, base + (size_t)M * h))
			continue;
#pragma unroll
		for (j = 0; j < M; j++)
			a[j * FUSED_SPAN + threadIdx.x] = t + (size_t)j * h <
			    len ? (float)row[(size_t)j * (half * stride + h)] :
			    0.0f;
		__syncthreads();
		store_tile<float, float, M>(mini_tree<float, M>(a, a + M *
		    FUSED_SPAN), t - threadIdx.x, len, out, base +
		    (size_t)M * h, stride, fin);
		__syncthreads();
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
	int *band = (int *)calloc(n + 1, sizeof(int));
	int *pass = (int *)calloc(n + 1, sizeof(int));
	enum sps_err e = SPS_OK;

	g->ninst[k] = n;
	if (band == NULL || pass == NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	if (e == SPS_OK) {
		count_instances(t, k, band, pass);
		e = gpu_upload(p, (void **)&g->d_inst_band[k], band, (n + 1) *
		    sizeof(int), "tree instances");
	}
	if (e == SPS_OK)
		e = gpu_upload(p, (void **)&g->d_inst_pass[k], pass, (n + 1) *
		    sizeof(int), "tree instances");
	free(band);
	free(pass);
	return e;
}

/* Level k's trials by the row (one sub-band) they read: the counts in
 * first[1 ..], then their sums, then the trials in order. */
static void
trials_by_row(const struct sps_gpu_dedisp *p, const int *rowmap, int k,
    size_t nrows, int *first, int *trials)
{
	size_t r;
	int i;

	memset(first, 0, (nrows + 1) * sizeof(int));
	for (i = 0; i < p->ndms; i++)
		if (p->scrunch[i] == 1 << k)
			first[rowmap[i] + 1]++;
	for (r = 0; r < nrows; r++)
		first[r + 1] += first[r];
	for (i = 0; i < p->ndms; i++)
		if (p->scrunch[i] == 1 << k)
			trials[first[rowmap[i]]++] = i;
	for (r = nrows; r > 0; r--)
		first[r] = first[r - 1];
	first[0] = 0;
}

/* Per level, which rows of the final buffer some trial reads (the last
 * launch of stage 1 makes those alone) and, with one sub-band, which
 * trials read each (it writes them itself). */
static enum sps_err
upload_final(struct sps_gpu_dedisp *p, struct gpu_tree *g,
    const struct sps_tree_tables *t, const int *rowmap)
{
	size_t nrows = 0, j, n;
	unsigned char *keep;
	int *first, *trials, i, k;
	enum sps_err e = SPS_OK;

	for (k = 0; k < g->nlevels; k++)
		if ((size_t)g->ninst[k] * g->width > nrows)
			nrows = (size_t)g->ninst[k] * g->width;
	keep = (unsigned char *)malloc(nrows + 1);
	first = (int *)malloc((nrows + 1) * sizeof(int));
	trials = (int *)malloc(((size_t)p->ndms + 1) * sizeof(int));
	if (keep == NULL || first == NULL || trials == NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	for (k = 0; k < g->nlevels && e == SPS_OK; k++) {
		n = (size_t)g->ninst[k] * g->width;
		memset(keep, 0, nrows + 1);
		for (i = 0; i < t->ndms; i++)
			if (p->scrunch[i] == 1 << k)
				for (j = 0; j < (size_t)t->nsub; j++)
					keep[rowmap[(size_t)i * t->nsub + j]] = 1;
		e = gpu_upload(p, (void **)&g->d_keep[k], keep, n + 1,
		    "tree rows kept");
		if (e != SPS_OK || t->nsub != 1)
			continue;
		trials_by_row(p, rowmap, k, n, first, trials);
		e = gpu_upload(p, (void **)&g->d_first[k], first, (n + 1) *
		    sizeof(int), "tree rows' trials");
		if (e == SPS_OK)
			e = gpu_upload(p, (void **)&g->d_trials[k], trials,
			    ((size_t)first[n] + 1) * sizeof(int),
			    "tree rows' trials");
	}
	free(keep);
	free(first);
	free(trials);
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
		int k = sps_ceil_log2(p->scrunch[i]);

		for (b = 0; b < t->nsub; b++)
			rowmap[(size_t)i * t->nsub + b] = instance_of(t, k, b,
			    t->pass[(size_t)i * t->nsub + b]) * t->width +
			    t->tdm[(size_t)i * t->nsub + b];
	}
	e = gpu_upload(p, (void **)&g->d_rowmap, rowmap, n * sizeof(int),
	    "tree stage-2 rows");
	if (e == SPS_OK)
		e = gpu_upload(p, (void **)&g->d_offset, t->offset, n *
		    sizeof(int), "tree stage-2 shifts");
	if (e == SPS_OK)
		e = upload_final(p, g, t, rowmap);
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
	g->steps = sps_ceil_log2(t->width);
	g->nlevels = t->nlevels;
	g->ndms = t->ndms;
	g->ninst = (int *)calloc(t->nlevels, sizeof(int));
	g->d_inst_band = (int **)calloc(t->nlevels, sizeof(int *));
	g->d_inst_pass = (int **)calloc(t->nlevels, sizeof(int *));
	g->d_keep = (unsigned char **)calloc(t->nlevels, sizeof(*g->d_keep));
	g->d_first = (int **)calloc(t->nlevels, sizeof(int *));
	g->d_trials = (int **)calloc(t->nlevels, sizeof(int *));
	if (g->ninst == NULL || g->d_inst_band == NULL ||
	    g->d_inst_pass == NULL || g->d_keep == NULL ||
	    g->d_first == NULL || g->d_trials == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (k = 0; k < t->nlevels; k++) {
		if ((e = upload_instances(p, g, t, k)) != SPS_OK)
			return e;
		if ((size_t)g->ninst[k] * t->width > rows)
			rows = (size_t)g->ninst[k] * t->width;
	}
	if ((e = upload_stage2(p, g, t)) != SPS_OK ||
	    (e = gpu_upload(p, (void **)&g->d_slot_live, t->slot_live,
	    (size_t)t->nsub * t->width * sizeof(int), "tree slots")) !=
	    SPS_OK)
		return e;
	g->stride = (p->nin + ROW_PAD + 3) & ~(size_t)3;
	bytes = (rows > 0 ? rows : 1) * g->stride * sizeof(float);
	for (k = 0; k < 2; k++)
		if ((e = gpu_alloc(p, (void **)&g->d_buf[k], bytes,
		    "tree rows")) != SPS_OK)
			return e;
	return SPS_OK;
}

/* Tree steps one launch runs in shared memory: 32 rows of 288 floats
 * twice over is 72 KB a block, three blocks to a multiprocessor. */
static int
fused_slots(int steps_left)
{
	return steps_left < 5 ? 1 << steps_left : FUSED_SLOTS;
}

/* tree_fused reading T, summing in A and writing O. */
template <typename T, typename A, typename O, int M>
static enum sps_err
fused_as(struct sps_gpu_dedisp *p, int k, size_t len, const void *rows,
    size_t row_stride, float *x, const struct tree_final &fin)
{
	struct gpu_tree *g = p->tree;
	int nblocks = g->ninst[k] * (g->width / M);
	size_t smem = 2 * M * FUSED_SPAN * sizeof(A);
	dim3 grid((unsigned)((len + FUSED_TILE - 1) / FUSED_TILE),
	    grid_rows(nblocks));

	CHECK(cudaFuncSetAttribute(tree_fused<T, A, O, M>,
	    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	tree_fused<T, A, O, M><<<grid, FUSED_SPAN, smem, p->s_run>>>(
	    (const T *)rows, row_stride, len, g->d_slot_live,
	    g->d_inst_band[k], g->d_inst_pass[k], g->width, nblocks, (O *)x,
	    g->stride, fin);
	CHECK_LAUNCH("tree_fused");
	return SPS_OK;
}

template <int M>
static enum sps_err
launch_fused(struct sps_gpu_dedisp *p, int k, size_t len, float *x,
    int narrow, const struct tree_final &fin)
{
	int is_u8;
	const void *rows = gpu_level_rows(p, k, &is_u8);

	static_assert(FUSED_SLOTS * 255 < 65536, "16-bit tree sums overflow");
	if (is_u8 && narrow)
		return fused_as<unsigned char, unsigned short, unsigned short,
		    M>(p, k, len, rows, p->stride[0], x, fin);
	if (is_u8)
		return fused_as<unsigned char, unsigned short, float, M>(p, k,
		    len, rows, p->stride[0], x, fin);
	return fused_as<float, float, float, M>(p, k, len, rows, p->stride[k],
	    x, fin);
}

/* tree_block reading I (16-bit sums of the first launch, or floats). */
template <typename I, int M>
static enum sps_err
block_as(struct sps_gpu_dedisp *p, const float *in, float *out, int l,
    size_t len, int nrows, const struct tree_final &fin)
{
	size_t smem = 2 * M * FUSED_SPAN * sizeof(float);
	dim3 grid((unsigned)((len + FUSED_TILE - 1) / FUSED_TILE),
	    grid_rows(nrows / M));

	CHECK(cudaFuncSetAttribute(tree_block<I, M>,
	    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	tree_block<I, M><<<grid, FUSED_SPAN, smem, p->s_run>>>((const I *)in,
	    out, p->tree->stride, len, l, nrows / M, fin);
	CHECK_LAUNCH("tree_block");
	return SPS_OK;
}

template <int M>
static enum sps_err
launch_block(struct sps_gpu_dedisp *p, const float *in, int narrow,
    float *out, int l, size_t len, int nrows, const struct tree_final &fin)
{
	if (narrow)
		return block_as<unsigned short, M>(p, in, out, l, len, nrows,
		    fin);
	return block_as<float, M>(p, in, out, l, len, nrows, fin);
}

static enum sps_err
first_steps(struct sps_gpu_dedisp *p, int k, size_t len, int m, int narrow,
    const struct tree_final &fin)
{
	float *x = p->tree->d_buf[0];

	switch (m) {
	case 2:
		return launch_fused<2>(p, k, len, x, narrow, fin);
	case 4:
		return launch_fused<4>(p, k, len, x, narrow, fin);
	case 8:
		return launch_fused<8>(p, k, len, x, narrow, fin);
	case 16:
		return launch_fused<16>(p, k, len, x, narrow, fin);
	default:
		return launch_fused<FUSED_SLOTS>(p, k, len, x, narrow, fin);
	}
}

static enum sps_err
next_steps(struct sps_gpu_dedisp *p, const float *in, int narrow, float *out,
    int l, size_t len, int nrows, int m, const struct tree_final &fin)
{
	switch (m) {
	case 2:
		return launch_block<2>(p, in, narrow, out, l, len,
		    nrows, fin);
	case 4:
		return launch_block<4>(p, in, narrow, out, l, len,
		    nrows, fin);
	case 8:
		return launch_block<8>(p, in, narrow, out, l, len,
		    nrows, fin);
	case 16:
		return launch_block<16>(p, in, narrow, out, l, len,
		    nrows, fin);
	default:
		return launch_block<FUSED_SLOTS>(p, in, narrow, out, l, len,
		    nrows, fin);
	}
}

/* Stage 1 of level k into the buffer it returns, log2(FUSED_SLOTS) steps
 * a launch: the first from the level's channels, the rest between the
 * two buffers; the last as `last` says.  8-bit data leave the first
 * launch in 16 bits (FUSED_SLOTS * 255 < 2^16) when others follow. */
static enum sps_err
run_stage1(struct sps_gpu_dedisp *p, int k, size_t len,
    const struct tree_final &last, float **final)
{
	struct gpu_tree *g = p->tree;
	int nrows = g->ninst[k] * g->width, l, m, cur = 0, narrow;
	struct tree_final none = {};
	enum sps_err e;

	m = fused_slots(g->steps);
	l = sps_ceil_log2(m);
	gpu_level_rows(p, k, &narrow);
	narrow = narrow && l < g->steps;
	if ((e = first_steps(p, k, len, m, narrow, l == g->steps ? last :
	    none)) != SPS_OK)
		return e;
	for (; l < g->steps; l += sps_ceil_log2(m), cur ^= 1, narrow = 0) {
		m = fused_slots(g->steps - l);
		if ((e = next_steps(p, g->d_buf[cur], narrow, g->d_buf[cur ^ 1],
		    l, len, nrows, m, l + sps_ceil_log2(m) == g->steps ? last :
		    none)) != SPS_OK)
			return e;
	}
	*final = g->d_buf[cur];
	return SPS_OK;
}

/* What the last launch of level k's stage 1 does: with one sub-band,
 * stage 2 too. */
static struct tree_final
last_launch(const struct gpu_tree *g, int k, int f, size_t nout,
    float *d_out, const struct out_layout *o)
{
	struct tree_final last = {};

	last.keep = g->d_keep[k];
	if (g->nsub == 1) {
		last.first = g->d_first[k];
		last.trials = g->d_trials[k];
		last.offset = g->d_offset;
		last.out = d_out;
		last.o = *o;
		last.f = f;
		last.n = nout / f;
	}
	return last;
}

/* Runs of trials of one scrunch level: stage 1 of the level (unless the
 * previous run built it), then stage 2 for the run, unless stage 1 did
 * it. */
enum sps_err
gpu_tree_run(struct sps_gpu_dedisp *p, size_t nin, size_t nout, float *d_out,
    const struct out_layout *o)
{
	struct gpu_tree *g = p->tree;
	float *final = NULL;
	enum sps_err e = SPS_OK;
	int d0 = 0, d1, built = -1;

	while (d0 < p->ndms && e == SPS_OK) {
		int f = p->scrunch[d0], k = sps_ceil_log2(f);

		for (d1 = d0 + 1; d1 < p->ndms && p->scrunch[d1] == f; d1++)
			;
		if (k != built && g->ninst[k] > 0) {
			if ((e = run_stage1(p, k, nin >> k, last_launch(g, k, f,
			    nout, d_out, o), &final)) != SPS_OK)
				return e;
			built = k;
		}
		if (final == NULL)
			return sps_fail(SPS_EUSAGE, "tree tables without a "
			    "pass for scrunch level %d", k);
		if (nout / f > 0 && g->nsub > 1)
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
		if (g->d_keep != NULL)
			cudaFree(g->d_keep[k]);
		if (g->d_first != NULL)
			cudaFree(g->d_first[k]);
		if (g->d_trials != NULL)
			cudaFree(g->d_trials[k]);
	}
	cudaFree(g->d_slot_live);
	cudaFree(g->d_rowmap);
	cudaFree(g->d_offset);
	cudaFree(g->d_buf[0]);
	cudaFree(g->d_buf[1]);
	free(g->ninst);
	free(g->d_inst_band);
	free(g->d_inst_pass);
	free(g->d_keep);
	free(g->d_first);
	free(g->d_trials);
	free(g);
	p->tree = NULL;
}

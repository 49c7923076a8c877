/* subband.cu: sub-band dedispersion on the GPU (Barsdell et al. 2012
 * §4.3) from the tables of the CPU plan, so that it sums exactly the
 * samples that lib/subband.c, its reference, sums: step 1 per group of
 * trials (one nominal DM) and band, step 2 per trial over the bands,
 * float32 intermediate sums.
 *
 * The groups of one scrunch factor (a run) go together, so that each
 * launch fills the device: one launch sums the bands of every group of
 * the run (step 1) into band series laid out group after group, and one
 * launch of the gather kernel sums every trial of the run over its
 * group's bands (step 2), through a row map. */
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "gpu_plan.h"

struct gpu_subband {
	int	 nsub, ngroups, nruns;
	int	*group_start;	/* ngroups + 1 trials */
	int	*run_group;	/* nruns + 1 groups: runs of one factor */
	size_t	*run_span;	/* nruns: the largest step-2 shift */
	int	*d_step1;	/* ngroups x nlive */
	int	*d_step2;	/* ndms x nsub */
	int	*d_band_first;	/* nsub + 1 */
	int	*d_span;	/* ngroups */
	int	*d_rowmap;	/* ndms x nsub: row of the run's series */
	float	*d_x;		/* the band series of one run */
};

/* Step 1 on 8-bit rows: warp w of a block sums, for band blockIdx.y of
 * group blockIdx.z, 512 samples as the direct 8-bit kernel does (16-byte
 * vectors from the shifted copies, 16-bit lanes widened every
 * LANE_CHANNELS channels); integer sums, so equal to the float sums of
 * subband.c wherever those are exact. */
__global__ static void __launch_bounds__(256)
step1_u8(const uint4 *vecs, size_t copy_vecs, size_t row_vecs,
    const int *step1, int nlive, const int *band_first, const int *span,
    size_t n, size_t stride, float *x)
{
	unsigned even[4], odd[4], sums[16];
	int b = blockIdx.y, g = blockIdx.z, lane = threadIdx.x % 32;
	int c, c1, i, k;
	size_t v0 = ((size_t)blockIdx.x * 8 + threadIdx.x / 32) * 32 + lane;
	size_t len = n + span[g];
	const int *s1 = step1 + (size_t)g * nlive;
	float *xb = x + ((size_t)g * gridDim.y + b) * stride;

	if (16 * (v0 - lane) >= len)	/* the warp's reads stay in ROW_PAD */
		return;
	for (i = 0; i < 4; i++)
		even[i] = odd[i] = 0;
	for (i = 0; i < 16; i++)
		sums[i] = 0;
	for (c = band_first[b]; c < band_first[b + 1]; c = c1) {
		c1 = min(c + LANE_CHANNELS, band_first[b + 1]);
		for (; c < c1; c++) {
			int sh = __ldg(s1 + c);
			uint4 v = __ldg(vecs + (size_t)(sh % NCOPIES) * copy_vecs +
			    (size_t)c * row_vecs + (size_t)(sh / NCOPIES) + v0);

			add_vec(v, make_uint4(0, 0, 0, 0), even, odd);
		}
		widen_lanes<4>(even, odd, sums);
	}
	for (k = 0; k < 16; k++)
		if (16 * v0 + k < len)
			xb[16 * v0 + k] = (float)sums[k];
}

/* Step 1 on float rows: each band's channels summed at the group's
 * nominal DM, in channel order (as subband.c sums them). */
__global__ static void
step1_f32(const float *rows, size_t row_stride, const int *step1, int nlive,
    const int *band_first, const int *span, size_t n, size_t stride,
    float *x)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	int b = blockIdx.y, g = blockIdx.z, c;
	const int *s1 = step1 + (size_t)g * nlive;
	float acc = 0;

	if (t >= n + span[g])
		return;
	for (c = band_first[b]; c < band_first[b + 1]; c++)
		acc += rows[(size_t)c * row_stride + t + s1[c]];
	x[((size_t)g * gridDim.y + b) * stride + t] = acc;
}

/* Runs of groups of one scrunch factor, their largest spans, and each
 * trial's rows in its run's band series. */
static enum sps_err
plan_runs(struct gpu_subband *sb, const struct sps_gpu_dedisp *p,
    const struct sps_subband_tables *t, int *rowmap)
{
	int g, r = 0, d, b;

	sb->run_group = (int *)malloc((t->ngroups + 1) * sizeof(int));
	sb->run_span = (size_t *)calloc(t->ngroups, sizeof(size_t));
	if (sb->run_group == NULL || sb->run_span == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (g = 0; g < t->ngroups; g++) {
		if (g == 0 || p->scrunch[t->group_start[g]] !=
		    p->scrunch[t->group_start[g - 1]])
			sb->run_group[r++] = g;
		if (t->span[g] > sb->run_span[r - 1])
			sb->run_span[r - 1] = t->span[g];
		for (d = t->group_start[g]; d < t->group_start[g + 1]; d++)
			for (b = 0; b < t->nsub; b++)
				rowmap[(size_t)d * t->nsub + b] = (g -
				    sb->run_group[r - 1]) * t->nsub + b;
	}
	sb->run_group[r] = t->ngroups;
	sb->nruns = r;
	return SPS_OK;
}

/* Floats per band series of run r for nout base samples. */
static size_t
run_stride(const struct sps_gpu_dedisp *p, const struct gpu_subband *sb,
    int r, size_t nout)
{
	int f = p->scrunch[sb->group_start[sb->run_group[r]]];

	return (nout / f + sb->run_span[r] + ROW_PAD + 15) & ~(size_t)15;
}

static enum sps_err
setup(struct sps_gpu_dedisp *p, struct gpu_subband *sb,
    const struct sps_subband_tables *t, int *rowmap, int *span)
{
	size_t most = 0, x;
	enum sps_err e;
	int g, r;

	sb->nsub = t->nsub;
	sb->ngroups = t->ngroups;
	sb->group_start = (int *)malloc((t->ngroups + 1) * sizeof(int));
	if (sb->group_start == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	memcpy(sb->group_start, t->group_start, (t->ngroups + 1) * sizeof(int));
	if ((e = plan_runs(sb, p, t, rowmap)) != SPS_OK)
		return e;
	for (r = 0; r < sb->nruns; r++) {
		x = (size_t)(sb->run_group[r + 1] - sb->run_group[r]) * t->nsub *
		    run_stride(p, sb, r, p->nout);
		most = x > most ? x : most;
	}
	for (g = 0; g < t->ngroups; g++)
		span[g] = (int)t->span[g];
	if ((e = gpu_upload(p, (void **)&sb->d_step1, t->step1,
	    (size_t)t->ngroups * t->nlive * sizeof(int), "step-1 shifts")) !=
	    SPS_OK ||
	    (e = gpu_upload(p, (void **)&sb->d_step2, t->step2,
	    (size_t)t->ndms * t->nsub * sizeof(int), "step-2 shifts")) !=
	    SPS_OK ||
	    (e = gpu_upload(p, (void **)&sb->d_band_first, t->band_first,
	    (t->nsub + 1) * sizeof(int), "bands")) != SPS_OK ||
	    (e = gpu_upload(p, (void **)&sb->d_span, span, t->ngroups *
	    sizeof(int), "group spans")) != SPS_OK ||
	    (e = gpu_upload(p, (void **)&sb->d_rowmap, rowmap,
	    (size_t)t->ndms * t->nsub * sizeof(int), "band rows")) != SPS_OK)
		return e;
	return gpu_alloc(p, (void **)&sb->d_x, most * sizeof(float),
	    "band series");
}

extern "C" enum sps_err
sps_gpu_dedisp_subband(struct sps_gpu_dedisp *p,
    const struct sps_subband_tables *t)
{
	int *rowmap = (int *)malloc((size_t)t->ndms * t->nsub * sizeof(int));
	int *span = (int *)malloc(t->ngroups * sizeof(int));
	enum sps_err e;

	CHECK(cudaSetDevice(p->dev));
	p->subband = (struct gpu_subband *)calloc(1, sizeof(*p->subband));
	if (rowmap == NULL || span == NULL || p->subband == NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	else
		e = setup(p, p->subband, t, rowmap, span);
	free(rowmap);
	free(span);
	return e;
}

/* Run r: step 1 of all its groups, then step 2 of all its trials. */
static enum sps_err
run_groups(struct sps_gpu_dedisp *p, int r, size_t nout, float *d_out,
    const struct out_layout *o)
{
	const struct gpu_subband *sb = p->subband;
	int g0 = sb->run_group[r], ng = sb->run_group[r + 1] - g0;
	int d0 = sb->group_start[g0], d1 = sb->group_start[g0 + ng];
	int f = p->scrunch[d0], lev = sps_ceil_log2(f), is_u8;
	size_t n = nout / f, len = n + sb->run_span[r];
	size_t stride = run_stride(p, sb, r, nout);
	const void *rows = gpu_level_rows(p, lev, &is_u8);
	const int *s1 = sb->d_step1 + (size_t)g0 * p->nlive;

	if (n == 0)
		return SPS_OK;
	if (is_u8) {
		dim3 grid((unsigned)((len + 4095) / 4096), (unsigned)sb->nsub,
		    (unsigned)ng);

		step1_u8<<<grid, 256, 0, p->s_run>>>((const uint4 *)rows,
		    p->copy_words / 4, p->stride[0] / 16, s1, p->nlive,
		    sb->d_band_first, sb->d_span + g0, n, stride, sb->d_x);
	} else {
		dim3 grid((unsigned)((len + 255) / 256), (unsigned)sb->nsub,
		    (unsigned)ng);

		step1_f32<<<grid, 256, 0, p->s_run>>>((const float *)rows,
		    p->stride[lev], s1, p->nlive, sb->d_band_first,
		    sb->d_span + g0, n, stride, sb->d_x);
	}
	CHECK_LAUNCH("subband step 1");
	return gpu_gather_sum(p, sb->d_x, stride, sb->d_rowmap, sb->d_step2,
	    sb->nsub, d0, d1, f, n, d_out, o);
}

enum sps_err
gpu_subband_run(struct sps_gpu_dedisp *p, size_t nout, float *d_out,
    const struct out_layout *o)
{
	enum sps_err e = SPS_OK;
	int r;

	for (r = 0; r < p->subband->nruns && e == SPS_OK; r++)
		e = run_groups(p, r, nout, d_out, o);
	return e;
}

void
gpu_subband_free(struct sps_gpu_dedisp *p)
{
	struct gpu_subband *sb = p->subband;

	if (sb == NULL)
		return;
	cudaFree(sb->d_step1);
	cudaFree(sb->d_step2);
	cudaFree(sb->d_band_first);
	cudaFree(sb->d_span);
	cudaFree(sb->d_rowmap);
	cudaFree(sb->d_x);
	free(sb->group_start);
	free(sb->run_group);
	free(sb->run_span);
	free(sb);
	p->subband = NULL;
}

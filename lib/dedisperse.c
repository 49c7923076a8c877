/* dedisperse.c: tiled direct dedispersion on the CPU (dedisperse.h). */
#ifdef __AVX__
#include <immintrin.h>
#endif
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "dedisperse.h"
#include "dedisperse_plan.h"

static const char *const algo_names[] = {
	"direct", "subband", "tree-linear", "tree-padded"
};
#define NALGOS	(int)(sizeof(algo_names) / sizeof(algo_names[0]))

enum sps_err
sps_dedisp_algo_named(const char *name, int *algo)
{
	int i;

	for (i = 0; i < NALGOS; i++)
		if (strcmp(name, algo_names[i]) == 0) {
			*algo = i;
			return SPS_OK;
		}
	return sps_fail(SPS_EUSAGE, "%s: not one of direct, subband, "
	    "tree-linear, tree-padded", name);
}

const char *
sps_dedisp_algo_name(int algo)
{
	return algo >= 0 && algo < NALGOS ? algo_names[algo] : "unknown";
}

static int
is_power_of_2(int f)
{
	return f > 0 && (f & (f - 1)) == 0;
}

static enum sps_err
check_trials(const double *dms, const int *scrunch, int ndms)
{
	int i;

	if (ndms < 1)
		return sps_fail(SPS_EVALUE, "no DM trials");
	for (i = 0; i < ndms; i++) {
		if (!isfinite(dms[i]) || dms[i] < 0)
			return sps_fail(SPS_EVALUE, "trial %d: DM %g is "
			    "negative or not finite", i, dms[i]);
		if (scrunch != NULL && !is_power_of_2(scrunch[i]))
			return sps_fail(SPS_EVALUE, "trial %d (DM %g): scrunch "
			    "factor %d is not a power of 2", i, dms[i],
			    scrunch[i]);
	}
	return SPS_OK;
}

static enum sps_err
copy_trials(struct sps_dedisp_plan *p, const double *dms, const int *scrunch,
    int ndms)
{
	int i;

	p->dms = malloc((size_t)ndms * sizeof(double));
	p->scrunch = malloc((size_t)ndms * sizeof(int));
	if (p->dms == NULL || p->scrunch == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	p->ndms = ndms;
	p->max_scrunch = 1;
	for (i = 0; i < ndms; i++) {
		p->dms[i] = dms[i];
		p->scrunch[i] = scrunch != NULL ? scrunch[i] : 1;
		if (p->scrunch[i] > p->max_scrunch)
			p->max_scrunch = p->scrunch[i];
	}
	p->nlevels = sps_ceil_log2(p->max_scrunch) + 1;
	return SPS_OK;
}

static enum sps_err
choose_channels(struct sps_dedisp_plan *p, const struct sps_header *h,
    const unsigned char *kill)
{
	int c;

	p->live = malloc((size_t)h->nchans * sizeof(int));
	p->freq = malloc((size_t)h->nchans * sizeof(double));
	if (p->live == NULL || p->freq == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	p->fref = -INFINITY;
	for (c = 0; c < h->nchans; c++) {
		double f = sps_channel_freq(h, c);

		if (f > p->fref)
			p->fref = f;
		if (kill != NULL && kill[c])
			continue;
		p->live[p->nlive] = c;
		p->freq[p->nlive++] = f;
	}
	if (p->nlive == 0)
		return sps_fail(SPS_EVALUE, "every channel is killed");
	if (!(p->fref > 0))
		return sps_fail(SPS_EVALUE, "channel frequencies must be "
		    "positive (highest %g MHz)", p->fref);
	return SPS_OK;
}

/* Each trial's largest delay is that of the lowest live channel: delays
 * fall as the frequency rises (DMs are not negative), and rounding keeps
 * their order. */
static void
find_max_delay(struct sps_dedisp_plan *p)
{
	int i, c, low = 0;

	for (c = 1; c < p->nlive; c++)
		if (p->freq[c] < p->freq[low])
			low = c;
	p->max_delay = 0;
	for (i = 0; i < p->ndms; i++) {
		long s = sps_dedisp_shift(p, i, low) * p->scrunch[i];

		if (s > 0 && (size_t)s > p->max_delay)
			p->max_delay = (size_t)s;
	}
}

/* Sub-bands of 2^ceil(log2(sqrt(nchans))) channels, as the tree's. */
static int
default_nsub(int nchans)
{
	int width = 1;

	while ((double)width * width < nchans)
		width *= 2;
	return (nchans + width - 1) / width;
}

enum sps_err
sps_dedisp_create(struct sps_dedisp_plan **plan, const struct sps_header *h,
    const double *dms, const int *scrunch, int ndms,
    const unsigned char *kill, const struct sps_dedisp_opts *opts)
{
	int nthreads = opts != NULL ? opts->nthreads : 0;
	struct sps_dedisp_plan *p;
	enum sps_err e;

	*plan = NULL;
	if ((e = check_trials(dms, scrunch, ndms)) != SPS_OK)
		return e;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	p->nchans = h->nchans;
	p->nifs = h->nifs;
	p->tsamp = h->tsamp;
	p->nthreads = nthreads > 0 ? nthreads : omp_get_max_threads();
	p->offsets = malloc(((size_t)ndms + 1) * sizeof(size_t));
	if (p->offsets == NULL) {
		sps_dedisp_free(p);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	if ((e = copy_trials(p, dms, scrunch, ndms)) != SPS_OK ||
	    (e = choose_channels(p, h, kill)) != SPS_OK) {
		sps_dedisp_free(p);
		return e;
	}
	p->algo = opts != NULL ? opts->algo : SPS_ALGO_DIRECT;
	switch (p->algo) {
	case SPS_ALGO_DIRECT:
		find_max_delay(p);
		break;
	case SPS_ALGO_SUBBAND:
		e = sps_subband_prepare(p, h, opts->nsub > 0 ? opts->nsub :
		    default_nsub(h->nchans), opts->group);
		break;
	case SPS_ALGO_TREE_LINEAR:
	case SPS_ALGO_TREE_PADDED:
		e = sps_tree_prepare(p, h, opts->nsub);
		break;
	default:
		e = sps_fail(SPS_EVALUE, "unknown dedispersion algorithm %d",
		    p->algo);
	}
	if (e != SPS_OK) {
		sps_dedisp_free(p);
		return e;
	}
	*plan = p;
	return SPS_OK;
}

void
sps_dedisp_free(struct sps_dedisp_plan *p)
{
	if (p == NULL)
		return;
	free(p->live);
	free(p->freq);
	free(p->dms);
	free(p->scrunch);
	free(p->work);
	free(p->offsets);
	sps_subband_free(p);
	sps_tree_free(p);
	free(p);
}

size_t
sps_dedisp_max_delay(const struct sps_dedisp_plan *p)
{
	return p->max_delay;
}

size_t
sps_dedisp_held_bytes(const struct sps_dedisp_plan *p)
{
	return sps_dedisp_level_offset(p, p->work_nin, p->nlevels) *
	    sizeof(float) + p->sub_work_len * (size_t)p->nthreads *
	    sizeof(float) + sps_tree_held_bytes(p);
}

double
sps_dedisp_smear_bound(const struct sps_dedisp_plan *p)
{
	return p->smear_bound;
}

const char *
sps_dedisp_smear_note(const struct sps_dedisp_plan *p, char *buf, size_t len)
{
	double ms = sps_dedisp_smear_bound(p) * 1e3;

	switch (p->algo) {
	case SPS_ALGO_SUBBAND:
		snprintf(buf, len, "sub-band smearing bound %.3g ms (Barsdell "
		    "et al. 2012, eq. B1)", ms);
		return buf;
	case SPS_ALGO_TREE_LINEAR:
		snprintf(buf, len, "tree smearing %.3g ms (largest over trials "
		    "and channels, delay rounding included; the piecewise-"
		    "linear error alone, Barsdell et al. 2012 eq. A4: %.3g "
		    "ms)", ms, sps_dedisp_tree_linear_error(p) * 1e3);
		return buf;
	case SPS_ALGO_TREE_PADDED:
		snprintf(buf, len, "tree smearing %.3g ms (largest over trials "
		    "and channels)", ms);
		return buf;
	default:
		return NULL;
	}
}

double
sps_dedisp_tree_linear_error(const struct sps_dedisp_plan *p)
{
	return p->algo == SPS_ALGO_TREE_LINEAR ? sps_tree_a4(p) : 0;
}

enum sps_dedisp_algo
sps_dedisp_algo(const struct sps_dedisp_plan *p)
{
	return (enum sps_dedisp_algo)p->algo;
}

long
sps_dedisp_effective_shift(const struct sps_dedisp_plan *p, int trial,
    int live)
{
	switch (p->algo) {
	case SPS_ALGO_SUBBAND:
		return sps_subband_shift(p, trial, live);
	case SPS_ALGO_TREE_LINEAR:
	case SPS_ALGO_TREE_PADDED:
		return sps_tree_shift(p, trial, live);
	default:
		return sps_dedisp_shift(p, trial, live);
	}
}

int *
sps_dedisp_shift_table(const struct sps_dedisp_plan *p)
{
	int *s = malloc((size_t)p->ndms * (size_t)p->nlive * sizeof(int));
	int d, c;

	if (s == NULL)
		return NULL;
#pragma omp parallel for private(c) schedule(static)
	for (d = 0; d < p->ndms; d++)
		for (c = 0; c < p->nlive; c++)
			s[(size_t)d * (size_t)p->nlive + (size_t)c] =
			    (int)sps_dedisp_shift(p, d, c);
	return s;
}

int
sps_dedisp_max_scrunch(const struct sps_dedisp_plan *p)
{
	return p->max_scrunch;
}

size_t
sps_dedisp_out_offset(const struct sps_dedisp_plan *p, size_t nout,
    int trial)
{
	size_t off = 0;
	int i;

	for (i = 0; i < trial; i++)
		off += nout / (size_t)p->scrunch[i];
	return off;
}

size_t
sps_dedisp_out_size(const struct sps_dedisp_plan *p, size_t nout)
{
	return sps_dedisp_out_offset(p, nout, p->ndms);
}

size_t
sps_dedisp_work_bytes(const struct sps_dedisp_plan *p, size_t nin,
    size_t nout)
{
	size_t b = sps_dedisp_level_offset(p, nin, p->nlevels) * sizeof(float);

	if (p->algo == SPS_ALGO_SUBBAND)
		return b + sps_subband_work_bytes(p, nout);
	if (p->algo == SPS_ALGO_DIRECT)	/* each thread's shifts (execute) */
		return b + (size_t)p->nthreads * TILE_TRIALS * (size_t)p->nlive *
		    sizeof(long);
	return b + sps_tree_work_bytes(p, nout);
}

/* Spectra t .. t + 7, channels c .. c + 7 (stride floats apart) to rows
 * c .. c + 7 (nin floats apart), samples t .. t + 7. */
static void
transpose8(const float *src, size_t stride, float *dst, size_t nin)
{
#ifdef __AVX__
	__m256 r[8], u[8], v[8];
	int i;

	for (i = 0; i < 8; i++)
		r[i] = _mm256_loadu_ps(src + i * stride);
	for (i = 0; i < 8; i += 2) {
		u[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
		u[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
	}
	for (i = 0; i < 8; i += 4) {
		v[i] = _mm256_shuffle_ps(u[i], u[i + 2], 0x44);
		v[i + 1] = _mm256_shuffle_ps(u[i], u[i + 2], 0xee);
		v[i + 2] = _mm256_shuffle_ps(u[i + 1], u[i + 3], 0x44);
		v[i + 3] = _mm256_shuffle_ps(u[i + 1], u[i + 3], 0xee);
	}
	for (i = 0; i < 4; i++) {
		_mm256_storeu_ps(dst + i * nin, _mm256_permute2f128_ps(v[i],
		    v[i + 4], 0x20));
		_mm256_storeu_ps(dst + (i + 4) * nin, _mm256_permute2f128_ps(
		    v[i], v[i + 4], 0x31));
	}
#else
	float b[8][8];
	int i, j;

	for (i = 0; i < 8; i++)
		for (j = 0; j < 8; j++)
			b[j][i] = src[i * stride + j];
	for (j = 0; j < 8; j++)
		memcpy(dst + j * nin, b[j], sizeof(b[j]));
#endif
}

/* One live channel c, spectra [t0, tend), IFs summed. */
static void
transpose1(const struct sps_dedisp_plan *p, const float *in, size_t nin,
    int c, size_t t0, size_t tend, float *rows)
{
	size_t stride = (size_t)p->nchans * (size_t)p->nifs, t;
	float *row = rows + (size_t)c * nin;
	int f;

	for (t = t0; t < tend; t++) {
		const float *spec = in + t * stride;
		float v = spec[p->live[c]];

		for (f = 1; f < p->nifs; f++)
			v += spec[(size_t)f * p->nchans + p->live[c]];
		row[t] = v;
	}
}

/* Time-major spectra to channel-major rows of live channels, IFs summed,
 * in tiles of 64 spectra; runs of 8 adjacent live channels of one IF in
 * 8 x 8 blocks. */
static void
transpose(const struct sps_dedisp_plan *p, const float *in, size_t nin,
    float *rows)
{
	size_t stride = (size_t)p->nchans * (size_t)p->nifs;
	long t0;

#pragma omp parallel for num_threads(p->nthreads) schedule(static)
	for (t0 = 0; t0 < (long)nin; t0 += 64) {
		size_t tend = (size_t)t0 + 64 < nin ? (size_t)t0 + 64 : nin, t;
		int c = 0, k, run;

		while (c < p->nlive) {
			run = p->nifs == 1 && c + 8 <= p->nlive &&
			    p->live[c + 7] == p->live[c] + 7 ? 8 : 1;
			t = (size_t)t0;
			if (run == 8)
				for (; t + 8 <= tend; t += 8)
					transpose8(in + t * stride + p->live[c],
					    stride, rows + (size_t)c * nin + t,
					    nin);
			for (k = 0; k < run; k++)
				transpose1(p, in, nin, c + k, t, tend, rows);
			c += run;
		}
	}
}

static void
scrunch_level(const struct sps_dedisp_plan *p, const float *prev,
    size_t nprev, float *next)
{
	size_t nnext = nprev / 2;
	int c;

#pragma omp parallel for num_threads(p->nthreads) schedule(static)
	for (c = 0; c < p->nlive; c++) {
		const float *a = prev + (size_t)c * nprev;
		float *b = next + (size_t)c * nnext;
		size_t j;

		for (j = 0; j < nnext; j++)
			b[j] = a[2 * j] + a[2 * j + 1];
	}
}

/* acc[t] += the sum of four shifted rows, t < n. */
static void
add4(float *restrict acc, const float *restrict r0, const float *restrict r1,
    const float *restrict r2, const float *restrict r3, size_t n)
{
	size_t t;

#pragma omp simd
	for (t = 0; t < n; t++)
		acc[t] += (r0[t] + r1[t]) + (r2[t] + r3[t]);
}

static void
add1(float *restrict acc, const float *restrict r0, size_t n)
{
	size_t t;

#pragma omp simd
	for (t = 0; t < n; t++)
		acc[t] += r0[t];
}

/* One tile: trials [d0, d1) (same scrunch factor), output samples
 * [j0, j1) of that factor's grid. */
static void
dedisperse_tile(const struct sps_dedisp_plan *p, const float *level,
    size_t nlev, int d0, int d1, size_t j0, size_t j1, float *out,
    size_t nout, long *shifts)
{
	size_t n = j1 - j0;
	int d, c;

	(void)nout;
	for (d = d0; d < d1; d++) {
		memset(out + p->offsets[d] + j0, 0,
		    n * sizeof(float));
		for (c = 0; c < p->nlive; c++)
			shifts[(size_t)(d - d0) * p->nlive + c] =
			    sps_dedisp_shift(p, d, c);
	}
	for (c = 0; c + 4 <= p->nlive; c += 4) {
		const float *r = level + (size_t)c * nlev + j0;

		for (d = d0; d < d1; d++) {
			const long *s = shifts + (size_t)(d - d0) * p->nlive + c;

			add4(out + p->offsets[d] + j0,
			    r + s[0], r + nlev + s[1], r + 2 * nlev + s[2],
			    r + 3 * nlev + s[3], n);
		}
	}
	for (; c < p->nlive; c++)
		for (d = d0; d < d1; d++)
			add1(out + p->offsets[d] + j0,
			    level + (size_t)c * nlev + j0 +
			    shifts[(size_t)(d - d0) * p->nlive + c], n);
}

/* Work items: runs of up to TILE_TRIALS trials of one scrunch factor,
 * crossed with time tiles. */
struct tile {
	int	d0, d1;
	size_t	j0, j1;
};

static size_t
list_tiles(const struct sps_dedisp_plan *p, size_t nout, struct tile *tiles)
{
	size_t ntiles = 0;
	int d0 = 0, d1;

	while (d0 < p->ndms) {
		size_t nj = nout / (size_t)p->scrunch[d0], j0;

		for (d1 = d0 + 1; d1 < p->ndms && d1 - d0 < TILE_TRIALS &&
		    p->scrunch[d1] == p->scrunch[d0]; d1++)
			;
		for (j0 = 0; j0 < nj; j0 += TILE_TIME) {
			if (tiles != NULL) {
				tiles[ntiles].d0 = d0;
				tiles[ntiles].d1 = d1;
				tiles[ntiles].j0 = j0;
				tiles[ntiles].j1 = j0 + TILE_TIME < nj ?
				    j0 + TILE_TIME : nj;
			}
			ntiles++;
		}
		d0 = d1;
	}
	return ntiles;
}

static enum sps_err
prepare_work(struct sps_dedisp_plan *p, size_t nin)
{
	size_t bytes = sps_dedisp_level_offset(p, nin, p->nlevels) *
	    sizeof(float);

	if (p->work != NULL && nin <= p->work_nin)
		return SPS_OK;
	free(p->work);
	if ((p->work = malloc(bytes)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory for a block of "
		    "%zu spectra (%zu MB)", nin, bytes >> 20);
	p->work_nin = nin;
	return SPS_OK;
}

enum sps_err
sps_dedisp_reserve(struct sps_dedisp_plan *p, size_t nin, size_t nout)
{
	enum sps_err e;

	if ((e = prepare_work(p, nin)) != SPS_OK)
		return e;
	switch (p->algo) {
	case SPS_ALGO_SUBBAND:
		return sps_subband_reserve(p, nout);
	case SPS_ALGO_TREE_LINEAR:
	case SPS_ALGO_TREE_PADDED:
		return sps_tree_reserve(p, nout);
	default:
		return SPS_OK;
	}
}

enum sps_err
sps_dedisp_execute(struct sps_dedisp_plan *p, const float *in, size_t nin,
    size_t nout, float *out)
{
	struct tile *tiles;
	size_t ntiles;
	enum sps_err e = SPS_OK;
	long t;
	int k;

	if (nin < nout + p->max_delay)
		return sps_fail(SPS_EUSAGE, "block of %zu spectra is shorter "
		    "than %zu output samples plus the largest delay %zu",
		    nin, nout, p->max_delay);
	if ((e = sps_dedisp_reserve(p, nin, nout)) != SPS_OK)
		return e;
	for (k = 0; k <= p->ndms; k++)
		p->offsets[k] = k == 0 ? 0 : p->offsets[k - 1] +
		    nout / (size_t)p->scrunch[k - 1];
	transpose(p, in, nin, p->work);
	for (k = 1; k < p->nlevels; k++)
		scrunch_level(p, p->work + sps_dedisp_level_offset(p, nin, k - 1),
		    nin >> (k - 1), p->work + sps_dedisp_level_offset(p, nin, k));
	if (p->algo == SPS_ALGO_SUBBAND)
		return sps_subband_execute(p, nin, nout, out);
	if (p->algo != SPS_ALGO_DIRECT)
		return sps_tree_execute(p, nin, nout, out);
	ntiles = list_tiles(p, nout, NULL);
	if ((tiles = malloc((ntiles + 1) * sizeof(*tiles))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	list_tiles(p, nout, tiles);
#pragma omp parallel num_threads(p->nthreads)
	{
		long *shifts = malloc((size_t)TILE_TRIALS * p->nlive *
		    sizeof(long));

		if (shifts == NULL) {
#pragma omp atomic write
			e = SPS_ENOMEM;
		}
#pragma omp for schedule(dynamic, 1)
		for (t = 0; t < (long)ntiles; t++) {
			const struct tile *tl = &tiles[t];
			int lev = sps_ceil_log2(p->scrunch[tl->d0]);

			if (shifts != NULL)
				dedisperse_tile(p, p->work +
				    sps_dedisp_level_offset(p, nin, lev), nin >> lev,
				    tl->d0, tl->d1, tl->j0, tl->j1, out, nout,
				    shifts);
		}
		free(shifts);
	}
	free(tiles);
	if (e != SPS_OK)
		return sps_fail(e, "out of memory");
	return SPS_OK;
}

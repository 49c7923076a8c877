/* tree.c: tree dedispersion on the CPU (Barsdell et al. 2012 §3.1):
 * piecewise linear (§3.1.1) and frequency-padded (§3.1.2), with passes
 * for DMs beyond the diagonal and time-scrunched levels (§3.1.3).  The
 * sums are those of struct sps_tree_tables in dedisperse.h, in the same
 * order, so that the GPU can equal them bit for bit.
 *
 * A level's trials are made in chunks of output samples.  Stage 1 fills,
 * for each (sub-band, pass) some trial of the level uses, the tree rows
 * T[d'] over the times the chunk's trials read; stage 2 sums one row per
 * sub-band into each trial.  Trees up to LOCAL_WIDTH slots are built
 * whole by one task over LOCAL_TIME samples at a time, in cache; wider
 * ones (the padded tree) in blocks of LOCAL_BLOCK slots that way, then
 * step by step over whole rows. */
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "dedisperse.h"
#include "dedisperse_plan.h"
#include "dmdelay.h"

#define LOCAL_WIDTH	64	/* trees this wide are built by one task */
#define LOCAL_BLOCK	32	/* else blocks of this many slots are */
#define LOCAL_TIME	1024	/* samples one such task makes */
#define STORE_BUDGET	((size_t)32 << 20)	/* floats a chunk aims at */
#define CHUNK_MIN	1024	/* output samples per chunk */
#define CHUNK_MAX	16384
#define STAGE2_TIME	1024	/* output samples per stage-2 item */
#define MAX_PAD		16	/* padded width at most this * nchans */
#define MAX_WIDTH	(1 << 20)

struct tree_pair {		/* one (sub-band, pass) a level computes */
	int	 b, pass;
	int	 minoff, maxoff;	/* the stage-2 offsets its trials use */
	float	*rows;		/* T[0] in the store, this chunk */
	size_t	 stride;	/* floats from T[d'] to T[d' + 1] */
};

struct local_task {		/* local tree of pair q, block bl, times */
	int	 q, bl;		/* [u0, u0 + n) of the block's top level */
	size_t	 u0, n;
};

struct sps_tree {
	int	 nsub, width, log2w;
	int	 local, log2l;	/* slots per local block */
	double	 foff;		/* MHz, magnitude */
	int	*slot_live;	/* nsub * width, -1: empty */
	int	*slot_of;	/* nlive: b * width + s */
	int	*pass, *tdm, *offset;	/* ndms * nsub */
	int	*pass_lo, *pass_hi;	/* nlevels * nsub */
	int	*level_first;	/* nlevels + 1, into level_trials */
	int	*level_trials;	/* trials grouped by level, in order */
	int	*pair_first;	/* nlevels + 1, into pairs */
	struct tree_pair *pairs;
	int	*used;		/* per pair, width + 1: trials using T[< d'] */
	int	*pair_of;	/* ndms * nsub */
	size_t	*chunk;		/* nlevels: output samples per chunk */
	/* held after sps_tree_reserve */
	size_t	 nout;		/* block reserved for, 0: none */
	float	*store;
	size_t	 store_len;	/* floats */
	float	*scratch;
	size_t	 scratch_len;	/* floats per thread */
	struct local_task *tasks;
	size_t	 max_tasks;
};

/* The delay of slot s in trial d of a tree of `width` slots: in the
 * bottom half of a block, trial d adds (d + 1) >> 1, and each half holds
 * trial d >> 1 of its own tree. */
static long
tree_delay(int width, int d, int s)
{
	long delay = 0;
	int half;

	for (half = width / 2; half > 0; half /= 2) {
		if (s >= half) {
			delay += (d + 1) >> 1;
			s -= half;
		}
		d >>= 1;
	}
	return delay;
}

static long
slot_shift(const struct sps_tree *t, int trial, int b, int s)
{
	size_t k = (size_t)trial * t->nsub + b;

	return t->offset[k] + (long)t->pass[k] * s + tree_delay(t->width,
	    t->tdm[k], s);
}

long
sps_tree_shift(const struct sps_dedisp_plan *p, int trial, int live)
{
	const struct sps_tree *t = p->tree;
	int slot = t->slot_of[live];

	return slot_shift(t, trial, slot / t->width, slot % t->width);
}

/* Channels by frequency, highest first. */
struct chan_freq {
	double	f;
	int	c;
};

static int
by_frequency(const void *a, const void *b)
{
	const struct chan_freq *x = a, *y = b;

	if (x->f != y->f)
		return x->f > y->f ? -1 : 1;
	return x->c - y->c;
}

static enum sps_err
sort_channels(const struct sps_header *h, int **order)
{
	struct chan_freq *cf;
	int c;

	*order = malloc((size_t)h->nchans * sizeof(int));
	cf = malloc((size_t)h->nchans * sizeof(*cf));
	if (*order == NULL || cf == NULL) {
		free(cf);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	for (c = 0; c < h->nchans; c++) {
		cf[c].f = sps_channel_freq(h, c);
		cf[c].c = c;
	}
	qsort(cf, (size_t)h->nchans, sizeof(*cf), by_frequency);
	for (c = 0; c < h->nchans; c++)
		(*order)[c] = cf[c].c;
	free(cf);
	return SPS_OK;
}

static int
ceil_pow2(long n)
{
	int w = 1;

	while (w < n && w < MAX_WIDTH * 2)
		w *= 2;
	return w;
}

/* Slots of the piecewise linear tree: rank r (from the top) in sub-band
 * r / width, slot r % width. */
static enum sps_err
linear_slots(struct sps_tree *t, const struct sps_header *h, int nsub,
    const int *order, int *slot_of_chan)
{
	int r;

	if (nsub > 0)
		t->width = ceil_pow2((h->nchans + nsub - 1) / nsub);
	else
		for (t->width = 1; (double)t->width * t->width < h->nchans;
		    t->width *= 2)
			;
	if (t->width < 2)
		return sps_fail(SPS_EVALUE, "tree: %d sub-bands of %d channels "
		    "leave fewer than 2 channels per sub-band", nsub,
		    h->nchans);
	t->nsub = (h->nchans + t->width - 1) / t->width;
	for (r = 0; r < h->nchans; r++)
		slot_of_chan[order[r]] = r;
	return SPS_OK;
}

/* Slots of the padded tree (eq. 25): a channel's delay per unit DM
 * behind the top, in units of the smallest step between neighbours. */
static enum sps_err
padded_slots(struct sps_tree *t, const struct sps_header *h,
    const int *order, int *slot_of_chan, double *step)
{
	double ftop = sps_channel_freq(h, order[0]), last;
	long prev = -1, s;
	int r;

	if (h->nchans < 2)
		return sps_fail(SPS_EVALUE, "tree: the padded tree needs at "
		    "least 2 channels");
	*step = INFINITY;
	for (r = 1; r < h->nchans; r++)
		*step = fmin(*step, sps_dm_delay(1, sps_channel_freq(h,
		    order[r]), sps_channel_freq(h, order[r - 1])));
	if (!(*step > 0))
		return sps_fail(SPS_EVALUE, "tree: two channels share a "
		    "frequency; the padded tree needs distinct ones");
	last = sps_dm_delay(1, sps_channel_freq(h, order[h->nchans - 1]),
	    ftop) / *step;
	if (!(last + 1 <= (double)MAX_PAD * h->nchans) || last + 1 > MAX_WIDTH)
		return sps_fail(SPS_EVALUE, "tree: padding %d channels to "
		    "linear delay needs %.0f slots (more than %d times the "
		    "channels or %d); use the piecewise linear tree", h->nchans,
		    last + 1, MAX_PAD, MAX_WIDTH);
	for (r = 0; r < h->nchans; r++) {
		s = lround(sps_dm_delay(1, sps_channel_freq(h, order[r]),
		    ftop) / *step);
		if (s <= prev)
			return sps_fail(SPS_EVALUE, "tree: channels %d and %d "
			    "fall in one padded slot", order[r - 1], order[r]);
		slot_of_chan[order[r]] = (int)s;
		prev = s;
	}
	t->nsub = 1;
	t->width = ceil_pow2(prev + 1);
	return SPS_OK;
}

static enum sps_err
fill_slots(struct sps_dedisp_plan *p, const int *slot_of_chan)
{
	struct sps_tree *t = p->tree;
	size_t n = (size_t)t->nsub * t->width, k;
	int c;

	t->slot_live = malloc(n * sizeof(int));
	t->slot_of = malloc((size_t)p->nlive * sizeof(int));
	if (t->slot_live == NULL || t->slot_of == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (k = 0; k < n; k++)
		t->slot_live[k] = -1;
	for (c = 0; c < p->nlive; c++) {
		t->slot_of[c] = slot_of_chan[p->live[c]];
		t->slot_live[t->slot_of[c]] = c;
	}
	return SPS_OK;
}

/* Each sub-band's first and last real (not padding) channel. */
struct band_ends {
	double	*top, *bottom;	/* MHz; NULL for the padded tree */
	int	*last;		/* slot of the last one */
	double	 step;		/* padded: delay per slot per unit DM */
};

static double
slope_of(const struct sps_dedisp_plan *p, const struct band_ends *be,
    int i, int b)
{
	double ts = p->tsamp * p->scrunch[i];

	if (be->top == NULL)
		return be->step * p->dms[i] / ts;
	if (be->last[b] < 1)
		return 0;
	return sps_dm_delay(p->dms[i], be->bottom[b], be->top[b]) / ts /
	    be->last[b];
}

/* What sub-band b sums for one trial, where x holds the exact delays of
 * the live channels in scrunched samples: of the linear delays D0 - 1,
 * D0, D0 + 1 across the sub-band (D0 from the line through its ends),
 * the one whose residuals, centred by the offset (Appendix B's remark),
 * stray least. */
static void
choose_one(struct sps_tree *t, size_t k, int b, const double *x,
    double slope)
{
	static const int step[] = { 0, -1, 1 };
	const int *slot_live = t->slot_live + (size_t)b * t->width;
	long d0 = lround(slope * (t->width - 1)), d;
	double best = INFINITY;
	int j, s;

	t->pass[k] = t->tdm[k] = t->offset[k] = 0;
	for (j = 0; j < 3; j++) {
		double rmin = INFINITY, rmax = -INFINITY, err;
		int pass, tdm;
		long off;

		if ((d = d0 + step[j]) < 0)
			continue;
		pass = (int)(d / (t->width - 1));
		tdm = (int)(d % (t->width - 1));
		for (s = 0; s < t->width; s++) {
			double r;

			if (slot_live[s] < 0)
				continue;
			r = x[slot_live[s]] - ((double)pass * s +
			    tree_delay(t->width, tdm, s));
			rmin = fmin(rmin, r);
			rmax = fmax(rmax, r);
		}
		if (rmin > rmax)
			return;		/* no live channel */
		off = lround(0.5 * (rmin + rmax));
		if (off < 0)
			off = 0;
		err = fmax(rmax - off, off - rmin);
		if (err < best) {
			best = err;
			t->pass[k] = pass;
			t->tdm[k] = tdm;
			t->offset[k] = (int)off;
		}
	}
}

/* Trial i's passes, tree trials and offsets; its spread of x - e in
 * seconds and its largest e in input samples. */
static void
choose_trial(struct sps_dedisp_plan *p, int i, const struct band_ends *be,
    double *x, double *spread, size_t *reach)
{
	struct sps_tree *t = p->tree;
	double ts = p->tsamp * p->scrunch[i], lo = INFINITY, hi = -INFINITY;
	long emax = 0;
	int b, c;

	for (c = 0; c < p->nlive; c++)
		x[c] = sps_dm_delay(p->dms[i], p->freq[c], p->fref) / ts;
	for (b = 0; b < t->nsub; b++)
		choose_one(t, (size_t)i * t->nsub + b, b, x,
		    slope_of(p, be, i, b));
	for (c = 0; c < p->nlive; c++) {
		long e = sps_tree_shift(p, i, c);

		lo = fmin(lo, x[c] - e);
		hi = fmax(hi, x[c] - e);
		if (e > emax)
			emax = e;
	}
	*spread = (hi - lo) * ts;
	*reach = (size_t)emax * p->scrunch[i];
}

static enum sps_err
band_ends(const struct sps_dedisp_plan *p, const struct sps_header *h,
    const int *order, struct band_ends *be)
{
	const struct sps_tree *t = p->tree;
	int b, first, last;

	be->top = malloc((size_t)t->nsub * sizeof(double));
	be->bottom = malloc((size_t)t->nsub * sizeof(double));
	be->last = malloc((size_t)t->nsub * sizeof(int));
	if (be->top == NULL || be->bottom == NULL || be->last == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (b = 0; b < t->nsub; b++) {
		first = b * t->width;
		last = (b + 1) * t->width < h->nchans ? (b + 1) * t->width - 1 :
		    h->nchans - 1;
		be->top[b] = sps_channel_freq(h, order[first]);
		be->bottom[b] = sps_channel_freq(h, order[last]);
		be->last[b] = last - first;
	}
	return SPS_OK;
}

static enum sps_err
alloc_trials(struct sps_dedisp_plan *p)
{
	struct sps_tree *t = p->tree;
	size_t n = (size_t)p->ndms * t->nsub, m = (size_t)p->nlevels * t->nsub;

	t->pass = malloc(n * sizeof(int));
	t->tdm = malloc(n * sizeof(int));
	t->offset = malloc(n * sizeof(int));
	t->pair_of = malloc(n * sizeof(int));
	t->pass_lo = malloc(m * sizeof(int));
	t->pass_hi = malloc(m * sizeof(int));
	t->level_first = calloc((size_t)p->nlevels + 1, sizeof(int));
	t->level_trials = malloc((size_t)p->ndms * sizeof(int));
	t->pair_first = calloc((size_t)p->nlevels + 1, sizeof(int));
	t->chunk = calloc((size_t)p->nlevels, sizeof(size_t));
	if (t->pass == NULL || t->tdm == NULL || t->offset == NULL ||
	    t->pair_of == NULL || t->pass_lo == NULL || t->pass_hi == NULL ||
	    t->level_first == NULL || t->level_trials == NULL ||
	    t->pair_first == NULL || t->chunk == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	return SPS_OK;
}

/* Delays this large would overflow the tables' ints. */
static enum sps_err
check_reach(const struct sps_dedisp_plan *p)
{
	double lowest = INFINITY;
	int c, i;

	for (c = 0; c < p->nlive; c++)
		lowest = fmin(lowest, p->freq[c]);
	for (i = 0; i < p->ndms; i++)
		if (sps_dm_delay(p->dms[i], lowest, p->fref) / (p->tsamp *
		    p->scrunch[i]) > INT_MAX / 4)
			return sps_fail(SPS_EVALUE, "tree: trial %d (DM %g): "
			    "delay of more than %d samples", i, p->dms[i],
			    INT_MAX / 4);
	return SPS_OK;
}

/* Trials are independent: threads share them, each with its own x. */
static enum sps_err
choose_all(struct sps_dedisp_plan *p, const struct band_ends *be)
{
	double bound = 0;
	size_t most = 0;
	int failed = 0;

#pragma omp parallel num_threads(p->nthreads) reduction(max: bound, most) \
    reduction(|: failed)
	{
		double *x = malloc((size_t)p->nlive * sizeof(double)), spread;
		size_t reach;
		int i;

		failed = x == NULL;
#pragma omp for schedule(dynamic, 16)
		for (i = 0; i < p->ndms; i++) {
			if (x == NULL)
				continue;
			choose_trial(p, i, be, x, &spread, &reach);
			bound = fmax(bound, spread);
			if (reach > most)
				most = reach;
		}
		free(x);
	}
	if (failed)
		return sps_fail(SPS_ENOMEM, "out of memory");
	p->smear_bound = bound;
	p->max_delay = most;
	return SPS_OK;
}

/* Rows and extra samples per chunk sample of a pair: a narrow tree's
 * store holds T alone; a wide one's two buffers also the samples its
 * upper steps reach ahead. */
static size_t
pair_rows(const struct sps_tree *t)
{
	return t->local < t->width ? 2 * (size_t)t->width : (size_t)t->width;
}

static size_t
pair_extra(const struct sps_tree *t, const struct tree_pair *pr)
{
	return (size_t)(pr->maxoff - pr->minoff) + (size_t)(t->width -
	    t->local);
}

static size_t
chunk_floats(const struct sps_tree *t, int k, size_t c)
{
	size_t n = 0;
	int q;

	for (q = t->pair_first[k]; q < t->pair_first[k + 1]; q++)
		n += pair_rows(t) * (c + pair_extra(t, &t->pairs[q]));
	return n;
}

static void
count_used(struct sps_tree *t, int q)
{
	int *u = t->used + (size_t)q * (t->width + 1), d;

	for (d = 0; d < t->width; d++)
		u[d + 1] += u[d];
}

/* Does a trial need row d of step l of pair q's tree: is some T[d'] with
 * d' >> (log2(width) - l) == d used?  Rows no trial needs are not made. */
static int
row_needed(const struct sps_tree *t, int q, int l, int d)
{
	const int *u = t->used + (size_t)q * (t->width + 1);
	int sh = t->log2w - l;

	return u[(d + 1) << sh] > u[d << sh];
}

/* The (sub-band, pass) pairs each level computes, and its chunk. */
static enum sps_err
make_pairs(struct sps_dedisp_plan *p)
{
	struct sps_tree *t = p->tree;
	int k, a, b, i, n = 0, cap = 0;

	for (k = 0; k < p->nlevels; k++)
		for (b = 0; b < t->nsub; b++) {
			int *lo = &t->pass_lo[k * t->nsub + b];
			int *hi = &t->pass_hi[k * t->nsub + b];

			*lo = 0;
			*hi = -1;
			for (a = t->level_first[k]; a < t->level_first[k + 1];
			    a++) {
				int ps = t->pass[(size_t)t->level_trials[a] *
				    t->nsub + b];

				if (a == t->level_first[k] || ps < *lo)
					*lo = ps;
				if (a == t->level_first[k] || ps > *hi)
					*hi = ps;
			}
			cap += *hi - *lo + 1;
		}
	t->pairs = calloc((size_t)cap + 1, sizeof(*t->pairs));
	t->used = calloc(((size_t)cap + 1) * (t->width + 1), sizeof(int));
	if (t->pairs == NULL || t->used == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (k = 0; k < p->nlevels; k++) {
		t->pair_first[k] = n;
		for (b = 0; b < t->nsub; b++) {
			int lo = t->pass_lo[k * t->nsub + b], ps;

			for (ps = lo; ps <= t->pass_hi[k * t->nsub + b]; ps++) {
				struct tree_pair *pr = &t->pairs[n];

				pr->b = b;
				pr->pass = ps;
				pr->minoff = INT_MAX;
				pr->maxoff = -1;
				for (a = t->level_first[k];
				    a < t->level_first[k + 1]; a++) {
					size_t j;

					i = t->level_trials[a];
					j = (size_t)i * t->nsub + b;
					if (t->pass[j] != ps)
						continue;
					t->pair_of[j] = n;
					t->used[(size_t)n * (t->width + 1) +
					    t->tdm[j] + 1] = 1;
					if (t->offset[j] < pr->minoff)
						pr->minoff = t->offset[j];
					if (t->offset[j] > pr->maxoff)
						pr->maxoff = t->offset[j];
				}
				if (pr->maxoff >= 0)	/* else unused */
					count_used(t, n++);
			}
		}
	}
	t->pair_first[p->nlevels] = n;
	return SPS_OK;
}

static void
choose_chunks(struct sps_dedisp_plan *p)
{
	struct sps_tree *t = p->tree;
	int k;

	for (k = 0; k < p->nlevels; k++) {
		size_t fixed = chunk_floats(t, k, 0);
		size_t per = chunk_floats(t, k, 1) - fixed, c = CHUNK_MIN;

		if (per > 0 && fixed < STORE_BUDGET)
			c = (STORE_BUDGET - fixed) / per / STAGE2_TIME *
			    STAGE2_TIME;
		if (c < CHUNK_MIN)
			c = CHUNK_MIN;
		if (c > CHUNK_MAX)
			c = CHUNK_MAX;
		t->chunk[k] = c;
	}
}

static void
group_levels(struct sps_dedisp_plan *p)
{
	struct sps_tree *t = p->tree;
	int k, i, n = 0;

	for (k = 0; k < p->nlevels; k++) {
		t->level_first[k] = n;
		for (i = 0; i < p->ndms; i++)
			if (sps_ceil_log2(p->scrunch[i]) == k)
				t->level_trials[n++] = i;
	}
	t->level_first[p->nlevels] = n;
}

static enum sps_err
place_channels(struct sps_dedisp_plan *p, const struct sps_header *h,
    int nsub, struct band_ends *be)
{
	struct sps_tree *t = p->tree;
	int *order = NULL, *slot_of_chan;
	enum sps_err e;

	if ((slot_of_chan = malloc((size_t)h->nchans * sizeof(int))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if ((e = sort_channels(h, &order)) != SPS_OK)
		goto out;
	if (p->algo == SPS_ALGO_TREE_LINEAR) {
		if ((e = linear_slots(t, h, nsub, order, slot_of_chan)) !=
		    SPS_OK || (e = band_ends(p, h, order, be)) != SPS_OK)
			goto out;
	} else if ((e = padded_slots(t, h, order, slot_of_chan,
	    &be->step)) != SPS_OK)
		goto out;
	for (t->log2w = 0; (1 << t->log2w) < t->width; t->log2w++)
		;
	t->local = t->width <= LOCAL_WIDTH ? t->width : LOCAL_BLOCK;
	t->log2l = sps_ceil_log2(t->local);
	t->foff = h->foff != 0 ? fabs(h->foff) : (sps_channel_freq(h,
	    order[0]) - sps_channel_freq(h, order[h->nchans - 1])) /
	    (h->nchans > 1 ? h->nchans - 1 : 1);
	e = fill_slots(p, slot_of_chan);
out:
	free(order);
	free(slot_of_chan);
	return e;
}

enum sps_err
sps_tree_prepare(struct sps_dedisp_plan *p, const struct sps_header *h,
    int nsub)
{
	struct band_ends be = { NULL, NULL, NULL, 0 };
	enum sps_err e;

	if ((p->tree = calloc(1, sizeof(*p->tree))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if ((e = check_reach(p)) == SPS_OK &&
	    (e = place_channels(p, h, nsub, &be)) == SPS_OK &&
	    (e = alloc_trials(p)) == SPS_OK &&
	    (e = choose_all(p, &be)) == SPS_OK) {
		group_levels(p);
		if ((e = make_pairs(p)) == SPS_OK)
			choose_chunks(p);
	}
	free(be.top);
	free(be.bottom);
	free(be.last);
	return e;
}

static void
release(struct sps_tree *t)
{
	free(t->store);
	free(t->scratch);
	free(t->tasks);
	t->store = t->scratch = NULL;
	t->tasks = NULL;
	t->store_len = t->scratch_len = t->max_tasks = 0;
	t->nout = 0;
}

void
sps_tree_free(struct sps_dedisp_plan *p)
{
	struct sps_tree *t = p->tree;

	if (t == NULL)
		return;
	release(t);
	free(t->slot_live);
	free(t->slot_of);
	free(t->pass);
	free(t->tdm);
	free(t->offset);
	free(t->pass_lo);
	free(t->pass_hi);
	free(t->level_first);
	free(t->level_trials);
	free(t->pair_first);
	free(t->pairs);
	free(t->used);
	free(t->pair_of);
	free(t->chunk);
	free(t);
	p->tree = NULL;
}

/* Appendix A, eq. A4, at the largest DM, with the band going down from
 * nu0 (the paper's Delta nu is negative there: its curvature is the
 * largest at the bottom of the band, 1 + lambda = f_bottom / nu0). */
double
sps_tree_a4(const struct sps_dedisp_plan *p)
{
	const struct sps_tree *t = p->tree;
	double dm = 0, nu0 = p->fref, lambda, ratio;
	int i;

	if (t == NULL || p->algo != SPS_ALGO_TREE_LINEAR)
		return 0;
	for (i = 0; i < p->ndms; i++)
		dm = fmax(dm, p->dms[i]);
	lambda = -t->foff * p->nchans / nu0;
	if (!(1 + lambda > 0))
		return INFINITY;
	ratio = (double)t->width / p->nchans;
	return 0.75 * dm * SPS_KDM / (nu0 * nu0) * ratio * ratio * lambda *
	    lambda / pow(1 + lambda, 4);
}

enum sps_err
sps_tree_tables(const struct sps_dedisp_plan *p, struct sps_tree_tables *tt)
{
	const struct sps_tree *t = p->tree;
	size_t nslots, n, m;

	memset(tt, 0, sizeof(*tt));
	if (t == NULL)
		return sps_fail(SPS_EUSAGE, "not a tree plan");
	nslots = (size_t)t->nsub * t->width;
	n = (size_t)p->ndms * t->nsub;
	m = (size_t)p->nlevels * t->nsub;
	tt->nsub = t->nsub;
	tt->width = t->width;
	tt->nlevels = p->nlevels;
	tt->ndms = p->ndms;
	tt->nlive = p->nlive;
	tt->slot_live = malloc(nslots * sizeof(int));
	tt->pass_lo = malloc(m * sizeof(int));
	tt->pass_hi = malloc(m * sizeof(int));
	tt->pass = malloc(n * sizeof(int));
	tt->tdm = malloc(n * sizeof(int));
	tt->offset = malloc(n * sizeof(int));
	if (tt->slot_live == NULL || tt->pass_lo == NULL ||
	    tt->pass_hi == NULL || tt->pass == NULL || tt->tdm == NULL ||
	    tt->offset == NULL) {
		sps_tree_tables_free(tt);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	memcpy(tt->slot_live, t->slot_live, nslots * sizeof(int));
	memcpy(tt->pass_lo, t->pass_lo, m * sizeof(int));
	memcpy(tt->pass_hi, t->pass_hi, m * sizeof(int));
	memcpy(tt->pass, t->pass, n * sizeof(int));
	memcpy(tt->tdm, t->tdm, n * sizeof(int));
	memcpy(tt->offset, t->offset, n * sizeof(int));
	return SPS_OK;
}

void
sps_tree_tables_free(struct sps_tree_tables *tt)
{
	free(tt->slot_live);
	free(tt->pass_lo);
	free(tt->pass_hi);
	free(tt->pass);
	free(tt->tdm);
	free(tt->offset);
	memset(tt, 0, sizeof(*tt));
}

/* Memory: the chunk store, each thread's local rows and the task list. */
static size_t
scratch_floats(const struct sps_tree *t)
{
	return (3 * (size_t)t->local + 1) * (LOCAL_TIME + t->local - 1);
}

static size_t
level_chunk(const struct sps_dedisp_plan *p, int k, size_t nout)
{
	size_t nk = nout >> k;

	return nk < p->tree->chunk[k] ? nk : p->tree->chunk[k];
}

static size_t
count_tasks(const struct sps_tree *t, int k, size_t c)
{
	size_t n = 0;
	int q;

	for (q = t->pair_first[k]; q < t->pair_first[k + 1]; q++)
		n += (size_t)(t->width / t->local) * ((c + pair_extra(t,
		    &t->pairs[q]) + LOCAL_TIME - 1) / LOCAL_TIME);
	return n;
}

static void
measure(const struct sps_dedisp_plan *p, size_t nout, size_t *store,
    size_t *tasks)
{
	const struct sps_tree *t = p->tree;
	int k;

	*store = *tasks = 0;
	for (k = 0; k < p->nlevels; k++) {
		size_t c = nout > 0 ? level_chunk(p, k, nout) : t->chunk[k];
		size_t f = chunk_floats(t, k, c), n = count_tasks(t, k, c);

		if (t->pair_first[k] == t->pair_first[k + 1] || c == 0)
			continue;
		if (f > *store)
			*store = f;
		if (n > *tasks)
			*tasks = n;
	}
}

size_t
sps_tree_work_bytes(const struct sps_dedisp_plan *p, size_t nout)
{
	size_t store, tasks;

	if (p->tree == NULL)
		return 0;
	measure(p, nout, &store, &tasks);
	return (store + 1 + scratch_floats(p->tree) * p->nthreads) *
	    sizeof(float) + (tasks + 1) * sizeof(struct local_task);
}

size_t
sps_tree_held_bytes(const struct sps_dedisp_plan *p)
{
	const struct sps_tree *t = p->tree;

	if (t == NULL)
		return 0;
	return (t->store_len + t->scratch_len * p->nthreads) * sizeof(float) +
	    t->max_tasks * sizeof(struct local_task);
}

enum sps_err
sps_tree_reserve(struct sps_dedisp_plan *p, size_t nout)
{
	struct sps_tree *t = p->tree;
	size_t store, tasks, i;

	if (t->nout != 0 && nout <= t->nout)
		return SPS_OK;
	release(t);
	measure(p, nout, &store, &tasks);
	t->store = malloc((store + 1) * sizeof(float));
	t->scratch = malloc(scratch_floats(t) * p->nthreads * sizeof(float));
	t->tasks = malloc((tasks + 1) * sizeof(struct local_task));
	if (t->store == NULL || t->scratch == NULL || t->tasks == NULL) {
		release(t);
		return sps_fail(SPS_ENOMEM, "out of memory for the tree "
		    "dedispersion rows (%zu MB)", (store + scratch_floats(t) *
		    p->nthreads) * sizeof(float) >> 20);
	}
	t->store_len = store;
	t->scratch_len = scratch_floats(t);
	t->max_tasks = tasks;
	t->nout = nout;
	/* each thread's first row stays zero: the empty slots */
	for (i = 0; i < (size_t)p->nthreads; i++)
		memset(t->scratch + i * t->scratch_len, 0,
		    (LOCAL_TIME + t->local - 1) * sizeof(float));
	return SPS_OK;
}

static void
step_row(float *restrict d, const float *restrict top,
    const float *restrict bot, size_t n)
{
	size_t j;

#pragma omp simd
	for (j = 0; j < n; j++)
		d[j] = top[j] + bot[j];
}

static void
step_two(float *restrict d0, float *restrict d1, const float *restrict top,
    const float *restrict bot, size_t e, size_t n)
{
	size_t j;

#pragma omp simd
	for (j = 0; j < n; j++) {
		d0[j] = top[j] + bot[j + e];
		d1[j] = top[j] + bot[j + e + 1];
	}
}

/* Rows 2e and 2e + 1 of step l + 1 of pair q from the halves' rows e:
 * trial 2e delays the bottom by e, trial 2e + 1 by e + 1; only the
 * rows some trial needs. */
static void
step_rows(const struct sps_tree *t, int q, int l, float *d0, float *d1,
    const float *top, const float *bot, int e, size_t n)
{
	int need0 = row_needed(t, q, l + 1, 2 * e);
	int need1 = row_needed(t, q, l + 1, 2 * e + 1);

	if (need0 && need1)
		step_two(d0, d1, top, bot, (size_t)e, n);
	else if (need0)
		step_row(d0, top, bot + e, n);
	else if (need1)
		step_row(d1, top, bot + e + 1, n);
}

/* Where the pairs' rows lie in the store for a chunk of c samples, and
 * the local tasks that fill them; returns the number of tasks. */
static size_t
layout_chunk(struct sps_tree *t, int k, size_t c)
{
	float *at = t->store;
	size_t ntasks = 0, len, u0;
	int q, bl, nu = t->log2w - t->log2l;

	for (q = t->pair_first[k]; q < t->pair_first[k + 1]; q++) {
		struct tree_pair *pr = &t->pairs[q];

		len = c + pair_extra(t, pr);
		pr->stride = len;
		pr->rows = at + ((nu & 1) ? (size_t)t->width * len : 0);
		for (bl = 0; bl < t->width / t->local; bl++)
			for (u0 = 0; u0 < len; u0 += LOCAL_TIME) {
				t->tasks[ntasks].q = q;
				t->tasks[ntasks].bl = bl;
				t->tasks[ntasks].u0 = u0;
				t->tasks[ntasks].n = len - u0 < LOCAL_TIME ?
				    len - u0 : LOCAL_TIME;
				ntasks++;
			}
		at += pair_rows(t) * len;
	}
	return ntasks;
}

/* The first log2(local) steps of one block of slots, over tk's times;
 * the pair's rows start at time `origin` of the level. */
static void
local_tree(const struct sps_dedisp_plan *p, const struct local_task *tk,
    const float *level, size_t nlev, size_t origin, float *scratch)
{
	const struct sps_tree *t = p->tree;
	const struct tree_pair *pr = &t->pairs[tk->q];
	const int *slot_live = t->slot_live + (size_t)pr->b * t->width +
	    (size_t)tk->bl * t->local;
	const float *src[LOCAL_WIDTH];
	float *dst[LOCAL_WIDTH];
	size_t rl = LOCAL_TIME + t->local - 1, n0 = tk->n + t->local - 1;
	float *zero = scratch, *tmp = scratch + rl;
	float *buf = tmp + (size_t)t->local * rl;
	float *top = pr->rows - ((t->log2w - t->log2l) & 1 ? (size_t)t->width *
	    pr->stride : 0);
	int W = t->local, s, l, r, B, e;

	for (s = 0; s < W; s++) {
		size_t start = origin + tk->u0 + (size_t)pr->pass * (size_t)(
		    tk->bl * W + s), have;

		if (slot_live[s] < 0) {
			src[s] = zero;
		} else if (start + n0 <= nlev) {
			src[s] = level + (size_t)slot_live[s] * nlev + start;
		} else {
			have = start < nlev ? nlev - start : 0;
			if (have > 0)
				memcpy(tmp + s * rl, level + (size_t)
				    slot_live[s] * nlev + start, have *
				    sizeof(float));
			memset(tmp + s * rl + have, 0, (n0 - have) *
			    sizeof(float));
			src[s] = tmp + s * rl;
		}
	}
	for (l = 0; l < t->log2l; l++) {
		int half = 1 << l;
		size_t len = tk->n + W - 2 * half;

		for (r = 0; r < W; r++)
			dst[r] = l == t->log2l - 1 ? top + (size_t)(tk->bl * W +
			    r) * pr->stride + tk->u0 : buf + (size_t)((l & 1) *
			    W + r) * rl;
		for (B = 0; B < W; B += 2 * half)
			for (e = 0; e < half; e++)
				step_rows(t, tk->q, l, dst[B + 2 * e],
				    dst[B + 2 * e + 1], src[B + e],
				    src[B + half + e], e, len);
		for (r = 0; r < W; r++)
			src[r] = dst[r];
	}
}

/* Step l >= log2(local) of a wide tree, rows 2e and 2e + 1 of block B of
 * pair q, from one of its buffers into the other. */
static void
upper_step(const struct sps_tree *t, int q, int l, int m, size_t c)
{
	const struct tree_pair *pr = &t->pairs[q];
	int half = 1 << l, B = m / half, e = m % half;
	int parity = (t->log2w - t->log2l) & 1;
	size_t stride = pr->stride, n = c + (size_t)(pr->maxoff -
	    pr->minoff) + (size_t)(t->width - 2 * half);
	const float *buf0 = pr->rows - (parity ? (size_t)t->width * stride :
	    0);
	const float *src = buf0 + (((l - t->log2l) & 1) ? (size_t)t->width *
	    stride : 0);
	float *dst = (float *)buf0 + (((l - t->log2l) & 1) ? 0 :
	    (size_t)t->width * stride);

	step_rows(t, q, l, dst + (size_t)(2 * B * half + 2 * e) * stride,
	    dst + (size_t)(2 * B * half + 2 * e + 1) * stride,
	    src + (size_t)(2 * B * half + e) * stride,
	    src + (size_t)((2 * B + 1) * half + e) * stride, e, n);
}

/* Stage 2's sums strictly in sub-band order (the GPU's order, so that
 * the two agree bit for bit even on float data), unlike the pairwise sums
 * of dedisperse.c. */
static void
add4(float *restrict acc, const float *restrict r0, const float *restrict r1,
    const float *restrict r2, const float *restrict r3, size_t n)
{
	size_t j;

#pragma omp simd
	for (j = 0; j < n; j++)
		acc[j] = (((acc[j] + r0[j]) + r1[j]) + r2[j]) + r3[j];
}

static void
add1(float *restrict acc, const float *restrict r0, size_t n)
{
	size_t j;

#pragma omp simd
	for (j = 0; j < n; j++)
		acc[j] += r0[j];
}

static const float *
t_row(const struct sps_tree *t, int i, int b)
{
	size_t k = (size_t)i * t->nsub + b;
	const struct tree_pair *pr = &t->pairs[t->pair_of[k]];

	return pr->rows + (size_t)t->tdm[k] * pr->stride + (size_t)(
	    t->offset[k] - pr->minoff);
}

/* Stage 2 (eq. 22): samples [j0, j0 + n) of trial i, the sub-bands added
 * one after another from 0. */
static void
stage2(const struct sps_dedisp_plan *p, int i, size_t j0, size_t jc,
    size_t n, float *out)
{
	const struct sps_tree *t = p->tree;
	float *acc = out + p->offsets[i] + j0;
	int b;

	memset(acc, 0, n * sizeof(float));
	for (b = 0; b + 4 <= t->nsub; b += 4)
		add4(acc, t_row(t, i, b) + jc, t_row(t, i, b + 1) + jc,
		    t_row(t, i, b + 2) + jc, t_row(t, i, b + 3) + jc, n);
	for (; b < t->nsub; b++)
		add1(acc, t_row(t, i, b) + jc, n);
}

/* Output samples [j0, j0 + c) of level k's trials. */
static void
run_chunk(const struct sps_dedisp_plan *p, int k, const float *level,
    size_t nlev, size_t j0, size_t c, size_t ntasks, float *out)
{
	const struct sps_tree *t = p->tree;
	int npairs = t->pair_first[k + 1] - t->pair_first[k];
	int ntrials = t->level_first[k + 1] - t->level_first[k];
	long ntiles = (long)((c + STAGE2_TIME - 1) / STAGE2_TIME), m;

#pragma omp parallel num_threads(p->nthreads)
	{
		float *scratch = t->scratch + (size_t)omp_get_thread_num() *
		    t->scratch_len;
		int l;

#pragma omp for schedule(static)
		for (m = 0; m < (long)ntasks; m++) {
			const struct local_task *tk = &t->tasks[m];

			local_tree(p, tk, level, nlev, j0 + (size_t)
			    t->pairs[tk->q].minoff, scratch);
		}
		for (l = t->log2l; l < t->log2w; l++) {
#pragma omp for schedule(static)
			for (m = 0; m < (long)npairs * (t->width / 2); m++)
				upper_step(t, t->pair_first[k] + (int)(m /
				    (t->width / 2)), l, (int)(m % (t->width /
				    2)), c);
		}
#pragma omp for schedule(dynamic, 1)
		for (m = 0; m < (long)ntrials * ntiles; m++) {
			size_t jc = (size_t)(m / ntrials) * STAGE2_TIME;

			stage2(p, t->level_trials[t->level_first[k] +
			    m % ntrials], j0 + jc, jc, c - jc < STAGE2_TIME ?
			    c - jc : STAGE2_TIME, out);
		}
	}
}

enum sps_err
sps_tree_execute(struct sps_dedisp_plan *p, size_t nin, size_t nout,
    float *out)
{
	struct sps_tree *t = p->tree;
	enum sps_err e;
	size_t j0, c, chunk;
	int k;

	if ((e = sps_tree_reserve(p, nout)) != SPS_OK)
		return e;
	for (k = 0; k < p->nlevels; k++) {
		size_t nk = nout >> k;

		if (t->pair_first[k] == t->pair_first[k + 1])
			continue;
		chunk = level_chunk(p, k, nout);
		for (j0 = 0; j0 < nk; j0 += chunk) {
			c = nk - j0 < chunk ? nk - j0 : chunk;
			run_chunk(p, k, p->work + sps_dedisp_level_offset(p,
			    nin, k), nin >> k, j0, c, layout_chunk(t, k, c),
			    out);
		}
	}
	return SPS_OK;
}

/* rfi_inject.c: interference added to filterbank data (rfi_inject.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "rfi_inject.h"

#define GOLDEN		0x9e3779b97f4a7c15ULL
#define CELL_EVENTS	16	/* mean impulses in a cell of random times */
#define TWO_PI		6.283185307179586477

/* One spec with what the data's layout gives it. */
struct item {
	struct sps_rfi spec;
	int	 c0, c1;	/* channels in file order, inclusive */
	double	 height;	/* impulse: A of rfi_inject.h */
	uint64_t key;		/* impulse: its random stream */
};

struct sps_rfi_plan {
	int	 nchans;
	double	 tsamp;
	double	*rms;
	struct item *items;
	int	 nitems;
	int	 nzeroed;	/* channels some zero item covers */
};

/* The random times of impulses in cell k of one item: a Poisson process
 * restarted at the cell's start, which (having no memory) is still one. */
struct cell {
	uint64_t state;
	double	 t, end, rate;
};

static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
cell_length(const struct item *it)
{
	return CELL_EVENTS / it->spec.rate;
}

static void
cell_start(struct cell *cell, const struct item *it, uint64_t k)
{
	double len = cell_length(it);

	cell->state = mix64(it->key + (k + 1) * GOLDEN);
	cell->t = (double)k * len;
	cell->end = (double)(k + 1) * len;
	cell->rate = it->spec.rate;
}

/* The next impulse's time into *t; 0 past the cell's end. */
static int
cell_next(struct cell *cell, double *t)
{
	double u;

	cell->state += GOLDEN;
	u = (double)((mix64(cell->state) >> 11) + 1) * 0x1p-53;
	cell->t += -sps_fake_log(u) / cell->rate;
	*t = cell->t;
	return cell->t < cell->end;
}

static void
file_range(const struct sps_rfi *r, const struct sps_header *h, int *c0,
    int *c1)
{
	if (r->lo < 0) {
		*c0 = 0;
		*c1 = h->nchans - 1;
	} else if (h->foff < 0) {
		*c0 = h->nchans - 1 - r->hi;
		*c1 = h->nchans - 1 - r->lo;
	} else {
		*c0 = r->lo;
		*c1 = r->hi;
	}
}

static enum sps_err
impulse_height(const struct sps_rfi_plan *plan, struct item *it)
{
	double ts = plan->tsamp, w = it->spec.width, in_range = 0, all = 0;
	double nbox = fmax(1, floor(w / ts + 0.5));
	int c;

	if (it->spec.snr == 0) {
		it->height = it->spec.amp;
		return SPS_OK;
	}
	for (c = 0; c < plan->nchans; c++)
		all += plan->rms[c] * plan->rms[c];
	for (c = it->c0; c <= it->c1; c++)
		in_range += plan->rms[c];
	if (in_range == 0)
		return sps_fail(SPS_EVALUE, "an impulse of snr %g in channels "
		    "without noise", it->spec.snr);
	it->height = it->spec.snr * ts * sqrt(nbox * all) / (w * in_range);
	return SPS_OK;
}

static enum sps_err
plan_items(struct sps_rfi_plan *plan, const struct sps_header *h,
    const struct sps_rfi *items, uint64_t seed, unsigned char *zeroed)
{
	struct item *it;
	enum sps_err e;
	int i, c;

	for (i = 0; i < plan->nitems; i++) {
		it = &plan->items[i];
		it->spec = items[i];
		file_range(&it->spec, h, &it->c0, &it->c1);
		it->key = mix64(seed ^ mix64(0x5bd1e995ULL + (uint64_t)i));
		if (it->spec.kind == SPS_RFI_IMPULSE &&
		    (e = impulse_height(plan, it)) != SPS_OK)
			return e;
		if (it->spec.kind == SPS_RFI_ZERO)
			for (c = it->c0; c <= it->c1; c++)
				zeroed[c] = 1;
	}
	for (c = 0; c < plan->nchans; c++)
		plan->nzeroed += zeroed[c];
	return SPS_OK;
}

enum sps_err
sps_rfi_plan_create(struct sps_rfi_plan **planp, const struct sps_header *h,
    const double *rms, const struct sps_rfi *items, int n, uint64_t seed)
{
	struct sps_rfi_plan *plan;
	unsigned char *zeroed;
	enum sps_err e;

	*planp = NULL;
	if ((plan = calloc(1, sizeof(*plan))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	plan->nchans = h->nchans;
	plan->tsamp = h->tsamp;
	plan->nitems = n;
	plan->rms = malloc((size_t)h->nchans * sizeof(double));
	plan->items = calloc((size_t)n + 1, sizeof(struct item));
	zeroed = calloc((size_t)h->nchans, 1);
	if (plan->rms == NULL || plan->items == NULL || zeroed == NULL) {
		free(zeroed);
		sps_rfi_plan_free(plan);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	memcpy(plan->rms, rms, (size_t)h->nchans * sizeof(double));
	e = plan_items(plan, h, items, seed, zeroed);
	free(zeroed);
	if (e != SPS_OK) {
		sps_rfi_plan_free(plan);
		return e;
	}
	*planp = plan;
	return SPS_OK;
}

/* ---- applying ---- */

/* Add the impulse centred at t s to spectra first .. first + n - 1. */
static void
add_impulse(const struct sps_rfi_plan *plan, const struct item *it,
    double t, float *buf, uint64_t first, size_t n)
{
	double ts = plan->tsamp, lo = t - 0.5 * it->spec.width;
	double hi = t + 0.5 * it->spec.width, a, b, part;
	long long i, start, end;
	float *spectrum;
	int c;

	a = fmax(floor(lo / ts), (double)first);
	b = fmin(ceil(hi / ts), (double)(first + n));
	if (a >= b)
		return;
	start = (long long)a;
	end = (long long)b;
	for (i = start; i < end; i++) {
		part = (fmin(hi, (double)(i + 1) * ts) -
		    fmax(lo, (double)i * ts)) / ts;
		spectrum = buf + (size_t)(i - (long long)first) * plan->nchans;
		for (c = it->c0; c <= it->c1; c++)
			spectrum[c] += (float)(it->height * plan->rms[c] * part);
	}
}

static void
add_impulses(const struct sps_rfi_plan *plan, const struct item *it,
    float *buf, uint64_t first, size_t n)
{
	double ts = plan->tsamp, reach = 0.5 * it->spec.width, t, k;
	double from, to;
	struct cell cell;

	if (it->spec.rate == 0) {
		add_impulse(plan, it, it->spec.t, buf, first, n);
		return;
	}
	from = fmax(0, floor(((double)first * ts - reach) / cell_length(it)));
	to = floor(((double)(first + n) * ts + reach) / cell_length(it));
	for (k = from; k <= to; k++) {
		cell_start(&cell, it, (uint64_t)k);
		while (cell_next(&cell, &t))
			add_impulse(plan, it, t, buf, first, n);
	}
}

/* Sample i's centre, s. */
static double
centre(const struct sps_rfi_plan *plan, uint64_t i)
{
	return ((double)i + 0.5) * plan->tsamp;
}

static int
is_on(const struct sps_rfi *r, double tc)
{
	double x;

	if (r->period == 0)
		return 1;
	x = tc / r->period + r->phase;
	return x - floor(x) < r->duty;
}

/* Carriers, zeros and drifts: each sample's channels c0 .. c1. */
static void
apply_switched(const struct sps_rfi_plan *plan, const struct item *it,
    float *buf, uint64_t first, size_t n)
{
	const struct sps_rfi *r = &it->spec;
	double tc, gain;
	float *spectrum;
	size_t i;
	int c;

	for (i = 0; i < n; i++) {
		tc = centre(plan, first + i);
		spectrum = buf + i * plan->nchans;
		if (r->kind == SPS_RFI_DRIFT) {
			gain = 1 + r->amp * sin(TWO_PI * (tc / r->period +
			    r->phase));
			for (c = it->c0; c <= it->c1; c++)
				spectrum[c] = (float)(spectrum[c] * gain);
		} else if (!is_on(r, tc)) {
			continue;
		} else if (r->kind == SPS_RFI_ZERO) {
			for (c = it->c0; c <= it->c1; c++)
				spectrum[c] = 0;
		} else {
			for (c = it->c0; c <= it->c1; c++)
				spectrum[c] += (float)(r->amp * plan->rms[c]);
		}
	}
}

/* Additive kinds first, then drifts, then zeros. */
static int
pass_of(enum sps_rfi_kind kind)
{
	return kind == SPS_RFI_ZERO ? 2 : kind == SPS_RFI_DRIFT ? 1 : 0;
}

void
sps_rfi_plan_apply(const struct sps_rfi_plan *plan, float *buf,
    uint64_t first, size_t n)
{
	const struct item *it;
	int pass, i;

	for (pass = 0; plan != NULL && pass < 3; pass++)
		for (i = 0; i < plan->nitems; i++) {
			it = &plan->items[i];
			if (pass_of(it->spec.kind) != pass)
				continue;
			if (it->spec.kind == SPS_RFI_IMPULSE)
				add_impulses(plan, it, buf, first, n);
			else
				apply_switched(plan, it, buf, first, n);
		}
}

/* ---- counting ---- */

static uint64_t
count_impulses(const struct sps_rfi_plan *plan, const struct item *it,
    uint64_t nsamples)
{
	double end = (double)nsamples * plan->tsamp, t, k, last;
	struct cell cell;
	uint64_t count = 0;

	if (it->spec.rate == 0)
		return it->spec.t >= 0 && it->spec.t < end;
	last = floor(end / cell_length(it));
	for (k = 0; k <= last; k++) {
		cell_start(&cell, it, (uint64_t)k);
		while (cell_next(&cell, &t))
			count += t < end;
	}
	return count;
}

uint64_t
sps_rfi_plan_impulses(const struct sps_rfi_plan *plan, uint64_t nsamples)
{
	uint64_t count = 0;
	int i;

	for (i = 0; plan != NULL && i < plan->nitems; i++)
		if (plan->items[i].spec.kind == SPS_RFI_IMPULSE)
			count += count_impulses(plan, &plan->items[i],
			    nsamples);
	return count;
}

static int
count_kind(const struct sps_rfi_plan *plan, enum sps_rfi_kind kind)
{
	int i, count = 0;

	for (i = 0; i < plan->nitems; i++)
		count += plan->items[i].spec.kind == kind;
	return count;
}

void
sps_rfi_plan_report(FILE *f, const struct sps_rfi_plan *plan,
    uint64_t nsamples)
{
	uint64_t impulses;
	int carriers, drifts;

	if (plan == NULL || plan->nitems == 0)
		return;
	carriers = count_kind(plan, SPS_RFI_CARRIER);
	drifts = count_kind(plan, SPS_RFI_DRIFT);
	impulses = sps_rfi_plan_impulses(plan, nsamples);
	fprintf(f, "sps-fake: RFI: %llu impulse%s, %d carrier%s, %d channels "
	    "zeroed, %d drift%s\n", (unsigned long long)impulses,
	    impulses == 1 ? "" : "s", carriers, carriers == 1 ? "" : "s", plan->nzeroed, drifts,
	    drifts == 1 ? "" : "s");
}

void
sps_rfi_plan_free(struct sps_rfi_plan *plan)
{
	if (plan == NULL)
		return;
	free(plan->rms);
	free(plan->items);
	free(plan);
}

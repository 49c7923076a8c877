/* plan.c: DM-trial plans (plan.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddplan.h"
#include "dmdelay.h"
#include "plan.h"
#include "planfile.h"

#define RANGE_STEP_JUMP	1.1	/* a step this much off starts a range */
#define MATCH_TOL	1e-6	/* relative, plan header against data */

void
sps_plan_init(struct sps_plan *p)
{
	memset(p, 0, sizeof(*p));
}

void
sps_plan_free(struct sps_plan *p)
{
	free(p->dm);
	free(p->scrunch);
	sps_plan_init(p);
}

static enum sps_err
grow(struct sps_plan *p, size_t need)
{
	size_t cap = p->cap > 0 ? p->cap : 256;
	double *dm;
	int *scrunch;

	if (need <= p->cap)
		return SPS_OK;
	while (cap < need) {
		if (cap > SIZE_MAX / 2 / sizeof(double))
			return sps_fail(SPS_ENOMEM, "too many DM trials");
		cap *= 2;
	}
	if ((dm = realloc(p->dm, cap * sizeof(*dm))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory for %zu DM trials",
		    need);
	p->dm = dm;
	if ((scrunch = realloc(p->scrunch, cap * sizeof(*scrunch))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory for %zu DM trials",
		    need);
	p->scrunch = scrunch;
	p->cap = cap;
	return SPS_OK;
}

enum sps_err
sps_plan_add(struct sps_plan *p, double dm, int scrunch)
{
	enum sps_err e;

	if ((e = grow(p, p->ntrials + 1)) != SPS_OK)
		return e;
	p->dm[p->ntrials] = dm;
	p->scrunch[p->ntrials] = scrunch;
	p->ntrials++;
	return SPS_OK;
}

void
sps_plan_set_obs(struct sps_plan *p, const struct sps_header *h)
{
	p->has_obs = 1;
	p->nchans = h->nchans;
	p->fch1 = h->fch1;
	p->foff = h->foff;
	p->tsamp = h->tsamp;
}

static int
is_power_of_2(long x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

int
sps_plan_scrunch_valid(long factor)
{
	return is_power_of_2(factor) && factor <= SPS_PLAN_MAX_SCRUNCH;
}

enum sps_err
sps_plan_check(const struct sps_plan *p)
{
	size_t i;

	if (p->ntrials == 0)
		return sps_fail(SPS_EVALUE, "no DM trials");
	for (i = 0; i < p->ntrials; i++) {
		if (!isfinite(p->dm[i]) || p->dm[i] < 0)
			return sps_fail(SPS_EVALUE, "trial %zu: DM %g is "
			    "negative or not finite", i, p->dm[i]);
		if (i > 0 && !(p->dm[i] > p->dm[i - 1]))
			return sps_fail(SPS_EVALUE, "trial %zu: DM %.10g is not "
			    "above the DM before it, %.10g (DMs must ascend)",
			    i, p->dm[i], p->dm[i - 1]);
		if (!sps_plan_scrunch_valid(p->scrunch[i]))
			return sps_fail(SPS_EVALUE, "trial %zu (DM %g): scrunch "
			    "factor %d is not a power of 2 in [1, %d]", i,
			    p->dm[i], p->scrunch[i], SPS_PLAN_MAX_SCRUNCH);
	}
	return SPS_OK;
}

static int
differs(double a, double b)
{
	return fabs(a - b) > MATCH_TOL * fmax(fabs(a), fabs(b));
}

enum sps_err
sps_plan_match(const struct sps_plan *p, const struct sps_header *h)
{
	if (!p->has_obs)
		return SPS_OK;
	if (p->nchans != h->nchans)
		return sps_fail(SPS_EVALUE, "the plan is for %d channels, the "
		    "data have %d", p->nchans, h->nchans);
	if (differs(p->fch1, h->fch1))
		return sps_fail(SPS_EVALUE, "the plan is for fch1 %.10g MHz, "
		    "the data have %.10g", p->fch1, h->fch1);
	if (differs(p->foff, h->foff))
		return sps_fail(SPS_EVALUE, "the plan is for foff %.10g MHz, "
		    "the data have %.10g", p->foff, h->foff);
	if (differs(p->tsamp, h->tsamp))
		return sps_fail(SPS_EVALUE, "the plan is for tsamp %.10g s, "
		    "the data have %.10g", p->tsamp, h->tsamp);
	return SPS_OK;
}

/* Centres of the highest and lowest channels. */
static double
top_freq(const struct sps_header *h)
{
	return h->foff < 0 ? h->fch1 : h->fch1 + (h->nchans - 1) * h->foff;
}

static double
bottom_freq(const struct sps_header *h)
{
	return h->foff < 0 ? h->fch1 + (h->nchans - 1) * h->foff : h->fch1;
}

/* Barsdell's nu_k: k channels below the top (eq. 4 with dnu < 0). */
static double
freq_below_top(const struct sps_header *h, double k)
{
	return top_freq(h) - k * fabs(h->foff);
}

enum sps_err
sps_plan_check_obs(const struct sps_header *h)
{
	if (h->nchans < 1)
		return sps_fail(SPS_EVALUE, "nchans %d < 1", h->nchans);
	if (!isfinite(h->tsamp) || h->tsamp <= 0 || h->tsamp > 1e4)
		return sps_fail(SPS_EVALUE, "tsamp %g s is not in (0, 1e4]",
		    h->tsamp);
	if (!isfinite(h->foff) || h->foff == 0 || fabs(h->foff) > 1e6)
		return sps_fail(SPS_EVALUE, "foff %g MHz is 0 or absurd",
		    h->foff);
	if (!isfinite(h->fch1) || h->fch1 <= 0 || h->fch1 > 1e7)
		return sps_fail(SPS_EVALUE, "fch1 %g MHz is not in (0, 1e7]",
		    h->fch1);
	if (!(freq_below_top(h, h->nchans) > 0))
		return sps_fail(SPS_EVALUE, "the band (fch1 %g MHz, foff %g "
		    "MHz, %d channels) reaches 0 MHz", h->fch1, h->foff,
		    h->nchans);
	return SPS_OK;
}

/*
 * dedisp's generate_dm_list (the recipe in heimdall-dedisp.md 1.3): with
 * a = 8.3 df / f^3 (us of smearing per unit DM in one channel, f the
 * band centre in GHz), A = a^2, B = A nchans^2 / 16 and C = (dt^2 +
 * ti^2)(tol^2 - 1), the next DM solves
 *	dt^2 + ti^2 + A dm'^2 + B (dm' - dm)^2 = tol^2 (dt^2 + ti^2 + A dm^2),
 * that is, the total smearing grows by the factor tol per step.
 * Each DM is stored as a float and the next starts from that float, as
 * dedisp does; its inputs pass through floats as they do in Heimdall.
 */
enum sps_err
sps_plan_dedisp(struct sps_plan *p, const struct sps_header *h,
    double dm_lo, double dm_hi, double pulse_width_us, double tol)
{
	double dt_us, ti, f0, df, f, a, A, B, C, K, dm, next;
	float stored;
	enum sps_err e;

	if ((e = sps_plan_check_obs(h)) != SPS_OK)
		return e;
	if (!isfinite(dm_lo) || !isfinite(dm_hi) || dm_lo < 0)
		return sps_fail(SPS_EVALUE, "DM range %g to %g: DMs must be "
		    "finite and >= 0", dm_lo, dm_hi);
	if (dm_hi < dm_lo)
		return sps_fail(SPS_EVALUE, "DM range %g to %g: the high DM is "
		    "below the low DM", dm_lo, dm_hi);
	if (!(tol > 1) || !isfinite(tol))
		return sps_fail(SPS_EVALUE, "dm_tol %g must be above 1", tol);
	if (!(pulse_width_us >= 0) || !isfinite(pulse_width_us))
		return sps_fail(SPS_EVALUE, "dm_pulse_width %g must be >= 0",
		    pulse_width_us);
	dt_us = (double)(float)h->tsamp * 1e6;
	ti = (float)pulse_width_us;
	tol = (float)tol;
	f0 = (float)top_freq(h);
	df = (float)-fabs(h->foff);
	f = (f0 + ((double)(h->nchans / 2) - 0.5) * df) / 1000.0;
	a = 8.3 * df / (f * f * f);
	A = a * a;
	B = A * (double)h->nchans * (double)h->nchans / 16.0;
	C = (dt_us * dt_us + ti * ti) * (tol * tol - 1.0);
	stored = (float)dm_lo;
	dm = stored;
	if ((e = sps_plan_add(p, dm, 1)) != SPS_OK)
		return e;
	while (dm < (float)dm_hi) {
		K = C + tol * tol * A * dm * dm;
		next = (B * dm + sqrt(-A * B * dm * dm + (A + B) * K)) /
		    (A + B);
		stored = (float)next;
		if (!((double)stored > dm))
			return sps_fail(SPS_EVALUE, "dedisp list: the DM step "
			    "at DM %g is below float precision", dm);
		dm = stored;
		if ((e = sps_plan_add(p, dm, 1)) != SPS_OK)
			return e;
	}
	return SPS_OK;
}

enum sps_err
sps_plan_steps(struct sps_plan *p, double start, double step, long count,
    int scrunch)
{
	enum sps_err e;
	long i;

	if (!isfinite(start) || start < 0)
		return sps_fail(SPS_EVALUE, "step start DM %g must be >= 0",
		    start);
	if (!isfinite(step) || step <= 0)
		return sps_fail(SPS_EVALUE, "DM step %g must be above 0", step);
	if (count < 1)
		return sps_fail(SPS_EVALUE, "step count %ld must be >= 1",
		    count);
	if ((e = grow(p, p->ntrials + (size_t)count)) != SPS_OK)
		return e;
	for (i = 0; i < count; i++)
		if ((e = sps_plan_add(p, start + i * step, scrunch)) != SPS_OK)
			return e;
	return SPS_OK;
}

enum sps_err
sps_plan_add_ddplan(struct sps_plan *p, const struct sps_ddplan_line *lines,
    int nlines, int blocklen)
{
	enum sps_err e;
	int i, j;

	for (i = 0; i < nlines; i++) {
		if (lines[i].numdms > 0 && !is_power_of_2(lines[i].downsamp))
			return sps_fail(SPS_EVALUE, "DDplan chose downsampling "
			    "%d for DMs from %g (blocklen %d), and sps "
			    "scrunches by powers of 2 only: give a --blocklen "
			    "that is a power of 2", lines[i].downsamp,
			    lines[i].lodm, blocklen);
		for (j = 0; j < lines[i].numdms; j++)
			if ((e = sps_plan_add(p, j * lines[i].ddm +
			    lines[i].lodm, lines[i].downsamp)) != SPS_OK)
				return e;
	}
	return SPS_OK;
}

/* ---- scrunching, smearing, work, memory ----------------------------- */

enum sps_err
sps_diagonal_dm(const struct sps_header *h, int nsubchans, double *dm)
{
	double per_dm;
	enum sps_err e;

	if ((e = sps_plan_check_obs(h)) != SPS_OK)
		return e;
	if (nsubchans < 1 || nsubchans > h->nchans)
		return sps_fail(SPS_EVALUE, "%d channels per sub-band is not in "
		    "[1, %d]", nsubchans, h->nchans);
	/* Delta T(N) - Delta T(N - N'), samples per unit DM */
	per_dm = sps_dm_delay(1.0, freq_below_top(h, h->nchans),
	    freq_below_top(h, h->nchans - nsubchans)) / h->tsamp;
	*dm = (nsubchans - 0.5) / per_dm;
	return SPS_OK;
}

enum sps_err
sps_plan_scrunch(struct sps_plan *p, const struct sps_header *h,
    int max_factor)
{
	double diag;
	enum sps_err e;
	size_t i;
	int s;

	if (!sps_plan_scrunch_valid(max_factor))
		return sps_fail(SPS_EVALUE, "largest scrunch factor %d is not a "
		    "power of 2 in [1, %d]", max_factor, SPS_PLAN_MAX_SCRUNCH);
	if ((e = sps_diagonal_dm(h, 1, &diag)) != SPS_OK)
		return e;
	for (i = 0; i < p->ntrials; i++) {
		for (s = 1; s < max_factor && p->dm[i] > 2.0 * s * diag; s *= 2)
			continue;
		p->scrunch[i] = s;
	}
	return SPS_OK;
}

double
sps_subband_smear(const struct sps_header *h, int nsubchans,
    double dm_nominal_step)
{
	return dm_nominal_step * sps_dm_delay(1.0,
	    freq_below_top(h, h->nchans),
	    freq_below_top(h, h->nchans - nsubchans));
}

static int
subband_chans(const struct sps_header *h, int nsub)
{
	return (h->nchans + nsub - 1) / nsub;
}

static enum sps_err
check_subband(const struct sps_header *h, int nsub, int dms_per_nominal)
{
	if (nsub < 0 || nsub > h->nchans)
		return sps_fail(SPS_EVALUE, "%d sub-bands is not in [1, %d]",
		    nsub, h->nchans);
	if (dms_per_nominal < 0)
		return sps_fail(SPS_EVALUE, "%d trials per nominal DM",
		    dms_per_nominal);
	return SPS_OK;
}

/* Does trial i + 1 continue the range that started at first: same
 * scrunch factor, a step within 10% of the one before, and at most twice
 * the range's first step? */
static int
continues(const struct sps_plan *p, size_t first, size_t i)
{
	double step, prev;

	if (p->scrunch[i + 1] != p->scrunch[first])
		return 0;
	if (i == first)
		return 1;
	step = p->dm[i + 1] - p->dm[i];
	prev = p->dm[i] - p->dm[i - 1];
	return step <= RANGE_STEP_JUMP * prev && prev <= RANGE_STEP_JUMP * step &&
	    step <= 2 * (p->dm[first + 1] - p->dm[first]);
}

static void
predict(const struct sps_plan *p, const struct sps_header *h, int nsub,
    int dms_per_nominal, struct sps_plan_range *r)
{
	double fb = bottom_freq(h), ft = top_freq(h);
	size_t i, end = r->first + r->count;
	int nsc;

	r->dm_lo = p->dm[r->first];
	r->dm_hi = p->dm[end - 1];
	r->scrunch = p->scrunch[r->first];
	r->step_min = INFINITY;
	r->step_max = 0;
	for (i = r->first; i < end && i + 1 < p->ntrials; i++) {
		r->step_min = fmin(r->step_min, p->dm[i + 1] - p->dm[i]);
		r->step_max = fmax(r->step_max, p->dm[i + 1] - p->dm[i]);
	}
	if (isinf(r->step_min))
		r->step_min = 0;
	r->t_samp = h->tsamp;
	r->t_scrunch = h->tsamp * r->scrunch;
	r->t_step = sps_dm_delay(r->step_max / 2, fb, ft);
	r->t_chan = sps_dm_smear(r->dm_hi, fb, h->foff);
	r->t_sub = 0;
	if (nsub > 0) {
		nsc = subband_chans(h, nsub);
		r->t_sub = sps_subband_smear(h, nsc, (dms_per_nominal > 0 ?
		    dms_per_nominal : nsc) * r->step_max);
	}
	r->t_total = sqrt(r->t_scrunch * r->t_scrunch + r->t_step * r->t_step +
	    r->t_chan * r->t_chan + r->t_sub * r->t_sub);
}

enum sps_err
sps_plan_ranges(const struct sps_plan *p, const struct sps_header *h,
    int nsub, int dms_per_nominal, struct sps_plan_range **ranges,
    size_t *nranges)
{
	struct sps_plan_range *r;
	size_t n = 0, first, i;
	enum sps_err e;

	*ranges = NULL;
	*nranges = 0;
	if ((e = sps_plan_check(p)) != SPS_OK ||
	    (e = sps_plan_check_obs(h)) != SPS_OK ||
	    (e = check_subband(h, nsub, dms_per_nominal)) != SPS_OK)
		return e;
	if ((r = calloc(p->ntrials, sizeof(*r))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (first = 0; first < p->ntrials; first = i + 1) {
		for (i = first; i + 1 < p->ntrials && continues(p, first, i);
		    i++)
			continue;
		r[n].first = first;
		r[n].count = i + 1 - first;
		predict(p, h, nsub, dms_per_nominal, &r[n]);
		n++;
	}
	*ranges = r;
	*nranges = n;
	return SPS_OK;
}

size_t
sps_plan_max_delay(const struct sps_plan *p, const struct sps_header *h)
{
	size_t i, best = 0, d;
	long s;

	for (i = 0; i < p->ntrials; i++) {
		s = sps_dm_delay_samples(p->dm[i], bottom_freq(h), top_freq(h),
		    h->tsamp * p->scrunch[i]);
		d = (size_t)(s > 0 ? s : 0) * (size_t)p->scrunch[i];
		if (d > best)
			best = d;
	}
	return best;
}

/* Sum over nominal-DM groups (up to per consecutive trials with one
 * scrunch factor): per_group once per group, per_trial once per trial,
 * each times nsamples / scrunch. */
static double
sum_groups(const struct sps_plan *p, int per, double per_group,
    double per_trial, double nsamples)
{
	double total = 0;
	size_t i, first;

	for (first = 0; first < p->ntrials; first = i) {
		for (i = first; i < p->ntrials && i - first < (size_t)per &&
		    p->scrunch[i] == p->scrunch[first]; i++)
			total += per_trial * nsamples / p->scrunch[i];
		total += per_group * nsamples / p->scrunch[first];
	}
	return total;
}

static int
nominal_size(const struct sps_header *h, int nsub, int dms_per_nominal)
{
	return dms_per_nominal > 0 ? dms_per_nominal : subband_chans(h, nsub);
}

double
sps_plan_work(const struct sps_plan *p, const struct sps_header *h,
    double nsamples, int nsub, int dms_per_nominal)
{
	if (nsub <= 0)
		return sum_groups(p, 1, 0, h->nchans, nsamples);
	return sum_groups(p, nominal_size(h, nsub, dms_per_nominal), h->nchans,
	    nsub, nsamples);
}

enum sps_err
sps_plan_range(struct sps_plan *p, const struct sps_header *h, double dm_lo,
    double dm_hi, double pulse_width_us, double tol, int max_scrunch)
{
	enum sps_err e;

	sps_plan_init(p);
	if ((e = sps_plan_dedisp(p, h, dm_lo, dm_hi, pulse_width_us, tol)) !=
	    SPS_OK)
		return e;
	if (max_scrunch > 1 && (e = sps_plan_scrunch(p, h, max_scrunch)) !=
	    SPS_OK)
		return e;
	return sps_plan_check(p);
}

enum sps_err
sps_plan_load(struct sps_plan *p, const char *path,
    const struct sps_header *h, int max_scrunch)
{
	enum sps_err e;
	FILE *f;

	sps_plan_init(p);
	if ((f = fopen(path, "r")) == NULL)
		return sps_fail(SPS_EIO, "%s: %s", path, strerror(errno));
	e = sps_plan_read(f, path, p);
	fclose(f);
	if (e == SPS_OK && (e = sps_plan_match(p, h)) != SPS_OK)
		e = sps_fail(e, "%s: %s", path, sps_errmsg());
	if (e == SPS_OK && max_scrunch > 1)
		e = sps_plan_scrunch(p, h, max_scrunch);
	return e == SPS_OK ? sps_plan_check(p) : e;
}

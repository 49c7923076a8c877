/* candview.c: the data around candidates, in one pass of reads
 * (candview.h); the arrays of one window are candview_make.c's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "candview_plan.h"
#include "dmdelay.h"

#define NBINS_MAX	65536
#define NDM_MAX		65536
#define DECIMATE_MAX	(1 << 24)

void
sps_candview_defaults(struct sps_candview_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->nsub = 256;
	o->nbins = 256;
	o->decimate = SPS_CANDVIEW_DEC_WIDTH;
	o->ndm = 256;
	o->dmrange = SPS_DMRANGE_SCALE;
	o->dm_lo = 0;
	o->dm_hi = 2;
}

static enum sps_err
check_opts(const struct sps_header *h, const struct sps_candview_opts *o)
{
	if (h->nifs != 1)
		return sps_fail(SPS_EVALUE, "%d IFs: candidates are cut from "
		    "data of one IF", h->nifs);
	if (h->nchans < 1 || !(h->tsamp > 0))
		return sps_fail(SPS_EVALUE, "nchans %d, tsamp %g: no data to "
		    "cut candidates from", h->nchans, h->tsamp);
	if (o->nbins < 2 || o->nbins > NBINS_MAX || o->ndm < 1 ||
	    o->ndm > NDM_MAX || o->nsub < 0)
		return sps_fail(SPS_EVALUE, "nbins %d (2 to %d), ndm %d (1 to "
		    "%d), nsub %d: out of range", o->nbins, NBINS_MAX, o->ndm,
		    NDM_MAX, o->nsub);
	if (o->decimate < SPS_CANDVIEW_DEC_FIT || o->decimate > DECIMATE_MAX)
		return sps_fail(SPS_EVALUE, "decimation %d is out of range (1 "
		    "to %d)", o->decimate, DECIMATE_MAX);
	if (!isfinite(o->dm_lo) || !isfinite(o->dm_hi) || o->dm_lo > o->dm_hi ||
	    (o->dmrange != SPS_DMRANGE_OFFSET && o->dm_lo < 0))
		return sps_fail(SPS_EVALUE, "DM range %g to %g is not a range",
		    o->dm_lo, o->dm_hi);
	return SPS_OK;
}

static enum sps_err
no_memory(const char *what)
{
	return sps_fail(SPS_ENOMEM, "no memory for %s", what);
}

/* Sub-bands: channels shared out in order, each its centre; the band's
 * edges. */
static enum sps_err
make_subbands(struct sps_candview_plan *p)
{
	int b, c;

	p->sub_first = malloc((size_t)(p->nsub + 1) * sizeof(int));
	p->sub_freq = malloc((size_t)p->nsub * sizeof(double));
	if (p->sub_first == NULL || p->sub_freq == NULL)
		return no_memory("sub-bands");
	for (b = 0; b <= p->nsub; b++)
		p->sub_first[b] = (int)((long long)b * p->nchans / p->nsub);
	for (b = 0; b < p->nsub; b++) {
		double sum = 0;

		for (c = p->sub_first[b]; c < p->sub_first[b + 1]; c++)
			sum += sps_channel_freq(&p->h, c);
		p->sub_freq[b] = sum / (p->sub_first[b + 1] - p->sub_first[b]);
	}
	p->ftop = -INFINITY;
	p->fbottom = INFINITY;
	for (c = 0; c < p->nchans; c++) {
		p->ftop = fmax(p->ftop, sps_channel_freq(&p->h, c));
		p->fbottom = fmin(p->fbottom, sps_channel_freq(&p->h, c));
	}
	if (!(p->fbottom > 0))
		return sps_fail(SPS_EVALUE, "channel frequencies down to %g MHz: "
		    "not a radio band", p->fbottom);
	return SPS_OK;
}

static enum sps_err
make_arrays(struct sps_candview_plan *p)
{
	size_t nb = (size_t)p->o.nbins, nd = (size_t)p->o.ndm;

	p->kill = calloc((size_t)p->nchans, 1);
	p->masked = calloc((size_t)p->nchans, 1);
	p->sub_kill = calloc((size_t)p->nchans, 1);
	p->freq_time = malloc((size_t)p->nsub * nb * sizeof(float));
	p->profile = malloc(nb * sizeof(float));
	p->dm_time = malloc(nd * nb * sizeof(float));
	p->snr_dm = malloc(nd * sizeof(float));
	p->sub_used = malloc((size_t)p->nsub * sizeof(float));
	p->dms = malloc(nd * sizeof(double));
	if (p->kill == NULL || p->masked == NULL || p->sub_kill == NULL ||
	    p->freq_time == NULL || p->profile == NULL || p->dm_time == NULL ||
	    p->snr_dm == NULL || p->sub_used == NULL || p->dms == NULL)
		return no_memory("the candidates' arrays");
	if (p->o.kill != NULL)
		memcpy(p->kill, p->o.kill, (size_t)p->nchans);
	return SPS_OK;
}

static int
channels_left(const struct sps_candview_plan *p)
{
	int c, n = 0;

	for (c = 0; c < p->nchans; c++)
		n += !p->kill[c];
	return n;
}

enum sps_err
sps_candview_create(struct sps_candview_plan **pp, const struct sps_header *h,
    uint64_t nsamples, const struct sps_candview_opts *o)
{
	struct sps_candview_plan *p;
	enum sps_err e;

	*pp = NULL;
	if ((e = check_opts(h, o)) != SPS_OK)
		return e;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return no_memory("a plan");
	sps_header_init(&p->h);
	p->o = *o;
	p->o.kill = NULL;
	p->nsamples = nsamples;
	p->nchans = h->nchans;
	p->nsub = o->nsub == 0 || o->nsub > h->nchans ? h->nchans : o->nsub;
	if ((e = sps_header_copy(&p->h, h)) == SPS_OK &&
	    (e = make_subbands(p)) == SPS_OK) {
		p->o.kill = o->kill;
		e = make_arrays(p);
		p->o.kill = NULL;
	}
	if (e == SPS_OK && channels_left(p) == 0)
		e = sps_fail(SPS_EVALUE, "the kill mask leaves no channel");
	if (e == SPS_OK && o->clean != NULL)
		p->o.clean = o->clean;
	if (e != SPS_OK) {
		sps_candview_free(p);
		return e;
	}
	*pp = p;
	return SPS_OK;
}

void
sps_candview_free(struct sps_candview_plan *p)
{
	if (p == NULL)
		return;
	sps_header_free(&p->h);
	sps_clean_free(p->clean);
	free(p->kill);
	free(p->masked);
	free(p->sub_kill);
	free(p->sub_first);
	free(p->sub_freq);
	free(p->held_buf);
	free(p->win);
	free(p->dd);
	free(p->freq_time);
	free(p->profile);
	free(p->dm_time);
	free(p->snr_dm);
	free(p->sub_used);
	free(p->dms);
	free(p);
}

/* Delay in base samples of the bottom of the band behind its top. */
static double
sweep_samples(const struct sps_candview_plan *p, double dm)
{
	return sps_dm_delay(dm, p->fbottom, p->ftop) / p->h.tsamp;
}

static void
dm_range(const struct sps_candview_plan *p, double dm, double *lo,
    double *hi)
{
	switch (p->o.dmrange) {
	case SPS_DMRANGE_SCALE:
		*lo = p->o.dm_lo * dm;
		*hi = p->o.dm_hi * dm;
		break;
	case SPS_DMRANGE_OFFSET:
		*lo = fmax(0, dm + p->o.dm_lo);
		*hi = fmax(0, dm + p->o.dm_hi);
		break;
	default:
		*lo = p->o.dm_lo;
		*hi = p->o.dm_hi;
	}
}

static int
decimation(const struct sps_candview_plan *p, const struct sps_cand *c,
    double sweep_half)
{
	int d = p->o.decimate > 0 ? p->o.decimate : c->best.width / 2;

	if (p->o.decimate == SPS_CANDVIEW_DEC_FIT)
		d = (int)fmax(d, ceil(2 * sweep_half / p->o.nbins));
	return d < 1 ? 1 : d > DECIMATE_MAX ? DECIMATE_MAX : d;
}

enum sps_err
sps_candview_window(const struct sps_candview_plan *p,
    const struct sps_cand *c, struct sps_candview_window *w)
{
	double dm = c->best.dm, far, half;
	int64_t centre = (int64_t)c->best.sample + c->best.width / 2;
	size_t nout, delay, f;

	if (!(dm >= 0) || !isfinite(dm))
		return sps_fail(SPS_EVALUE, "DM %g is not a DM", dm);
	dm_range(p, dm, &w->dm_lo, &w->dm_hi);
	far = fmax(fabs(w->dm_hi - dm), fabs(dm - w->dm_lo));
	w->decimate = decimation(p, c, sweep_samples(p, far));
	half = (double)p->o.nbins * w->decimate / 2;
	if (w->dm_hi - w->dm_lo < 1e-6)	/* a range of nothing: widen it */
		w->dm_hi = w->dm_lo + half / sweep_samples(p, 1);
	nout = (size_t)p->o.nbins * (size_t)w->decimate;
	f = (size_t)SPS_CANDVIEW_SCRUNCH(w->decimate);
	delay = (size_t)ceil(sweep_samples(p, fmax(w->dm_hi, dm)));
	w->count = (nout + delay + 2 * f + f - 1) / f * f;
	w->first = centre - (int64_t)(p->o.nbins / 2) * w->decimate -
	    w->decimate / 2;
	return SPS_OK;
}

enum sps_err
sps_candview_open(struct sps_reader *r, const char *path)
{
	struct stat st;
	int stdin_ = path == NULL || strcmp(path, "-") == 0;

	if (stdin_ || (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)))
		return sps_fail(SPS_EUSAGE, "%s: a pipe cannot be read for "
		    "candidates (it is read by seeking); give a file",
		    stdin_ ? "stdin" : path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return sps_fail(SPS_EUSAGE, "%s: not a regular file (it is "
		    "read by seeking)", path);
	return sps_reader_open(r, path);
}

void
sps_candview_stats(const struct sps_candview_plan *p,
    struct sps_candview_stats *s)
{
	*s = p->stats;
}

/* A candidate's place in the pass. */
struct visit {
	size_t			 i;
	struct sps_candview_window w;
};

static int
by_first(const void *a, const void *b)
{
	const struct visit *x = a, *y = b;

	if (x->w.first != y->w.first)
		return x->w.first < y->w.first ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* The windows in the order of the pass, and room for the longest. */
static enum sps_err
prepare_pass(struct sps_candview_plan *p, const struct sps_cand *cands,
    size_t n, struct visit **out)
{
	struct visit *v = malloc((n ? n : 1) * sizeof(*v));
	size_t i, longest = 0;
	enum sps_err e = SPS_OK;

	if (v == NULL)
		return no_memory("the candidates' windows");
	for (i = 0; i < n && e == SPS_OK; i++) {
		v[i].i = i;
		e = sps_candview_window(p, &cands[i], &v[i].w);
		if (e == SPS_OK && v[i].w.count > longest)
			longest = v[i].w.count;
	}
	if (e == SPS_OK && longest > p->capacity) {
		size_t bytes = longest * (size_t)p->nchans * sizeof(float);

		free(p->held_buf);
		free(p->win);
		p->held_buf = malloc(bytes);
		p->win = malloc(bytes);
		p->capacity = longest;
		if (p->held_buf == NULL || p->win == NULL) {
			p->capacity = 0;
			e = sps_fail(SPS_ENOMEM, "no memory for a window of %zu "
			    "spectra (2 x %.1f MB)", longest, bytes / 1e6);
		}
	}
	if (e == SPS_OK && p->o.clean != NULL) {
		sps_clean_free(p->clean);
		p->clean = NULL;
		e = sps_clean_create(&p->clean, &p->h, p->capacity,
		    p->o.clean);
	}
	if (e != SPS_OK) {
		free(v);
		return e;
	}
	qsort(v, n, sizeof(*v), by_first);
	*out = v;
	return SPS_OK;
}

/* Hold the spectra [lo, hi) of the data that exist, lo never before the
 * last call's: what is held goes on, the rest is skipped or read. */
static enum sps_err
hold(struct sps_candview_plan *p, struct sps_reader *r, int64_t lo,
    int64_t hi)
{
	size_t row = (size_t)p->nchans, got;
	int64_t end = p->held_first + (int64_t)p->held;
	enum sps_err e;

	lo = lo < 0 ? 0 : lo;
	if (lo >= end) {
		if ((e = sps_reader_skip(r, (uint64_t)(lo - end))) != SPS_OK)
			return e;
		p->stats.spectra_skipped += (uint64_t)(lo - end);
		p->held_first = (int64_t)r->position;
		p->held = 0;
	} else if (lo > p->held_first) {
		size_t drop = (size_t)(lo - p->held_first);

		memmove(p->held_buf, p->held_buf + drop * row, (p->held - drop) *
		    row * sizeof(float));
		p->held -= drop;
		p->held_first = lo;
	}
	while (p->held_first + (int64_t)p->held < hi) {
		size_t want = (size_t)(hi - p->held_first) - p->held;

		e = sps_reader_read(r, p->held_buf + p->held * row, want, &got);
		if (e == SPS_EEOF || (e == SPS_OK && got == 0))
			break;
		if (e != SPS_OK)
			return e;
		p->held += got;
		p->stats.spectra_read += got;
	}
	if (p->held > p->stats.held_max)
		p->stats.held_max = p->held;
	return SPS_OK;
}

/* The window's spectra from those held; the others each channel's mean
 * over the window's spectra that exist (0 when none does). */
static void
fill_window(struct sps_candview_plan *p, const struct sps_candview_window *w)
{
	size_t row = (size_t)p->nchans, t, real = 0;
	int64_t s, end = p->held_first + (int64_t)p->held;
	float *mean = p->dd;	/* nchans floats of scratch */
	int c;

	memset(mean, 0, row * sizeof(float));
	for (t = 0; t < w->count; t++) {
		s = w->first + (int64_t)t;
		if (s < p->held_first || s >= end)
			continue;
		memcpy(p->win + t * row, p->held_buf + (size_t)(s -
		    p->held_first) * row, row * sizeof(float));
		for (c = 0; c < p->nchans; c++)
			mean[c] += p->win[t * row + (size_t)c];
		real++;
	}
	for (c = 0; c < p->nchans && real > 0; c++)
		mean[c] /= (float)real;
	for (t = 0; t < w->count; t++) {
		s = w->first + (int64_t)t;
		if (s < p->held_first || s >= end)
			memcpy(p->win + t * row, mean, row * sizeof(float));
	}
}

/* The channels left out of this window: killed, or masked by the
 * cleaning (which sees the kill mask as its static mask); their samples
 * are set to 0, so that the sums leave them out. */
static enum sps_err
mask_window(struct sps_candview_plan *p, size_t count)
{
	struct sps_clean_block b;
	size_t t, row = (size_t)p->nchans;
	enum sps_err e;
	int c;

	memcpy(p->masked, p->kill, row);
	if (p->clean != NULL) {
		sps_clean_set_static(p->clean, p->kill);
		if ((e = sps_clean_execute(p->clean, p->win, count, &b)) !=
		    SPS_OK)
			return e;
		for (c = 0; c < p->nchans; c++)
			p->masked[c] = p->kill[c] || b.masked[c];
	}
	for (t = 0; t < count; t++)
		for (c = 0; c < p->nchans; c++)
			if (p->masked[c])
				p->win[t * row + (size_t)c] = 0;
	return SPS_OK;
}

/* Scratch for the dedispersion's output: the largest of nchans floats
 * and a window's trials. */
static enum sps_err
scratch(struct sps_candview_plan *p, const struct visit *v, size_t n)
{
	size_t need = (size_t)p->nchans, i, one;

	for (i = 0; i < n; i++) {
		one = (size_t)p->o.nbins * (size_t)(v[i].w.decimate /
		    SPS_CANDVIEW_SCRUNCH(v[i].w.decimate)) * (size_t)p->o.ndm;
		if (one > need)
			need = one;
	}
	if (need <= p->dd_cap)
		return SPS_OK;
	free(p->dd);
	p->dd = malloc(need * sizeof(float));
	p->dd_cap = p->dd == NULL ? 0 : need;
	return p->dd == NULL ? no_memory("the dedispersed window") : SPS_OK;
}

enum sps_err
sps_candview_execute(struct sps_candview_plan *p, struct sps_reader *r,
    const struct sps_cand *cands, size_t n, sps_candview_fn fn, void *arg)
{
	struct visit *v = NULL;
	struct sps_candview view;
	enum sps_err e;
	size_t k;

	memset(&p->stats, 0, sizeof(p->stats));
	if (p->nsamples == SPS_NSAMPLES_UNKNOWN)
		p->nsamples = r->nsamples;
	p->held_first = (int64_t)r->position;
	p->held = 0;
	if ((e = prepare_pass(p, cands, n, &v)) != SPS_OK)
		return e;
	e = scratch(p, v, n);
	for (k = 0; k < n && e == SPS_OK; k++) {
		const struct sps_candview_window *w = &v[k].w;

		e = hold(p, r, w->first, w->first + (int64_t)w->count);
		if (e != SPS_OK)
			break;
		fill_window(p, w);
		if ((e = mask_window(p, w->count)) != SPS_OK ||
		    (e = sps_candview_make(p, &cands[v[k].i], w, &view)) !=
		    SPS_OK)
			break;
		view.index = v[k].i;
		p->stats.windows++;
		e = fn(arg, &view);
	}
	free(v);
	return e;
}

/* search.c: the search engine of DM-time data (search.h). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "dedisp_engine.h"
#include "devices.h"
#include "gpu_search.h"
#include "noise.h"
#include "search.h"

/* One DM trial: its noise model, its search, the events and plane values
 * it gave that are not yet taken, and its window counts. */
struct trial {
	int			 f;	/* scrunch factor */
	double			 dm;
	const struct sps_boxcar_plan *plan;
	struct sps_noise	*noise;
	struct sps_boxcar_stream *search;
	struct sps_boxcar_event	*ev;
	size_t			 nev, evcap;
	float			*psnr;
	float			*pwidth;	/* base samples */
	size_t			 pn, pcap;
	unsigned long long	 windows, skipped, nbad;
};

/* A thread's scratch: for the boxcar searches, for making noise windows,
 * and the normalised samples after a window searched at once. */
struct scratch {
	struct sps_boxcar_work	*box;
	struct sps_noise_work	*noise;
	float			*ahead;
};

struct sps_search {
	struct sps_search_opts	 o;
	double			 tsamp;
	int			 ntrials;
	struct trial		*t;
	struct sps_boxcar_plan	 plan;		/* unscrunched */
	struct sps_boxcar_plan	*plans;		/* one per scrunch factor */
	int			*plan_f;
	int			 nplans;
	struct scratch		*work;		/* one per thread */
	int			 nthreads;
	size_t			 window;	/* base samples */
	size_t			 block_floats;	/* trial samples a window */
	int			 lag;
	int			 at_once;	/* windows searched as they are
						 * made (sps_noise_ahead) */
	size_t			 ahead;		/* samples after a window it
						 * needs, the most of any trial */
	uint64_t		 nbase;
	uint64_t		 plane_done;	/* base samples taken */
	float			*plane;		/* the block last taken */
	struct sps_event	*events;	/* the events last taken */
	size_t			 events_cap;
	unsigned long long	 nevents;
	int			 finished;
	struct sps_gpu_search	*gpu;		/* NULL: on the CPU */
	struct sps_boxcar_event	*found;		/* one trial's, from the GPU */
	size_t			 found_cap;
	unsigned long long	*counts;	/* the GPU's, 3 per trial */
	char			 gpu_note[512];	/* why not, when it could */
	uint64_t		 gpu_searched;	/* base samples, so far */
};

static enum sps_err
plan_for(struct sps_search *s, int f, const struct sps_boxcar_plan **p)
{
	enum sps_err e;
	int i;

	for (i = 0; i < s->nplans; i++)
		if (s->plan_f[i] == f) {
			*p = &s->plans[i];
			return SPS_OK;
		}
	if ((e = sps_boxcar_plan_scrunched(&s->plans[s->nplans], &s->plan,
	    s->plan.max_width, f)) != SPS_OK)
		return e;
	s->plan_f[s->nplans] = f;
	*p = &s->plans[s->nplans++];
	return SPS_OK;
}

static long long
lcm(long long a, long long b)
{
	long long x = a, y = b, t;

	while (y != 0) {
		t = x % y;
		x = y;
		y = t;
	}
	return a / x * b;
}

/* The window: the baseline asked for, or the default, in a whole number
 * of units (a multiple of every scrunch factor times its plan's largest
 * separation), at least 64 units. */
static enum sps_err
choose_window(struct sps_search *s, long long unit)
{
	double sec = s->o.baseline > 0 ? s->o.baseline :
	    fmax(SPS_SEARCH_BASELINE, 8 * s->plan.max_width * s->tsamp);
	double n = ceil(sec / s->tsamp / (double)unit - 1e-6);

	if (n < 64)
		n = 64;
	if (n * (double)unit > 1 << 28)
		return sps_fail(SPS_EVALUE, "--baseline %g s: window of %.0f "
		    "samples is too long", sec, n * (double)unit);
	s->window = (size_t)n * (size_t)unit;
	return SPS_OK;
}

static enum sps_err
make_trials(struct sps_search *s, const struct sps_header *h)
{
	long long unit = 1;
	enum sps_err e;
	int i;

	for (i = 0; i < s->ntrials; i++) {
		struct trial *t = &s->t[i];

		t->f = h->sps_dmtime == 1 && h->scrunch != NULL ?
		    h->scrunch[i] : 1;
		if (t->f < 1)
			return sps_fail(SPS_EVALUE, "%s: trial %d has scrunch "
			    "factor %d", s->o.name, i, t->f);
		t->dm = h->sps_dmtime == 1 ? h->dms[i] : h->refdm;
		if ((e = plan_for(s, t->f, &t->plan)) != SPS_OK)
			return e;
	}
	for (i = 0; i < s->ntrials; i++) {
		unit = lcm(unit, (long long)s->t[i].f * s->t[i].plan->period);
		if (unit > 1 << 24)
			return sps_fail(SPS_EVALUE, "%s: scrunch factors with "
			    "no common multiple below 2^24", s->o.name);
	}
	return choose_window(s, unit);
}

static struct sps_noise_opts
noise_opts(const struct sps_search *s, const struct trial *t)
{
	struct sps_noise_opts no = { s->window / (size_t)t->f, s->o.outlier,
	    s->o.white, t->plan->max_width };

	return no;
}

/* The windows a boxcar reads into, the most of any trial's; whether
 * every trial's boxcars read no further than the next window's first
 * samples that sps_noise_ahead gives, so that a window is searched as
 * soon as it is made, the window after it still raw. */
static void
find_lag(struct sps_search *s)
{
	struct sps_noise_opts no;
	size_t tail;
	int i, lag;

	s->lag = 1;
	s->at_once = 1;
	for (i = 0; i < s->ntrials; i++) {
		if (i > 0 && s->t[i].plan == s->t[i - 1].plan)
			continue;	/* the same factor: the same lag */
		no = noise_opts(s, &s->t[i]);
		tail = sps_boxcar_tail(s->t[i].plan);
		lag = sps_boxcar_stream_lag(s->t[i].plan, no.window);
		s->lag = lag > s->lag ? lag : s->lag;
		s->at_once &= tail <= sps_noise_ahead_max(&no);
		s->ahead = tail > s->ahead ? tail : s->ahead;
	}
	for (i = 0; i < s->ntrials; i++)
		s->block_floats += s->window / (size_t)s->t[i].f;
}

static enum sps_err
start_trials(struct sps_search *s)
{
	enum sps_err e;
	int i;

	for (i = 0; i < s->ntrials; i++)
		if ((e = sps_boxcar_stream_create(&s->t[i].search,
		    s->t[i].plan, s->o.threshold, s->o.want_plane, s->lag)) !=
		    SPS_OK)
			return e;
	return SPS_OK;
}

/* The CPU's noise models, one per trial. */
static enum sps_err
make_noise(struct sps_search *s)
{
	struct sps_noise_opts no;
	enum sps_err e;
	int i;

	for (i = 0; i < s->ntrials; i++) {
		no = noise_opts(s, &s->t[i]);
		if ((e = sps_noise_create(&s->t[i].noise, &no)) != SPS_OK)
			return e;
	}
	return SPS_OK;
}

/* A thread's scratch, its noise part for every trial's windows. */
static enum sps_err
make_scratch(struct sps_search *s, struct scratch *w)
{
	struct sps_noise_opts no;
	enum sps_err e;
	int i;

	if ((e = sps_boxcar_work_create(&w->box)) != SPS_OK)
		return e;
	if ((w->ahead = malloc((s->ahead + 1) * sizeof(float))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < s->ntrials; i++) {
		if (i > 0 && s->t[i].plan == s->t[i - 1].plan)
			continue;
		no = noise_opts(s, &s->t[i]);
		if ((e = w->noise == NULL ? sps_noise_work_create(&w->noise,
		    &no) : sps_noise_work_reserve(w->noise, &no)) != SPS_OK)
			return e;
	}
	return SPS_OK;
}

static enum sps_err
make_work(struct sps_search *s)
{
	enum sps_err e;
	int i;

	s->nthreads = s->o.nthreads > 0 ? s->o.nthreads :
	    omp_get_max_threads();
	if ((s->work = calloc((size_t)s->nthreads, sizeof(*s->work))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < s->nthreads; i++)
		if ((e = make_scratch(s, &s->work[i])) != SPS_OK)
			return e;
	return SPS_OK;
}

static enum sps_err
make_gpu(struct sps_search *s)
{
	const struct sps_boxcar_plan **plans;
	struct sps_gpu_search_opts go;
	enum sps_err e;
	int *f, i;

	go.device = s->o.device;
	go.window = s->window;
	go.lag = s->lag;
	go.threshold = s->o.threshold;
	go.outlier = s->o.outlier;
	go.white = s->o.white;
	f = malloc((size_t)s->ntrials * sizeof(*f));
	plans = malloc((size_t)s->ntrials * sizeof(*plans));
	s->counts = calloc(3 * (size_t)s->ntrials, sizeof(*s->counts));
	if (f == NULL || plans == NULL || s->counts == NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	else {
		for (i = 0; i < s->ntrials; i++) {
			f[i] = s->t[i].f;
			plans[i] = s->t[i].plan;
		}
		e = sps_gpu_search_create(&s->gpu, &go, s->ntrials, f, plans);
	}
	free(f);
	free(plans);
	return e;
}

void
sps_search_preload(const struct sps_search_opts *o)
{
	if (o->gpu != SPS_ENGINE_CPU)
		sps_gpu_search_preload(o->device);
}

/* The GPU when asked for (or an error), or when any engine will do and
 * one is usable (else the CPU, the reason kept for the caller). */
static enum sps_err
choose_engine(struct sps_search *s)
{
	struct sps_device dev;
	enum sps_err e;
	int n;

	if (s->o.gpu == SPS_ENGINE_GPU && s->o.want_plane)
		return sps_fail(SPS_EUSAGE, "the S/N plane is searched on the "
		    "CPU only");
	if (s->o.gpu == SPS_ENGINE_CPU || (s->o.gpu == SPS_ENGINE_ANY &&
	    s->o.want_plane))
		return make_work(s);
	if (s->o.gpu == SPS_ENGINE_ANY && (e = sps_device_list(&dev, 1, &n))
	    != SPS_OK) {
		if (e == SPS_EIO)	/* not for a build without CUDA */
			snprintf(s->gpu_note, sizeof(s->gpu_note), "%s",
			    sps_errmsg());
		return make_work(s);
	}
	if ((e = make_gpu(s)) == SPS_OK)
		return SPS_OK;
	if (s->o.gpu == SPS_ENGINE_GPU)
		return sps_fail(e, "GPU %d: %s", s->o.device, sps_errmsg());
	snprintf(s->gpu_note, sizeof(s->gpu_note), "GPU %d: %s", s->o.device,
	    sps_errmsg());
	sps_gpu_search_free(s->gpu);
	s->gpu = NULL;
	return make_work(s);
}

/* The trials, their plans, the window and the lag: no memory for the
 * data yet. */
static enum sps_err
lay_out(struct sps_search *s, const struct sps_header *h)
{
	double w = s->o.max_width;
	enum sps_err e;

	if (!(h->tsamp > 0))
		return sps_fail(SPS_EVALUE, "%s: tsamp %g is not a sampling "
		    "time", s->o.name, h->tsamp);
	if (w < 1 || w > SPS_BOXCAR_MAXWIDTH)
		return sps_fail(SPS_EVALUE, "widest boxcar %.0f samples of %g "
		    "s, not in [1, %d]", w, h->tsamp, SPS_BOXCAR_MAXWIDTH);
	s->tsamp = h->tsamp;
	s->ntrials = h->sps_dmtime == 1 ? h->ndms : 1;
	if ((e = sps_boxcar_plan_make(&s->plan, s->o.algorithm,
	    s->o.max_width)) != SPS_OK)
		return e;
	s->t = calloc((size_t)s->ntrials, sizeof(*s->t));
	s->plans = calloc((size_t)s->ntrials, sizeof(*s->plans));
	s->plan_f = calloc((size_t)s->ntrials, sizeof(*s->plan_f));
	if (s->t == NULL || s->plans == NULL || s->plan_f == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if ((e = make_trials(s, h)) != SPS_OK)
		return e;
	find_lag(s);
	return SPS_OK;
}

static enum sps_err
setup(struct sps_search *s, const struct sps_header *h)
{
	enum sps_err e;

	if ((e = lay_out(s, h)) != SPS_OK || (e = start_trials(s)) != SPS_OK)
		return e;
	sps_trace("search: %d trials planned, windows of %zu %s", s->ntrials,
	    s->window, s->at_once ? "searched as made" : "held for the next");
	if ((e = choose_engine(s)) != SPS_OK)
		return e;
	return s->gpu != NULL ? SPS_OK : make_noise(s);
}

enum sps_err
sps_search_create(struct sps_search **sp, const struct sps_header *h,
    const struct sps_search_opts *o)
{
	struct sps_search *s;
	enum sps_err e;

	*sp = NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	s->o = *o;
	if (s->o.name == NULL)
		s->o.name = "input";
	if ((e = setup(s, h)) != SPS_OK) {
		sps_search_free(s);
		return e;
	}
	*sp = s;
	return SPS_OK;
}

void
sps_search_free(struct sps_search *s)
{
	int i;

	if (s == NULL)
		return;
	for (i = 0; s->t != NULL && i < s->ntrials; i++) {
		sps_noise_free(s->t[i].noise);
		sps_boxcar_stream_free(s->t[i].search);
		free(s->t[i].ev);
		free(s->t[i].psnr);
		free(s->t[i].pwidth);
	}
	for (i = 0; s->work != NULL && i < s->nthreads; i++) {
		sps_boxcar_work_free(s->work[i].box);
		sps_noise_work_free(s->work[i].noise);
		free(s->work[i].ahead);
	}
	free(s->work);
	free(s->t);
	free(s->plans);
	free(s->plan_f);
	free(s->plane);
	free(s->events);
	sps_gpu_search_free(s->gpu);
	free(s->found);
	free(s->counts);
	free(s);
}

const struct sps_boxcar_plan *
sps_search_plan(const struct sps_search *s)
{
	return &s->plan;
}

size_t
sps_search_window(const struct sps_search *s)
{
	return s->window;
}

/* ---- one trial's work (in a thread) ---- */

static enum sps_err
keep_events(struct trial *t)
{
	const struct sps_boxcar_event *ev;
	size_t n, cap;
	void *p;

	ev = sps_boxcar_stream_events(t->search, &n);
	if (n == 0)
		return SPS_OK;
	if (t->nev + n > t->evcap) {
		cap = t->evcap < 64 ? 64 : t->evcap;
		while (cap < t->nev + n)
			cap *= 2;
		if ((p = realloc(t->ev, cap * sizeof(*t->ev))) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		t->ev = p;
		t->evcap = cap;
	}
	memcpy(t->ev + t->nev, ev, n * sizeof(*ev));
	t->nev += n;
	return SPS_OK;
}

static enum sps_err
grow_plane(struct trial *t, size_t n)
{
	size_t cap = t->pcap < 1024 ? 1024 : t->pcap;
	float *a, *b;

	while (cap < t->pn + n)
		cap *= 2;
	a = realloc(t->psnr, cap * sizeof(float));
	if (a != NULL)
		t->psnr = a;
	b = realloc(t->pwidth, cap * sizeof(float));
	if (b != NULL)
		t->pwidth = b;
	if (a == NULL || b == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	t->pcap = cap;
	return SPS_OK;
}

static enum sps_err
keep_plane(struct trial *t)
{
	const int32_t *wd;
	const size_t *wlen;
	const float *snr;
	uint64_t first;
	size_t n, j;
	enum sps_err e;
	int nwin;

	sps_boxcar_stream_plane(t->search, &snr, &wd, &n, &first, &wlen,
	    &nwin);
	if (n == 0)
		return SPS_OK;
	if (t->pn + n > t->pcap && (e = grow_plane(t, n)) != SPS_OK)
		return e;
	for (j = 0; j < n; j++) {
		t->psnr[t->pn + j] = snr[j];
		t->pwidth[t->pn + j] = (float)wd[j] * (float)t->f;
	}
	t->pn += n;
	return SPS_OK;
}

static enum sps_err
keep_output(struct trial *t)
{
	enum sps_err e;

	if ((e = keep_events(t)) != SPS_OK)
		return e;
	return keep_plane(t);
}

/* The windows the noise model has ready, searched: at once, with the
 * samples after them, or pushed to wait for the windows they read
 * into. */
static enum sps_err
take_windows(const struct sps_search *s, struct trial *t,
    struct scratch *w)
{
	struct sps_noise_window win;
	enum sps_err e;
	size_t na;

	while (sps_noise_next(t->noise, w->noise, &win)) {
		t->windows++;
		t->skipped += win.scale == NULL;
		t->nbad += win.nbad;
		if (s->at_once) {
			na = win.scale == NULL ? 0 : sps_noise_ahead(t->noise,
			    w->ahead, sps_boxcar_tail(t->plan));
			e = sps_boxcar_stream_search(t->search, w->box, win.x,
			    win.n, w->ahead, na, win.scale);
		} else
			e = sps_boxcar_stream_push(t->search, w->box, win.x,
			    win.n, win.scale);
		if (e != SPS_OK || (e = keep_output(t)) != SPS_OK)
			return e;
	}
	return SPS_OK;
}

/* The noise model is fed no more than it has room for at a time, so
 * that it holds two windows at most. */
static enum sps_err
feed_trial(const struct sps_search *s, struct trial *t, struct scratch *w,
    const float *x, size_t n, int end)
{
	enum sps_err e;
	size_t k;

	do {
		k = sps_noise_room(t->noise);
		k = k < n ? k : n;
		if (k > 0) {
			if ((e = sps_noise_push(t->noise, x, k)) != SPS_OK)
				return e;
			x += k;
			n -= k;
		}
		if ((e = take_windows(s, t, w)) != SPS_OK)
			return e;
	} while (n > 0);
	if (!end)
		return SPS_OK;
	sps_noise_finish(t->noise);
	if ((e = take_windows(s, t, w)) != SPS_OK ||
	    (e = sps_boxcar_stream_finish(t->search, w->box)) != SPS_OK)
		return e;
	return keep_output(t);
}

/* Every trial's part of a block of n base samples, in parallel; the
 * first failure's message is the one kept. */
static enum sps_err
feed_all(struct sps_search *s, const float *block, size_t n, int end)
{
	enum sps_err first = SPS_OK;
	char msg[512] = "";
	size_t off = 0;
	size_t *offs;
	int i;

	if ((offs = malloc((size_t)s->ntrials * sizeof(*offs))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < s->ntrials; i++) {
		offs[i] = off;
		off += n / (size_t)s->t[i].f;
	}
#pragma omp parallel for schedule(dynamic) num_threads(s->nthreads)
	for (i = 0; i < s->ntrials; i++) {
		struct trial *t = &s->t[i];
		enum sps_err e;

		e = feed_trial(s, t, &s->work[omp_get_thread_num()], block !=
		    NULL ? block + offs[i] : NULL, n / (size_t)t->f, end);
		if (e != SPS_OK) {
#pragma omp critical
			{
				if (first == SPS_OK) {
					first = e;
					snprintf(msg, sizeof(msg), "%s",
					    sps_errmsg());
				}
			}
		}
	}
	free(offs);
	if (first != SPS_OK)
		return sps_fail(first, "%s", msg);
	return SPS_OK;
}

/* ---- on the GPU ---- */

/* Trial i's boxcars found, as the boxcar stream takes them. */
static enum sps_err
trial_found(struct sps_search *s, const struct sps_gpu_found *g, size_t n)
{
	size_t j;

	if (n > s->found_cap) {
		free(s->found);
		if ((s->found = malloc(n * sizeof(*s->found))) == NULL) {
			s->found_cap = 0;
			return sps_fail(SPS_ENOMEM, "out of memory");
		}
		s->found_cap = n;
	}
	for (j = 0; j < n; j++) {
		s->found[j].start = g[j].start;
		s->found[j].width = g[j].width;
		s->found[j].snr = g[j].snr;
	}
	return SPS_OK;
}

/* A failure of the search on the device, named by its device. */
static enum sps_err
gpu_fail(const struct sps_search *s, enum sps_err e)
{
	return sps_fail(e, "GPU %d: %s", s->o.device, sps_errmsg());
}

/* What the GPU found, through every trial's boxcar stream to events. */
static enum sps_err
gpu_events(struct sps_search *s)
{
	const struct sps_gpu_found *g;
	uint64_t searched = sps_gpu_search_searched(s->gpu);
	unsigned long long *c = s->counts;
	size_t n, at = 0, k;
	enum sps_err e;
	int i;

	g = sps_gpu_search_found(s->gpu, &n);
	if (n == 0 && searched == s->gpu_searched && !s->finished)
		return SPS_OK;	/* no window searched since the last block */
	s->gpu_searched = searched;
	for (i = 0; i < s->ntrials; i++) {
		struct trial *t = &s->t[i];

		for (k = at; k < n && g[k].trial == i; k++)
			;
		if ((e = trial_found(s, g + at, k - at)) != SPS_OK ||
		    (e = sps_boxcar_stream_found(t->search, s->found, k - at,
		    searched / (uint64_t)t->f)) != SPS_OK ||
		    (s->finished && (e = sps_boxcar_stream_finish(t->search,
		    NULL)) != SPS_OK) ||
		    (e = keep_events(t)) != SPS_OK)
			return e;
		at = k;
	}
	if ((e = sps_gpu_search_counts(s->gpu, c, c + s->ntrials, c + 2 *
	    s->ntrials)) != SPS_OK)
		return gpu_fail(s, e);
	for (i = 0; i < s->ntrials; i++) {
		s->t[i].windows = c[i];
		s->t[i].skipped = c[s->ntrials + i];
		s->t[i].nbad = c[2 * s->ntrials + i];
	}
	return SPS_OK;
}

static enum sps_err
feed(struct sps_search *s, const float *block, size_t n, int on_device)
{
	enum sps_err e;

	if (s->finished)
		return sps_fail(SPS_EUSAGE, "search fed after its end");
	s->nbase += n;
	if (s->gpu == NULL)
		return feed_all(s, block, n, 0);
	if ((e = sps_gpu_search_feed(s->gpu, block, n, on_device)) != SPS_OK)
		return gpu_fail(s, e);
	return gpu_events(s);
}

enum sps_err
sps_search_feed(struct sps_search *s, const float *block, size_t n)
{
	return feed(s, block, n, 0);
}

enum sps_err
sps_search_feed_device(struct sps_search *s, const float *block, size_t n)
{
	if (s->gpu == NULL)
		return sps_fail(SPS_EUSAGE, "a block on the device for a search "
		    "on the CPU");
	return feed(s, block, n, 1);
}

enum sps_err
sps_search_feed_packed(struct sps_search *s, const unsigned char *raw,
    size_t n, const struct sps_header *h)
{
	enum sps_err e;

	if (s->gpu == NULL)
		return sps_fail(SPS_EUSAGE, "a packed block for a search on "
		    "the CPU");
	if (s->finished)
		return sps_fail(SPS_EUSAGE, "search fed after its end");
	s->nbase += n;
	if ((e = sps_gpu_search_feed_packed(s->gpu, raw, n, h->nbits,
	    h->sps_scale, h->sps_offset)) != SPS_OK)
		return gpu_fail(s, e);
	return gpu_events(s);
}

enum sps_err
sps_search_finish(struct sps_search *s)
{
	enum sps_err e;

	if (s->finished)
		return SPS_OK;
	s->finished = 1;
	if (s->gpu == NULL)
		return feed_all(s, NULL, 0, 1);
	if ((e = sps_gpu_search_finish(s->gpu)) != SPS_OK)
		return gpu_fail(s, e);
	return gpu_events(s);
}

int
sps_search_on_gpu(const struct sps_search *s)
{
	return s->gpu != NULL;
}

const char *
sps_search_gpu_note(const struct sps_search *s)
{
	return s->gpu_note[0] != '\0' ? s->gpu_note : NULL;
}

void
sps_search_gpu_info(const struct sps_search *s, double *kernels,
    size_t *memory)
{
	struct sps_gpu_search_info in = { 0, 0, 0 };

	if (s->gpu != NULL)
		sps_gpu_search_info(s->gpu, &in);
	*kernels = in.kernels;
	*memory = in.memory;
}

int
sps_search_started(const struct sps_search *s)
{
	int i;

	for (i = 0; i < s->ntrials; i++)
		if (s->t[i].windows > s->t[i].skipped)
			return 1;
	return 0;
}

/* ---- what the engine gives ---- */

static enum sps_err
room_for_events(struct sps_search *s, size_t n)
{
	size_t cap = s->events_cap < 64 ? 64 : s->events_cap;
	void *p;

	if (n <= s->events_cap)
		return SPS_OK;
	while (cap < n)
		cap *= 2;
	if ((p = realloc(s->events, cap * sizeof(*s->events))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	s->events = p;
	s->events_cap = cap;
	return SPS_OK;
}

const struct sps_event *
sps_search_events(struct sps_search *s, size_t *n)
{
	size_t total = 0, k = 0, j;
	int i;

	for (i = 0; i < s->ntrials; i++)
		total += s->t[i].nev;
	*n = 0;
	if (total == 0 || room_for_events(s, total) != SPS_OK)
		return s->events;
	for (i = 0; i < s->ntrials; i++) {
		struct trial *t = &s->t[i];

		for (j = 0; j < t->nev; j++, k++) {
			struct sps_event *e = &s->events[k];

			e->dm_index = i;
			e->dm = t->dm;
			e->sample = t->ev[j].start * (uint64_t)t->f;
			e->time = (double)e->sample * s->tsamp;
			e->width = t->ev[j].width * t->f;
			e->snr = t->ev[j].snr;
		}
		t->nev = 0;
	}
	s->nevents += total;
	*n = total;
	return s->events;
}

/* The plane block's length: a window, or at the end what is left; 0 when
 * a trial has not searched that far. */
static enum sps_err
plane_ready(const struct sps_search *s, size_t *n)
{
	uint64_t left = s->nbase - s->plane_done;
	int i;

	*n = s->window;
	if (s->finished && left < *n)
		*n = (size_t)left;
	for (i = 0; *n > 0 && i < s->ntrials; i++)
		if (s->t[i].pn < *n / (size_t)s->t[i].f) {
			if (s->finished)
				return sps_fail(SPS_EUSAGE, "internal error: "
				    "plane of trial %d short", i);
			*n = 0;
		}
	return SPS_OK;
}

enum sps_err
sps_search_plane_block(struct sps_search *s, const float **values,
    size_t *n, size_t *nvalues)
{
	size_t at = 0, m;
	enum sps_err e;
	int i, pass;

	*values = NULL;
	*nvalues = 0;
	if ((e = plane_ready(s, n)) != SPS_OK || *n == 0)
		return e;
	if (s->plane == NULL && (s->plane = malloc(2 * s->block_floats *
	    sizeof(float) + sizeof(float))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < s->ntrials; i++) {
			m = *n / (size_t)s->t[i].f;
			memcpy(s->plane + at, pass ? s->t[i].pwidth :
			    s->t[i].psnr, m * sizeof(float));
			at += m;
		}
	for (i = 0; i < s->ntrials; i++) {
		struct trial *t = &s->t[i];

		m = *n / (size_t)t->f;
		memmove(t->psnr, t->psnr + m, (t->pn - m) * sizeof(float));
		memmove(t->pwidth, t->pwidth + m, (t->pn - m) * sizeof(float));
		t->pn -= m;
	}
	s->plane_done += *n;
	*values = s->plane;
	*nvalues = at / 2;
	return SPS_OK;
}

enum sps_err
sps_search_plane_header(const struct sps_search *s,
    const struct sps_header *h, struct sps_header *p)
{
	double dm = h->refdm;
	int one = 1;
	enum sps_err e;

	if ((e = sps_header_copy(p, h)) != SPS_OK)
		return e;
	if (h->sps_dmtime != 1) {
		p->data_type = 2;
		p->nchans = 1;
		p->nifs = 1;
		sps_header_mark(p, "data_type");
		if ((e = sps_header_set_dms(p, &dm, &one, 1)) != SPS_OK)
			return e;
	}
	p->nbits = 32;
	p->sps_dmtime = 2;
	p->sps_block = (int)s->window;
	sps_header_mark(p, "nbits");
	sps_header_mark(p, "sps_dmtime");
	sps_header_mark(p, "sps_block");
	sps_header_unmark(p, "sps_scale");
	sps_header_unmark(p, "sps_offset");
	sps_header_unmark(p, "signed");
	return SPS_OK;
}

void
sps_search_events_meta(const struct sps_search *s,
    const struct sps_header *h, uint64_t nsamples, struct sps_events_meta *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->source_name, sizeof(m->source_name), "%s",
	    h->source_name);
	snprintf(m->input, sizeof(m->input), "%s", s->o.name);
	snprintf(m->algorithm, sizeof(m->algorithm), "%.31s", s->plan.name);
	m->tstart = h->tstart;
	m->tsamp = h->tsamp;
	m->fch1 = h->fch1;
	m->foff = h->foff;
	m->nchans = h->sps_nchans_in > 0 ? h->sps_nchans_in : h->nchans;
	m->ndms = s->ntrials;
	m->dm_lo = s->t[0].dm;
	m->dm_hi = s->t[s->ntrials - 1].dm;
	m->nsamples = nsamples;
	m->threshold = s->o.threshold;
	m->max_width = s->plan.max_width;
}

void
sps_search_stats(const struct sps_search *s, struct sps_search_stats *st)
{
	int i;

	memset(st, 0, sizeof(*st));
	st->ntrials = s->ntrials;
	st->nbase = s->nbase;
	st->nevents = s->nevents;
	for (i = 0; i < s->ntrials; i++) {
		st->windows += s->t[i].windows;
		st->skipped += s->t[i].skipped;
		st->nbad += s->t[i].nbad;
		st->samples += s->nbase / (uint64_t)s->t[i].f;
	}
}

/* ---- memory, predicted ---- */

/* On the CPU: every trial's noise model (fed no more than it has room
 * for) and boxcar stream, and each thread's scratch for the widest
 * window of a trial (the same trials, the same window: the widest has
 * the largest tables). */
static void
cpu_memory(const struct sps_search *s, uint64_t nbase, int packed,
    struct sps_search_memory *m)
{
	int nthreads = s->o.nthreads > 0 ? s->o.nthreads :
	    omp_get_max_threads(), i;
	double trial = 0;
	size_t work = 0, b = 0, n, win;

	for (i = 0; i < s->ntrials; i++) {
		const struct trial *t = &s->t[i];
		struct sps_noise_opts no = noise_opts(s, t);

		if (i == 0 || t->plan != t[-1].plan) {	/* a new factor */
			n = (size_t)(nbase / (uint64_t)t->f);
			win = s->at_once ? 0 : no.window;
			trial = (double)sizeof(*t) + sps_noise_bytes(&no, 0, n,
			    packed) + sps_boxcar_stream_bytes(t->plan, win,
			    s->lag, n);
			b = sps_boxcar_work_bytes(t->plan, n > 0 && n <
			    no.window ? n : no.window) +
			    sps_noise_work_bytes(&no);
		}
		m->host += trial;
		work = b > work ? b : work;
	}
	m->host += (double)nthreads * (double)(work + sizeof(struct scratch) +
	    (s->ahead + 1) * sizeof(float));
}

/* On the GPU: the device's windows (and a block staged there unless
 * the blocks come in device memory); on the host, each trial's stream
 * of events and its layout. */
static enum sps_err
gpu_memory(const struct sps_search *s, size_t block, int on_device,
    struct sps_search_memory *m)
{
	const struct sps_boxcar_plan **plans;
	struct sps_gpu_search_opts go = { s->o.device, s->window, s->lag,
	    s->o.threshold, s->o.outlier, s->o.white };
	size_t stage = 0;
	int *f, i;

	f = malloc((size_t)s->ntrials * sizeof(*f));
	plans = malloc((size_t)s->ntrials * sizeof(*plans));
	if (f == NULL || plans == NULL) {
		free(f);
		free(plans);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	for (i = 0; i < s->ntrials; i++) {
		f[i] = s->t[i].f;
		plans[i] = s->t[i].plan;
		stage += on_device ? 0 : block / (size_t)f[i];
	}
	m->device = sps_gpu_search_bytes(&go, s->ntrials, f, plans, stage);
	m->host = sps_gpu_search_host_bytes(s->ntrials);
	for (i = 0; i < s->ntrials; i++)
		m->host += sizeof(struct trial) + 3 * sizeof(unsigned long
		    long) + sps_boxcar_stream_bytes(plans[i], 0, s->lag, 0);
	free(f);
	free(plans);
	return SPS_OK;
}

enum sps_err
sps_search_memory(const struct sps_header *h,
    const struct sps_search_opts *o, size_t block, uint64_t nbase,
    int on_device, int packed, struct sps_search_memory *m)
{
	struct sps_search *s;
	enum sps_err e;

	memset(m, 0, sizeof(*m));
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	s->o = *o;
	if (s->o.name == NULL)
		s->o.name = "input";
	if ((e = lay_out(s, h)) == SPS_OK) {
		m->window = s->window;
		m->lag = s->lag;
		if (o->gpu == SPS_ENGINE_GPU)
			e = gpu_memory(s, block, on_device, m);
		else
			cpu_memory(s, nbase, packed, m);
	}
	sps_search_free(s);
	return e;
}

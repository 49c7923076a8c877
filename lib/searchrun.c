/* searchrun.c: one input searched in one process (searchrun.h). */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "dedisp_out.h"
#include "devices.h"
#include "events.h"
#include "killmask.h"
#include "searchrun.h"

struct sps_searchrun {
	struct sps_reader	*r;
	struct sps_dedisp_engine *eng;
	struct sps_header	 dmt;	/* the DM-time stream's header */
	struct sps_search	*search;
	struct sps_sift		 sift;
	double			 tsamp;
	struct sps_event	*ev;	/* the events of a step, as written */
	size_t			 ecap;
	uint64_t		 events;
	int			 resident;	/* blocks stay on the GPU */
	void			(*on_block)(const struct sps_reader *r);
	double			 setup;		/* s, to the first block */
	char			 note[512];	/* why not on the GPU */
	char			 retry[640];	/* a GPU failure recovered
						 * from, and how */
	int			 stage;	/* 0 blocks, 1 the search ended, 2 the
					 * sifting ended, 3 all out */
};

/* The dedispersion engine, the DM-time header and the search, with
 * engine choice ec for both (blocks on the device when both are GPU). */
static enum sps_err
engines(struct sps_searchrun *s, const struct sps_plan *plan,
    const struct sps_searchrun_opts *o, const unsigned char *kill, int ec)
{
	struct sps_dedisp_engine_opts eo = o->dedisp;
	struct sps_search_opts so = o->search;
	struct sps_dedisp_engine_info in;
	enum sps_err e;

	eo.engine = ec;
	eo.block = sps_searchrun_block(eo.block, ec == SPS_ENGINE_GPU);
	eo.on_device = ec == SPS_ENGINE_GPU;
	so.gpu = ec;
	so.device = eo.device;
	so.name = s->r->name;
	sps_search_preload(&so);
	if ((e = sps_dedisp_engine_create(&s->eng, s->r, plan->dm,
	    plan->scrunch, (int)plan->ntrials, kill, &eo)) != SPS_OK)
		return e;
	sps_dedisp_engine_info(s->eng, &in);
	if ((e = sps_dedisp_stream_header(&s->dmt, &s->r->hdr, plan->dm,
	    plan->scrunch, (int)plan->ntrials, 32, in.block, in.max_delay,
	    s->r->nsamples)) != SPS_OK)
		return e;
	if ((e = sps_search_create(&s->search, &s->dmt, &so)) != SPS_OK)
		return e;
	sps_trace("search: engine made");
	s->resident = eo.on_device;
	return SPS_OK;
}

static void
drop_engines(struct sps_searchrun *s)
{
	sps_search_free(s->search);
	sps_dedisp_engine_free(s->eng);
	sps_header_free(&s->dmt);
	s->search = NULL;
	s->eng = NULL;
	sps_header_init(&s->dmt);
}

/* Both on the GPU; when the device's memory runs out, again with the
 * dedispersion's gulps in half the share of it, twice at most. */
static enum sps_err
on_gpu(struct sps_searchrun *s, const struct sps_plan *plan,
    const struct sps_searchrun_opts *o, const unsigned char *kill)
{
	struct sps_searchrun_opts lo = *o;
	char why[512] = "";
	double share = o->dedisp.device_share > 0 ? o->dedisp.device_share :
	    0.75;
	enum sps_err e;
	int tries;

	for (tries = 0;; tries++) {
		lo.dedisp.device_share = share;
		if ((e = engines(s, plan, &lo, kill, SPS_ENGINE_GPU)) !=
		    SPS_ENOMEM || tries == 2)
			break;
		if (why[0] == '\0')
			snprintf(why, sizeof(why), "%s", sps_errmsg());
		drop_engines(s);
		share /= 2;
	}
	if (e == SPS_OK && why[0] != '\0')
		snprintf(s->retry, sizeof(s->retry), "%s: again with the "
		    "dedispersion in %.0f%% of the free GPU memory", why,
		    share * 100);
	return e;
}

/* Both on the GPU when asked or when one is usable; with any engine,
 * a GPU that cannot do it gives way to the CPU, its reason kept. */
static enum sps_err
choose(struct sps_searchrun *s, const struct sps_plan *plan,
    const struct sps_searchrun_opts *o, const unsigned char *kill)
{
	struct sps_device dev;
	enum sps_err e;
	int n, ec = o->dedisp.engine;

	if (ec == SPS_ENGINE_ANY && (e = sps_device_list(&dev, 1, &n)) !=
	    SPS_OK) {
		if (e == SPS_EIO)	/* not for a build without CUDA */
			snprintf(s->note, sizeof(s->note), "%s", sps_errmsg());
		ec = SPS_ENGINE_CPU;
	}
	if (ec == SPS_ENGINE_CPU)
		return engines(s, plan, o, kill, SPS_ENGINE_CPU);
	if ((e = on_gpu(s, plan, o, kill)) == SPS_OK ||
	    ec == SPS_ENGINE_GPU || e == SPS_EVALUE)
		return e;
	snprintf(s->note, sizeof(s->note), "%s", sps_errmsg());
	drop_engines(s);
	return engines(s, plan, o, kill, SPS_ENGINE_CPU);
}

static enum sps_err
setup(struct sps_searchrun *s, const struct sps_plan *plan,
    const struct sps_searchrun_opts *o)
{
	struct sps_events_meta m;
	unsigned char *kill = NULL;
	double t0 = sps_clock();
	enum sps_err e;

	if ((e = sps_killmask_make(o->killfile, o->ignorechan, &s->r->hdr,
	    &kill)) != SPS_OK)
		return e;
	e = choose(s, plan, o, kill);
	free(kill);
	if (e != SPS_OK)
		return e;
	sps_search_events_meta(s->search, &s->dmt, s->r->nsamples ==
	    SPS_NSAMPLES_UNKNOWN ? 0 : s->r->nsamples, &m);
	if ((e = sps_events_as_written(&m, NULL, 0)) != SPS_OK)
		return e;
	s->tsamp = m.tsamp;
	s->setup = sps_clock() - t0;
	return sps_sift_init(&s->sift, &o->sift, &m);
}

enum sps_err
sps_searchrun_create(struct sps_searchrun **sp, struct sps_reader *r,
    const struct sps_plan *plan, const struct sps_searchrun_opts *o)
{
	struct sps_searchrun *s;
	enum sps_err e;

	*sp = NULL;
	/* before the first CUDA call: copies in, dedispersion, copies out,
	 * the search */
	sps_device_queues(4);
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	s->r = r;
	s->on_block = o->on_block;
	sps_header_init(&s->dmt);
	if ((e = setup(s, plan, o)) != SPS_OK) {
		sps_searchrun_free(s);
		return e;
	}
	*sp = s;
	return SPS_OK;
}

size_t
sps_searchrun_block(size_t block, int gpu)
{
	return gpu || block < SPS_SEARCHRUN_CPU_BLOCK ? block :
	    SPS_SEARCHRUN_CPU_BLOCK;
}

void
sps_searchrun_free(struct sps_searchrun *s)
{
	if (s == NULL)
		return;
	sps_sift_free(&s->sift);
	sps_search_free(s->search);
	sps_header_free(&s->dmt);
	sps_dedisp_engine_free(s->eng);
	free(s->ev);
	free(s);
}

double
sps_searchrun_tsamp(const struct sps_searchrun *s)
{
	return s->tsamp;
}

void
sps_searchrun_info(const struct sps_searchrun *s,
    struct sps_searchrun_info *info)
{
	sps_dedisp_engine_info(s->eng, &info->dedisp);
	sps_dedisp_engine_times(s->eng, &info->times);
	info->events = s->events;
	info->search_on_gpu = sps_search_on_gpu(s->search);
	sps_search_gpu_info(s->search, &info->search_kernels,
	    &info->search_memory);
	sps_search_stats(s->search, &info->search);
	info->setup = s->setup;
	info->note = s->note[0] != '\0' ? s->note : NULL;
	info->retry = s->retry[0] != '\0' ? s->retry : NULL;
	info->cleaning = sps_dedisp_engine_cleaning(s->eng);
}

/* The events the search has found, to the sifting as text gives them
 * (one round trip through the text for all of them). */
static enum sps_err
sift_events(struct sps_searchrun *s)
{
	const struct sps_event *ev;
	enum sps_err err;
	size_t n, j;

	ev = sps_search_events(s->search, &n);
	if (n == 0)
		return SPS_OK;
	if (n > s->ecap) {
		free(s->ev);
		if ((s->ev = malloc(n * sizeof(*s->ev))) == NULL) {
			s->ecap = 0;
			return sps_fail(SPS_ENOMEM, "out of memory");
		}
		s->ecap = n;
	}
	memcpy(s->ev, ev, n * sizeof(*ev));
	if ((err = sps_events_as_written(NULL, s->ev, n)) != SPS_OK)
		return err;
	for (j = 0; j < n; j++)
		if ((err = sps_sift_add(&s->sift, &s->ev[j])) != SPS_OK)
			return err;
	s->events += n;
	return SPS_OK;
}

/* As sps-boxcar at the end of the pipe: data with no noise (constant,
 * or not numbers) in every trial is an error, not an empty search. */
static enum sps_err
searched_any(const struct sps_searchrun *s)
{
	struct sps_search_stats st;

	sps_search_stats(s->search, &st);
	if (st.windows > 0 && st.skipped == st.windows)
		return sps_fail(SPS_EVALUE, "%s: noise estimate zero or not a "
		    "number in every trial (constant or empty data): nothing "
		    "searched", s->r->name);
	return SPS_OK;
}

/* One more step: a block dedispersed and searched, or the ends. */
static enum sps_err
step(struct sps_searchrun *s)
{
	const float *block;
	enum sps_err e;
	size_t n;

	switch (s->stage) {
	case 0:
		if ((e = sps_dedisp_engine_next(s->eng, &block, &n)) != SPS_OK)
			return e;
		if (n > 0 && s->on_block != NULL)
			s->on_block(s->r);
		if (n > 0)
			e = s->resident ? sps_search_feed_device(s->search,
			    block, n) : sps_search_feed(s->search, block, n);
		else if ((e = sps_dedisp_engine_finish(s->eng)) == SPS_OK &&
		    (e = sps_search_finish(s->search)) == SPS_OK &&
		    (e = searched_any(s)) == SPS_OK)
			s->stage = 1;
		sps_trace("search: %s %zu", n > 0 ? "fed" : "finished", n);
		return e == SPS_OK ? sift_events(s) : e;
	case 1:
		s->stage = 2;
		return sps_sift_finish(&s->sift);
	case 2:
		s->stage = 3;
		sps_sift_end(&s->sift);	/* the last flood window is over */
		return SPS_OK;
	default:
		return SPS_OK;
	}
}

enum sps_err
sps_searchrun_next(struct sps_searchrun *s, struct sps_cand *c, int *got)
{
	enum sps_err e;

	while (!(*got = sps_sift_next(&s->sift, c)) && s->stage < 3)
		if ((e = step(s)) != SPS_OK)
			return e;
	return SPS_OK;
}

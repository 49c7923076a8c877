/* peaks.c: friends-of-friends clustering of events into candidates
 * (peaks.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "candorder.h"
#include "peaks.h"

#define NONE		UINT32_MAX
#define FLUSH_MIN	65536	/* events held before the first flush */
#define NCLASS		64	/* width classes: floor(log2(width)) */

/* One event held for clustering; the cluster's totals live at its root. */
struct node {
	struct sps_event e;
	uint32_t	 parent;
	uint32_t	 next;		/* next event in the same hash bucket */
	uint32_t	 best;		/* root: the member of highest S/N */
	int		 dmi_min, dmi_max;
	uint64_t	 members;
	int64_t		 first, last;	/* samples covered by the boxcars */
	double		 maxc;		/* latest centre of a member */
	double		 dm_min, dm_max;
};

struct sps_peaks {
	struct sps_peaks_opts	 o;
	struct node		*node;
	size_t			 n, cap;
	uint32_t		*head;		/* hash buckets of the grid */
	size_t			 nhead;
	size_t			 nclass[NCLASS];
	struct sps_cand		*ready;		/* finished, in time order */
	size_t			 nready, capready, posready;
	int			 have_now;
	int64_t			 now;		/* latest start sample seen */
	int64_t			 maxlate;	/* largest lateness seen */
	int64_t			 low_water;	/* events should start here on */
	double			 bound;		/* ready ones before it may go */
	int			 finished;
	int			 wmax;
	size_t			 next_flush;
	struct sps_peaks_stats	 st;
};

void
sps_peaks_defaults(struct sps_peaks_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sep_time = SPS_PEAKS_SEP_TIME;
	o->sep_filter = SPS_PEAKS_SEP_FILTER;
	o->sep_dm = SPS_PEAKS_SEP_DM;
	o->cluster = 1;
}

enum sps_err
sps_peaks_create(struct sps_peaks **pp, const struct sps_peaks_opts *o)
{
	struct sps_peaks *p;

	*pp = NULL;
	if (!(o->sep_time >= 0) || !(o->sep_filter >= 0) || o->sep_dm < 0 ||
	    o->window < 0 || o->max_width < 0 || !isfinite(o->threshold) ||
	    !isfinite(o->sep_time) || !isfinite(o->sep_filter))
		return sps_fail(SPS_EUSAGE, "bad clustering parameters");
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	p->o = *o;
	p->low_water = INT64_MIN;
	p->bound = -INFINITY;
	p->next_flush = FLUSH_MIN;
	*pp = p;
	return SPS_OK;
}

void
sps_peaks_free(struct sps_peaks *p)
{
	if (p == NULL)
		return;
	free(p->node);
	free(p->head);
	free(p->ready);
	free(p);
}

static int
width_class(int width)
{
	return 31 - __builtin_clz((unsigned)width);
}

static double
centre(const struct sps_event *e)
{
	return (double)e->sample + e->width / 2.0;
}

/* Grid cells: width class, DM cell of sep_dm + 1 trials, and a time cell
 * at least as long as the time linking length within the class. */
static double
cell_length(const struct sps_peaks *p, int class)
{
	return ldexp(fmax(1, p->o.sep_time), class + 1);
}

static int64_t
dm_cell(const struct sps_peaks *p, int dm_index)
{
	return dm_index / ((int64_t)p->o.sep_dm + 1);
}

static size_t
bucket(const struct sps_peaks *p, int class, int64_t dmc, int64_t tc)
{
	uint64_t h = (uint64_t)class * 0x9E3779B97F4A7C15ULL ^
	    (uint64_t)dmc * 0xC2B2AE3D27D4EB4FULL ^
	    (uint64_t)tc * 0x165667B19E3779F9ULL;

	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ULL;
	h ^= h >> 32;
	return (size_t)h & (p->nhead - 1);
}

static void
insert(struct sps_peaks *p, uint32_t i)
{
	const struct sps_event *e = &p->node[i].e;
	int c = width_class(e->width);
	size_t k = bucket(p, c, dm_cell(p, e->dm_index),
	    (int64_t)floor(centre(e) / cell_length(p, c)));

	p->node[i].next = p->head[k];
	p->head[k] = i;
}

static enum sps_err
rehash(struct sps_peaks *p, size_t want)
{
	size_t size = 1024, i;

	while (size < 2 * want)
		size *= 2;
	if (size != p->nhead) {
		uint32_t *h = realloc(p->head, size * sizeof(*h));

		if (h == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		p->head = h;
		p->nhead = size;
	}
	for (i = 0; i < p->nhead; i++)
		p->head[i] = NONE;
	for (i = 0; i < p->n; i++)
		insert(p, (uint32_t)i);
	return SPS_OK;
}

static uint32_t
find(struct node *node, uint32_t i)
{
	while (node[i].parent != i) {
		node[i].parent = node[node[i].parent].parent;
		i = node[i].parent;
	}
	return i;
}

/* Higher S/N wins; ties go to the earlier sample, lower trial, narrower
 * width, so that the result does not depend on the order of arrival. */
static int
better(const struct sps_event *a, const struct sps_event *b)
{
	if (a->snr != b->snr)
		return a->snr > b->snr;
	if (a->sample != b->sample)
		return a->sample < b->sample;
	if (a->dm_index != b->dm_index)
		return a->dm_index < b->dm_index;
	return a->width < b->width;
}

static void
unite(struct node *node, uint32_t i, uint32_t j)
{
	uint32_t a = find(node, i), b = find(node, j), t;
	struct node *r, *s;

	if (a == b)
		return;
	if (node[a].members < node[b].members) {
		t = a;
		a = b;
		b = t;
	}
	r = &node[a];
	s = &node[b];
	s->parent = a;
	if (better(&node[s->best].e, &node[r->best].e))
		r->best = s->best;
	r->members += s->members;
	r->first = s->first < r->first ? s->first : r->first;
	r->last = s->last > r->last ? s->last : r->last;
	r->maxc = fmax(r->maxc, s->maxc);
	if (s->dmi_min < r->dmi_min) {
		r->dmi_min = s->dmi_min;
		r->dm_min = s->dm_min;
	}
	if (s->dmi_max > r->dmi_max) {
		r->dmi_max = s->dmi_max;
		r->dm_max = s->dm_max;
	}
}

static int
friends(const struct sps_peaks_opts *o, const struct sps_event *a,
    const struct sps_event *b)
{
	int wide = a->width > b->width ? a->width : b->width;

	return abs(a->dm_index - b->dm_index) <= o->sep_dm &&
	    fabs(log2((double)a->width / b->width)) <= o->sep_filter + 1e-9 &&
	    fabs(centre(a) - centre(b)) <= o->sep_time * wide;
}

/* Join event i to every held friend's cluster: scan the grid cells that
 * can hold a friend, and test each event found there exactly. */
static void
link_friends(struct sps_peaks *p, uint32_t i)
{
	const struct sps_event *e = &p->node[i].e;
	int a = width_class(e->width), span = (int)ceil(p->o.sep_filter) + 1;
	int lo = a - span > 0 ? a - span : 0;
	int hi = a + span < NCLASS - 1 ? a + span : NCLASS - 1;
	int64_t dmc = dm_cell(p, e->dm_index), d, t, t0, t1;
	double c = centre(e), len, reach;
	uint32_t j;
	int b;

	for (b = lo; b <= hi; b++) {
		if (p->nclass[b] == 0)
			continue;
		len = cell_length(p, b);
		reach = p->o.sep_time * fmax(e->width, ldexp(1, b + 1));
		t0 = (int64_t)floor((c - reach) / len);
		t1 = (int64_t)floor((c + reach) / len);
		for (d = dmc - 1; d <= dmc + 1; d++)
			for (t = t0; t <= t1; t++)
				for (j = p->head[bucket(p, b, d, t)]; j != NONE;
				    j = p->node[j].next)
					if (friends(&p->o, e, &p->node[j].e))
						unite(p->node, i, j);
	}
}

static int64_t
window(const struct sps_peaks *p)
{
	if (p->o.window > 0)
		return p->o.window;
	return 2 * p->maxlate > SPS_PEAKS_MIN_WINDOW ? 2 * p->maxlate :
	    SPS_PEAKS_MIN_WINDOW;
}

static enum sps_err
push_ready(struct sps_peaks *p, const struct node *r)
{
	struct sps_cand *c;

	if (p->nready == p->capready) {
		size_t cap = p->capready ? 2 * p->capready : 256;
		struct sps_cand *grown = realloc(p->ready, cap * sizeof(*c));

		if (grown == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		p->ready = grown;
		p->capready = cap;
	}
	c = &p->ready[p->nready++];
	memset(c, 0, sizeof(*c));
	c->best = p->node[r->best].e;
	c->members = r->members;
	c->first_sample = (uint64_t)r->first;
	c->last_sample = (uint64_t)r->last;
	c->dm_index_min = r->dmi_min;
	c->dm_index_max = r->dmi_max;
	c->dm_min = r->dm_min;
	c->dm_max = r->dm_max;
	p->st.candidates++;
	return SPS_OK;
}

/* Move the finished clusters (all when final) to the ready list and close
 * up the held events. */
static enum sps_err
flush(struct sps_peaks *p, int final)
{
	int64_t h = window(p), start = p->have_now ? p->now - h : INT64_MIN;
	double reach = p->o.cluster ? p->o.sep_time * (p->wmax >
	    p->o.max_width ? p->wmax : p->o.max_width) : 0;
	double cutoff = (double)start - reach, best = INFINITY;
	uint32_t *root = NULL, *to = NULL, k = 0;
	enum sps_err e = SPS_OK;
	size_t i, n = p->n;

	if (n > 0 && ((root = malloc(n * sizeof(*root))) == NULL ||
	    (to = malloc(n * sizeof(*to))) == NULL)) {
		free(root);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++)
		root[i] = find(p->node, (uint32_t)i);
	for (i = 0; i < n && e == SPS_OK; i++) {
		to[i] = 0;
		if (root[i] != i)
			continue;
		if (final || p->node[i].maxc < cutoff) {
			to[i] = NONE;
			e = push_ready(p, &p->node[i]);
		} else if ((double)p->node[p->node[i].best].e.sample < best) {
			best = (double)p->node[p->node[i].best].e.sample;
		}
	}
	/* to[] marks flushed roots NONE; now number the events kept.  A
	 * member of an open cluster that is too old to have friends to come
	 * goes too, unless it is the root or the best: the root keeps the
	 * cluster's totals, so a cluster that grows for ever (a flood) does
	 * not hold all its events. */
	for (i = 0; i < n && e == SPS_OK; i++)
		to[i] = to[root[i]] == NONE || (root[i] != i &&
		    p->node[root[i]].best != i &&
		    centre(&p->node[i].e) < cutoff) ? NONE : k++;
	memset(p->nclass, 0, sizeof(p->nclass));
	for (i = 0; i < n && e == SPS_OK; i++) {
		if (to[i] == NONE)
			continue;
		p->node[to[i]] = p->node[i];
		p->node[to[i]].parent = to[root[i]];
		p->nclass[width_class(p->node[i].e.width)]++;
	}
	for (i = 0; i < k && e == SPS_OK; i++)
		if (p->node[i].parent == i)
			p->node[i].best = to[p->node[i].best];
	free(root);
	free(to);
	if (e != SPS_OK)
		return e;
	p->n = k;
	p->st.window = h;
	if (!final && start > p->low_water)
		p->low_water = start;
	/* an open cluster's best is its best now or an event to come */
	p->bound = final ? INFINITY : fmin(best, (double)start);
	if (p->nready > 0) {
		memmove(p->ready, p->ready + p->posready, (p->nready -
		    p->posready) * sizeof(*p->ready));
		p->nready -= p->posready;
		p->posready = 0;
		qsort(p->ready, p->nready, sizeof(*p->ready),
		    sps_cand_by_time);
	}
	p->next_flush = 2 * p->n > FLUSH_MIN ? 2 * p->n : FLUSH_MIN;
	return rehash(p, p->n);
}

static void
see_time(struct sps_peaks *p, int64_t s)
{
	if (!p->have_now) {
		p->now = s;
		p->have_now = 1;
	} else if (s > p->now) {
		p->now = s;
	} else if (p->now - s > p->maxlate) {
		p->maxlate = p->now - s;
	}
}

static enum sps_err
hold(struct sps_peaks *p, const struct sps_event *e)
{
	struct node *r;
	enum sps_err err;

	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 1024;
		struct node *grown;

		if (cap >= NONE)
			return sps_fail(SPS_ENOMEM, "too many events held at "
			    "once (%zu)", p->n);
		if ((grown = realloc(p->node, cap * sizeof(*grown))) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		p->node = grown;
		p->cap = cap;
	}
	if (2 * (p->n + 1) > p->nhead && (err = rehash(p, 2 * (p->n + 1))) !=
	    SPS_OK)
		return err;
	r = &p->node[p->n];
	r->e = *e;
	r->parent = r->best = (uint32_t)p->n;
	r->members = 1;
	r->first = (int64_t)e->sample;
	r->last = (int64_t)e->sample + e->width - 1;
	r->maxc = centre(e);
	r->dmi_min = r->dmi_max = e->dm_index;
	r->dm_min = r->dm_max = e->dm;
	if (p->o.cluster)
		link_friends(p, (uint32_t)p->n);
	insert(p, (uint32_t)p->n);
	p->nclass[width_class(e->width)]++;
	p->n++;
	if (p->n > p->st.held_max)
		p->st.held_max = p->n;
	return SPS_OK;
}

enum sps_err
sps_peaks_add(struct sps_peaks *p, const struct sps_event *e)
{
	enum sps_err err;

	if (p->finished)
		return sps_fail(SPS_EUSAGE, "event after the end");
	if (isnan(e->snr) || !isfinite(e->dm) || e->dm_index < 0 ||
	    e->width < 1 || e->sample > (uint64_t)INT64_MAX / 2)
		return sps_fail(SPS_EVALUE, "event at sample %" PRIu64 ": bad "
		    "value (S/N %g, DM %g, width %d)", e->sample, e->snr, e->dm,
		    e->width);
	p->st.events++;
	see_time(p, (int64_t)e->sample);
	if (!(e->snr >= p->o.threshold))
		return SPS_OK;
	p->st.kept++;
	if ((int64_t)e->sample < p->low_water)
		p->st.late++;
	if (e->width > p->wmax)
		p->wmax = e->width;
	if ((err = hold(p, e)) != SPS_OK)
		return err;
	if (p->n >= p->next_flush)
		return flush(p, 0);
	return SPS_OK;
}

enum sps_err
sps_peaks_finish(struct sps_peaks *p)
{
	enum sps_err e;

	if (p->finished)
		return SPS_OK;
	if ((e = flush(p, 1)) != SPS_OK)
		return e;
	p->finished = 1;
	return SPS_OK;
}

int
sps_peaks_next(struct sps_peaks *p, struct sps_cand *c)
{
	if (p->posready >= p->nready ||
	    !((double)p->ready[p->posready].best.sample < p->bound))
		return 0;
	*c = p->ready[p->posready++];
	return 1;
}

void
sps_peaks_stats(const struct sps_peaks *p, struct sps_peaks_stats *s)
{
	*s = p->st;
	if (s->window == 0)
		s->window = window(p);
}

uint64_t
sps_cand_centre(const struct sps_event *e)
{
	return e->sample + (uint64_t)(e->width / 2);
}

int
sps_cand_filter(int width)
{
	return (int)lround(log2((double)width));
}

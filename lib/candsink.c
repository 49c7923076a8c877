/* candsink.c: where candidates go (candsink.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "candsink.h"
#include "presto.h"
#include "writer.h"

void
sps_cand_sink_init(struct sps_cand_sink *s, const struct sps_cand_out *out,
    const char *root)
{
	memset(s, 0, sizeof(*s));
	s->out = *out;
	s->root = root;
	s->order = SPS_CAND_BY_TIME;
}

void
sps_cand_sink_select(struct sps_cand_sink *s, enum sps_cand_order order,
    size_t top)
{
	s->order = order;
	s->top = top;
}

/* Written at the end rather than as they come. */
static int
holds(const struct sps_cand_sink *s)
{
	return s->root != NULL || s->order != SPS_CAND_BY_TIME || s->top > 0;
}

static enum sps_err
hold(struct sps_cand_sink *s, const struct sps_cand *c)
{
	struct sps_cand *grown;
	size_t cap;

	if (s->top > 0 && s->nheld >= 2 * s->top)
		sps_cand_keep_top(s->held, s->nheld, s->top, &s->nheld);
	if (s->nheld == s->capheld) {
		cap = s->capheld > 0 ? 2 * s->capheld : 256;
		if ((grown = realloc(s->held, cap * sizeof(*grown))) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		s->held = grown;
		s->capheld = cap;
	}
	s->held[s->nheld++] = *c;
	return SPS_OK;
}

enum sps_err
sps_cand_sink_put(struct sps_cand_sink *s, const struct sps_cand *c)
{
	if (holds(s))
		return hold(s, c);
	s->written++;
	return sps_cand_out_write(&s->out, c);
}

/* The DM as PRESTO's file names print it. */
static void
dm_name(char *name, size_t len, double dm)
{
	snprintf(name, len, "%.2f", dm);
}

static int
by_dm_then_sample(const void *a, const void *b)
{
	const struct sps_cand *x = a, *y = b;
	char name[64];
	double dx, dy;

	dm_name(name, sizeof(name), x->best.dm);
	dx = strtod(name, NULL);
	dm_name(name, sizeof(name), y->best.dm);
	dy = strtod(name, NULL);
	if (dx != dy)
		return dx < dy ? -1 : 1;
	if (x->best.sample != y->best.sample)
		return x->best.sample < y->best.sample ? -1 : 1;
	return (x->best.dm_index > y->best.dm_index) -
	    (x->best.dm_index < y->best.dm_index);
}

/* One .singlepulse file of n held candidates from c. */
static enum sps_err
write_file(const struct sps_cand_sink *s, const char *path,
    const struct sps_cand *c, size_t n)
{
	struct sps_cand_out out = s->out;
	struct sps_writer w;
	enum sps_err e;
	size_t i;

	if ((e = sps_writer_open(&w, path)) != SPS_OK)
		return e;
	out.f = w.f;
	for (i = 0; i < n; i++)
		if (sps_cand_out_write(&out, &c[i]) != SPS_OK) {
			sps_writer_abort(&w);
			return sps_fail(SPS_EIO, "%s: write error", path);
		}
	return sps_writer_close(&w);
}

/* The samples the .inf gives: those searched, or when the stream did not
 * know them, up to the end of the last candidate. */
static uint64_t
inf_samples(const struct sps_cand_sink *s)
{
	uint64_t n = s->meta->nsamples;
	size_t i;

	for (i = 0; n == 0 && i < s->nheld; i++)
		if (s->held[i].last_sample + 1 > n)
			n = s->held[i].last_sample + 1;
	return n;
}

/* ROOT_DMd.dd.inf: the series the candidates of DM dm were found in, as
 * the event stream describes it (which does not give a channel width).
 * The .inf of a .dat of that name (PRESTO's, sps-dedisperse's) is kept:
 * it says more. */
static enum sps_err
write_inf(const struct sps_cand_sink *s, const char *name, double dm)
{
	const struct sps_events_meta *m = s->meta;
	struct sps_presto_inf inf = { NULL, inf_samples(s), { m->nchans,
	    fabs(m->foff), 0 }, "sps-peaks", "Candidates of sps-peaks; "
	    "times from the epoch, at the top of the band" };
	struct sps_header h;
	enum sps_err e = SPS_OK;
	char *root, *path;

	inf.band.low = m->fch1 - (m->nchans > 1 ? (m->nchans - 1) *
	    inf.band.width : 0);
	sps_header_init(&h);
	snprintf(h.source_name, sizeof(h.source_name), "%s", m->source_name);
	h.tstart = m->tstart;
	h.tsamp = m->tsamp;
	h.refdm = dm;
	if (asprintf(&root, "%s_DM%s", s->root, name) < 0)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if (asprintf(&path, "%s.inf", root) < 0) {
		free(root);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	inf.root = root;
	if (!sps_presto_inf_by_other(path, "sps-peaks"))
		e = sps_presto_save_inf(&h, &inf);
	free(path);
	free(root);
	return e;
}

static enum sps_err
write_per_dm(struct sps_cand_sink *s)
{
	char *path, name[64], next[64];
	enum sps_err e;
	size_t i, n;

	if (s->nheld > 0)	/* qsort's base must not be NULL */
		qsort(s->held, s->nheld, sizeof(*s->held), by_dm_then_sample);
	for (i = 0; i < s->nheld; i += n) {
		dm_name(name, sizeof(name), s->held[i].best.dm);
		for (n = 1; i + n < s->nheld; n++) {
			dm_name(next, sizeof(next), s->held[i + n].best.dm);
			if (strcmp(next, name) != 0)
				break;
		}
		if (asprintf(&path, "%s_DM%s.singlepulse", s->root, name) < 0)
			return sps_fail(SPS_ENOMEM, "out of memory");
		e = write_file(s, path, s->held + i, n);
		free(path);
		if (e == SPS_OK && s->meta != NULL)
			e = write_inf(s, name, s->held[i].best.dm);
		if (e != SPS_OK)
			return e;
	}
	return SPS_OK;
}

/* The held candidates, in order, to the stream. */
static enum sps_err
write_held(struct sps_cand_sink *s)
{
	enum sps_err e;
	size_t i;

	sps_cand_sort(s->held, s->nheld, s->order);
	for (i = 0; i < s->nheld; i++)
		if ((e = sps_cand_out_write(&s->out, &s->held[i])) != SPS_OK)
			return e;
	return sps_cand_out_finish(&s->out);
}

enum sps_err
sps_cand_sink_close(struct sps_cand_sink *s)
{
	if (!holds(s))
		return sps_cand_out_finish(&s->out);
	if (s->top > 0)
		sps_cand_keep_top(s->held, s->nheld, s->top, &s->nheld);
	s->written = s->nheld;
	return s->root != NULL ? write_per_dm(s) : write_held(s);
}

void
sps_cand_sink_free(struct sps_cand_sink *s)
{
	free(s->held);
	s->held = NULL;
	s->nheld = s->capheld = 0;
}

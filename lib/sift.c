/* sift.c: the candidates sps-peaks writes (sift.h). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sift.h"

enum sps_cut
sps_cuts_apply(const struct sps_cuts *k, const struct sps_cand *c)
{
	if (k->min_members > 0 && c->members < k->min_members)
		return SPS_CUT_MEMBERS;
	if (k->max_width > 0 && c->best.width > k->max_width)
		return SPS_CUT_WIDTH;
	if (k->min_dm > 0 && c->best.dm < k->min_dm)
		return SPS_CUT_DM;
	return SPS_CUT_NONE;
}

void
sps_sift_defaults(struct sps_sift_opts *o)
{
	memset(o, 0, sizeof(*o));
	sps_peaks_defaults(&o->peaks);
	o->flood_length = 1;
}

enum sps_err
sps_sift_init(struct sps_sift *s, const struct sps_sift_opts *o,
    const struct sps_events_meta *m)
{
	struct sps_peaks_opts po = o->peaks;
	enum sps_err e;

	memset(s, 0, sizeof(*s));
	po.max_width = m->max_width > 0 ? m->max_width : 0;
	po.window = (int64_t)ceil(o->window_s / m->tsamp);
	if ((e = sps_peaks_create(&s->peaks, &po)) != SPS_OK)
		return e;
	if ((e = sps_flood_init(&s->flood, o->max_rate, o->flood_length,
	    m->tsamp)) != SPS_OK) {
		sps_peaks_free(s->peaks);
		s->peaks = NULL;
		return e;
	}
	s->threshold = po.threshold;
	s->cuts = o->cuts;
	return SPS_OK;
}

void
sps_sift_free(struct sps_sift *s)
{
	sps_peaks_free(s->peaks);
	sps_flood_free(&s->flood);
	memset(s, 0, sizeof(*s));
}

/* The clustering's finished candidates through the cuts to the flags. */
static enum sps_err
pass_on(struct sps_sift *s)
{
	struct sps_cand c;
	enum sps_cut cut;
	enum sps_err e;

	while (sps_peaks_next(s->peaks, &c)) {
		if ((cut = sps_cuts_apply(&s->cuts, &c)) != SPS_CUT_NONE)
			s->cut[cut]++;
		else if ((e = sps_flood_add(&s->flood, &c)) != SPS_OK)
			return e;
	}
	return SPS_OK;
}

enum sps_err
sps_sift_add(struct sps_sift *s, const struct sps_event *e)
{
	enum sps_err err;

	if ((err = sps_peaks_add(s->peaks, e)) != SPS_OK)
		return err;
	return pass_on(s);
}

enum sps_err
sps_sift_finish(struct sps_sift *s)
{
	enum sps_err e;

	if ((e = sps_peaks_finish(s->peaks)) != SPS_OK)
		return e;
	return pass_on(s);
}

void
sps_sift_end(struct sps_sift *s)
{
	sps_flood_finish(&s->flood);
}

int
sps_sift_next(struct sps_sift *s, struct sps_cand *c)
{
	return sps_flood_next(&s->flood, c);
}

void
sps_sift_warn(struct sps_sift *s, FILE *f)
{
	struct sps_flood_window w;

	while (sps_flood_report(&s->flood, &w))
		if (s->warned++ < SPS_SIFT_FLOOD_LINES)
			fprintf(f, "sps-peaks: FLOOD: %" PRIu64 " candidates "
			    "between %.3f and %.3f s, more than --max-rate %g "
			    "per s allows: probably RFI; all are kept and "
			    "flagged\n", w.count, w.start, w.start + w.length,
			    s->flood.max_rate);
}

void
sps_sift_warn_end(const struct sps_sift *s, FILE *f)
{
	struct sps_peaks_stats st;

	sps_peaks_stats(s->peaks, &st);
	if (s->warned > SPS_SIFT_FLOOD_LINES)
		fprintf(f, "sps-peaks: FLOOD: %" PRIu64 " flooded windows in "
		    "all, %" PRIu64 " candidates flagged\n", s->flood.windows,
		    s->flood.flagged);
	if (st.late > 0)
		fprintf(f, "sps-peaks: warning: %" PRIu64 " events came more "
		    "than the window (%.3f s) late; their clusters may be "
		    "split (raise --window)\n", st.late, st.window *
		    s->flood.tsamp);
}

void
sps_sift_report(const struct sps_sift *s, FILE *f, uint64_t written)
{
	struct sps_peaks_stats st;

	sps_peaks_stats(s->peaks, &st);
	fprintf(f, "sps-peaks: %" PRIu64 " events, %" PRIu64 " at S/N >= %g, "
	    "%" PRIu64 " candidates; cut %" PRIu64 " by members, %" PRIu64
	    " by width, %" PRIu64 " by DM; %" PRIu64 " written", st.events,
	    st.kept, s->threshold, st.candidates, s->cut[SPS_CUT_MEMBERS],
	    s->cut[SPS_CUT_WIDTH], s->cut[SPS_CUT_DM], written);
	if (s->flood.max_rate > 0)
		fprintf(f, ", %" PRIu64 " flagged as flood", s->flood.flagged);
	fprintf(f, "; at most %" PRIu64 " events held\n", st.held_max);
}

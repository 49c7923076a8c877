/* sift.h: the candidates sps-peaks writes.
 *
 * Events go to the clustering (peaks.h); each candidate it finishes
 * goes through the cuts, then the flood flags (flood.h), and comes out of
 * sps_sift_next() in time order.  The counts of each step are kept for
 * the report. */
#ifndef SPS_SIFT_H
#define SPS_SIFT_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "events.h"
#include "flood.h"
#include "peaks.h"

#define SPS_SIFT_FLOOD_LINES	20	/* flood warnings given one by one */

/* Cuts, each off at 0. */
struct sps_cuts {
	uint64_t min_members;	/* keep members >= this */
	int	 max_width;	/* keep best width <= this (samples) */
	double	 min_dm;	/* keep best DM >= this (pc cm^-3) */
};
enum sps_cut { SPS_CUT_NONE, SPS_CUT_MEMBERS, SPS_CUT_WIDTH, SPS_CUT_DM };

struct sps_sift_opts {
	struct sps_peaks_opts peaks;	/* its max_width and window are set
					   from the stream */
	double		 window_s;	/* lateness allowed, s; 0: automatic */
	struct sps_cuts	 cuts;
	double		 max_rate;	/* flood: candidates per s, 0: off */
	double		 flood_length;	/* s */
};

struct sps_sift {
	struct sps_peaks *peaks;
	double		 threshold;	/* the clustering's */
	struct sps_cuts	 cuts;
	uint64_t	 cut[4];	/* candidates cut, by enum sps_cut */
	struct sps_flood flood;
	uint64_t	 warned;	/* flooded windows warned of */
};

/* Which cut drops c, or SPS_CUT_NONE to keep it. */
enum sps_cut sps_cuts_apply(const struct sps_cuts *k, const struct sps_cand *c);

/* The clustering's defaults, no cuts, no flood flags (windows of 1 s
 * when a rate is given). */
void sps_sift_defaults(struct sps_sift_opts *o);

/* Sift the event stream m describes as o says: the clustering allows for
 * its widest boxcar, and its window is o->window_s in the stream's
 * samples.  SPS_EUSAGE for bad parameters. */
enum sps_err sps_sift_init(struct sps_sift *s, const struct sps_sift_opts *o,
    const struct sps_events_meta *m);
void sps_sift_free(struct sps_sift *s);

/* Add one event (sps_peaks_add) and pass on what it finishes. */
enum sps_err sps_sift_add(struct sps_sift *s, const struct sps_event *e);
/* No more events: every cluster is finished and passed on; then, once
 * sps_sift_next has handed those out, sps_sift_end ends the last flood
 * window so that its candidates come out too. */
enum sps_err sps_sift_finish(struct sps_sift *s);
void sps_sift_end(struct sps_sift *s);
/* The next candidate, its flood flag known: 1 if there was one. */
int sps_sift_next(struct sps_sift *s, struct sps_cand *c);

/* sps-peaks' warnings on f: a line for each flooded window that is over,
 * for the first SPS_SIFT_FLOOD_LINES of them; at the end, the floods in
 * all when there were more, and the events that came later than the
 * clustering's window allowed. */
void sps_sift_warn(struct sps_sift *s, FILE *f);
void sps_sift_warn_end(const struct sps_sift *s, FILE *f);

/* sps-peaks' report on f: the events, those kept, the candidates, the
 * cuts, the candidates written (by the caller), those flagged and the
 * most events held. */
void sps_sift_report(const struct sps_sift *s, FILE *f, uint64_t written);

#endif

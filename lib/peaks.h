/* peaks.h: from events to candidates.
 *
 * Events (events.h) above a threshold are joined by friends-of-friends
 * clustering, as in Heimdall, into candidates: two events are friends when
 * all three hold:
 *
 *	|dm_index1 - dm_index2|           <= sep_dm            (trials)
 *	|log2(width1) - log2(width2)|     <= sep_filter        (factors of 2)
 *	|centre1 - centre2|               <= sep_time * max(width1, width2)
 *
 * where centre = sample + width / 2 (samples), and a candidate is a
 * connected component of the friendship graph (union-find: the result does
 * not depend on the order of the events, unlike Heimdall's one-pass
 * labelling).
 *
 * Memory: an event is held until no later event can be its friend.  The
 * stream is in time order by block but not inside one (events.h), so later
 * events may start up to a "window" before the latest start seen; the
 * window is the caller's, or by default twice the largest such lateness
 * seen and at least SPS_PEAKS_MIN_WINDOW samples.  A cluster is finished
 * when its latest centre is more than the window plus sep_time times the
 * widest width before the latest start seen.  An event that arrives later
 * than the window allowed is counted in `late' (its cluster may then be
 * split in two, and come out of time order).
 *
 * Finished candidates come out of sps_peaks_next() sorted by the sample of
 * their best member (then DM index, then width). */
#ifndef SPS_PEAKS_H
#define SPS_PEAKS_H

#include <stdint.h>

#include "error.h"
#include "events.h"

#define SPS_PEAKS_SEP_TIME	3	/* Heimdall's -cand_sep_time */
#define SPS_PEAKS_SEP_FILTER	3	/* Heimdall's -cand_sep_filter */
#define SPS_PEAKS_SEP_DM	20	/* trials; Heimdall's is 200 */
#define SPS_PEAKS_MIN_WINDOW	262144	/* samples */

struct sps_peaks_opts {
	double	 threshold;	/* S/N; events below it are left out */
	double	 sep_time;	/* time linking length, in widths */
	double	 sep_filter;	/* width linking length, in log2 steps */
	int	 sep_dm;	/* DM linking length, in trials */
	int	 cluster;	/* 0: every event is a candidate of its own */
	int64_t	 window;	/* samples of lateness allowed, 0: automatic */
	int	 max_width;	/* widest boxcar expected (samples), or 0 */
};

struct sps_cand {
	struct sps_event best;		/* the member of highest S/N */
	uint64_t	 members;	/* events in the cluster */
	uint64_t	 first_sample;	/* first sample of any member's boxcar */
	uint64_t	 last_sample;	/* last sample of any member's boxcar */
	int		 dm_index_min, dm_index_max;
	double		 dm_min, dm_max;	/* pc cm^-3 */
	int		 flood;		/* 1: in a window over the rate limit */
	int64_t		 flood_window;	/* that window's number */
};

struct sps_peaks;

void sps_peaks_defaults(struct sps_peaks_opts *o);
enum sps_err sps_peaks_create(struct sps_peaks **p,
    const struct sps_peaks_opts *o);
void sps_peaks_free(struct sps_peaks *p);

/* Add one event (in stream order).  SPS_EVALUE for a NaN S/N or DM. */
enum sps_err sps_peaks_add(struct sps_peaks *p, const struct sps_event *e);
/* No more events: every cluster is finished. */
enum sps_err sps_peaks_finish(struct sps_peaks *p);
/* Take the next finished candidate: 1 if there was one, else 0. */
int sps_peaks_next(struct sps_peaks *p, struct sps_cand *c);

struct sps_peaks_stats {
	uint64_t events;	/* events given */
	uint64_t kept;		/* at or above the threshold */
	uint64_t late;		/* arrived later than the window allowed */
	uint64_t candidates;	/* candidates made */
	uint64_t held_max;	/* most events held at once */
	int64_t	 window;	/* the window used last, samples */
};
void sps_peaks_stats(const struct sps_peaks *p, struct sps_peaks_stats *s);

/* The boxcar centre in Heimdall's and PRESTO's sense: the sample at the
 * middle of the boxcar, the later of the two middle samples for an even
 * width: sample + width / 2 (integer division). */
uint64_t sps_cand_centre(const struct sps_event *e);
/* Heimdall's filter index: log2 of the width rounded to the nearest
 * integer (a width of 3 is filter 2, 5 is 2, 6 is 3). */
int sps_cand_filter(int width);

#endif

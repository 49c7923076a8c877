/* flood.h: flood flags.  The data are cut into windows of `length'
 * seconds from sample 0; a window with more than max_rate * length
 * candidates is a flood (most likely RFI), and every candidate in it is
 * flagged.  Candidates go in and come out in time order; one is held only
 * until its window is known to be a flood or is over, so at most
 * max_rate * length + 1 are held. */
#ifndef SPS_FLOOD_H
#define SPS_FLOOD_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "peaks.h"

struct sps_flood_window {
	int64_t	 number;	/* window number: start = number * length */
	double	 start;		/* s from the first sample */
	double	 length;	/* s */
	uint64_t count;		/* candidates in it */
};

struct sps_flood {
	double		 max_rate;	/* per second, 0 = off */
	double		 length;	/* s */
	double		 tsamp;		/* s */
	uint64_t	 limit;		/* most candidates in a quiet window */
	int64_t		 current;	/* window being filled, -1 at first */
	uint64_t	 count;
	int		 flooded;	/* the current window is a flood */
	struct sps_cand	*buf;
	size_t		 n, cap, pos, ready;
	struct sps_flood_window *done;	/* flooded windows that are over */
	size_t		 ndone, capdone, posdone;
	uint64_t	 windows;	/* flooded windows so far */
	uint64_t	 flagged;	/* candidates flagged so far */
};

enum sps_err sps_flood_init(struct sps_flood *f, double max_rate,
    double length, double tsamp);
void sps_flood_free(struct sps_flood *f);
enum sps_err sps_flood_add(struct sps_flood *f, const struct sps_cand *c);
void sps_flood_finish(struct sps_flood *f);
/* The next candidate whose flag is known: 1 if there was one. */
int sps_flood_next(struct sps_flood *f, struct sps_cand *c);
/* The next flooded window that is over, with its final count: 1 if any. */
int sps_flood_report(struct sps_flood *f, struct sps_flood_window *w);

#endif

/* candview_plan.h: the candidate view plan's insides, shared by the pass
 * of reads (candview.c) and the arrays of one window (candview_make.c).
 * Not for tools. */
#ifndef SPS_CANDVIEW_PLAN_H
#define SPS_CANDVIEW_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "candview.h"
#include "clean.h"
#include "header.h"

/* The plans' scrunch factor for a decimation d: the largest power of 2
 * that divides it, so that a bin is a whole number of scrunched
 * samples. */
#define SPS_CANDVIEW_SCRUNCH(d)	((d) & -(d))

struct sps_candview_plan {
	struct sps_header	 h;
	uint64_t		 nsamples;
	struct sps_candview_opts o;
	int			 nchans, nsub;
	unsigned char		*kill;		/* nchans, 0 when none */
	double			 ftop, fbottom;	/* MHz, channel centres */
	int			*sub_first;	/* nsub + 1 channel numbers */
	double			*sub_freq;	/* MHz, centre of each */
	struct sps_clean	*clean;		/* NULL: no cleaning */
	/* spectra held from the file: [held_first, + held) */
	float			*held_buf;
	size_t			 held, capacity;
	int64_t			 held_first;
	/* one window: its spectra (masked channels zeroed), its masks
	 * and its arrays */
	float			*win;
	unsigned char		*masked;
	unsigned char		*sub_kill;	/* nchans, for one sub-band */
	float			*dd;		/* one plan's output */
	size_t			 dd_cap;
	float			*freq_time, *profile, *dm_time, *snr_dm;
	float			*sub_used;
	double			*dms;
	struct sps_candview_stats stats;
};

/* candview_make.c: the arrays of candidate c from the window w held in
 * p->win (its spectra, masked channels zeroed, p->masked set), into
 * *v. */
enum sps_err sps_candview_make(struct sps_candview_plan *p,
    const struct sps_cand *c, const struct sps_candview_window *w,
    struct sps_candview *v);

#endif

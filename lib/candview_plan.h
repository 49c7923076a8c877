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

/* The time-averaging of a window before its dedispersion, for a
 * decimation d: the largest power of 2 that divides it (all of d when
 * it is one), so that a bin is a whole number of averaged samples. */
#define SPS_CANDVIEW_SCRUNCH(d)	((d) & -(d))

struct sps_candview_plan {
	struct sps_header	 h;
	uint64_t		 nsamples;
	struct sps_candview_opts o;
	int			 nchans, nsub;
	int			 nthreads;	/* o.nthreads, or all cores */
	unsigned char		*kill;		/* nchans, 0 when none */
	double			 ftop, fbottom;	/* MHz, channel centres */
	int			*sub_first;	/* nsub + 1 channel numbers */
	double			*sub_freq;	/* MHz, centre of each */
	struct sps_clean	*clean;		/* NULL: no cleaning */
	/* spectra held from the file: [held_first, + held), a ring of
	 * capacity spectra, held_first's at row head */
	float			*held_buf;
	size_t			 held, capacity, head;
	int64_t			 held_first;
	/* one window: its spectra when it is cleaned (NULL otherwise) */
	float			*win;
	/* the window averaged over SPS_CANDVIEW_SCRUNCH(decimate) spectra
	 * (masked channels zeroed), what the plans dedisperse; h at that
	 * time resolution (sharing h's tables) */
	float			*avg;
	size_t			 avg_n, avg_cap;	/* spectra */
	struct sps_header	 avg_h;
	/* its masks and arrays */
	unsigned char		*masked;
	unsigned char		*sub_kill;	/* nchans, for one sub-band */
	float			*dd;		/* one plan's output */
	size_t			 dd_cap;
	float			*freq_time, *profile, *dm_time, *snr_dm;
	float			*sub_used;
	double			*dms;
	struct sps_candview_stats stats;
};

/* candview_make.c: the arrays of candidate c from the window w averaged
 * in p->avg (w->count / SPS_CANDVIEW_SCRUNCH(w->decimate) spectra,
 * masked channels zeroed, p->masked set), into *v. */
enum sps_err sps_candview_make(struct sps_candview_plan *p,
    const struct sps_cand *c, const struct sps_candview_window *w,
    struct sps_candview *v);

#endif

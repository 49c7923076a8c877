/* dedisperse_plan.h: the dedispersion plan's insides, shared by the
 * direct (dedisperse.c), sub-band (subband.c) and tree (tree.c) paths.
 * Not for tools. */
#ifndef SPS_DEDISPERSE_PLAN_H
#define SPS_DEDISPERSE_PLAN_H

#include <stddef.h>

#include "error.h"
#include "header.h"

#define TILE_TIME	1024	/* output samples per tile */
#define TILE_TRIALS	16	/* trials per tile */

struct sps_tree;

struct sps_dedisp_plan {
	int	 algo;		/* enum sps_dedisp_algo */
	int	 nchans, nifs, nlive;
	int	*live;		/* channel numbers summed */
	double	*freq;		/* MHz of each live channel */
	double	 fref, tsamp;
	int	 ndms;
	double	*dms;
	int	*scrunch;
	int	 max_scrunch;
	int	 nlevels;	/* scrunch factors 1, 2, ..., max_scrunch */
	size_t	 max_delay;
	int	 nthreads;
	size_t	*offsets;	/* trial i's output offset for offsets_nout */
	size_t	 offsets_nout;
	float	*work;		/* channel-major levels, see level_offset() */
	/* sub-band algorithm (nsub > 0), Barsdell et al. 2012 §4 */
	int	 nsub;
	int	*sub_of;	/* sub-band of each live channel */
	double	*sub_top;	/* MHz, highest channel centre of each */
	double	*sub_bottom;	/* MHz, lowest channel centre of each */
	int	 ngroups;	/* runs of trials sharing a nominal DM */
	int	*group_start;	/* ngroups + 1 trial indices */
	double	*dm_nominal;
	size_t	*group_span;	/* step-2 delay span of each group, in its
				 * scrunched samples */
	double	 smear_bound;	/* s, Appendix B */
	float	*sub_work;	/* per-thread intermediate series */
	size_t	 sub_work_len;	/* floats per thread */
	size_t	 work_nin;	/* nin the work buffer was sized for */
	struct sps_tree *tree;	/* tree algorithms, Barsdell et al. §3.1 */
};

/* dedisperse_plan.c: what every path uses.  The delay of live channel
 * `live` in trial `trial`, in its scrunched samples (sps_dm_delay_samples);
 * where level k (the data scrunched by 2^k, channel-major: nlive rows of
 * nin >> k samples, one after another) starts in the work buffer. */
long sps_dedisp_shift(const struct sps_dedisp_plan *p, int trial, int live);
size_t sps_dedisp_level_offset(const struct sps_dedisp_plan *p, size_t nin,
    int k);

/* subband.c */
enum sps_err sps_subband_prepare(struct sps_dedisp_plan *p,
    const struct sps_header *h, int nsub, int group);
void sps_subband_free(struct sps_dedisp_plan *p);
size_t sps_subband_work_bytes(const struct sps_dedisp_plan *p, size_t nout);
enum sps_err sps_subband_reserve(struct sps_dedisp_plan *p, size_t nout);
enum sps_err sps_subband_execute(struct sps_dedisp_plan *p, size_t nin,
    size_t nout, float *out);
long sps_subband_shift(const struct sps_dedisp_plan *p, int trial, int live);

/* tree.c */
enum sps_err sps_tree_prepare(struct sps_dedisp_plan *p,
    const struct sps_header *h, int nsub);
void sps_tree_free(struct sps_dedisp_plan *p);
long sps_tree_shift(const struct sps_dedisp_plan *p, int trial, int live);
double sps_tree_a4(const struct sps_dedisp_plan *p);
size_t sps_tree_work_bytes(const struct sps_dedisp_plan *p, size_t nout);
size_t sps_tree_held_bytes(const struct sps_dedisp_plan *p);
enum sps_err sps_tree_reserve(struct sps_dedisp_plan *p, size_t nout);
enum sps_err sps_tree_execute(struct sps_dedisp_plan *p, size_t nin,
    size_t nout, float *out);

#endif

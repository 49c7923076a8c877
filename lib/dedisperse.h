/* dedisperse.h: direct incoherent dedispersion on the CPU (Barsdell et
 * al. 2012 eq. 3-5), tiled over trials, channels and time (Novotny et
 * al. §3), multi-threaded with OpenMP.  The GPU kernels must equal it.
 *
 * Trial i at DM dms[i] with time-scrunch factor f = scrunch[i] (a power of
 * 2) gives, for its scrunched sample j,
 *	out_i[j] = sum over live channels c of S_f[c][j + s(i, c)]
 * where S_f[c][j] = sum of the f input samples j*f .. j*f + f - 1 of
 * channel c (all IFs summed), and s(i, c) = sps_dm_delay_samples(dms[i],
 * f_c, f_ref, tsamp * f): the delay of channel c behind the highest
 * channel f_ref, rounded to nearest.  Sums are float32: exact for integer
 * input while nchans * nifs * f * (2^nbits - 1) < 2^24 (8-bit data up to
 * 65793 channels unscrunched; 16-bit up to 256).  Killed channels are
 * left out of the sum, which equals weighting them by 0. */
#ifndef SPS_DEDISPERSE_H
#define SPS_DEDISPERSE_H

#include <stddef.h>

#include "error.h"
#include "header.h"

struct sps_dedisp_plan;

enum sps_dedisp_algo {
	SPS_ALGO_DIRECT,	/* eq. 3-5 */
	SPS_ALGO_SUBBAND,	/* two direct passes, §4 */
	SPS_ALGO_TREE_LINEAR,	/* piecewise-linear tree, §3.1.1 */
	SPS_ALGO_TREE_PADDED	/* frequency-padded tree, §3.1.2 */
};

/* The algorithm called name ("direct", "subband", "tree-linear",
 * "tree-padded"), and an algorithm's name.  SPS_EUSAGE naming the
 * choices for another name. */
enum sps_err sps_dedisp_algo_named(const char *name, int *algo);
const char *sps_dedisp_algo_name(int algo);

struct sps_dedisp_opts {
	int	nthreads;	/* 0: all cores */
	int	nsub;		/* sub-bands (sub-band and tree-linear); 0:
				 * nchans / W, with sub-bands of W =
				 * 2^ceil(log2(sqrt(nchans))) channels */
	int	group;		/* trials per nominal DM (sub-band); 0:
				 * nchans / nsub (Barsdell §4.2) */
	int	algo;		/* enum sps_dedisp_algo */
};

/* Make a plan for data described by h.  kill, if not NULL, holds nchans
 * flags: non-zero = leave the channel out.  opts NULL: direct, all cores.
 *
 * Sub-band (Barsdell §4): channels are split into nsub bands; trials are
 * taken in runs of `group` that share one scrunch factor and a nominal DM
 * (the middle of the run's range).  Step 1 sums each band's channels at
 * the nominal DM relative to the band's top channel; step 2 sums the
 * bands at each trial's DM.  Intermediate sums are float32. */
enum sps_err sps_dedisp_create(struct sps_dedisp_plan **plan,
    const struct sps_header *h, const double *dms, const int *scrunch,
    int ndms, const unsigned char *kill, const struct sps_dedisp_opts *opts);

/* Smearing bound in seconds.  Sub-band: Appendix B, eq. B1, with the
 * nominal DM centred in its run, plus one scrunched sample for the second
 * rounding.  Tree: the largest spread, over trials, of x(i, c) - e(i, c)
 * across live channels, where x is the exact delay (unrounded, in
 * scrunched samples) and e sps_dedisp_effective_shift; the direct
 * algorithm's own rounding is part of it.  0 for the direct algorithm. */
double sps_dedisp_smear_bound(const struct sps_dedisp_plan *plan);

/* The smearing of the plan's algorithm as a sentence for a summary
 * ("sub-band smearing bound 2.56 ms (Barsdell et al. 2012, eq. B1)") in
 * buf, or NULL for the direct algorithm, which has none of its own. */
const char *sps_dedisp_smear_note(const struct sps_dedisp_plan *plan,
    char *buf, size_t len);

/* Appendix A, eq. A4: the error of the piecewise-linear tree's straight
 * lines alone, in seconds at the largest DM of the plan, without the
 * rounding of delays that sps_dedisp_smear_bound includes (0 for the
 * other algorithms). */
double sps_dedisp_tree_linear_error(const struct sps_dedisp_plan *plan);

enum sps_dedisp_algo sps_dedisp_algo(const struct sps_dedisp_plan *plan);

/* The whole delay, in scrunched samples of trial i, at which the plan
 * sums live channel c (index into the live channels, in channel order):
 * for every algorithm, trial i's output is exactly
 *	out_i[j] = sum over live c of S_f[c][j + e(i, c)]
 * (up to the order of the float additions).  Direct: s(i, c). */
long sps_dedisp_effective_shift(const struct sps_dedisp_plan *plan,
    int trial, int live);
void sps_dedisp_free(struct sps_dedisp_plan *plan);

/* Input samples (base resolution) needed beyond the output span: the
 * largest s(i, c) * f over trials and channels. */
size_t sps_dedisp_max_delay(const struct sps_dedisp_plan *plan);

/* The direct algorithm's s(i, c) of every trial i and live channel c,
 * row by row of trials (ndms x live channels, malloc'd, NULL when out
 * of memory): the table the GPU's direct kernels read. */
int *sps_dedisp_shift_table(const struct sps_dedisp_plan *plan);

/* The largest scrunch factor: block starts and lengths are multiples. */
int sps_dedisp_max_scrunch(const struct sps_dedisp_plan *plan);

/* Floats one block of nout base samples produces: sum of nout / f_i. */
size_t sps_dedisp_out_size(const struct sps_dedisp_plan *plan, size_t nout);

/* Offset of trial i's samples within such a block. */
size_t sps_dedisp_out_offset(const struct sps_dedisp_plan *plan, size_t nout,
    int trial);

/* Dedisperse one block.  in: nin time-major spectra (nifs * nchans floats
 * each), starting at a multiple of the largest scrunch factor, with
 * nin >= nout + max_delay.  out: trial-major, trial i's nout / f_i samples
 * at sps_dedisp_out_offset().  Allocates nothing after the first call
 * with the largest nin. */
enum sps_err sps_dedisp_execute(struct sps_dedisp_plan *plan, const float *in,
    size_t nin, size_t nout, float *out);

/* The integer tables of a sub-band plan, so that another engine (the
 * GPU) computes exactly the same sums.  Arrays are malloc'd; free them
 * with sps_subband_tables_free. */
struct sps_subband_tables {
	int	 nsub, ngroups, nlive, ndms;
	int	*group_start;	/* ngroups + 1 trial indices */
	int	*band_first;	/* nsub + 1 live-channel indices */
	int	*step1;		/* ngroups x nlive shifts, scrunched samples */
	int	*step2;		/* ndms x nsub shifts */
	size_t	*span;		/* ngroups: largest step-2 shift */
};
enum sps_err sps_subband_tables(const struct sps_dedisp_plan *plan,
    struct sps_subband_tables *t);
void sps_subband_tables_free(struct sps_subband_tables *t);

/* The tables of a tree plan, so that the GPU sums exactly what tree.c
 * sums, in the same order.  The band is cut into nsub sub-bands of
 * `width` slots (a power of 2; slot 0 the highest frequency of its
 * sub-band); each live channel lies in one slot, other slots are empty.
 * For trials of scrunch level k (factor 2^k) and a pass p of sub-band b:
 *	X[s](t) = S_k[slot_live[b * width + s]](t + p * s)	(0 if empty)
 * and the tree of log2(width) steps, with rows R_0 = X and, at step l,
 * blocks of 2^(l+1) slots made from the halves H_top, H_bot:
 *	R_{l+1}[B, d](t) = R_l[2B, d >> 1](t) + R_l[2B + 1, d >> 1](t +
 *	    ((d + 1) >> 1))		for d in 0 .. 2^(l+1) - 1
 * (top first, then bottom, as one float addition) gives T_{b,p}[d'].
 * Trial i then sums, from 0.0f, in order b = 0 .. nsub - 1:
 *	out_i[j] += T_{b, pass[i][b]}[tdm[i][b]](j + offset[i][b]).
 * pass_lo/pass_hi[k][b]: the passes computed for level k (none when
 * pass_lo > pass_hi).  Arrays are malloc'd; free with
 * sps_tree_tables_free. */
struct sps_tree_tables {
	int	 nsub, width, nlevels, ndms, nlive;
	int	*slot_live;	/* nsub * width, -1: empty */
	int	*pass_lo;	/* nlevels * nsub */
	int	*pass_hi;	/* nlevels * nsub */
	int	*pass;		/* ndms * nsub */
	int	*tdm;		/* ndms * nsub, 0 .. width - 1 */
	int	*offset;	/* ndms * nsub, >= 0 */
};
enum sps_err sps_tree_tables(const struct sps_dedisp_plan *plan,
    struct sps_tree_tables *t);
void sps_tree_tables_free(struct sps_tree_tables *t);

/* Bytes of working memory sps_dedisp_reserve(plan, nin, nout) holds, and
 * sps_dedisp_execute for the time of a block: the block's channel-major
 * rows at every scrunch level and, for the direct algorithm, each
 * thread's table of shifts; for the sub-band algorithm each thread's
 * sub-band series; for a tree its rows, scratch and tasks. */
size_t sps_dedisp_work_bytes(const struct sps_dedisp_plan *plan, size_t nin,
    size_t nout);

/* Allocate the working memory for blocks of nin spectra and nout output
 * samples now, so that a run fails before reading data if it cannot have
 * it.  SPS_ENOMEM naming the figure. */
enum sps_err sps_dedisp_reserve(struct sps_dedisp_plan *plan, size_t nin,
    size_t nout);

/* Bytes held by the plan after sps_dedisp_reserve. */
size_t sps_dedisp_held_bytes(const struct sps_dedisp_plan *plan);

#endif

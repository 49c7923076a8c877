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

struct sps_dedisp_opts {
	int	nthreads;	/* 0: all cores */
	int	nsub;		/* sub-bands; 0: the direct algorithm */
	int	group;		/* trials per nominal DM; 0: nchans / nsub
				 * (Barsdell §4.2: N'_DM = N'_nu) */
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

/* Sub-band smearing bound in seconds (Appendix B, eq. B1, with the
 * nominal DM centred in its run, plus one scrunched sample for the second
 * rounding); 0 for the direct algorithm. */
double sps_dedisp_smear_bound(const struct sps_dedisp_plan *plan);
void sps_dedisp_free(struct sps_dedisp_plan *plan);

/* Input samples (base resolution) needed beyond the output span: the
 * largest s(i, c) * f over trials and channels. */
size_t sps_dedisp_max_delay(const struct sps_dedisp_plan *plan);

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

/* Bytes of working memory a block of nin spectra needs (direct path). */
size_t sps_dedisp_work_bytes(const struct sps_dedisp_plan *plan, size_t nin);

/* Allocate the working memory for blocks of nin spectra and nout output
 * samples now, so that a run fails before reading data if it cannot have
 * it.  SPS_ENOMEM naming the figure. */
enum sps_err sps_dedisp_reserve(struct sps_dedisp_plan *plan, size_t nin,
    size_t nout);

/* Bytes held by the plan after sps_dedisp_reserve. */
size_t sps_dedisp_held_bytes(const struct sps_dedisp_plan *plan);

#endif

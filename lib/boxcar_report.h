/* boxcar_report.h: what a boxcar plan (boxcar.h) costs: its predicted
 * signal loss, as a table, and its speed on white noise, the search alone
 * and with the noise model and events (noise.h) as a search of data runs
 * them, over many trials in parallel, once the search is checked against
 * the reference (boxcar_check.h). */
#ifndef SPS_BOXCAR_REPORT_H
#define SPS_BOXCAR_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "boxcar.h"
#include "boxcar_check.h"
#include "error.h"

#define SPS_BENCH_SAMPLES	(1 << 20)	/* per trial */
#define SPS_BENCH_WINDOW	(1 << 15)	/* samples searched at once */

/* The loss table: for pulse widths S of every sample up to 32, then 16
 * per octave, and the widest, the systematic and worst-case losses
 * (Adamek & Armour 2020, eqs. A2, A3, A9, A10) and their means over widths
 * 1..S (eq. 19), under a commented heading. */
void sps_boxcar_loss_table(FILE *f, const struct sps_boxcar_plan *p);

struct sps_boxcar_bench {
	int	nthreads, ntrials;	/* ntrials: 2 per thread */
	size_t	samples;		/* per trial */
	size_t	checked;		/* starts checked */
	int	agrees;			/* 0: not timed; see mismatch */
	struct sps_boxcar_mismatch mismatch;	/* start: of the trial */
	double	search_rate;		/* samples/s, the search alone */
	double	total_rate;		/* samples/s, noise and search */
};

/* Check plan p's search of the first and last windows of the benchmark's
 * series, with and without widths, against the reference; if it agrees,
 * time it on nthreads threads (0: OpenMP's default), each figure over
 * repeats of at least a second; outlier is the noise model's rejection. */
enum sps_err sps_boxcar_bench_run(const struct sps_boxcar_plan *p,
    double outlier, int nthreads, struct sps_boxcar_bench *b);

/* The bench's figures on f; 0, and the first disagreement instead of
 * the rates, if the search did not agree with its reference. */
int sps_boxcar_bench_print(FILE *f, const struct sps_boxcar_plan *p,
    const struct sps_boxcar_bench *b);

#endif

/* noise.h: the noise of a DM trial, measured so that boxcar sums become
 * S/N (Adamek & Armour 2020, section 4.6.2).
 *
 * A trial is cut into windows of a fixed number of samples.  In each
 * window the mean is estimated by iterative outlier rejection (values more
 * than `outlier` standard deviations from the mean are dropped and the
 * statistics recomputed until the values kept no longer change: the same
 * count and mean), with moments merged
 * as Chan, Golub & LeVeque (1983) do.  The baseline is the straight line
 * through the means at the window centres (continued before the first
 * centre and after the last), and is subtracted.  The standard deviation
 * sigma_1 of the result is measured the same way in each window, and
 * divided by the factor by which such clipping shrinks the standard
 * deviation of Gaussian noise.
 *
 * For boxcar sums of width w the standard deviation is sigma_w = sigma_1
 * sqrt(w) r(w).  r = 1 for white noise (the white-noise approximation, on
 * request).  Otherwise r is measured at w = 2^k on the series decimated k
 * times (sums of 2^k samples, each divided by its window's sigma_1), over
 * the last 512 such sums, with the same rejection; r(w) between powers of
 * two is interpolated linearly in log2 w; a power of two with fewer than
 * 32 sums so far takes r of the power below.
 *
 * Samples that are not finite are left out of every statistic and set to
 * the baseline.  A window whose sigma_1 is zero or not finite (all zeros,
 * a constant, all NaN) is marked skipped.  A window of fewer than 256
 * samples takes sigma_1 of the window before it, when there is one. */
#ifndef SPS_NOISE_H
#define SPS_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "noise_clip.h"

struct sps_noise_opts {
	size_t	window;		/* samples per window */
	double	outlier;	/* rejection threshold, standard deviations */
	int	white;		/* sigma_w = sigma_1 sqrt(w) */
	int	max_width;	/* widest boxcar, samples */
};

struct sps_noise_window {
	uint64_t	 start;		/* first sample */
	size_t		 n;
	const float	*x;		/* the series minus its baseline */
	const float	*scale;		/* 1 / sigma_w, w = 0..max_width;
					 * NULL when skipped */
	double		 mean;		/* baseline at the window centre */
	double		 sigma;		/* sigma_1 */
	size_t		 nbad;		/* samples not finite */
};

struct sps_noise;

enum sps_err sps_noise_create(struct sps_noise **nz,
    const struct sps_noise_opts *o);
void sps_noise_free(struct sps_noise *nz);

/* Scratch for making windows (one per thread, shared by the models it
 * serves): the window being made, the decimated sums, the scale table
 * and the tables of widths.
 * Reserve it for the largest window and widest boxcar of those
 * models. */
struct sps_noise_work;
enum sps_err sps_noise_work_create(struct sps_noise_work **w,
    const struct sps_noise_opts *o);
enum sps_err sps_noise_work_reserve(struct sps_noise_work *w,
    const struct sps_noise_opts *o);
void sps_noise_work_free(struct sps_noise_work *w);

/* Bytes a noise model of o uses at most when fed push samples at a time,
 * total samples in all (0: unknown, many windows): the samples not yet in
 * a window (two windows, and a push more unless fed no more than
 * sps_noise_room at a time; held in 16 bits where exact, samplestore.h:
 * packed, all of them, else none), the ratios and the rings of
 * decimated sums; and a scratch reserved for o alone. */
size_t sps_noise_bytes(const struct sps_noise_opts *o, size_t push,
    size_t total, int packed);
size_t sps_noise_work_bytes(const struct sps_noise_opts *o);

/* Append samples of the trial. */
enum sps_err sps_noise_push(struct sps_noise *nz, const float *x, size_t n);

/* Samples to push before the next window must be taken, for a model
 * that holds no more than two windows. */
size_t sps_noise_room(const struct sps_noise *nz);

/* The end of the trial: what is left comes out of sps_noise_next. */
void sps_noise_finish(struct sps_noise *nz);

/* The next window whose baseline is known (the window after it is
 * complete, or the end was given): 1 and *w (its samples and scale live
 * in the scratch wk, until wk's next use), or 0 when none is ready. */
int sps_noise_next(struct sps_noise *nz, struct sps_noise_work *wk,
    struct sps_noise_window *w);

/* After sps_noise_next gave a window with a scale: the first n samples
 * after it (all there are, if fewer) as the next window will give them,
 * minus the baseline and 0 where not finite, into x; returns how many.
 * n is at most sps_noise_ahead_max(o) (half a window, where the line is
 * known; 0 for windows too short). */
size_t sps_noise_ahead(const struct sps_noise *nz, float *x, size_t n);
size_t sps_noise_ahead_max(const struct sps_noise_opts *o);

/* sigma_w / (sigma_1 sqrt w) as used for the last window (r above). */
double sps_noise_ratio(const struct sps_noise *nz, int w);

#endif

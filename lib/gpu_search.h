/* gpu_search.h: the search of DM-time data on an NVIDIA GPU
 * (kernels/search.cu): the noise model of noise.h and the boxcar
 * searches of boxcar.h, window by window, on DM-time blocks that arrive
 * in host or device memory; only the boxcars at or above the threshold
 * come back.
 *
 * Each trial keeps a ring of lag + 3 noise windows on the device.  A
 * window's clipped mean is measured when it is complete; it is
 * normalised (baseline, sigma_1, the red-noise ratios of noise.h) when
 * the window after it is complete, and searched when the lag windows
 * after it are normalised.  The arithmetic follows noise.c and the
 * reference search of boxcar.c (double-precision prefix sums, every
 * width of sps_boxcar_widths_at, the narrowest on a tie), so a start
 * gets the S/N and width that the CPU engine reports for it, up to the
 * order of float sums in the clipped statistics (about 1e-6 relative).
 * What to make of the boxcars found (events, their overlaps) stays with
 * the host's boxcar stream.
 *
 * A build without CUDA links stubs that answer "built without CUDA". */
#ifndef SPS_GPU_SEARCH_H
#define SPS_GPU_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "boxcar.h"
#include "error.h"

struct sps_gpu_search_opts {
	int		 device;
	size_t		 window;	/* base samples, a multiple of every
					 * scrunch factor times its plan's
					 * largest separation */
	int		 lag;		/* windows a boxcar reads into */
	double		 threshold;
	double		 outlier;	/* rejection, standard deviations */
	int		 white;		/* white-noise sigma_w */
};

/* A boxcar at or above the threshold: the best of its start's widths. */
struct sps_gpu_found {
	int		 trial;
	int32_t		 width;		/* trial samples */
	float		 snr;
	uint64_t	 start;		/* trial sample */
};

struct sps_gpu_search;

/* Loads the search's kernels on device dev in the background (some
 * 20 ms), while the caller sets up other work; sps_gpu_search_create
 * waits for it.  Nothing in a build without CUDA. */
void sps_gpu_search_preload(int dev);

/* ntrials trials with scrunch factors f[] searched with plans[] (the
 * plan of each trial's scrunch factor).  SPS_EVALUE when the widest
 * boxcar does not fit the device's shared memory; "CUDA ..." errors
 * (SPS_EIO) for no device or no memory. */
enum sps_err sps_gpu_search_create(struct sps_gpu_search **g,
    const struct sps_gpu_search_opts *o, int ntrials, const int *f,
    const struct sps_boxcar_plan *const *plans);
void sps_gpu_search_free(struct sps_gpu_search *g);

/* The next n base samples, trial after trial as sps_search_feed's block,
 * in host memory or (on_device) device memory of the same device; the
 * block may be reused when this returns. */
enum sps_err sps_gpu_search_feed(struct sps_gpu_search *g,
    const float *block, size_t n, int on_device);

/* The same with an 8- or 16-bit DM-time stream's block as read (dmtime.h,
 * whose header gives nbits, scale and offset), unpacked on the device
 * as dmtime.c's CPU unpacks it, to the same floats. */
enum sps_err sps_gpu_search_feed_packed(struct sps_gpu_search *g,
    const unsigned char *raw, size_t n, int nbits, double scale,
    double offset);

/* Device bytes, predicted in any build, that a search of these
 * arguments holds, with stage_floats floats of a block from the host
 * (0 when blocks come in device memory); the boxcars found past the
 * first room for 2^20 are not counted. */
double sps_gpu_search_bytes(const struct sps_gpu_search_opts *o,
    int ntrials, const int *f, const struct sps_boxcar_plan *const *plans,
    size_t stage_floats);
/* The host's bytes of such a search: the trials' layout. */
double sps_gpu_search_host_bytes(int ntrials);

/* No more data: normalise and search the rest. */
enum sps_err sps_gpu_search_finish(struct sps_gpu_search *g);

/* The boxcars found since the last call, by trial and then start, one
 * per start; valid until the next call of feed, finish or this. */
const struct sps_gpu_found *sps_gpu_search_found(struct sps_gpu_search *g,
    size_t *n);

/* Base samples searched in every trial (all of them after finish). */
uint64_t sps_gpu_search_searched(const struct sps_gpu_search *g);

/* Per trial: noise windows, those skipped (no usable sigma), samples
 * not finite. */
enum sps_err sps_gpu_search_counts(struct sps_gpu_search *g,
    unsigned long long *windows, unsigned long long *skipped,
    unsigned long long *nbad);

struct sps_gpu_search_info {
	double	 kernels;	/* s, noise and search kernels */
	size_t	 memory;	/* device bytes held */
	int	 tile;		/* starts per thread block */
};
void sps_gpu_search_info(const struct sps_gpu_search *g,
    struct sps_gpu_search_info *info);

#ifdef __cplusplus
}
#endif

#endif

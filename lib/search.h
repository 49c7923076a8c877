/* search.h: the single-pulse search of DM-time data (Adamek & Armour
 * 2020): per-trial noise models (noise.h) and streaming boxcar searches
 * (boxcar.h) over every DM trial, giving events above a threshold and,
 * on request, the S/N plane.
 *
 * Plan and execute, as dedisp's API: create an engine from the header of
 * the data (a DM-time stream, dmtime.h, or one time series) and the
 * search options, feed it blocks in time order, finish, free.  Every
 * trial is cut into noise windows of the same span in base samples (a
 * multiple of every scrunch factor times its boxcar plan's largest
 * separation), so that windows start together in every trial and every
 * boxcar lattice runs on unbroken from the first sample; a window is
 * searched once the windows its boxcars read into are in.  Trials are
 * searched in parallel (OpenMP).  Events and plane blocks wait in the
 * engine until taken. */
#ifndef SPS_SEARCH_H
#define SPS_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "boxcar.h"
#include "error.h"
#include "events.h"
#include "header.h"

#define SPS_SEARCH_BASELINE	2.0	/* s, shortest default noise window
					 * (as Heimdall's) */
#define SPS_SEARCH_WIDTH	4096	/* default widest boxcar, base
					 * samples (as Heimdall's) */
#define SPS_SEARCH_OUTLIER	3	/* default rejection, standard
					 * deviations */
#define SPS_SEARCH_THRESHOLD	6	/* default S/N of events and
					 * candidates in every tool (as
					 * Heimdall's) */

struct sps_search_opts {
	const char	*algorithm;	/* boxcar.h's names */
	int		 max_width;	/* widest boxcar, base samples */
	double		 threshold;	/* S/N of an event */
	double		 baseline;	/* s, noise window; 0: the larger
					 * of SPS_SEARCH_BASELINE and 8
					 * widest boxcars */
	double		 outlier;	/* rejection, standard deviations */
	int		 white;		/* white-noise sigma_w (noise.h) */
	int		 want_plane;	/* keep the S/N plane */
	int		 nthreads;	/* 0: OpenMP's default */
	int		 gpu;		/* enum sps_engine_choice
					 * (dedisp_engine.h): on CUDA device
					 * `device` (gpu_search.h; not for
					 * the plane), the CPU (0), or the
					 * GPU if usable */
	int		 device;
	const char	*name;		/* the input, for messages */
};

struct sps_search;

/* An engine for data described by h: a DM-time stream (its DM table and
 * scrunch factors) or a time series (one trial at refdm).  SPS_EVALUE
 * for widths, windows or scrunch factors it cannot search. */
enum sps_err sps_search_create(struct sps_search **s,
    const struct sps_header *h, const struct sps_search_opts *o);
void sps_search_free(struct sps_search *s);

/* Unless o asks for the CPU: the GPU's search kernels loaded in the
 * background (sps_gpu_search_preload) while the caller sets up what
 * comes before sps_search_create. */
void sps_search_preload(const struct sps_search_opts *o);

/* The unscrunched boxcar plan (its name and widest boxcar), and the noise
 * window in base samples (the plane's block). */
const struct sps_boxcar_plan *sps_search_plan(const struct sps_search *s);
size_t sps_search_window(const struct sps_search *s);

/* Search the next n base samples: every trial's n / f_i samples, trial
 * after trial (one DM-time block).  n is a multiple of every scrunch
 * factor but in the last block. */
enum sps_err sps_search_feed(struct sps_search *s, const float *block,
    size_t n);

/* The same with the block in device memory (a GPU search only). */
enum sps_err sps_search_feed_device(struct sps_search *s, const float *block,
    size_t n);

/* The same with an 8- or 16-bit stream's block as read (dmtime.h's
 * sps_dmtime_read_packed; h the stream's header), unpacked on the GPU (a
 * GPU search only). */
enum sps_err sps_search_feed_packed(struct sps_search *s,
    const unsigned char *raw, size_t n, const struct sps_header *h);

/* No more data: search the rest. */
enum sps_err sps_search_finish(struct sps_search *s);

/* Whether any window has been searched yet (until then, windows whose
 * noise cannot be measured give nothing, and nothing is worth writing). */
int sps_search_started(const struct sps_search *s);

/* The events found and not yet taken, trial after trial and by sample
 * within a trial; valid until the next call of this or feed. */
const struct sps_event *sps_search_events(struct sps_search *s, size_t *n);

/* The next whole block of the plane (the last may be shorter after
 * finish): n base samples, every trial's S/N, then every trial's width
 * in base samples, *nvalues floats each laid out as a DM-time block;
 * *n = 0 when none is ready.  The block stays valid until the next
 * call. */
enum sps_err sps_search_plane_block(struct sps_search *s,
    const float **values, size_t *n, size_t *nvalues);

/* The plane's header: h with the DM table (a time series gets one trial
 * at refdm), sps_dmtime 2, 32 bits and the window as its block. */
enum sps_err sps_search_plane_header(const struct sps_search *s,
    const struct sps_header *h, struct sps_header *plane);

/* The event stream's header (events.h) for the search of data described
 * by h, of nsamples base samples (0: unknown). */
void sps_search_events_meta(const struct sps_search *s,
    const struct sps_header *h, uint64_t nsamples,
    struct sps_events_meta *m);

/* Whether the search runs on the GPU; its kernel seconds and device
 * memory (gpu_search.h), zero on the CPU. */
int sps_search_on_gpu(const struct sps_search *s);
void sps_search_gpu_info(const struct sps_search *s, double *kernels,
    size_t *memory);
/* Why a search that could have run on the GPU runs on the CPU, or
 * NULL. */
const char *sps_search_gpu_note(const struct sps_search *s);

/* The memory an engine holds, predicted without data or a device. */
struct sps_search_memory {
	size_t	 window;	/* base samples */
	int	 lag;		/* windows a boxcar reads into */
	double	 host, device;	/* bytes */
};

/* The memory of an engine sps_search_create would make for h and o
 * (o->gpu: SPS_ENGINE_GPU the GPU's, else the CPU's), fed blocks of
 * `block` base samples, nbase in all (0: unknown, many windows), in host
 * memory or (on_device) device memory: on
 * the CPU every trial's noise model (noise.h; packed: its samples held
 * in 16 bits, as whole numbers close together, the dedispersed sums of
 * integer samples, are) and boxcar stream and each thread's scratch
 * (boxcar.h); on the GPU its device memory (sps_gpu_search_bytes) and the
 * host's part.  The events held, and the S/N plane, are not counted. */
enum sps_err sps_search_memory(const struct sps_header *h,
    const struct sps_search_opts *o, size_t block, uint64_t nbase,
    int on_device, int packed, struct sps_search_memory *m);

struct sps_search_stats {
	unsigned long long	windows, skipped;	/* noise windows */
	unsigned long long	nbad;	/* samples not finite */
	unsigned long long	nevents;	/* taken so far */
	uint64_t		nbase;		/* base samples fed */
	uint64_t		samples;	/* trial samples fed */
	int			ntrials;
};
void sps_search_stats(const struct sps_search *s,
    struct sps_search_stats *st);

#endif

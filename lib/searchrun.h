/* searchrun.h: the whole search of one input in one process: the
 * dedispersion engine (dedisp_engine.h, CPU or GPU) hands its DM-time
 * blocks to the search engine (search.h), whose events go to the
 * clustering, cuts and flood flags of sps-peaks (sift.h), giving
 * candidates.
 *
 * It gives the candidates that the pipe of the single tools gives,
 *	sps-dedisperse | sps-boxcar | sps-peaks
 * with the same settings: the blocks are the same floats, and the events
 * and their header reach the sifting as sps-peaks reads them from the
 * text (events.h, sps_events_as_written).
 *
 * With the GPU (asked for, or usable when any engine will do), both
 * engines run on it and the DM-time blocks never leave the device: the
 * search takes them where dedispersion left them and only its boxcars
 * above the threshold come back.  Any engine: a GPU that cannot be used
 * gives way to the CPU for both, its reason kept for the summary. */
#ifndef SPS_SEARCHRUN_H
#define SPS_SEARCHRUN_H

#include <stdint.h>

#include "dedisp_engine.h"
#include "error.h"
#include "peaks.h"
#include "plan.h"
#include "reader.h"
#include "search.h"
#include "sift.h"

struct sps_searchrun_opts {
	/* called after each block, for progress reports (NULL: none) */
	void				(*on_block)(const struct sps_reader *r);
	struct sps_dedisp_engine_opts	dedisp;
	struct sps_search_opts		search;	/* name: set here */
	struct sps_sift_opts		sift;
	const char			*killfile;	/* NULL: none */
	const char			*ignorechan;	/* PRESTO's channel
							 * list, NULL: none */
};

struct sps_searchrun;

/* On the CPU the blocks of dedispersion go straight to the search, so
 * they are smaller than sps-dedisperse's: the engine holds half the
 * output and less of the input (the same overlap, the largest delay,
 * with half the block), while the search holds two noise windows a
 * trial anyway; the direct algorithm does the same work (the overlap is
 * only turned channel-major more often). */
#define SPS_SEARCHRUN_CPU_BLOCK	8192	/* output samples */

/* The block of the search's dedispersion for blocks of `block` asked
 * for, on a GPU (gpu) or the CPU. */
size_t sps_searchrun_block(size_t block, int gpu);

/* For the input of r (open, its header read) at the trials of plan,
 * leaving out the channels of o->killfile and o->ignorechan
 * (sps_killmask_make).  It sets the process's CUDA work queues
 * (sps_device_queues): to come before the process's first CUDA call. */
enum sps_err sps_searchrun_create(struct sps_searchrun **s,
    struct sps_reader *r, const struct sps_plan *plan,
    const struct sps_searchrun_opts *o);
void sps_searchrun_free(struct sps_searchrun *s);

/* The next candidate (in the order sps-peaks writes them): 1 and *c, or
 * 0 at the end. */
enum sps_err sps_searchrun_next(struct sps_searchrun *s, struct sps_cand *c,
    int *got);

/* The sampling time of the candidates' samples, s. */
double sps_searchrun_tsamp(const struct sps_searchrun *s);

struct sps_searchrun_info {
	struct sps_dedisp_engine_info	dedisp;
	struct sps_dedisp_engine_times	times;
	uint64_t			events;	/* so far */
	int				search_on_gpu;
	double				search_kernels;	/* s */
	size_t				search_memory;	/* GPU bytes */
	struct sps_search_stats		search;
	double				setup;	/* s, engines made */
	const char			*note;	/* why not on the GPU, or
						 * NULL */
	const char			*retry;	/* a GPU failure recovered
						 * from, and how, or NULL
						 * (the dedispersion's own:
						 * dedisp.note) */
	const struct sps_cleanstream	*cleaning;	/* the input's, NULL:
							 * not cleaned */
};
void sps_searchrun_info(const struct sps_searchrun *s,
    struct sps_searchrun_info *info);

#endif

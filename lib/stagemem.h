/* stagemem.h: the memory each stage of a search takes, predicted from
 * the observation and the plan before any data are read (sps-plan's
 * table): sps-dedisperse, sps-boxcar, sps-peaks and the fused
 * sps-search, on the CPU and on a GPU.  Each figure adds up what the
 * stage's engines say they will hold (sps_dedisp_engine_memory,
 * sps_search_memory, next to the code that allocates it),
 * SPS_PROCESS_BYTES for the program itself and, on the CPU, the threads'
 * stacks. */
#ifndef SPS_STAGEMEM_H
#define SPS_STAGEMEM_H

#include <stddef.h>
#include <stdint.h>

#include "cleanstream.h"
#include "dedisp_engine.h"
#include "error.h"
#include "header.h"
#include "plan.h"
#include "search.h"

/* A program of the suite before its data (code, libraries, the main
 * stack: 10.1 to 10.9 MiB measured for the stages with little data in a
 * CUDA build, 9.2 without), and a thread's stack as the stages use
 * it. */
#ifdef SPS_HAVE_CUDA
#define SPS_PROCESS_BYTES	(11.0 * 1048576)
#else
#define SPS_PROCESS_BYTES	(9.75 * 1048576)
#endif
#define SPS_THREAD_BYTES	(64.0 * 1024)

enum sps_stage {
	SPS_STAGE_DEDISPERSE, SPS_STAGE_BOXCAR, SPS_STAGE_PEAKS,
	SPS_STAGE_SEARCH, SPS_NSTAGES
};

struct sps_stage_memory {
	double	 cpu;		/* bytes of the host, on the CPU */
	double	 gpu_host;	/* bytes of the host, on a GPU */
	double	 gpu_device;	/* bytes of the GPU */
};

/* The settings of the stages: sps-search's defaults, from
 * sps_stagemem_defaults. */
struct sps_stagemem_opts {
	struct sps_dedisp_engine_opts	 dedisp;	/* block, algorithm,
							 * threads */
	struct sps_search_opts		 search;
	struct sps_clean_setup		 clean;		/* sps-search's
							 * cleaning */
};

struct sps_stagemem {
	struct sps_stage_memory	 stage[SPS_NSTAGES];
	size_t			 block;		/* samples per block */
	size_t			 gulp;		/* the GPU's */
	size_t			 max_delay;	/* samples of overlap */
	size_t			 window;	/* noise window, samples */
	int			 nthreads;
	int			 nbits_assumed;	/* bits per sample assumed
						 * where h had none, else 0 */
};

void sps_stagemem_defaults(struct sps_stagemem_opts *o);

/* The stages' memory for a search of the trials of p in data described
 * by h (a filterbank; without nbits, as a plan made from options has
 * none, 8-bit data, and one IF), nsamples spectra long
 * (SPS_NSAMPLES_UNKNOWN allowed).  Errors of the engines' plans
 * (SPS_EVALUE). */
enum sps_err sps_stagemem_predict(const struct sps_header *h,
    uint64_t nsamples, const struct sps_plan *p,
    const struct sps_stagemem_opts *o, struct sps_stagemem *m);

/* "sps-dedisperse", "sps-boxcar", "sps-peaks", "sps-search". */
const char *sps_stage_name(enum sps_stage s);

#endif

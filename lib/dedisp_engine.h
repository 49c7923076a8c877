/* dedisp_engine.h: dedispersion of a whole input, block after block, on
 * the CPU (dedisperse.h) or on a GPU (gpu.h), behind one interface.
 *
 * The engine reads the input itself (a reader of reader.h) and hands out
 * DM-time blocks of `block` base samples (the last may be shorter), each
 * laid out as one block of sps_dedisp_execute: trial after trial, trial
 * i's block / f_i samples.  Both engines give the same blocks; the GPU's
 * equal the CPU's bit for bit where gpu.h says so.
 *
 * Every trial is dedispersed to the end of the input: after the data
 * come max_delay spectra of padding, each channel's mean over the last
 * 1024 spectra (rounded when those are all integers), so that a pulse in
 * the last max_delay samples is searched too (PRESTO pads likewise).
 *
 * With opts.clean the input is cleaned on the way, before anything else
 * sees it (the padding too is made of cleaned spectra), so that the
 * blocks are those of sps-clean | sps-dedisperse with sps-clean's
 * settings opts.clean and the kill mask.
 *
 * The CPU engine reads block + max_delay spectra as floats, dedisperses
 * and keeps the last max_delay for the next block.  The GPU engine takes
 * the raw bytes of a gulp of many blocks into one of two page-locked
 * buffers and queues it on the device, so that reading gulp k + 1, the
 * device's work on gulp k and the caller's use of gulp k - 1's blocks
 * overlap; the gulp is the longest (a power of 2 times the block, and
 * at most 4 times the largest delay or 2^22) that the device's and the
 * host's memory allow.  The device's CUDA context starts while the CPU
 * plan is made.  Blocks may instead stay on the device, for a consumer in
 * the same process (sps_dedisp_engine_opts.on_device). */
#ifndef SPS_DEDISP_ENGINE_H
#define SPS_DEDISP_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "cleanstream.h"
#include "dedisperse.h"
#include "error.h"
#include "reader.h"

#define SPS_DEDISP_BLOCK	16384	/* default output samples a block */
#define SPS_DEDISP_SCRUNCH_MAX	(1 << 10)	/* largest factor that
						 * --scrunch gives */

enum sps_engine_choice {
	SPS_ENGINE_ANY = -1,	/* a GPU if one is usable, else the CPU */
	SPS_ENGINE_CPU = 0,
	SPS_ENGINE_GPU = 1	/* the GPU or an error, never the CPU */
};

struct sps_dedisp_engine_opts {
	struct sps_dedisp_opts	 plan;	/* algorithm, threads, sub-bands */
	int			 engine;	/* enum sps_engine_choice */
	int			 device;	/* CUDA device number */
	size_t			 block;		/* output samples per block;
						 * rounded up to a multiple
						 * of the largest scrunch */
	int			 fixed_gulp;	/* the GPU's gulp is one block */
	int			 on_device;	/* blocks stay on the GPU */
	const struct sps_clean_setup *clean;	/* the input cleaned as
						 * sps-clean would (NULL:
						 * not) */
	double			 device_share;	/* of the free GPU memory
						 * the plan may hold (0:
						 * 3/4) */
	int			 pack_bits;	/* 8 or 16: blocks may come
						 * packed so (its memory
						 * counted); 0: floats */
};

/* What the engine chose, for the caller's summary. */
struct sps_dedisp_engine_info {
	int	 on_gpu;
	int	 device;
	int	 ntrials;
	size_t	 block;		/* output samples per block */
	size_t	 gulp;		/* per dedispersion (GPU: many blocks) */
	size_t	 max_delay;	/* input samples of overlap */
	double	 host_mb;	/* CPU: input + work + output; GPU:
				 * page-locked buffers */
	double	 in_mb, work_mb, out_mb;	/* the CPU's parts */
	double	 device_mb;	/* GPU memory of the plan */
	const char *note;	/* a GPU failure the engine recovered
				 * from, and how; NULL: none */
};

/* Times of a run so far, seconds. */
struct sps_dedisp_engine_times {
	double	 kernels;	/* the GPU's dedispersion kernels */
	double	 reading;	/* the input, GPU engine */
	double	 waiting;	/* for the GPU */
};

struct sps_dedisp_engine;

/* An engine for the input of r (open, nothing read past its header),
 * with ntrials trials at dms and scrunch factors scrunch, leaving out the
 * channels flagged in kill (NULL: none).  Plans, chooses the engine,
 * and has all its memory before reading data.  SPS_EVALUE when the input
 * is too short for the plan's largest delay; "GPU N: ..." errors when
 * the GPU was asked for and cannot be used (with SPS_ENGINE_ANY a GPU
 * that cannot be used gives way to the CPU). */
enum sps_err sps_dedisp_engine_create(struct sps_dedisp_engine **e,
    struct sps_reader *r, const double *dms, const int *scrunch,
    int ntrials, const unsigned char *kill,
    const struct sps_dedisp_engine_opts *o);
void sps_dedisp_engine_free(struct sps_dedisp_engine *e);

void sps_dedisp_engine_info(const struct sps_dedisp_engine *e,
    struct sps_dedisp_engine_info *info);

/* The memory an engine holds, predicted without data or a device. */
struct sps_dedisp_memory {
	size_t	 block;		/* output samples per block */
	size_t	 gulp;		/* per dedispersion */
	size_t	 max_delay;	/* input samples of overlap */
	double	 host, device;	/* bytes */
};

/* The memory of an engine sps_dedisp_engine_create would make with
 * options o, for data described by h, nsamples spectra long
 * (SPS_NSAMPLES_UNKNOWN allowed), whose CPU plan (dedisperse.h) is cpu,
 * on the engine o->engine names (ANY: the CPU): the CPU's blocks,
 * working memory, padding and the reader's raw block; the GPU's
 * page-locked gulps and padding on the host, and its plan on the device
 * (sps_gpu_dedisp_bytes), for the longest gulp the engine aims for (the
 * device's free memory may make it shorter). */
void sps_dedisp_engine_memory(const struct sps_dedisp_plan *cpu,
    const struct sps_header *h, uint64_t nsamples,
    const struct sps_dedisp_engine_opts *o, struct sps_dedisp_memory *m);

/* The CPU plan behind either engine: the output's layout, delays and
 * smearing. */
const struct sps_dedisp_plan *sps_dedisp_engine_plan(
    const struct sps_dedisp_engine *e);

/* The next block: *nout base samples (0 at the end of the input) at
 * *out, on the host or, with on_device, in device memory; *out NULL
 * when it came packed (sps_dedisp_engine_packed).  The block stays valid
 * until the next call.  An input that ends before the first block is
 * complete gives SPS_EVALUE. */
/* Blocks of gulps dedispersed from now on come packed by the GPU into
 * an 8- or 16-bit DM-time stream's blocks (gpu.h's sps_gpu_dedisp_pack,
 * with the stream's scale and offset): 1 if so, 0 where the engine
 * cannot (the CPU's, or on_device); gulps already queued come as
 * floats. */
int sps_dedisp_engine_pack(struct sps_dedisp_engine *e, int nbits,
    double scale, double offset);

/* The block the last sps_dedisp_engine_next handed out, if packed:
 * *bytes of it, its 8 opening bytes first, ready to write, and the
 * values clipped in packing (a gulp's, given with its first block);
 * NULL when it came as floats. */
const unsigned char *sps_dedisp_engine_packed(
    const struct sps_dedisp_engine *e, size_t *bytes,
    unsigned long long *clipped);

enum sps_err sps_dedisp_engine_next(struct sps_dedisp_engine *e,
    const float **out, size_t *nout);

void sps_dedisp_engine_times(const struct sps_dedisp_engine *e,
    struct sps_dedisp_engine_times *t);

/* The cleaning of the input (its report), or NULL when not asked for. */
const struct sps_cleanstream *sps_dedisp_engine_cleaning(
    const struct sps_dedisp_engine *e);

/* Values the cleaning rounded into the input's nbits from outside its
 * range; seconds the GPU's cleaning held the reading (0 on the CPU). */
uint64_t sps_dedisp_engine_clean_quantised(
    const struct sps_dedisp_engine *e);
double sps_dedisp_engine_clean_seconds(const struct sps_dedisp_engine *e);

/* After the last block: the cleaning's report file finished. */
enum sps_err sps_dedisp_engine_finish(struct sps_dedisp_engine *e);

/* The GPU direct kernel's path, for the summary, or NULL. */
const char *sps_dedisp_engine_gpu_path(const struct sps_dedisp_engine *e);

#endif

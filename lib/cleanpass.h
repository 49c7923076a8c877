/* cleanpass.h: a whole input cleaned onto a writer, as sps-clean does it:
 * block after block on the CPU (cleanstream.h), or in runs of many
 * blocks through a GPU (gpu_clean.h), whose samples are the CPU's
 * (there said how far). */
#ifndef SPS_CLEANPASS_H
#define SPS_CLEANPASS_H

#include <stdint.h>

#include "cleanstream.h"
#include "error.h"
#include "reader.h"
#include "writer.h"

struct sps_clean_pass_opts {
	int	 engine;	/* enum sps_engine_choice (dedisp_engine.h) */
	int	 device;
	int	 out_nbits;	/* the writer's: the GPU writes the input's */
	/* called after each block or run, for progress (NULL: none) */
	void	(*on_progress)(const struct sps_reader *r, uint64_t done);
};

struct sps_clean_pass_info {
	int	 on_gpu;
	char	 note[256];	/* why not on the GPU ("" when it was or
				 * was not asked for) */
	uint64_t quantised;	/* values rounded into the output's range
				 * from outside it */
	double	 seconds;	/* the cleaning itself */
};

struct sps_clean_pass;

/* The cleaning of r (its header read) with cs, on the engine o asks
 * for, chosen and made before anything is written: with SPS_ENGINE_ANY a
 * GPU that cannot be used gives way to the CPU, its reason in the info's
 * note; with SPS_ENGINE_GPU that is an error. */
enum sps_err sps_clean_pass_open(struct sps_clean_pass **p,
    struct sps_reader *r, struct sps_cleanstream *cs,
    const struct sps_clean_pass_opts *o);

/* Clean every spectrum of r, written to w (its header written). */
enum sps_err sps_clean_pass_run(struct sps_clean_pass *p,
    struct sps_writer *w);

void sps_clean_pass_info(const struct sps_clean_pass *p,
    struct sps_clean_pass_info *info);
void sps_clean_pass_free(struct sps_clean_pass *p);

#endif

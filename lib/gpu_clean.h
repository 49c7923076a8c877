/* gpu_clean.h: sps-clean's cleaning on an NVIDIA GPU (kernels/clean.cu),
 * in place on raw spectra in device memory, before dedispersion reads
 * them there.
 *
 * The device makes the sums (each channel's sum and sum of squares in a
 * block, each spectrum's zero-DM sum over the channels kept, each
 * channel's sum over the spectra clipped: in double, so exact for
 * integer data) and changes the samples (the replacement, zero-DM or
 * zdot, the rounding to the input's nbits); the host makes the
 * decisions with the CPU's code from those sums (clean.h:
 * sps_clean_mask, sps_clean_clip, sps_clean_bandpass), and only sums,
 * masks and flags cross the bus.  For integer data without zero-DM the
 * samples are those of the CPU bit for bit; with --zerodm or --zdot, the
 * device's float sums in another order may differ from the CPU's in the
 * last bit, and a sample that lands within that of a rounding boundary
 * by one level.
 *
 * A build without CUDA links stubs that answer "built without CUDA". */
#ifndef SPS_GPU_CLEAN_H
#define SPS_GPU_CLEAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "cleanstream.h"
#include "error.h"
#include "header.h"

struct sps_gpu_clean;

/* The cleaning's kernels loaded on device dev by a thread of their own,
 * as sps_gpu_dedisp_preload loads the dedispersion's. */
void sps_gpu_clean_preload(int dev);

/* For spectra of h (one IF, a whole number of bytes each) in runs of at
 * most maxspectra, on device dev. */
enum sps_err sps_gpu_clean_create(struct sps_gpu_clean **g, int dev,
    const struct sps_header *h, size_t maxspectra);
void sps_gpu_clean_free(struct sps_gpu_clean *g);

/* Clean the n spectra at raw (device memory, the header's packing), the
 * input's spectra at .. at + n - 1, in place, block after block as cs
 * divides the input: a block begins at at, and one ends at at + n unless
 * the input ends there.  The work is queued on stream (a cudaStream_t)
 * and the host waits on it for the sums it decides from; the cleaned
 * samples are ready when the stream's work before the next queued is
 * done. */
enum sps_err sps_gpu_clean_run(struct sps_gpu_clean *g,
    struct sps_cleanstream *cs, unsigned char *raw, size_t n, uint64_t at,
    void *stream);

/* Copy bytes of device memory at dev to host after the work queued on
 * stream, and wait for them. */
enum sps_err sps_gpu_clean_fetch(struct sps_gpu_clean *g, void *host,
    const void *dev, size_t bytes, void *stream);

/* Clean n spectra (at most maxspectra) of raw, host memory in the
 * header's packing, in place through the device: copied there, cleaned
 * as sps_gpu_clean_run cleans them, copied back. */
enum sps_err sps_gpu_clean_host(struct sps_gpu_clean *g,
    struct sps_cleanstream *cs, unsigned char *raw, size_t n, uint64_t at);

/* Values rounded into the nbits' range from outside it so far, counted
 * as of the last sps_gpu_clean_fetch or sps_gpu_clean_host. */
uint64_t sps_gpu_clean_quantised(const struct sps_gpu_clean *g);

/* Seconds the cleaning has held its caller so far (the device's sums and
 * the decisions; the last changes of the samples run on). */
double sps_gpu_clean_seconds(const struct sps_gpu_clean *g);

/* Device bytes a cleaning of runs of maxspectra holds, predicted
 * (without sps_gpu_clean_host's copy of the spectra). */
double sps_gpu_clean_bytes(const struct sps_header *h, size_t maxspectra);

#ifdef __cplusplus
}
#endif

#endif

/* gpu.h: direct dedispersion on an NVIDIA GPU (kernels/dedisperse.cu),
 * the same function as the CPU path of dedisperse.h, on the same blocks.
 *
 * Raw time-major spectra (the file's packing, whole bytes per spectrum)
 * go to the device as they are; the device unpacks them into
 * channel-major rows of live channels (IFs summed), scrunches them by 2
 * per level, and sums each trial's channels at the shifts of
 * sps_dm_delay_samples (the one delay function; computed on the host).
 * Sums of 8-bit and narrower data run as two 16-bit lanes in a 32-bit
 * word, widened every 256 channels (255 * 257 < 2^16); 16-bit data sum
 * in 32-bit integers; scrunched levels and 32-bit data in float32.  Every
 * sum of integers is exact where the CPU's float32 sum is (nchans * nifs
 * * f * (2^nbits - 1) < 2^24), so there the two paths agree bit for bit.
 * A build without CUDA links a stub that answers "built without CUDA". */
#ifndef SPS_GPU_H
#define SPS_GPU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "error.h"
#include "header.h"
#include "dedisperse.h"

struct sps_gpu_dedisp;

/* Plan for blocks of nin spectra giving nout samples, on device dev.
 * SPS_EIO naming the failing CUDA call (no device, out of memory). */
enum sps_err sps_gpu_dedisp_create(struct sps_gpu_dedisp **plan, int dev,
    const struct sps_header *h, const double *dms, const int *scrunch,
    int ndms, const unsigned char *kill, size_t nin, size_t nout);

/* Switch the plan to the sub-band algorithm with the tables of the CPU
 * plan (dedisperse.h), so that both sum exactly the same samples: step 1
 * per nominal DM and band, step 2 per trial over the bands, float32
 * intermediate sums, as in subband.c. */
enum sps_err sps_gpu_dedisp_subband(struct sps_gpu_dedisp *plan,
    const struct sps_subband_tables *t);

/* Device memory the plan holds, bytes. */
size_t sps_gpu_dedisp_memory(const struct sps_gpu_dedisp *plan);

/* Dedisperse one block: raw holds nin spectra in the header's packing;
 * out (host) gets the layout of sps_dedisp_execute.  *kernel_ms, if not
 * NULL, gets the time of the dedispersion kernels alone. */
enum sps_err sps_gpu_dedisp_execute(struct sps_gpu_dedisp *plan,
    const unsigned char *raw, size_t nin, size_t nout, float *out,
    double *kernel_ms);

void sps_gpu_dedisp_free(struct sps_gpu_dedisp *plan);

#ifdef __cplusplus
}
#endif

#endif

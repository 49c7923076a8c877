/* gpu.h: dedispersion on an NVIDIA GPU (kernels/), the same function as
 * the CPU path of dedisperse.h, on the same blocks.
 *
 * Raw time-major spectra (the file's packing, whole bytes per spectrum)
 * go to the device as they are; the device unpacks them into
 * channel-major rows of live channels (IFs summed), scrunches them by 2
 * per level, and sums each trial's channels at the shifts of
 * sps_dm_delay_samples (the one delay function; computed on the host).
 * Sums of 8-bit and narrower data run as two 16-bit lanes in a 32-bit
 * word, widened every 256 channels (256 * 255 < 2^16), from 16 copies
 * of the rows shifted by 0-15 bytes so that every load is aligned;
 * scrunched levels, 16-bit and 32-bit data sum in float32.  The direct
 * kernel of 8-bit data runs through shared memory (kernels/
 * direct_shared.cu) or through the cache (kernels/dedisperse.cu),
 * whichever was faster in a trial before the first gulp, unless
 * SPS_GPU_DIRECT=cache or shared says; their tile shapes come from
 * built-in tables (SPS_GPU_TILE=i and SPS_GPU_SHARED_TILE=i pick entry i
 * instead, for tuning).  Every sum of integers is exact where the CPU's
 * float32 sum is (nchans * nifs * f * (2^nbits - 1) < 2^24), so there
 * the two paths agree bit for bit.
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

/* Plan for blocks of nin spectra giving nout samples, on device dev,
 * of the ndms trials whose shifts are the CPU plan's
 * sps_dedisp_shift_table (dedisperse.h).  SPS_EIO naming the failing
 * CUDA call (no device, out of memory). */
enum sps_err sps_gpu_dedisp_create(struct sps_gpu_dedisp **plan, int dev,
    const struct sps_header *h, const int *scrunch, int ndms,
    const unsigned char *kill, const int *shifts, size_t nin, size_t nout);

/* The kernels of a plan loaded on device dev by a thread of their own,
 * while the caller sets up (CUDA loads a kernel at its first use, and,
 * mid-run, waits then for the kernels running); nothing without a
 * device or CUDA. */
void sps_gpu_dedisp_preload(int dev);

/* The largest nin (spectra per gulp) for which 8-bit and narrower data
 * take the packed 8-bit kernels of algorithm algo (longer gulps sum in
 * float, slower); SIZE_MAX for other data, and for the trees, which
 * read the bytes with 64-bit offsets at any length. */
size_t sps_gpu_dedisp_packed_limit(const struct sps_header *h,
    enum sps_dedisp_algo algo);

/* Switch the plan to the sub-band algorithm with the tables of the CPU
 * plan (dedisperse.h), so that both sum exactly the same samples: step 1
 * per nominal DM and band, step 2 per trial over the bands, float32
 * intermediate sums, as in subband.c. */
enum sps_err sps_gpu_dedisp_subband(struct sps_gpu_dedisp *plan,
    const struct sps_subband_tables *t);

/* Switch the plan to a tree algorithm (tree-linear or tree-padded) with
 * the tables of the CPU plan: the same float additions in the same order
 * as tree.c, so the results are identical. */
enum sps_err sps_gpu_dedisp_tree(struct sps_gpu_dedisp *plan,
    const struct sps_tree_tables *t);

/* For the summary: the path the direct kernel of 8-bit and narrower
 * data took ("through the cache, 1.53x as fast as through shared memory
 * on the first gulps"), or NULL for other data and algorithms. */
const char *sps_gpu_dedisp_direct_path(const struct sps_gpu_dedisp *plan);

/* Device memory the plan holds, bytes. */
size_t sps_gpu_dedisp_memory(const struct sps_gpu_dedisp *plan);

/* Device memory, bytes, a plan for blocks of nin spectra giving nout
 * samples will hold, predicted (in any build) from the CPU plan cpu of
 * the same data and trials (dedisperse.h): the rows of every scrunch
 * level, two slots of input and output, the shift tables and, for the
 * sub-band algorithm, its tables and band series.  A tree's own rows
 * are not counted. */
struct sps_dedisp_plan;
double sps_gpu_dedisp_bytes(const struct sps_dedisp_plan *cpu,
    const struct sps_header *h, size_t nin, size_t nout);

/* The plan made whole (its tables shared): start, without waiting for
 * it, what it does once before the first gulp (the direct kernel's trial
 * of its two paths), so that it runs while the first gulp is read.  The
 * first submit waits for it, or starts it if this was not called. */
enum sps_err sps_gpu_dedisp_prepare(struct sps_gpu_dedisp *plan);

/* Queue one gulp and return at once: raw holds nin spectra in the
 * header's packing, giving nout samples.  out (host) gets them as blocks
 * of `block` samples (a multiple of the largest scrunch factor; the last
 * may be shorter), one after the other, each laid out as one block of
 * sps_dedisp_execute, so that a gulp of many blocks reads as those blocks
 * would from the CPU path.  The copy in, the kernels and the copy out run
 * on three CUDA streams: with two gulps queued, the copies of one overlap
 * the kernels of the other.  At most two gulps may be queued; raw and out
 * must stay untouched until the gulp's sps_gpu_dedisp_wait.  out NULL
 * leaves the result on the device (sps_gpu_dedisp_device_out). */
enum sps_err sps_gpu_dedisp_submit(struct sps_gpu_dedisp *plan,
    const unsigned char *raw, size_t nin, size_t nout, size_t block,
    float *out);

/* Put the first spectra of the next gulp on the device ahead of its
 * submit, for a filter to change them there (the cleaning, gpu_clean.h):
 * the first nkeep are those after the nout of the gulp submitted last,
 * as the device holds them (filtered, padding and all), the next n come
 * from raw + nkeep spectra.  The submit that follows copies only the
 * spectra after these.  *dev gets the device address of the gulp's
 * spectra and *stream (a cudaStream_t) the stream the copies are queued
 * on, where the filter is to queue its work. */
enum sps_err sps_gpu_dedisp_stage(struct sps_gpu_dedisp *plan,
    const unsigned char *raw, size_t nkeep, size_t n, unsigned char **dev,
    void **stream);

/* Wait for the oldest queued gulp.  *kernel_ms, if not NULL, gets the
 * time of its dedispersion kernels alone. */
enum sps_err sps_gpu_dedisp_wait(struct sps_gpu_dedisp *plan,
    double *kernel_ms);

/* Gulps submitted from now on come out (to submit's out) as the blocks
 * of an 8- or 16-bit DM-time stream (dmtime.h), each with its 8 opening
 * bytes, packed with scale and offset as dmtime.c packs them on the
 * host, to the same bytes; a gulp whose packed bytes would not fit where
 * its floats would go comes out as floats. */
enum sps_err sps_gpu_dedisp_pack(struct sps_gpu_dedisp *plan, int nbits,
    double scale, double offset);

/* The gulp last waited for: *bytes of packed blocks in out (0: floats)
 * and *clipped, the values clipped in packing them. */
enum sps_err sps_gpu_dedisp_packed(const struct sps_gpu_dedisp *plan,
    size_t *bytes, unsigned long long *clipped);

/* The device memory of the gulp last waited for, laid out as submit's
 * out; it is overwritten by the second submit after that wait.  NULL
 * before the first wait. */
const float *sps_gpu_dedisp_device_out(const struct sps_gpu_dedisp *plan);

/* submit then wait, with one block of nout samples. */
enum sps_err sps_gpu_dedisp_execute(struct sps_gpu_dedisp *plan,
    const unsigned char *raw, size_t nin, size_t nout, float *out,
    double *kernel_ms);

void sps_gpu_dedisp_free(struct sps_gpu_dedisp *plan);

#ifdef __cplusplus
}
#endif

#endif

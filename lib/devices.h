/* devices.h: the CUDA devices this build can use, and the GPU utility
 * layer's calls for C callers: device choice, device memory, page-locked
 * host memory, copies back.  Kernel files use its C++ side too
 * (kernels/gpu_util.h).
 *
 * A CUDA build (SPS_HAVE_CUDA) answers from the CUDA runtime
 * (kernels/devices.cu); a CPU-only build links the stubs in devices.c,
 * which say so.  Nothing here prints. */
#ifndef SPS_DEVICES_H
#define SPS_DEVICES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {	/* error.h too: kernels/devices.cu calls sps_fail */
#endif

#include "error.h"

#define SPS_DEVICE_NAME_MAX	256

struct sps_device {
	int	index;			/* CUDA device number */
	char	name[SPS_DEVICE_NAME_MAX];
	int	major, minor;		/* compute capability */
	size_t	memory;			/* global memory, bytes */
	int	multiprocessors;
	int	clock_khz;		/* peak SM clock */
	int	memory_clock_khz;	/* peak memory clock */
	int	memory_bus_bits;	/* memory bus width */
	int	pci_domain, pci_bus, pci_device;
};

/* Fill dev[0..max-1] with up to max devices and set *n to the number
 * found (which may exceed max).  Returns SPS_OK with *n >= 1, SPS_EIO
 * with the runtime's reason when there is no usable device (no GPU, no
 * driver), or SPS_EUSAGE when the library was built without CUDA. */
enum sps_err sps_device_list(struct sps_device *dev, int max, int *n);

/* The work queues each CUDA context of this process opens to a device
 * (CUDA_DEVICE_MAX_CONNECTIONS), n unless the environment sets them; to
 * be called before the first CUDA call.  A context takes the longer to
 * make the more it opens (on an H100 0.18 s for 2, 0.25 s for CUDA's
 * 8, and twice that when another process makes one at once, as the
 * tools of a pipe do), and a stream kept busy beside others wants one
 * of its own.  Any build: it only sets the environment. */
void sps_device_queues(int n);

/* Make dev the device of this thread's CUDA calls (and start its
 * context: a few tenths of a second the first time). */
enum sps_err sps_device_select(int dev);

/* Start device dev's context in a thread of its own, while the caller
 * does other things (reads a header, plans): a few tenths of a second
 * that the first CUDA call would otherwise wait.  Nothing without CUDA,
 * or when no thread can be had; a failure shows at the next call. */
void sps_device_warm(int dev);

/* Wait for sps_device_warm's thread, if one runs: before exiting, which
 * must not tear the CUDA runtime down while it starts. */
void sps_device_warm_wait(void);

/* Free and total memory of device dev, bytes. */
enum sps_err sps_device_memory(int dev, size_t *free_bytes, size_t *total);

/* Page-locked host memory (copies from it run asynchronously), for
 * what; SPS_ENOMEM naming the megabytes when it cannot be had.  A build
 * without CUDA gives ordinary memory. */
enum sps_err sps_device_host_alloc(void **ptr, size_t bytes,
    const char *what);
void sps_device_host_free(void *ptr);

/* The same in two steps: memory whose pages are had (touched by several
 * threads), with no CUDA call, so that it can be made while a device
 * starts; then, that memory page-locked, which takes a few milliseconds
 * where sps_device_host_alloc's pages would take tens.  Reserved memory
 * is freed by sps_device_host_free, registered or not. */
enum sps_err sps_device_host_reserve(void **ptr, size_t bytes,
    const char *what);
enum sps_err sps_device_host_register(void *ptr, size_t bytes,
    const char *what);

/* Copy bytes from device memory to the host, waiting for it. */
enum sps_err sps_device_copy_to_host(void *dst, const void *src,
    size_t bytes);

#ifdef __cplusplus
}
#endif

#endif

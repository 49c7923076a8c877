/* gpu_util.h: what every kernel file uses to talk to the CUDA runtime
 * (kernels/devices.cu): a failed call becomes one lib/ error naming the
 * call, device memory is had with its size and what it is for in the
 * message when it cannot be, streams are made one way.  The caller
 * names the device (lib/dedisp_engine.c puts "GPU N: " before every
 * GPU error).  Not for tools. */
#ifndef SPS_GPU_UTIL_H
#define SPS_GPU_UTIL_H

#include <pthread.h>
#include <stddef.h>

#include <cuda_runtime.h>

#include "devices.h"

/* sps_fail(SPS_EIO, "CUDA <what>: <the runtime's reason>"), clearing the
 * runtime's last error. */
enum sps_err gpu_cuda_fail(cudaError_t code, const char *what);

#define CHECK(call) do {						\
	cudaError_t code_ = (call);					\
	if (code_ != cudaSuccess)					\
		return gpu_cuda_fail(code_, #call);			\
} while (0)

#define CHECK_LAUNCH(name) do {						\
	cudaError_t code_;						\
	gpu_fault_point();						\
	code_ = cudaGetLastError();					\
	if (code_ != cudaSuccess)					\
		return gpu_cuda_fail(code_, "launch of " name);		\
} while (0)

/* cudaMalloc of bytes for what; *held (if not NULL) grows by bytes.
 * Failing, SPS_ENOMEM, and the message names the call, the bytes asked
 * and the device's free and total memory.  SPS_GPU_MEMORY_MB=N limits
 * the memory a process finds free on a device to N MB (for tests). */
enum sps_err gpu_malloc(void **ptr, size_t bytes, const char *what,
    size_t *held);

/* With SPS_GPU_FAULT=launch (for tests), a launch that fails, so that
 * the next CHECK_LAUNCH reports it. */
void gpu_fault_point(void);

/* A stream that does not wait on the legacy default stream. */
enum sps_err gpu_stream_create(cudaStream_t *s);

/* The same, whose kernels the device schedules before those of other
 * streams (for short work that the host waits on). */
enum sps_err gpu_stream_create_first(cudaStream_t *s);

/* CUDA loads a kernel at its first use: milliseconds, and, mid-run, a
 * wait for the kernels running then.  gpu_preload runs load (which calls
 * gpu_load_kernels) on device dev in a thread of its own, while the
 * caller sets up the rest; failures are left for the kernels' first use
 * to report.  The threads end before the runtime's exit handler runs;
 * gpu_preload_wait waits for them now. */
void gpu_preload(int dev, enum sps_err (*load)(void));
void gpu_preload_wait(void);

/* A copy of bytes from host memory src (pageable: a copy from it holds
 * the host till it ends) to device memory dst on device dev, made by a
 * thread of its own while the caller goes on (by the caller, if no
 * thread can be had); gpu_copy_wait waits for it, and says whether it
 * failed.  src stays as it is till then. */
struct gpu_copy {
	pthread_t	 tid;
	int		 dev, running;
	void		*dst;
	const void	*src;
	size_t		 bytes;
	cudaError_t	 code;
};
void gpu_copy_start(struct gpu_copy *c, int dev, void *dst, const void *src,
    size_t bytes);
enum sps_err gpu_copy_wait(struct gpu_copy *c);

/* Kernels k[0..n) loaded now. */
enum sps_err gpu_load_kernels(const void *const *k, size_t n);

#endif

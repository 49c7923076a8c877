/* devices.cu: the GPU utility layer (devices.h, gpu_util.h): the device
 * list, device choice, memory on the device and page-locked memory on
 * the host, copies back, and the error of a failed call.  Only runtime
 * calls that CUDA 13 keeps: the clocks, gone from cudaDeviceProp, come
 * from cudaDeviceGetAttribute. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gpu_util.h"
extern "C" {
#include "clock.h"
}

/* Page-locking is most of a run's set-up: locking 2 MB pages (where the
 * kernel gives them) costs far less than locking 4 kB ones. */
#define HUGE_PAGE	((size_t)2 << 20)

enum sps_err
gpu_cuda_fail(cudaError_t code, const char *what)
{
	cudaGetLastError();
	return sps_fail(SPS_EIO, "CUDA %s: %s", what, cudaGetErrorString(code));
}

/* SPS_GPU_MEMORY_MB=N (for tests): a process sees at most N MB free on
 * each device it uses; the rest is taken at its first use, so that an
 * allocation beyond it fails in the runtime itself, as on a smaller card. */
static pthread_mutex_t limit_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long limited;	/* bit d: device d limited */

/* Take the device's free memory down to keep bytes, in pieces (one
 * piece of nearly all of it may not be had). */
static void
take_memory(size_t keep)
{
	size_t free_b = 0, total = 0, piece = (size_t)1 << 30;
	void *taken;

	while (piece >= ((size_t)1 << 20) && cudaMemGetInfo(&free_b, &total)
	    == cudaSuccess && free_b > keep) {
		if (free_b - keep < piece || cudaMalloc(&taken, piece) !=
		    cudaSuccess) {
			cudaGetLastError();
			piece /= 2;
		}
	}
}

static void
limit_memory(int dev)
{
	const char *mb = getenv("SPS_GPU_MEMORY_MB");

	if (mb == NULL || *mb == '\0' || dev < 0 || dev >= 64)
		return;
	pthread_mutex_lock(&limit_lock);
	if (!(limited >> dev & 1)) {
		take_memory((size_t)strtoull(mb, NULL, 10) << 20);
		limited |= 1ULL << dev;
	}
	pthread_mutex_unlock(&limit_lock);
}

enum sps_err
gpu_malloc(void **ptr, size_t bytes, const char *what, size_t *held)
{
	cudaError_t code;
	int dev = 0;

	if (cudaGetDevice(&dev) == cudaSuccess)
		limit_memory(dev);
	if ((code = cudaMalloc(ptr, bytes)) != cudaSuccess) {
		size_t free_b = 0, total = 0;

		*ptr = NULL;
		cudaGetLastError();
		cudaMemGetInfo(&free_b, &total);
		return sps_fail(SPS_ENOMEM, "cudaMalloc of %.1f MB for %s: %s "
		    "(%.1f MB free of %.0f MB)", bytes / 1048576.0, what,
		    cudaGetErrorString(code), free_b / 1048576.0,
		    total / 1048576.0);
	}
	if (held != NULL)
		*held += bytes;
	return SPS_OK;
}

/* SPS_GPU_FAULT=launch (for tests): every launch check fails as a launch
 * of too many threads does. */
__global__ static void
no_work(void)
{
}

void
gpu_fault_point(void)
{
	static int fault = -1;

	if (fault < 0) {
		const char *f = getenv("SPS_GPU_FAULT");

		fault = f != NULL && strcmp(f, "launch") == 0;
	}
	if (fault)
		no_work<<<1, 4096>>>();
}

enum sps_err
gpu_stream_create(cudaStream_t *s)
{
	CHECK(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
	return SPS_OK;
}

enum sps_err
gpu_stream_create_first(cudaStream_t *s)
{
	int least, greatest;

	CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
	CHECK(cudaStreamCreateWithPriority(s, cudaStreamNonBlocking,
	    greatest));
	return SPS_OK;
}

/* ---- copies made beside the caller ---- */

/* On a stream of its own: the legacy stream's copies, the caller's,
 * would wait for it. */
static void *
run_copy(void *arg)
{
	struct gpu_copy *c = (struct gpu_copy *)arg;
	cudaStream_t s;

	if ((c->code = cudaSetDevice(c->dev)) != cudaSuccess ||
	    (c->code = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) !=
	    cudaSuccess)
		return NULL;
	if ((c->code = cudaMemcpyAsync(c->dst, c->src, c->bytes,
	    cudaMemcpyHostToDevice, s)) == cudaSuccess)
		c->code = cudaStreamSynchronize(s);
	cudaStreamDestroy(s);
	return NULL;
}

void
gpu_copy_start(struct gpu_copy *c, int dev, void *dst, const void *src,
    size_t bytes)
{
	c->dev = dev;
	c->dst = dst;
	c->src = src;
	c->bytes = bytes;
	c->running = pthread_create(&c->tid, NULL, run_copy, c) == 0;
	if (!c->running)
		run_copy(c);
}

enum sps_err
gpu_copy_wait(struct gpu_copy *c)
{
	if (c->running)
		pthread_join(c->tid, NULL);
	c->running = 0;
	CHECK(c->code);
	return SPS_OK;
}

/* ---- kernels loaded ahead ---- */

#define PRELOADS	4	/* threads at once, one a kernel file's set */

struct preload {
	int			 dev;
	enum sps_err		(*load)(void);
};

static pthread_mutex_t preload_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t preload_tid[PRELOADS];
static struct preload preload_job[PRELOADS];
static int npreloads;

static void *
run_preload(void *arg)
{
	const struct preload *p = (const struct preload *)arg;
	double t0 = sps_clock();

	if (cudaSetDevice(p->dev) != cudaSuccess || p->load() != SPS_OK)
		cudaGetLastError();	/* the kernels' first use says why */
	sps_trace("kernels loaded ahead, %.1f ms", (sps_clock() - t0) * 1e3);
	return NULL;
}

enum sps_err
gpu_load_kernels(const void *const *k, size_t n)
{
	struct cudaFuncAttributes attr;

	for (size_t i = 0; i < n; i++)
		CHECK(cudaFuncGetAttributes(&attr, k[i]));
	return SPS_OK;
}

void
gpu_preload_wait(void)
{
	pthread_mutex_lock(&preload_lock);
	for (int i = 0; i < npreloads; i++)
		pthread_join(preload_tid[i], NULL);
	npreloads = 0;
	pthread_mutex_unlock(&preload_lock);
}

void
gpu_preload(int dev, enum sps_err (*load)(void))
{
	static int waits_at_exit;
	int n;

	/* the runtime started first: its exit handler, registered then,
	 * runs after ours, which waits for the loading to end */
	if (cudaGetDeviceCount(&n) != cudaSuccess) {
		cudaGetLastError();
		return;
	}
	pthread_mutex_lock(&preload_lock);
	if (!waits_at_exit)
		waits_at_exit = atexit(gpu_preload_wait) == 0;
	if (npreloads < PRELOADS) {
		preload_job[npreloads].dev = dev;
		preload_job[npreloads].load = load;
		if (pthread_create(&preload_tid[npreloads], NULL, run_preload,
		    &preload_job[npreloads]) == 0)
			npreloads++;
	}
	pthread_mutex_unlock(&preload_lock);
}

static int
attribute(enum cudaDeviceAttr attr, int device)
{
	int value = 0;

	if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess)
		return 0;
	return value;
}

static enum sps_err
describe(int index, struct sps_device *dev)
{
	struct cudaDeviceProp prop;
	cudaError_t code;

	static_assert(sizeof(prop.name) >= sizeof(dev->name),
	    "the name copy reads sizeof(dev->name) - 1 bytes");
	if ((code = cudaGetDeviceProperties(&prop, index)) != cudaSuccess)
		return gpu_cuda_fail(code, "device properties");
	memset(dev, 0, sizeof(*dev));
	dev->index = index;
	memcpy(dev->name, prop.name, sizeof(dev->name) - 1);
	dev->major = prop.major;
	dev->minor = prop.minor;
	dev->memory = prop.totalGlobalMem;
	dev->multiprocessors = prop.multiProcessorCount;
	dev->clock_khz = attribute(cudaDevAttrClockRate, index);
	dev->memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, index);
	dev->memory_bus_bits = prop.memoryBusWidth;
	dev->pci_domain = prop.pciDomainID;
	dev->pci_bus = prop.pciBusID;
	dev->pci_device = prop.pciDeviceID;
	return SPS_OK;
}

extern "C" enum sps_err
sps_device_list(struct sps_device *dev, int max, int *n)
{
	cudaError_t code;
	enum sps_err e;
	int count = 0, i;

	*n = 0;
	if ((code = cudaGetDeviceCount(&count)) != cudaSuccess) {
		int runtime = 0;

		cudaGetLastError();
		cudaRuntimeGetVersion(&runtime);
		if (code == cudaErrorInsufficientDriver)
			return sps_fail(SPS_EIO, "no NVIDIA driver, or one older "
			    "than this build's CUDA %d.%d", runtime / 1000,
			    runtime % 1000 / 10);
		if (code == cudaErrorNoDevice)
			return sps_fail(SPS_EIO, "no NVIDIA GPU");
		return sps_fail(SPS_EIO, "no CUDA device: %s",
		    cudaGetErrorString(code));
	}
	if (count < 1)
		return sps_fail(SPS_EIO, "no CUDA device found");
	for (i = 0; i < count && i < max; i++)
		if ((e = describe(i, &dev[i])) != SPS_OK)
			return e;
	*n = count;
	return SPS_OK;
}

extern "C" enum sps_err
sps_device_select(int dev)
{
	CHECK(cudaSetDevice(dev));
	return SPS_OK;
}

static void *
warm(void *arg)
{
	size_t free_bytes, total;

	if (sps_device_memory((int)(intptr_t)arg, &free_bytes, &total) !=
	    SPS_OK)
		cudaGetLastError();	/* the caller's next call says why */
	return NULL;
}

static pthread_t warm_tid;
static int warming;

extern "C" void
sps_device_warm(int dev)
{
	if (!warming && pthread_create(&warm_tid, NULL, warm,
	    (void *)(intptr_t)dev) == 0)
		warming = 1;
}

extern "C" void
sps_device_warm_wait(void)
{
	if (warming)
		pthread_join(warm_tid, NULL);
	warming = 0;
}

extern "C" enum sps_err
sps_device_memory(int dev, size_t *free_bytes, size_t *total)
{
	CHECK(cudaSetDevice(dev));
	limit_memory(dev);
	CHECK(cudaMemGetInfo(free_bytes, total));
	return SPS_OK;
}

static size_t
huge_pages(size_t bytes)
{
	return (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
}

static enum sps_err
host_memory(void **ptr, size_t len, const char *what)
{
	*ptr = NULL;
	if (posix_memalign(ptr, HUGE_PAGE, len) != 0) {
		*ptr = NULL;
		return sps_fail(SPS_ENOMEM, "out of memory for %s (%zu MB)",
		    what, len >> 20);
	}
	madvise(*ptr, len, MADV_HUGEPAGE);
	return SPS_OK;
}

extern "C" enum sps_err
sps_device_host_register(void *ptr, size_t bytes, const char *what)
{
	size_t len = huge_pages(bytes);
	cudaError_t code;

	if ((code = cudaHostRegister(ptr, len, cudaHostRegisterDefault)) !=
	    cudaSuccess) {
		cudaGetLastError();
		return sps_fail(SPS_ENOMEM, "cannot page-lock %zu MB for %s: "
		    "%s", len >> 20, what, cudaGetErrorString(code));
	}
	return SPS_OK;
}

extern "C" enum sps_err
sps_device_host_alloc(void **ptr, size_t bytes, const char *what)
{
	enum sps_err e;

	if ((e = host_memory(ptr, huge_pages(bytes), what)) != SPS_OK)
		return e;
	if ((e = sps_device_host_register(*ptr, bytes, what)) != SPS_OK) {
		free(*ptr);
		*ptr = NULL;
	}
	return e;
}

extern "C" enum sps_err
sps_device_host_reserve(void **ptr, size_t bytes, const char *what)
{
	size_t len = huge_pages(bytes), page;
	unsigned char *p;
	enum sps_err e;

	if ((e = host_memory(ptr, len, what)) != SPS_OK)
		return e;
	p = (unsigned char *)*ptr;
#pragma omp parallel for schedule(static)
	for (page = 0; page < len / HUGE_PAGE; page++)
		memset(p + page * HUGE_PAGE, 0, HUGE_PAGE);
	return SPS_OK;
}

extern "C" void
sps_device_host_free(void *ptr)
{
	if (ptr == NULL)
		return;
	if (cudaHostUnregister(ptr) != cudaSuccess)
		cudaGetLastError();	/* reserved, never registered */
	free(ptr);
}

extern "C" enum sps_err
sps_device_copy_to_host(void *dst, const void *src, size_t bytes)
{
	CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
	return SPS_OK;
}

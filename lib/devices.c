/* devices.c: the GPU utility layer of a build without CUDA (see
 * devices.h): no device, and ordinary memory where page-locked memory is
 * asked for; with SPS_HAVE_CUDA, kernels/devices.cu provides it instead.
 * The work queues, only an environment variable, are set here in any
 * build. */
#include <stdio.h>
#include <stdlib.h>

#include "devices.h"

void
sps_device_queues(int n)
{
	char v[16];

	snprintf(v, sizeof(v), "%d", n);
	setenv("CUDA_DEVICE_MAX_CONNECTIONS", v, 0);
}

#ifndef SPS_HAVE_CUDA

static enum sps_err
no_cuda(void)
{
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}

enum sps_err
sps_device_list(struct sps_device *dev, int max, int *n)
{
	(void)dev;
	(void)max;
	*n = 0;
	return no_cuda();
}

enum sps_err
sps_device_select(int dev)
{
	(void)dev;
	return no_cuda();
}

void
sps_device_warm(int dev)
{
	(void)dev;
}

void
sps_device_warm_wait(void)
{
}

enum sps_err
sps_device_memory(int dev, size_t *free_bytes, size_t *total)
{
	(void)dev;
	*free_bytes = *total = 0;
	return no_cuda();
}

enum sps_err
sps_device_host_alloc(void **ptr, size_t bytes, const char *what)
{
	if ((*ptr = malloc(bytes)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory for %s (%zu MB)",
		    what, bytes >> 20);
	return SPS_OK;
}

void
sps_device_host_free(void *ptr)
{
	free(ptr);
}

enum sps_err
sps_device_host_reserve(void **ptr, size_t bytes, const char *what)
{
	return sps_device_host_alloc(ptr, bytes, what);
}

enum sps_err
sps_device_host_register(void *ptr, size_t bytes, const char *what)
{
	(void)ptr;
	(void)bytes;
	(void)what;
	return SPS_OK;
}

enum sps_err
sps_device_copy_to_host(void *dst, const void *src, size_t bytes)
{
	(void)dst;
	(void)src;
	(void)bytes;
	return no_cuda();
}
#endif

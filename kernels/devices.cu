/* devices.cu: the CUDA device query behind sps_device_list (devices.h).
 * Only runtime calls that CUDA 13 keeps: the clocks, gone from
 * cudaDeviceProp, come from cudaDeviceGetAttribute. */
#include <string.h>

#include <cuda_runtime.h>

#include "devices.h"

static enum sps_err
cuda_fail(cudaError_t code, const char *what)
{
	return sps_fail(SPS_EIO, "%s: %s", what, cudaGetErrorString(code));
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
		return cuda_fail(code, "CUDA device properties");
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
	if ((code = cudaGetDeviceCount(&count)) != cudaSuccess)
		return cuda_fail(code, "no CUDA device");
	if (count < 1)
		return sps_fail(SPS_EIO, "no CUDA device found");
	for (i = 0; i < count && i < max; i++)
		if ((e = describe(i, &dev[i])) != SPS_OK)
			return e;
	*n = count;
	return SPS_OK;
}

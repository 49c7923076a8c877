/* devices.c: the device query of a build without CUDA (see devices.h);
 * with SPS_HAVE_CUDA, kernels/devices.cu provides it instead. */
#include "devices.h"

#ifndef SPS_HAVE_CUDA
enum sps_err
sps_device_list(struct sps_device *dev, int max, int *n)
{
	(void)dev;
	(void)max;
	*n = 0;
	return sps_fail(SPS_EUSAGE, "built without CUDA");
}
#endif

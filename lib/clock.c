/* clock.c: the monotonic clock (clock.h). */
#include <time.h>

#include "clock.h"

double
sps_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

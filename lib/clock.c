/* clock.c: the monotonic clock and the phase trace (clock.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"

double
sps_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

void
sps_trace(const char *fmt, ...)
{
	static int on = -1;
	char what[256];
	va_list ap;

	if (on < 0)
		on = getenv("SPS_TRACE") != NULL;
	if (!on)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fprintf(stderr, "sps-trace %.6f %s: %s\n", sps_clock(),
	    program_invocation_short_name, what);
}

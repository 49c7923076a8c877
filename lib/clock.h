/* clock.h: seconds on a monotonic clock, for the timings lib/ reports. */
#ifndef SPS_CLOCK_H
#define SPS_CLOCK_H

double sps_clock(void);

#endif

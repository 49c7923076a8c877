/* clock.h: seconds on a monotonic clock, for the timings lib/ reports,
 * and a trace of when each phase of a run happened. */
#ifndef SPS_CLOCK_H
#define SPS_CLOCK_H

double sps_clock(void);

/* With SPS_TRACE set in the environment, one line on stderr:
 * "sps-trace SECONDS PROGRAM: what", SECONDS on the monotonic clock that
 * every process of a pipe shares, so that their lines can be merged. */
void sps_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

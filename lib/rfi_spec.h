/* rfi_spec.h: the interference of sps-fake --rfi, so that excision can be
 * measured: broad-band impulses at DM 0, narrow-band carriers that switch
 * on and off, dropped (zeroed) channels and a slow gain drift.
 *
 * A spec is a kind, then key=value pairs, separated by commas or blanks:
 *
 *	impulse,t=TIME | rate=PER_S [,width=1ms] [,snr=50 | amp=A] [,chan=]
 *	carrier,chan=A:B [,amp=5] [,period=TIME,duty=0.5,phase=0]
 *	zero,chan=A:B [,period=TIME,duty=0.5,phase=0]
 *	drift,period=TIME [,amp=0.1] [,phase=0] [,chan=A:B]
 *
 * Times take the suffixes of fakeparse.h.  Channels are PRESTO's numbers,
 * from the lowest frequency (the reverse of the file's order when foff <
 * 0), "C" or "A:B" inclusive; without chan= an impulse or a drift covers
 * the whole band.  Amplitudes are in units of each channel's noise rms. */
#ifndef SPS_RFI_SPEC_H
#define SPS_RFI_SPEC_H

#include "error.h"

enum sps_rfi_kind {
	SPS_RFI_IMPULSE,
	SPS_RFI_CARRIER,
	SPS_RFI_ZERO,
	SPS_RFI_DRIFT
};

struct sps_rfi {
	enum sps_rfi_kind kind;
	double	t;		/* impulse: s, centre; rate 0 */
	double	rate;		/* impulse: per s; 0: one at t */
	double	width;		/* impulse: s, full width */
	double	snr;		/* impulse: S/N as above; amp used when 0 */
	double	amp;		/* rms units; drift: fractional gain */
	double	period;		/* s; 0: always on (carrier, zero) */
	double	duty;		/* fraction of the period on, (0, 1] */
	double	phase;		/* fraction of a period */
	int	lo, hi;		/* PRESTO channels, inclusive; -1: all */
};

/* Parse spec for data of nchans channels sampled every tsamp s.
 * SPS_EVALUE, with a detail naming the fault, for an unknown kind or key,
 * a key given twice or not allowed for the kind, a missing required key,
 * a value out of range or a channel not below nchans. */
enum sps_err sps_rfi_parse(const char *spec, double tsamp, int nchans,
    struct sps_rfi *r);

#endif

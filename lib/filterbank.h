/* filterbank.h: what sps-filterbank does to the spectra it copies: a
 * time range, a channel range (by channel numbers or by frequencies), a
 * channel mask filled with zeros or with the median of the other kept
 * channels, a band flip, and an output nbits, into whose range every
 * value can be rescaled by its channel's mean and spread in the first
 * block.
 *
 * A plan is made in steps, so that a tool can report between them:
 * sps_filterbank_time, sps_filterbank_channels, the mask (chanmask.h,
 * into p->masked), sps_filterbank_output.  sps_filterbank_header then
 * gives the output header and sps_filterbank_execute transforms blocks
 * of spectra (time-major, nifs * nchans floats each), unless
 * sps_filterbank_copies_bytes says that the input's bytes can be copied
 * as they are. */
#ifndef SPS_FILTERBANK_H
#define SPS_FILTERBANK_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "header.h"

/* What is asked for (messages name the options of sps-filterbank that
 * ask for it). */
struct sps_filterbank_params {
	double		 start_s, read_s;	/* -s, -r; < 0: not given */
	long long	 start, count;		/* -S, -n; < 0: not given */
	long long	 chan_first, chan_last;	/* -c; < 0: not given */
	double		 freq_lo, freq_hi;	/* --freqs; NAN: not given */
	int		 nbits;		/* 0: the nbits of the input's values */
	int		 rescale;
	int		 flip;
	int		 median_fill;	/* masked channels: median, not 0 */
};

/* Nothing asked for: every spectrum and channel, values as they are. */
void sps_filterbank_defaults(struct sps_filterbank_params *prm);

#define SPS_FILTERBANK_ALL	UINT64_MAX	/* count: to the end */

/* The plan. */
struct sps_filterbank {
	uint64_t	 start, count;	/* spectra */
	uint64_t	 asked;		/* count asked for: more than count
					 * when the input ends first */
	int		 nin, nout;	/* channels per IF, in and out */
	int		 nifs;
	int		 first;		/* first input channel kept */
	unsigned char	*masked;	/* per input channel: 1 to fill */
	int		 nmasked;	/* masked channels that are kept */
	int		 nbits, is_signed;	/* of the output */
	int		 flip, median_fill;
	double		*mean, *scale;	/* rescaling, per output value */
	float		 level, spread;	/* rescaling: the output's centre and
					 * spread */
	int		 scaled;	/* rescaling statistics taken */
	float		*work;		/* the values a median is taken of */
};

/* Start p with the time range asked over nsamples spectra of tsamp
 * seconds (SPS_NSAMPLES_UNKNOWN: a stream, whose range is cut where it
 * ends).  SPS_EVALUE when the start is past the end. */
enum sps_err sps_filterbank_time(struct sps_filterbank *p,
    const struct sps_filterbank_params *prm, double tsamp,
    uint64_t nsamples);

/* The channels kept of h's, and p->masked for them, none masked yet.
 * SPS_EVALUE when the channel range asked ends past the band, or no
 * channel centre is in the frequency range asked, SPS_ENOMEM. */
enum sps_err sps_filterbank_channels(struct sps_filterbank *p,
    const struct sps_filterbank_params *prm, const struct sps_header *h);

/* The output: value_nbits is the nbits that holds the input's values
 * exactly (sps_reader_value_nbits), h the input's header.  SPS_OK or
 * SPS_ENOMEM. */
enum sps_err sps_filterbank_output(struct sps_filterbank *p,
    const struct sps_filterbank_params *prm, const struct sps_header *h,
    int value_nbits);

/* The output header: in's, with tstart at the first spectrum kept, the
 * channels kept (flipped), the output nbits and signedness, nsamples
 * (when in has it) the count, and sigpyproc's band keywords left out
 * when the band changed.  SPS_OK or SPS_ENOMEM. */
enum sps_err sps_filterbank_header(const struct sps_filterbank *p,
    const struct sps_header *in, struct sps_header *out);

/* Mask, cut, flip and rescale n spectra from in (whose masked channels
 * are filled in place) to out (nifs * nout floats each), and return out;
 * or return in, leaving out alone, when the plan changes no value.  The
 * first call takes the rescaling statistics. */
float *sps_filterbank_execute(struct sps_filterbank *p, float *in,
    float *out, size_t n);

struct sps_reader;
/* Can the spectra of r go to the output as the bytes they are?  When the
 * plan changes no value, nbits or sign, and r reads SIGPROC spectra of
 * whole bytes in time order, from one input or from files joined without
 * gaps (and from a stream, only at 8 bits or fewer).  The time range may
 * be anything. */
int sps_filterbank_copies_bytes(const struct sps_filterbank *p,
    const struct sps_reader *r);

void sps_filterbank_free(struct sps_filterbank *p);

#endif

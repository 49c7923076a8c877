/* tscrunch.h: adding adjacent samples in time and adjacent channels.
 *
 * Input and output are time-major spectra of floats (nifs * nchans values
 * each).  With a time factor N and a channel factor M, output sample j,
 * IF i, channel c is the sum of input samples jN .. jN + N - 1, IF i,
 * channels cM .. cM + M - 1 (the mean, when asked: the sum / (N M)).
 * Sums are formed in double precision, so sums of integer samples are
 * exact; they are rounded once, to float, on output (exact while below
 * 2^24).  An input sample of a partial last group (fewer than N) is held
 * back and never output. */
#ifndef SPS_TSCRUNCH_H
#define SPS_TSCRUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "header.h"

struct sps_tscrunch_params {
	int	tfactor;	/* N: samples added, >= 1 */
	int	ffactor;	/* M: channels added, >= 1, divides nchans */
	int	mean;		/* 1: divide the sums by N * M */
	int	nbits;		/* output nbits; 0: sps_tscrunch_nbits() */
};

/* The output nbits that cannot overflow: the smallest of 1, 2, 4, 8 and
 * 16 (unsigned; or signed 8-bit when the input is, and N M is 1) whose
 * range holds N M times the input's range, else 32 (float).  With mean,
 * the input's nbits. */
int sps_tscrunch_nbits(const struct sps_header *in, int tfactor,
    int ffactor, int mean);

/* The output header: nbits (and signed), tsamp * N, nchans / M, foff * M,
 * fch1 moved to the centre of the first merged channel (fch1 + (M - 1) / 2
 * foff), a frequency table averaged likewise, nsamples (when present)
 * set to nsamples_in / N or removed when nsamples_in is UINT64_MAX
 * (unknown).  tstart is unchanged: output sample 0 starts where input
 * sample 0 starts.  Returns SPS_OK, SPS_EVALUE (a factor < 1, M not
 * dividing nchans, a bad nbits) or SPS_ENOMEM. */
enum sps_err sps_tscrunch_header(const struct sps_header *in,
    const struct sps_tscrunch_params *p, uint64_t nsamples_in,
    struct sps_header *out);

/* The plan: the running sums of one output spectrum. */
struct sps_tscrunch;

/* Returns SPS_OK, SPS_EVALUE (as sps_tscrunch_header) or SPS_ENOMEM. */
enum sps_err sps_tscrunch_create(struct sps_tscrunch **plan,
    const struct sps_header *in, const struct sps_tscrunch_params *p);

/* Add n input spectra; write each output spectrum they complete to out
 * (nifs * nchans / M floats each) and return how many were written:
 * (pending + n) / N, at most n / N + 1. */
size_t sps_tscrunch_execute(struct sps_tscrunch *plan, const float *in,
    size_t n, float *out);

/* Input spectra added since the last output spectrum. */
size_t sps_tscrunch_pending(const struct sps_tscrunch *plan);

void sps_tscrunch_free(struct sps_tscrunch *plan);

#endif

/* dedisp_out.h: where dedispersed data go.  Either one DM-time stream on
 * the standard output (dmtime.h; float32, or 8/16-bit with the scale
 * chosen on the first block), or one SIGPROC time series per trial:
 * PREFIX_DMd.dd.tim files (with PRESTO's .dat and .inf beside them on
 * request), or a single trial's series on the standard output.  Files
 * are written under temporary names and renamed when closed (writer.h).
 * Series keep the input's identity; only what dedispersion changes is
 * changed: one channel at the top of the band, 32-bit floats, the trial's
 * DM as refdm and its scrunched sampling time. */
#ifndef SPS_DEDISP_OUT_H
#define SPS_DEDISP_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "dedisperse.h"
#include "error.h"
#include "header.h"

struct sps_dedisp_engine;

struct sps_dedisp_out_opts {
	const char	*prefix;	/* series files; NULL: standard output */
	int		 presto;	/* .dat and .inf too (with prefix) */
	int		 series;	/* series, not a DM-time stream */
	int		 nbits;		/* of the DM-time stream: 8, 16, 32 */
};

struct sps_dedisp_out;

/* The header of the DM-time stream of data described by in (nsamples
 * spectra, SPS_NSAMPLES_UNKNOWN if not known) dedispersed at dms/scrunch
 * in blocks of `block` samples with largest delay max_delay, its values
 * of nbits bits.  h is overwritten (sps_header_free it). */
enum sps_err sps_dedisp_stream_header(struct sps_header *h,
    const struct sps_header *in, const double *dms, const int *scrunch,
    int ntrials, int nbits, size_t block, size_t max_delay,
    uint64_t nsamples);

/* Open the outputs of the trials dms/scrunch of data described by in,
 * dedispersed in blocks of `block` samples with max_delay of overlap, of
 * nsamples input spectra (SPS_NSAMPLES_UNKNOWN: not known).  Nothing is
 * written yet.  SPS_EVALUE when two trials' file names would be the same
 * or the files would pass the limit of open files. */
enum sps_err sps_dedisp_out_open(struct sps_dedisp_out **o,
    const struct sps_dedisp_out_opts *opts, const struct sps_header *in,
    const double *dms, const int *scrunch, int ntrials, size_t block,
    size_t max_delay, uint64_t nsamples);

/* Write one block of nout samples laid out as plan's output blocks; the
 * first also writes the headers. */
enum sps_err sps_dedisp_out_block(struct sps_dedisp_out *o,
    const struct sps_dedisp_plan *plan, const float *out, size_t nout);

/* The engine's next block (dedisp_engine.h): floats written as
 * sps_dedisp_out_block writes them, or, once the first block of an 8- or
 * 16-bit stream has set the scale and the engine's GPU packs the gulps
 * after with it, the packed block as it is. */
enum sps_err sps_dedisp_out_engine_block(struct sps_dedisp_out *o,
    struct sps_dedisp_engine *eng, const float *out, size_t nout);

/* Finish every output (the .inf files are written now) and free. */
enum sps_err sps_dedisp_out_close(struct sps_dedisp_out *o);

/* Remove every unfinished output and free (NULL is fine). */
void sps_dedisp_out_abort(struct sps_dedisp_out *o);

/* Values clipped to the stream's nbits so far. */
unsigned long long sps_dedisp_out_clipped(const struct sps_dedisp_out *o);

#endif

/* cleanstream.h: the cleaning of one input from its start, block after
 * block, as sps-clean does it: the blocks (--block spectra, cut where an
 * rfifind mask's intervals change), each block's static mask (a kill
 * mask and the rfifind mask's channels of its interval), the block
 * engine (clean.h) and the report (cleanreport.h).
 *
 * sps-clean runs it between its reader and writer.  sps-search's fused
 * path cleans on the way with it: on the CPU through
 * sps_cleanstream_read, which gives the spectra sps-clean would write
 * (quantised to the input's nbits) as sps-dedisperse would read them; on
 * the GPU (gpu_clean.h) with the decisions made here. */
#ifndef SPS_CLEANSTREAM_H
#define SPS_CLEANSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "clean.h"
#include "cleanreport.h"
#include "error.h"
#include "header.h"
#include "reader.h"

/* What the cleaning of an input is asked for. */
struct sps_clean_setup {
	struct sps_clean_options o;
	size_t		 block;		/* spectra a block */
	const char	*maskfile;	/* rfifind .mask, NULL: none */
	const char	*report;	/* a line a block, NULL: none */
};

#define SPS_CLEAN_BLOCK	4096	/* sps-clean's default block */

/* sps-clean's defaults (sps_clean_defaults, blocks of SPS_CLEAN_BLOCK). */
void sps_clean_setup_defaults(struct sps_clean_setup *s);

struct sps_cleanstream;

/* For data described by h (one IF), the channels of kill (file order,
 * NULL: none) masked throughout.  Reads and checks the rfifind mask and
 * opens the report.  An error names the mask or the report. */
enum sps_err sps_cleanstream_create(struct sps_cleanstream **cs,
    const struct sps_header *h, const struct sps_clean_setup *s,
    const unsigned char *kill);
/* Freed before sps_cleanstream_close, the report file is removed. */
void sps_cleanstream_free(struct sps_cleanstream *cs);

/* The block that starts at spectrum at (the blocks follow each other
 * from spectrum 0): its length if the input lasts, and its static mask
 * given to the engine. */
size_t sps_cleanstream_begin(struct sps_cleanstream *cs, uint64_t at);

/* The static mask of the block that begins at at (nchans flags, file
 * order), with scratch of nchans bytes; nothing else changes. */
void sps_cleanstream_static(const struct sps_cleanstream *cs, uint64_t at,
    unsigned char *mask, unsigned char *scratch);

/* The length of that block, without beginning it. */
size_t sps_cleanstream_length(const struct sps_cleanstream *cs, uint64_t at);

/* The longest block. */
size_t sps_cleanstream_block_max(const struct sps_cleanstream *cs);

/* The block engine, for a block begun with sps_cleanstream_begin. */
struct sps_clean *sps_cleanstream_engine(struct sps_cleanstream *cs);
const struct sps_clean *sps_cleanstream_engine_of(
    const struct sps_cleanstream *cs);
size_t sps_cleanstream_nchans(const struct sps_cleanstream *cs);

/* Count a block cleaned (b), which began at spectrum at, in the report. */
enum sps_err sps_cleanstream_done(struct sps_cleanstream *cs, uint64_t at,
    const struct sps_clean_block *b);

/* Clean n spectra of x (floats, in place) as the block begun at at, and
 * count them. */
enum sps_err sps_cleanstream_block(struct sps_cleanstream *cs, uint64_t at,
    float *x, size_t n, struct sps_clean_block *b);

/* Up to n spectra of r (floats, or with raw its bytes), as many as it
 * has (a pipe gives fewer at a time); SPS_EEOF with *got 0 at the end. */
enum sps_err sps_cleanstream_fill(struct sps_reader *r, void *buf, size_t n,
    int raw, size_t *got);

/* Up to n cleaned spectra of r as sps_reader_read gives them (SPS_EEOF
 * with *got 0 at the end): each block read whole, cleaned, and rounded
 * to the input's nbits as sps-clean writes it by default. */
enum sps_err sps_cleanstream_read(struct sps_cleanstream *cs,
    struct sps_reader *r, float *out, size_t n, size_t *got);

/* Host bytes sps_cleanstream_read holds for blocks of block spectra. */
double sps_cleanstream_read_bytes(const struct sps_header *h, size_t block);

/* Values that sps_cleanstream_read rounded into the nbits' range from
 * outside it (sps-clean's writer counts them likewise). */
uint64_t sps_cleanstream_quantised(const struct sps_cleanstream *cs);

/* The report so far; finish its file (renamed into place). */
const struct sps_clean_report *sps_cleanstream_report(
    const struct sps_cleanstream *cs);
enum sps_err sps_cleanstream_close(struct sps_cleanstream *cs);

#endif

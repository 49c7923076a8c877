/* cleanreport.h: what sps-clean did: totals for the standard error, and
 * a line a block in a report file (format in sps-clean(1), REPORT). */
#ifndef SPS_CLEANREPORT_H
#define SPS_CLEANREPORT_H

#include <stdint.h>
#include <stdio.h>

#include "clean.h"
#include "error.h"
#include "header.h"
#include "writer.h"

struct sps_clean_report {
	struct sps_writer w;	/* the report file, if any */
	int		 have_file;
	int		 nchans, descending;	/* foff < 0 */
	uint64_t	 spectra, blocks, clipped, replaced;
	uint64_t	 masked_sum;	/* channels masked, over blocks */
	int		 masked_min, masked_max;
};

/* Start a report; path NULL: totals only.  The file's first lines say
 * what the options were. */
enum sps_err sps_clean_report_open(struct sps_clean_report *rep,
    const char *path, const struct sps_header *h,
    const struct sps_clean_options *o);

/* Count block b, which began at spectrum `at`, and write its line. */
enum sps_err sps_clean_report_block(struct sps_clean_report *rep,
    uint64_t at, const struct sps_clean_block *b);

/* Finish the file (renamed into place). */
enum sps_err sps_clean_report_close(struct sps_clean_report *rep);

/* The totals as lines "PREFIX: ..." on f (prefix "sps-clean", or
 * "sps-search: cleaning"); quantised counts the values clipped to the
 * range of nbits bits. */
void sps_clean_report_summary(const struct sps_clean_report *rep, FILE *f,
    const char *prefix, unsigned long long quantised, int nbits);

#endif

/* writer.h: SIGPROC output to standard output or a file.
 *
 * A file is written under a temporary name beside it (NAME.tmp.PID) and
 * renamed on sps_writer_close(), so a failed run never leaves a file that
 * looks finished; sps_writer_abort() removes it.  Until it is renamed,
 * the temporary name is listed in unfinished.h, so that an early exit or
 * a signal removes it too. */
#ifndef SPS_WRITER_H
#define SPS_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "header.h"

struct sps_writer {
	FILE	*f;
	char	*path;		/* final name, NULL for standard output */
	char	*tmppath;	/* temporary name, NULL for standard output */
	int	 nbits;
	int	 is_signed;
	size_t	 nvalues;	/* values per spectrum */
	unsigned char *packbuf;
	size_t	 packlen;
	unsigned long long nclipped;	/* values clipped while packing */
	float	 pending[8];	/* sub-byte values waiting for a whole byte */
	int	 npending;
};

/* Open path for writing (NULL or "-" for standard output). */
enum sps_err sps_writer_open(struct sps_writer *w, const char *path);

/* Write the header and remember its nbits and spectrum size. */
enum sps_err sps_writer_header(struct sps_writer *w,
    const struct sps_header *h);

/* A write to w's stream made by other code failed: puts the output's name
 * ("stdout" for standard output) in front of sps_errmsg() and returns
 * code. */
enum sps_err sps_writer_failed(const struct sps_writer *w, enum sps_err code);

/* Write raw bytes as they are. */
enum sps_err sps_writer_raw(struct sps_writer *w, const void *buf,
    size_t len);

/* Pack n spectra of floats to the header's nbits and write them;
 * clipping is counted in w->nclipped. */
enum sps_err sps_writer_spectra(struct sps_writer *w, const float *buf,
    size_t n);

/* Flush, close, check, and rename into place. */
enum sps_err sps_writer_close(struct sps_writer *w);

/* Close and remove the temporary file (safe after a failure). */
void sps_writer_abort(struct sps_writer *w);

/* For a program done with its standard output: close it now (its
 * place taken by /dev/null), so that a pipe's next stage sees the end
 * without waiting for this process to tear down, which a GPU context
 * makes tens of ms long. */
void sps_writer_release_stdout(void);

#endif

/* reader.h: data blocks from any input the suite reads.
 *
 * A reader hands out spectra (nifs*nchans values each, time-major) from a
 * SIGPROC file or stream, a PSRFITS file, or several files in time order,
 * with bounded memory.  Every format feeds this one interface through
 * struct sps_source (below); several files read as one are join.h's. */
#ifndef SPS_READER_H
#define SPS_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "header.h"

#define SPS_NSAMPLES_UNKNOWN UINT64_MAX

/* One format's implementation behind a reader. */
struct sps_source_ops {
	/* Read up to n spectra as raw bytes in the header's nbits packing.
	 * Sets *got; SPS_EEOF with *got == 0 at the end.  A partial last
	 * spectrum ends the data (cut, below, counts its bytes) unless no
	 * spectrum came whole: then SPS_ETRUNC. */
	enum sps_err (*read_raw)(void *state, unsigned char *buf, size_t n,
	    size_t *got);
	/* Read up to n spectra as float32 (optional: NULL means unpack raw). */
	enum sps_err (*read_float)(void *state, float *buf, size_t n,
	    size_t *got);
	void (*close)(void *state);
	/* Move past up to n spectra without reading them (optional: what it
	 * leaves, or all when NULL, is read and dropped).  Sets *skipped. */
	enum sps_err (*skip)(void *state, uint64_t n, uint64_t *skipped);
	/* Whether read_raw's bytes are the values read_float gives
	 * (optional: NULL means they are). */
	int (*raw_exact)(void *state);
	/* Bytes after the last whole spectrum, once the end is read
	 * (optional: NULL means none). */
	uint64_t (*cut)(void *state);
};

struct sps_reader {
	struct sps_header	 hdr;		/* as read; nbits is the file's */
	uint64_t		 nsamples;	/* spectra, or SPS_NSAMPLES_UNKNOWN */
	uint64_t		 position;	/* spectra handed out so far */
	const char		*name;		/* file name, "stdin" for - */
	const struct sps_source_ops *ops;
	void			*state;
	unsigned char		*scratch;	/* raw block for read_float */
	size_t			 scratch_len;
	uint64_t		 gap_spectra;	/* filled between joined files */
	/* A recording cut inside a spectrum: the whole spectra are the data,
	 * and the bytes after them are ignored.  Known on opening a regular
	 * file, at the end of a stream; cut_name is the file cut (the first,
	 * when cut_files of several joined files are). */
	uint64_t		 cut_bytes;
	const char		*cut_name;
	int			 cut_files;
};

/* Open path ("-" or NULL for standard input).  The format is recognised by
 * content (HEADER_START or a FITS "SIMPLE" card). */
enum sps_err sps_reader_open(struct sps_reader *r, const char *path);

/* Read up to n spectra: raw bytes in hdr.nbits packing (buf holds
 * n * sps_spectrum_bytes() bytes; sub-byte spectra are only handed out
 * whole when a spectrum is a whole number of bytes, else n is rounded to
 * keep block starts on byte boundaries). */
/* Whether raw reads give the very values of sps_reader_read (not so for
 * PSRFITS data with scales and offsets); the GPU reads raw bytes. */
int sps_reader_raw_exact(const struct sps_reader *r);

enum sps_err sps_reader_read_raw(struct sps_reader *r, unsigned char *buf,
    size_t n, size_t *got);

/* Read up to n spectra as float32 (buf holds n * nifs * nchans floats). */
enum sps_err sps_reader_read(struct sps_reader *r, float *buf, size_t n,
    size_t *got);

/* Skip n spectra: a seek in a SIGPROC file, a read on a pipe. */
enum sps_err sps_reader_skip(struct sps_reader *r, uint64_t n);

void sps_reader_close(struct sps_reader *r);

/* An empty reader (nothing open), for the openers here and in join.h. */
void sps_reader_reset(struct sps_reader *r);

/* Is path a regular file that begins as FITS does?  0 when it cannot be
 * read, and for pipes (FITS is read through cfitsio, which seeks). */
int sps_reader_is_fits(const char *path);

/* Plug a format in: used by the SIGPROC and PSRFITS openers. */
enum sps_err sps_reader_attach_sigproc(struct sps_reader *r, FILE *f,
    const char *name, const unsigned char *prefix, size_t nprefix);
enum sps_err sps_reader_attach_psrfits(struct sps_reader *r, char *const
    *paths, int npaths);

#endif

/* fuzz-psrfits.c: the PSRFITS reader (psrfits.h) through cfitsio, from a
 * memory file.  psrfits.c opens its files with fits_open_diskfile
 * (ffdkopn); this harness is linked with -Wl,--wrap=ffdkopn, so that the
 * open lands in __wrap_ffdkopn below and cfitsio reads the fuzzer's
 * bytes with fits_open_memfile instead of a file on disk.  The same
 * bytes are also a regular file, by the name the reader is given,
 * because it compares the file's size (stat) with what its SUBINT table
 * claims. */
#include <fitsio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "psrfits.h"

/* cfitsio's memory driver copies whole 2880-byte blocks, where its disk
 * driver reads what the file holds: the buffer is zero-filled to whole
 * blocks, and cfitsio told its true length. */
#define FITS_BLOCK	2880

static void	*memfile;
static size_t	 memfile_len;

int __wrap_ffdkopn(fitsfile **fp, const char *name, int mode, int *status);
const char *__asan_default_options(void);

/* A failed allocation returns NULL, as glibc's does, rather than ending
 * the run: cfitsio asks for what a corrupt header says (and reports the
 * failure); a bug of sps's would show as an error after it. */
const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

int
__wrap_ffdkopn(fitsfile **fp, const char *name, int mode, int *status)
{
	return fits_open_memfile(fp, name, mode, &memfile, &memfile_len, 0,
	    NULL, status);
}

/* The options from the input's length, so that every path is taken. */
static void
choose_options(size_t size)
{
	struct sps_psrfits_options o;

	sps_psrfits_defaults(&o);
	o.keep_order = size & 1;
	o.fill = size & 2 ? SPS_FILL_ZERO : SPS_FILL_MEAN;
	o.weights = !(size & 4);
	o.pol = size & 8 ? 1 : SPS_POL_AUTO;
	sps_psrfits_set_options(&o);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct sps_reader r;
	char name[32], *paths[] = { name };
	int fd;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		return 0;
	if (size == 0 || fuzz_file(data, size, &fd, name) != 0)
		return 0;
	if ((memfile = calloc(size / FITS_BLOCK + 1, FITS_BLOCK)) == NULL) {
		fuzz_file_close(fd);
		return 0;
	}
	memcpy(memfile, data, size);
	memfile_len = size;
	choose_options(size);
	sps_reader_reset(&r);
	r.name = name;
	if (sps_reader_attach_psrfits(&r, paths, 1) == SPS_OK) {
		sps_psrfits_describe(devnull, sps_psrfits_info(&r));
		fuzz_read_data(&r, 256, 5);
	}
	sps_reader_close(&r);
	free(memfile);
	fuzz_file_close(fd);
	return 0;
}

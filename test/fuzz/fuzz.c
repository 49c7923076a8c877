/* fuzz.c: the harnesses' input as a stream or a regular file (fuzz.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "fuzz.h"
#include "reader.h"

FILE *
fuzz_stream(const uint8_t *data, size_t size)
{
	/* fmemopen refuses an empty buffer: an empty file reads the same */
	if (size == 0)
		return fopen("/dev/null", "rb");
	return fmemopen((void *)data, size, "rb");
}

int
fuzz_file(const uint8_t *data, size_t size, int *fd, char *path)
{
	size_t done = 0;
	ssize_t n;

	if ((*fd = memfd_create("sps-fuzz", MFD_CLOEXEC)) < 0)
		return -1;
	while (done < size) {
		if ((n = write(*fd, data + done, size - done)) <= 0) {
			close(*fd);
			return -1;
		}
		done += (size_t)n;
	}
	snprintf(path, 32, "/proc/self/fd/%d", *fd);
	return 0;
}

void
fuzz_file_close(int fd)
{
	close(fd);
}

void
fuzz_read_data(struct sps_reader *r, size_t block, uint64_t skip)
{
	size_t values = sps_spectrum_values(&r->hdr), n, got;
	unsigned char *raw;
	float *buf;

	if (values > FUZZ_MAX_VALUES)
		return;
	n = FUZZ_MAX_VALUES / values < block ? FUZZ_MAX_VALUES / values :
	    block;
	raw = malloc(n * sps_spectrum_bytes(&r->hdr));
	buf = malloc(n * values * sizeof(float));
	if (raw != NULL && buf != NULL &&
	    sps_reader_read_raw(r, raw, n, &got) == SPS_OK &&
	    sps_reader_skip(r, skip) == SPS_OK)
		while (sps_reader_read(r, buf, n, &got) == SPS_OK && got > 0)
			;
	free(raw);
	free(buf);
}

/* fuzz.c: the harnesses' input as a stream or a regular file (fuzz.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "fuzz.h"

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

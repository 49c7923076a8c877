/* pipewide.c: wide pipes (pipewide.h). */
#include <fcntl.h>
#include <sys/stat.h>

#include "pipewide.h"

#define PIPE_BYTES	(1 << 20)

void
sps_pipe_widen(int fd)
{
#ifdef F_SETPIPE_SZ
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
	    fcntl(fd, F_GETPIPE_SZ) < PIPE_BYTES)
		(void)fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES);
#else
	(void)fd;
#endif
}

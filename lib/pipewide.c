/* pipewide.c: wide pipes, fed by lending pages (pipewide.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>

#include "pipewide.h"

#define PIPE_BYTES	(1 << 20)

static int
is_pipe(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

void
sps_pipe_widen(int fd)
{
#ifdef F_SETPIPE_SZ
	if (is_pipe(fd) && fcntl(fd, F_GETPIPE_SZ) < PIPE_BYTES)
		(void)fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES);
#else
	(void)fd;
#endif
}

int
sps_pipe_can_lend(int fd)
{
#if defined(SPLICE_F_GIFT) && defined(FIONREAD)
	int flags = fcntl(fd, F_GETFL);

	return is_pipe(fd) && flags >= 0 && !(flags & O_NONBLOCK);
#else
	(void)fd;
	return 0;
#endif
}

ssize_t
sps_pipe_lend(int fd, const void *p, size_t n)
{
#ifdef SPLICE_F_GIFT
	struct iovec iov = { (void *)(uintptr_t)p, n };

	return vmsplice(fd, &iov, 1, 0);
#else
	(void)fd;
	(void)p;
	(void)n;
	errno = ENOSYS;
	return -1;
#endif
}

size_t
sps_pipe_unread(int fd)
{
	int n = 0;

#ifdef FIONREAD
	if (ioctl(fd, FIONREAD, &n) != 0 || n < 0)
		n = 0;
#else
	(void)fd;
#endif
	return (size_t)n;
}

void
sps_pipe_wait_drained(int fd)
{
	struct timespec nap = { 0, 100000 };
	struct pollfd pf = { fd, POLLOUT, 0 };

	/* POLLERR: the reader has gone, and with it the need to wait */
	while (sps_pipe_unread(fd) > 0 && (poll(&pf, 1, 0) < 0 ||
	    (pf.revents & (POLLERR | POLLNVAL)) == 0))
		nanosleep(&nap, NULL);
}

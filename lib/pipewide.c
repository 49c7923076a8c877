/* pipewide.c: wide pipes, fed by lending pages (pipewide.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>

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
#ifdef SPLICE_F_GIFT
	int flags = fcntl(fd, F_GETFL);

	return is_pipe(fd) && flags >= 0 && !(flags & O_NONBLOCK);
#else
	(void)fd;
	return 0;
#endif
}

void *
sps_pipe_pages(void *p, size_t n, size_t *len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *m;

	*len = (n + page - 1) / page * page;
	m = mmap(p, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
	    (p != NULL ? MAP_FIXED : 0), -1, 0);
	if (m == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(m, *len, MADV_HUGEPAGE);
#endif
	return m;
}

ssize_t
sps_pipe_lend(int fd, void *p, size_t n)
{
#ifdef SPLICE_F_GIFT
	unsigned char *at = p;
	size_t done = 0, len;
	ssize_t k = 0;
	int err;

	while (done < n) {
		struct iovec iov = { at + done, n - done };

		if ((k = vmsplice(fd, &iov, 1, 0)) < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		done += (size_t)k;
	}
	err = k < 0 ? errno : EIO;
	/* once all is lent (a page may go in two parts), or failing */
	if (done > 0 && sps_pipe_pages(p, done, &len) == NULL)
		return -1;
	errno = done < n ? err : 0;
	return done > 0 ? (ssize_t)done : -1;
#else
	(void)fd;
	(void)p;
	(void)n;
	errno = ENOSYS;
	return -1;
#endif
}

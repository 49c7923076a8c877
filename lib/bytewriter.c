/* bytewriter.c: blocks of bytes written by a thread (bytewriter.h).  To
 * a pipe, a slot of its own memory is lent (pipewide.h) rather than
 * copied, and fresh pages take its place. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bytewriter.h"
#include "clock.h"
#include "pipewide.h"

#define MAX_SLOTS	4

struct sps_bytewriter {
	FILE			*f;
	int			 fd;		/* f's descriptor if a pipe to
						 * lend to, else -1 */
	int			 nslots;
	struct sps_dmtime_scratch buf[MAX_SLOTS];
	const unsigned char	*data[MAX_SLOTS]; /* what is written of slot i */
	size_t			 bytes[MAX_SLOTS];
	int			 full[MAX_SLOTS]; /* handed over, not written */
	uint64_t		 written;	/* bytes, for the trace */
	int			 next;		/* the buffer handed out next */
	int			 stop;
	int			 err;		/* errno of a failed write, or 0 */
	pthread_t		 tid;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
};

/* Lend slot i's own pages to the pipe, when they are its own: the errno
 * of a failure, -1 when it could not lend them (write them instead),
 * or 0. */
static int
lend(struct sps_bytewriter *w, int i)
{
	ssize_t n;

	if (w->fd < 0 || w->data[i] != w->buf[i].raw)
		return -1;
	errno = 0;
	n = sps_pipe_lend(w->fd, w->buf[i].raw, w->bytes[i]);
	if (n == (ssize_t)w->bytes[i])
		return 0;
	if (n < 0 && (errno == EFAULT || errno == EINVAL ||
	    errno == ENOSYS)) {
		w->fd = -1;	/* a system that cannot lend: write */
		return -1;
	}
	return errno != 0 ? errno : EIO;
}

/* Write slot i; the errno of a failure, or 0. */
static int
write_slot(struct sps_bytewriter *w, int i)
{
	int err;

	if ((err = lend(w, i)) >= 0)
		return err;
	errno = 0;
	if (fwrite(w->data[i], 1, w->bytes[i], w->f) != w->bytes[i])
		return errno != 0 ? errno : EIO;
	return 0;
}

static void *
run(void *arg)
{
	struct sps_bytewriter *w = arg;
	int i = 0, failed;
	double t0;

	/* the header, before the blocks: the stream's buffer emptied */
	if (w->fd >= 0 && fflush(w->f) != 0)
		w->err = errno != 0 ? errno : EIO;
	for (;;) {
		pthread_mutex_lock(&w->mu);
		while (!w->full[i] && !w->stop)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->full[i]) {	/* stopped, everything written */
			pthread_mutex_unlock(&w->mu);
			break;
		}
		failed = w->err != 0;
		pthread_mutex_unlock(&w->mu);
		t0 = sps_clock();
		if (!failed && (failed = write_slot(w, i)) == 0)
			w->written += w->bytes[i];
		sps_trace("stream: %zu MB written in %.1f ms", w->bytes[i] >> 20,
		    (sps_clock() - t0) * 1e3);
		pthread_mutex_lock(&w->mu);
		if (failed && w->err == 0)
			w->err = failed;
		w->full[i] = 0;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		i = (i + 1) % w->nslots;
	}
	sps_trace("bytes written: %llu MB%s", (unsigned long long)(w->written
	    >> 20), w->fd >= 0 ? ", pages lent to the pipe" : "");
	return NULL;
}

enum sps_err
sps_bytewriter_start(struct sps_bytewriter **wp, FILE *f, int nslots)
{
	struct sps_bytewriter *w;

	*wp = NULL;
	if (nslots < 2 || nslots > MAX_SLOTS)
		return sps_fail(SPS_EVALUE, "a bytewriter of %d slots", nslots);
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	w->f = f;
	w->nslots = nslots;
	w->fd = sps_pipe_can_lend(fileno(f)) ? fileno(f) : -1;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	if (pthread_create(&w->tid, NULL, run, w) != 0) {
		pthread_mutex_destroy(&w->mu);
		pthread_cond_destroy(&w->cv);
		free(w);
		return sps_fail(SPS_ENOMEM, "cannot start a writing thread");
	}
	*wp = w;
	return SPS_OK;
}

static enum sps_err
write_failed(const struct sps_bytewriter *w)
{
	return sps_fail(SPS_EIO, "write error: %s", strerror(w->err));
}

enum sps_err
sps_bytewriter_next(struct sps_bytewriter *w,
    struct sps_dmtime_scratch **buf)
{
	int err;

	pthread_mutex_lock(&w->mu);
	while (w->full[w->next] && w->err == 0)
		pthread_cond_wait(&w->cv, &w->mu);
	err = w->err;
	pthread_mutex_unlock(&w->mu);
	if (err != 0)
		return write_failed(w);
	if (buf != NULL)
		*buf = &w->buf[w->next];
	return SPS_OK;
}

void
sps_bytewriter_submit(struct sps_bytewriter *w, const void *data,
    size_t bytes)
{
	pthread_mutex_lock(&w->mu);
	w->data[w->next] = data;
	w->bytes[w->next] = bytes;
	w->full[w->next] = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	w->next = (w->next + 1) % w->nslots;
}

/* Stop the thread once it has written what it holds (or dropped it,
 * with drop), and free w; the errno of a failed write, or 0. */
static int
stop(struct sps_bytewriter *w, int drop)
{
	int err, i;

	pthread_mutex_lock(&w->mu);
	w->stop = 1;
	if (drop && w->err == 0)
		w->err = ECANCELED;	/* the thread writes no more */
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->tid, NULL);
	err = w->err;
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	for (i = 0; i < w->nslots; i++)
		sps_dmtime_scratch_free(&w->buf[i]);
	free(w);
	return err;
}

/* bytes from src to dst by all threads: a block is tens or hundreds of
 * MB */
static void
copy_parallel(unsigned char *dst, const unsigned char *src, size_t bytes)
{
	size_t part = (size_t)1 << 22, nparts = (bytes + part - 1) / part;
	long k;

#pragma omp parallel for schedule(static)
	for (k = 0; k < (long)nparts; k++) {
		size_t at = (size_t)k * part;

		memcpy(dst + at, src + at, bytes - at < part ? bytes - at :
		    part);
	}
}

enum sps_err
sps_bytewriter_copy(struct sps_bytewriter *w, const void *data, size_t bytes)
{
	struct sps_dmtime_scratch *buf = NULL;
	double t0 = sps_clock(), t1;
	enum sps_err e;

	if ((e = sps_bytewriter_next(w, &buf)) != SPS_OK)
		return e;
	t1 = sps_clock();
	if (sps_dmtime_scratch_room(buf, bytes) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory for a block of %zu "
		    "bytes to write", bytes);
	copy_parallel(buf->raw, data, bytes);
	sps_bytewriter_submit(w, buf->raw, bytes);
	sps_trace("stream: a block copied in %.1f ms after %.1f ms waiting "
	    "for the writer", (sps_clock() - t1) * 1e3, (t1 - t0) * 1e3);
	return SPS_OK;
}

enum sps_err
sps_bytewriter_finish(struct sps_bytewriter *w)
{
	int err = stop(w, 0);

	if (err != 0)
		return sps_fail(SPS_EIO, "write error: %s", strerror(err));
	return SPS_OK;
}

void
sps_bytewriter_abort(struct sps_bytewriter *w)
{
	if (w != NULL)
		(void)stop(w, 1);
}

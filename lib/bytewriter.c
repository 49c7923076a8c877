/* bytewriter.c: blocks of bytes written by a thread (bytewriter.h).
 *
 * To a pipe, a slot's pages are lent (pipewide.h) rather than copied, and
 * the slot is handed back only once the reader has read past its last
 * byte: the bytes handed to the pipe so far, less those still in it. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bytewriter.h"
#include "clock.h"
#include "pipewide.h"

enum slot_state { FREE, SUBMITTED, LENT };

#define MAX_SLOTS	4

struct sps_bytewriter {
	FILE			*f;
	int			 fd;		/* f's descriptor if a pipe to
						 * lend to, else -1 */
	int			 lending;	/* until memory cannot be */
	int			 nslots;
	struct sps_dmtime_scratch buf[MAX_SLOTS];
	const unsigned char	*data[MAX_SLOTS]; /* what is written of slot i */
	size_t			 bytes[MAX_SLOTS];
	enum slot_state		 state[MAX_SLOTS];
	uint64_t		 end[MAX_SLOTS]; /* pushed after a LENT slot */
	int			 nlent;		/* slots LENT */
	uint64_t		 pushed;	/* bytes handed to the stream */
	int			 next;		/* the buffer handed out next */
	int			 stop;
	int			 err;		/* errno of a failed write, or 0 */
	pthread_t		 tid;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
};

/* Hand back the LENT slots the reader has read past; called locked. */
static void
release_read(struct sps_bytewriter *w)
{
	uint64_t read_to, unread;
	int i;

	if (w->nlent == 0)
		return;
	unread = sps_pipe_unread(w->fd);
	read_to = unread < w->pushed ? w->pushed - unread : 0;
	for (i = 0; i < w->nslots; i++)
		if (w->state[i] == LENT && read_to >= w->end[i]) {
			w->state[i] = FREE;
			w->nlent--;
			pthread_cond_broadcast(&w->cv);
		}
}

/* Wait, locked, for a change; while a slot is lent, only a moment, to
 * see whether the reader has read past it. */
static void
wait_locked(struct sps_bytewriter *w)
{
	struct timespec until;

	if (w->nlent == 0) {
		pthread_cond_wait(&w->cv, &w->mu);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 100000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&w->cv, &w->mu, &until);
	release_read(w);
}

/* Lend slot i's bytes to the pipe, as far as the system lets; the bytes
 * lent, or -1 on a write error (errno). */
static ssize_t
lend(struct sps_bytewriter *w, int i)
{
	size_t done = 0;
	ssize_t n;

	while (done < w->bytes[i]) {
		n = sps_pipe_lend(w->fd, w->data[i] + done, w->bytes[i] -
		    done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EFAULT || errno == EINVAL ||
		    errno == ENOSYS || errno == ENOMEM)) {
			w->lending = 0;	/* memory it cannot lend: write */
			break;
		}
		if (n <= 0)
			return -1;
		done += (size_t)n;
		pthread_mutex_lock(&w->mu);
		w->pushed += (uint64_t)n;
		release_read(w);
		pthread_mutex_unlock(&w->mu);
	}
	return (ssize_t)done;
}

/* Write slot i; the errno of a failure, or 0. */
static int
write_slot(struct sps_bytewriter *w, int i)
{
	ssize_t lent = 0;
	size_t rest;

	errno = 0;
	if (w->lending && (lent = lend(w, i)) < 0)
		return errno != 0 ? errno : EIO;
	rest = w->bytes[i] - (size_t)lent;
	/* flushed to a pipe, so that pushed counts only what is in it */
	if (rest > 0 && (fwrite(w->data[i] + lent, 1, rest, w->f) != rest ||
	    (w->fd >= 0 && fflush(w->f) != 0)))
		return errno != 0 ? errno : EIO;
	pthread_mutex_lock(&w->mu);
	w->pushed += rest;
	w->end[i] = w->pushed;
	w->state[i] = lent > 0 ? LENT : FREE;
	w->nlent += lent > 0;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return 0;
}

static void *
run(void *arg)
{
	struct sps_bytewriter *w = arg;
	int i = 0, failed;

	if (w->fd >= 0 && fflush(w->f) != 0)	/* the header, before */
		w->err = errno != 0 ? errno : EIO;
	if (w->fd >= 0)		/* what is in the pipe before ours */
		w->pushed = sps_pipe_unread(w->fd);
	for (;;) {
		pthread_mutex_lock(&w->mu);
		while (w->state[i] != SUBMITTED && !w->stop)
			wait_locked(w);
		if (w->state[i] != SUBMITTED) {	/* stopped, all written */
			pthread_mutex_unlock(&w->mu);
			break;
		}
		failed = w->err != 0;
		pthread_mutex_unlock(&w->mu);
		if (!failed)
			failed = write_slot(w, i);
		pthread_mutex_lock(&w->mu);
		if (failed && w->err == 0)
			w->err = failed;
		if (w->err != 0)
			w->state[i] = FREE;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		i = (i + 1) % w->nslots;
	}
	if (w->fd >= 0)		/* nothing lent may change before it is read */
		sps_pipe_wait_drained(w->fd);
	sps_trace("bytes written: %llu MB, %s", (unsigned long long)(w->pushed
	    >> 20), w->fd < 0 ? "not to a pipe" : w->lending ? "pages lent to "
	    "the pipe" : "copied to the pipe");
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
	w->lending = w->fd >= 0;
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
	while (w->state[w->next] != FREE && w->err == 0)
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
	w->state[w->next] = SUBMITTED;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	w->next = (w->next + 1) % w->nslots;
}

/* Stop the thread once it has written what it holds (or dropped it,
 * with drop) and the reader has read what was lent, and free w; the
 * errno of a failed write, or 0. */
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

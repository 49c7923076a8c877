/* bytewriter.c: blocks of bytes written by a thread (bytewriter.h). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bytewriter.h"

struct sps_bytewriter {
	FILE			*f;
	struct sps_dmtime_scratch buf[2];
	const unsigned char	*data[2];	/* what is written of slot i */
	size_t			 bytes[2];
	int			 full[2];	/* handed over, not yet written */
	int			 next;		/* the buffer handed out next */
	int			 stop;
	int			 err;		/* errno of a failed write, or -1 */
	pthread_t		 tid;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
};

static void *
run(void *arg)
{
	struct sps_bytewriter *w = arg;
	int i = 0, failed;

	for (;;) {
		pthread_mutex_lock(&w->mu);
		while (!w->full[i] && !w->stop)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->full[i]) {	/* stopped, everything written */
			pthread_mutex_unlock(&w->mu);
			return NULL;
		}
		failed = w->err != 0;
		pthread_mutex_unlock(&w->mu);
		errno = 0;
		if (!failed && fwrite(w->data[i], 1, w->bytes[i], w->f) !=
		    w->bytes[i])
			failed = errno != 0 ? errno : EIO;
		pthread_mutex_lock(&w->mu);
		if (failed && w->err == 0)
			w->err = failed;
		w->full[i] = 0;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		i = !i;
	}
}

enum sps_err
sps_bytewriter_start(struct sps_bytewriter **wp, FILE *f)
{
	struct sps_bytewriter *w;

	*wp = NULL;
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	w->f = f;
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
	w->next = !w->next;
}

/* Stop the thread once it has written what it holds (or dropped it,
 * with drop), and free w; the errno of a failed write, or 0. */
static int
stop(struct sps_bytewriter *w, int drop)
{
	int err;

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
	sps_dmtime_scratch_free(&w->buf[0]);
	sps_dmtime_scratch_free(&w->buf[1]);
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

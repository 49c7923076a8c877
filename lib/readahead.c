/* readahead.c: one block read ahead of the search (readahead.h).  Two
 * slots: the thread fills the one the caller does not hold.  It makes
 * each slot when it first needs it, so that the first block is read
 * while the second slot is not yet page-locked (tens of ms for hundreds
 * of MB). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "devices.h"
#include "readahead.h"

struct slot {
	void		*data;		/* NULL until first filled */
	int		 pinned;	/* data page-locked */
	size_t		 n;
	int		 full;		/* read, not yet handed out */
	enum sps_err	 e;
	char		 msg[512];	/* the reading thread's error */
};

struct sps_readahead {
	struct sps_dmtime_in	*in;
	struct slot		 slot[2];
	int			 next;		/* the slot handed out next */
	int			 held;		/* the slot the caller holds, or
						 * -1 */
	int			 stop;
	int			 pin;		/* slots page-locked, if they
						 * can be */
	int			 packed;	/* blocks as read, not unpacked */
	size_t			 bytes;		/* of a slot */
	pthread_t		 tid;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
};

/* Make slot s: page-locked where asked and possible, else ordinary
 * memory. */
static enum sps_err
make_slot(struct sps_readahead *r, struct slot *s)
{
	if (r->pin && sps_device_host_reserve(&s->data, r->bytes,
	    "blocks read ahead") == SPS_OK) {
		if (sps_device_host_register(s->data, r->bytes, "blocks "
		    "read ahead") == SPS_OK) {
			s->pinned = 1;
			sps_trace("read-ahead: a slot of %zu MB, page-locked",
			    r->bytes >> 20);
			return SPS_OK;
		}
		sps_device_host_free(s->data);
	}
	if ((s->data = malloc(r->bytes)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory for blocks of %zu "
		    "bytes", r->bytes);
	return SPS_OK;
}

/* Fill slot i; the end or an error ends the thread. */
static int
fill(struct sps_readahead *r, int i)
{
	struct slot *s = &r->slot[i];

	s->n = 0;
	s->e = s->data == NULL ? make_slot(r, s) : SPS_OK;
	if (s->e == SPS_OK)
		s->e = r->packed ? sps_dmtime_in_read_packed(r->in, s->data,
		    &s->n) : sps_dmtime_in_read(r->in, s->data, &s->n);
	sps_trace("read-ahead: a block of %zu samples", s->n);
	if (s->e != SPS_OK)
		snprintf(s->msg, sizeof(s->msg), "%s", sps_errmsg());
	return s->e != SPS_OK || s->n == 0;
}

static void *
run(void *arg)
{
	struct sps_readahead *r = arg;
	int i = 0, last;

	for (;;) {
		pthread_mutex_lock(&r->mu);
		while (!r->stop && (r->slot[i].full || r->held == i))
			pthread_cond_wait(&r->cv, &r->mu);
		if (r->stop) {
			pthread_mutex_unlock(&r->mu);
			return NULL;
		}
		pthread_mutex_unlock(&r->mu);
		last = fill(r, i);
		pthread_mutex_lock(&r->mu);
		r->slot[i].full = 1;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		if (last)
			return NULL;
		i = !i;
	}
}

static void
free_slots(struct sps_readahead *r)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (r->slot[i].pinned)
			sps_device_host_free(r->slot[i].data);
		else
			free(r->slot[i].data);
		r->slot[i].data = NULL;
	}
}

enum sps_err
sps_readahead_start(struct sps_readahead **rp, struct sps_dmtime_in *in,
    const struct sps_search *search)
{
	struct sps_readahead *r;

	*rp = NULL;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	r->in = in;
	r->held = -1;
	/* for the GPU: page-locked, an integer stream packed (but with
	 * SPS_GPU_HOST_UNPACK, for tests: unpacked here, as for the CPU) */
	r->pin = sps_search_on_gpu(search);
	r->packed = r->pin && getenv("SPS_GPU_HOST_UNPACK") == NULL &&
	    sps_dmtime_in_packed(in);
	r->bytes = (r->packed ? in->max_packed : in->max_values *
	    sizeof(float)) + 1;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	if (pthread_create(&r->tid, NULL, run, r) != 0) {
		pthread_mutex_destroy(&r->mu);
		pthread_cond_destroy(&r->cv);
		free(r);
		return sps_fail(SPS_ENOMEM, "cannot start a reading thread");
	}
	*rp = r;
	return SPS_OK;
}

enum sps_err
sps_readahead_next(struct sps_readahead *r, const void **data, size_t *n)
{
	struct slot *s = &r->slot[r->next];
	enum sps_err e;

	pthread_mutex_lock(&r->mu);
	if (r->held >= 0) {	/* the caller is done with it */
		r->slot[r->held].full = 0;
		r->held = -1;
		pthread_cond_broadcast(&r->cv);
	}
	while (!s->full)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
	*data = s->data;
	*n = s->n;
	if ((e = s->e) != SPS_OK)
		return sps_fail(e, "%s", s->msg);
	if (s->n > 0) {
		pthread_mutex_lock(&r->mu);
		r->held = r->next;
		pthread_mutex_unlock(&r->mu);
		r->next = !r->next;
	}
	return SPS_OK;
}

void
sps_readahead_stop(struct sps_readahead *r)
{
	if (r == NULL)
		return;
	pthread_mutex_lock(&r->mu);
	r->stop = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->tid, NULL);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free_slots(r);
	free(r);
}

enum sps_err
sps_readahead_feed(struct sps_readahead *r, struct sps_search *search,
    size_t *n)
{
	const void *data;
	enum sps_err e;

	if ((e = sps_readahead_next(r, &data, n)) != SPS_OK || *n == 0)
		return e;
	return r->packed ? sps_search_feed_packed(search, data, *n,
	    &r->in->hdr) : sps_search_feed(search, data, *n);
}

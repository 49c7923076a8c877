/* flood.c: flood flags (flood.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flood.h"

enum sps_err
sps_flood_init(struct sps_flood *f, double max_rate, double length,
    double tsamp)
{
	memset(f, 0, sizeof(*f));
	if (!(max_rate >= 0) || !(length > 0) || !(tsamp > 0) ||
	    !isfinite(max_rate * length))
		return sps_fail(SPS_EUSAGE, "bad flood rate %g or window %g s",
		    max_rate, length);
	f->max_rate = max_rate;
	f->length = length;
	f->tsamp = tsamp;
	f->limit = (uint64_t)floor(max_rate * length);
	f->current = -1;
	return SPS_OK;
}

void
sps_flood_free(struct sps_flood *f)
{
	free(f->buf);
	free(f->done);
	memset(f, 0, sizeof(*f));
}

static enum sps_err
report_window(struct sps_flood *f)
{
	struct sps_flood_window *w;

	if (f->ndone == f->capdone) {
		size_t cap = f->capdone ? 2 * f->capdone : 16;
		struct sps_flood_window *grown = realloc(f->done, cap *
		    sizeof(*grown));

		if (grown == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		f->done = grown;
		f->capdone = cap;
	}
	w = &f->done[f->ndone++];
	w->number = f->current;
	w->length = f->length;
	w->start = (double)f->current * f->length;
	w->count = f->count;
	return SPS_OK;
}

/* The current window is over: what it holds may go. */
static enum sps_err
close_window(struct sps_flood *f)
{
	enum sps_err e = SPS_OK;

	if (f->current >= 0 && f->flooded)
		e = report_window(f);
	f->ready = f->n;
	f->count = 0;
	f->flooded = 0;
	return e;
}

static enum sps_err
buffer(struct sps_flood *f, const struct sps_cand *c)
{
	if (f->pos > 0 && f->pos == f->n) {
		f->n = f->pos = f->ready = 0;
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		struct sps_cand *grown = realloc(f->buf, cap * sizeof(*grown));

		if (grown == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		f->buf = grown;
		f->cap = cap;
	}
	f->buf[f->n++] = *c;
	return SPS_OK;
}

enum sps_err
sps_flood_add(struct sps_flood *f, const struct sps_cand *c)
{
	int64_t w = (int64_t)floor(c->best.sample * f->tsamp / f->length);
	enum sps_err e;
	size_t i;

	if (f->max_rate <= 0) {
		if ((e = buffer(f, c)) == SPS_OK)
			f->ready = f->n;
		return e;
	}
	if (w > f->current) {
		if ((e = close_window(f)) != SPS_OK)
			return e;
		f->current = w;
	}
	if ((e = buffer(f, c)) != SPS_OK)
		return e;
	f->count++;
	if (!f->flooded && f->count > f->limit) {
		f->flooded = 1;
		f->windows++;
		for (i = f->ready; i < f->n - 1; i++) {
			f->buf[i].flood = 1;
			f->buf[i].flood_window = f->current;
			f->flagged++;
		}
	}
	if (f->flooded) {
		f->buf[f->n - 1].flood = 1;
		f->buf[f->n - 1].flood_window = f->current;
		f->flagged++;
		f->ready = f->n;
	}
	return SPS_OK;
}

void
sps_flood_finish(struct sps_flood *f)
{
	if (f->max_rate > 0 && f->current >= 0 && f->flooded &&
	    report_window(f) != SPS_OK)
		f->flooded = 0;	/* out of memory for the report only */
	f->ready = f->n;
	f->count = 0;
	f->flooded = 0;
}

int
sps_flood_next(struct sps_flood *f, struct sps_cand *c)
{
	if (f->pos >= f->ready)
		return 0;
	*c = f->buf[f->pos++];
	return 1;
}

int
sps_flood_report(struct sps_flood *f, struct sps_flood_window *w)
{
	if (f->posdone >= f->ndone) {
		f->ndone = f->posdone = 0;
		return 0;
	}
	*w = f->done[f->posdone++];
	return 1;
}

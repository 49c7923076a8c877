/* events.c: the text event stream (events.h). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"

static const char columns[] = "# dm_index dm sample time width snr";

enum sps_err
sps_events_write_header(FILE *f, const struct sps_events_meta *m)
{
	fprintf(f, "# sps-events 1\n");
	fprintf(f, "# input %s\n", m->input[0] != '\0' ? m->input : "stdin");
	fprintf(f, "# source_name %s\n", m->source_name[0] != '\0' ?
	    m->source_name : "unknown");
	fprintf(f, "# tstart %.15g\n# tsamp %.15g\n", m->tstart, m->tsamp);
	fprintf(f, "# fch1 %.15g\n# foff %.15g\n# nchans %d\n", m->fch1,
	    m->foff, m->nchans);
	fprintf(f, "# ndms %d\n# dm_lo %.15g\n# dm_hi %.15g\n", m->ndms,
	    m->dm_lo, m->dm_hi);
	fprintf(f, "# nsamples %" PRIu64 "\n# threshold %.15g\n", m->nsamples,
	    m->threshold);
	fprintf(f, "# algorithm %s\n# max_width %d\n", m->algorithm[0] !=
	    '\0' ? m->algorithm : "unknown", m->max_width);
	fprintf(f, "%s\n", columns);
	if (ferror(f))
		return sps_fail(SPS_EIO, "write error: %s", strerror(errno));
	return SPS_OK;
}

enum sps_err
sps_events_write(FILE *f, const struct sps_event *e)
{
	if (fprintf(f, "%d %.6f %" PRIu64 " %.9f %d %.4f\n", e->dm_index,
	    e->dm, e->sample, e->time, e->width, e->snr) < 0)
		return sps_fail(SPS_EIO, "write error: %s", strerror(errno));
	return SPS_OK;
}

static void
copy_word(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
	dst[strcspn(dst, "\r\n")] = '\0';
}

/* The header's keys and where their values go. */
enum field_kind { TEXT, REAL, COUNT, COUNT64 };
#define FIELD(key, kind) { #key, kind, offsetof(struct sps_events_meta, \
	key), sizeof(((struct sps_events_meta *)0)->key) }
static const struct header_field {
	const char	*key;
	enum field_kind	 kind;
	size_t		 at, size;
} header_fields[] = {
	FIELD(input, TEXT), FIELD(source_name, TEXT), FIELD(algorithm, TEXT),
	FIELD(tstart, REAL), FIELD(tsamp, REAL), FIELD(fch1, REAL),
	FIELD(foff, REAL), FIELD(dm_lo, REAL), FIELD(dm_hi, REAL),
	FIELD(threshold, REAL), FIELD(nchans, COUNT), FIELD(ndms, COUNT),
	FIELD(max_width, COUNT), FIELD(nsamples, COUNT64),
};

/* A header number: the whole value (up to the line's end) is one finite
 * number, and a count is a whole one in range, or the header is
 * corrupt. */
static enum sps_err
header_number(const struct header_field *hf, const char *value, double *v)
{
	double most = hf->kind == COUNT ? INT_MAX : 0x1p62;
	char *end;

	errno = 0;
	*v = strtod(value, &end);
	end += strspn(end, " \t\r\n");
	if (end == value || *end != '\0' || errno != 0 || !isfinite(*v))
		return sps_fail(SPS_EFORMAT, "event stream header: %s '%.*s' "
		    "is not a number", hf->key, (int)strcspn(value, "\r\n"),
		    value);
	if (hf->kind != REAL && (*v < 0 || *v > most || *v != floor(*v)))
		return sps_fail(SPS_EFORMAT, "event stream header: %s %g is not "
		    "a count from 0 to %g", hf->key, *v, most);
	return SPS_OK;
}

/* Unknown keys are skipped (later versions may add some). */
static enum sps_err
header_line(struct sps_events_meta *m, const char *key, const char *value)
{
	const struct header_field *hf;
	char *dst;
	enum sps_err e;
	double v;
	size_t i;

	for (i = 0; i < sizeof(header_fields) / sizeof(header_fields[0]); i++) {
		hf = &header_fields[i];
		dst = (char *)m + hf->at;
		if (strcmp(key, hf->key) != 0)
			continue;
		if (hf->kind == TEXT) {
			copy_word(dst, hf->size, value);
			return SPS_OK;
		}
		if ((e = header_number(hf, value, &v)) != SPS_OK)
			return e;
		if (hf->kind == REAL)
			*(double *)(void *)dst = v;
		else if (hf->kind == COUNT)
			*(int *)(void *)dst = (int)v;
		else
			*(uint64_t *)(void *)dst = (uint64_t)v;
		return SPS_OK;
	}
	return SPS_OK;
}

enum sps_err
sps_events_read_header(FILE *f, struct sps_events_meta *m)
{
	char line[512], key[64];
	enum sps_err e;
	int n;

	memset(m, 0, sizeof(*m));
	if (fgets(line, sizeof(line), f) == NULL ||
	    strncmp(line, "# sps-events 1", 14) != 0)
		return sps_fail(SPS_EFORMAT, "not an sps event stream (no "
		    "\"# sps-events 1\" line)");
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, columns, sizeof(columns) - 1) == 0)
			return SPS_OK;
		if (sscanf(line, "# %63s %n", key, &n) != 1)
			return sps_fail(SPS_EFORMAT, "event stream header: bad "
			    "line '%.40s'", line);
		if ((e = header_line(m, key, line + n)) != SPS_OK)
			return e;
	}
	return sps_fail(SPS_ETRUNC, "event stream ends inside its header");
}

enum sps_err
sps_events_read(FILE *f, struct sps_event *e)
{
	char line[256];

	if (fgets(line, sizeof(line), f) == NULL) {
		if (ferror(f))
			return sps_fail(SPS_EIO, "read error: %s",
			    strerror(errno));
		return SPS_EEOF;
	}
	if (strchr(line, '\n') == NULL)
		return sps_fail(SPS_ETRUNC, "event stream cut short in the "
		    "line '%.60s'", line);
	if (sscanf(line, "%d %lf %" SCNu64 " %lf %d %f", &e->dm_index, &e->dm,
	    &e->sample, &e->time, &e->width, &e->snr) != 6 ||
	    e->dm_index < 0 || e->width < 1)
		return sps_fail(SPS_EFORMAT, "bad event line '%.60s'",
		    strtok(line, "\n"));
	return SPS_OK;
}

/* Through the text and back, in memory. */
enum sps_err
sps_events_as_written(struct sps_events_meta *m, struct sps_event *e,
    size_t n)
{
	enum sps_err err = SPS_OK;
	size_t len = 0, i;
	char *text = NULL;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if (m != NULL)
		err = sps_events_write_header(f, m);
	for (i = 0; i < n && err == SPS_OK; i++)
		err = sps_events_write(f, &e[i]);
	if (fclose(f) != 0 && err == SPS_OK)
		err = sps_fail(SPS_ENOMEM, "out of memory");
	if (err == SPS_OK && (f = fmemopen(text, len, "r")) == NULL)
		err = sps_fail(SPS_ENOMEM, "out of memory");
	if (err == SPS_OK) {
		if (m != NULL)
			err = sps_events_read_header(f, m);
		for (i = 0; i < n && err == SPS_OK; i++)
			err = sps_events_read(f, &e[i]);
		fclose(f);
	}
	free(text);
	return err;
}

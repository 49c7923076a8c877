/* events.c: the text event stream (events.h). */
#include <errno.h>
#include <inttypes.h>
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

static void
header_line(struct sps_events_meta *m, const char *key, const char *value)
{
	if (strcmp(key, "input") == 0)
		copy_word(m->input, sizeof(m->input), value);
	else if (strcmp(key, "source_name") == 0)
		copy_word(m->source_name, sizeof(m->source_name), value);
	else if (strcmp(key, "algorithm") == 0)
		copy_word(m->algorithm, sizeof(m->algorithm), value);
	else if (strcmp(key, "tstart") == 0)
		m->tstart = strtod(value, NULL);
	else if (strcmp(key, "tsamp") == 0)
		m->tsamp = strtod(value, NULL);
	else if (strcmp(key, "fch1") == 0)
		m->fch1 = strtod(value, NULL);
	else if (strcmp(key, "foff") == 0)
		m->foff = strtod(value, NULL);
	else if (strcmp(key, "nchans") == 0)
		m->nchans = atoi(value);
	else if (strcmp(key, "ndms") == 0)
		m->ndms = atoi(value);
	else if (strcmp(key, "dm_lo") == 0)
		m->dm_lo = strtod(value, NULL);
	else if (strcmp(key, "dm_hi") == 0)
		m->dm_hi = strtod(value, NULL);
	else if (strcmp(key, "nsamples") == 0)
		m->nsamples = strtoull(value, NULL, 10);
	else if (strcmp(key, "threshold") == 0)
		m->threshold = strtod(value, NULL);
	else if (strcmp(key, "max_width") == 0)
		m->max_width = atoi(value);
}

enum sps_err
sps_events_read_header(FILE *f, struct sps_events_meta *m)
{
	char line[512], key[64];
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
		header_line(m, key, line + n);
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

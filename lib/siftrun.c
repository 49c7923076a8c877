/* siftrun.c: an event stream through the sift into a sink (siftrun.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "siftrun.h"

static enum sps_err
open_file(struct sps_sift_input *in, const char *path)
{
	if (strcmp(path, "-") == 0) {
		in->f = stdin;
		in->name = "stdin";
		return SPS_OK;
	}
	in->name = path;
	if ((in->f = fopen(path, "r")) == NULL)
		return sps_fail(SPS_EIO, "%s: %s", path, strerror(errno));
	return SPS_OK;
}

enum sps_err
sps_sift_input_open(struct sps_sift_input *in, const char *path)
{
	enum sps_err e;
	int c;

	memset(in, 0, sizeof(*in));
	if ((e = open_file(in, path)) != SPS_OK)
		return e;
	if ((c = getc(in->f)) == EOF) {
		if (sps_fail_empty(in->f, in->name) == SPS_EUPSTREAM)
			return SPS_EUPSTREAM;
		return sps_fail(SPS_ETRUNC, "%s: empty input: no event stream",
		    in->name);
	}
	ungetc(c, in->f);
	if ((e = sps_events_read_header(in->f, &in->meta)) != SPS_OK)
		return sps_fail(e, "%s: %s", in->name, sps_errmsg());
	if (!(in->meta.tsamp > 0) || !isfinite(in->meta.tsamp))
		return sps_fail(SPS_EVALUE, "%s: event stream header: tsamp %g "
		    "is not a positive number of seconds", in->name,
		    in->meta.tsamp);
	return SPS_OK;
}

void
sps_sift_input_close(struct sps_sift_input *in)
{
	if (in->f != NULL && in->f != stdin)
		fclose(in->f);
	in->f = NULL;
}

/* The candidates ready, to the sink; warnings of floods that are over. */
static enum sps_err
pass_ready(struct sps_sift *s, struct sps_cand_sink *sink,
    const char *sink_name, FILE *warn)
{
	struct sps_cand c;
	enum sps_err e;

	while (sps_sift_next(s, &c))
		if ((e = sps_cand_sink_put(sink, &c)) != SPS_OK)
			return sink_name == NULL ? e : sps_fail(e, "%s: %s",
			    sink_name, sps_errmsg());
	sps_sift_warn(s, warn);
	return SPS_OK;
}

static enum sps_err
add_event(struct sps_sift *s, const struct sps_sift_input *in,
    const struct sps_event *ev, uint64_t n)
{
	if (in->meta.ndms > 0 && ev->dm_index >= in->meta.ndms)
		return sps_fail(SPS_EFORMAT, "%s: event %" PRIu64 ": DM trial "
		    "%d, but the stream has %d trials", in->name, n,
		    ev->dm_index, in->meta.ndms);
	if (sps_sift_add(s, ev) != SPS_OK)
		return sps_fail(SPS_EVALUE, "%s: event %" PRIu64 ": %s",
		    in->name, n, sps_errmsg());
	return SPS_OK;
}

enum sps_err
sps_sift_run(struct sps_sift *s, struct sps_sift_input *in,
    struct sps_cand_sink *sink, const char *sink_name, FILE *warn)
{
	struct sps_event ev;
	enum sps_err e;
	uint64_t n = 0;

	while ((e = sps_events_read(in->f, &ev)) == SPS_OK) {
		if ((e = add_event(s, in, &ev, ++n)) != SPS_OK ||
		    (e = pass_ready(s, sink, sink_name, warn)) != SPS_OK)
			return e;
	}
	if (e != SPS_EEOF)
		return sps_fail(e, "%s: event %" PRIu64 ": %s", in->name,
		    n + 1, sps_errmsg());
	if ((e = sps_sift_finish(s)) != SPS_OK ||
	    (e = pass_ready(s, sink, sink_name, warn)) != SPS_OK)
		return e;
	sps_sift_end(s);	/* the last flood window is over too */
	return pass_ready(s, sink, sink_name, warn);
}

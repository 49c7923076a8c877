/* candfile.c: candidate files (candfile.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "candfile.h"
#include "writer.h"

enum sps_err
sps_cand_format_parse(const char *name, enum sps_cand_format *fmt)
{
	static const char *names[] = { "text", "heimdall", "presto",
	    "fetch" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0) {
			*fmt = (enum sps_cand_format)i;
			return SPS_OK;
		}
	return sps_fail(SPS_EUSAGE, "unknown format '%s' (text, heimdall, "
	    "presto or fetch)", name);
}

void
sps_cand_out_init(struct sps_cand_out *o, enum sps_cand_format fmt, FILE *f,
    double tsamp)
{
	memset(o, 0, sizeof(*o));
	o->format = fmt;
	o->f = f;
	o->tsamp = tsamp;
	o->data_file = "";
	o->last_flood = -1;
}

static enum sps_err
io(int status)
{
	if (status < 0)
		return sps_fail(SPS_EIO, "write error");
	return SPS_OK;
}

/* Which instant the times give, after the header line of the formats
 * whose readers skip '#' lines (Heimdall's and FETCH's do not). */
static const char text_time_note[] = "# time_s = sample * tsamp, s after "
    "tstart: the start of the best boxcar (its first sample), at the "
    "centre of the highest channel\n";
static const char presto_time_note[] = "# Time (s) = Sample * tsamp, s after "
    "tstart: the centre of the best boxcar (Sample = its first sample + "
    "Downfact / 2, rounded down), at the centre of the highest channel\n";

/* The text table: column names right-aligned over their columns. */
static enum sps_err
text_header(FILE *f)
{
	char line[256];

	snprintf(line, sizeof(line), "%15s %12s %6s %8s %10s %8s %8s %12s "
	    "%12s %10s %10s %5s", "time_s", "sample", "width", "snr", "dm",
	    "dm_index", "members", "first_sample", "last_sample", "dm_min",
	    "dm_max", "flood");
	line[0] = '#';
	return io(fprintf(f, "%s\n%s", line, text_time_note));
}

static const char presto_header[] =
    "# DM      Sigma      Time (s)     Sample    Downfact\n";

static void
csv_field(FILE *f, const char *s)
{
	const char *p;

	if (s[strcspn(s, ",\"\r\n")] == '\0' && s[0] != ' ' &&
	    (s[0] == '\0' || s[strlen(s) - 1] != ' ')) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (p = s; *p != '\0'; p++) {
		if (*p == '"')
			putc('"', f);
		putc(*p, f);
	}
	putc('"', f);
}

enum sps_err
sps_cand_out_begin(struct sps_cand_out *o)
{
	o->begun = 1;
	switch (o->format) {
	case SPS_CAND_TEXT:
		return text_header(o->f);
	case SPS_CAND_FETCH:
		return io(fprintf(o->f, "file,snr,stime,width,dm,label,"
		    "chan_mask_path,num_files%s\n", o->flood_column ?
		    ",flood" : ""));
	default:
		return SPS_OK;
	}
}

static enum sps_err
flood_comment(struct sps_cand_out *o, const struct sps_cand *c)
{
	double start = (double)c->flood_window * o->flood_length;

	if (!c->flood || c->flood_window == o->last_flood ||
	    o->format == SPS_CAND_FETCH)
		return SPS_OK;
	o->last_flood = c->flood_window;
	return io(fprintf(o->f, "# FLOOD: more than %.0f candidates between "
	    "%.6f and %.6f s (--max-rate %g per s): the candidates of this "
	    "interval are flagged\n", floor(o->max_rate * o->flood_length),
	    start, start + o->flood_length, o->max_rate));
}

static enum sps_err
write_row(struct sps_cand_out *o, const struct sps_cand *c)
{
	const struct sps_event *b = &c->best;
	uint64_t mid = sps_cand_centre(b);

	switch (o->format) {
	case SPS_CAND_TEXT:
		return io(fprintf(o->f, "%15.9f %12" PRIu64 " %6d %8.2f %10.3f "
		    "%8d %8" PRIu64 " %12" PRIu64 " %12" PRIu64 " %10.3f "
		    "%10.3f %5d\n", (double)b->sample * o->tsamp, b->sample,
		    b->width, b->snr, b->dm, b->dm_index, c->members,
		    c->first_sample, c->last_sample, c->dm_min, c->dm_max,
		    c->flood));
	case SPS_CAND_HEIMDALL:
		return io(fprintf(o->f, "%g\t%" PRIu64 "\t%.10g\t%d\t%d\t%g\t%"
		    PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t\n", b->snr, mid,
		    (double)mid * o->tsamp, sps_cand_filter(b->width),
		    b->dm_index, b->dm, c->members, c->first_sample,
		    c->last_sample + 1));
	case SPS_CAND_PRESTO:
		return io(fprintf(o->f, "%7.2f %7.2f %13.6f %10" PRIu64
		    "     %3d\n", b->dm, b->snr, (double)mid * o->tsamp, mid,
		    b->width));
	case SPS_CAND_FETCH:
		csv_field(o->f, o->data_file);
		fprintf(o->f, ",%.4f,%.9f,%d,%.6f,0,", b->snr, (double)mid *
		    o->tsamp, sps_cand_filter(b->width), b->dm);
		if (o->chan_mask != NULL)
			csv_field(o->f, o->chan_mask);
		if (o->flood_column)
			return io(fprintf(o->f, ",1,%d\n", c->flood));
		return io(fprintf(o->f, ",1\n"));
	}
	return sps_fail(SPS_EUSAGE, "unknown candidate format");
}

enum sps_err
sps_cand_out_write(struct sps_cand_out *o, const struct sps_cand *c)
{
	enum sps_err e;

	if (!o->begun && (e = sps_cand_out_begin(o)) != SPS_OK)
		return e;
	if (o->format == SPS_CAND_PRESTO && o->written == 0 &&
	    (e = io(fprintf(o->f, "%s%s", presto_header, presto_time_note))) !=
	    SPS_OK)
		return e;
	if ((e = flood_comment(o, c)) != SPS_OK ||
	    (e = write_row(o, c)) != SPS_OK)
		return e;
	o->written++;
	return SPS_OK;
}

enum sps_err
sps_cand_out_finish(struct sps_cand_out *o)
{
	return o->begun ? SPS_OK : sps_cand_out_begin(o);
}

enum sps_err
sps_fetch_mask_write(FILE *f, const unsigned char *kill, int nchans)
{
	int i;

	for (i = 0; kill != NULL && i < nchans; i++)
		if (kill[i] && fprintf(f, "%d\n", i) < 0)
			return sps_fail(SPS_EIO, "write error");
	return SPS_OK;
}

enum sps_err
sps_fetch_mask_save(const char *path, const unsigned char *kill, int nchans)
{
	struct sps_writer w;
	enum sps_err e;

	if ((e = sps_writer_open(&w, path)) != SPS_OK)
		return e;
	if (sps_fetch_mask_write(w.f, kill, nchans) != SPS_OK) {
		sps_writer_abort(&w);
		return sps_fail(SPS_EIO, "%s: write error", path);
	}
	return sps_writer_close(&w);
}

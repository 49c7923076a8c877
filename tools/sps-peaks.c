/* sps-peaks: cluster boxcar events into candidates and write them as a
 * table, Heimdall .cand, PRESTO .singlepulse or FETCH CSV. */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "candfile.h"
#include "cli.h"
#include "events.h"
#include "flood.h"
#include "killmask.h"
#include "peaks.h"
#include "writer.h"

#define MAX_FLOOD_LINES	20	/* flood warnings printed one by one */

static const char usage_text[] =
    "usage: sps-peaks [-q] [-s SNR] [--format text|heimdall|presto|fetch]\n"
    "           [-o FILE | --per-dm PREFIX] [--cand-sep-time N]\n"
    "           [--cand-sep-filter N] [--cand-sep-dm N] [--no-cluster]\n"
    "           [--window S] [--min-members N] [--max-width W] [--min-dm DM]\n"
    "           [--max-rate R [--flood-window S]] [--data FILE]\n"
    "           [-k KILLFILE] [--killmask-out FILE] [FILE]\n";

struct options {
	const char		*input;
	const char		*output;
	const char		*per_dm;
	enum sps_cand_format	 format;
	double			 threshold;
	int			 have_threshold;
	struct sps_peaks_opts	 peaks;
	double			 window_s;
	struct sps_cuts		 cuts;
	double			 max_rate;
	double			 flood_length;
	const char		*data_file;
	const char		*killfile;
	const char		*killmask_out;
	int			 quiet;
};

/* Where candidates go: one stream, or (--per-dm) held for one file per
 * DM at the end. */
struct sink {
	struct sps_writer	 w;
	struct sps_cand_out	 out;
	struct sps_cand		*held;
	size_t			 nheld, capheld;
	uint64_t		 cut[4];	/* by enum sps_cut */
	uint64_t		 written;
	uint64_t		 flood_lines;
	int			 begun;		/* output header written */
};

/* The output being written, removed if the run fails. */
static struct sps_writer *unfinished;

static void
remove_unfinished(void)
{
	if (unfinished != NULL && unfinished->f != NULL &&
	    unfinished->f != stdout)
		sps_writer_abort(unfinished);
}

static void
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr, "%s", usage_text);
	exit(status);
}

enum {
	OPT_FORMAT = 256, OPT_PER_DM, OPT_SEP_TIME, OPT_SEP_FILTER, OPT_SEP_DM,
	OPT_NO_CLUSTER, OPT_WINDOW, OPT_MIN_MEMBERS, OPT_MAX_WIDTH, OPT_MIN_DM,
	OPT_MAX_RATE, OPT_FLOOD_WINDOW, OPT_DATA, OPT_KILLMASK_OUT, OPT_VERSION
};

static const struct option longopts[] = {
	{ "cand-sep-dm", required_argument, NULL, OPT_SEP_DM },
	{ "cand_sep_dm_trial", required_argument, NULL, OPT_SEP_DM },
	{ "cand-sep-filter", required_argument, NULL, OPT_SEP_FILTER },
	{ "cand_sep_filter", required_argument, NULL, OPT_SEP_FILTER },
	{ "cand-sep-time", required_argument, NULL, OPT_SEP_TIME },
	{ "cand_sep_time", required_argument, NULL, OPT_SEP_TIME },
	{ "data", required_argument, NULL, OPT_DATA },
	{ "flood-window", required_argument, NULL, OPT_FLOOD_WINDOW },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "help", no_argument, NULL, 'h' },
	{ "killmask", required_argument, NULL, 'k' },
	{ "killmask-out", required_argument, NULL, OPT_KILLMASK_OUT },
	{ "max-rate", required_argument, NULL, OPT_MAX_RATE },
	{ "max-width", required_argument, NULL, OPT_MAX_WIDTH },
	{ "min-dm", required_argument, NULL, OPT_MIN_DM },
	{ "min-members", required_argument, NULL, OPT_MIN_MEMBERS },
	{ "no-cluster", no_argument, NULL, OPT_NO_CLUSTER },
	{ "output", required_argument, NULL, 'o' },
	{ "per-dm", required_argument, NULL, OPT_PER_DM },
	{ "quiet", no_argument, NULL, 'q' },
	{ "threshold", required_argument, NULL, 's' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ NULL, 0, NULL, 0 }
};

static void
parse_long(struct options *o, int ch)
{
	switch (ch) {
	case OPT_DATA:
		o->data_file = optarg;
		break;
	case OPT_FLOOD_WINDOW:
		o->flood_length = cli_double(optarg, "--flood-window", 1e-6,
		    1e6);
		break;
	case OPT_FORMAT:
		if (sps_cand_format_parse(optarg, &o->format) != SPS_OK)
			cli_usage_error(usage_text, "--format: %s",
			    sps_errmsg());
		break;
	case OPT_KILLMASK_OUT:
		o->killmask_out = optarg;
		break;
	case OPT_MAX_RATE:
		o->max_rate = cli_double(optarg, "--max-rate", 0, 1e9);
		break;
	case OPT_MAX_WIDTH:
		o->cuts.max_width = (int)cli_long(optarg, "--max-width", 0,
		    1 << 30);
		break;
	case OPT_MIN_DM:
		o->cuts.min_dm = cli_double(optarg, "--min-dm", 0, 1e6);
		break;
	case OPT_MIN_MEMBERS:
		o->cuts.min_members = (uint64_t)cli_long(optarg,
		    "--min-members", 0, INT64_MAX);
		break;
	case OPT_NO_CLUSTER:
		o->peaks.cluster = 0;
		break;
	case OPT_PER_DM:
		o->per_dm = optarg;
		break;
	case OPT_SEP_DM:
		o->peaks.sep_dm = (int)cli_long(optarg, "--cand-sep-dm", 0,
		    1 << 30);
		break;
	case OPT_SEP_FILTER:
		o->peaks.sep_filter = cli_double(optarg, "--cand-sep-filter",
		    0, 30);
		break;
	case OPT_SEP_TIME:
		o->peaks.sep_time = cli_double(optarg, "--cand-sep-time", 0,
		    1e6);
		break;
	case OPT_VERSION:
		cli_version();
		break;
	case OPT_WINDOW:
		o->window_s = cli_double(optarg, "--window", 0, 1e7);
		break;
	default:
		usage(2);
	}
}

static void
parse_options(struct options *o, int argc, char **argv)
{
	int ch;

	memset(o, 0, sizeof(*o));
	sps_peaks_defaults(&o->peaks);
	o->format = SPS_CAND_TEXT;
	o->flood_length = 1;
	while ((ch = getopt_long(argc, argv, "hk:o:qs:", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'h':
			usage(0);
			break;
		case 'k':
			o->killfile = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 's':
			o->threshold = cli_double(optarg, "-s", 0, 1e6);
			o->have_threshold = 1;
			break;
		default:
			parse_long(o, ch);
		}
	}
	o->input = cli_input(argc, argv, usage_text);
	if (o->per_dm != NULL) {
		if (o->output != NULL)
			cli_usage_error(usage_text, "give -o FILE or --per-dm "
			    "PREFIX, not both");
		if (o->format != SPS_CAND_TEXT && o->format != SPS_CAND_PRESTO)
			cli_usage_error(usage_text, "--per-dm writes PRESTO "
			    ".singlepulse files only");
		o->format = SPS_CAND_PRESTO;
	}
	if (o->format == SPS_CAND_FETCH && o->data_file == NULL)
		cli_usage_error(usage_text, "--format fetch needs --data FILE, "
		    "the filterbank or PSRFITS file FETCH cuts candidates from");
}

static FILE *
open_input(const char *path, const char **name)
{
	FILE *f;
	int c;

	if (strcmp(path, "-") == 0) {
		f = stdin;
		*name = "stdin";
	} else if ((f = fopen(path, "r")) == NULL) {
		err(1, "%s", path);
	} else {
		*name = path;
	}
	if ((c = getc(f)) == EOF)
		errx(1, "%s: empty input: no event stream", *name);
	ungetc(c, f);
	return f;
}

static void
read_meta(FILE *f, const char *name, struct sps_events_meta *m)
{
	cli_check(sps_events_read_header(f, m), name);
	if (!(m->tsamp > 0) || !isfinite(m->tsamp))
		errx(1, "%s: event stream header: tsamp %g is not a positive "
		    "number of seconds", name, m->tsamp);
}

/* FETCH's channel mask: from the kill file if given, else no channel. */
static void
write_fetch_mask(const struct options *o, const struct sps_events_meta *m)
{
	unsigned char *kill = NULL;
	struct sps_writer w;
	FILE *f;

	if (o->killfile != NULL) {
		if (m->nchans < 1)
			errx(1, "-k %s: the event stream does not say how many "
			    "channels the data have", o->killfile);
		if ((f = fopen(o->killfile, "r")) == NULL)
			err(1, "%s", o->killfile);
		if ((kill = calloc((size_t)m->nchans, 1)) == NULL)
			err(1, NULL);
		cli_check(sps_killmask_read(f, o->killfile, m->nchans, kill),
		    NULL);
		fclose(f);
	}
	if (o->killmask_out == NULL) {
		free(kill);
		return;
	}
	cli_check(sps_writer_open(&w, o->killmask_out), NULL);
	if (sps_fetch_mask_write(w.f, kill, m->nchans) != SPS_OK) {
		sps_writer_abort(&w);
		errx(1, "%s: write error", o->killmask_out);
	}
	cli_check(sps_writer_close(&w), NULL);
	free(kill);
}

static void
open_sink(struct sink *s, const struct options *o,
    const struct sps_events_meta *m)
{
	memset(s, 0, sizeof(*s));
	if (o->per_dm != NULL)
		return;
	cli_check(sps_writer_open(&s->w, o->output), NULL);
	unfinished = &s->w;
	sps_cand_out_init(&s->out, o->format, s->w.f, m->tsamp);
	s->out.data_file = o->data_file;
	s->out.chan_mask = o->killmask_out;
	s->out.flood_column = o->max_rate > 0;
	s->out.max_rate = o->max_rate;
	s->out.flood_length = o->flood_length;
}

/* The table's header waits for the first row or the end of a good run,
 * so that bad input found early leaves the output empty. */
static void
begin_output(struct sink *s, const struct options *o)
{
	if (s->begun)
		return;
	s->begun = 1;
	if (sps_cand_out_begin(&s->out) != SPS_OK)
		errx(1, "%s: write error", o->output ? o->output : "stdout");
}

static void
hold(struct sink *s, const struct sps_cand *c)
{
	if (s->nheld == s->capheld) {
		size_t cap = s->capheld ? 2 * s->capheld : 256;
		struct sps_cand *grown = realloc(s->held, cap * sizeof(*grown));

		if (grown == NULL)
			err(1, NULL);
		s->held = grown;
		s->capheld = cap;
	}
	s->held[s->nheld++] = *c;
}

static void
emit(struct sink *s, const struct options *o, const struct sps_cand *c)
{
	s->written++;
	if (o->per_dm != NULL) {
		hold(s, c);
		return;
	}
	begin_output(s, o);
	if (sps_cand_out_write(&s->out, c) != SPS_OK)
		errx(1, "%s: write error", o->output ? o->output : "stdout");
}

static void
warn_floods(struct sink *s, struct sps_flood *fl, const struct options *o)
{
	struct sps_flood_window w;

	while (sps_flood_report(fl, &w))
		if (s->flood_lines++ < MAX_FLOOD_LINES)
			fprintf(stderr, "sps-peaks: FLOOD: %" PRIu64 " candidates "
			    "between %.3f and %.3f s, more than --max-rate %g "
			    "per s allows: probably RFI; all are kept and "
			    "flagged\n", w.count, w.start, w.start + w.length,
			    o->max_rate);
}

/* Candidates finished by the clustering go through the cuts and the
 * flood flags to the output. */
static void
drain(struct sps_peaks *p, struct sps_flood *fl, struct sink *s,
    const struct options *o)
{
	struct sps_cand c;
	enum sps_cut cut;

	while (sps_peaks_next(p, &c)) {
		if ((cut = sps_cuts_apply(&o->cuts, &c)) != SPS_CUT_NONE) {
			s->cut[cut]++;
			continue;
		}
		cli_check(sps_flood_add(fl, &c), NULL);
		while (sps_flood_next(fl, &c))
			emit(s, o, &c);
	}
	warn_floods(s, fl, o);
}

/* The DM as PRESTO's file names print it. */
static double
printed_dm(double dm)
{
	char text[64];

	snprintf(text, sizeof(text), "%.2f", dm);
	return strtod(text, NULL);
}

static int
by_dm_then_sample(const void *a, const void *b)
{
	const struct sps_cand *x = a, *y = b;
	double dx = printed_dm(x->best.dm), dy = printed_dm(y->best.dm);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	if (x->best.sample != y->best.sample)
		return x->best.sample < y->best.sample ? -1 : 1;
	return (x->best.dm_index > y->best.dm_index) -
	    (x->best.dm_index < y->best.dm_index);
}

/* PRESTO's ROOT_DM%.2f.singlepulse, one per DM that has candidates; trials
 * whose DMs print alike share a file. */
static void
write_per_dm(struct sink *s, const struct options *o,
    const struct sps_events_meta *m)
{
	char *path, name[64], next[64];
	struct sps_cand_out out;
	struct sps_writer w;
	size_t i = 0;

	qsort(s->held, s->nheld, sizeof(*s->held), by_dm_then_sample);
	while (i < s->nheld) {
		snprintf(name, sizeof(name), "%.2f", s->held[i].best.dm);
		if (asprintf(&path, "%s_DM%s.singlepulse", o->per_dm, name) < 0)
			err(1, NULL);
		cli_check(sps_writer_open(&w, path), NULL);
		unfinished = &w;
		sps_cand_out_init(&out, SPS_CAND_PRESTO, w.f, m->tsamp);
		out.max_rate = o->max_rate;
		out.flood_length = o->flood_length;
		do {
			if (sps_cand_out_write(&out, &s->held[i]) != SPS_OK) {
				sps_writer_abort(&w);
				errx(1, "%s: write error", path);
			}
			if (++i < s->nheld)
				snprintf(next, sizeof(next), "%.2f",
				    s->held[i].best.dm);
		} while (i < s->nheld && strcmp(next, name) == 0);
		unfinished = NULL;
		cli_check(sps_writer_close(&w), NULL);
		free(path);
	}
}

static void
close_sink(struct sink *s, const struct options *o,
    const struct sps_events_meta *m)
{
	if (o->per_dm != NULL) {
		write_per_dm(s, o, m);
	} else {
		begin_output(s, o);
		unfinished = NULL;
		cli_check(sps_writer_close(&s->w), NULL);
	}
	free(s->held);
}

static void
read_events(FILE *f, const char *name, const struct sps_events_meta *m,
    struct sps_peaks *p, struct sps_flood *fl, struct sink *s,
    const struct options *o)
{
	struct sps_cand e_cand;
	struct sps_event e;
	enum sps_err err;
	uint64_t n = 0;

	while ((err = sps_events_read(f, &e)) == SPS_OK) {
		n++;
		if (m->ndms > 0 && e.dm_index >= m->ndms)
			errx(1, "%s: event %" PRIu64 ": DM trial %d, but the "
			    "stream has %d trials", name, n, e.dm_index,
			    m->ndms);
		if (sps_peaks_add(p, &e) != SPS_OK)
			errx(1, "%s: event %" PRIu64 ": %s", name, n,
			    sps_errmsg());
		drain(p, fl, s, o);
	}
	if (err != SPS_EEOF)
		errx(1, "%s: event %" PRIu64 ": %s", name, n + 1, sps_errmsg());
	cli_check(sps_peaks_finish(p), NULL);
	drain(p, fl, s, o);
	sps_flood_finish(fl);
	while (sps_flood_next(fl, &e_cand))
		emit(s, o, &e_cand);
	warn_floods(s, fl, o);
}

static void
report(const struct sps_peaks *p, const struct sps_flood *fl,
    const struct sink *s, const struct options *o,
    const struct sps_events_meta *m)
{
	struct sps_peaks_stats st;

	sps_peaks_stats(p, &st);
	if (s->flood_lines > MAX_FLOOD_LINES)
		fprintf(stderr, "sps-peaks: FLOOD: %" PRIu64 " flooded windows "
		    "in all, %" PRIu64 " candidates flagged\n", fl->windows,
		    fl->flagged);
	if (st.late > 0)
		fprintf(stderr, "sps-peaks: warning: %" PRIu64 " events came "
		    "more than the window (%.3f s) late; their clusters may be "
		    "split (raise --window)\n", st.late, st.window * m->tsamp);
	if (o->quiet)
		return;
	fprintf(stderr, "sps-peaks: %" PRIu64 " events, %" PRIu64 " at S/N >= "
	    "%g, %" PRIu64 " candidates; cut %" PRIu64 " by members, %" PRIu64
	    " by width, %" PRIu64 " by DM; %" PRIu64 " written", st.events,
	    st.kept, o->threshold, st.candidates, s->cut[SPS_CUT_MEMBERS],
	    s->cut[SPS_CUT_WIDTH], s->cut[SPS_CUT_DM], s->written);
	if (o->max_rate > 0)
		fprintf(stderr, ", %" PRIu64 " flagged as flood", fl->flagged);
	fprintf(stderr, "; at most %" PRIu64 " events held\n", st.held_max);
}

static void
set_threshold(struct options *o, const struct sps_events_meta *m)
{
	if (!o->have_threshold) {
		o->threshold = m->threshold;
		return;
	}
	if (o->threshold < m->threshold && !o->quiet)
		fprintf(stderr, "sps-peaks: the events hold S/N >= %g only: -s "
		    "%g keeps them all\n", m->threshold, o->threshold);
}

int
main(int argc, char **argv)
{
	struct sps_events_meta meta;
	struct sps_peaks *p;
	struct sps_flood fl;
	struct options o;
	struct sink sink;
	const char *name;
	FILE *in;

	cli_init("sps-peaks", argv);
	atexit(remove_unfinished);
	parse_options(&o, argc, argv);
	in = open_input(o.input, &name);
	read_meta(in, name, &meta);
	set_threshold(&o, &meta);
	o.peaks.threshold = o.threshold;
	o.peaks.max_width = meta.max_width > 0 ? meta.max_width : 0;
	o.peaks.window = (int64_t)ceil(o.window_s / meta.tsamp);
	write_fetch_mask(&o, &meta);
	cli_check(sps_peaks_create(&p, &o.peaks), NULL);
	cli_check(sps_flood_init(&fl, o.max_rate, o.flood_length, meta.tsamp),
	    NULL);
	open_sink(&sink, &o, &meta);
	read_events(in, name, &meta, p, &fl, &sink, &o);
	close_sink(&sink, &o, &meta);
	report(p, &fl, &sink, &o, &meta);
	sps_flood_free(&fl);
	sps_peaks_free(p);
	if (in != stdin)
		fclose(in);
	return 0;
}

/* sps-peaks: cluster boxcar events into candidates and write them as a
 * table, Heimdall .cand, PRESTO .singlepulse or FETCH CSV. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "candsink.h"
#include "cli.h"
#include "events.h"
#include "help.h"
#include "killmask.h"
#include "siftrun.h"
#include "writer.h"

static const char usage_text[] =
    "usage: sps-peaks [-q] [-s SNR] [--format text|heimdall|presto|fetch]\n"
    "           [-o FILE | --per-dm PREFIX] [--sort snr|time|dm] [--top N]\n"
    "           [--cand-sep-time N] [--cand-sep-filter N] [--cand-sep-dm N]\n"
    "           [--no-cluster] [--window S] [--min-members N] [--max-width W]\n"
    "           [--min-dm DM] [--max-rate R [--flood-window S]] [--data FILE]\n"
    "           [-k KILLFILE] [--killmask-out FILE] [FILE]\n";

struct options {
	const char		*input;
	const char		*output;
	const char		*per_dm;
	enum sps_cand_format	 format;
	enum sps_cand_order	 order;
	size_t			 top;
	double			 threshold;
	int			 have_threshold;
	struct sps_sift_opts	 sift;
	const char		*data_file;
	const char		*killfile;
	const char		*killmask_out;
	int			 quiet;
};

enum {
	OPT_FORMAT = 256, OPT_PER_DM, OPT_SEP_TIME, OPT_SEP_FILTER, OPT_SEP_DM,
	OPT_NO_CLUSTER, OPT_WINDOW, OPT_MIN_MEMBERS, OPT_MAX_WIDTH, OPT_MIN_DM,
	OPT_MAX_RATE, OPT_FLOOD_WINDOW, OPT_DATA, OPT_KILLMASK_OUT, OPT_SORT,
	OPT_TOP, OPT_VERSION
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
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "threshold", required_argument, NULL, 's' },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ NULL, 0, NULL, 0 }
};

static void
parse_long(struct options *o, int ch)
{
	struct sps_sift_opts *s = &o->sift;

	switch (ch) {
	case OPT_DATA:
		o->data_file = optarg;
		break;
	case OPT_FLOOD_WINDOW:
		s->flood_length = cli_double(optarg, "--flood-window", 1e-6,
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
		s->max_rate = cli_double(optarg, "--max-rate", 0, 1e9);
		break;
	case OPT_MAX_WIDTH:
		s->cuts.max_width = (int)cli_long(optarg, "--max-width", 0,
		    1 << 30);
		break;
	case OPT_MIN_DM:
		s->cuts.min_dm = cli_double(optarg, "--min-dm", 0, 1e6);
		break;
	case OPT_MIN_MEMBERS:
		s->cuts.min_members = (uint64_t)cli_long(optarg,
		    "--min-members", 0, INT64_MAX);
		break;
	case OPT_NO_CLUSTER:
		s->peaks.cluster = 0;
		break;
	case OPT_PER_DM:
		o->per_dm = optarg;
		break;
	case OPT_SEP_DM:
		s->peaks.sep_dm = (int)cli_long(optarg, "--cand-sep-dm", 0,
		    1 << 30);
		break;
	case OPT_SEP_FILTER:
		s->peaks.sep_filter = cli_double(optarg, "--cand-sep-filter",
		    0, 30);
		break;
	case OPT_SEP_TIME:
		s->peaks.sep_time = cli_double(optarg, "--cand-sep-time", 0,
		    1e6);
		break;
	case OPT_SORT:
		if (sps_cand_order_parse(optarg, &o->order) != SPS_OK)
			cli_usage_error(usage_text, "--sort: %s", sps_errmsg());
		break;
	case OPT_TOP:
		o->top = (size_t)cli_long(optarg, "--top", 1, 1L << 40);
		break;
	case OPT_VERSION:
		cli_version();
		break;
	case OPT_WINDOW:
		s->window_s = cli_double(optarg, "--window", 0, 1e7);
		break;
	default:
		cli_usage(usage_text, 2);
	}
}

static void
parse_options(struct options *o, int argc, char **argv)
{
	int ch;

	memset(o, 0, sizeof(*o));
	sps_sift_defaults(&o->sift);
	o->format = SPS_CAND_TEXT;
	cli_long_hint(argc, argv, longopts);
	while ((ch = getopt_long(argc, argv, "hk:o:qs:", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'h':
			cli_help(usage_text, help_peaks);
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
		if (o->order != SPS_CAND_BY_TIME)
			cli_usage_error(usage_text, "--per-dm files are in time "
			    "order, as PRESTO's: --sort time only");
		o->format = SPS_CAND_PRESTO;
	}
	if (o->format == SPS_CAND_FETCH && o->data_file == NULL)
		cli_usage_error(usage_text, "--format fetch needs --data FILE, "
		    "the filterbank or PSRFITS file FETCH cuts candidates "
		    "from");
}

/* FETCH's channel mask: from the kill file if given, else no channel. */
static void
write_fetch_mask(const struct options *o, const struct sps_events_meta *m)
{
	unsigned char *kill = NULL;

	if (o->killfile != NULL) {
		if (m->nchans < 1)
			errx(1, "-k %s: the event stream does not say how many "
			    "channels the data have", o->killfile);
		cli_check(sps_killmask_load(o->killfile, m->nchans, &kill),
		    NULL);
	}
	if (o->killmask_out != NULL)
		cli_check(sps_fetch_mask_save(o->killmask_out, kill,
		    m->nchans), NULL);
	free(kill);
}

/* What a failure of the sink names: the output, or nothing (--per-dm:
 * the message names the file). */
static const char *
sink_name(const struct options *o)
{
	if (o->per_dm != NULL)
		return NULL;
	return o->output ? o->output : "stdout";
}

/* -s, or the threshold the events were found at. */
static void
set_threshold(struct options *o, const struct sps_events_meta *m)
{
	if (!o->have_threshold)
		o->threshold = m->threshold;
	else if (o->threshold < m->threshold && !o->quiet)
		fprintf(stderr, "sps-peaks: the events hold S/N >= %g only: -s "
		    "%g keeps them all\n", m->threshold, o->threshold);
	o->sift.peaks.threshold = o->threshold;
}

/* The output stream w, or (--per-dm) files the sink writes at the end. */
static void
open_sink(struct sps_cand_sink *sink, struct sps_writer *w,
    const struct options *o, const struct sps_events_meta *m)
{
	struct sps_cand_out out;

	sps_cand_out_init(&out, o->format, NULL, m->tsamp);
	out.data_file = o->data_file;
	out.chan_mask = o->killmask_out;
	out.flood_column = o->sift.max_rate > 0;
	out.max_rate = o->sift.max_rate;
	out.flood_length = o->sift.flood_length;
	if (o->per_dm == NULL) {
		cli_check(sps_writer_open(w, o->output), NULL);
		out.f = w->f;
	}
	sps_cand_sink_init(sink, &out, o->per_dm);
	sink->meta = m;		/* --per-dm: an .inf beside each file */
	sps_cand_sink_select(sink, o->order, o->top);
}

static void
close_sink(struct sps_cand_sink *sink, struct sps_writer *w,
    const struct options *o)
{
	cli_check(sps_cand_sink_close(sink), sink_name(o));
	if (o->per_dm == NULL)
		cli_check(sps_writer_close(w), NULL);
	sps_cand_sink_free(sink);
}

int
main(int argc, char **argv)
{
	struct sps_sift_input in;
	struct sps_cand_sink sink;
	struct sps_writer w;
	struct sps_sift sift;
	struct options o;

	cli_init("sps-peaks", argv);
	parse_options(&o, argc, argv);
	cli_check(sps_sift_input_open(&in, o.input), NULL);
	set_threshold(&o, &in.meta);
	write_fetch_mask(&o, &in.meta);
	cli_check(sps_sift_init(&sift, &o.sift, &in.meta), NULL);
	open_sink(&sink, &w, &o, &in.meta);
	cli_check(sps_sift_run(&sift, &in, &sink, sink_name(&o), stderr),
	    NULL);
	close_sink(&sink, &w, &o);
	sps_sift_warn_end(&sift, stderr);
	if (!o.quiet)
		sps_sift_report(&sift, stderr, sink.written);
	sps_sift_free(&sift);
	sps_sift_input_close(&in);
	return 0;
}

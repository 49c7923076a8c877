/* sps-plot: a sheet for each chosen candidate of a search (its
 * dedispersed dynamic spectrum, profile, DM-time bow tie, S/N against DM
 * and facts), or with --overview the picture of all of them, as PNG,
 * PDF or SVG. */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "candread.h"
#include "candset.h"
#include "candview.h"
#include "cli.h"
#include "help.h"
#include "killmask.h"
#include "plotoverview.h"
#include "plot.h"
#include "plotrun.h"

static const char usage_text[] =
    "usage: sps-plot [-q] [--rank N | --top N] [--snr MIN] [--nsub N]\n"
    "           [--nbins N] [--ndm N] [--decimate N] [-k KILLFILE]\n"
    "           [--ignorechan LIST] [--format png|pdf|svg] [--cmap MAP]\n"
    "           [--width PX] [--height PX] [-t THREADS] [-o OUTPUT]\n"
    "           CANDIDATES FILE\n"
    "       sps-plot --overview [-q] [--snr MIN] [--width PX] [--height PX]\n"
    "           [-o OUTPUT] CANDIDATES [FILE]\n";

/* Drawn when no --top or --rank says how many. */
#define DEFAULT_MOST	100

struct options {
	const char		*cands;
	const char		*data;
	const char		*output;
	const char		*killfile;
	const char		*ignorechan;
	struct sps_candsel	 sel;
	struct sps_plotrun_opts	 run;
	int			 overview;
	int			 format_given;
	int			 quiet;
};

enum {
	OPT_RANK = 256, OPT_TOP, OPT_SNR, OPT_NSUB, OPT_NBINS, OPT_NDM,
	OPT_DECIMATE, OPT_IGNORECHAN, OPT_FORMAT, OPT_CMAP, OPT_WIDTH,
	OPT_HEIGHT, OPT_OVERVIEW, OPT_VERSION
};

static const struct option longopts[] = {
	{ "cmap", required_argument, NULL, OPT_CMAP },
	{ "decimate", required_argument, NULL, OPT_DECIMATE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "height", required_argument, NULL, OPT_HEIGHT },
	{ "help", no_argument, NULL, 'h' },
	{ "ignorechan", required_argument, NULL, OPT_IGNORECHAN },
	{ "killmask", required_argument, NULL, 'k' },
	{ "nbins", required_argument, NULL, OPT_NBINS },
	{ "ndm", required_argument, NULL, OPT_NDM },
	{ "nsub", required_argument, NULL, OPT_NSUB },
	{ "output", required_argument, NULL, 'o' },
	{ "overview", no_argument, NULL, OPT_OVERVIEW },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rank", required_argument, NULL, OPT_RANK },
	{ "snr", required_argument, NULL, OPT_SNR },
	{ "threads", required_argument, NULL, 't' },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ NULL, 0, NULL, 0 }
};

static void
parse_view(struct options *o, int ch, const char *arg)
{
	struct sps_candview_opts *v = &o->run.view;
	char name[16];

	switch (ch) {
	case OPT_NSUB:
		v->nsub = (int)cli_long(arg, "--nsub", 1, 65536);
		break;
	case OPT_NBINS:
		v->nbins = (int)cli_long(arg, "--nbins", 8, 65536);
		break;
	case OPT_NDM:
		v->ndm = (int)cli_long(arg, "--ndm", 2, 65536);
		break;
	case OPT_DECIMATE:
		v->decimate = (int)cli_long(arg, "--decimate", 1, 1 << 24);
		break;
	case OPT_FORMAT:
		snprintf(name, sizeof(name), ".%s", arg);
		if (sps_plot_format_of(name, &o->run.format) != SPS_OK)
			cli_usage_error(usage_text, "--format %s: png, pdf or "
			    "svg", arg);
		o->format_given = 1;
		break;
	case OPT_CMAP:
		if (sps_plot_cmap_parse(arg, &o->run.sheet.cmap) != SPS_OK)
			cli_usage_error(usage_text, "--cmap: %s", sps_errmsg());
		break;
	case OPT_WIDTH:
		o->run.sheet.width = (int)cli_long(arg, "--width", 400, 20000);
		break;
	case 't':
		v->nthreads = (int)cli_long(arg, "-t", 1, 4096);
		break;
	case OPT_HEIGHT:
		o->run.sheet.height = (int)cli_long(arg, "--height", 300, 20000);
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
	sps_candsel_defaults(&o->sel);
	sps_plotrun_defaults(&o->run);
	cli_long_hint(argc, argv, longopts);
	while ((ch = getopt_long(argc, argv, "hk:o:qt:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			cli_help(usage_text, help_plot);
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
		case OPT_IGNORECHAN:
			o->ignorechan = optarg;
			break;
		case OPT_OVERVIEW:
			o->overview = 1;
			break;
		case OPT_RANK:
		case OPT_SNR:
		case OPT_TOP:
			if (sps_candsel_parse(&o->sel, ch == OPT_RANK ? "rank" :
			    ch == OPT_TOP ? "top" : "snr", optarg) != SPS_OK)
				cli_usage_error(usage_text, "%s", sps_errmsg());
			break;
		case OPT_VERSION:
			cli_version();
			break;
		default:
			parse_view(o, ch, optarg);
		}
	}
	if (optind >= argc)
		cli_usage_error(usage_text, "no candidate file");
	o->cands = argv[optind++];
	if (optind < argc)
		o->data = argv[optind++];
	if (optind < argc)
		cli_usage_error(usage_text, "one candidate file and one data "
		    "file: '%s' is one too many", argv[optind]);
	if (o->data == NULL && !o->overview)
		cli_usage_error(usage_text, "no data file (the sheets are drawn "
		    "from it; --overview needs none)");
	if (o->overview && (o->sel.rank > 0 || o->sel.top > 0))
		cli_usage_error(usage_text, "--overview draws every candidate: "
		    "--snr only");
}

#ifdef SPS_HAVE_CAIRO
/* Is path meant as a directory: one that is there, a name that ends in
 * '/', or a last part without a suffix? */
static int
names_directory(const char *path)
{
	const char *last = strrchr(path, '/');
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return 1;
	if (last != NULL && last[1] == '\0')
		return 1;
	return strchr(last != NULL ? last + 1 : path, '.') == NULL;
}

/* -o: the sheets' directory (made if missing), or one sheet's file. */
static void
sheet_output(struct options *o)
{
	const char *out = o->output != NULL ? o->output : ".";
	enum sps_plot_format f;

	if (names_directory(out)) {
		cli_check(sps_candset_dir(out), NULL);
		o->run.dir = out;
	} else if (sps_plot_format_of(out, &f) != SPS_OK)
		cli_bad_value("%s", sps_errmsg());
	else
		o->run.file = out;
}

/* The overview's file: -o, or overview.png (--format's suffix) in -o's
 * directory or the current one. */
static const char *
overview_output(const struct options *o)
{
	static const char *const suffix[] = { "png", "pdf", "svg" };
	enum sps_plot_format f;
	char *path;

	if (o->output != NULL && !names_directory(o->output)) {
		if (sps_plot_format_of(o->output, &f) != SPS_OK)
			cli_bad_value("%s", sps_errmsg());
		return o->output;
	}
	if (o->output != NULL)
		cli_check(sps_candset_dir(o->output), NULL);
	if (asprintf(&path, "%s/overview.%s", o->output != NULL ? o->output :
	    ".", suffix[o->run.format]) < 0)
		cli_fail("out of memory");
	return path;
}

/* The chosen candidates of l, brightest first, at most DEFAULT_MOST
 * unless --top or --rank said how many. */
static struct sps_cand *
choose(const struct options *o, const struct sps_candlist *l, size_t *n)
{
	struct sps_cand *chosen;
	size_t *idx;

	cli_check(sps_candsel_apply(&o->sel, l, &idx, n), NULL);
	if (*n > DEFAULT_MOST && o->sel.top == 0 && o->sel.rank == 0 &&
	    !o->overview) {
		if (!o->quiet)
			fprintf(stderr, "sps-plot: %zu candidates; drawing the "
			    "%d brightest (--top N for more)\n", *n,
			    DEFAULT_MOST);
		*n = DEFAULT_MOST;
	}
	cli_check(sps_plotrun_pick(l, idx, *n, &chosen), NULL);
	free(idx);
	return chosen;
}

static void
report(const struct options *o, const struct sps_reader *r, size_t n,
    const struct sps_candview_stats *st, double seconds)
{
	fprintf(stderr, "sps-plot: %zu sheet%s in %s (%.2f s", n, n == 1 ?
	    "" : "s", o->run.file != NULL ? o->run.file : o->run.dir,
	    seconds);
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN && r->nsamples > 0)
		fprintf(stderr, "; %llu of %llu spectra read, %.1f%%",
		    (unsigned long long)st->spectra_read,
		    (unsigned long long)r->nsamples, 100.0 *
		    (double)st->spectra_read / (double)r->nsamples);
	fprintf(stderr, ")\n");
}

static int
draw_sheets(struct options *o)
{
	struct sps_candview_stats st;
	struct sps_candlist l;
	struct sps_reader r;
	struct sps_cand *chosen;
	unsigned char *kill = NULL;
	double start = cli_now();
	size_t n;

	sheet_output(o);
	cli_check(sps_candview_open(&r, o->data), NULL);
	cli_check(sps_candread(o->cands, r.hdr.tsamp, &l), NULL);
	cli_check(sps_candlist_check(&l, &r.hdr, r.nsamples), NULL);
	cli_check(sps_killmask_make(o->killfile, o->ignorechan, &r.hdr,
	    &kill), NULL);
	o->run.view.kill = kill;
	o->run.sheet.cand_name = o->cands;
	chosen = choose(o, &l, &n);
	if (o->run.file != NULL && n > 1)
		cli_fail("%s: %zu candidates chosen and one file named (name "
		    "a directory, or choose one with --rank N)", o->run.file, n);
	cli_check(sps_plotrun(&r, chosen, n, o->sel.rank > 0 ? o->sel.rank :
	    1, l.n, &o->run, &st), NULL);
	if (!o->quiet)
		report(o, &r, n, &st, cli_now() - start);
	free(chosen);
	free(kill);
	sps_candlist_free(&l);
	cli_reader_close(&r);
	return 0;
}

static int
draw_overview(struct options *o)
{
	struct sps_overview ov = { o->cands, o->data, 0, o->run.sheet.width,
	    o->run.sheet.height };
	const char *path = overview_output(o);
	struct sps_candlist l;
	struct sps_reader r;
	struct sps_cand *chosen;
	size_t n;

	if (o->data != NULL) {
		cli_check(sps_reader_open(&r, o->data), NULL);
		if (r.nsamples != SPS_NSAMPLES_UNKNOWN)
			ov.tobs = (double)r.nsamples * r.hdr.tsamp;
	}
	cli_check(sps_candread(o->cands, o->data != NULL ? r.hdr.tsamp : 0,
	    &l), NULL);
	if (o->data != NULL)
		cli_check(sps_candlist_check(&l, &r.hdr, r.nsamples), NULL);
	chosen = choose(o, &l, &n);
	cli_check(sps_plot_overview(path, chosen, n, &ov), NULL);
	if (!o->quiet)
		fprintf(stderr, "sps-plot: %zu candidates in %s\n", n, path);
	free(chosen);
	if (path != o->output)
		free((char *)path);
	sps_candlist_free(&l);
	if (o->data != NULL)
		cli_reader_close(&r);
	return 0;
}
#endif

int
main(int argc, char **argv)
{
	struct options o;

	cli_init("sps-plot", argv);
	parse_options(&o, argc, argv);
#ifndef SPS_HAVE_CAIRO
	cli_fail("built without cairo");
#else
	int status = o.overview ? draw_overview(&o) : draw_sheets(&o);

	if (status == 0)
		sps_candset_dir_done(o.output);
	sps_plot_release_fonts();
	return status;
#endif
}

/* sps-search: the whole single-pulse search of one observation, in one
 * process: read, dedisperse (CPU or GPU), search, candidates; or, with
 * --pipe, the same through the pipe of the single tools. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "candset.h"
#include "cleanopts.h"
#include "clock.h"
#include "cli.h"
#include "help.h"
#include "plot.h"
#include "plotsearch.h"
#include "plan.h"
#include "psrfits.h"
#include "reader.h"
#include "searchpipe.h"
#include "searchrun.h"

static const char usage_text[] =
    "usage: sps-search [-q] [--dm LO HI [--dm_tol T] [--dm_pulse_width US]\n"
    "           | --plan FILE] [--scrunch] [-s SNR] [-a ALGORITHM] [-w SAMPLES]\n"
    "           [-k KILLFILE] [--ignorechan LIST] [-t THREADS]\n"
    "           [--no-clean | [--zerodm | --zdot] [--clip SIGMA | --noclip]\n"
    "           [--clip-width N] [--sk SIGMA] [--sk-n ND] [--iqrm SIGMA |\n"
    "           --noiqrm] [--iqrm-radius N] [--hold N] [--mask FILE]\n"
    "           [--clean-block N] [--clean-report FILE]]\n"
    "           [--gpu [--device N] | --cpu] [--pipe] [-o DIR]\n"
    "           [--plot DIR [--plot-top N]] [FILE]\n";


enum {
	OPT_DM = 256, OPT_TOL, OPT_WIDTH, OPT_SCRUNCH, OPT_GPU, OPT_CPU,
	OPT_DEVICE, OPT_PIPE, OPT_PLAN, OPT_VERSION, OPT_ALGO, OPT_BASELINE,
	OPT_WHITE, OPT_IGNORECHAN, OPT_NO_CLEAN, OPT_PLOT, OPT_PLOT_TOP
};

/* --plot: drawn from the data file after the search, next to the
 * candidate files (-o, or the same directory). */
static void
plot_options(struct search_options *o)
{
	if (o->plot_dir == NULL)
		return;
#ifndef SPS_HAVE_CAIRO
	cli_fail("--plot: built without cairo");
#endif
	if (strcmp(o->input, "-") == 0)
		cli_usage_error(usage_text, "--plot draws from the data file: "
		    "name one, not the standard input");
	if (o->outdir == NULL)
		o->outdir = o->plot_dir;
}

static void
parse_options(struct search_options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "algo", required_argument, NULL, OPT_ALGO },
		{ "algorithm", required_argument, NULL, 'a' },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		CLEANOPTS_LONGOPTS,
		{ "clean-block", required_argument, NULL, CLEANOPT_BLOCK },
		{ "clean-report", required_argument, NULL, CLEANOPT_REPORT },
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "dm", required_argument, NULL, OPT_DM },
		{ "dm_pulse_width", required_argument, NULL, OPT_WIDTH },
		{ "dm_tol", required_argument, NULL, OPT_TOL },
		{ "gpu", no_argument, NULL, OPT_GPU },
		{ "help", no_argument, NULL, 'h' },
		{ "ignorechan", required_argument, NULL, OPT_IGNORECHAN },
		{ "killmask", required_argument, NULL, 'k' },
		{ "max-width", required_argument, NULL, 'w' },
		{ "no-clean", no_argument, NULL, OPT_NO_CLEAN },
		{ "output", required_argument, NULL, 'o' },
		{ "pipe", no_argument, NULL, OPT_PIPE },
		{ "plan", required_argument, NULL, OPT_PLAN },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "plot-top", required_argument, NULL, OPT_PLOT_TOP },
		{ "quiet", no_argument, NULL, 'q' },
		{ "scrunch", no_argument, NULL, OPT_SCRUNCH },
		{ "threads", required_argument, NULL, 't' },
		{ "threshold", required_argument, NULL, 's' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "white", no_argument, NULL, OPT_WHITE },
		{ NULL, 0, NULL, 0 }
	};
	struct sps_searchrun_opts *ro = &o->run;
	struct sps_boxcar_plan p;
	int ch;

	memset(o, 0, sizeof(*o));
	o->dm_hi = 1000;
	o->tol = 1.25;
	o->width_us = 40;
	o->plot_top = 10;
	ro->dedisp.engine = SPS_ENGINE_ANY;
	ro->dedisp.block = SPS_DEDISP_BLOCK;
	ro->search.algorithm = "BD-16";
	ro->search.max_width = SPS_SEARCH_WIDTH;
	ro->search.threshold = SPS_SEARCH_THRESHOLD;
	ro->search.outlier = SPS_SEARCH_OUTLIER;
	sps_sift_defaults(&ro->sift);
	cleanopts_init(&o->clean);
	cli_long_hint(argc, argv, longopts);
	while ((ch = getopt_long(argc, argv, "a:hk:o:qs:t:w:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'a':
			ro->search.algorithm = optarg;
			break;
		case 'h':
			cli_help(usage_text, help_search);
			break;
		case 'k':
			ro->killfile = optarg;
			break;
		case 'o':
			o->outdir = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 's':
			ro->search.threshold = cli_double(optarg, "-s", 0,
			    1e6);
			break;
		case 't':
			ro->dedisp.plan.nthreads = (int)cli_long(optarg, "-t",
			    1, 4096);
			break;
		case 'w':
			ro->search.max_width = (int)cli_long(optarg, "-w", 1,
			    SPS_BOXCAR_MAXWIDTH);
			break;
		case OPT_ALGO:
			if (sps_dedisp_algo_named(optarg, &ro->dedisp.plan.algo)
			    != SPS_OK)
				cli_usage_error(usage_text, "--algo %s",
				    sps_errmsg());
			break;
		case OPT_BASELINE:
			ro->search.baseline = cli_double(optarg, "--baseline",
			    1e-6, 1e6);
			break;
		case OPT_WHITE:
			ro->search.white = 1;
			break;
		case OPT_IGNORECHAN:
			ro->ignorechan = optarg;
			break;
		case OPT_CPU:
			ro->dedisp.engine = SPS_ENGINE_CPU;
			break;
		case OPT_DEVICE:
			ro->dedisp.device = (int)cli_long(optarg, "--device",
			    0, 1024);
			ro->dedisp.engine = SPS_ENGINE_GPU;
			break;
		case OPT_DM:
			cli_range(argc, argv, "--dm", 0, 1e6, &o->dm_lo,
			    &o->dm_hi, usage_text);
			o->range = 1;
			break;
		case OPT_GPU:
			ro->dedisp.engine = SPS_ENGINE_GPU;
			break;
		case OPT_PIPE:
			o->pipe = 1;
			break;
		case OPT_NO_CLEAN:
			o->no_clean = 1;
			break;
		case OPT_PLAN:
			o->plan_file = optarg;
			break;
		case OPT_PLOT:
			o->plot_dir = optarg;
			break;
		case OPT_PLOT_TOP:
			o->plot_top = cli_long(optarg, "--plot-top", 0, 100000);
			break;
		case OPT_SCRUNCH:
			o->scrunch = 1;
			break;
		case OPT_TOL:
			o->tol = cli_double(optarg, "--dm_tol", 1.0001, 100);
			break;
		case OPT_VERSION:
			cli_version();
			break;
		case OPT_WIDTH:
			o->width_us = cli_double(optarg, "--dm_pulse_width", 0,
			    1e9);
			break;
		default:
			if (!cleanopts_parse(&o->clean, ch, optarg, longopts,
			    usage_text))
				cli_usage(usage_text, 2);
		}
	}
	o->input = cli_input(argc, argv, usage_text);
	if (o->range && o->plan_file != NULL)
		cli_usage_error(usage_text, "give --dm LO HI or --plan FILE, "
		    "not both");
	if (o->no_clean && o->clean.first != NULL)
		cli_usage_error(usage_text, "--no-clean and --%s: no cleaning "
		    "to set", o->clean.first);
	plot_options(o);
	ro->search.nthreads = ro->dedisp.plan.nthreads;
	ro->dedisp.clean = o->no_clean ? NULL : &o->clean.setup;
	ro->sift.peaks.threshold = ro->search.threshold;
	if (sps_boxcar_plan_make(&p, ro->search.algorithm, 1) != SPS_OK)
		cli_usage_error(usage_text, "-a %s: %s", ro->search.algorithm,
		    sps_errmsg());
}

/* ---- the search in one process ---- */

/* What the cleaning did, as sps-clean's summary says it. */
static void
cleaning_report(const struct sps_searchrun_info *in,
    const struct sps_reader *r)
{
	if (in->cleaning == NULL)
		return;
	sps_clean_report_summary(sps_cleanstream_report(in->cleaning), stderr,
	    "sps-search: cleaning", sps_cleanstream_quantised(in->cleaning),
	    sps_reader_value_nbits(r));
}

static void
report(const struct sps_searchrun *run, const struct sps_reader *r,
    uint64_t ncand, double seconds, double span)
{
	const struct sps_header *h = &r->hdr;
	struct sps_searchrun_info in;
	double adds, kernels;

	sps_searchrun_info(run, &in);
	fprintf(stderr, "sps-search: %d trials dedispersed on the %s, "
	    "searched on the %s: %llu events, %llu candidates, %.2f s "
	    "(%.1fx real time)\n", in.dedisp.ntrials, in.dedisp.on_gpu ?
	    "GPU" : "CPU", in.search_on_gpu ? "GPU" : "CPU",
	    (unsigned long long)in.events, (unsigned long long)ncand,
	    seconds, span / seconds);
	cleaning_report(&in, r);
	if (!in.dedisp.on_gpu) {
		fprintf(stderr, "sps-search: set-up %.2f s\n", in.setup);
		if (in.note != NULL)
			fprintf(stderr, "sps-search: not on the GPU: %s\n",
			    in.note);
		return;
	}
	fprintf(stderr, "sps-search: set-up %.2f s, GPU memory %.0f MB\n",
	    in.setup, in.dedisp.device_mb + in.search_memory / 1048576.0);
	adds = span / h->tsamp * h->nchans * h->nifs * in.dedisp.ntrials;
	kernels = in.times.kernels;
	fprintf(stderr, "sps-search: GPU kernels: dedispersion %.3f s (%.1f T "
	    "additions/s)", kernels, kernels > 0 ? adds / kernels / 1e12 : 0);
	if (in.search_on_gpu)
		fprintf(stderr, ", search %.3f s (%.1f G samples/s)",
		    in.search_kernels, in.search_kernels > 0 ?
		    (double)in.search.samples / in.search_kernels / 1e9 : 0);
	fprintf(stderr, "\n");
}

static void
progress(const struct sps_reader *r)
{
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN && r->nsamples > 0)
		cli_progress(0, (double)r->position / (double)r->nsamples,
		    (double)r->position * r->hdr.tsamp);
}

/* GPU failures the run recovered from: warnings, not silenced by -q. */
static void
gpu_warnings(const struct sps_searchrun *run)
{
	struct sps_searchrun_info in;

	sps_searchrun_info(run, &in);
	if (in.dedisp.note != NULL)
		fprintf(stderr, "sps-search: %s\n", in.dedisp.note);
	if (in.retry != NULL)
		fprintf(stderr, "sps-search: %s\n", in.retry);
}

static int
run_fused(const struct search_options *o)
{
	struct sps_searchrun_opts ro = o->run;
	struct sps_searchrun *run;
	struct sps_candset out;
	struct sps_reader r;
	struct sps_plan plan;
	struct sps_cand c;
	double start = cli_now();
	uint64_t ncand = 0;
	int got;

	cli_check(sps_reader_open(&r, o->input), NULL);
	sps_trace("input opened");
	if (r.hdr.sps_dmtime || r.hdr.sps_order != 0)
		errx(1, "%s: not time-major filterbank data", r.name);
	if (o->plan_file != NULL)
		cli_check(sps_plan_load(&plan, o->plan_file, &r.hdr, o->scrunch ?
		    SPS_DEDISP_SCRUNCH_MAX : 1), NULL);
	else
		cli_check(sps_plan_range(&plan, &r.hdr, o->dm_lo, o->dm_hi,
		    o->width_us, o->tol, o->scrunch ? SPS_DEDISP_SCRUNCH_MAX :
		    1), NULL);
	ro.on_block = o->quiet ? NULL : progress;
	sps_trace("plan made");
	cli_check(sps_searchrun_create(&run, &r, &plan, &ro), NULL);
	gpu_warnings(run);
	cli_check(sps_candset_open(&out, o->outdir, sps_searchrun_tsamp(run)),
	    NULL);
	for (;;) {
		cli_check(sps_searchrun_next(run, &c, &got), NULL);
		if (!got)
			break;
		cli_progress_clear();
		cli_check(sps_candset_put(&out, &c), NULL);
		ncand++;
	}
	cli_progress_done(o->quiet);
	cli_check(sps_candset_close(&out), NULL);
	sps_trace("candidates written");
	if (!o->quiet)
		report(run, &r, ncand, cli_now() - start, r.position *
		    r.hdr.tsamp);
	sps_searchrun_free(run);
	sps_trace("engines freed");
	sps_plan_free(&plan);
	cli_reader_close(&r);
	return 0;
}

#ifdef SPS_HAVE_CAIRO
/* The sheets of the brightest candidates and the overview, from the
 * table the search wrote; its command line is the search's settings. */
static void
plot(const struct search_options *o, int argc, char **argv)
{
	struct sps_plotsearch ps = { o->input, NULL, o->plot_dir,
	    (size_t)o->plot_top, o->run.killfile, o->run.ignorechan,
	    o->no_clean ? NULL : &o->clean.setup.o, NULL };
	char table[4096], settings[2048];
	size_t n = 0, i, nsheets;
	double start = cli_now();
	int k;

	for (i = 0; i < SPS_CANDSET_MAX; i++)
		if (sps_candset_files[i].file != NULL &&
		    sps_candset_files[i].format == SPS_CAND_TEXT)
			snprintf(table, sizeof(table), "%s/%s", o->outdir,
			    sps_candset_files[i].file);
	for (k = 0; k < argc && n < sizeof(settings); k++)
		n += (size_t)snprintf(settings + n, sizeof(settings) - n,
		    "%s%s", k > 0 ? " " : "", k > 0 ? argv[k] : "sps-search");
	ps.cands = table;
	ps.settings = settings;
	cli_check(sps_plot_search(&ps, &nsheets), NULL);
	sps_plot_release_fonts();
	if (!o->quiet)
		fprintf(stderr, "sps-search: %zu sheets and overview.png in %s "
		    "(%.2f s)\n", nsheets, o->plot_dir, cli_now() - start);
}
#endif

int
main(int argc, char **argv)
{
	struct search_options o;
	int status;

	cli_init("sps-search", argv);
	parse_options(&o, argc, argv);
	status = o.pipe ? search_pipe_run(&o) : run_fused(&o);
#ifdef SPS_HAVE_CAIRO
	if (status == 0 && o.plot_dir != NULL)
		plot(&o, argc, argv);
#endif
	if (status == 0) {
		sps_candset_dir_done(o.outdir);
		sps_candset_dir_done(o.plot_dir);
	}
	return status;
}

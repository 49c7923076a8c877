/* sps-dedisperse: dedisperse filterbank data at many DMs, on the CPU or
 * a GPU, into a DM-time stream or one time series per trial. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dedisp_engine.h"
#include "dedisp_out.h"
#include "dedisperse.h"
#include "devices.h"
#include "help.h"
#include "killmask.h"
#include "plan.h"
#include "reader.h"


static const char usage_text[] =
    "usage: sps-dedisperse [-q] [-d DM | --dm LO HI [--dm_tol T]\n"
    "           [--dm_pulse_width US] | --plan FILE] [--scrunch]\n"
    "           [--algo ALGO] [--subband NSUB [--group N]] [-k KILLFILE]\n"
    "           [--ignorechan LIST] [-b NBITS] [-o PREFIX [--presto]]\n"
    "           [-t THREADS] [--block N]\n"
    "           [--gpu [--device N] | --cpu] [FILE]\n";

struct options {
	const char	*input;
	double		 dm_single;
	int		 single;
	double		 dm_lo, dm_hi;
	int		 range;
	double		 tol, width_us;
	const char	*plan_file;
	int		 scrunch;
	int		 nsub, group;
	int		 algo;		/* enum sps_dedisp_algo, -1: unset */
	const char	*killfile;
	const char	*ignorechan;	/* PRESTO's channel list */
	int		 nbits;
	const char	*prefix;
	int		 presto;
	int		 threads;
	long		 block;
	int		 gulp_fixed;	/* --block given: the GPU's gulp too */
	int		 quiet;
	int		 gpu;		/* -1: if usable, 0: CPU, 1: GPU */
	int		 device;
};

enum {
	OPT_DM = 256, OPT_TOL, OPT_WIDTH, OPT_PLAN, OPT_SCRUNCH, OPT_SUBBAND,
	OPT_GROUP, OPT_PRESTO, OPT_BLOCK, OPT_VERSION, OPT_GPU, OPT_CPU,
	OPT_DEVICE, OPT_ALGO, OPT_IGNORECHAN
};

static void
parse_options(struct options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "algo", required_argument, NULL, OPT_ALGO },
		{ "block", required_argument, NULL, OPT_BLOCK },
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "gpu", no_argument, NULL, OPT_GPU },
		{ "dm", required_argument, NULL, OPT_DM },
		{ "dm_pulse_width", required_argument, NULL, OPT_WIDTH },
		{ "dm_tol", required_argument, NULL, OPT_TOL },
		{ "group", required_argument, NULL, OPT_GROUP },
		{ "help", no_argument, NULL, 'h' },
		{ "ignorechan", required_argument, NULL, OPT_IGNORECHAN },
		{ "killmask", required_argument, NULL, 'k' },
		{ "nbits", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "plan", required_argument, NULL, OPT_PLAN },
		{ "presto", no_argument, NULL, OPT_PRESTO },
		{ "quiet", no_argument, NULL, 'q' },
		{ "scrunch", no_argument, NULL, OPT_SCRUNCH },
		{ "subband", required_argument, NULL, OPT_SUBBAND },
		{ "threads", required_argument, NULL, 't' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	memset(o, 0, sizeof(*o));
	o->tol = 1.25;
	o->width_us = 40;
	o->nbits = 32;
	o->block = SPS_DEDISP_BLOCK;
	o->gpu = -1;
	o->algo = -1;
	cli_long_hint(argc, argv, longopts);
	while ((ch = getopt_long(argc, argv, "b:d:hk:o:qt:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'b':
			o->nbits = (int)cli_long(optarg, "-b", 8, 32);
			if (o->nbits != 8 && o->nbits != 16 && o->nbits != 32)
				cli_usage_error(usage_text, "-b %d: output nbits "
				    "must be 8, 16 or 32", o->nbits);
			break;
		case 'd':
			o->dm_single = cli_double(optarg, "-d", 0, 1e6);
			o->single = 1;
			break;
		case 'h':
			cli_help(usage_text, help_dedisperse);
			break;
		case 'k':
			o->killfile = optarg;
			break;
		case 'o':
			o->prefix = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 't':
			o->threads = (int)cli_long(optarg, "-t", 1, 4096);
			break;
		case OPT_ALGO:
			if (sps_dedisp_algo_named(optarg, &o->algo) != SPS_OK)
				cli_usage_error(usage_text, "--algo %s",
				    sps_errmsg());
			break;
		case OPT_BLOCK:
			o->block = cli_long(optarg, "--block", 1, 1L << 26);
			o->gulp_fixed = 1;
			break;
		case OPT_CPU:
			o->gpu = 0;
			break;
		case OPT_IGNORECHAN:
			o->ignorechan = optarg;
			break;
		case OPT_DEVICE:
			o->device = (int)cli_long(optarg, "--device", 0, 1024);
			o->gpu = 1;
			break;
		case OPT_DM:
			cli_range(argc, argv, "--dm", 0, 1e6, &o->dm_lo,
			    &o->dm_hi, usage_text);
			o->range = 1;
			break;
		case OPT_GPU:
			o->gpu = 1;
			break;
		case OPT_GROUP:
			o->group = (int)cli_long(optarg, "--group", 1, 1 << 20);
			break;
		case OPT_PLAN:
			o->plan_file = optarg;
			break;
		case OPT_PRESTO:
			o->presto = 1;
			break;
		case OPT_SCRUNCH:
			o->scrunch = 1;
			break;
		case OPT_SUBBAND:
			o->nsub = (int)cli_long(optarg, "--subband", 1, 1 << 20);
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
			cli_usage(usage_text, 2);
		}
	}
	o->input = cli_input(argc, argv, usage_text);
	if (o->algo < 0)
		o->algo = o->nsub > 0 ? SPS_ALGO_SUBBAND : SPS_ALGO_DIRECT;
	if (o->nsub > 0 && o->algo != SPS_ALGO_SUBBAND &&
	    o->algo != SPS_ALGO_TREE_LINEAR)
		cli_usage_error(usage_text, "--subband applies to --algo "
		    "subband and tree-linear");
	if (o->group > 0 && o->algo != SPS_ALGO_SUBBAND)
		cli_usage_error(usage_text, "--group applies to --algo "
		    "subband");
	if (o->single + o->range + (o->plan_file != NULL) != 1)
		cli_usage_error(usage_text, "give exactly one of -d DM, --dm LO "
		    "HI and --plan FILE");
	if (o->presto && o->prefix == NULL)
		cli_usage_error(usage_text, "--presto needs -o PREFIX");
	if (o->nbits != 32 && (o->prefix != NULL || o->single))
		cli_usage_error(usage_text, "-b %d applies to the DM-time "
		    "stream; time series are written as 32-bit floats",
		    o->nbits);
}

static void
make_plan(const struct options *o, const struct sps_header *h,
    struct sps_plan *plan)
{
	int max_scrunch = o->scrunch ? SPS_DEDISP_SCRUNCH_MAX : 1;

	if (o->range)
		cli_check(sps_plan_range(plan, h, o->dm_lo, o->dm_hi,
		    o->width_us, o->tol, max_scrunch), NULL);
	else if (o->plan_file != NULL)
		cli_check(sps_plan_load(plan, o->plan_file, h, max_scrunch),
		    NULL);
	else {
		sps_plan_init(plan);
		cli_check(sps_plan_add(plan, o->dm_single, 1), NULL);
		if (max_scrunch > 1)
			cli_check(sps_plan_scrunch(plan, h, max_scrunch), NULL);
		cli_check(sps_plan_check(plan), NULL);
	}
}

/* What the run will do and the memory it has, before any data. */
static void
report_setup(const struct sps_dedisp_engine *eng, int quiet)
{
	struct sps_dedisp_engine_info in;

	sps_dedisp_engine_info(eng, &in);
	if (quiet)
		return;
	if (in.on_gpu)
		fprintf(stderr, "sps-dedisperse: %d trials, blocks of %zu "
		    "samples in gulps of %zu + %zu overlap on GPU %d, memory "
		    "%.0f MB (host, page-locked) and %.0f MB (GPU)\n",
		    in.ntrials, in.block, in.gulp, in.max_delay, in.device,
		    in.host_mb, in.device_mb);
	else
		fprintf(stderr, "sps-dedisperse: %d trials, blocks of %zu "
		    "samples + %zu overlap, memory %.0f MB (input %.0f, work "
		    "%.0f, output %.0f)\n", in.ntrials, in.block, in.max_delay,
		    in.host_mb, in.in_mb, in.work_mb, in.out_mb);
}

/* seconds: the whole run; streaming: from the first read on (the rest
 * is setting up: plans, tables, memory, the device). */
static void
report(const struct options *o, const struct sps_header *h,
    const struct sps_dedisp_engine *eng, uint64_t nout, double seconds,
    double streaming, double writing, unsigned long long nclipped)
{
	struct sps_dedisp_engine_times t;
	struct sps_dedisp_engine_info in;
	const char *path;
	char note[256];
	double adds;

	if (o->quiet)
		return;
	sps_dedisp_engine_info(eng, &in);
	adds = (double)nout * h->nchans * h->nifs * in.ntrials;
	fprintf(stderr, "sps-dedisperse: %llu samples x %d trials in %.2f s "
	    "(%.2f G additions/s, %.1fx real time)\n", (unsigned long long)
	    nout, in.ntrials, seconds, adds / seconds / 1e9, nout * h->tsamp /
	    seconds);
	fprintf(stderr, "sps-dedisperse: streaming %.2f s after %.2f s of "
	    "setup (%.1fx real time)\n", streaming, seconds - streaming,
	    nout * h->tsamp / streaming);
	if (sps_dedisp_smear_note(sps_dedisp_engine_plan(eng), note,
	    sizeof(note)) != NULL)
		fprintf(stderr, "sps-dedisperse: %s\n", note);
	if (nclipped > 0)
		fprintf(stderr, "sps-dedisperse: %llu values clipped to %d "
		    "bits\n", nclipped, o->nbits);
	if (!in.on_gpu)
		return;
	sps_dedisp_engine_times(eng, &t);
	fprintf(stderr, "sps-dedisperse: GPU kernels %.3f s (%.2f T "
	    "additions/s)\n", t.kernels, adds / t.kernels / 1e12);
	if ((path = sps_dedisp_engine_gpu_path(eng)) != NULL)
		fprintf(stderr, "sps-dedisperse: GPU direct kernel %s\n", path);
	fprintf(stderr, "sps-dedisperse: streaming: %.3f s reading, %.3f s "
	    "writing, %.3f s waiting for the GPU\n", t.reading, writing,
	    t.waiting);
}

static struct sps_dedisp_engine *
make_engine(const struct options *o, struct sps_reader *r,
    const struct sps_plan *plan, const unsigned char *kill)
{
	struct sps_dedisp_engine_opts eo;
	struct sps_dedisp_engine_info in;
	struct sps_dedisp_engine *eng;

	memset(&eo, 0, sizeof(eo));
	eo.plan.nthreads = o->threads;
	eo.plan.nsub = o->nsub;
	eo.plan.group = o->group;
	eo.plan.algo = o->algo;
	eo.engine = o->gpu;
	eo.device = o->device;
	eo.block = (size_t)o->block;
	eo.fixed_gulp = o->gulp_fixed;
	eo.pack_bits = o->nbits != 32 ? o->nbits : 0;
	cli_check(sps_dedisp_engine_create(&eng, r, plan->dm, plan->scrunch,
	    (int)plan->ntrials, kill, &eo), NULL);
	sps_dedisp_engine_info(eng, &in);
	if (in.note != NULL)	/* a warning: not silenced by -q */
		fprintf(stderr, "sps-dedisperse: %s\n", in.note);
	return eng;
}

static struct sps_dedisp_out *
open_outputs(const struct options *o, const struct sps_reader *r,
    const struct sps_plan *plan, const struct sps_dedisp_engine *eng)
{
	struct sps_dedisp_out_opts oo = { o->prefix, o->presto, o->single,
	    o->nbits };
	struct sps_dedisp_engine_info in;
	struct sps_dedisp_out *out;

	sps_dedisp_engine_info(eng, &in);
	cli_check(sps_dedisp_out_open(&out, &oo, &r->hdr, plan->dm,
	    plan->scrunch, (int)plan->ntrials, in.block, in.max_delay,
	    r->nsamples), NULL);
	return out;
}

int
main(int argc, char **argv)
{
	struct sps_dedisp_engine *eng;
	struct sps_dedisp_out *out;
	struct sps_reader r;
	struct sps_plan plan;
	struct options o;
	unsigned char *kill;
	const float *block;
	uint64_t nout_total = 0;
	unsigned long long nclipped;
	double start = cli_now(), streaming, writing = 0, t0;
	size_t n;

	cli_init("sps-dedisperse", argv);
	sps_device_queues(3);	/* copies in, kernels, copies out */
	parse_options(&o, argc, argv);
	if (o.prefix == NULL)
		cli_binary_output(NULL);
	cli_check(sps_reader_open(&r, o.input), NULL);
	if (r.hdr.sps_dmtime || r.hdr.sps_order != 0)
		errx(1, "%s: not time-major filterbank data", r.name);
	make_plan(&o, &r.hdr, &plan);
	cli_check(sps_killmask_make(o.killfile, o.ignorechan, &r.hdr, &kill),
	    NULL);
	eng = make_engine(&o, &r, &plan, kill);
	report_setup(eng, o.quiet);
	out = open_outputs(&o, &r, &plan, eng);
	streaming = cli_now();
	for (;;) {
		cli_check(sps_dedisp_engine_next(eng, &block, &n), NULL);
		if (n == 0)
			break;
		t0 = cli_now();
		cli_check(sps_dedisp_out_engine_block(out, eng, block, n),
		    NULL);
		writing += cli_now() - t0;
		nout_total += n;
		if (r.nsamples != SPS_NSAMPLES_UNKNOWN)
			cli_progress(o.quiet, (double)r.position / r.nsamples,
			    nout_total * r.hdr.tsamp);
	}
	cli_progress_done(o.quiet);
	nclipped = sps_dedisp_out_clipped(out);
	cli_check(sps_dedisp_out_close(out), NULL);
	if (o.prefix == NULL)
		sps_writer_release_stdout();
	streaming = cli_now() - streaming;
	report(&o, &r.hdr, eng, nout_total, cli_now() - start, streaming,
	    writing, nclipped);
	sps_dedisp_engine_free(eng);
	sps_plan_free(&plan);
	cli_reader_close(&r);
	free(kill);
	return 0;
}

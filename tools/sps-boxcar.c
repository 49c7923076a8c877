/* sps-boxcar: boxcar search of dedispersed data (BoxDIT, IGRID, DIT or
 * every width), giving events above a threshold or the S/N plane. */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxcar.h"
#include "boxcar_report.h"
#include "cli.h"
#include "clock.h"
#include "dedisp_engine.h"
#include "devices.h"
#include "dmtime.h"
#include "dmtime_in.h"
#include "events.h"
#include "header.h"
#include "help.h"
#include "readahead.h"
#include "search.h"
#include "writer.h"

#define DEFAULT_ALGORITHM	"BD-16"

static const char usage_text[] =
    "usage: sps-boxcar [-q] [-a ALGORITHM] [-w SAMPLES | --max-width-s S]\n"
    "           [-s SNR] [--baseline S] [--outlier SIGMA] [--white]\n"
    "           [--plane] [-t THREADS] [--gpu [--device N] | --cpu]\n"
    "           [-o FILE] [FILE]\n"
    "       sps-boxcar --loss [-a ALGORITHM] [-w SAMPLES]\n"
    "       sps-boxcar --bench [-a ALGORITHM] [-w SAMPLES] [-t THREADS]\n";

struct options {
	const char	*input;
	const char	*output;
	long		 width;		/* base samples; 0: from seconds */
	double		 width_s;
	int		 quiet;
	int		 loss;
	int		 bench;
	struct sps_search_opts search;	/* but for the width */
};

enum {
	OPT_BASELINE = 256, OPT_BENCH, OPT_CPU, OPT_DEVICE, OPT_GPU, OPT_LOSS,
	OPT_OUTLIER, OPT_PLANE, OPT_VERSION, OPT_WHITE, OPT_WIDTH_S
};

static void
parse_options(struct options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "algorithm", required_argument, NULL, 'a' },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "bench", no_argument, NULL, OPT_BENCH },
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "gpu", no_argument, NULL, OPT_GPU },
		{ "help", no_argument, NULL, 'h' },
		{ "loss", no_argument, NULL, OPT_LOSS },
		{ "max-width", required_argument, NULL, 'w' },
		{ "max-width-s", required_argument, NULL, OPT_WIDTH_S },
		{ "outlier", required_argument, NULL, OPT_OUTLIER },
		{ "output", required_argument, NULL, 'o' },
		{ "plane", no_argument, NULL, OPT_PLANE },
		{ "quiet", no_argument, NULL, 'q' },
		{ "threads", required_argument, NULL, 't' },
		{ "threshold", required_argument, NULL, 's' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "white", no_argument, NULL, OPT_WHITE },
		{ NULL, 0, NULL, 0 }
	};
	struct sps_search_opts *so = &o->search;
	struct sps_boxcar_plan p;
	int ch;

	memset(o, 0, sizeof(*o));
	so->algorithm = DEFAULT_ALGORITHM;
	so->threshold = SPS_SEARCH_THRESHOLD;
	so->outlier = SPS_SEARCH_OUTLIER;
	so->gpu = SPS_ENGINE_ANY;
	cli_long_hint(argc, argv, longopts);
	while ((ch = getopt_long(argc, argv, "a:ho:qs:t:w:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'a':
			so->algorithm = optarg;
			break;
		case 'h':
			cli_help(usage_text, help_boxcar);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 's':
			so->threshold = cli_double(optarg, "-s", 0, 1e6);
			break;
		case 't':
			so->nthreads = (int)cli_long(optarg, "-t", 1, 4096);
			break;
		case 'w':
			o->width = (long)cli_long(optarg, "-w", 1,
			    SPS_BOXCAR_MAXWIDTH);
			break;
		case OPT_BASELINE:
			so->baseline = cli_double(optarg, "--baseline", 1e-6,
			    1e6);
			break;
		case OPT_BENCH:
			o->bench = 1;
			break;
		case OPT_CPU:
			so->gpu = SPS_ENGINE_CPU;
			break;
		case OPT_DEVICE:
			so->device = (int)cli_long(optarg, "--device", 0, 1024);
			so->gpu = SPS_ENGINE_GPU;
			break;
		case OPT_GPU:
			so->gpu = SPS_ENGINE_GPU;
			break;
		case OPT_LOSS:
			o->loss = 1;
			break;
		case OPT_OUTLIER:
			so->outlier = cli_double(optarg, "--outlier", 0, 1000);
			if (so->outlier > 0 && so->outlier < 1.5)
				cli_usage_error(usage_text, "--outlier %g: "
				    "give 0 (no rejection) or at least 1.5",
				    so->outlier);
			break;
		case OPT_PLANE:
			so->want_plane = 1;
			break;
		case OPT_VERSION:
			cli_version();
			break;
		case OPT_WHITE:
			so->white = 1;
			break;
		case OPT_WIDTH_S:
			o->width_s = cli_double(optarg, "--max-width-s", 1e-9,
			    1e6);
			break;
		default:
			cli_usage(usage_text, 2);
		}
	}
	o->input = cli_input(argc, argv, usage_text);
	if (o->width > 0 && o->width_s > 0)
		cli_usage_error(usage_text, "give -w or --max-width-s, not both");
	if (o->width_s > 0 && (o->loss || o->bench))
		cli_usage_error(usage_text, "--loss and --bench take -w SAMPLES");
	if (so->gpu == SPS_ENGINE_GPU && so->want_plane)
		cli_usage_error(usage_text, "--plane is searched on the CPU "
		    "only: give it without --gpu");
	if (o->loss && o->bench)
		cli_usage_error(usage_text, "--loss or --bench, not both");
	if ((o->loss || o->bench) && optind < argc)
		cli_usage_error(usage_text, "--loss and --bench read no input");
	if (o->width == 0 && o->width_s == 0)
		o->width = SPS_SEARCH_WIDTH;
	if (sps_boxcar_plan_make(&p, so->algorithm, 1) != SPS_OK)
		cli_usage_error(usage_text, "-a %s: %s", so->algorithm,
		    sps_errmsg());
}

/* ---- --bench ---- */

static void
bench(const struct options *o, const struct sps_boxcar_plan *p)
{
	struct sps_boxcar_bench b;

	cli_check(sps_boxcar_bench_run(p, o->search.outlier,
	    o->search.nthreads, &b), NULL);
	if (!sps_boxcar_bench_print(stdout, p, &b))
		exit(1);
}

/* ---- the search ---- */

struct run {
	struct options		 o;
	struct sps_dmtime_in	 in;
	struct sps_search	*search;
	struct sps_writer	 out;
	int			 started;	/* output header written */
};

/* cli_check, after the device's start (sps_device_warm) is over: the CUDA
 * runtime must not be torn down at exit while it starts. */
static void
check_warm(enum sps_err e)
{
	if (e != SPS_OK)
		sps_device_warm_wait();
	cli_check(e, NULL);
}

static void
create_search(struct run *r)
{
	const struct sps_header *h = &r->in.hdr;
	double w;

	w = r->o.width > 0 ? (double)r->o.width : round(r->o.width_s /
	    h->tsamp);
	if (w < 1 || w > SPS_BOXCAR_MAXWIDTH) {
		sps_device_warm_wait();
		errx(1, "--max-width-s %g: %.0f samples of %g s, not in [1, "
		    "%d]", r->o.width_s, w, h->tsamp, SPS_BOXCAR_MAXWIDTH);
	}
	r->o.search.max_width = (int)w;
	r->o.search.name = r->in.name;
	check_warm(sps_search_create(&r->search, h, &r->o.search));
}

static void
start_output(struct run *r)
{
	struct sps_header plane;

	cli_check(sps_writer_open(&r->out, r->o.output), NULL);
	if (r->o.search.want_plane) {
		sps_header_init(&plane);
		cli_check(sps_search_plane_header(r->search, &r->in.hdr,
		    &plane), NULL);
		cli_check(sps_writer_header(&r->out, &plane), NULL);
		sps_header_free(&plane);
	} else {
		struct sps_events_meta m;

		sps_search_events_meta(r->search, &r->in.hdr, r->in.nsamples,
		    &m);
		if (sps_events_write_header(r->out.f, &m) != SPS_OK)
			cli_stream_fail(&r->out);
	}
	r->started = 1;
}

static void
write_plane(struct run *r)
{
	const float *v;
	size_t n, nv;

	for (;;) {
		cli_check(sps_search_plane_block(r->search, &v, &n, &nv),
		    NULL);
		if (n == 0)
			return;
		if (sps_dmtime_write_frame(r->out.f, n) != SPS_OK)
			cli_stream_fail(&r->out);
		if (sps_writer_raw(&r->out, v, 2 * nv * sizeof(float)) !=
		    SPS_OK)
			cli_output_fail(&r->out);
	}
}

static void
write_events(struct run *r)
{
	const struct sps_event *e;
	size_t n, j;

	e = sps_search_events(r->search, &n);
	for (j = 0; j < n; j++)
		if (sps_events_write(r->out.f, &e[j]) != SPS_OK)
			cli_stream_fail(&r->out);
}

/* What a block or the end gave; nothing goes out until something has
 * been searched. */
static void
emit(struct run *r)
{
	if (!r->started && sps_search_started(r->search))
		start_output(r);
	if (!r->started)
		return;
	if (r->o.search.want_plane)
		write_plane(r);
	else
		write_events(r);
}

static void
report(struct run *r, double seconds)
{
	const struct sps_boxcar_plan *p = sps_search_plan(r->search);
	struct sps_search_stats st;
	double kernels;
	size_t memory;

	sps_search_stats(r->search, &st);
	if (st.windows == 0)
		errx(1, "%s: no data", r->in.name);
	if (st.skipped == st.windows)
		errx(1, "%s: noise estimate zero or not a number in every "
		    "trial (constant or empty data): nothing searched",
		    r->in.name);
	if (st.skipped > 0)
		warnx("%llu of %llu windows not searched: noise estimate zero "
		    "or not a number", st.skipped, st.windows);
	if (st.nbad > 0)
		warnx("%llu samples not finite: set to the baseline", st.nbad);
	if (r->o.quiet)
		return;
	fprintf(stderr, "sps-boxcar: %s, widths 1..%d samples: %d trials, "
	    "%llu samples, ", p->name, p->max_width, st.ntrials,
	    (unsigned long long)st.samples);
	if (!r->o.search.want_plane)
		fprintf(stderr, "%llu events >= %g, ", st.nevents,
		    r->o.search.threshold);
	fprintf(stderr, "%.2f s (%.1fx real time) on the %s", seconds,
	    st.nbase * r->in.hdr.tsamp / seconds, sps_search_on_gpu(r->search)
	    ? "GPU" : "CPU");
	sps_search_gpu_info(r->search, &kernels, &memory);
	if (kernels > 0)	/* one line, so --bench's parsers see it */
		fprintf(stderr, ", kernels %.3f s (%.1f G samples/s)", kernels,
		    (double)st.samples / kernels / 1e9);
	fputc('\n', stderr);
	if (sps_search_gpu_note(r->search) != NULL)
		fprintf(stderr, "sps-boxcar: not on the GPU: %s\n",
		    sps_search_gpu_note(r->search));
}

static void
search(struct run *r)
{
	double start = cli_now();
	struct sps_readahead *ra;
	uint64_t nbase = 0;
	int to_stdout;
	size_t n;

	cli_check(sps_readahead_start(&ra, &r->in, r->search), NULL);
	cli_check(sps_readahead_feed(ra, r->search, &n), NULL);
	if (n == 0)
		errx(1, "%s: no data", r->in.name);
	for (; n > 0; cli_check(sps_readahead_feed(ra, r->search, &n), NULL)) {
		nbase += n;
		sps_trace("search: fed %zu", n);
		emit(r);
		if (r->in.nsamples > 0)
			cli_progress(r->o.quiet, (double)nbase /
			    (double)r->in.nsamples, nbase * r->in.hdr.tsamp);
	}
	sps_readahead_stop(ra);
	cli_progress_done(r->o.quiet);
	cli_check(sps_search_finish(r->search), NULL);
	emit(r);
	report(r, cli_now() - start);
	to_stdout = r->out.f == stdout;
	cli_check(sps_writer_close(&r->out), NULL);
	if (to_stdout)
		sps_writer_release_stdout();
}

int
main(int argc, char **argv)
{
	struct sps_boxcar_plan plan;
	struct run r;

	cli_init("sps-boxcar", argv);
	sps_device_queues(2);	/* the search's stream, and copies */
	memset(&r, 0, sizeof(r));
	parse_options(&r.o, argc, argv);
	if (r.o.search.want_plane)
		cli_binary_output(r.o.output);
	if (r.o.loss || r.o.bench) {
		cli_check(sps_boxcar_plan_make(&plan, r.o.search.algorithm,
		    (int)r.o.width), NULL);
		if (r.o.loss)
			sps_boxcar_loss_table(stdout, &plan);
		else
			bench(&r.o, &plan);
		return 0;
	}
	if (r.o.search.gpu != SPS_ENGINE_CPU && !r.o.search.want_plane) {
		/* while a pipe's header comes */
		sps_device_warm(r.o.search.device);
		sps_search_preload(&r.o.search);
	}
	check_warm(sps_dmtime_in_open(&r.in, r.o.input));
	create_search(&r);
	search(&r);
	sps_search_free(r.search);
	sps_dmtime_in_close(&r.in);
	return 0;
}

/* sps-dedisperse: dedisperse filterbank data at many DMs (CPU). */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dedisperse.h"
#include "devices.h"
#include "gpu.h"
#include "dmtime.h"
#include "killmask.h"
#include "plan.h"
#include "presto.h"
#include "reader.h"
#include "writer.h"

#define DEFAULT_BLOCK	16384	/* output samples per block */

static const char usage_text[] =
    "usage: sps-dedisperse [-q] [-d DM | --dm LO HI [--dm_tol T]\n"
    "           [--dm_pulse_width US] | --plan FILE] [--scrunch]\n"
    "           [--algo ALGO] [--subband NSUB [--group N]] [-k KILLFILE]\n"
    "           [-b NBITS] [-o PREFIX [--presto]] [-t THREADS] [--block N]\n"
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

/* Where the dedispersed series go: one DM-time stream on standard
 * output, or one file (or .dat + .inf pair) per trial. */
struct sinks {
	struct sps_writer	 stream;
	struct sps_header	 stream_hdr;
	struct sps_writer	*tim;	/* per trial, or NULL */
	struct sps_writer	*dat;	/* per trial, or NULL */
	struct sps_header	*tim_hdr;
	int			 ntrials;
	unsigned long long	 nclipped;
	uint64_t		*written;	/* samples per trial */
};

static void
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr, "%s", usage_text);
	exit(status);
}

enum {
	OPT_DM = 256, OPT_TOL, OPT_WIDTH, OPT_PLAN, OPT_SCRUNCH, OPT_SUBBAND,
	OPT_GROUP, OPT_PRESTO, OPT_BLOCK, OPT_VERSION, OPT_GPU, OPT_CPU,
	OPT_DEVICE, OPT_ALGO
};

static const char *const algo_names[] = {
	"direct", "subband", "tree-linear", "tree-padded"
};

static int
parse_algo(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(algo_names) / sizeof(algo_names[0]); i++)
		if (strcmp(name, algo_names[i]) == 0)
			return (int)i;
	cli_usage_error(usage_text, "--algo %s: not one of direct, subband, "
	    "tree-linear, tree-padded", name);
	return -1;
}

static void
parse_range(struct options *o, int argc, char **argv)
{
	o->dm_lo = cli_double(optarg, "--dm", 0, 1e6);
	if (optind >= argc)
		cli_usage_error(usage_text, "--dm needs two values: LO HI");
	o->dm_hi = cli_double(argv[optind++], "--dm", 0, 1e6);
	if (o->dm_hi < o->dm_lo)
		cli_usage_error(usage_text, "--dm %g %g: HI is below LO",
		    o->dm_lo, o->dm_hi);
	o->range = 1;
}

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
	o->block = DEFAULT_BLOCK;
	o->gpu = -1;
	o->algo = -1;
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
			usage(0);
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
			o->algo = parse_algo(optarg);
			break;
		case OPT_BLOCK:
			o->block = cli_long(optarg, "--block", 1, 1L << 26);
			o->gulp_fixed = 1;
			break;
		case OPT_CPU:
			o->gpu = 0;
			break;
		case OPT_DEVICE:
			o->device = (int)cli_long(optarg, "--device", 0, 1024);
			o->gpu = 1;
			break;
		case OPT_DM:
			parse_range(o, argc, argv);
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
			usage(2);
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
	sps_plan_init(plan);
	if (o->single) {
		cli_check(sps_plan_add(plan, o->dm_single, 1), NULL);
	} else if (o->range) {
		cli_check(sps_plan_dedisp(plan, h, o->dm_lo, o->dm_hi,
		    o->width_us, o->tol), NULL);
	} else {
		FILE *f = fopen(o->plan_file, "r");

		if (f == NULL)
			err(1, "%s", o->plan_file);
		cli_check(sps_plan_read(f, o->plan_file, plan), NULL);
		fclose(f);
		cli_check(sps_plan_match(plan, h), o->plan_file);
	}
	if (o->scrunch)
		cli_check(sps_plan_scrunch(plan, h, 1 << 10), NULL);
	cli_check(sps_plan_check(plan), NULL);
}

static unsigned char *
read_killmask(const char *path, int nchans)
{
	unsigned char *kill;
	FILE *f;

	if (path == NULL)
		return NULL;
	if ((f = fopen(path, "r")) == NULL)
		err(1, "%s", path);
	if ((kill = calloc((size_t)nchans, 1)) == NULL)
		err(1, NULL);
	cli_check(sps_killmask_read(f, path, nchans, kill), NULL);
	fclose(f);
	return kill;
}

static double
top_frequency(const struct sps_header *h)
{
	return fmax(sps_channel_freq(h, 0), sps_channel_freq(h,
	    h->nchans - 1));
}

static double
bottom_frequency(const struct sps_header *h)
{
	return fmin(sps_channel_freq(h, 0), sps_channel_freq(h,
	    h->nchans - 1));
}

/* A dedispersed series keeps the input's identity; only what dedispersion
 * changes is changed. */
static void
series_header(struct sps_header *out, const struct sps_header *in)
{
	cli_check(sps_header_copy(out, in), NULL);
	out->nchans = 1;
	out->nifs = 1;
	out->nbits = 32;
	out->data_type = 2;
	out->fch1 = top_frequency(in);
	out->foff = 0;
	out->nfchannel = 0;
	free(out->fchannel);
	out->fchannel = NULL;
	sps_header_mark(out, "data_type");
	sps_header_mark(out, "fch1");
	sps_header_unmark(out, "foff");
	sps_header_unmark(out, "signed");
	sps_header_unmark(out, "nsamples");
	sps_header_unmark(out, "nbeams");
	sps_header_unmark(out, "ibeam");
}

static void
open_stream(struct sinks *s, const struct options *o,
    const struct sps_header *in, const struct sps_plan *plan, size_t block,
    size_t max_delay, uint64_t nsamples)
{
	struct sps_header *h = &s->stream_hdr;

	series_header(h, in);
	h->nbits = o->nbits;
	h->sps_dmtime = 1;
	h->sps_block = (int)block;
	h->sps_maxdelay = (int)max_delay;
	h->sps_nchans_in = in->nchans;
	sps_header_mark(h, "sps_dmtime");
	sps_header_mark(h, "sps_block");
	sps_header_mark(h, "sps_maxdelay");
	sps_header_mark(h, "sps_nchans_in");
	if (nsamples != SPS_NSAMPLES_UNKNOWN && nsamples <= INT32_MAX) {
		h->nsamples = (int)(nsamples > max_delay ? nsamples -
		    max_delay : 0);
		sps_header_mark(h, "nsamples");
	}
	cli_check(sps_header_set_dms(h, plan->dm, plan->scrunch,
	    (int)plan->ntrials), NULL);
	cli_check(sps_writer_open(&s->stream, NULL), NULL);
}

static void
raise_file_limit(int need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	if (rl.rlim_cur < (rlim_t)need + 16) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)need +
	    16)
		errx(1, "%d output files need more open files than the limit "
		    "of %llu (ulimit -n)", need, (unsigned long long)
		    rl.rlim_cur);
}

static void
open_series(struct sinks *s, const struct options *o,
    const struct sps_header *in, const struct sps_plan *plan)
{
	int n = (int)plan->ntrials, i;
	char *path;

	for (i = 1; o->prefix != NULL && i < n; i++) {
		char a[64], b[64];

		snprintf(a, sizeof(a), "%.2f", plan->dm[i - 1]);
		snprintf(b, sizeof(b), "%.2f", plan->dm[i]);
		if (strcmp(a, b) == 0)
			errx(1, "trials %d and %d (DM %g and %g) would both be "
			    "written to %s_DM%s.tim: file names carry two "
			    "decimals", i - 1, i, plan->dm[i - 1], plan->dm[i],
			    o->prefix, a);
	}
	raise_file_limit(o->presto ? 2 * n : n);
	s->tim = calloc((size_t)n, sizeof(*s->tim));
	s->tim_hdr = calloc((size_t)n, sizeof(*s->tim_hdr));
	if (o->presto)
		s->dat = calloc((size_t)n, sizeof(*s->dat));
	if (s->tim == NULL || s->tim_hdr == NULL || (o->presto &&
	    s->dat == NULL))
		err(1, NULL);
	for (i = 0; i < n; i++) {
		series_header(&s->tim_hdr[i], in);
		s->tim_hdr[i].refdm = plan->dm[i];
		s->tim_hdr[i].tsamp = in->tsamp * plan->scrunch[i];
		sps_header_mark(&s->tim_hdr[i], "refdm");
		if (o->prefix == NULL) {
			cli_check(sps_writer_open(&s->tim[i], NULL), NULL);
		} else {
			if (asprintf(&path, "%s_DM%.2f.tim", o->prefix,
			    plan->dm[i]) < 0)
				err(1, NULL);
			cli_check(sps_writer_open(&s->tim[i], path), NULL);
			free(path);
		}
		if (o->presto && o->prefix != NULL) {
			if (asprintf(&path, "%s_DM%.2f.dat", o->prefix,
			    plan->dm[i]) < 0)
				err(1, NULL);
			cli_check(sps_writer_open(&s->dat[i], path), NULL);
			free(path);
		}
	}
}

static void
open_sinks(struct sinks *s, const struct options *o,
    const struct sps_reader *r, const struct sps_plan *plan, size_t block,
    size_t max_delay)
{
	memset(s, 0, sizeof(*s));
	s->ntrials = (int)plan->ntrials;
	if ((s->written = calloc(plan->ntrials, sizeof(uint64_t))) == NULL)
		err(1, NULL);
	if (o->prefix != NULL || o->single)
		open_series(s, o, &r->hdr, plan);
	else
		open_stream(s, o, &r->hdr, plan, block, max_delay,
		    r->nsamples);
}

static void
abort_sinks(struct sinks *s)
{
	int i;

	if (s->tim == NULL) {
		sps_writer_abort(&s->stream);
		return;
	}
	for (i = 0; i < s->ntrials; i++) {
		sps_writer_abort(&s->tim[i]);
		if (s->dat != NULL)
			sps_writer_abort(&s->dat[i]);
	}
}

static void
check_or_abort(enum sps_err e, struct sinks *s)
{
	if (e == SPS_OK)
		return;
	abort_sinks(s);
	cli_check(e, NULL);
}

static void
emit_block(struct sinks *s, struct sps_dedisp_plan *dp, const float *out,
    size_t nout, int first)
{
	enum sps_err e = SPS_OK;
	int i;

	if (s->tim == NULL) {
		if (first) {
			if (s->stream_hdr.nbits != 32)
				sps_dmtime_choose_scale(&s->stream_hdr, out,
				    nout);
			check_or_abort(sps_writer_header(&s->stream,
			    &s->stream_hdr), s);
		}
		check_or_abort(sps_dmtime_write_block(s->stream.f,
		    &s->stream_hdr, out, nout, &s->nclipped), s);
		return;
	}
	for (i = 0; first && i < s->ntrials && e == SPS_OK; i++)
		e = sps_writer_header(&s->tim[i], &s->tim_hdr[i]);
	for (i = 0; i < s->ntrials && e == SPS_OK; i++) {
		const float *v = out + sps_dedisp_out_offset(dp, nout, i);
		size_t m = sps_dedisp_out_offset(dp, nout, i + 1) -
		    sps_dedisp_out_offset(dp, nout, i);

		e = sps_writer_raw(&s->tim[i], v, m * sizeof(float));
		if (e == SPS_OK && s->dat != NULL)
			e = sps_writer_raw(&s->dat[i], v, m * sizeof(float));
		s->written[i] += m;
	}
	check_or_abort(e, s);
}

static void
write_inf(const struct options *o, const struct sps_header *in,
    const struct sps_header *tim, uint64_t n)
{
	char *root, *path;
	FILE *f;

	if (asprintf(&root, "%s_DM%.2f", o->prefix, tim->refdm) < 0 ||
	    asprintf(&path, "%s.inf", root) < 0)
		err(1, NULL);
	if ((f = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	cli_check(sps_presto_write_inf(f, root, tim, n, in->nchans, in->foff,
	    bottom_frequency(in)), NULL);
	if (fclose(f) != 0)
		err(1, "%s", path);
	free(root);
	free(path);
}

static void
close_sinks(struct sinks *s, const struct options *o,
    const struct sps_header *in)
{
	int i;

	if (s->tim == NULL) {
		cli_check(sps_writer_close(&s->stream), NULL);
		sps_header_free(&s->stream_hdr);
		free(s->written);
		return;
	}
	for (i = 0; i < s->ntrials; i++) {
		cli_check(sps_writer_close(&s->tim[i]), NULL);
		if (s->dat != NULL) {
			cli_check(sps_writer_close(&s->dat[i]), NULL);
			write_inf(o, in, &s->tim_hdr[i], s->written[i]);
		}
		sps_header_free(&s->tim_hdr[i]);
	}
	free(s->tim);
	free(s->dat);
	free(s->tim_hdr);
	free(s->written);
}

static size_t
available_memory(void)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	char line[256];
	size_t kb = 0;
	FILE *f;

	if ((f = fopen("/proc/meminfo", "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "MemAvailable: %zu kB", &kb) == 1)
				break;
		fclose(f);
	}
	if (kb > 0)
		return kb * 1024;
	return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

/* Tell the memory a run needs before reading data, and fail at once if
 * it cannot be had. */
static void
reserve_memory(struct sps_dedisp_plan *dp, size_t nin, size_t block,
    size_t nvalues, const struct options *o, int ntrials)
{
	double in_mb = (double)nin * nvalues * sizeof(float) / 1048576;
	double out_mb = (double)sps_dedisp_out_size(dp, block) *
	    sizeof(float) / 1048576;
	double work_mb, total;
	size_t avail = available_memory();

	work_mb = (double)sps_dedisp_work_bytes(dp, nin) / 1048576;
	total = in_mb + out_mb + work_mb;
	if (sps_dedisp_reserve(dp, nin, block) != SPS_OK)
		errx(1, "needs at least %.0f MB of memory for blocks of %zu "
		    "samples and could not have it: %s (try a smaller "
		    "--block)", total, block, sps_errmsg());
	work_mb = (double)sps_dedisp_held_bytes(dp) / 1048576;
	total = in_mb + out_mb + work_mb;
	if (!o->quiet)
		fprintf(stderr, "sps-dedisperse: %d trials, blocks of %zu "
		    "samples + %zu overlap, memory %.0f MB (input %.0f, "
		    "work %.0f, output %.0f)\n", ntrials, block,
		    nin - block, total, in_mb, work_mb, out_mb);
	if (avail > 0 && total * 1048576 > (double)avail)
		errx(1, "needs %.0f MB of memory, only %.0f MB available "
		    "(try a smaller --block)", total, (double)avail / 1048576);
}

/* The dedispersion engine of a run: the CPU plan (always: it also gives
 * the delays and the output layout) and, when used, the GPU plan, which
 * takes the raw bytes of the input rather than floats, a gulp of several
 * blocks at a time, into two page-locked buffers so that reading and
 * writing one gulp overlap the GPU's work on the other. */
struct engine {
	struct sps_dedisp_plan	*cpu;
	struct sps_gpu_dedisp	*gpu;
	unsigned char		*in[2];	/* nin spectra each */
	float			*out[2];
	size_t			 unit;	/* bytes of one spectrum in `in` */
	size_t			 block;	/* output samples per block */
	size_t			 gulp;	/* per dedispersion: a multiple */
	size_t			 max_delay;
	double			 kernel_ms;
	double			 reading, writing, waiting;	/* s */
};

/* Fill `in` (nin spectra) from `have`; returns spectra now held. */
static size_t
fill(struct sps_reader *r, const struct engine *eng, unsigned char *in,
    size_t have, size_t nin, int *eof, struct sinks *s)
{
	enum sps_err e = SPS_OK;
	size_t got;

	while (have < nin) {
		if (eng->gpu != NULL)
			e = sps_reader_read_raw(r, in + have * eng->unit,
			    nin - have, &got);
		else
			e = sps_reader_read(r, (float *)(void *)(in +
			    have * eng->unit), nin - have, &got);
		have += got;
		if (e == SPS_EEOF) {
			*eof = 1;
			break;
		}
		check_or_abort(e, s);
	}
	return have;
}

/* Host memory of the GPU path: two gulps of raw input and of output. */
static double
pinned_bytes(const struct engine *eng, size_t gulp)
{
	return 2.0 * ((double)(gulp + eng->max_delay) * eng->unit + (double)
	    sps_dedisp_out_size(eng->cpu, gulp) * sizeof(float));
}

/* Is the plan of this gulp too big for the device or for the host? */
static int
too_big(const struct engine *eng, size_t free_dev, size_t host_avail)
{
	return (double)sps_gpu_dedisp_memory(eng->gpu) > 0.75 * free_dev ||
	    (host_avail > 0 && pinned_bytes(eng, eng->gulp) > 0.5 *
	    host_avail);
}

/* The gulp to aim for: several per file, so that the copies and the
 * reading and writing overlap the kernels, yet long beside the largest
 * delay, which each gulp reads again (and the trees compute again), long
 * enough for the kernels' launches to fill the device to the end, and
 * short enough for the packed 8-bit kernels of the algorithm. */
static size_t
gulp_target(const struct engine *eng, const struct sps_reader *r,
    enum sps_dedisp_algo algo)
{
	size_t want = (size_t)1 << 16, data;

	while (want < 4 * eng->max_delay && want < ((size_t)1 << 22))
		want *= 2;
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN) {
		data = (size_t)r->nsamples - eng->max_delay;
		while (want > eng->block && want / 2 >= data)
			want /= 2;
	}
	while (want > eng->block && want + eng->max_delay >
	    sps_gpu_dedisp_packed_limit(&r->hdr, algo))
		want /= 2;
	return want;
}

/* The GPU plan for gulps of one block (--block given), or for the
 * largest gulp up to gulp_target (a power of 2 times the block) that fits
 * in 3/4 of the free device memory and half the available host memory. */
static enum sps_err
make_gpu_plan(struct engine *eng, const struct options *o,
    const struct sps_reader *r, const struct sps_plan *plan,
    const unsigned char *kill, int fixed)
{
	size_t free_dev = 0, total = 0, host = available_memory();
	enum sps_err e;

	if ((e = sps_gpu_memory(o->device, &free_dev, &total)) != SPS_OK)
		return e;
	eng->gulp = eng->block;
	while (!fixed && eng->gulp * 2 <= gulp_target(eng, r, o->algo))
		eng->gulp *= 2;
	for (;;) {
		size_t nin = eng->gulp + eng->max_delay;

		e = sps_gpu_dedisp_create(&eng->gpu, o->device, &r->hdr,
		    plan->dm, plan->scrunch, (int)plan->ntrials, kill, nin,
		    eng->gulp);
		if (e == SPS_OK && o->algo == SPS_ALGO_SUBBAND) {
			struct sps_subband_tables t;

			if ((e = sps_subband_tables(eng->cpu, &t)) == SPS_OK)
				e = sps_gpu_dedisp_subband(eng->gpu, &t);
			sps_subband_tables_free(&t);
		} else if (e == SPS_OK && o->algo != SPS_ALGO_DIRECT) {
			struct sps_tree_tables t;

			if ((e = sps_tree_tables(eng->cpu, &t)) == SPS_OK)
				e = sps_gpu_dedisp_tree(eng->gpu, &t);
			sps_tree_tables_free(&t);
		}
		if (fixed || eng->gulp == eng->block || (e == SPS_OK &&
		    !too_big(eng, free_dev, host)))
			return e;
		sps_gpu_dedisp_free(eng->gpu);
		eng->gpu = NULL;
		eng->gulp /= 2;
	}
}

static void
alloc_buffers(struct engine *eng, int nbuf)
{
	size_t nin = eng->gulp + eng->max_delay;
	size_t out_bytes = sps_dedisp_out_size(eng->cpu, eng->gulp) *
	    sizeof(float) + 1;
	int i;

	for (i = 0; i < nbuf; i++) {
		if (eng->gpu != NULL) {
			eng->in[i] = sps_gpu_host_alloc(nin * eng->unit);
			eng->out[i] = sps_gpu_host_alloc(out_bytes);
		} else {
			eng->in[i] = malloc(nin * eng->unit);
			eng->out[i] = malloc(out_bytes);
		}
		if (eng->in[i] == NULL || eng->out[i] == NULL)
			errx(1, "out of memory for blocks of %zu samples", nin);
	}
}

static void
free_buffers(struct engine *eng)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (eng->gpu != NULL) {
			sps_gpu_host_free(eng->in[i]);
			sps_gpu_host_free(eng->out[i]);
		} else {
			free(eng->in[i]);
			free(eng->out[i]);
		}
	}
}

/* The GPU when asked for (--gpu: failure is an error) or by default when
 * one is usable (then the CPU runs instead, silently). */
static void
choose_engine(struct engine *eng, const struct options *o,
    const struct sps_reader *r, const struct sps_plan *plan,
    const unsigned char *kill)
{
	struct sps_device dev;
	enum sps_err e;
	int n;

	eng->gpu = NULL;
	eng->gulp = eng->block;
	eng->unit = sps_spectrum_values(&r->hdr) * sizeof(float);
	if (o->gpu == 0 || (o->gpu < 0 && sps_device_list(&dev, 1, &n) !=
	    SPS_OK))
		return;
	eng->unit = sps_spectrum_bytes(&r->hdr);	/* raw bytes go over */
	if ((e = make_gpu_plan(eng, o, r, plan, kill, o->gulp_fixed)) !=
	    SPS_OK) {
		sps_gpu_dedisp_free(eng->gpu);
		eng->gpu = NULL;
		eng->gulp = eng->block;
		eng->unit = sps_spectrum_values(&r->hdr) * sizeof(float);
		if (o->gpu == 1)
			errx(1, "GPU %d: %s", o->device, sps_errmsg());
		return;
	}
	if (!o->quiet)
		fprintf(stderr, "sps-dedisperse: %zu trials, blocks of %zu "
		    "samples in gulps of %zu + %zu overlap on GPU %d, memory "
		    "%.0f MB (host, page-locked) and %.0f MB (GPU)\n",
		    plan->ntrials, eng->block, eng->gulp, eng->max_delay,
		    o->device, pinned_bytes(eng, eng->gulp) / 1048576,
		    (double)sps_gpu_dedisp_memory(eng->gpu) / 1048576);
}

/* seconds: the whole run; streaming: from the first read on (the rest
 * is setting up: plans, tables, memory, the device). */
static void
report(const struct options *o, const struct sps_plan *plan,
    const struct sps_header *h, uint64_t nout_total, double seconds,
    double streaming, unsigned long long nclipped,
    const struct sps_dedisp_plan *dp)
{
	double adds = (double)nout_total * h->nchans * h->nifs * plan->ntrials;
	double smear = sps_dedisp_smear_bound(dp);

	if (o->quiet)
		return;
	fprintf(stderr, "sps-dedisperse: %llu samples x %zu trials in %.2f s "
	    "(%.2f G additions/s, %.1fx real time)\n",
	    (unsigned long long)nout_total, plan->ntrials, seconds,
	    adds / seconds / 1e9, nout_total * h->tsamp / seconds);
	fprintf(stderr, "sps-dedisperse: streaming %.2f s after %.2f s of "
	    "setup (%.1fx real time)\n", streaming, seconds - streaming,
	    nout_total * h->tsamp / streaming);
	if (sps_dedisp_algo(dp) == SPS_ALGO_SUBBAND)
		fprintf(stderr, "sps-dedisperse: sub-band smearing bound "
		    "%.3g ms (Barsdell et al. 2012, eq. B1)\n", smear * 1e3);
	else if (sps_dedisp_algo(dp) == SPS_ALGO_TREE_LINEAR)
		fprintf(stderr, "sps-dedisperse: tree smearing %.3g ms (largest "
		    "over trials and channels; Barsdell et al. 2012 eq. A4 "
		    "bound %.3g ms)\n", smear * 1e3,
		    sps_dedisp_tree_bound(dp) * 1e3);
	else if (sps_dedisp_algo(dp) == SPS_ALGO_TREE_PADDED)
		fprintf(stderr, "sps-dedisperse: tree smearing %.3g ms (largest "
		    "over trials and channels)\n", smear * 1e3);
	if (nclipped > 0)
		fprintf(stderr, "sps-dedisperse: %llu values clipped to %d "
		    "bits\n", nclipped, o->nbits);
}

static void
show_progress(const struct sps_reader *r, uint64_t nout_total, int quiet)
{
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
		cli_progress(quiet, (double)r->position / r->nsamples,
		    nout_total * r->hdr.tsamp);
}

/* Output samples of a gulp holding `have` spectra: the whole gulp, or at
 * the end of the data what the largest delay leaves. */
static size_t
gulp_output(const struct engine *eng, size_t have, int eof)
{
	if (!eof)
		return eng->gulp;
	return have > eng->max_delay ? have - eng->max_delay : 0;
}

/* Write a gulp's output block by block, as the CPU path would. */
static void
emit_gulp(struct sinks *sinks, const struct engine *eng, const float *out,
    size_t nout, uint64_t *nout_total)
{
	while (nout > 0) {
		size_t n = nout < eng->block ? nout : eng->block;

		emit_block(sinks, eng->cpu, out, n, *nout_total == 0);
		out += sps_dedisp_out_size(eng->cpu, n);
		*nout_total += n;
		nout -= n;
	}
}

/* CPU: read, dedisperse and write block after block; returns base
 * samples written. */
static uint64_t
run_cpu(struct sps_reader *r, struct engine *eng, struct sinks *sinks,
    int quiet)
{
	size_t nin = eng->block + eng->max_delay, have = 0, nout;
	uint64_t nout_total = 0;
	int eof = 0;

	while (!eof) {
		have = fill(r, eng, eng->in[0], have, nin, &eof, sinks);
		if ((nout = gulp_output(eng, have, eof)) == 0)
			break;
		check_or_abort(sps_dedisp_execute(eng->cpu, (const float *)
		    (const void *)eng->in[0], have, nout, eng->out[0]), sinks);
		emit_gulp(sinks, eng, eng->out[0], nout, &nout_total);
		memmove(eng->in[0], eng->in[0] + eng->block * eng->unit,
		    eng->max_delay * eng->unit);
		have -= eng->block < have ? eng->block : have;
		show_progress(r, nout_total, quiet);
	}
	cli_progress_done(quiet);
	return nout_total;
}

static void
wait_and_emit(struct engine *eng, struct sinks *sinks, int slot,
    size_t nout, uint64_t *nout_total)
{
	double ms = 0, t0 = cli_now(), t1;

	check_or_abort(sps_gpu_dedisp_wait(eng->gpu, &ms), sinks);
	t1 = cli_now();
	eng->kernel_ms += ms;
	emit_gulp(sinks, eng, eng->out[slot], nout, nout_total);
	eng->waiting += t1 - t0;
	eng->writing += cli_now() - t1;
}

/* GPU: gulp k is read while gulp k - 1 is on the device and written
 * while gulp k + 1 is. */
static uint64_t
run_gpu(struct sps_reader *r, struct engine *eng, struct sinks *sinks,
    int quiet)
{
	size_t nin = eng->gulp + eng->max_delay, have = 0, nout, pending = 0;
	uint64_t nout_total = 0;
	int eof = 0, cur = 0;

	while (!eof) {
		double t0 = cli_now();

		have = fill(r, eng, eng->in[cur], have, nin, &eof, sinks);
		eng->reading += cli_now() - t0;
		if ((nout = gulp_output(eng, have, eof)) == 0)
			break;
		check_or_abort(sps_gpu_dedisp_submit(eng->gpu, eng->in[cur],
		    have, nout, eng->block, eng->out[cur]), sinks);
		if (pending > 0)
			wait_and_emit(eng, sinks, !cur, pending, &nout_total);
		pending = nout;
		memcpy(eng->in[!cur], eng->in[cur] + eng->gulp * eng->unit,
		    eng->max_delay * eng->unit);
		have -= eng->gulp < have ? eng->gulp : have;
		cur = !cur;
		show_progress(r, nout_total, quiet);
	}
	if (pending > 0)
		wait_and_emit(eng, sinks, !cur, pending, &nout_total);
	cli_progress_done(quiet);
	return nout_total;
}

static void
report_gpu(const struct engine *eng, const struct sps_plan *plan,
    const struct sps_header *h, uint64_t nout_total, int quiet)
{
	const char *path;

	if (eng->gpu == NULL || quiet)
		return;
	fprintf(stderr, "sps-dedisperse: GPU kernels %.3f s (%.2f T "
	    "additions/s)\n", eng->kernel_ms / 1e3, (double)nout_total *
	    h->nchans * h->nifs * plan->ntrials / (eng->kernel_ms / 1e3) /
	    1e12);
	if ((path = sps_gpu_dedisp_direct_path(eng->gpu)) != NULL)
		fprintf(stderr, "sps-dedisperse: GPU direct kernel %s\n", path);
	fprintf(stderr, "sps-dedisperse: streaming: %.3f s reading, %.3f s "
	    "writing, %.3f s waiting for the GPU\n", eng->reading,
	    eng->writing, eng->waiting);
}

/* The CPU plan, made beside the device's start when a GPU may be used:
 * creating its context takes a few tenths of a second.  The thread only
 * plans; failures wait for the main thread to report them. */
struct plan_job {
	struct sps_dedisp_plan		*cpu;
	const struct sps_header		*hdr;
	const struct sps_plan		*plan;
	const unsigned char		*kill;
	const struct sps_dedisp_opts	*dopts;
	enum sps_err			 e;
	char				 msg[512];
};

static void *
run_plan_job(void *arg)
{
	struct plan_job *j = arg;

	j->e = sps_dedisp_create(&j->cpu, j->hdr, j->plan->dm,
	    j->plan->scrunch, (int)j->plan->ntrials, j->kill, j->dopts);
	if (j->e != SPS_OK)
		snprintf(j->msg, sizeof(j->msg), "%s", sps_errmsg());
	return NULL;
}

static struct sps_dedisp_plan *
make_cpu_plan(const struct options *o, const struct sps_header *hdr,
    const struct sps_plan *plan, const unsigned char *kill,
    const struct sps_dedisp_opts *dopts)
{
	struct plan_job job = { NULL, hdr, plan, kill, dopts, SPS_OK, "" };
	size_t free_dev, total;
	pthread_t tid;

	if (o->gpu == 0 || pthread_create(&tid, NULL, run_plan_job, &job) !=
	    0)
		run_plan_job(&job);
	else {
		(void)sps_gpu_memory(o->device, &free_dev, &total);
		pthread_join(tid, NULL);
	}
	if (job.e != SPS_OK)
		errx(1, "%s", job.msg);
	return job.cpu;
}

int
main(int argc, char **argv)
{
	struct sps_dedisp_opts dopts = { 0, 0, 0, 0 };
	struct engine eng;
	struct sps_reader r;
	struct sps_plan plan;
	struct options o;
	struct sinks sinks;
	unsigned char *kill;
	uint64_t nout_total;
	int fmax_scrunch;
	double start = cli_now(), streaming;

	cli_init("sps-dedisperse", argv);
	parse_options(&o, argc, argv);
	memset(&eng, 0, sizeof(eng));
	cli_check(sps_reader_open(&r, o.input), NULL);
	if (r.hdr.sps_dmtime || r.hdr.sps_order != 0)
		errx(1, "%s: not time-major filterbank data", r.name);
	make_plan(&o, &r.hdr, &plan);
	kill = read_killmask(o.killfile, r.hdr.nchans);
	dopts.nthreads = o.threads;
	dopts.nsub = o.nsub;
	dopts.group = o.group;
	dopts.algo = o.algo;
	eng.cpu = make_cpu_plan(&o, &r.hdr, &plan, kill, &dopts);
	eng.max_delay = sps_dedisp_max_delay(eng.cpu);
	fmax_scrunch = sps_dedisp_max_scrunch(eng.cpu);
	eng.block = ((size_t)o.block + fmax_scrunch - 1) / fmax_scrunch *
	    fmax_scrunch;
	if (r.nsamples != SPS_NSAMPLES_UNKNOWN && r.nsamples <= eng.max_delay)
		errx(1, "%s: %llu samples do not reach past the largest delay "
		    "of the plan (%zu samples)", r.name,
		    (unsigned long long)r.nsamples, eng.max_delay);
	choose_engine(&eng, &o, &r, &plan, kill);
	if (eng.gpu == NULL)
		reserve_memory(eng.cpu, eng.block + eng.max_delay, eng.block,
		    sps_spectrum_values(&r.hdr), &o, (int)plan.ntrials);
	alloc_buffers(&eng, eng.gpu != NULL ? 2 : 1);
	open_sinks(&sinks, &o, &r, &plan, eng.block, eng.max_delay);
	streaming = cli_now();
	nout_total = eng.gpu != NULL ? run_gpu(&r, &eng, &sinks, o.quiet) :
	    run_cpu(&r, &eng, &sinks, o.quiet);
	if (nout_total == 0) {
		abort_sinks(&sinks);
		errx(1, "%s: %llu samples do not reach past the largest delay "
		    "of the plan (%zu samples)", r.name,
		    (unsigned long long)r.position, eng.max_delay);
	}
	close_sinks(&sinks, &o, &r.hdr);
	streaming = cli_now() - streaming;
	report(&o, &plan, &r.hdr, nout_total, cli_now() - start, streaming,
	    sinks.nclipped, eng.cpu);
	report_gpu(&eng, &plan, &r.hdr, nout_total, o.quiet);
	free_buffers(&eng);
	sps_gpu_dedisp_free(eng.gpu);
	sps_dedisp_free(eng.cpu);
	sps_plan_free(&plan);
	sps_reader_close(&r);
	free(kill);
	return 0;
}

/* sps-dedisperse: dedisperse filterbank data at many DMs (CPU). */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <omp.h>
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
    "           [--subband NSUB [--group N]] [-k KILLFILE] [-b NBITS]\n"
    "           [-o PREFIX [--presto]] [-t THREADS] [--block N]\n"
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
	const char	*killfile;
	int		 nbits;
	const char	*prefix;
	int		 presto;
	int		 threads;
	long		 block;
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
	OPT_DEVICE
};

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
		case OPT_BLOCK:
			o->block = cli_long(optarg, "--block", 1, 1L << 26);
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
 * takes the raw bytes of the input rather than floats. */
struct engine {
	struct sps_dedisp_plan	*cpu;
	struct sps_gpu_dedisp	*gpu;
	unsigned char		*in;	/* nin spectra */
	size_t			 unit;	/* bytes of one spectrum in `in` */
	double			 kernel_ms;
};

/* Fill e->in (nin spectra) from `have`; returns spectra now held. */
static size_t
fill(struct sps_reader *r, struct engine *eng, size_t have, size_t nin,
    int *eof, struct sinks *s)
{
	enum sps_err e = SPS_OK;
	size_t got;

	while (have < nin) {
		if (eng->gpu != NULL)
			e = sps_reader_read_raw(r, eng->in + have * eng->unit,
			    nin - have, &got);
		else
			e = sps_reader_read(r, (float *)(void *)(eng->in +
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

static enum sps_err
execute(struct engine *eng, size_t have, size_t nout, float *out)
{
	double ms = 0;
	enum sps_err e;

	if (eng->gpu == NULL)
		return sps_dedisp_execute(eng->cpu, (const float *)(const void *)
		    eng->in, have, nout, out);
	e = sps_gpu_dedisp_execute(eng->gpu, eng->in, have, nout, out, &ms);
	eng->kernel_ms += ms;
	return e;
}

/* The GPU when asked for (--gpu: failure is an error) or by default when
 * one is usable (then the CPU runs instead, silently). */
static void
choose_engine(struct engine *eng, const struct options *o,
    const struct sps_reader *r, const struct sps_plan *plan,
    const unsigned char *kill, size_t nin, size_t block)
{
	struct sps_device dev;
	enum sps_err e;
	int n;

	eng->gpu = NULL;
	eng->unit = sps_spectrum_values(&r->hdr) * sizeof(float);
	if (o->gpu == 0 || (o->gpu < 0 && sps_device_list(&dev, 1, &n) !=
	    SPS_OK))
		return;
	e = sps_gpu_dedisp_create(&eng->gpu, o->device, &r->hdr, plan->dm,
	    plan->scrunch, (int)plan->ntrials, kill, nin, block);
	if (e == SPS_OK && o->nsub > 0) {
		struct sps_subband_tables t;

		if ((e = sps_subband_tables(eng->cpu, &t)) == SPS_OK)
			e = sps_gpu_dedisp_subband(eng->gpu, &t);
		sps_subband_tables_free(&t);
	}
	if (e != SPS_OK) {
		sps_gpu_dedisp_free(eng->gpu);
		eng->gpu = NULL;
		if (o->gpu == 1)
			errx(1, "GPU %d: %s", o->device, sps_errmsg());
		return;
	}
	eng->unit = sps_spectrum_bytes(&r->hdr);
	if (!o->quiet)
		fprintf(stderr, "sps-dedisperse: %zu trials, blocks of %zu "
		    "samples + %zu overlap, memory %.0f MB (host) and %.1f MB "
		    "on GPU %d\n", plan->ntrials, block, nin - block,
		    (double)(nin * eng->unit + sps_dedisp_out_size(eng->cpu,
		    block) * sizeof(float)) / 1048576,
		    (double)sps_gpu_dedisp_memory(eng->gpu) / 1048576,
		    o->device);
}

static void
report(const struct options *o, const struct sps_plan *plan,
    const struct sps_header *h, uint64_t nout_total, double seconds,
    unsigned long long nclipped, double smear)
{
	double adds = (double)nout_total * h->nchans * h->nifs * plan->ntrials;

	if (o->quiet)
		return;
	fprintf(stderr, "sps-dedisperse: %llu samples x %zu trials in %.2f s "
	    "(%.2f G additions/s, %.1fx real time)\n",
	    (unsigned long long)nout_total, plan->ntrials, seconds,
	    adds / seconds / 1e9, nout_total * h->tsamp / seconds);
	if (smear > 0)
		fprintf(stderr, "sps-dedisperse: sub-band smearing bound "
		    "%.3g ms (Barsdell et al. 2012, eq. B1)\n", smear * 1e3);
	if (nclipped > 0)
		fprintf(stderr, "sps-dedisperse: %llu values clipped to %d "
		    "bits\n", nclipped, o->nbits);
}

/* Read, dedisperse and write block after block; returns base samples
 * written. */
static uint64_t
run_blocks(struct sps_reader *r, struct engine *eng, struct sinks *sinks,
    size_t block, size_t max_delay, float *out, int quiet)
{
	size_t nin = block + max_delay, have = 0;
	uint64_t nout_total = 0;
	int eof = 0;

	while (!eof) {
		size_t nout;

		have = fill(r, eng, have, nin, &eof, sinks);
		nout = eof ? (have > max_delay ? have - max_delay : 0) : block;
		if (nout == 0)
			break;
		check_or_abort(execute(eng, have, nout, out), sinks);
		emit_block(sinks, eng->cpu, out, nout, nout_total == 0);
		nout_total += nout;
		memmove(eng->in, eng->in + block * eng->unit, max_delay *
		    eng->unit);
		have -= block < have ? block : have;
		if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
			cli_progress(quiet, (double)r->position / r->nsamples,
			    nout_total * r->hdr.tsamp);
	}
	cli_progress_done(quiet);
	return nout_total;
}

int
main(int argc, char **argv)
{
	struct sps_dedisp_opts dopts = { 0, 0, 0 };
	struct engine eng = { NULL, NULL, NULL, 0, 0 };
	struct sps_reader r;
	struct sps_plan plan;
	struct options o;
	struct sinks sinks;
	unsigned char *kill;
	size_t max_delay, block, nin;
	uint64_t nout_total;
	float *out;
	int fmax_scrunch;
	double start = cli_now();

	cli_init("sps-dedisperse");
	parse_options(&o, argc, argv);
	cli_check(sps_reader_open(&r, o.input), NULL);
	if (r.hdr.sps_dmtime || r.hdr.sps_order != 0)
		errx(1, "%s: not time-major filterbank data", r.name);
	make_plan(&o, &r.hdr, &plan);
	kill = read_killmask(o.killfile, r.hdr.nchans);
	dopts.nthreads = o.threads;
	dopts.nsub = o.nsub;
	dopts.group = o.group;
	cli_check(sps_dedisp_create(&eng.cpu, &r.hdr, plan.dm, plan.scrunch,
	    (int)plan.ntrials, kill, &dopts), NULL);
	max_delay = sps_dedisp_max_delay(eng.cpu);
	fmax_scrunch = sps_dedisp_max_scrunch(eng.cpu);
	block = ((size_t)o.block + fmax_scrunch - 1) / fmax_scrunch *
	    fmax_scrunch;
	nin = block + max_delay;
	if (r.nsamples != SPS_NSAMPLES_UNKNOWN && r.nsamples <= max_delay)
		errx(1, "%s: %llu samples do not reach past the largest delay "
		    "of the plan (%zu samples)", r.name,
		    (unsigned long long)r.nsamples, max_delay);
	choose_engine(&eng, &o, &r, &plan, kill, nin, block);
	if (eng.gpu == NULL)
		reserve_memory(eng.cpu, nin, block, sps_spectrum_values(&r.hdr),
		    &o, (int)plan.ntrials);
	eng.in = malloc(nin * eng.unit);
	out = malloc(sps_dedisp_out_size(eng.cpu, block) * sizeof(float) + 1);
	if (eng.in == NULL || out == NULL)
		errx(1, "out of memory for blocks of %zu samples", nin);
	open_sinks(&sinks, &o, &r, &plan, block, max_delay);
	nout_total = run_blocks(&r, &eng, &sinks, block, max_delay, out,
	    o.quiet);
	if (nout_total == 0) {
		abort_sinks(&sinks);
		errx(1, "%s: %llu samples do not reach past the largest delay "
		    "of the plan (%zu samples)", r.name,
		    (unsigned long long)r.position, max_delay);
	}
	close_sinks(&sinks, &o, &r.hdr);
	report(&o, &plan, &r.hdr, nout_total, cli_now() - start, sinks.nclipped,
	    sps_dedisp_smear_bound(eng.cpu));
	if (eng.gpu != NULL && !o.quiet)
		fprintf(stderr, "sps-dedisperse: GPU kernels %.3f s (%.2f T "
		    "additions/s)\n", eng.kernel_ms / 1e3, (double)nout_total *
		    r.hdr.nchans * r.hdr.nifs * plan.ntrials /
		    (eng.kernel_ms / 1e3) / 1e12);
	sps_gpu_dedisp_free(eng.gpu);
	sps_dedisp_free(eng.cpu);
	sps_plan_free(&plan);
	sps_reader_close(&r);
	free(kill);
	free(eng.in);
	free(out);
	return 0;
}

/* sps-boxcar: boxcar search of dedispersed data (BoxDIT, IGRID, DIT or
 * every width), giving events above a threshold or the S/N plane. */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "boxcar.h"
#include "cli.h"
#include "codec.h"
#include "dmtime.h"
#include "events.h"
#include "header.h"
#include "noise.h"
#include "writer.h"

#define DEFAULT_ALGORITHM	"BD-16"
#define DEFAULT_WIDTH		4096	/* base samples, as Heimdall */
#define DEFAULT_BASELINE	2.0	/* s, as Heimdall */
#define SERIES_BLOCK		65536	/* samples read at once from a series */
#define BENCH_SAMPLES		(1 << 20)	/* per trial */
#define BENCH_WINDOW		(1 << 15)	/* samples searched at once */

static const char usage_text[] =
    "usage: sps-boxcar [-q] [-a ALGORITHM] [-w SAMPLES | --max-width-s S]\n"
    "           [-s SNR] [--baseline S] [--outlier SIGMA] [--white]\n"
    "           [--plane] [-t THREADS] [-o FILE] [FILE]\n"
    "       sps-boxcar --loss [-a ALGORITHM] [-w SAMPLES]\n"
    "       sps-boxcar --bench [-a ALGORITHM] [-w SAMPLES] [-t THREADS]\n";

struct options {
	const char	*input;
	const char	*output;
	const char	*algorithm;
	long		 width;		/* base samples; 0: from seconds */
	double		 width_s;
	double		 threshold;
	double		 baseline;	/* s; 0: default */
	double		 outlier;
	int		 white;
	int		 plane;
	int		 threads;
	int		 quiet;
	int		 loss;
	int		 bench;
};

/* One DM trial: its noise model, its search and what they gave this
 * round. */
struct trial {
	int			 f;	/* scrunch factor */
	double			 dm;
	const struct sps_boxcar_plan *plan;
	struct sps_noise	*noise;
	struct sps_boxcar_stream *search;
	struct sps_boxcar_event	*ev;	/* events of this round */
	size_t			 nev, evcap;
	float			*psnr;	/* plane values not yet written */
	float			*pwidth;
	size_t			 pn, pcap;
	unsigned long long	 windows, skipped, nbad;
};

struct run {
	struct options		 o;
	struct sps_header	 h;
	FILE			*in;
	const char		*name;
	int			 dmtime;	/* else one time series */
	int			 ntrials;
	struct trial		*t;
	struct sps_boxcar_plan	 plan;		/* unscrunched */
	struct sps_boxcar_plan	*plans;		/* per scrunch factor */
	int			*plan_f;
	int			 nplans;
	struct sps_boxcar_work	**work;		/* per thread */
	int			 nthreads;
	size_t			 window;	/* base samples */
	int			 lag;
	struct sps_writer	 out;
	struct sps_header	 plane_hdr;
	uint64_t		 nbase;		/* base samples read */
	uint64_t		 nsamples;	/* in the input, 0: unknown */
	uint64_t		 plane_done;	/* base samples written */
	uint64_t		 nevents;
	int			 started;	/* output header written */
};

static void
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr, "%s", usage_text);
	exit(status);
}

enum {
	OPT_BASELINE = 256, OPT_BENCH, OPT_LOSS, OPT_OUTLIER, OPT_PLANE,
	OPT_VERSION, OPT_WHITE, OPT_WIDTH_S
};

static void
parse_options(struct options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "algorithm", required_argument, NULL, 'a' },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "bench", no_argument, NULL, OPT_BENCH },
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
	struct sps_boxcar_plan p;
	int ch;

	memset(o, 0, sizeof(*o));
	o->algorithm = DEFAULT_ALGORITHM;
	o->threshold = 6;
	o->outlier = 3;
	while ((ch = getopt_long(argc, argv, "a:ho:qs:t:w:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'a':
			o->algorithm = optarg;
			break;
		case 'h':
			usage(0);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 's':
			o->threshold = cli_double(optarg, "-s", -1e6, 1e6);
			break;
		case 't':
			o->threads = (int)cli_long(optarg, "-t", 1, 4096);
			break;
		case 'w':
			o->width = (long)cli_long(optarg, "-w", 1,
			    SPS_BOXCAR_MAXWIDTH);
			break;
		case OPT_BASELINE:
			o->baseline = cli_double(optarg, "--baseline", 1e-6,
			    1e6);
			break;
		case OPT_BENCH:
			o->bench = 1;
			break;
		case OPT_LOSS:
			o->loss = 1;
			break;
		case OPT_OUTLIER:
			o->outlier = cli_double(optarg, "--outlier", 0, 1000);
			if (o->outlier > 0 && o->outlier < 1.5)
				cli_usage_error(usage_text, "--outlier %g: give 0 "
				    "(no rejection) or at least 1.5", o->outlier);
			break;
		case OPT_PLANE:
			o->plane = 1;
			break;
		case OPT_VERSION:
			cli_version();
			break;
		case OPT_WHITE:
			o->white = 1;
			break;
		case OPT_WIDTH_S:
			o->width_s = cli_double(optarg, "--max-width-s", 1e-9,
			    1e6);
			break;
		default:
			usage(2);
		}
	}
	o->input = cli_input(argc, argv, usage_text);
	if (o->width > 0 && o->width_s > 0)
		cli_usage_error(usage_text, "give -w or --max-width-s, not both");
	if (o->width_s > 0 && (o->loss || o->bench))
		cli_usage_error(usage_text, "--loss and --bench take -w SAMPLES");
	if (o->loss && o->bench)
		cli_usage_error(usage_text, "--loss or --bench, not both");
	if ((o->loss || o->bench) && optind < argc)
		cli_usage_error(usage_text, "--loss and --bench read no input");
	if (o->width == 0 && o->width_s == 0)
		o->width = DEFAULT_WIDTH;
	if (sps_boxcar_plan_make(&p, o->algorithm, 1) != SPS_OK)
		cli_usage_error(usage_text, "-a %s: %s", o->algorithm,
		    sps_errmsg());
}

/* ---- --loss ---- */

/* Every width up to 32, then 16 per octave, and the widest. */
static int
next_loss_width(int s)
{
	int octave = 1;

	if (s < 32)
		return s + 1;
	while (octave * 2 <= s)
		octave *= 2;
	return s + octave / 16;
}

static void
print_loss(const struct sps_boxcar_plan *p)
{
	double sum_s = 0, sum_w = 0;
	int s, next = 1;

	printf("# %s, widths up to %d samples, %.2f boxcars per sample\n",
	    p->name, p->max_width, sps_boxcar_evals_per_sample(p));
	printf("# signal loss for a rectangular pulse of width S samples "
	    "(Adamek & Armour 2020):\n# systematic (eqs. A2, A3), worst case "
	    "(A9, A10), and their means over widths 1..S (eq. 19)\n");
	printf("# %6s %10s %10s %10s %10s\n", "S", "systematic", "worst",
	    "mean_sys", "mean_worst");
	for (s = 1; s <= p->max_width; s++) {
		double ls = 1 - sps_boxcar_rsn_max(p, s);
		double lw = 1 - sps_boxcar_rsn_min(p, s);

		sum_s += ls;
		sum_w += lw;
		if (s != next && s != p->max_width)
			continue;
		printf("%8d %10.4f %10.4f %10.4f %10.4f\n", s, ls, lw,
		    sum_s / s, sum_w / s);
		next = next_loss_width(s);
	}
}

/* ---- --bench ---- */

/* Time the search alone (unit white noise, sigma_w = sqrt(w), in
 * windows of BENCH_WINDOW samples as a search of data runs) and with the
 * noise model and the events, over trials of white noise. */
static void
bench(const struct options *o, const struct sps_boxcar_plan *p)
{
	int nthreads = omp_get_max_threads(), ntrials = 2 * nthreads, i;
	size_t n = BENCH_SAMPLES, len = n + sps_boxcar_tail(p), j;
	float *x = malloc(len * sizeof(float)), *scale, *snr;
	struct sps_boxcar_work **work;
	double t0, search_s, total_s, rate;
	int reps = 0;

	scale = malloc(((size_t)p->max_width + 1) * sizeof(float));
	if (x == NULL || scale == NULL)
		err(1, NULL);
	srand(1);
	for (j = 0; j < len; j++)
		x[j] = (float)(sqrt(-2 * log((rand() + 1.0) / (RAND_MAX +
		    2.0))) * cos(2 * M_PI * rand() / (RAND_MAX + 1.0)));
	scale[0] = 0;
	for (i = 1; i <= p->max_width; i++)
		scale[i] = (float)(1 / sqrt((double)i));
	work = calloc((size_t)nthreads, sizeof(*work));
	snr = malloc((size_t)nthreads * BENCH_WINDOW * sizeof(float));
	if (work == NULL || snr == NULL)
		err(1, NULL);
	for (i = 0; i < nthreads; i++)
		if (sps_boxcar_work_create(&work[i]) != SPS_OK)
			errx(1, "out of memory");
	t0 = cli_now();
	do {
#pragma omp parallel for schedule(dynamic)
		for (i = 0; i < ntrials; i++) {
			int th = omp_get_thread_num();
			size_t at;

			for (at = 0; at < n; at += BENCH_WINDOW)
				if (sps_boxcar_search(p, work[th], x + at,
				    BENCH_WINDOW, scale, snr + (size_t)th *
				    BENCH_WINDOW, NULL) != SPS_OK)
					errx(1, "%s", sps_errmsg());
		}
		reps++;
	} while (cli_now() - t0 < 1);
	search_s = (cli_now() - t0) / reps;
	reps = 0;
	t0 = cli_now();
	do {
#pragma omp parallel for schedule(dynamic)
	for (i = 0; i < ntrials; i++) {
		struct sps_noise_opts no = { BENCH_WINDOW, o->outlier, 0,
		    p->max_width };
		struct sps_boxcar_work *w = work[omp_get_thread_num()];
		struct sps_noise_window win;
		struct sps_boxcar_stream *st;
		struct sps_noise *nz;
		size_t ne;

		if (sps_noise_create(&nz, &no) != SPS_OK ||
		    sps_boxcar_stream_create(&st, p, 6, 0,
		    sps_boxcar_stream_lag(p, BENCH_WINDOW)) != SPS_OK)
			errx(1, "out of memory");
		sps_noise_push(nz, x, n);
		sps_noise_finish(nz);
		while (sps_noise_next(nz, &win))
			if (sps_boxcar_stream_push(st, w, win.x, win.n,
			    win.scale) != SPS_OK)
				errx(1, "%s", sps_errmsg());
		if (sps_boxcar_stream_finish(st, w) != SPS_OK)
			errx(1, "%s", sps_errmsg());
		sps_boxcar_stream_events(st, &ne);
		sps_boxcar_stream_free(st);
		sps_noise_free(nz);
	}
		reps++;
	} while (cli_now() - t0 < 1);
	total_s = (cli_now() - t0) / reps;
	printf("%s, widths 1..%d (%.1f boxcars per sample), %d trials of %zu "
	    "samples, %d threads:\n", p->name, p->max_width,
	    sps_boxcar_evals_per_sample(p), ntrials, n, nthreads);
	rate = ntrials * (double)n / search_s;
	printf("  search:            %7.3f G samples/s, %6.3f per thread, "
	    "%8.0f trials of 64 us in real time\n", rate / 1e9, rate / 1e9 /
	    nthreads, rate * 64e-6);
	rate = ntrials * (double)n / total_s;
	printf("  noise and search:  %7.3f G samples/s, %6.3f per thread, "
	    "%8.0f trials of 64 us in real time\n", rate / 1e9, rate / 1e9 /
	    nthreads, rate * 64e-6);
	for (i = 0; i < nthreads; i++)
		sps_boxcar_work_free(work[i]);
	free(work);
	free(snr);
	free(x);
	free(scale);
}

/* ---- input ---- */

static void
open_input(struct run *r)
{
	struct sps_header *h = &r->h;
	struct stat st;
	enum sps_err e;

	if (strcmp(r->o.input, "-") == 0) {
		r->in = stdin;
		r->name = "stdin";
	} else {
		r->name = r->o.input;
		if ((r->in = fopen(r->o.input, "rb")) == NULL)
			err(1, "%s", r->o.input);
	}
	if ((e = sps_header_read(r->in, NULL, 0, h)) != SPS_OK)
		cli_check(e, r->name);
	if (h->sps_dmtime == 2)
		errx(1, "%s: an S/N plane (sps-boxcar --plane), not DM-time "
		    "data", r->name);
	if (!(h->tsamp > 0))
		errx(1, "%s: tsamp %g is not a sampling time", r->name,
		    h->tsamp);
	if (h->sps_dmtime == 1) {
		if (h->ndms < 1 || h->dms == NULL || h->sps_block < 1)
			errx(1, "%s: DM-time stream without a DM table or block "
			    "size", r->name);
		if (h->nbits != 8 && h->nbits != 16 && h->nbits != 32)
			errx(1, "%s: DM-time stream of %d bits", r->name,
			    h->nbits);
		r->dmtime = 1;
		r->ntrials = h->ndms;
		if (sps_header_has(h, "nsamples") && h->nsamples > 0)
			r->nsamples = (uint64_t)h->nsamples;
		return;
	}
	if (h->sps_dmtime != 0 || h->sps_order != 0 || !sps_is_timeseries(h) ||
	    h->nchans != 1)
		errx(1, "%s: not a DM-time stream or a time series (%d "
		    "channels: dedisperse it with sps-dedisperse)", r->name,
		    h->nchans);
	if (h->nifs > 1)
		errx(1, "%s: time series of %d IFs", r->name, h->nifs);
	r->ntrials = 1;
	if (fstat(fileno(r->in), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > h->length)
		r->nsamples = ((uint64_t)st.st_size - h->length) * 8 /
		    (uint64_t)h->nbits;
}

/* Read the next block: per trial values (trial after trial) into buf;
 * returns base samples, 0 at the end. */
static size_t
read_block(struct run *r, float *buf, unsigned char *raw)
{
	size_t n, got, bytes, values;
	enum sps_err e;

	if (r->dmtime) {
		e = sps_dmtime_read_block(r->in, &r->h, buf, &n);
		if (e == SPS_EEOF)
			return 0;
		cli_check(e, r->name);
		return n;
	}
	/* a time series: whole bytes of samples */
	bytes = sps_packed_bytes(SERIES_BLOCK, r->h.nbits);
	got = fread(raw, 1, bytes, r->in);
	if (ferror(r->in))
		err(1, "%s", r->name);
	values = got * 8 / (size_t)r->h.nbits;
	if (values * (size_t)r->h.nbits != got * 8)
		errx(1, "%s: truncated data: %zu bytes after the last whole "
		    "sample", r->name, got - values * (size_t)r->h.nbits / 8);
	sps_unpack(raw, buf, values, r->h.nbits, r->h.nbits == 8 &&
	    r->h.sign < 0);
	return values;
}

/* ---- set-up ---- */

static int
scrunch_of(const struct run *r, int i)
{
	return r->dmtime && r->h.scrunch != NULL ? r->h.scrunch[i] : 1;
}

static const struct sps_boxcar_plan *
plan_for(struct run *r, int f, int max_width)
{
	int i;

	for (i = 0; i < r->nplans; i++)
		if (r->plan_f[i] == f)
			return &r->plans[i];
	cli_check(sps_boxcar_plan_scrunched(&r->plans[r->nplans], &r->plan,
	    max_width, f), NULL);
	r->plan_f[r->nplans] = f;
	return &r->plans[r->nplans++];
}

/* The noise window in base samples: a multiple of every scrunch factor
 * times its plan's largest boxcar separation, so that windows start
 * together in every trial and every boxcar lattice runs on unbroken from
 * the first sample. */
static size_t
choose_window(const struct run *r, int fbig)
{
	double s = r->o.baseline > 0 ? r->o.baseline : fmax(DEFAULT_BASELINE,
	    8 * r->plan.max_width * r->h.tsamp);
	double n = ceil(s / r->h.tsamp / fbig - 1e-6);

	if (n < 64)
		n = 64;
	if (n * fbig > 1 << 28)
		errx(1, "--baseline %g s: window of %.0f samples is too long",
		    s, n * fbig);
	return (size_t)n * (size_t)fbig;
}

static long long
lcm(long long a, long long b)
{
	long long x = a, y = b, t;

	while (y != 0) {
		t = x % y;
		x = y;
		y = t;
	}
	return a / x * b;
}

static void
setup(struct run *r)
{
	long long unit = 1;
	int i, max_width;
	double w;

	w = r->o.width > 0 ? (double)r->o.width : round(r->o.width_s /
	    r->h.tsamp);
	if (w < 1 || w > SPS_BOXCAR_MAXWIDTH)
		errx(1, "--max-width-s %g: %.0f samples of %g s, not in [1, "
		    "%d]", r->o.width_s, w, r->h.tsamp, SPS_BOXCAR_MAXWIDTH);
	max_width = (int)w;
	cli_check(sps_boxcar_plan_make(&r->plan, r->o.algorithm, max_width),
	    NULL);
	r->t = calloc((size_t)r->ntrials, sizeof(*r->t));
	r->plans = calloc((size_t)r->ntrials, sizeof(*r->plans));
	r->plan_f = calloc((size_t)r->ntrials, sizeof(*r->plan_f));
	if (r->t == NULL || r->plans == NULL || r->plan_f == NULL)
		err(1, NULL);
	for (i = 0; i < r->ntrials; i++) {
		r->t[i].f = scrunch_of(r, i);
		if (r->t[i].f < 1)
			errx(1, "%s: trial %d has scrunch factor %d", r->name,
			    i, r->t[i].f);
		r->t[i].dm = r->dmtime ? r->h.dms[i] : r->h.refdm;
		r->t[i].plan = plan_for(r, r->t[i].f, max_width);
	}
	for (i = 0; i < r->ntrials; i++) {
		unit = lcm(unit, (long long)r->t[i].f * r->t[i].plan->period);
		if (unit > 1 << 24)
			errx(1, "%s: scrunch factors with no common multiple "
			    "below 2^24", r->name);
	}
	r->window = choose_window(r, (int)unit);
	r->lag = 1;
	for (i = 0; i < r->ntrials; i++) {
		int lag = sps_boxcar_stream_lag(r->t[i].plan, r->window /
		    (size_t)r->t[i].f);

		r->lag = lag > r->lag ? lag : r->lag;
	}
	for (i = 0; i < r->ntrials; i++) {
		struct sps_noise_opts no;

		no.window = r->window / (size_t)r->t[i].f;
		no.outlier = r->o.outlier;
		no.white = r->o.white;
		no.max_width = r->t[i].plan->max_width;
		cli_check(sps_noise_create(&r->t[i].noise, &no), NULL);
		cli_check(sps_boxcar_stream_create(&r->t[i].search,
		    r->t[i].plan, r->o.threshold, r->o.plane, r->lag), NULL);
	}
	r->nthreads = omp_get_max_threads();
	if ((r->work = calloc((size_t)r->nthreads, sizeof(*r->work))) == NULL)
		err(1, NULL);
	for (i = 0; i < r->nthreads; i++)
		cli_check(sps_boxcar_work_create(&r->work[i]), NULL);
}

/* ---- output ---- */

static void
write_events_header(struct run *r)
{
	struct sps_events_meta m;

	memset(&m, 0, sizeof(m));
	snprintf(m.source_name, sizeof(m.source_name), "%s",
	    r->h.source_name);
	snprintf(m.input, sizeof(m.input), "%s", r->name);
	snprintf(m.algorithm, sizeof(m.algorithm), "%.31s", r->plan.name);
	m.tstart = r->h.tstart;
	m.tsamp = r->h.tsamp;
	m.fch1 = r->h.fch1;
	m.foff = r->h.foff;
	m.nchans = r->h.sps_nchans_in > 0 ? r->h.sps_nchans_in : r->h.nchans;
	m.ndms = r->ntrials;
	m.dm_lo = r->t[0].dm;
	m.dm_hi = r->t[r->ntrials - 1].dm;
	m.nsamples = r->nsamples;
	m.threshold = r->o.threshold;
	m.max_width = r->plan.max_width;
	cli_check(sps_events_write_header(r->out.f, &m), NULL);
}

static void
write_plane_header(struct run *r)
{
	struct sps_header *p = &r->plane_hdr;
	double dm = r->h.refdm;
	int one = 1;

	cli_check(sps_header_copy(p, &r->h), NULL);
	if (!r->dmtime) {
		p->data_type = 2;
		p->nchans = 1;
		p->nifs = 1;
		sps_header_mark(p, "data_type");
		cli_check(sps_header_set_dms(p, &dm, &one, 1), NULL);
	}
	p->nbits = 32;
	p->sps_dmtime = 2;
	p->sps_block = (int)r->window;
	sps_header_mark(p, "nbits");
	sps_header_mark(p, "sps_dmtime");
	sps_header_mark(p, "sps_block");
	sps_header_unmark(p, "sps_scale");
	sps_header_unmark(p, "sps_offset");
	sps_header_unmark(p, "signed");
	cli_check(sps_writer_header(&r->out, p), NULL);
}

static void
check_write(struct run *r, size_t want, size_t wrote)
{
	if (want != wrote) {
		sps_writer_abort(&r->out);
		err(1, "write error");
	}
}

/* Plane blocks of whole windows (and at the end, the rest): every trial's
 * S/N, then every trial's width in base samples. */
static void
write_plane(struct run *r, int end)
{
	static const char magic[4] = { 'S', 'P', 'S', 'B' };
	int i, pass;

	for (;;) {
		uint64_t n = r->window;
		int32_t n32;

		if (end && r->nbase - r->plane_done < n)
			n = r->nbase - r->plane_done;
		if (n == 0)
			return;
		n32 = (int32_t)n;
		for (i = 0; i < r->ntrials; i++)
			if (r->t[i].pn < n / (uint64_t)r->t[i].f) {
				if (end)
					errx(1, "internal error: plane of trial "
					    "%d short", i);
				return;
			}
		check_write(r, 4, fwrite(magic, 1, 4, r->out.f));
		check_write(r, 1, fwrite(&n32, 4, 1, r->out.f));
		for (pass = 0; pass < 2; pass++) {
			for (i = 0; i < r->ntrials; i++) {
				struct trial *t = &r->t[i];
				size_t m = (size_t)(n / (uint64_t)t->f);

				check_write(r, m, fwrite(pass ? t->pwidth :
				    t->psnr, sizeof(float), m, r->out.f));
			}
		}
		for (i = 0; i < r->ntrials; i++) {
			struct trial *t = &r->t[i];
			size_t m = (size_t)(n / (uint64_t)t->f);

			memmove(t->psnr, t->psnr + m, (t->pn - m) *
			    sizeof(float));
			memmove(t->pwidth, t->pwidth + m, (t->pn - m) *
			    sizeof(float));
			t->pn -= m;
		}
		r->plane_done += n;
		if (end && r->plane_done >= r->nbase)
			return;
	}
}

static void
write_events(struct run *r)
{
	struct sps_event e;
	size_t j;
	int i;

	for (i = 0; i < r->ntrials; i++) {
		struct trial *t = &r->t[i];

		for (j = 0; j < t->nev; j++) {
			e.dm_index = i;
			e.dm = t->dm;
			e.sample = t->ev[j].start * (uint64_t)t->f;
			e.time = (double)e.sample * r->h.tsamp;
			e.width = t->ev[j].width * t->f;
			e.snr = t->ev[j].snr;
			if (sps_events_write(r->out.f, &e) != SPS_OK) {
				sps_writer_abort(&r->out);
				cli_check(SPS_EIO, NULL);
			}
		}
		r->nevents += t->nev;
		t->nev = 0;
	}
}

/* ---- one trial's work (in a thread) ---- */

static enum sps_err
take_output(struct trial *t)
{
	const struct sps_boxcar_event *ev;
	const int32_t *wd;
	const size_t *wlen;
	const float *snr;
	uint64_t first;
	size_t n, j;
	int nwin;

	ev = sps_boxcar_stream_events(t->search, &n);
	if (n > 0 && t->nev + n > t->evcap) {
		size_t cap = t->evcap < 64 ? 64 : t->evcap;
		void *p;

		while (cap < t->nev + n)
			cap *= 2;
		if ((p = realloc(t->ev, cap * sizeof(*t->ev))) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		t->ev = p;
		t->evcap = cap;
	}
	if (n > 0)
		memcpy(t->ev + t->nev, ev, n * sizeof(*ev));
	t->nev += n;
	sps_boxcar_stream_plane(t->search, &snr, &wd, &n, &first, &wlen,
	    &nwin);
	if (n == 0)
		return SPS_OK;
	if (t->pn + n > t->pcap) {
		size_t cap = t->pcap < 1024 ? 1024 : t->pcap;
		float *a, *b;

		while (cap < t->pn + n)
			cap *= 2;
		a = realloc(t->psnr, cap * sizeof(float));
		if (a != NULL)
			t->psnr = a;
		b = realloc(t->pwidth, cap * sizeof(float));
		if (b != NULL)
			t->pwidth = b;
		if (a == NULL || b == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		t->pcap = cap;
	}
	for (j = 0; j < n; j++) {
		t->psnr[t->pn + j] = snr[j];
		t->pwidth[t->pn + j] = (float)wd[j] * (float)t->f;
	}
	t->pn += n;
	return SPS_OK;
}

static enum sps_err
feed(struct trial *t, struct sps_boxcar_work *w, const float *x, size_t n,
    int end)
{
	struct sps_noise_window win;
	enum sps_err e;

	if (n > 0 && (e = sps_noise_push(t->noise, x, n)) != SPS_OK)
		return e;
	if (end)
		sps_noise_finish(t->noise);
	while (sps_noise_next(t->noise, &win)) {
		t->windows++;
		t->skipped += win.scale == NULL;
		t->nbad += win.nbad;
		if ((e = sps_boxcar_stream_push(t->search, w, win.x, win.n,
		    win.scale)) != SPS_OK)
			return e;
		if ((e = take_output(t)) != SPS_OK)
			return e;
	}
	if (end && (e = sps_boxcar_stream_finish(t->search, w)) != SPS_OK)
		return e;
	return take_output(t);
}

static void
start_output(struct run *r)
{
	cli_check(sps_writer_open(&r->out, r->o.output), NULL);
	if (r->o.plane)
		write_plane_header(r);
	else
		write_events_header(r);
	r->started = 1;
}

/* Every trial's part of a block (n base samples), in parallel. */
static void
round_of(struct run *r, const float *buf, size_t n, int end)
{
	enum sps_err first = SPS_OK;
	char msg[256] = "";
	int i;

#pragma omp parallel for schedule(dynamic)
	for (i = 0; i < r->ntrials; i++) {
		struct trial *t = &r->t[i];
		size_t off = r->dmtime ? sps_dmtime_trial_offset(&r->h, n, i) : 0;
		enum sps_err e;

		e = feed(t, r->work[omp_get_thread_num()], buf + off,
		    n / (size_t)t->f, end);
		if (e != SPS_OK) {
#pragma omp critical
			{
				if (first == SPS_OK) {
					first = e;
					snprintf(msg, sizeof(msg), "%s",
					    sps_errmsg());
				}
			}
		}
	}
	if (first != SPS_OK) {
		sps_writer_abort(&r->out);
		errx(1, "%s", msg);
	}
	/* nothing goes out until something has been searched */
	for (i = 0; !r->started && i < r->ntrials; i++)
		if (r->t[i].windows > r->t[i].skipped)
			start_output(r);
	if (!r->started)
		return;
	if (r->o.plane)
		write_plane(r, end);
	else
		write_events(r);
}

static void
report(struct run *r, double seconds)
{
	unsigned long long windows = 0, skipped = 0, nbad = 0;
	uint64_t samples = 0;
	int i;

	for (i = 0; i < r->ntrials; i++) {
		windows += r->t[i].windows;
		skipped += r->t[i].skipped;
		nbad += r->t[i].nbad;
		samples += r->nbase / (uint64_t)r->t[i].f;
	}
	if (windows == 0)
		errx(1, "%s: no data", r->name);
	if (skipped == windows) {
		errx(1, "%s: noise estimate zero or not a number in every "
		    "trial (constant or empty data): nothing searched",
		    r->name);
	}
	if (skipped > 0)
		warnx("%llu of %llu windows not searched: noise estimate zero "
		    "or not a number", skipped, windows);
	if (nbad > 0)
		warnx("%llu samples not finite: set to the baseline", nbad);
	if (r->o.quiet)
		return;
	fprintf(stderr, "sps-boxcar: %s, widths 1..%d samples: %d trials, "
	    "%llu samples, ", r->plan.name, r->plan.max_width, r->ntrials,
	    (unsigned long long)samples);
	if (!r->o.plane)
		fprintf(stderr, "%llu events >= %g, ", (unsigned long long)
		    r->nevents, r->o.threshold);
	fprintf(stderr, "%.2f s (%.1fx real time)\n", seconds,
	    r->nbase * r->h.tsamp / seconds);
}

static void
search(struct run *r)
{
	size_t maxn = r->dmtime ? (size_t)r->h.sps_block : SERIES_BLOCK, n;
	size_t values = r->dmtime ? sps_dmtime_block_values(&r->h, maxn) :
	    maxn;
	unsigned char *raw = NULL;
	double start = cli_now();
	float *buf;

	if ((buf = malloc(values * sizeof(float) + 1)) == NULL)
		errx(1, "out of memory for blocks of %zu values", values);
	if (!r->dmtime && (raw = malloc(sps_packed_bytes(SERIES_BLOCK,
	    r->h.nbits))) == NULL)
		err(1, NULL);
	if ((n = read_block(r, buf, raw)) == 0)
		errx(1, "%s: no data", r->name);
	for (; n > 0; n = read_block(r, buf, raw)) {
		r->nbase += n;
		round_of(r, buf, n, 0);
		if (r->nsamples > 0)
			cli_progress(r->o.quiet, (double)r->nbase /
			    (double)r->nsamples, r->nbase * r->h.tsamp);
	}
	cli_progress_done(r->o.quiet);
	round_of(r, buf, 0, 1);
	report(r, cli_now() - start);
	cli_check(sps_writer_close(&r->out), NULL);
	free(buf);
	free(raw);
}

static void
teardown(struct run *r)
{
	int i;

	for (i = 0; i < r->ntrials; i++) {
		sps_noise_free(r->t[i].noise);
		sps_boxcar_stream_free(r->t[i].search);
		free(r->t[i].ev);
		free(r->t[i].psnr);
		free(r->t[i].pwidth);
	}
	for (i = 0; i < r->nthreads; i++)
		sps_boxcar_work_free(r->work[i]);
	free(r->work);
	free(r->t);
	free(r->plans);
	free(r->plan_f);
	sps_header_free(&r->h);
	sps_header_free(&r->plane_hdr);
	if (r->in != NULL && r->in != stdin)
		fclose(r->in);
}

int
main(int argc, char **argv)
{
	struct run r;

	cli_init("sps-boxcar", argv);
	memset(&r, 0, sizeof(r));
	parse_options(&r.o, argc, argv);
	if (r.o.threads > 0)
		omp_set_num_threads(r.o.threads);
	if (r.o.loss || r.o.bench) {
		cli_check(sps_boxcar_plan_make(&r.plan, r.o.algorithm,
		    (int)r.o.width), NULL);
		if (r.o.loss)
			print_loss(&r.plan);
		else
			bench(&r.o, &r.plan);
		return 0;
	}
	open_input(&r);
	setup(&r);
	search(&r);
	teardown(&r);
	return 0;
}

/* sps-fake: synthetic filterbank data (noise, single pulses, a periodic
 * pulsar) in the spirit of SIGPROC's fake, or the same pulses injected
 * into an existing file.  The model and the meaning of S/N are in
 * lib/fake.h and sps-fake(1). */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fake.h"
#include "header.h"
#include "reader.h"
#include "writer.h"

#define BLOCK_VALUES	(1 << 22)	/* floats per block */
#define MAX_SAMPLES	1000000000000LL

static const char usage_text[] =
    "usage: sps-fake [--nchans N] [--nbits B] [--tsamp US] [--tobs S | "
    "--nsamples N]\n"
    "                [--fch1 MHZ] [--foff MHZ] [--tstart MJD] [--source NAME]"
    "\n"
    "                [--seed N] [--mean X] [--rms X] [--no-noise] "
    "[--bandpass SHAPE]\n"
    "                [--pulse SPEC ...] [--pulses FILE] [--period MS] "
    "[--width PCT]\n"
    "                [--snrpeak S] [--dm DM] [--nosmear] [-q] [-o OUTPUT]\n"
    "       sps-fake --inject FILE|- [--pulse SPEC ...] [--pulses FILE] "
    "[--period MS]\n"
    "                [--width PCT] [--snrpeak S] [--dm DM] [--nosmear] [-q] "
    "[-o OUTPUT]\n";

enum {
	OPT_BANDPASS = 256, OPT_DM, OPT_FCH1, OPT_FOFF, OPT_INJECT, OPT_MEAN,
	OPT_NBITS, OPT_NCHANS, OPT_NO_NOISE, OPT_NOSMEAR, OPT_NSAMPLES,
	OPT_PERIOD, OPT_PULSE, OPT_PULSES, OPT_RMS, OPT_SEED, OPT_SNRPEAK,
	OPT_SOURCE, OPT_TOBS, OPT_TSAMP, OPT_TSTART, OPT_VERSION, OPT_WIDTH
};

static const struct option long_options[] = {
	{ "bandpass", required_argument, NULL, OPT_BANDPASS },
	{ "dm", required_argument, NULL, OPT_DM },
	{ "fch1", required_argument, NULL, OPT_FCH1 },
	{ "foff", required_argument, NULL, OPT_FOFF },
	{ "help", no_argument, NULL, 'h' },
	{ "inject", required_argument, NULL, OPT_INJECT },
	{ "mean", required_argument, NULL, OPT_MEAN },
	{ "nbits", required_argument, NULL, OPT_NBITS },
	{ "nchans", required_argument, NULL, OPT_NCHANS },
	{ "no-noise", no_argument, NULL, OPT_NO_NOISE },
	{ "nosmear", no_argument, NULL, OPT_NOSMEAR },
	{ "nsamples", required_argument, NULL, OPT_NSAMPLES },
	{ "output", required_argument, NULL, 'o' },
	{ "period", required_argument, NULL, OPT_PERIOD },
	{ "pulse", required_argument, NULL, OPT_PULSE },
	{ "pulses", required_argument, NULL, OPT_PULSES },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rms", required_argument, NULL, OPT_RMS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "snrpeak", required_argument, NULL, OPT_SNRPEAK },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "tobs", required_argument, NULL, OPT_TOBS },
	{ "tsamp", required_argument, NULL, OPT_TSAMP },
	{ "tstart", required_argument, NULL, OPT_TSTART },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ NULL, 0, NULL, 0 }
};

struct options {
	int		 nchans;
	int		 nbits;
	double		 tsamp;		/* s */
	double		 tobs;		/* s; 0: use nsamples */
	long long	 nsamples;
	double		 fch1, foff;	/* MHz */
	double		 tstart;	/* MJD */
	const char	*source;
	uint64_t	 seed;
	double		 mean, rms;
	int		 mean_set, rms_set;
	int		 noise;
	enum sps_fake_bandpass bandpass;
	const char	**specs;	/* --pulse, in order */
	int		 nspecs;
	const char	*pulses_file;
	struct sps_fake_pulsar pulsar;
	int		 smear;
	const char	*inject;	/* NULL: generate */
	const char	*layout_option;	/* one that --inject forbids */
	int		 length_options; /* bits: --nsamples, --tobs */
	const char	*output;
	int		 quiet;
};

static void
set_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->nchans = 128;
	o->nbits = 8;
	o->tsamp = 80e-6;
	o->tobs = 1.0;
	o->fch1 = 1500.0;
	o->foff = -2.0;
	o->tstart = 50000.0;
	o->source = "FAKE";
	o->seed = 1;
	o->noise = 1;
	o->bandpass = SPS_FAKE_FLAT;
	o->pulsar.duty = 0.04;
	o->pulsar.snrpeak = 1.0;
	o->smear = 1;
}

static int
parse_nbits(const char *text)
{
	long long b = cli_long(text, "--nbits", 1, 32);

	if (b != 1 && b != 2 && b != 4 && b != 8 && b != 16 && b != 32)
		cli_fail("--nbits: '%s' is not one of 1, 2, 4, 8, 16, 32",
		    text);
	return (int)b;
}

static enum sps_fake_bandpass
parse_bandpass(const char *text)
{
	if (strcmp(text, "flat") == 0)
		return SPS_FAKE_FLAT;
	if (strcmp(text, "parabola") == 0)
		return SPS_FAKE_PARABOLA;
	if (strcmp(text, "gauss") == 0)
		return SPS_FAKE_GAUSSIAN;
	cli_fail("--bandpass: '%s' is not flat, parabola or gauss", text);
}

/* Options that describe the data to generate, which --inject takes from
 * its file instead. */
static void
layout_option(struct options *o, int opt)
{
	int i;

	for (i = 0; long_options[i].name != NULL; i++)
		if (long_options[i].val == opt)
			o->layout_option = long_options[i].name;
}

static void
parse_option(struct options *o, int opt, const char *arg)
{
	switch (opt) {
	case OPT_BANDPASS:
		o->bandpass = parse_bandpass(arg);
		break;
	case OPT_DM:
		o->pulsar.dm = cli_double(arg, "--dm", 0, 1e6);
		return;
	case OPT_FCH1:
		o->fch1 = cli_double(arg, "--fch1", 1e-3, 1e7);
		break;
	case OPT_FOFF:
		o->foff = cli_double(arg, "--foff", -1e6, 1e6);
		if (o->foff == 0)
			cli_fail("--foff: '%s' is zero", arg);
		break;
	case OPT_INJECT:
		o->inject = arg;
		return;
	case OPT_MEAN:
		o->mean = cli_double(arg, "--mean", -1e30, 1e30);
		o->mean_set = 1;
		break;
	case OPT_NBITS:
		o->nbits = parse_nbits(arg);
		break;
	case OPT_NCHANS:
		o->nchans = (int)cli_long(arg, "--nchans", 1, 1 << 20);
		break;
	case OPT_NO_NOISE:
		o->noise = 0;
		break;
	case OPT_NOSMEAR:
		o->smear = 0;
		return;
	case OPT_NSAMPLES:
		o->nsamples = cli_long(arg, "--nsamples", 1, MAX_SAMPLES);
		o->tobs = 0;
		o->length_options |= 1;
		break;
	case OPT_PERIOD:
		o->pulsar.period = 1e-3 * cli_double(arg, "--period", 1e-6,
		    1e9);
		return;
	case OPT_RMS:
		o->rms = cli_double(arg, "--rms", 1e-30, 1e30);
		o->rms_set = 1;
		break;
	case OPT_SEED:
		o->seed = (uint64_t)cli_long(arg, "--seed", 0, INT64_MAX);
		return;
	case OPT_SNRPEAK:
		o->pulsar.snrpeak = cli_double(arg, "--snrpeak", 0, 1e9);
		return;
	case OPT_SOURCE:
		if (strlen(arg) > SPS_STRING_MAX)
			cli_fail("--source: longer than %d characters",
			    SPS_STRING_MAX);
		o->source = arg;
		break;
	case OPT_TOBS:
		o->tobs = cli_double(arg, "--tobs", 1e-9, 1e8);
		o->nsamples = 0;
		o->length_options |= 2;
		break;
	case OPT_TSAMP:
		o->tsamp = 1e-6 * cli_double(arg, "--tsamp", 1e-6, 1e12);
		break;
	case OPT_TSTART:
		o->tstart = cli_double(arg, "--tstart", 0, 1e6);
		break;
	case OPT_WIDTH:
		o->pulsar.duty = 0.01 * cli_double(arg, "--width", 0, 100);
		if (o->pulsar.duty == 0)
			cli_fail("--width: '%s' is not > 0", arg);
		return;
	}
	layout_option(o, opt);
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	int opt;

	set_defaults(o);
	while ((opt = getopt_long(argc, argv, "ho:q", long_options, NULL)) !=
	    -1) {
		switch (opt) {
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_PULSE:
			o->specs = realloc(o->specs, (size_t)(o->nspecs + 1) *
			    sizeof(*o->specs));
			if (o->specs == NULL)
				err(1, NULL);
			o->specs[o->nspecs++] = optarg;
			break;
		case OPT_PULSES:
			o->pulses_file = optarg;
			break;
		case OPT_VERSION:
			cli_version();
		case '?':	/* getopt has said what is wrong */
			fputs(usage_text, stderr);
			exit(2);
		default:
			parse_option(o, opt, optarg);
			break;
		}
	}
	if (optind < argc)
		cli_usage_error(usage_text, "unexpected operand '%s'",
		    argv[optind]);
	if (o->length_options == 3)
		cli_usage_error(usage_text, "--tobs and --nsamples both give "
		    "the length");
	if (o->inject != NULL && o->layout_option != NULL)
		cli_usage_error(usage_text, "--%s cannot be used with --inject",
		    o->layout_option);
}

/* --pulse options, then the lines of --pulses, in tsamp s samples. */
static struct sps_fake_pulse *
collect_pulses(const struct options *o, double tsamp, int *n)
{
	struct sps_fake_pulse *list;
	FILE *f;
	int i;

	*n = 0;
	if ((list = calloc((size_t)o->nspecs + 1, sizeof(*list))) == NULL)
		err(1, NULL);
	for (i = 0; i < o->nspecs; i++) {
		if (sps_fake_pulse_parse(o->specs[i], tsamp, &list[i]) !=
		    SPS_OK)
			cli_fail("--pulse '%s': %s", o->specs[i], sps_errmsg());
		snprintf(list[i].origin, sizeof(list[i].origin),
		    "--pulse %d", i + 1);
		*n = i + 1;
	}
	if (o->pulses_file != NULL) {
		if ((f = fopen(o->pulses_file, "r")) == NULL)
			err(1, "%s", o->pulses_file);
		cli_check(sps_fake_pulses_read(f, o->pulses_file, tsamp, &list,
		    n), NULL);
		fclose(f);
	}
	return list;
}

static void
build_header(const struct options *o, struct sps_header *h)
{
	static const char *keys[] = {
		"source_name", "telescope_id", "machine_id", "data_type",
		"src_raj", "src_dej", "fch1", "foff", "nchans", "nbits",
		"tstart", "tsamp", "nifs"
	};
	size_t i;

	sps_header_init(h);
	snprintf(h->source_name, sizeof(h->source_name), "%s", o->source);
	h->data_type = o->nchans == 1 ? 2 : 1;
	h->fch1 = o->fch1;
	h->foff = o->foff;
	h->nchans = o->nchans;
	h->nbits = o->nbits;
	h->tstart = o->tstart;
	h->tsamp = o->tsamp;
	h->nifs = 1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		sps_header_mark(h, keys[i]);
	if (o->nbits == 8) {
		h->sign = 1;
		sps_header_mark(h, "signed");
	}
	if (o->nchans == 1) {
		h->refdm = o->pulsar.dm;
		sps_header_mark(h, "refdm");
	}
}

static uint64_t
count_samples(const struct options *o)
{
	double n;

	if (o->tobs == 0)
		return (uint64_t)o->nsamples;
	n = floor(o->tobs / o->tsamp + 0.5);
	if (n < 1 || n > MAX_SAMPLES)
		cli_fail("--tobs %g s at --tsamp %g us gives %.0f samples, not "
		    "in [1, %lld]", o->tobs, 1e6 * o->tsamp, n, MAX_SAMPLES);
	return (uint64_t)n;
}

static size_t
block_spectra(int nchans)
{
	size_t n = BLOCK_VALUES / (size_t)nchans;

	if (n > 4096)
		n = 4096;
	n &= ~(size_t)7;	/* sub-byte blocks stay byte aligned */
	return n < 8 ? 8 : n;
}

/* Like cli_check, but first remove the unfinished output. */
static void
check_write(struct sps_writer *w, enum sps_err e, const char *what)
{
	if (e == SPS_OK)
		return;
	sps_writer_abort(w);
	cli_check(e, what);
}

static void
summary(const struct options *o, const struct sps_writer *w,
    uint64_t nsamples, int nchans, int npulses)
{
	double total = (double)nsamples * nchans;

	if (o->quiet)
		return;
	fprintf(stderr, "sps-fake: %llu spectra of %d channels, %d pulses%s; "
	    "%llu values clipped (%.3g%%)\n", (unsigned long long)nsamples,
	    nchans, npulses, o->pulsar.period > 0 ? " and a pulsar" : "",
	    w->nclipped, total > 0 ? 100.0 * w->nclipped / total : 0.0);
}

static int
generate(const struct options *o)
{
	struct sps_fake_plan *plan;
	struct sps_fake_pulse *pulses;
	struct sps_writer w;
	struct sps_header h;
	double *mean, *rms, m, r;
	uint64_t nsamples, done;
	size_t nblock, n;
	float *buf;
	int c, npulses;

	nsamples = count_samples(o);
	if ((uint64_t)o->nchans * (uint64_t)o->nbits * nsamples % 8 != 0)
		cli_fail("%llu spectra of %d channels of %d bits are not a "
		    "whole number of bytes", (unsigned long long)nsamples,
		    o->nchans, o->nbits);
	build_header(o, &h);
	if ((mean = malloc(2 * (size_t)o->nchans * sizeof(double))) == NULL)
		err(1, NULL);
	rms = mean + o->nchans;
	sps_fake_default_level(o->nbits, &m, &r);
	sps_fake_bandpass(o->bandpass, o->nchans, rms);
	for (c = 0; c < o->nchans; c++) {
		mean[c] = (o->mean_set ? o->mean : m) * rms[c];
		rms[c] *= o->rms_set ? o->rms : r;
	}
	pulses = collect_pulses(o, o->tsamp, &npulses);
	cli_check(sps_fake_plan_create(&plan, &h, nsamples, rms, pulses,
	    npulses, &o->pulsar, o->smear), NULL);
	nblock = block_spectra(o->nchans);
	if ((buf = malloc(nblock * o->nchans * sizeof(float))) == NULL)
		err(1, NULL);
	cli_check(sps_writer_open(&w, o->output), NULL);
	check_write(&w, sps_writer_header(&w, &h), NULL);
	for (done = 0; done < nsamples; done += n) {
		n = nsamples - done < nblock ? (size_t)(nsamples - done) :
		    nblock;
		sps_fake_noise(o->seed, done, n, o->nchans, mean,
		    o->noise ? rms : NULL, buf);
		sps_fake_plan_add(plan, buf, done, n);
		check_write(&w, sps_writer_spectra(&w, buf, n), NULL);
		cli_progress(o->quiet, (double)(done + n) / nsamples,
		    (done + n) * o->tsamp);
	}
	cli_progress_done(o->quiet);
	cli_check(sps_writer_close(&w), NULL);
	summary(o, &w, nsamples, o->nchans, npulses);
	sps_fake_plan_free(plan);
	sps_header_free(&h);
	free(pulses);
	free(buf);
	free(mean);
	return 0;
}

/* The first block: read it whole (or to the end) so its rms is known
 * before anything is written. */
static size_t
read_first(struct sps_reader *r, float *buf, size_t nblock)
{
	size_t have = 0, got;
	enum sps_err e;

	while (have < nblock) {
		e = sps_reader_read(r, buf + have * r->hdr.nchans,
		    nblock - have, &got);
		if (e == SPS_EEOF)
			break;
		cli_check(e, NULL);
		have += got;
	}
	if (have == 0)
		cli_fail("%s: no data after the header", r->name);
	return have;
}

static int
inject(const struct options *o)
{
	struct sps_fake_plan *plan;
	struct sps_fake_pulse *pulses;
	struct sps_reader r;
	struct sps_writer w;
	double *rms;
	uint64_t done;
	size_t nblock, n;
	enum sps_err e;
	float *buf;
	int npulses, nchans;

	cli_check(sps_reader_open(&r, o->inject), NULL);
	if (r.hdr.nifs > 1)
		cli_fail("%s: nifs %d: injection needs one IF", r.name,
		    r.hdr.nifs);
	nchans = r.hdr.nchans;
	pulses = collect_pulses(o, r.hdr.tsamp, &npulses);
	nblock = block_spectra(nchans);
	if ((buf = malloc(nblock * nchans * sizeof(float))) == NULL ||
	    (rms = malloc((size_t)nchans * sizeof(double))) == NULL)
		err(1, NULL);
	n = read_first(&r, buf, nblock);
	cli_check(sps_fake_estimate_rms(buf, n, nchans, rms), NULL);
	cli_check(sps_fake_plan_create(&plan, &r.hdr, r.nsamples, rms, pulses,
	    npulses, &o->pulsar, o->smear), r.name);
	cli_check(sps_writer_open(&w, o->output), NULL);
	check_write(&w, sps_writer_header(&w, &r.hdr), NULL);
	for (done = 0;;) {
		sps_fake_plan_add(plan, buf, done, n);
		if (r.hdr.nbits < 32)
			sps_fake_dither(o->seed, done, n, nchans, buf);
		check_write(&w, sps_writer_spectra(&w, buf, n), NULL);
		done += n;
		if (r.nsamples != SPS_NSAMPLES_UNKNOWN)
			cli_progress(o->quiet, (double)done / r.nsamples,
			    done * r.hdr.tsamp);
		if ((e = sps_reader_read(&r, buf, nblock, &n)) == SPS_EEOF)
			break;
		check_write(&w, e, NULL);
	}
	cli_progress_done(o->quiet);
	check_write(&w, sps_fake_plan_check_end(plan, done), r.name);
	cli_check(sps_writer_close(&w), NULL);
	summary(o, &w, done, nchans, npulses);
	sps_fake_plan_free(plan);
	sps_reader_close(&r);
	free(pulses);
	free(buf);
	free(rms);
	return 0;
}

int
main(int argc, char **argv)
{
	struct options o;
	int status;

	cli_init("sps-fake", argv);
	parse_options(argc, argv, &o);
	status = o.inject != NULL ? inject(&o) : generate(&o);
	free(o.specs);
	return status;
}

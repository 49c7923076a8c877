/* sps-fake: synthetic filterbank data (noise, single pulses, a periodic
 * pulsar) in the spirit of SIGPROC's fake, or the same pulses injected
 * into an existing file.  The model and the meaning of S/N are in
 * lib/fake.h and sps-fake(1). */
#include <err.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fake.h"
#include "fakedata.h"
#include "header.h"
#include "help.h"
#include "reader.h"
#include "writer.h"

static const char usage_text[] =
    "usage: sps-fake [--nchans N] [--nbits B] [--tsamp US] [--tobs S | "
    "--nsamples N]\n"
    "                [--fch1 MHZ] [--foff MHZ] [--tstart MJD] [--source NAME]"
    "\n"
    "                [--seed N] [--mean X] [--rms X] [--no-noise] "
    "[--bandpass SHAPE]\n"
    "                [--pulse SPEC ...] [--pulses FILE] [--period MS] "
    "[--width PCT]\n"
    "                [--snrpeak S] [--dm DM] [--nosmear] [--rfi SPEC ...] "
    "[-q]\n"
    "                [-o OUTPUT]\n"
    "       sps-fake --inject FILE|- [--pulse SPEC ...] [--pulses FILE] "
    "[--period MS]\n"
    "                [--width PCT] [--snrpeak S] [--dm DM] [--nosmear]\n"
    "                [--rfi SPEC ...] [--seed N] [-q] [-o OUTPUT]\n";

enum {
	OPT_BANDPASS = 256, OPT_DM, OPT_FCH1, OPT_FOFF, OPT_INJECT, OPT_MEAN,
	OPT_NBITS, OPT_NCHANS, OPT_NO_NOISE, OPT_NOSMEAR, OPT_NSAMPLES,
	OPT_PERIOD, OPT_PULSE, OPT_PULSES, OPT_RFI, OPT_RMS, OPT_SEED, OPT_SNRPEAK,
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
	{ "rfi", required_argument, NULL, OPT_RFI },
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
	struct sps_fake_spec spec;
	const char	**specs;	/* --pulse, in order */
	int		 nspecs;
	const char	**rfi_specs;	/* --rfi, in order */
	int		 nrfi;
	const char	*pulses_file;
	const char	*inject;	/* NULL: generate */
	const char	*layout_option;	/* one that --inject forbids */
	int		 length_options; /* bits: --nsamples, --tobs */
	const char	*output;
	int		 quiet;
};

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
	struct sps_fake_spec *s = &o->spec;

	switch (opt) {
	case OPT_BANDPASS:
		if (sps_fake_bandpass_parse(arg, &s->bandpass) != SPS_OK)
			cli_bad_value("--bandpass: '%s' is %s", arg, sps_errmsg());
		break;
	case OPT_DM:
		s->pulsar.dm = cli_double(arg, "--dm", 0, 1e6);
		return;
	case OPT_FCH1:
		s->fch1 = cli_double(arg, "--fch1", 1e-3, 1e7);
		break;
	case OPT_FOFF:
		s->foff = cli_double(arg, "--foff", -1e6, 1e6);
		if (s->foff == 0)
			cli_bad_value("--foff: '%s' is zero", arg);
		break;
	case OPT_INJECT:
		o->inject = arg;
		return;
	case OPT_MEAN:
		s->mean = cli_double(arg, "--mean", -1e30, 1e30);
		s->mean_set = 1;
		break;
	case OPT_NBITS:
		s->nbits = cli_nbits(arg, "--nbits");
		break;
	case OPT_NCHANS:
		s->nchans = (int)cli_long(arg, "--nchans", 1, 1 << 20);
		break;
	case OPT_NO_NOISE:
		s->noise = 0;
		break;
	case OPT_NOSMEAR:
		s->smear = 0;
		return;
	case OPT_NSAMPLES:
		s->nsamples = cli_long(arg, "--nsamples", 1,
		    SPS_FAKE_MAX_SAMPLES);
		s->tobs = 0;
		o->length_options |= 1;
		break;
	case OPT_PERIOD:
		s->pulsar.period = 1e-3 * cli_double(arg, "--period", 1e-6,
		    1e9);
		return;
	case OPT_RMS:
		s->rms = cli_double(arg, "--rms", 1e-30, 1e30);
		s->rms_set = 1;
		break;
	case OPT_SEED:
		s->seed = (uint64_t)cli_long(arg, "--seed", 0, INT64_MAX);
		return;
	case OPT_SNRPEAK:
		s->pulsar.snrpeak = cli_double(arg, "--snrpeak", 0, 1e9);
		return;
	case OPT_SOURCE:
		if (strlen(arg) > SPS_STRING_MAX)
			cli_bad_value("--source: longer than %d characters",
			    SPS_STRING_MAX);
		s->source = arg;
		break;
	case OPT_TOBS:
		s->tobs = cli_double(arg, "--tobs", 1e-9, 1e8);
		s->nsamples = 0;
		o->length_options |= 2;
		break;
	case OPT_TSAMP:
		s->tsamp = 1e-6 * cli_double(arg, "--tsamp", 1e-6, 1e12);
		break;
	case OPT_TSTART:
		s->tstart = cli_double(arg, "--tstart", 0, 1e6);
		break;
	case OPT_WIDTH:
		s->pulsar.duty = 0.01 * cli_double(arg, "--width", 0, 100);
		if (s->pulsar.duty == 0)
			cli_bad_value("--width: '%s' is not > 0", arg);
		return;
	}
	layout_option(o, opt);
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	int opt;

	memset(o, 0, sizeof(*o));
	sps_fake_spec_defaults(&o->spec);
	if ((o->specs = calloc((size_t)argc, sizeof(*o->specs))) == NULL ||
	    (o->rfi_specs = calloc((size_t)argc, sizeof(char *))) == NULL)
		err(1, NULL);
	cli_long_hint(argc, argv, long_options);
	while ((opt = getopt_long(argc, argv, "ho:q", long_options, NULL)) !=
	    -1) {
		switch (opt) {
		case 'h':
			cli_help(usage_text, help_fake);
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_PULSE:
			o->specs[o->nspecs++] = optarg;
			break;
		case OPT_RFI:
			o->rfi_specs[o->nrfi++] = optarg;
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
			cli_bad_value("--pulse '%s': %s", o->specs[i], sps_errmsg());
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

/* The --rfi options for the data of d, planned into d. */
static void
plan_rfi(const struct options *o, struct sps_fake_data *d)
{
	struct sps_rfi *list;
	int i;

	if ((list = calloc((size_t)o->nrfi + 1, sizeof(*list))) == NULL)
		err(1, NULL);
	for (i = 0; i < o->nrfi; i++)
		if (sps_rfi_parse(o->rfi_specs[i], d->hdr.tsamp, d->hdr.nchans,
		    &list[i]) != SPS_OK)
			cli_bad_value("--rfi '%s': %s", o->rfi_specs[i],
			    sps_errmsg());
	cli_check(sps_fake_data_plan_rfi(d, list, o->nrfi), NULL);
	free(list);
}

static int
generate(const struct options *o)
{
	struct sps_fake_pulse *pulses;
	struct sps_fake_data d;
	struct sps_writer w;
	uint64_t done;
	size_t nblock, n;
	float *buf;
	int npulses;

	cli_check(sps_fake_data_init(&d, &o->spec), NULL);
	pulses = collect_pulses(o, o->spec.tsamp, &npulses);
	cli_check(sps_fake_data_plan(&d, &o->spec, pulses, npulses), NULL);
	plan_rfi(o, &d);
	nblock = sps_fake_block_spectra(d.hdr.nchans);
	if ((buf = malloc(nblock * d.hdr.nchans * sizeof(float))) == NULL)
		err(1, NULL);
	cli_check(sps_writer_open(&w, o->output), NULL);
	cli_check_output(&w, sps_writer_header(&w, &d.hdr), NULL);
	for (done = 0; done < d.nsamples; done += n) {
		n = d.nsamples - done < nblock ? (size_t)(d.nsamples - done) :
		    nblock;
		sps_fake_data_block(&d, buf, done, n);
		cli_check_output(&w, sps_writer_spectra(&w, buf, n), NULL);
		cli_progress(o->quiet, (double)(done + n) / d.nsamples,
		    (done + n) * d.hdr.tsamp);
	}
	cli_progress_done(o->quiet);
	cli_check(sps_writer_close(&w), NULL);
	if (!o->quiet)
		sps_fake_data_report(stderr, &d, d.nsamples, w.nclipped);
	sps_fake_data_free(&d);
	free(pulses);
	free(buf);
	return 0;
}

static int
inject(const struct options *o)
{
	struct sps_fake_pulse *pulses;
	struct sps_fake_data d;
	struct sps_reader r;
	struct sps_writer w;
	uint64_t done;
	size_t nblock, n;
	enum sps_err e;
	float *buf;
	int npulses;

	cli_check(sps_reader_open(&r, o->inject), NULL);
	if (r.hdr.nifs > 1)
		cli_fail("%s: nifs %d: injection needs one IF", r.name,
		    r.hdr.nifs);
	pulses = collect_pulses(o, r.hdr.tsamp, &npulses);
	nblock = sps_fake_block_spectra(r.hdr.nchans);
	if ((buf = malloc(nblock * r.hdr.nchans * sizeof(float))) == NULL)
		err(1, NULL);
	if ((e = sps_fake_read_block(&r, buf, nblock, &n)) == SPS_EEOF)
		cli_fail("%s: no data after the header", r.name);
	cli_check(e, NULL);
	cli_check(sps_fake_data_inject(&d, &r.hdr, r.nsamples, buf, n,
	    o->spec.seed), NULL);
	cli_check(sps_fake_data_plan(&d, &o->spec, pulses, npulses), r.name);
	plan_rfi(o, &d);
	cli_check(sps_writer_open(&w, o->output), NULL);
	cli_check_output(&w, sps_writer_header(&w, &d.hdr), NULL);
	for (done = 0;;) {
		sps_fake_data_add(&d, buf, done, n);
		cli_check_output(&w, sps_writer_spectra(&w, buf, n), NULL);
		done += n;
		if (r.nsamples != SPS_NSAMPLES_UNKNOWN)
			cli_progress(o->quiet, (double)done / r.nsamples,
			    done * r.hdr.tsamp);
		if ((e = sps_reader_read(&r, buf, nblock, &n)) == SPS_EEOF)
			break;
		cli_check_output(&w, e, NULL);
	}
	cli_progress_done(o->quiet);
	cli_check_output(&w, sps_fake_plan_check_end(d.plan, done), r.name);
	cli_check(sps_writer_close(&w), NULL);
	if (!o->quiet)
		sps_fake_data_report(stderr, &d, done, w.nclipped);
	sps_fake_data_free(&d);
	cli_reader_close(&r);
	free(pulses);
	free(buf);
	return 0;
}

int
main(int argc, char **argv)
{
	struct options o;
	int status;

	cli_init("sps-fake", argv);
	parse_options(argc, argv, &o);
	cli_binary_output(o.output);
	status = o.inject != NULL ? inject(&o) : generate(&o);
	free(o.specs);
	free(o.rfi_specs);
	return status;
}

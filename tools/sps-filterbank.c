/* sps-filterbank: any input the suite reads (SIGPROC filterbank, PSRFITS
 * search mode, several files in time order, standard input) to a SIGPROC
 * filterbank stream, with a time range, a channel or frequency range, a
 * channel mask, a band flip and a choice of output nbits.  By default the
 * values pass through exactly. */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chanmask.h"
#include "cli.h"
#include "fbcopy.h"
#include "filterbank.h"
#include "header.h"
#include "help.h"
#include "join.h"
#include "psrfits.h"
#include "reader.h"
#include "writer.h"


static const char usage_text[] =
    "usage: sps-filterbank [-hqv] [-o OUTPUT] [-s SECONDS | -S SAMPLE]\n"
    "                      [-r SECONDS | -n NSAMPLES] [-c FIRST:LAST |\n"
    "                      --freqs LOW:HIGH] [-b NBITS] [--rescale] "
    "[--flip]\n"
    "                      [-m FILE] [--ignorechan LIST] "
    "[--mask-fill zero|median]\n"
    "                      [--fill-gaps] [--if N] [--noscales] "
    "[--nooffsets]\n"
    "                      [--noweights] [--nozerooff] [--keep-order]\n"
    "                      [--fill-zeros] [FILE ...]\n";

enum {
	OPT_FREQS = 256, OPT_RESCALE, OPT_FLIP, OPT_IGNORECHAN, OPT_MASK_FILL,
	OPT_FILL_GAPS, OPT_IF, OPT_NOSCALES, OPT_NOOFFSETS, OPT_NOWEIGHTS,
	OPT_NOZEROOFF, OPT_KEEP_ORDER, OPT_FILL_ZEROS, OPT_VERSION
};

struct options {
	struct sps_filterbank_params fb;
	struct sps_psrfits_options fits;
	const char	*output;
	char *const	*inputs;	/* none: standard input */
	int		 ninputs;
	int		 fill_gaps;
	const char	*mask_file;
	const char	*ignorechan;
	int		 quiet, verbose;
};

static void __attribute__((noreturn))
usage_error(const char *fmt, const char *arg)
{
	cli_usage_error(usage_text, fmt, arg);
}

/* "A:B" as two numbers (integers when integral). */
static void
parse_pair(const char *text, const char *option, double lo, double hi,
    double *a, double *b, int integral)
{
	char first[64], *colon;

	if (strlen(text) >= sizeof(first) || (colon = strchr(text, ':')) ==
	    NULL)
		usage_error("%s needs A:B", option);
	memcpy(first, text, (size_t)(colon - text));
	first[colon - text] = '\0';
	if (integral) {
		*a = (double)cli_long(first, option, (long long)lo,
		    (long long)hi);
		*b = (double)cli_long(colon + 1, option, (long long)lo,
		    (long long)hi);
	} else {
		*a = cli_double(first, option, lo, hi);
		*b = cli_double(colon + 1, option, lo, hi);
	}
}

static void
parse_more(int c, struct options *o)
{
	double a, b;

	switch (c) {
	case 'c':
		parse_pair(optarg, "-c", 0, 1 << 24, &a, &b, 1);
		if (a > b)
			usage_error("-c %s: FIRST after LAST", optarg);
		o->fb.chan_first = (long long)a;
		o->fb.chan_last = (long long)b;
		break;
	case OPT_FREQS:
		parse_pair(optarg, "--freqs", -1e9, 1e9, &a, &b, 0);
		o->fb.freq_lo = fmin(a, b);
		o->fb.freq_hi = fmax(a, b);
		break;
	case OPT_MASK_FILL:
		if (strcmp(optarg, "zero") != 0 && strcmp(optarg, "median"))
			usage_error("--mask-fill %s: not zero or median",
			    optarg);
		o->fb.median_fill = strcmp(optarg, "median") == 0;
		break;
	case OPT_IF:
		o->fits.pol = (int)cli_long(optarg, "--if", 0, 15);
		break;
	case OPT_NOSCALES:	o->fits.scales = 0; break;
	case OPT_NOOFFSETS:	o->fits.offsets = 0; break;
	case OPT_NOWEIGHTS:	o->fits.weights = 0; break;
	case OPT_NOZEROOFF:	o->fits.zero_off = 0; break;
	case OPT_KEEP_ORDER:	o->fits.keep_order = 1; break;
	case OPT_FILL_ZEROS:	o->fits.fill = SPS_FILL_ZERO; break;
	case OPT_VERSION:	cli_version();
	default:
		fputs(usage_text, stderr);	/* getopt said what is wrong */
		exit(2);
	}
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ "start", required_argument, NULL, 's' },
		{ "start-sample", required_argument, NULL, 'S' },
		{ "read", required_argument, NULL, 'r' },
		{ "nsamples", required_argument, NULL, 'n' },
		{ "chans", required_argument, NULL, 'c' },
		{ "freqs", required_argument, NULL, OPT_FREQS },
		{ "nbits", required_argument, NULL, 'b' },
		{ "rescale", no_argument, NULL, OPT_RESCALE },
		{ "flip", no_argument, NULL, OPT_FLIP },
		{ "mask", required_argument, NULL, 'm' },
		{ "ignorechan", required_argument, NULL, OPT_IGNORECHAN },
		{ "mask-fill", required_argument, NULL, OPT_MASK_FILL },
		{ "fill-gaps", no_argument, NULL, OPT_FILL_GAPS },
		{ "if", required_argument, NULL, OPT_IF },
		{ "noscales", no_argument, NULL, OPT_NOSCALES },
		{ "nooffsets", no_argument, NULL, OPT_NOOFFSETS },
		{ "noweights", no_argument, NULL, OPT_NOWEIGHTS },
		{ "nozerooff", no_argument, NULL, OPT_NOZEROOFF },
		{ "keep-order", no_argument, NULL, OPT_KEEP_ORDER },
		{ "fill-zeros", no_argument, NULL, OPT_FILL_ZEROS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	sps_filterbank_defaults(&o->fb);
	sps_psrfits_defaults(&o->fits);
	cli_long_hint(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "hqvo:s:S:r:n:c:b:m:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'h':
			cli_help(usage_text, help_filterbank);
		case 'q': o->quiet = 1; break;
		case 'v': o->verbose = 1; break;
		case 'o': o->output = optarg; break;
		case 's':
			o->fb.start_s = cli_double(optarg, "-s", 0, 1e9);
			break;
		case 'S':
			o->fb.start = cli_long(optarg, "-S", 0, INT64_MAX);
			break;
		case 'r':
			o->fb.read_s = cli_double(optarg, "-r", 0, 1e9);
			break;
		case 'n':
			o->fb.count = cli_long(optarg, "-n", 0, INT64_MAX);
			break;
		case 'b':
			o->fb.nbits = cli_nbits(optarg, "--nbits");
			break;
		case OPT_RESCALE: o->fb.rescale = 1; break;
		case OPT_FLIP: o->fb.flip = 1; break;
		case 'm': o->mask_file = optarg; break;
		case OPT_IGNORECHAN: o->ignorechan = optarg; break;
		case OPT_FILL_GAPS: o->fill_gaps = 1; break;
		default:
			parse_more(c, o);
		}
	}
	if (o->fb.start_s >= 0 && o->fb.start >= 0)
		usage_error("-s and -S both give the start%s", "");
	if (o->fb.read_s >= 0 && o->fb.count >= 0)
		usage_error("-r and -n both give the length%s", "");
	if (o->fb.chan_first >= 0 && !isnan(o->fb.freq_lo))
		usage_error("-c and --freqs both choose channels%s", "");
	o->inputs = argv + optind;
	o->ninputs = argc - optind;
}

/* ---- input ---- */

static void
open_input(struct sps_reader *r, const struct options *o)
{
	enum sps_err e;

	sps_psrfits_set_options(&o->fits);
	if (o->ninputs == 0)
		e = sps_reader_open(r, "-");
	else if (o->ninputs == 1)
		e = sps_reader_open(r, o->inputs[0]);
	else
		e = sps_reader_open_joined(r, o->inputs, o->ninputs,
		    o->fill_gaps);
	cli_check(e, NULL);
}

static void
print_input(const struct sps_reader *r, const struct options *o)
{
	const struct sps_psrfits_info *fi = sps_psrfits_info(r);
	const struct sps_header *h = &r->hdr;
	int i;

	if (fi != NULL && !o->quiet) {
		for (i = 0; i < fi->nwarnings; i++)
			warnx("warning: %s", fi->warnings[i]);
		if (fi->warnings_dropped > 0)
			warnx("warning: %d more warnings",
			    fi->warnings_dropped);
	}
	if (!o->verbose)
		return;
	fprintf(stderr, "sps-filterbank: input %s (%s)\n", r->name,
	    fi != NULL ? "PSRFITS" : "SIGPROC filterbank");
	fprintf(stderr, "  nchans %d, nifs %d, nbits %d, tsamp %g s, fch1 "
	    "%.6f MHz, foff %.6f MHz\n", h->nchans, h->nifs, h->nbits,
	    h->tsamp, h->fch1, h->foff);
	fprintf(stderr, "  tstart %.12f, source %s, ", h->tstart,
	    h->source_name[0] != '\0' ? h->source_name : "(none)");
	if (r->nsamples == SPS_NSAMPLES_UNKNOWN)
		fprintf(stderr, "length unknown (a stream)\n");
	else
		fprintf(stderr, "%llu spectra (%.3f s)\n",
		    (unsigned long long)r->nsamples,
		    (double)r->nsamples * h->tsamp);
	if (fi != NULL)
		sps_psrfits_describe(stderr, fi);
}

/* ---- the plan ---- */

/* -m and --ignorechan number channels as PRESTO does, from the lowest
 * frequency: the reverse of the file's order when foff < 0. */
static void
read_mask(struct sps_filterbank *p, const struct options *o, double foff)
{
	unsigned char *m;
	FILE *f;
	int c;

	if ((m = calloc((size_t)p->nin, 1)) == NULL)
		err(1, NULL);
	if (o->mask_file != NULL) {
		if ((f = fopen(o->mask_file, "r")) == NULL)
			err(1, "%s", o->mask_file);
		cli_check(sps_chanmask_read(f, o->mask_file, p->nin, m), NULL);
		fclose(f);
	}
	if (o->ignorechan != NULL)
		cli_check(sps_chanmask_parse(o->ignorechan, "--ignorechan",
		    p->nin, m), NULL);
	for (c = 0; c < p->nin; c++)
		p->masked[foff < 0 ? p->nin - 1 - c : c] |= m[c];
	free(m);
}

static void
make_plan(struct sps_filterbank *p, const struct sps_reader *r,
    const struct options *o)
{
	cli_check(sps_filterbank_time(p, &o->fb, r->hdr.tsamp, r->nsamples),
	    NULL);
	if (p->asked != SPS_FILTERBANK_ALL && p->asked > p->count && !o->quiet)
		warnx("asked for %llu spectra, only %llu after the start",
		    (unsigned long long)p->asked,
		    (unsigned long long)p->count);
	cli_check(sps_filterbank_channels(p, &o->fb, &r->hdr), NULL);
	read_mask(p, o, r->hdr.foff);
	cli_check(sps_filterbank_output(p, &o->fb, &r->hdr,
	    sps_reader_value_nbits(r)), NULL);
}

/* ---- the data ---- */

/* The span, block after block; returns the spectra copied. */
static uint64_t
copy(struct sps_fbcopy *c, struct sps_reader *r, struct sps_writer *w,
    const struct sps_filterbank *p, const struct options *o)
{
	int quiet = o->quiet || w->f == stdout;
	uint64_t done = 0;
	enum sps_err e;
	size_t got;

	while ((e = sps_fbcopy_step(c, w, &got)) == SPS_OK) {
		done += got;
		if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
			cli_progress(quiet, (double)done / (double)p->count,
			    (double)done * r->hdr.tsamp);
	}
	done += got;
	cli_progress_done(quiet);
	if (e != SPS_EEOF)
		cli_output_fail(w);
	return done;
}

static void
report(const struct sps_reader *r, const struct sps_filterbank *p,
    uint64_t done, unsigned long long clipped, const struct options *o)
{
	const struct sps_psrfits_info *fi = sps_psrfits_info(r);

	if (o->quiet)
		return;
	if (r->gap_spectra > 0)
		warnx("filled %llu spectra %s (%s)",
		    (unsigned long long)r->gap_spectra, fi != NULL ?
		    "of missing rows" : "of gaps between files",
		    fi != NULL && o->fits.fill == SPS_FILL_ZERO ? "zeros" :
		    "per-channel means");
	if (clipped > 0)
		warnx("%llu of %llu samples clipped to the %d-bit range",
		    clipped, (unsigned long long)(done * p->nifs * p->nout),
		    p->nbits);
	if (p->count == SPS_FILTERBANK_ALL || !o->verbose)
		return;
	fprintf(stderr, "sps-filterbank: wrote %llu spectra from %llu, "
	    "channels %d to %d%s, %d masked, %d-bit%s\n",
	    (unsigned long long)done, (unsigned long long)p->start, p->first,
	    p->first + p->nout - 1, o->fb.flip ? " flipped" : "", p->nmasked,
	    p->nbits, o->fb.rescale ? " rescaled" : "");
}

int
main(int argc, char **argv)
{
	struct sps_header out_hdr;
	struct sps_filterbank plan;
	struct options opt;
	struct sps_reader r;
	struct sps_writer w;
	unsigned long long clipped;
	struct sps_fbcopy *c;
	uint64_t done;
	int bytes;

	cli_init("sps-filterbank", argv);
	parse_options(argc, argv, &opt);
	cli_binary_output(opt.output);
	open_input(&r, &opt);
	print_input(&r, &opt);
	make_plan(&plan, &r, &opt);
	cli_check(sps_filterbank_header(&plan, &r.hdr, &out_hdr), NULL);
	cli_check(sps_writer_open(&w, opt.output), NULL);
	if (sps_writer_header(&w, &out_hdr) != SPS_OK)
		cli_output_fail(&w);
	if (sps_fbcopy_create(&c, &plan, &r) != SPS_OK)
		cli_output_fail(&w);
	bytes = sps_fbcopy_bytes(c);
	done = copy(c, &r, &w, &plan, &opt);
	sps_fbcopy_free(c);
	clipped = w.nclipped;
	cli_check(sps_writer_close(&w), NULL);
	report(&r, &plan, done, clipped, &opt);
	if (opt.verbose && bytes)
		fprintf(stderr, "sps-filterbank: copied as bytes (no value "
		    "changes)\n");
	sps_header_free(&out_hdr);
	cli_reader_close(&r);
	sps_filterbank_free(&plan);
	return 0;
}

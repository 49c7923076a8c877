/* sps-tscrunch: add (or average) N adjacent samples in time and M
 * adjacent channels of filterbank data or a time series, block by block,
 * into an output nbits that the sums cannot overflow. */
#include <err.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "help.h"
#include "join.h"
#include "psrfits.h"
#include "reader.h"
#include "tscrunch.h"
#include "writer.h"

#define BLOCK_VALUES	((size_t)1 << 22)	/* input floats per block */

static const char usage_text[] =
    "usage: sps-tscrunch [-q] [--mean] [-t N] [-f M] [-n NBITS] [-o OUTPUT]\n"
    "           [FILE ... | -]\n";

enum { OPT_MEAN = 256, OPT_VERSION };

struct options {
	struct sps_tscrunch_params params;
	int		 quiet;
	const char	*output;
	char		**inputs;	/* NULL-terminated; "-" is stdin */
	int		 ninputs;
};

static void
parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "tscrunch", required_argument, NULL, 't' },
		{ "fscrunch", required_argument, NULL, 'f' },
		{ "mean", no_argument, NULL, OPT_MEAN },
		{ "nbits", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	static char *standard_input[] = { "-", NULL };
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->params.tfactor = 1;
	opt->params.ffactor = 1;
	cli_long_hint(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "f:hn:o:qt:", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'f':
			opt->params.ffactor = (int)cli_long(optarg, "-f", 1,
			    INT32_MAX);
			break;
		case 'h':
			cli_help(usage_text, help_tscrunch);
		case 'n':
			opt->params.nbits = (int)cli_long(optarg, "-n", 1, 32);
			if (opt->params.nbits != 1 && opt->params.nbits != 2 &&
			    opt->params.nbits != 4 && opt->params.nbits != 8 &&
			    opt->params.nbits != 16 && opt->params.nbits != 32)
				cli_usage_error(usage_text, "-n %s: not 1, 2, "
				    "4, 8, 16 or 32", optarg);
			break;
		case 'o':
			opt->output = optarg;
			break;
		case 'q':
			opt->quiet = 1;
			break;
		case 't':
			opt->params.tfactor = (int)cli_long(optarg, "-t", 1,
			    INT32_MAX);
			break;
		case OPT_MEAN:
			opt->params.mean = 1;
			break;
		case OPT_VERSION:
			cli_version();
		default:
			cli_usage(usage_text, 2);	/* getopt said what is wrong */
		}
	}
	opt->inputs = optind < argc ? argv + optind : standard_input;
	opt->ninputs = optind < argc ? argc - optind : 1;
}

/* What this tool cannot add up: refused before any output. */
static void
check_input(const struct sps_reader *r)
{
	if (r->hdr.sps_order != 0)
		cli_fail("%s: channel-major data (sps_order %d): turn it "
		    "back with sps-cornerturn --to time first", r->name,
		    r->hdr.sps_order);
	if (r->hdr.sps_dmtime != 0)
		cli_fail("%s: a DM-time stream: not supported", r->name);
}

/* Read, add, write, block by block; counts the input spectra in *nin. */
static enum sps_err
scrunch_blocks(struct sps_reader *r, struct sps_tscrunch *plan,
    const struct sps_header *out_hdr, struct sps_writer *w,
    const struct options *opt, uint64_t *nin, uint64_t *nout)
{
	size_t vin = sps_spectrum_values(&r->hdr);
	size_t vout = sps_spectrum_values(out_hdr);
	size_t block = BLOCK_VALUES / vin > 0 ? BLOCK_VALUES / vin : 1;
	size_t nmade = block / (size_t)opt->params.tfactor + 1;
	float *in = malloc(block * vin * sizeof(float));
	float *out = malloc(nmade * vout * sizeof(float));
	enum sps_err e = SPS_OK;
	size_t got, made;

	*nin = *nout = 0;
	if (in == NULL || out == NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory for blocks of %zu "
		    "spectra", block);
	while (e == SPS_OK && (e = sps_reader_read(r, in, block, &got)) ==
	    SPS_OK) {
		made = sps_tscrunch_execute(plan, in, got, out);
		e = sps_writer_spectra(w, out, made);
		*nin += got;
		*nout += made;
		if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
			cli_progress(opt->quiet, (double)*nin /
			    (double)r->nsamples, *nin * r->hdr.tsamp);
	}
	cli_progress_done(opt->quiet);
	free(in);
	free(out);
	return e == SPS_EEOF ? SPS_OK : e;
}

static void
report(const struct options *opt, const struct sps_header *in,
    const struct sps_header *out, struct sps_tscrunch *plan,
    const struct sps_writer *w, uint64_t nin, uint64_t nout)
{
	if (w->nclipped > 0)
		warnx("%llu values clipped to the range of %d-bit output",
		    w->nclipped, out->nbits);
	if (opt->quiet)
		return;
	if (sps_tscrunch_pending(plan) == 1)
		warnx("dropped the last sample (fewer than -t %d)",
		    opt->params.tfactor);
	else if (sps_tscrunch_pending(plan) > 1)
		warnx("dropped the last %zu samples (fewer than -t %d)",
		    sps_tscrunch_pending(plan), opt->params.tfactor);
	fprintf(stderr, "sps-tscrunch: %llu samples of %d channels, %d-bit "
	    "-> %llu samples of %d channels, %d-bit\n",
	    (unsigned long long)nin, in->nchans, in->nbits,
	    (unsigned long long)nout, out->nchans, out->nbits);
}

int
main(int argc, char **argv)
{
	struct sps_tscrunch *plan;
	struct sps_header in, out;
	struct sps_reader r;
	struct sps_writer w;
	struct options opt;
	uint64_t nin, nout;

	cli_init("sps-tscrunch", argv);
	parse_options(argc, argv, &opt);
	cli_binary_output(opt.output);
	cli_check(sps_reader_open_many(&r, opt.inputs, opt.ninputs), NULL);
	check_input(&r);
	in = r.hdr;	/* shallow: only nbits differs */
	in.nbits = sps_reader_value_nbits(&r);
	cli_check(sps_tscrunch_header(&in, &opt.params, r.nsamples, &out),
	    r.name);
	cli_check(sps_tscrunch_create(&plan, &in, &opt.params), r.name);
	if (opt.output == NULL && isatty(STDOUT_FILENO))
		cli_fail("not writing binary data to a terminal (use -o FILE "
		    "or a pipe)");
	cli_check(sps_writer_open(&w, opt.output), NULL);
	if (sps_writer_header(&w, &out) != SPS_OK ||
	    scrunch_blocks(&r, plan, &out, &w, &opt, &nin, &nout) !=
	    SPS_OK)
		cli_output_fail(&w);
	cli_check(sps_writer_close(&w), NULL);
	report(&opt, &in, &out, plan, &w, nin, nout);
	sps_tscrunch_free(plan);
	sps_header_free(&out);
	cli_reader_close(&r);
	return 0;
}

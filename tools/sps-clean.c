/* sps-clean: interference excision as a pipe stage, filterbank in,
 * filterbank out: channel masks (a kill file, PRESTO lists and rfifind
 * masks, spectral kurtosis, IQRM), clipping of zero-DM impulses, zero-DM
 * subtraction; lib/clean.c does the work, block after block. */
#include <err.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanopts.h"
#include "cleanstream.h"
#include "cli.h"
#include "help.h"
#include "killmask.h"
#include "psrfits.h"
#include "reader.h"
#include "writer.h"

static const char usage_text[] =
    "usage: sps-clean [-q] [--zerodm | --zdot] [--clip SIGMA | --noclip]\n"
    "                 [--clip-width N] [--sk SIGMA] [--sk-n ND]\n"
    "                 [--iqrm SIGMA | --noiqrm] [--iqrm-radius N] "
    "[--hold N]\n"
    "                 [-k KILLFILE] [--zapchan LIST] [--mask FILE]\n"
    "                 [--block N] [-b NBITS] [--report FILE] "
    "[-o OUTPUT] [FILE]\n";

enum { OPT_ZAPCHAN = 256, OPT_VERSION };

struct options {
	struct cleanopts clean;
	const char	*input, *output, *killfile, *zapchan;
	int		 nbits;		/* 0: the input's */
	int		 quiet;
};

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		CLEANOPTS_LONGOPTS,
		{ "killmask", required_argument, NULL, 'k' },
		{ "zapchan", required_argument, NULL, OPT_ZAPCHAN },
		{ "ignorechan", required_argument, NULL, OPT_ZAPCHAN },
		{ "block", required_argument, NULL, CLEANOPT_BLOCK },
		{ "nbits", required_argument, NULL, 'b' },
		{ "report", required_argument, NULL, CLEANOPT_REPORT },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	cleanopts_init(&o->clean);
	cli_long_hint(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "hqk:b:o:", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'h': cli_help(usage_text, help_clean);
		case 'q': o->quiet = 1; break;
		case 'k': o->killfile = optarg; break;
		case 'o': o->output = optarg; break;
		case 'b':
			o->nbits = cli_nbits(optarg, "--nbits");
			break;
		case OPT_ZAPCHAN: o->zapchan = optarg; break;
		case OPT_VERSION: cli_version();
		default:
			if (!cleanopts_parse(&o->clean, c, optarg, longopts,
			    usage_text))
				cli_usage(usage_text, 2);  /* getopt said why */
		}
	}
	o->input = cli_input(argc, argv, usage_text);
}

/* Up to n spectra, as many as the input has (a pipe gives fewer at a
 * time); SPS_EEOF with *got 0 at the end. */
static enum sps_err
read_block(struct sps_reader *r, float *buf, size_t n, size_t *got)
{
	size_t part, width = sps_spectrum_values(&r->hdr);
	enum sps_err e = SPS_OK;

	*got = 0;
	while (*got < n && (e = sps_reader_read(r, buf + *got * width,
	    n - *got, &part)) == SPS_OK)
		*got += part;
	if (e == SPS_EEOF && *got > 0)
		e = SPS_OK;
	return e;
}

static void
clean(struct sps_reader *r, struct sps_writer *w, struct sps_cleanstream *cs,
    const struct options *o)
{
	size_t block = o->clean.setup.block, got;
	int quiet = o->quiet || w->f == stdout;
	struct sps_clean_block b;
	uint64_t at = 0;
	enum sps_err e;
	float *buf;

	if ((buf = malloc(block * (size_t)r->hdr.nchans * sizeof(float))) ==
	    NULL)
		err(1, NULL);
	while ((e = read_block(r, buf, sps_cleanstream_begin(cs, at), &got)) ==
	    SPS_OK) {
		cli_check(sps_cleanstream_block(cs, at, buf, got, &b), NULL);
		if (sps_writer_spectra(w, buf, got) != SPS_OK)
			cli_output_fail(w);
		at += got;
		if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
			cli_progress(quiet, (double)at / (double)r->nsamples,
			    (double)at * r->hdr.tsamp);
	}
	cli_progress_done(quiet);
	if (e != SPS_EEOF)
		cli_check_output(w, e, NULL);
	free(buf);
}

int
main(int argc, char **argv)
{
	struct sps_cleanstream *cs;
	struct sps_header out_hdr;
	struct options opt;
	struct sps_reader r;
	struct sps_writer w;
	unsigned char *kill;

	cli_init("sps-clean", argv);
	parse_options(argc, argv, &opt);
	cli_binary_output(opt.output);
	cli_check(sps_reader_open(&r, opt.input), NULL);
	if (r.hdr.nifs != 1)
		cli_fail("%s: %d IFs: clean one (sps-filterbank --if N) or "
		    "their sum", r.name, r.hdr.nifs);
	cli_check(sps_killmask_make(opt.killfile, opt.zapchan, &r.hdr, &kill),
	    NULL);
	cli_check(sps_cleanstream_create(&cs, &r.hdr, &opt.clean.setup, kill),
	    NULL);
	cli_check(sps_header_copy(&out_hdr, &r.hdr), NULL);
	out_hdr.nbits = opt.nbits ? opt.nbits : sps_reader_value_nbits(&r);
	cli_check(sps_writer_open(&w, opt.output), NULL);
	if (sps_writer_header(&w, &out_hdr) != SPS_OK)
		cli_output_fail(&w);
	clean(&r, &w, cs, &opt);
	cli_check(sps_writer_close(&w), NULL);
	cli_check(sps_cleanstream_close(cs), NULL);
	if (!opt.quiet)
		sps_clean_report_summary(sps_cleanstream_report(cs), stderr,
		    "sps-clean", w.nclipped, out_hdr.nbits);
	sps_cleanstream_free(cs);
	free(kill);
	sps_header_free(&out_hdr);
	cli_reader_close(&r);
	return 0;
}

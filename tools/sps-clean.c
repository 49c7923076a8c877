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
#include "cleanpass.h"
#include "cleanstream.h"
#include "cli.h"
#include "dedisp_engine.h"
#include "devices.h"
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
    "                 [--block N] [-b NBITS] [--report FILE]\n"
    "                 [--gpu [--device N] | --cpu] [-o OUTPUT] [FILE]\n";

enum { OPT_ZAPCHAN = 256, OPT_VERSION, OPT_GPU, OPT_CPU, OPT_DEVICE };

struct options {
	struct cleanopts clean;
	struct sps_clean_pass_opts pass;
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
		{ "gpu", no_argument, NULL, OPT_GPU },
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	cleanopts_init(&o->clean);
	o->pass.engine = SPS_ENGINE_ANY;
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
		case OPT_GPU: o->pass.engine = SPS_ENGINE_GPU; break;
		case OPT_CPU: o->pass.engine = SPS_ENGINE_CPU; break;
		case OPT_DEVICE:
			o->pass.device = (int)cli_long(optarg, "--device", 0,
			    1024);
			o->pass.engine = SPS_ENGINE_GPU;
			break;
		case OPT_VERSION: cli_version();
		default:
			if (!cleanopts_parse(&o->clean, c, optarg, longopts,
			    usage_text))
				cli_usage(usage_text, 2);  /* getopt said why */
		}
	}
	o->input = cli_input(argc, argv, usage_text);
}

static void
progress(const struct sps_reader *r, uint64_t done)
{
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
		cli_progress(0, (double)done / (double)r->nsamples,
		    (double)done * r->hdr.tsamp);
}

static void
summary(const struct sps_cleanstream *cs, const struct sps_clean_pass_info *in,
    const struct options *o, int nbits)
{
	if (o->quiet)
		return;
	sps_clean_report_summary(sps_cleanstream_report(cs), stderr,
	    "sps-clean", in->quantised, nbits);
	if (in->on_gpu)
		fprintf(stderr, "sps-clean: on GPU %d, %.2f s\n",
		    o->pass.device, in->seconds);
	else
		fprintf(stderr, "sps-clean: on the CPU%s%s, %.2f s\n",
		    in->note[0] != '\0' ? ": " : "", in->note, in->seconds);
}

int
main(int argc, char **argv)
{
	struct sps_clean_pass_info info;
	struct sps_clean_pass *pass;
	struct sps_cleanstream *cs;
	struct sps_header out_hdr;
	struct options opt;
	struct sps_reader r;
	struct sps_writer w;
	unsigned char *kill;
	int to_stdout;

	cli_init("sps-clean", argv);
	sps_device_queues(2);	/* copies in, the cleaning's kernels */
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
	opt.pass.out_nbits = out_hdr.nbits;
	opt.pass.on_progress = opt.quiet || opt.output == NULL ||
	    strcmp(opt.output, "-") == 0 ? NULL : progress;
	cli_check(sps_clean_pass_open(&pass, &r, cs, &opt.pass), NULL);
	cli_check(sps_writer_open(&w, opt.output), NULL);
	if (sps_writer_header(&w, &out_hdr) != SPS_OK)
		cli_output_fail(&w);
	cli_check_output(&w, sps_clean_pass_run(pass, &w), NULL);
	if (opt.pass.on_progress != NULL)
		cli_progress_done(0);
	to_stdout = w.f == stdout;
	cli_check(sps_writer_close(&w), NULL);
	cli_check(sps_cleanstream_close(cs), NULL);
	if (to_stdout)
		sps_writer_release_stdout();
	sps_clean_pass_info(pass, &info);
	summary(cs, &info, &opt, out_hdr.nbits);
	sps_clean_pass_free(pass);
	sps_cleanstream_free(cs);
	free(kill);
	sps_header_free(&out_hdr);
	cli_reader_close(&r);
	return 0;
}

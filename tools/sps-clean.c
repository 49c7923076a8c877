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

#include "cleanpass.h"
#include "cleanstream.h"
#include "dedisp_engine.h"
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
    "                 [--block N] [-b NBITS] [--report FILE]\n"
    "                 [--gpu [--device N] | --cpu] [-o OUTPUT] [FILE]\n";

enum {
	OPT_ZERODM = 256, OPT_ZDOT, OPT_CLIP, OPT_NOCLIP, OPT_CLIP_WIDTH,
	OPT_SK, OPT_SK_N, OPT_IQRM, OPT_NOIQRM, OPT_IQRM_RADIUS, OPT_HOLD,
	OPT_ZAPCHAN, OPT_MASK, OPT_BLOCK, OPT_REPORT, OPT_VERSION, OPT_GPU,
	OPT_CPU, OPT_DEVICE
};

struct options {
	struct sps_clean_setup setup;
	struct sps_clean_pass_opts pass;
	const char	*input, *output, *killfile, *zapchan;
	int		 nbits;		/* 0: the input's */
	int		 quiet;
};

static void
parse_option(int c, struct options *o)
{
	switch (c) {
	case OPT_ZERODM: o->setup.o.zerodm = SPS_ZERODM_MEAN; break;
	case OPT_ZDOT: o->setup.o.zerodm = SPS_ZERODM_ZDOT; break;
	case OPT_CLIP:
		o->setup.o.clip_sigma = cli_double(optarg, "--clip", 2, 100);
		break;
	case OPT_NOCLIP: o->setup.o.clip_sigma = 0; break;
	case OPT_CLIP_WIDTH:
		o->setup.o.clip_width = (int)cli_long(optarg, "--clip-width", 1,
		    4096);
		break;
	case OPT_SK: o->setup.o.sk_sigma = cli_double(optarg, "--sk", 2, 100);
		break;
	case OPT_SK_N: o->setup.o.sk_nd = cli_double(optarg, "--sk-n", 0.01,
		    1e6);
		break;
	case OPT_IQRM:
		o->setup.o.iqrm_sigma = cli_double(optarg, "--iqrm", 1, 100);
		break;
	case OPT_NOIQRM: o->setup.o.iqrm_sigma = 0; break;
	case OPT_IQRM_RADIUS:
		o->setup.o.iqrm_radius = (int)cli_long(optarg, "--iqrm-radius",
		    1, 1 << 24);
		break;
	case OPT_HOLD:
		o->setup.o.hold = (int)cli_long(optarg, "--hold", 0, 1000000);
		break;
	case OPT_ZAPCHAN: o->zapchan = optarg; break;
	case OPT_MASK: o->setup.maskfile = optarg; break;
	case OPT_BLOCK:
		o->setup.block = (size_t)cli_long(optarg, "--block",
		    SPS_CLEAN_MIN_BLOCK, 1 << 24);
		break;
	case OPT_REPORT: o->setup.report = optarg; break;
	case OPT_GPU: o->pass.engine = SPS_ENGINE_GPU; break;
	case OPT_CPU: o->pass.engine = SPS_ENGINE_CPU; break;
	case OPT_DEVICE:
		o->pass.device = (int)cli_long(optarg, "--device", 0, 1024);
		o->pass.engine = SPS_ENGINE_GPU;
		break;
	case OPT_VERSION: cli_version();
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
		{ "zerodm", no_argument, NULL, OPT_ZERODM },
		{ "zdot", no_argument, NULL, OPT_ZDOT },
		{ "clip", required_argument, NULL, OPT_CLIP },
		{ "noclip", no_argument, NULL, OPT_NOCLIP },
		{ "clip-width", required_argument, NULL, OPT_CLIP_WIDTH },
		{ "sk", required_argument, NULL, OPT_SK },
		{ "sk-n", required_argument, NULL, OPT_SK_N },
		{ "iqrm", required_argument, NULL, OPT_IQRM },
		{ "noiqrm", no_argument, NULL, OPT_NOIQRM },
		{ "iqrm-radius", required_argument, NULL, OPT_IQRM_RADIUS },
		{ "hold", required_argument, NULL, OPT_HOLD },
		{ "killmask", required_argument, NULL, 'k' },
		{ "zapchan", required_argument, NULL, OPT_ZAPCHAN },
		{ "ignorechan", required_argument, NULL, OPT_ZAPCHAN },
		{ "mask", required_argument, NULL, OPT_MASK },
		{ "block", required_argument, NULL, OPT_BLOCK },
		{ "nbits", required_argument, NULL, 'b' },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "gpu", no_argument, NULL, OPT_GPU },
		{ "cpu", no_argument, NULL, OPT_CPU },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int c, zerodm = 0;

	memset(o, 0, sizeof(*o));
	sps_clean_setup_defaults(&o->setup);
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
		default:
			zerodm += c == OPT_ZERODM || c == OPT_ZDOT;
			parse_option(c, o);
		}
	}
	if (zerodm > 1)
		cli_usage_error(usage_text, "--zerodm and --zdot both remove "
		    "the zero-DM signal%s", "");
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
    const struct options *o)
{
	if (o->quiet)
		return;
	sps_clean_report_summary(sps_cleanstream_report(cs), stderr,
	    in->quantised);
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

	cli_init("sps-clean", argv);
	parse_options(argc, argv, &opt);
	cli_binary_output(opt.output);
	cli_check(sps_reader_open(&r, opt.input), NULL);
	if (r.hdr.nifs != 1)
		cli_fail("%s: %d IFs: clean one (sps-filterbank --if N) or "
		    "their sum", r.name, r.hdr.nifs);
	cli_check(sps_killmask_make(opt.killfile, opt.zapchan, &r.hdr, &kill),
	    NULL);
	cli_check(sps_cleanstream_create(&cs, &r.hdr, &opt.setup, kill), NULL);
	cli_check(sps_header_copy(&out_hdr, &r.hdr), NULL);
	out_hdr.nbits = opt.nbits ? opt.nbits : sps_reader_value_nbits(&r);
	opt.pass.on_progress = opt.quiet || opt.output == NULL ||
	    strcmp(opt.output, "-") == 0 ? NULL : progress;
	opt.pass.out_nbits = out_hdr.nbits;
	cli_check(sps_clean_pass_open(&pass, &r, cs, &opt.pass), NULL);
	cli_check(sps_writer_open(&w, opt.output), NULL);
	if (sps_writer_header(&w, &out_hdr) != SPS_OK)
		cli_output_fail(&w);
	cli_check_output(&w, sps_clean_pass_run(pass, &w), NULL);
	if (opt.pass.on_progress != NULL)
		cli_progress_done(0);
	cli_check(sps_writer_close(&w), NULL);
	cli_check(sps_cleanstream_close(cs), NULL);
	sps_clean_pass_info(pass, &info);
	summary(cs, &info, &opt);
	sps_clean_pass_free(pass);
	sps_cleanstream_free(cs);
	free(kill);
	sps_header_free(&out_hdr);
	cli_reader_close(&r);
	return 0;
}

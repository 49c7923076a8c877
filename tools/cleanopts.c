/* cleanopts.c: the cleaning options of sps-clean and sps-search
 * (cleanopts.h). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cleanopts.h"
#include "cli.h"

void
cleanopts_init(struct cleanopts *co)
{
	memset(co, 0, sizeof(*co));
	sps_clean_setup_defaults(&co->setup);
}

static const char *
long_name(const struct option *longopts, int c)
{
	const struct option *o;

	for (o = longopts; o->name != NULL; o++)
		if (o->val == c)
			return o->name;
	return "?";
}

static void
set_zerodm(struct cleanopts *co, int c, const char *usage)
{
	if (co->zerodm_code != 0 && co->zerodm_code != c)
		cli_usage_error(usage, "--zerodm and --zdot both remove the "
		    "zero-DM signal");
	co->zerodm_code = c;
	co->setup.o.zerodm = c == CLEANOPT_ZERODM ? SPS_ZERODM_MEAN :
	    SPS_ZERODM_ZDOT;
}

/* The options with a number, checked as --NAME. */
static void
set_number(struct sps_clean_setup *s, int c, const char *arg,
    const char *option)
{
	struct sps_clean_options *o = &s->o;

	switch (c) {
	case CLEANOPT_CLIP:
		o->clip_sigma = cli_double(arg, option, 2, 100);
		break;
	case CLEANOPT_CLIP_WIDTH:
		o->clip_width = (int)cli_long(arg, option, 1, 4096);
		break;
	case CLEANOPT_SK:
		o->sk_sigma = cli_double(arg, option, 2, 100);
		break;
	case CLEANOPT_SK_N:
		o->sk_nd = cli_double(arg, option, 0.01, 1e6);
		break;
	case CLEANOPT_IQRM:
		o->iqrm_sigma = cli_double(arg, option, 1, 100);
		break;
	case CLEANOPT_IQRM_RADIUS:
		o->iqrm_radius = (int)cli_long(arg, option, 1, 1 << 24);
		break;
	case CLEANOPT_HOLD:
		o->hold = (int)cli_long(arg, option, 0, 1000000);
		break;
	case CLEANOPT_BLOCK:
		s->block = (size_t)cli_long(arg, option, SPS_CLEAN_MIN_BLOCK,
		    1 << 24);
		break;
	}
}

int
cleanopts_parse(struct cleanopts *co, int c, const char *arg,
    const struct option *longopts, const char *usage)
{
	char option[64];

	if (c < CLEANOPT_ZERODM || c > CLEANOPT_REPORT)
		return 0;
	snprintf(option, sizeof(option), "--%s", long_name(longopts, c));
	if (co->first == NULL)
		co->first = long_name(longopts, c);
	switch (c) {
	case CLEANOPT_ZERODM:
	case CLEANOPT_ZDOT:
		set_zerodm(co, c, usage);
		break;
	case CLEANOPT_NOCLIP:
		co->setup.o.clip_sigma = 0;
		break;
	case CLEANOPT_NOIQRM:
		co->setup.o.iqrm_sigma = 0;
		break;
	case CLEANOPT_MASK:
		co->setup.maskfile = arg;
		break;
	case CLEANOPT_REPORT:
		co->setup.report = arg;
		break;
	default:
		set_number(&co->setup, c, arg, option);
	}
	return 1;
}

void
cleanopts_args(char **argv, const struct sps_clean_setup *s)
{
	const struct sps_clean_options *o = &s->o;

	if (o->clip_sigma > 0) {
		cli_arg(argv, "--clip=%.17g", o->clip_sigma);
		cli_arg(argv, "--clip-width=%d", o->clip_width);
	} else
		cli_arg(argv, "--noclip");
	if (o->iqrm_sigma > 0)
		cli_arg(argv, "--iqrm=%.17g", o->iqrm_sigma);
	else
		cli_arg(argv, "--noiqrm");
	if (o->iqrm_radius > 0)
		cli_arg(argv, "--iqrm-radius=%d", o->iqrm_radius);
	if (o->sk_sigma > 0) {
		cli_arg(argv, "--sk=%.17g", o->sk_sigma);
		cli_arg(argv, "--sk-n=%.17g", o->sk_nd);
	}
	cli_arg(argv, "--hold=%d", o->hold);
	if (o->zerodm != SPS_ZERODM_NONE)
		cli_arg(argv, o->zerodm == SPS_ZERODM_MEAN ? "--zerodm" :
		    "--zdot");
	cli_arg(argv, "--block=%zu", s->block);
	if (s->maskfile != NULL)
		cli_arg(argv, "--mask=%s", s->maskfile);
	if (s->report != NULL)
		cli_arg(argv, "--report=%s", s->report);
}

/* sps-plan: choose the DM trials (and each trial's time-scrunch factor)
 * that sps-dedisperse computes, write them as a text plan or JSON, and
 * report on stderr the smearing, work and memory they imply.  The trials
 * come from dedisp's tolerance rule (Heimdall's --dm), from PRESTO's
 * DDplan.py (--ddplan), from fixed steps (--step) or from a list. */
#include <err.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ddplan.h"
#include "header.h"
#include "help.h"
#include "plan.h"
#include "planfile.h"
#include "planmake.h"
#include "planreport.h"
#include "reader.h"
#include "writer.h"

static const char usage_text[] =
    "usage: sps-plan [--dm LO HI] [--dm_tol T] [--dm_pulse_width US] "
    "[--scrunch]\n"
    "                [--max_scrunch F] [options] [FILE | -]\n"
    "       sps-plan --step START STEP COUNT ... [options] [FILE | -]\n"
    "       sps-plan --list PLAN [options] [FILE | -]\n"
    "       sps-plan --ddplan [-l LODM] [-d HIDM] [-f FCTR] [-b BW] "
    "[-n NUMCHAN]\n"
    "                [-t DT] [-k BLOCKLEN] [-c COHDM] [-s NSUB] [-p PROCS] "
    "[-r RES]\n"
    "                [options] [FILE | -]\n"
    "options: [--subband NSUB] [--nsamps_gulp N] [--nsamples N] "
    "[--nchans N]\n"
    "         [--fch1 MHZ] [--foff MHZ] [--tsamp US] [--json] [-q] "
    "[-o OUTPUT]\n";

enum {
	OPT_DM = 256, OPT_DM_TOL, OPT_WIDTH, OPT_DDPLAN, OPT_STEP, OPT_LIST,
	OPT_SCRUNCH, OPT_MAX_SCRUNCH, OPT_GULP, OPT_NSAMPLES, OPT_NCHANS,
	OPT_FCH1, OPT_FOFF, OPT_TSAMP, OPT_JSON, OPT_VERSION
};

struct options {
	struct sps_plan_recipe recipe;
	int		 tol_given;
	const char	*ddplan_only;		/* such an option given */
	int		 json, quiet;
	const char	*output, *input;
};

static void
usage_error(const char *fmt, const char *arg)
{
	cli_usage_error(usage_text, fmt, arg);
}

/* The next operand of an option that takes several (--dm LO HI). */
static const char *
more(int argc, char **argv, const char *option)
{
	if (optind >= argc)
		usage_error("%s: missing value", option);
	return argv[optind++];
}

static void
add_step(struct sps_plan_recipe *r, int argc, char **argv)
{
	struct sps_plan_step *s = &r->steps[r->nsteps++];

	s->start = cli_double(optarg, "--step START", 0, 1e7);
	s->step = cli_double(more(argc, argv, "--step"), "--step STEP", 0,
	    1e7);
	s->count = cli_long(more(argc, argv, "--step"), "--step COUNT", 1,
	    1000000000);
}

/* Options shared with PRESTO's DDplan.py: the option's name if c was
 * one, else NULL. */
static const char *
ddplan_option(struct sps_ddplan_opts *dd, int c)
{
	switch (c) {
	case 'l':
		dd->lodm = cli_double(optarg, "--loDM", 0, 1e7);
		return "--loDM";
	case 'd':
		dd->hidm = cli_double(optarg, "--hiDM", 0, 1e7);
		return "--hiDM";
	case 'k':
		dd->blocklen = (int)cli_long(optarg, "--blocklen", 1,
		    INT32_MAX);
		return "--blocklen";
	case 'c':
		dd->cohdm = cli_double(optarg, "--cohdm", 0, 1e7);
		return "--cohdm";
	case 'p':
		dd->numprocs = (int)cli_long(optarg, "--procs", 1, 1000000);
		return "--procs";
	case 'r':
		dd->res = cli_double(optarg, "--res", 0, 1e9);
		return "--res";
	}
	return NULL;
}

/* The observation: DDplan's spellings, then sps's; 1 if c was one. */
static int
observation_option(struct sps_plan_recipe *r, int c)
{
	switch (c) {
	case 'f':
		r->dd_obs.fctr = cli_double(optarg, "--fctr", 0, 1e7);
		r->dd_given |= SPS_DDPLAN_FCTR;
		return 1;
	case 'b':
		r->dd_obs.bw = cli_double(optarg, "--bw", 0, 1e7);
		r->dd_given |= SPS_DDPLAN_BW;
		return 1;
	case 'n':
		r->dd_obs.numchan = (int)cli_long(optarg, "--numchan", 1,
		    INT32_MAX);
		r->dd_given |= SPS_DDPLAN_NUMCHAN;
		return 1;
	case 't':
		r->dd_obs.dt = cli_double(optarg, "--dt", 0, 1e4);
		r->dd_given |= SPS_DDPLAN_DT;
		return 1;
	case OPT_NCHANS:
		r->nchans = (int)cli_long(optarg, "--nchans", 1, INT32_MAX);
		r->obs_given |= SPS_PLAN_NCHANS;
		return 1;
	case OPT_FCH1:
		r->fch1 = cli_double(optarg, "--fch1", 0, 1e7);
		r->obs_given |= SPS_PLAN_FCH1;
		return 1;
	case OPT_FOFF:
		r->foff = cli_double(optarg, "--foff", -1e6, 1e6);
		r->obs_given |= SPS_PLAN_FOFF;
		return 1;
	case OPT_TSAMP:
		r->tsamp = cli_double(optarg, "--tsamp", 0, 1e10) / 1e6;
		r->obs_given |= SPS_PLAN_TSAMP;
		return 1;
	}
	return 0;
}

static void
plan_option(struct options *o, int c, int argc, char **argv)
{
	struct sps_plan_recipe *r = &o->recipe;

	switch (c) {
	case OPT_DM:
		r->dm_lo = cli_double(optarg, "--dm LO", 0, 1e7);
		r->dm_hi = cli_double(more(argc, argv, "--dm"), "--dm HI", 0,
		    1e7);
		r->dm_given = 1;
		break;
	case OPT_DM_TOL:
		r->tol = cli_double(optarg, "--dm_tol", 1, 100);
		o->tol_given = 1;
		break;
	case OPT_WIDTH:
		r->width_us = cli_double(optarg, "--dm_pulse_width", 0, 1e9);
		break;
	case OPT_STEP:
		add_step(r, argc, argv);
		break;
	case OPT_MAX_SCRUNCH:
		r->max_scrunch = (int)cli_long(optarg, "--max_scrunch", 1,
		    SPS_PLAN_MAX_SCRUNCH);
		r->scrunch = 1;
		break;
	case 's':
		r->nsub = (int)cli_long(optarg, "--subband", 1, INT32_MAX);
		break;
	case OPT_GULP:
		r->gulp = cli_long(optarg, "--nsamps_gulp", 1, 1LL << 40);
		break;
	case OPT_NSAMPLES:
		r->nsamples = (double)cli_long(optarg, "--nsamples", 0,
		    1LL << 60);
		break;
	default:
		usage_error("%s", "unknown option");
	}
}

/* Which generator the options ask for; usage errors for mixtures. */
static void
choose_mode(struct options *o)
{
	struct sps_plan_recipe *r = &o->recipe;

	if ((r->mode == SPS_PLAN_DDPLAN) + (r->nsteps > 0) + (r->list != NULL) >
	    1)
		usage_error("%s", "give only one of --ddplan, --step and "
		    "--list");
	if (r->nsteps > 0)
		r->mode = SPS_PLAN_STEP;
	else if (r->list != NULL)
		r->mode = SPS_PLAN_LIST;
	if (r->mode != SPS_PLAN_DEDISP && o->tol_given)
		usage_error("%s", "--dm_tol belongs to the dedisp list (--dm)");
	if ((r->mode == SPS_PLAN_STEP || r->mode == SPS_PLAN_LIST) &&
	    r->dm_given)
		usage_error("%s", "--dm chooses the dedisp list: not with "
		    "--step or --list");
	if (r->mode != SPS_PLAN_DDPLAN && o->ddplan_only != NULL)
		usage_error("%s is an option of --ddplan", o->ddplan_only);
	if (r->mode == SPS_PLAN_DDPLAN && r->scrunch)
		usage_error("%s", "--ddplan chooses its own downsampling: not "
		    "with --scrunch");
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "dm", required_argument, NULL, OPT_DM },
		{ "dm_tol", required_argument, NULL, OPT_DM_TOL },
		{ "dm_pulse_width", required_argument, NULL, OPT_WIDTH },
		{ "ddplan", no_argument, NULL, OPT_DDPLAN },
		{ "step", required_argument, NULL, OPT_STEP },
		{ "list", required_argument, NULL, OPT_LIST },
		{ "scrunch", no_argument, NULL, OPT_SCRUNCH },
		{ "max_scrunch", required_argument, NULL, OPT_MAX_SCRUNCH },
		{ "subband", required_argument, NULL, 's' },
		{ "subbands", required_argument, NULL, 's' },
		{ "nsamps_gulp", required_argument, NULL, OPT_GULP },
		{ "nsamples", required_argument, NULL, OPT_NSAMPLES },
		{ "nchans", required_argument, NULL, OPT_NCHANS },
		{ "fch1", required_argument, NULL, OPT_FCH1 },
		{ "foff", required_argument, NULL, OPT_FOFF },
		{ "tsamp", required_argument, NULL, OPT_TSAMP },
		{ "loDM", required_argument, NULL, 'l' },
		{ "hiDM", required_argument, NULL, 'd' },
		{ "fctr", required_argument, NULL, 'f' },
		{ "bw", required_argument, NULL, 'b' },
		{ "numchan", required_argument, NULL, 'n' },
		{ "dt", required_argument, NULL, 't' },
		{ "blocklen", required_argument, NULL, 'k' },
		{ "cohdm", required_argument, NULL, 'c' },
		{ "cDM", required_argument, NULL, 'c' },
		{ "procs", required_argument, NULL, 'p' },
		{ "res", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	const char *name;
	int c;

	memset(o, 0, sizeof(*o));
	sps_plan_recipe_defaults(&o->recipe);
	if ((o->recipe.steps = calloc((size_t)argc,
	    sizeof(*o->recipe.steps))) == NULL)
		err(1, NULL);
	cli_long_hint(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "hqo:l:d:f:b:n:t:k:c:s:p:r:",
	    longopts, NULL)) != -1) {
		if ((name = ddplan_option(&o->recipe.dd, c)) != NULL) {
			o->ddplan_only = name;
			continue;
		}
		if (observation_option(&o->recipe, c))
			continue;
		switch (c) {
		case 'h':
			cli_help(usage_text, help_plan);
		case OPT_VERSION:
			cli_version();
		case 'q':
			o->quiet = 1;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_DDPLAN:
			o->recipe.mode = SPS_PLAN_DDPLAN;
			break;
		case OPT_LIST:
			o->recipe.list = optarg;
			break;
		case OPT_SCRUNCH:
			o->recipe.scrunch = 1;
			break;
		case '?':	/* getopt has said what is wrong */
			fprintf(stderr, "%s", usage_text);
			exit(2);
		default:
			plan_option(o, c, argc, argv);
		}
	}
	if (argc - optind > 1)
		usage_error("one input at most, not '%s' too",
		    argv[optind + 1]);
	o->input = argc > optind ? argv[optind] : NULL;
	choose_mode(o);
}

/* The header from FILE or standard input, unless the list, DDplan or
 * the options give the observation; then the options' changes. */
static void
get_observation(const struct options *o, struct sps_plan_made *m)
{
	unsigned known = sps_plan_obs_known(&o->recipe, m);
	int from_data = o->input != NULL || known == 0;
	const char *list = o->recipe.list;
	struct sps_reader r;

	if (from_data) {
		if (list != NULL && strcmp(list, "-") == 0 &&
		    (o->input == NULL || strcmp(o->input, "-") == 0))
			usage_error("%s", "--list - and the header cannot both "
			    "come from standard input");
		cli_check(sps_reader_open(&r, o->input), NULL);
		cli_check(sps_header_copy(&m->obs, &r.hdr), NULL);
		if (r.nsamples != SPS_NSAMPLES_UNKNOWN)
			m->nsamples = (double)r.nsamples;
		cli_reader_close(&r);
	} else if (known != SPS_PLAN_OBS_ALL)
		usage_error("%s", "without a FILE, give all of --nchans, "
		    "--fch1, --foff and --tsamp");
	cli_check(sps_plan_observation(&o->recipe, from_data, m), NULL);
}

static void
read_list(const char *path, struct sps_plan *p)
{
	FILE *f = stdin;

	if (strcmp(path, "-") != 0 && (f = fopen(path, "r")) == NULL)
		err(1, "%s", path);
	cli_check(sps_plan_read(f, strcmp(path, "-") == 0 ? "stdin" : path,
	    p), NULL);
	if (f != stdin)
		fclose(f);
}

static void
write_plan(const struct options *o, const struct sps_plan_made *m)
{
	struct sps_writer w;
	enum sps_err e;

	cli_check(sps_writer_open(&w, o->output), NULL);
	if (o->json)
		e = sps_plan_json_made(w.f, m, &o->recipe);
	else
		e = sps_plan_write_made(w.f, m, &o->recipe);
	cli_check_output(&w, e, o->output != NULL ? o->output : "stdout");
	cli_check(sps_writer_close(&w), NULL);
}

int
main(int argc, char **argv)
{
	struct sps_plan_made made;
	struct options opt;

	cli_init("sps-plan", argv);
	parse_options(argc, argv, &opt);
	sps_plan_made_init(&made);
	if (opt.recipe.mode == SPS_PLAN_LIST)
		read_list(opt.recipe.list, &made.plan);
	get_observation(&opt, &made);
	if (opt.recipe.mode == SPS_PLAN_LIST)
		cli_check(sps_plan_match(&made.plan, &made.obs),
		    opt.recipe.list);
	cli_check(sps_plan_make(&made, &opt.recipe), NULL);
	if (!opt.quiet)
		sps_plan_report(stderr, &made, &opt.recipe);
	write_plan(&opt, &made);
	sps_plan_made_free(&made);
	free(opt.recipe.steps);
	return 0;
}

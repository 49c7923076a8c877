/* sps-plan: choose the DM trials (and each trial's time-scrunch factor)
 * that sps-dedisperse computes, write them as a text plan or JSON, and
 * report on stderr the smearing, work and memory they imply.  The trials
 * come from dedisp's tolerance rule (Heimdall's --dm), from PRESTO's
 * DDplan.py (--ddplan), from fixed steps (--step) or from a list. */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ddplan.h"
#include "header.h"
#include "plan.h"
#include "planmake.h"
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
	int		 dm_given, tol_given;
	const char	*ddplan_only;		/* such an option given */
	double		 nsamples;		/* < 0: not given */
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
add_step(struct options *o, int argc, char **argv)
{
	struct sps_plan_step *s = &o->recipe.steps[o->recipe.nsteps++];

	s->start = cli_double(optarg, "--step START", 0, 1e7);
	s->step = cli_double(more(argc, argv, "--step"), "--step STEP", 0,
	    1e7);
	s->count = cli_long(more(argc, argv, "--step"), "--step COUNT", 1,
	    1000000000);
}

/* Options shared with PRESTO's DDplan.py; 1 if c was one. */
static int
ddplan_option(struct options *o, int c)
{
	switch (c) {
	case 'l':
		o->recipe.dd.lodm = cli_double(optarg, "--loDM", 0, 1e7);
		break;
	case 'd':
		o->recipe.dd.hidm = cli_double(optarg, "--hiDM", 0, 1e7);
		break;
	case 'k':
		o->recipe.dd.blocklen = (int)cli_long(optarg, "--blocklen", 1,
		    INT32_MAX);
		break;
	case 'c':
		o->recipe.dd.cohdm = cli_double(optarg, "--cohdm", 0, 1e7);
		break;
	case 'p':
		o->recipe.dd.numprocs = (int)cli_long(optarg, "--procs", 1, 1000000);
		break;
	case 'r':
		o->recipe.dd.res = cli_double(optarg, "--res", 0, 1e9);
		break;
	default:
		return 0;
	}
	o->ddplan_only = c == 'l' ? "--loDM" : c == 'd' ? "--hiDM" : c == 'k' ?
	    "--blocklen" : c == 'c' ? "--cohdm" : c == 'p' ? "--procs" :
	    "--res";
	return 1;
}

/* The observation: DDplan's spellings, then sps's; 1 if c was one. */
static int
observation_option(struct options *o, int c)
{
	switch (c) {
	case 'f':
		o->recipe.dd_obs.fctr = cli_double(optarg, "--fctr", 0, 1e7);
		o->recipe.dd_given |= SPS_DDPLAN_FCTR;
		break;
	case 'b':
		o->recipe.dd_obs.bw = cli_double(optarg, "--bw", 0, 1e7);
		o->recipe.dd_given |= SPS_DDPLAN_BW;
		break;
	case 'n':
		o->recipe.dd_obs.numchan = (int)cli_long(optarg, "--numchan", 1,
		    INT32_MAX);
		o->recipe.dd_given |= SPS_DDPLAN_NUMCHAN;
		break;
	case 't':
		o->recipe.dd_obs.dt = cli_double(optarg, "--dt", 0, 1e4);
		o->recipe.dd_given |= SPS_DDPLAN_DT;
		break;
	case OPT_NCHANS:
		o->recipe.nchans = (int)cli_long(optarg, "--nchans", 1,
		    INT32_MAX);
		o->recipe.obs_given |= SPS_PLAN_NCHANS;
		break;
	case OPT_FCH1:
		o->recipe.fch1 = cli_double(optarg, "--fch1", 0, 1e7);
		o->recipe.obs_given |= SPS_PLAN_FCH1;
		break;
	case OPT_FOFF:
		o->recipe.foff = cli_double(optarg, "--foff", -1e6, 1e6);
		o->recipe.obs_given |= SPS_PLAN_FOFF;
		break;
	case OPT_TSAMP:
		o->recipe.tsamp = cli_double(optarg, "--tsamp", 0, 1e10) /
		    1e6;
		o->recipe.obs_given |= SPS_PLAN_TSAMP;
		break;
	default:
		return 0;
	}
	return 1;
}

static void
plan_option(struct options *o, int c, int argc, char **argv)
{
	switch (c) {
	case OPT_DM:
		o->recipe.dm_lo = cli_double(optarg, "--dm LO", 0, 1e7);
		o->recipe.dm_hi = cli_double(more(argc, argv, "--dm"), "--dm HI", 0,
		    1e7);
		o->dm_given = 1;
		break;
	case OPT_DM_TOL:
		o->recipe.tol = cli_double(optarg, "--dm_tol", 1, 100);
		o->tol_given = 1;
		break;
	case OPT_WIDTH:
		o->recipe.width_us = cli_double(optarg, "--dm_pulse_width", 0, 1e9);
		break;
	case OPT_STEP:
		add_step(o, argc, argv);
		break;
	case OPT_MAX_SCRUNCH:
		o->recipe.max_scrunch = (int)cli_long(optarg, "--max_scrunch",
		    1, SPS_PLAN_MAX_SCRUNCH);
		o->recipe.scrunch = 1;
		break;
	case 's':
		o->recipe.nsub = (int)cli_long(optarg, "--subband", 1,
		    INT32_MAX);
		break;
	case OPT_GULP:
		o->recipe.gulp = cli_long(optarg, "--nsamps_gulp", 1,
		    1LL << 40);
		break;
	case OPT_NSAMPLES:
		o->nsamples = (double)cli_long(optarg, "--nsamples", 0,
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
		usage_error("%s", "give only one of --ddplan, --step and --list");
	if (r->nsteps > 0)
		r->mode = SPS_PLAN_STEP;
	else if (r->list != NULL)
		r->mode = SPS_PLAN_LIST;
	if (r->mode != SPS_PLAN_DEDISP && o->tol_given)
		usage_error("%s", "--dm_tol belongs to the dedisp list (--dm)");
	if ((r->mode == SPS_PLAN_STEP || r->mode == SPS_PLAN_LIST) &&
	    o->dm_given)
		usage_error("%s", "--dm chooses the dedisp list: not with "
		    "--step or --list");
	if (r->mode != SPS_PLAN_DDPLAN && o->ddplan_only != NULL)
		usage_error("%s is an option of --ddplan", o->ddplan_only);
	if (r->mode == SPS_PLAN_DDPLAN && r->scrunch)
		usage_error("%s", "--ddplan chooses its own downsampling: not "
		    "with --scrunch");
	if (r->mode == SPS_PLAN_DDPLAN && o->dm_given) {
		r->dd.lodm = r->dm_lo;
		r->dd.hidm = r->dm_hi;
	}
	r->dd.numsub = r->mode == SPS_PLAN_DDPLAN ? r->nsub : 0;
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
	int c;

	memset(o, 0, sizeof(*o));
	sps_plan_recipe_defaults(&o->recipe);
	o->nsamples = -1;
	if ((o->recipe.steps = calloc((size_t)argc,
	    sizeof(*o->recipe.steps))) == NULL)
		err(1, NULL);
	while ((c = getopt_long(argc, argv, "hqo:l:d:f:b:n:t:k:c:s:p:r:",
	    longopts, NULL)) != -1) {
		if (ddplan_option(o, c) || observation_option(o, c))
			continue;
		switch (c) {
		case 'h':
			printf("%s", usage_text);
			exit(0);
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
		usage_error("one input at most, not '%s' too", argv[optind + 1]);
	o->input = argc > optind ? argv[optind] : NULL;
	choose_mode(o);
}

/* The header from FILE or standard input, unless the observation comes
 * from the list, DDplan or the options alone; then the options'
 * changes. */
static void
get_observation(const struct options *o, const struct sps_plan *listed,
    struct sps_header *h, double *nsamples)
{
	const struct sps_plan_recipe *r = &o->recipe;
	int from_data = o->input != NULL || (r->obs_given == 0 &&
	    !sps_plan_ddplan_obs(r) && !listed->has_obs);
	struct sps_reader rd;

	sps_header_init(h);
	if (from_data) {
		if (r->list != NULL && strcmp(r->list, "-") == 0 &&
		    (o->input == NULL || strcmp(o->input, "-") == 0))
			usage_error("%s", "--list - and the header cannot both "
			    "come from standard input");
		cli_check(sps_reader_open(&rd, o->input), NULL);
		cli_check(sps_header_copy(h, &rd.hdr), NULL);
		if (rd.nsamples != SPS_NSAMPLES_UNKNOWN)
			*nsamples = (double)rd.nsamples;
		sps_reader_close(&rd);
	} else if (!listed->has_obs && !sps_plan_ddplan_obs(r) &&
	    r->obs_given != SPS_PLAN_OBS_ALL)
		usage_error("%s", "without a FILE, give all of --nchans, "
		    "--fch1, --foff and --tsamp");
	cli_check(sps_plan_observation(r, listed, from_data, h), NULL);
	if (o->nsamples >= 0)
		*nsamples = o->nsamples;
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

/* How the plan was made, for the plan file's comment. */
static char *
describe(const struct options *o, const struct sps_header *h)
{
	char *text = NULL;
	size_t len = 0;
	double diag = 0;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		err(1, NULL);
	fprintf(f, "made by sps-plan %s: ", SPS_VERSION);
	switch (o->recipe.mode) {
	case SPS_PLAN_DEDISP:
		fprintf(f, "dedisp list, --dm %g %g --dm_tol %g "
		    "--dm_pulse_width %g", o->recipe.dm_lo, o->recipe.dm_hi, o->recipe.tol,
		    o->recipe.width_us);
		break;
	case SPS_PLAN_DDPLAN:
		fprintf(f, "DDplan, --loDM %g --hiDM %g --blocklen %d "
		    "--subbands %d --procs %d --cohdm %g --res %g", o->recipe.dd.lodm,
		    o->recipe.dd.hidm, o->recipe.dd.blocklen, o->recipe.dd.numsub, o->recipe.dd.numprocs,
		    o->recipe.dd.cohdm, o->recipe.dd.res);
		break;
	case SPS_PLAN_STEP:
		fprintf(f, "%d --step range%s", o->recipe.nsteps, o->recipe.nsteps > 1 ? "s" :
		    "");
		break;
	case SPS_PLAN_LIST:
		fprintf(f, "--list %s", o->recipe.list);
		break;
	}
	if (o->recipe.scrunch && sps_diagonal_dm(h, 1, &diag) == SPS_OK)
		fprintf(f, "\nscrunch factors from the diagonal DM %.6g "
		    "(largest %d)", diag, o->recipe.max_scrunch);
	fclose(f);
	return text;
}

/* Members of the JSON object besides the plan's own. */
static char *
json_extra(const struct options *o, const struct sps_header *h,
    const struct sps_plan *p, const struct sps_ddplan_line *lines,
    int nlines)
{
	struct sps_plan_memory m;
	char *text = NULL;
	size_t len = 0;
	double diag = 0;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		err(1, NULL);
	sps_diagonal_dm(h, 1, &diag);
	sps_plan_memory(p, h, (size_t)o->recipe.gulp, o->recipe.nsub, &m);
	fprintf(f, "\"mode\": \"%s\", \"diagonal_dm\": %.10g, "
	    "\"work_per_second\": %.10g, \"nsamps_gulp\": %lld, "
	    "\"max_delay\": %zu, \"memory_bytes\": %.0f", sps_plan_mode_name(o->recipe.mode),
	    diag, sps_plan_work(p, h, 1.0 / h->tsamp, o->recipe.nsub, 0), o->recipe.gulp,
	    m.max_delay, m.total);
	if (nlines > 0) {
		fprintf(f, ",\n \"ddplan\": ");
		sps_ddplan_json(f, lines, nlines);
	}
	fclose(f);
	return text;
}

static double
ms(double s)
{
	return 1e3 * s;
}

static void
report_ranges(const struct sps_plan_range *r, size_t n, double width_us)
{
	double w = 1e-6 * width_us;
	size_t i;

	fprintf(stderr, "%10s %10s %7s %9s %9s %4s %8s %8s %8s %8s %8s %6s\n",
	    "DM lo", "DM hi", "trials", "step min", "step max", "scr",
	    "t_scr", "t_step", "t_chan", "t_sub", "total", "S/N");
	for (i = 0; i < n; i++, r++) {
		fprintf(stderr, "%10.3f %10.3f %7zu %9.4g %9.4g %4d %8.4g %8.4g "
		    "%8.4g %8.4g %8.4g", r->dm_lo, r->dm_hi, r->count,
		    r->step_min, r->step_max, r->scrunch, ms(r->t_scrunch),
		    ms(r->t_step), ms(r->t_chan), ms(r->t_sub), ms(r->t_total));
		if (w > 0)
			fprintf(stderr, " %5.1f%%\n", 100 * sqrt(w /
			    sqrt(w * w + r->t_total * r->t_total)));
		else
			fprintf(stderr, " %6s\n", "-");
	}
}

static void
report(const struct options *o, const struct sps_header *h,
    const struct sps_plan *p, const struct sps_plan_range *r, size_t nr,
    double nsamples)
{
	double ftop = h->foff < 0 ? h->fch1 : h->fch1 + (h->nchans - 1) *
	    h->foff, diag = 0, per_s;
	struct sps_plan_memory m;

	sps_diagonal_dm(h, 1, &diag);
	fprintf(stderr, "sps-plan: %zu trials, DM %g to %g (%s)\n",
	    p->ntrials, p->dm[0], p->dm[p->ntrials - 1], sps_plan_mode_name(o->recipe.mode));
	fprintf(stderr, "sps-plan: %d channels, %g to %g MHz, tsamp %g us, "
	    "diagonal DM %.4g\n", h->nchans, ftop, ftop - (h->nchans - 1) *
	    fabs(h->foff), 1e6 * h->tsamp, diag);
	fprintf(stderr, "sps-plan: smearing in ms, S/N kept for a %g us "
	    "pulse%s:\n", o->recipe.width_us, o->recipe.nsub > 0 ? ", with sub-bands" : "");
	report_ranges(r, nr, o->recipe.width_us);
	per_s = sps_plan_work(p, h, 1.0 / h->tsamp, o->recipe.nsub, 0);
	fprintf(stderr, "sps-plan: work %.4g channel additions per second of "
	    "data", per_s);
	if (nsamples >= 0)
		fprintf(stderr, ", %.4g for %.0f samples", sps_plan_work(p, h,
		    nsamples, o->recipe.nsub, 0), nsamples);
	sps_plan_memory(p, h, (size_t)o->recipe.gulp, o->recipe.nsub, &m);
	fprintf(stderr, "\nsps-plan: memory %.4g MiB for blocks of %lld "
	    "samples: input %.4g (%zu samples of overlap), scrunched %.4g, "
	    "sub-band %.4g, output %.4g\n", m.total / 1048576, o->recipe.gulp,
	    m.input / 1048576, m.max_delay, m.scrunched / 1048576,
	    m.subband / 1048576, m.output / 1048576);
}

static void
write_plan(const struct options *o, const struct sps_header *h,
    const struct sps_plan *p, const struct sps_plan_range *r, size_t nr,
    const struct sps_ddplan_line *lines, int nlines)
{
	struct sps_writer w;
	enum sps_err e;
	char *text;

	cli_check(sps_writer_open(&w, o->output), NULL);
	if (o->json) {
		text = json_extra(o, h, p, lines, nlines);
		e = sps_plan_json(w.f, p, r, nr, text);
	} else {
		text = describe(o, h);
		e = sps_plan_write(w.f, p, text);
	}
	free(text);
	if (e != SPS_OK)
		sps_writer_abort(&w);
	cli_check(e, o->output != NULL ? o->output : "stdout");
	cli_check(sps_writer_close(&w), NULL);
}

int
main(int argc, char **argv)
{
	struct options opt;
	struct sps_header h;
	struct sps_plan plan;
	struct sps_plan_range *ranges;
	struct sps_ddplan_line *lines;
	size_t nranges;
	double nsamples = -1;
	int nlines;

	cli_init("sps-plan", argv);
	parse_options(argc, argv, &opt);
	sps_plan_init(&plan);
	if (opt.recipe.mode == SPS_PLAN_LIST)
		read_list(opt.recipe.list, &plan);
	get_observation(&opt, &plan, &h, &nsamples);
	if (opt.recipe.mode == SPS_PLAN_LIST)
		cli_check(sps_plan_match(&plan, &h), opt.recipe.list);
	cli_check(sps_plan_make(&plan, &opt.recipe, &h, &lines, &nlines),
	    NULL);
	cli_check(sps_plan_ranges(&plan, &h, opt.recipe.nsub, 0, &ranges,
	    &nranges), NULL);
	if (!opt.quiet && nlines > 0)
		sps_ddplan_print(stderr, lines, nlines, opt.recipe.dd.numsub);
	if (!opt.quiet)
		report(&opt, &h, &plan, ranges, nranges, nsamples);
	write_plan(&opt, &h, &plan, ranges, nranges, lines, nlines);
	free(ranges);
	free(lines);
	free(opt.recipe.steps);
	sps_plan_free(&plan);
	sps_header_free(&h);
	return 0;
}

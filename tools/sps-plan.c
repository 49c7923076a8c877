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

enum mode { MODE_DEDISP, MODE_DDPLAN, MODE_STEP, MODE_LIST };

/* Bits of the observation options given. */
enum { OBS_NCHANS = 1, OBS_FCH1 = 2, OBS_FOFF = 4, OBS_TSAMP = 8,
	OBS_ALL = 15 };

struct step {
	double	 start, step;
	long	 count;
};

struct options {
	enum mode	 mode;
	int		 dm_given, tol_given;
	const char	*ddplan_only;		/* such an option given */
	double		 dm_lo, dm_hi, tol, width_us;
	struct step	*steps;
	int		 nsteps;
	const char	*list;
	struct sps_ddplan_opts dd;
	unsigned	 dd_obs;		/* SPS_DDPLAN_* given */
	struct sps_ddplan_obs dd_set;
	unsigned	 obs;			/* OBS_* given */
	struct sps_header obs_set;		/* their values */
	int		 scrunch, max_scrunch, nsub;
	long long	 gulp;
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
	struct step *s = &o->steps[o->nsteps++];

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
		o->dd.lodm = cli_double(optarg, "--loDM", 0, 1e7);
		break;
	case 'd':
		o->dd.hidm = cli_double(optarg, "--hiDM", 0, 1e7);
		break;
	case 'k':
		o->dd.blocklen = (int)cli_long(optarg, "--blocklen", 1,
		    INT32_MAX);
		break;
	case 'c':
		o->dd.cohdm = cli_double(optarg, "--cohdm", 0, 1e7);
		break;
	case 'p':
		o->dd.numprocs = (int)cli_long(optarg, "--procs", 1, 1000000);
		break;
	case 'r':
		o->dd.res = cli_double(optarg, "--res", 0, 1e9);
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
		o->dd_set.fctr = cli_double(optarg, "--fctr", 0, 1e7);
		o->dd_obs |= SPS_DDPLAN_FCTR;
		break;
	case 'b':
		o->dd_set.bw = cli_double(optarg, "--bw", 0, 1e7);
		o->dd_obs |= SPS_DDPLAN_BW;
		break;
	case 'n':
		o->dd_set.numchan = (int)cli_long(optarg, "--numchan", 1,
		    INT32_MAX);
		o->dd_obs |= SPS_DDPLAN_NUMCHAN;
		break;
	case 't':
		o->dd_set.dt = cli_double(optarg, "--dt", 0, 1e4);
		o->dd_obs |= SPS_DDPLAN_DT;
		break;
	case OPT_NCHANS:
		o->obs_set.nchans = (int)cli_long(optarg, "--nchans", 1,
		    INT32_MAX);
		o->obs |= OBS_NCHANS;
		break;
	case OPT_FCH1:
		o->obs_set.fch1 = cli_double(optarg, "--fch1", 0, 1e7);
		o->obs |= OBS_FCH1;
		break;
	case OPT_FOFF:
		o->obs_set.foff = cli_double(optarg, "--foff", -1e6, 1e6);
		o->obs |= OBS_FOFF;
		break;
	case OPT_TSAMP:
		o->obs_set.tsamp = cli_double(optarg, "--tsamp", 0, 1e10) /
		    1e6;
		o->obs |= OBS_TSAMP;
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
		o->dm_lo = cli_double(optarg, "--dm LO", 0, 1e7);
		o->dm_hi = cli_double(more(argc, argv, "--dm"), "--dm HI", 0,
		    1e7);
		o->dm_given = 1;
		break;
	case OPT_DM_TOL:
		o->tol = cli_double(optarg, "--dm_tol", 1, 100);
		o->tol_given = 1;
		break;
	case OPT_WIDTH:
		o->width_us = cli_double(optarg, "--dm_pulse_width", 0, 1e9);
		break;
	case OPT_STEP:
		add_step(o, argc, argv);
		break;
	case OPT_MAX_SCRUNCH:
		o->max_scrunch = (int)cli_long(optarg, "--max_scrunch", 1,
		    SPS_PLAN_MAX_SCRUNCH);
		o->scrunch = 1;
		break;
	case 's':
		o->nsub = (int)cli_long(optarg, "--subband", 1, INT32_MAX);
		break;
	case OPT_GULP:
		o->gulp = cli_long(optarg, "--nsamps_gulp", 1, 1LL << 40);
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
	int nmodes = (o->mode == MODE_DDPLAN) + (o->nsteps > 0) +
	    (o->list != NULL);

	if (nmodes > 1)
		usage_error("%s", "give only one of --ddplan, --step and --list");
	if (o->nsteps > 0)
		o->mode = MODE_STEP;
	else if (o->list != NULL)
		o->mode = MODE_LIST;
	if (o->mode != MODE_DEDISP && o->tol_given)
		usage_error("%s", "--dm_tol belongs to the dedisp list (--dm)");
	if ((o->mode == MODE_STEP || o->mode == MODE_LIST) && o->dm_given)
		usage_error("%s", "--dm chooses the dedisp list: not with "
		    "--step or --list");
	if (o->mode != MODE_DDPLAN && o->ddplan_only != NULL)
		usage_error("%s is an option of --ddplan", o->ddplan_only);
	if (o->mode == MODE_DDPLAN && o->scrunch)
		usage_error("%s", "--ddplan chooses its own downsampling: not "
		    "with --scrunch");
	if (o->mode == MODE_DDPLAN && o->dm_given) {
		o->dd.lodm = o->dm_lo;
		o->dd.hidm = o->dm_hi;
	}
	o->dd.numsub = o->mode == MODE_DDPLAN ? o->nsub : 0;
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
	o->dm_hi = 1000;		/* Heimdall's -dm 0 1000 */
	o->tol = 1.25;
	o->width_us = 40;
	o->max_scrunch = SPS_PLAN_MAX_SCRUNCH;
	o->gulp = SPS_PLAN_GULP;
	o->nsamples = -1;
	sps_ddplan_defaults(&o->dd);
	sps_header_init(&o->obs_set);
	if ((o->steps = calloc((size_t)argc, sizeof(*o->steps))) == NULL)
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
			o->mode = MODE_DDPLAN;
			break;
		case OPT_LIST:
			o->list = optarg;
			break;
		case OPT_SCRUNCH:
			o->scrunch = 1;
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

static void
apply_sps_obs(const struct options *o, struct sps_header *h)
{
	if (o->obs & OBS_NCHANS)
		h->nchans = o->obs_set.nchans;
	if (o->obs & OBS_FCH1)
		h->fch1 = o->obs_set.fch1;
	if (o->obs & OBS_FOFF)
		h->foff = o->obs_set.foff;
	if (o->obs & OBS_TSAMP)
		h->tsamp = o->obs_set.tsamp;
}

/* The header from FILE, standard input, a list's own header, DDplan's
 * defaults, or the options alone; then the options' changes. */
static void
get_observation(const struct options *o, const struct sps_plan *listed,
    struct sps_header *h, double *nsamples)
{
	struct sps_reader r;
	int ddbase = o->mode == MODE_DDPLAN || o->dd_obs != 0;

	sps_header_init(h);
	if (o->input != NULL || (o->obs == 0 && !ddbase &&
	    !listed->has_obs)) {
		if (o->list != NULL && strcmp(o->list, "-") == 0 &&
		    (o->input == NULL || strcmp(o->input, "-") == 0))
			usage_error("%s", "--list - and the header cannot both "
			    "come from standard input");
		cli_check(sps_reader_open(&r, o->input), NULL);
		cli_check(sps_header_copy(h, &r.hdr), NULL);
		if (r.nsamples != SPS_NSAMPLES_UNKNOWN)
			*nsamples = (double)r.nsamples;
		sps_reader_close(&r);
	} else if (listed->has_obs) {
		h->nchans = listed->nchans;
		h->fch1 = listed->fch1;
		h->foff = listed->foff;
		h->tsamp = listed->tsamp;
	} else if (ddbase)
		sps_ddplan_default_header(h);
	else if (o->obs != OBS_ALL)
		usage_error("%s", "without a FILE, give all of --nchans, "
		    "--fch1, --foff and --tsamp");
	if (o->dd_obs != 0)
		sps_ddplan_obs_apply(h, &o->dd_set, o->dd_obs);
	apply_sps_obs(o, h);
	cli_check(sps_plan_check_obs(h), "observation");
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

/* Make the trials; DDplan's lines are kept for the report. */
static void
make_plan(const struct options *o, const struct sps_header *h,
    struct sps_plan *p, struct sps_ddplan_line **lines, int *nlines)
{
	struct sps_ddplan_obs obs;
	int i;

	switch (o->mode) {
	case MODE_DEDISP:
		cli_check(sps_plan_dedisp(p, h, o->dm_lo, o->dm_hi, o->width_us,
		    o->tol), NULL);
		break;
	case MODE_DDPLAN:
		sps_ddplan_obs_from_header(&obs, h);
		cli_check(sps_ddplan(&obs, &o->dd, lines, nlines), NULL);
		cli_check(sps_plan_add_ddplan(p, *lines, *nlines,
		    o->dd.blocklen), NULL);
		break;
	case MODE_STEP:
		for (i = 0; i < o->nsteps; i++)
			cli_check(sps_plan_steps(p, o->steps[i].start,
			    o->steps[i].step, o->steps[i].count, 1), "--step");
		break;
	case MODE_LIST:
		cli_check(sps_plan_match(p, h), o->list);
		break;
	}
	if (o->scrunch)
		cli_check(sps_plan_scrunch(p, h, o->max_scrunch), NULL);
	cli_check(sps_plan_check(p), NULL);
	sps_plan_set_obs(p, h);
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
	switch (o->mode) {
	case MODE_DEDISP:
		fprintf(f, "dedisp list, --dm %g %g --dm_tol %g "
		    "--dm_pulse_width %g", o->dm_lo, o->dm_hi, o->tol,
		    o->width_us);
		break;
	case MODE_DDPLAN:
		fprintf(f, "DDplan, --loDM %g --hiDM %g --blocklen %d "
		    "--subbands %d --procs %d --cohdm %g --res %g", o->dd.lodm,
		    o->dd.hidm, o->dd.blocklen, o->dd.numsub, o->dd.numprocs,
		    o->dd.cohdm, o->dd.res);
		break;
	case MODE_STEP:
		fprintf(f, "%d --step range%s", o->nsteps, o->nsteps > 1 ? "s" :
		    "");
		break;
	case MODE_LIST:
		fprintf(f, "--list %s", o->list);
		break;
	}
	if (o->scrunch && sps_diagonal_dm(h, 1, &diag) == SPS_OK)
		fprintf(f, "\nscrunch factors from the diagonal DM %.6g "
		    "(largest %d)", diag, o->max_scrunch);
	fclose(f);
	return text;
}

static const char *
mode_name(enum mode m)
{
	static const char *const names[] = { "dedisp", "ddplan", "step",
	    "list" };

	return names[m];
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
	sps_plan_memory(p, h, (size_t)o->gulp, o->nsub, &m);
	fprintf(f, "\"mode\": \"%s\", \"diagonal_dm\": %.10g, "
	    "\"work_per_second\": %.10g, \"nsamps_gulp\": %lld, "
	    "\"max_delay\": %zu, \"memory_bytes\": %.0f", mode_name(o->mode),
	    diag, sps_plan_work(p, h, 1.0 / h->tsamp, o->nsub, 0), o->gulp,
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
	    p->ntrials, p->dm[0], p->dm[p->ntrials - 1], mode_name(o->mode));
	fprintf(stderr, "sps-plan: %d channels, %g to %g MHz, tsamp %g us, "
	    "diagonal DM %.4g\n", h->nchans, ftop, ftop - (h->nchans - 1) *
	    fabs(h->foff), 1e6 * h->tsamp, diag);
	fprintf(stderr, "sps-plan: smearing in ms, S/N kept for a %g us "
	    "pulse%s:\n", o->width_us, o->nsub > 0 ? ", with sub-bands" : "");
	report_ranges(r, nr, o->width_us);
	per_s = sps_plan_work(p, h, 1.0 / h->tsamp, o->nsub, 0);
	fprintf(stderr, "sps-plan: work %.4g channel additions per second of "
	    "data", per_s);
	if (nsamples >= 0)
		fprintf(stderr, ", %.4g for %.0f samples", sps_plan_work(p, h,
		    nsamples, o->nsub, 0), nsamples);
	sps_plan_memory(p, h, (size_t)o->gulp, o->nsub, &m);
	fprintf(stderr, "\nsps-plan: memory %.4g MiB for blocks of %lld "
	    "samples: input %.4g (%zu samples of overlap), scrunched %.4g, "
	    "sub-band %.4g, output %.4g\n", m.total / 1048576, o->gulp,
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
	struct sps_ddplan_line *lines = NULL;
	size_t nranges;
	double nsamples = -1;
	int nlines = 0;

	cli_init("sps-plan", argv);
	parse_options(argc, argv, &opt);
	sps_plan_init(&plan);
	if (opt.mode == MODE_LIST)
		read_list(opt.list, &plan);
	get_observation(&opt, &plan, &h, &nsamples);
	make_plan(&opt, &h, &plan, &lines, &nlines);
	cli_check(sps_plan_ranges(&plan, &h, opt.nsub, 0, &ranges, &nranges),
	    NULL);
	if (!opt.quiet && nlines > 0)
		sps_ddplan_print(stderr, lines, nlines, opt.dd.numsub);
	if (!opt.quiet)
		report(&opt, &h, &plan, ranges, nranges, nsamples);
	write_plan(&opt, &h, &plan, ranges, nranges, lines, nlines);
	free(ranges);
	free(lines);
	free(opt.steps);
	sps_plan_free(&plan);
	sps_header_free(&h);
	return 0;
}

/* sps-candmaker: one HDF5 file per candidate in the layout FETCH reads
 * (your_candmaker.py's), cut from the data file in one pass of reads. */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "candread.h"
#include "candview.h"
#include "cli.h"
#include "help.h"
#include "killmask.h"
#include "robust.h"
#include "unfinished.h"
#ifdef SPS_HAVE_HDF5
#include "candmaker_h5.h"
#endif

static const char usage_text[] =
    "usage: sps-candmaker [-q] [-o DIR] [--rank N | --top N] [--snr MIN]\n"
    "           [--time-size N] [--frequency-size N] [--dm-size N]\n"
    "           [--decimate N] [-k KILLFILE] CANDIDATES FILE\n";

struct options {
	const char		*cands;
	const char		*data;
	const char		*dir;
	const char		*killfile;
	struct sps_candsel	 sel;
	int			 time_size, freq_size, dm_size, decimate;
	int			 quiet;
};

enum {
	OPT_DECIMATE = 256, OPT_DM_SIZE, OPT_FREQ_SIZE, OPT_RANK, OPT_SNR,
	OPT_TIME_SIZE, OPT_TOP, OPT_VERSION
};

static const struct option longopts[] = {
	{ "decimate", required_argument, NULL, OPT_DECIMATE },
	{ "dm-size", required_argument, NULL, OPT_DM_SIZE },
	{ "fout", required_argument, NULL, 'o' },
	{ "frequency-size", required_argument, NULL, OPT_FREQ_SIZE },
	{ "frequency_size", required_argument, NULL, OPT_FREQ_SIZE },
	{ "help", no_argument, NULL, 'h' },
	{ "killmask", required_argument, NULL, 'k' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rank", required_argument, NULL, OPT_RANK },
	{ "snr", required_argument, NULL, OPT_SNR },
	{ "time-size", required_argument, NULL, OPT_TIME_SIZE },
	{ "time_size", required_argument, NULL, OPT_TIME_SIZE },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static int
size_option(const char *name)
{
	return (int)cli_long(optarg, name, 2, 65536);
}

static void
parse_long(struct options *o, int ch)
{
	static const char *choice[] = { "rank", "snr", "top" };

	switch (ch) {
	case OPT_DECIMATE:
		o->decimate = (int)cli_long(optarg, "--decimate", 1, 1 << 24);
		break;
	case OPT_DM_SIZE:
		o->dm_size = size_option("--dm-size");
		break;
	case OPT_FREQ_SIZE:
		o->freq_size = size_option("--frequency-size");
		break;
	case OPT_TIME_SIZE:
		o->time_size = size_option("--time-size");
		break;
	case OPT_VERSION:
		cli_version();
	default:
		if (sps_candsel_parse(&o->sel, choice[ch == OPT_RANK ? 0 : ch ==
		    OPT_SNR ? 1 : 2], optarg) != SPS_OK)
			cli_usage_error(usage_text, "%s", sps_errmsg());
	}
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	int ch;

	memset(o, 0, sizeof(*o));
	o->dir = ".";
	o->time_size = o->freq_size = o->dm_size = 256;
	sps_candsel_defaults(&o->sel);
	cli_long_hint(argc, argv, longopts);
	while ((ch = getopt_long(argc, argv, "hk:o:q", longopts, NULL)) != -1)
		switch (ch) {
		case 'h':
			cli_help(usage_text, help_candmaker);
		case 'k':
			o->killfile = optarg;
			break;
		case 'o':
			o->dir = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case '?':
			cli_usage(usage_text, 2);
		default:
			parse_long(o, ch);
		}
	if (argc - optind != 2)
		cli_usage_error(usage_text, "%s", argc - optind < 2 ?
		    "a candidate file and a data file are needed" :
		    "too many operands");
	o->cands = argv[optind];
	o->data = argv[optind + 1];
}

/* The output directory can be written to, before any work. */
static void
check_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		cli_fail("%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		cli_fail("%s: not a directory", dir);
	if (access(dir, W_OK | X_OK) != 0)
		cli_fail("%s: %s", dir, strerror(errno));
}

/* What the callback needs. */
struct run {
	const struct options	*o;
	const struct sps_reader	*r;
	float			*ft, *dmt, *scratch;
	size_t			 written;
};

/* your's normalisation: less the median, over the standard deviation. */
static void
normalise(float *x, size_t n, float *scratch)
{
	double s1 = 0, s2 = 0, sd;
	float median;
	size_t i;

	memcpy(scratch, x, n * sizeof(float));
	median = sps_quantile(scratch, n, 0.5);
	for (i = 0; i < n; i++) {
		x[i] -= median;
		s1 += x[i];
		s2 += (double)x[i] * x[i];
	}
	sd = sqrt(fmax(s2 / n - (s1 / n) * (s1 / n), 0));
	for (i = 0; i < n && sd > 0; i++)
		x[i] = (float)(x[i] / sd);
}

/* Time x frequency from the view's sub-bands x time, each of the
 * freq_size columns from the sub-band it falls in. */
static void
transpose_ft(const struct sps_candview *v, int freq_size, float *ft)
{
	int t, j, b;

	for (j = 0; j < freq_size; j++) {
		b = (int)((long long)j * v->nsub / freq_size);
		for (t = 0; t < v->nbins; t++)
			ft[(size_t)t * (size_t)freq_size + (size_t)j] =
			    v->freq_time[(size_t)b * (size_t)v->nbins +
			    (size_t)t];
	}
}

#ifdef SPS_HAVE_HDF5
static enum sps_err
save(struct run *run, const struct fetch_cand *c)
{
	char id[160], path[4096], tmp[4200];
	enum sps_err e;

	fetch_cand_id(c, id, sizeof(id));
	snprintf(path, sizeof(path), "%s/%s.h5", run->o->dir, id);
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	if ((e = sps_unfinished_add(tmp)) != SPS_OK)
		return e;
	e = fetch_h5_write(tmp, c);
	if (e == SPS_OK && rename(tmp, path) != 0)
		e = sps_fail(SPS_EIO, "%s: %s", path, strerror(errno));
	if (e != SPS_OK)
		remove(tmp);
	sps_unfinished_forget(tmp);
	return e;
}
#endif

static enum sps_err
one(void *arg, const struct sps_candview *v)
{
	struct run *run = arg;
	const struct options *o = run->o;
	size_t nft = (size_t)o->time_size * (size_t)o->freq_size;
	size_t ndmt = (size_t)o->dm_size * (size_t)o->time_size;
	uint64_t centre = v->cand->best.sample + (uint64_t)v->cand->best.width /
	    2;

	transpose_ft(v, o->freq_size, run->ft);
	memcpy(run->dmt, v->dm_time, ndmt * sizeof(float));
	normalise(run->ft, nft, run->scratch);
	normalise(run->dmt, ndmt, run->scratch);
#ifdef SPS_HAVE_HDF5
	{
		struct fetch_cand c = { &run->r->hdr, o->data,
		    run->r->nsamples, (double)centre * run->r->hdr.tsamp,
		    v->cand->best.dm, v->cand->best.snr, v->cand->best.width,
		    v->decimate, o->time_size, o->freq_size, o->dm_size,
		    run->ft, run->dmt };
		enum sps_err e = save(run, &c);

		if (e != SPS_OK)
			return e;
	}
#else
	(void)centre;
#endif
	run->written++;
	return SPS_OK;
}

/* The chosen candidates, brightest first. */
static struct sps_cand *
choose(const struct options *o, const struct sps_candlist *l, size_t *n)
{
	struct sps_cand *c;
	size_t *idx, i;

	cli_check(sps_candsel_apply(&o->sel, l, &idx, n), o->cands);
	c = malloc((*n ? *n : 1) * sizeof(*c));
	if (c == NULL)
		cli_fail("no memory for %zu candidates", *n);
	for (i = 0; i < *n; i++)
		c[i] = l->cands[idx[i]];
	free(idx);
	return c;
}

static struct sps_candview_plan *
plan_for(const struct options *o, const struct sps_reader *r)
{
	struct sps_candview_opts vo;
	struct sps_candview_plan *p;
	unsigned char *kill = NULL;

	cli_check(sps_killmask_make(o->killfile, NULL, &r->hdr, &kill), NULL);
	sps_candview_defaults(&vo);
	vo.nsub = o->freq_size;
	vo.nbins = o->time_size;
	vo.ndm = o->dm_size;
	vo.decimate = o->decimate ? o->decimate : SPS_CANDVIEW_DEC_WIDTH;
	vo.kill = kill;
	cli_check(sps_candview_create(&p, &r->hdr, r->nsamples, &vo), r->name);
	free(kill);
	return p;
}

static void
report(const struct options *o, const struct run *run,
    const struct sps_candview_plan *p, const struct sps_reader *r)
{
	struct sps_candview_stats st;

	if (o->quiet)
		return;
	sps_candview_stats(p, &st);
	fprintf(stderr, "sps-candmaker: %zu candidate%s written to %s (%llu "
	    "of %llu spectra read, %llu skipped)\n", run->written,
	    run->written == 1 ? "" : "s", o->dir,
	    (unsigned long long)st.spectra_read,
	    (unsigned long long)r->nsamples,
	    (unsigned long long)st.spectra_skipped);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct sps_reader r;
	struct sps_candlist l;
	struct sps_candview_plan *p;
	struct sps_cand *c;
	struct run run;
	size_t n, nft;

	cli_init("sps-candmaker", argv);
	parse_options(argc, argv, &o);
#ifndef SPS_HAVE_HDF5
	cli_fail("built without libhdf5");
#endif
	check_dir(o.dir);
	cli_check(sps_candview_open(&r, o.data), NULL);
	cli_check(sps_candread(o.cands, r.hdr.tsamp, &l), NULL);
	cli_check(sps_candlist_check(&l, &r.hdr, r.nsamples), NULL);
	c = choose(&o, &l, &n);
	p = plan_for(&o, &r);
	nft = (size_t)o.time_size * (size_t)(o.freq_size > o.dm_size ?
	    o.freq_size : o.dm_size);
	memset(&run, 0, sizeof(run));
	run.o = &o;
	run.r = &r;
	run.ft = malloc(nft * sizeof(float));
	run.dmt = malloc(nft * sizeof(float));
	run.scratch = malloc(nft * sizeof(float));
	if (run.ft == NULL || run.dmt == NULL || run.scratch == NULL)
		cli_fail("no memory for %zu values", nft);
	cli_check(sps_candview_execute(p, &r, c, n, one, &run), r.name);
	report(&o, &run, p, &r);
	free(run.ft);
	free(run.dmt);
	free(run.scratch);
	free(c);
	sps_candview_free(p);
	sps_candlist_free(&l);
	sps_reader_close(&r);
	return 0;
}

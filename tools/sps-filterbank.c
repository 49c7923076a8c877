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
#include "codec.h"
#include "header.h"
#include "psrfits.h"
#include "reader.h"
#include "writer.h"

#define BLOCK_VALUES	(1 << 22)	/* floats per block, about */
#define BLOCK_SPECTRA	4096		/* spectra per block, at most */

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
	const char	*output;
	char *const	*inputs;	/* none: standard input */
	int		 ninputs;
	double		 start_s, read_s;	/* < 0: not given */
	long long	 start, count;		/* < 0: not given */
	long long	 chan_first, chan_last;	/* < 0: not given */
	double		 freq_lo, freq_hi;	/* NAN: not given */
	int		 nbits;			/* 0: as the input */
	int		 rescale, flip, fill_gaps, median_fill;
	const char	*mask_file;
	const char	*ignorechan;
	int		 quiet, verbose;
	struct sps_psrfits_options fits;
};

/* What to do to every spectrum, worked out from the input's header. */
struct plan {
	uint64_t	 start, count;	/* count UINT64_MAX: to the end */
	int		 nin, nout;	/* channels per IF, in and out */
	int		 nifs;
	int		 first;		/* first input channel kept */
	unsigned char	*masked;	/* per input channel */
	int		 nmasked;	/* within the kept range */
	int		 nbits, is_signed;
	double		*mean, *scale;	/* --rescale, per output value */
	float		 level, spread;	/* --rescale targets */
	int		 scaled;	/* rescale statistics taken */
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
		o->chan_first = (long long)a;
		o->chan_last = (long long)b;
		break;
	case OPT_FREQS:
		parse_pair(optarg, "--freqs", -1e9, 1e9, &a, &b, 0);
		o->freq_lo = fmin(a, b);
		o->freq_hi = fmax(a, b);
		break;
	case OPT_MASK_FILL:
		if (strcmp(optarg, "zero") != 0 && strcmp(optarg, "median"))
			usage_error("--mask-fill %s: not zero or median",
			    optarg);
		o->median_fill = strcmp(optarg, "median") == 0;
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
	o->start_s = o->read_s = -1;
	o->start = o->count = o->chan_first = o->chan_last = -1;
	o->freq_lo = o->freq_hi = NAN;
	sps_psrfits_defaults(&o->fits);
	while ((c = getopt_long(argc, argv, "hqvo:s:S:r:n:c:b:m:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case 'q': o->quiet = 1; break;
		case 'v': o->verbose = 1; break;
		case 'o': o->output = optarg; break;
		case 's':
			o->start_s = cli_double(optarg, "-s", 0, 1e9);
			break;
		case 'S':
			o->start = cli_long(optarg, "-S", 0, INT64_MAX);
			break;
		case 'r':
			o->read_s = cli_double(optarg, "-r", 0, 1e9);
			break;
		case 'n':
			o->count = cli_long(optarg, "-n", 0, INT64_MAX);
			break;
		case 'b':
			o->nbits = (int)cli_long(optarg, "--nbits", 1, 32);
			if ((o->nbits & (o->nbits - 1)) != 0)
				usage_error("--nbits %s: not 1, 2, 4, 8, 16 "
				    "or 32", optarg);
			break;
		case OPT_RESCALE: o->rescale = 1; break;
		case OPT_FLIP: o->flip = 1; break;
		case 'm': o->mask_file = optarg; break;
		case OPT_IGNORECHAN: o->ignorechan = optarg; break;
		case OPT_FILL_GAPS: o->fill_gaps = 1; break;
		default:
			parse_more(c, o);
		}
	}
	if (o->start_s >= 0 && o->start >= 0)
		usage_error("-s and -S both give the start%s", "");
	if (o->read_s >= 0 && o->count >= 0)
		usage_error("-r and -n both give the length%s", "");
	if (o->chan_first >= 0 && !isnan(o->freq_lo))
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
print_psrfits(const struct sps_psrfits_info *fi)
{
	static const char *steps[] = { "ZERO_OFF", "DAT_SCL", "DAT_OFFS",
	    "DAT_WTS" };
	int i, any = 0;

	fprintf(stderr, "  PSRFITS: %d file(s), %ld rows of %d spectra, "
	    "NBITS %d, NPOL %d (%s)\n", fi->nfiles, fi->nrows, fi->nsblk,
	    fi->file_nbits, fi->npol, fi->pol_type);
	fprintf(stderr, "  telescope %s, frontend %s, backend %s, CHAN_DM "
	    "%g\n", fi->telescope, fi->frontend, fi->backend, fi->chan_dm);
	fprintf(stderr, "  taken: %s; ZERO_OFF %g; steps changing values:",
	    fi->pol_used, fi->zero_off);
	for (i = 0; i < 4; i++)
		if (fi->applied & 1 << i) {
			fprintf(stderr, " %s", steps[i]);
			any = 1;
		}
	fprintf(stderr, "%s%s\n", any ? "" : " none",
	    fi->flipped ? "; band flipped to foff < 0" : "");
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
		print_psrfits(fi);
}

/* ---- the plan ---- */

static uint64_t
seconds_to_samples(double seconds, double tsamp)
{
	return (uint64_t)llround(seconds / tsamp);
}

static void
plan_time(struct plan *p, const struct sps_reader *r,
    const struct options *o)
{
	double tsamp = r->hdr.tsamp;

	p->start = o->start >= 0 ? (uint64_t)o->start : o->start_s >= 0 ?
	    seconds_to_samples(o->start_s, tsamp) : 0;
	p->count = o->count >= 0 ? (uint64_t)o->count : o->read_s >= 0 ?
	    seconds_to_samples(o->read_s, tsamp) : UINT64_MAX;
	if (r->nsamples == SPS_NSAMPLES_UNKNOWN)
		return;
	if (p->start >= r->nsamples)
		cli_fail("start at spectrum %llu: the input has only %llu",
		    (unsigned long long)p->start,
		    (unsigned long long)r->nsamples);
	if (p->count != UINT64_MAX && p->count > r->nsamples - p->start &&
	    !o->quiet)
		warnx("asked for %llu spectra, only %llu after the start",
		    (unsigned long long)p->count,
		    (unsigned long long)(r->nsamples - p->start));
	if (p->count > r->nsamples - p->start)
		p->count = r->nsamples - p->start;
}

static void
plan_channels(struct plan *p, const struct sps_header *h,
    const struct options *o)
{
	int c, last;

	p->nin = h->nchans;
	p->nifs = h->nifs;
	p->first = 0;
	last = h->nchans - 1;
	if (o->chan_first >= 0) {
		if (o->chan_last >= h->nchans)
			cli_fail("-c %lld:%lld: the input has channels 0 to %d",
			    o->chan_first, o->chan_last, h->nchans - 1);
		p->first = (int)o->chan_first;
		last = (int)o->chan_last;
	} else if (!isnan(o->freq_lo)) {
		p->first = -1;
		for (c = 0; c < h->nchans; c++) {
			double f = sps_channel_freq(h, c);

			if (f < o->freq_lo || f > o->freq_hi)
				continue;
			if (p->first < 0)
				p->first = c;
			last = c;
		}
		if (p->first < 0)
			cli_fail("--freqs %g:%g: no channel centre in it (the "
			    "band is %g to %g MHz)", o->freq_lo, o->freq_hi,
			    sps_channel_freq(h, 0),
			    sps_channel_freq(h, h->nchans - 1));
	}
	p->nout = last - p->first + 1;
}

static void
plan_mask(struct plan *p, const struct options *o)
{
	FILE *f;
	int c;

	if ((p->masked = calloc((size_t)p->nin, 1)) == NULL)
		err(1, NULL);
	if (o->mask_file != NULL) {
		if ((f = fopen(o->mask_file, "r")) == NULL)
			err(1, "%s", o->mask_file);
		cli_check(sps_chanmask_read(f, o->mask_file, p->nin,
		    p->masked), NULL);
		fclose(f);
	}
	if (o->ignorechan != NULL)
		cli_check(sps_chanmask_parse(o->ignorechan, "--ignorechan",
		    p->nin, p->masked), NULL);
	for (c = p->first; c < p->first + p->nout; c++)
		p->nmasked += p->masked[c];
}

static void
plan_output(struct plan *p, const struct sps_reader *r,
    const struct options *o)
{
	int in_nbits = sps_reader_value_nbits(r);
	int in_signed = in_nbits == 8 && r->hdr.nbits == 8 && r->hdr.sign < 0;
	int values = p->nifs * p->nout;

	p->nbits = o->nbits != 0 ? o->nbits : in_nbits;
	p->is_signed = p->nbits == 8 && in_signed && !o->rescale;
	if (!o->rescale)
		return;
	if (p->nbits == 32) {
		p->level = 0;
		p->spread = 1;
	} else {
		p->level = (float)(ldexp(1, p->nbits) - 1) / 2;
		p->spread = (float)fmax(1, ldexp(1, p->nbits) / 16);
	}
	p->mean = calloc((size_t)values, sizeof(double));
	p->scale = calloc((size_t)values, sizeof(double));
	if (p->mean == NULL || p->scale == NULL)
		err(1, NULL);
}

static void
make_header(struct sps_header *out, const struct sps_reader *r,
    const struct plan *p, const struct options *o)
{
	const struct sps_header *in = &r->hdr;
	int c, last = p->first + p->nout - 1;
	double *table = NULL;

	cli_check(sps_header_copy(out, in), NULL);
	if (sps_header_has(in, "tstart"))
		out->tstart = in->tstart + (double)p->start * in->tsamp /
		    86400.0;
	out->nchans = p->nout;
	out->fch1 = sps_channel_freq(in, o->flip ? last : p->first);
	out->foff = o->flip ? -in->foff : in->foff;
	if (in->nfchannel > 0) {
		if ((table = malloc((size_t)p->nout * sizeof(double))) == NULL)
			err(1, NULL);
		for (c = 0; c < p->nout; c++)
			table[c] = in->fchannel[o->flip ? last - c :
			    p->first + c];
		free(out->fchannel);
		out->fchannel = table;
		out->nfchannel = p->nout;
	}
	out->nbits = p->nbits;
	if (p->is_signed || (sps_header_has(in, "signed") && p->nbits == 8)) {
		out->sign = p->is_signed ? -1 : 1;
		sps_header_mark(out, "signed");
	}
	if (sps_header_has(in, "nsamples") && p->count < INT32_MAX)
		out->nsamples = (int)p->count;
	else
		sps_header_unmark(out, "nsamples");
	if (p->nout != p->nin || o->flip) {
		sps_header_unmark(out, "bandwidth");
		sps_header_unmark(out, "fbottom");
		sps_header_unmark(out, "ftop");
	}
}

/* ---- the data ---- */

/* k-th smallest of v[0..n) (v is reordered). */
static float
select_kth(float *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		float pivot = v[lo + (hi - lo) / 2], t;
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k];
	}
	return v[k];
}

/* Masked channels of one IF of one spectrum, in place. */
static void
apply_mask(const struct plan *p, float *in, float *work)
{
	size_t n = 0;
	float fill = 0;
	int c;

	if (p->nmasked == 0)
		return;
	if (work != NULL) {
		for (c = p->first; c < p->first + p->nout; c++)
			if (!p->masked[c])
				work[n++] = in[c];
		if (n > 0)
			fill = select_kth(work, n, n / 2);
	}
	for (c = p->first; c < p->first + p->nout; c++)
		if (p->masked[c])
			in[c] = fill;
}

/* Per-channel mean and spread of the first block, for --rescale. */
static void
take_scaling(struct plan *p, const float *out, size_t n)
{
	size_t values = (size_t)p->nifs * p->nout, i, v;

	for (v = 0; v < values; v++) {
		double sum = 0, sq = 0, mean, var;

		for (i = 0; i < n; i++)
			sum += out[i * values + v];
		mean = sum / n;
		for (i = 0; i < n; i++)
			sq += (out[i * values + v] - mean) *
			    (out[i * values + v] - mean);
		var = n > 1 ? sq / (n - 1) : 0;
		p->mean[v] = mean;
		p->scale[v] = var > 0 ? p->spread / sqrt(var) : 0;
	}
	p->scaled = 1;
}

static void
apply_scaling(struct plan *p, float *out, size_t n)
{
	size_t values = (size_t)p->nifs * p->nout, i, v;

	if (p->mean == NULL)
		return;
	if (!p->scaled)
		take_scaling(p, out, n);
	for (i = 0; i < n; i++)
		for (v = 0; v < values; v++)
			out[i * values + v] = (float)(p->level +
			    (out[i * values + v] - p->mean[v]) * p->scale[v]);
}

/* Mask, cut and flip n spectra from in to out. */
static void
transform(struct plan *p, const struct options *o, float *in, float *out,
    size_t n, float *work)
{
	size_t i, ifs;
	int c;

	for (i = 0; i < n; i++)
		for (ifs = 0; ifs < (size_t)p->nifs; ifs++) {
			float *src = in + (i * p->nifs + ifs) * p->nin;
			float *dst = out + (i * p->nifs + ifs) * p->nout;

			apply_mask(p, src, o->median_fill ? work : NULL);
			for (c = 0; c < p->nout; c++)
				dst[c] = src[p->first + (o->flip ?
				    p->nout - 1 - c : c)];
		}
	apply_scaling(p, out, n);
}

static void
check_or_abort(enum sps_err e, struct sps_writer *w)
{
	if (e == SPS_OK)
		return;
	sps_writer_abort(w);
	cli_check(e, NULL);
}

static uint64_t
copy_data(struct sps_reader *r, struct sps_writer *w, struct plan *p,
    const struct options *o)
{
	size_t per = (size_t)p->nifs * p->nin, block, got;
	uint64_t left = p->count, done = 0;
	float *in, *out, *work;
	enum sps_err e;

	block = BLOCK_VALUES / per;
	block = block < 1 ? 1 : block > BLOCK_SPECTRA ? BLOCK_SPECTRA : block;
	in = malloc(block * per * sizeof(float));
	out = malloc(block * (size_t)p->nifs * p->nout * sizeof(float));
	work = malloc((size_t)p->nin * sizeof(float));
	if (in == NULL || out == NULL || work == NULL)
		err(1, NULL);
	check_or_abort(p->start > 0 ? sps_reader_skip(r, p->start) : SPS_OK,
	    w);
	while (left > 0) {
		size_t want = left < block ? (size_t)left : block;

		e = sps_reader_read(r, in, want, &got);
		transform(p, o, in, out, got, work);
		check_or_abort(sps_writer_spectra(w, out, got), w);
		left -= got;
		done += got;
		if (e == SPS_EEOF)
			break;
		check_or_abort(e, w);
		if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
			cli_progress(o->quiet || w->f == stdout, (double)done /
			    (double)p->count, (double)done * r->hdr.tsamp);
	}
	cli_progress_done(o->quiet || w->f == stdout);
	free(in);
	free(out);
	free(work);
	return done;
}

static void
report(const struct sps_reader *r, const struct plan *p, uint64_t done,
    unsigned long long clipped, const struct options *o)
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
	if (p->count == UINT64_MAX || !o->verbose)
		return;
	fprintf(stderr, "sps-filterbank: wrote %llu spectra from %llu, "
	    "channels %d to %d%s, %d masked, %d-bit%s\n",
	    (unsigned long long)done, (unsigned long long)p->start, p->first,
	    p->first + p->nout - 1, o->flip ? " flipped" : "", p->nmasked,
	    p->nbits, o->rescale ? " rescaled" : "");
}

int
main(int argc, char **argv)
{
	struct sps_header out_hdr;
	struct options opt;
	struct sps_reader r;
	struct sps_writer w;
	struct plan plan;
	unsigned long long clipped;
	uint64_t done;

	cli_init("sps-filterbank", argv);
	parse_options(argc, argv, &opt);
	open_input(&r, &opt);
	print_input(&r, &opt);
	memset(&plan, 0, sizeof(plan));
	plan_time(&plan, &r, &opt);
	plan_channels(&plan, &r.hdr, &opt);
	plan_mask(&plan, &opt);
	plan_output(&plan, &r, &opt);
	make_header(&out_hdr, &r, &plan, &opt);
	cli_check(sps_writer_open(&w, opt.output), NULL);
	check_or_abort(sps_writer_header(&w, &out_hdr), &w);
	done = copy_data(&r, &w, &plan, &opt);
	clipped = w.nclipped;
	cli_check(sps_writer_close(&w), NULL);
	report(&r, &plan, done, clipped, &opt);
	sps_header_free(&out_hdr);
	sps_reader_close(&r);
	free(plan.masked);
	free(plan.mean);
	free(plan.scale);
	return 0;
}

/* aux-dedisp: the references sps-dedisperse is tested against.
 *
 *	aux-dedisp gen [-b NBITS] [-c NCHANS] [-n NSAMPLES] [-f FCH1]
 *	    [-o FOFF] [-t TSAMP] [-i NIFS] [-s SEED] [-m MAX] [-z CHANS]
 *	    [-Z VALUE] [-T TELESCOPE_ID] [-M MACHINE_ID] [-R SRC_RAJ]
 *	    [-D SRC_DEJ] [-r]
 *		A SIGPROC filterbank of random integers 0 .. MAX (default
 *		2^NBITS - 1; 255 for 32 bits) on standard output.  Channels
 *		in the comma list CHANS hold VALUE (default 0) instead.  -r
 *		writes each spectrum's channels in reverse order (give the
 *		FCH1 and FOFF of the reversed band).
 *		FCH1 and FOFF in MHz, TSAMP in seconds.
 *
 *	aux-dedisp naive [-l] [-k KILLFILE] FILE PLAN
 *		Dedisperses FILE at the trials of PLAN (lines "DM [SCRUNCH]";
 *		lines that do not start with a number are skipped, so an
 *		sps-plan file works) by the plain loops of the definition:
 *		    out_i[j] = sum over channels c, IFs, k < f of
 *		        x[(j + s_ic) f + k][c],
 *		    s_ic = round(4.148808e3 DM_i (f_c^-2 - f_top^-2) / (tsamp f))
 *		for j < nsamples / f, summed in double, the data followed by
 *		maxdelay = max s_ic f spectra of padding, each value the mean
 *		of the last 1024 spectra (dithered to integers over a cycle
 *		of 256 if they are all integers: pad_data below).  Writes the trials one after another as
 *		float32 on standard output; -l prints "MAXDELAY NOUT" instead.
 *		FILE (a SIGPROC filterbank, not "-") is decoded here from its
 *		bytes, by the keyword table and packing of SIGPROC's reader,
 *		not by lib/reader.c: a bug there must not hide on both sides.
 *
 *	aux-dedisp dump [-t TRIAL] [STREAM]
 *		A DM-time stream's values, decoded, trial after trial (or only
 *		TRIAL) as float32 on standard output.  Refuses a stream whose
 *		blocks break the format: a short block that is not the last,
 *		or a total that differs from the header's nsamples.
 *
 *	aux-dedisp dms [STREAM]
 *		The stream's DM table: "DM SCRUNCH" per line.
 *
 *	aux-dedisp info [STREAM]
 *		"KEY VALUE" lines: the header's nsamples (-1 when absent),
 *		the base samples the blocks hold, sps_maxdelay, sps_block,
 *		sps_nchans_in, fch1, tsamp, tstart, nbits, ndms, sps_scale
 *		and sps_offset.
 *
 *	aux-dedisp quant FLOAT_STREAM INT_STREAM
 *		Compares a 32-bit stream with an 8- or 16-bit one of the
 *		same run: prints "MAXERR INRANGE TOTAL BAD", the largest
 *		|a - b| in units of the trial's quantum (sps_scale sqrt f)
 *		over the values a that lie inside the integer range, how
 *		many those are, how many values there are, and how many in
 *		range are further apart than half a quantum plus the float32
 *		rounding of a and b (one ulp each).
 *
 *	aux-dedisp peak [-w W] [STREAM]
 *		For each trial, "TRIAL DM SCRUNCH START SNR": the boxcar of
 *		max(1, round(W / SCRUNCH)) samples (W base samples, default
 *		1) with the largest sum, START its first base sample, and SNR
 *		its sum less the off-pulse mean over sqrt(width) times the
 *		off-pulse rms (off-pulse: outside START - 2 width - 16 ..
 *		START + 3 width + 16).
 *
 * Exit status 0, or 2 with a message on any failure. */
#include <err.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmtime.h"
#include "header.h"
#include "killmask.h"
#include "writer.h"

#define KDM	4.148808e3

struct trials {
	int	 n;
	double	*dm;
	int	*scrunch;
};

/* Decoded DM-time stream: trial i's series is values[i], len[i] long. */
struct stream {
	struct sps_header	 h;
	float			**values;
	size_t			*len;
	size_t			 nbase;
};

static void
usage(void)
{
	fprintf(stderr, "usage: aux-dedisp gen|naive|dump|dms|info|quant|peak ...\n");
	exit(2);
}

static void
check(enum sps_err e)
{
	if (e != SPS_OK)
		errx(2, "%s", sps_errmsg());
}

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n == 0 ? 1 : n)) == NULL)
		err(2, NULL);
	return p;
}

static uint64_t
next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

static int
in_list(const char *list, int c)
{
	const char *p = list;
	char *end;

	while (p != NULL && *p != '\0') {
		if (strtol(p, &end, 10) == c && end != p)
			return 1;
		p = *end == ',' ? end + 1 : NULL;
	}
	return 0;
}

struct gen_opts {
	struct sps_header h;
	long		 nsamples;
	double		 max;		/* largest random value */
	double		 value;		/* of the special channels */
	const char	*special;	/* comma list of channels */
	int		 reverse;
	uint64_t	 seed;
};

static void
parse_gen(struct gen_opts *o, int argc, char **argv)
{
	static const char *const marked[] = { "source_name", "telescope_id",
	    "machine_id", "src_raj", "src_dej", "data_type", "nchans", "nbits",
	    "nifs", "fch1", "foff", "tsamp", "tstart" };
	struct sps_header *h = &o->h;
	size_t i;
	int ch;

	memset(o, 0, sizeof(*o));
	sps_header_init(h);
	strcpy(h->source_name, "AUX");
	h->data_type = 1;
	h->nchans = 16;
	h->nbits = 8;
	h->nifs = 1;
	h->fch1 = 1500;
	h->foff = -1;
	h->tsamp = 1e-3;
	h->tstart = 60000.5;
	o->nsamples = 1000;
	o->max = -1;
	o->special = "";
	o->seed = 88172645463325252ULL;
	while ((ch = getopt(argc, argv, "b:c:D:f:i:m:M:n:o:rR:s:t:T:z:Z:"))
	    != -1) {
		switch (ch) {
		case 'b':
			h->nbits = atoi(optarg);
			break;
		case 'c':
			h->nchans = atoi(optarg);
			break;
		case 'D':
			h->src_dej = atof(optarg);
			break;
		case 'f':
			h->fch1 = atof(optarg);
			break;
		case 'i':
			h->nifs = atoi(optarg);
			break;
		case 'm':
			o->max = atof(optarg);
			break;
		case 'M':
			h->machine_id = atoi(optarg);
			break;
		case 'n':
			o->nsamples = atol(optarg);
			break;
		case 'o':
			h->foff = atof(optarg);
			break;
		case 'r':
			o->reverse = 1;
			break;
		case 'R':
			h->src_raj = atof(optarg);
			break;
		case 's':
			o->seed ^= strtoull(optarg, NULL, 10) * 2654435761ULL;
			break;
		case 't':
			h->tsamp = atof(optarg);
			break;
		case 'T':
			h->telescope_id = atoi(optarg);
			break;
		case 'z':
			o->special = optarg;
			break;
		case 'Z':
			o->value = atof(optarg);
			break;
		default:
			usage();
		}
	}
	if (o->max < 0)
		o->max = h->nbits == 32 ? 255 : (double)((1L << h->nbits) - 1);
	for (i = 0; i < sizeof(marked) / sizeof(marked[0]); i++)
		sps_header_mark(h, marked[i]);
}

/* One spectrum of random values (special channels excepted), channels
 * reversed in each IF when asked. */
static void
gen_spectrum(struct gen_opts *o, float *tmp, float *out)
{
	int nchans = o->h.nchans, n = nchans * o->h.nifs, c;

	for (c = 0; c < n; c++)
		tmp[c] = in_list(o->special, c % nchans) ? (float)o->value :
		    (float)(next_random(&o->seed) % ((uint64_t)o->max + 1));
	for (c = 0; c < n; c++)
		out[c] = o->reverse ? tmp[c / nchans * nchans + nchans - 1 -
		    c % nchans] : tmp[c];
}

static int
gen(int argc, char **argv)
{
	struct gen_opts o;
	struct sps_writer w;
	size_t n;
	float *spec;
	long t;

	parse_gen(&o, argc, argv);
	n = (size_t)o.h.nchans * o.h.nifs;
	check(sps_writer_open(&w, NULL));
	check(sps_writer_header(&w, &o.h));
	spec = xrealloc(NULL, 2 * n * sizeof(float));
	for (t = 0; t < o.nsamples; t++) {
		gen_spectrum(&o, spec, spec + n);
		check(sps_writer_spectra(&w, spec + n, 1));
	}
	check(sps_writer_close(&w));
	free(spec);
	return 0;
}

/* A SIGPROC filterbank as naive reads it: its own decoding of the bytes
 * (keywords and packing as SIGPROC's reader has them), independent of
 * lib/header.c and lib/reader.c. */
struct fil {
	int	 nchans, nbits, nifs;
	int	 is_signed;	/* 8-bit two's complement: "signed" < 0 */
	double	 fch1, foff, tsamp;
	double	*freq;		/* channel centres, MHz, file order */
	int	 nfreq;		/* entries of a FREQUENCY_START table */
	size_t	 nspectra;
	float	*x;		/* nspectra * nifs * nchans values */
};

/* Every keyword a header may hold and the bytes of its value: 's' a
 * length-prefixed string, 'i' int32, 'd' double, 'c' one byte, 'l'
 * int64, '-' none. */
static const struct { const char *name; char type; } keywords[] = {
	{ "HEADER_START", '-' }, { "HEADER_END", '-' },
	{ "FREQUENCY_START", '-' }, { "FREQUENCY_END", '-' },
	{ "source_name", 's' }, { "rawdatafile", 's' }, { "filename", 's' },
	{ "telescope", 's' }, { "obs_date", 's' }, { "obs_time", 's' },
	{ "telescope_id", 'i' }, { "machine_id", 'i' }, { "data_type", 'i' },
	{ "barycentric", 'i' }, { "pulsarcentric", 'i' }, { "nchans", 'i' },
	{ "nbeams", 'i' }, { "ibeam", 'i' }, { "nbits", 'i' }, { "nifs", 'i' },
	{ "nbins", 'i' }, { "nsamples", 'i' }, { "hdrlen", 'i' },
	{ "orig_hdrlen", 'i' }, { "new_hdrlen", 'i' }, { "sampsize", 'i' },
	{ "sps_order", 'i' }, { "sps_block", 'i' }, { "sps_dmtime", 'i' },
	{ "sps_maxdelay", 'i' }, { "sps_nchans_in", 'i' },
	{ "src_raj", 'd' }, { "src_dej", 'd' }, { "az_start", 'd' },
	{ "za_start", 'd' }, { "refdm", 'd' }, { "period", 'd' },
	{ "fch1", 'd' }, { "foff", 'd' }, { "tstart", 'd' }, { "tsamp", 'd' },
	{ "fchannel", 'd' }, { "bandwidth", 'd' }, { "fbottom", 'd' },
	{ "ftop", 'd' }, { "flux", 'd' }, { "pb", 'd' }, { "ecc", 'd' },
	{ "asini", 'd' }, { "accel", 'd' }, { "sps_scale", 'd' },
	{ "sps_offset", 'd' },
	{ "signed", 'c' }, { "npuls", 'l' },
};

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f;
	unsigned char *buf = NULL;
	size_t cap = 0, got;

	if ((f = fopen(path, "rb")) == NULL)
		err(2, "%s", path);
	*len = 0;
	do {
		if (*len == cap)
			buf = xrealloc(buf, cap = cap * 2 + 65536);
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
	} while (got > 0);
	if (ferror(f))
		err(2, "%s", path);
	fclose(f);
	return buf;
}

/* The little-endian value of n bytes at b (n <= 8). */
static uint64_t
le_bytes(const unsigned char *b, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | b[n];
	return v;
}

static double
le_double(const unsigned char *b)
{
	uint64_t v = le_bytes(b, 8);
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

/* Reads one keyword's value at buf[*at] into fb; returns the keyword's
 * type, '-' for a marker. */
static char
keyword_value(struct fil *fb, const char *name, const unsigned char *buf,
    size_t len, size_t *at)
{
	static const int size[] = { ['i'] = 4, ['d'] = 8, ['c'] = 1,
	    ['l'] = 8, ['-'] = 0 };
	size_t k, n;
	char type = 0;
	double d;

	for (k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++)
		if (strcmp(name, keywords[k].name) == 0)
			type = keywords[k].type;
	if (type == 0)
		errx(2, "header: unknown keyword '%s'", name);
	n = type == 's' ? 4 + (len - *at >= 4 ? le_bytes(buf + *at, 4) : 0) :
	    (size_t)size[(int)type];
	if (n > len - *at)
		errx(2, "header: '%s' cut short", name);
	d = type == 'd' ? le_double(buf + *at) : 0;
	if (type == 'i' || type == 'c') {
		long v = type == 'c' ? (signed char)buf[*at] :
		    (int32_t)le_bytes(buf + *at, 4);

		if (strcmp(name, "nchans") == 0) fb->nchans = (int)v;
		if (strcmp(name, "nbits") == 0) fb->nbits = (int)v;
		if (strcmp(name, "nifs") == 0) fb->nifs = (int)v;
		if (strcmp(name, "signed") == 0) fb->is_signed = v < 0;
	}
	if (strcmp(name, "fch1") == 0) fb->fch1 = d;
	if (strcmp(name, "foff") == 0) fb->foff = d;
	if (strcmp(name, "tsamp") == 0) fb->tsamp = d;
	if (strcmp(name, "fchannel") == 0) {
		fb->freq = xrealloc(fb->freq, (fb->nfreq + 1) * sizeof(double));
		fb->freq[fb->nfreq++] = d;
	}
	*at += n;
	return type;
}

/* Parses the header at buf; returns its length in bytes. */
static size_t
parse_header(struct fil *fb, const unsigned char *buf, size_t len)
{
	char name[81];
	size_t at = 0, n;
	int first = 1;

	for (;;) {
		n = len - at >= 4 ? le_bytes(buf + at, 4) : 0;
		if (n < 1 || n > 80 || n > len - at - 4)
			errx(2, "header: no keyword at byte %zu", at);
		memcpy(name, buf + at + 4, n);
		name[n] = '\0';
		at += 4 + n;
		if (first && strcmp(name, "HEADER_START") != 0)
			errx(2, "not a SIGPROC file");
		first = 0;
		if (keyword_value(fb, name, buf, len, &at) == '-' &&
		    strcmp(name, "HEADER_END") == 0)
			return at;
	}
}

/* Value k of the data at raw (nbits packing, SIGPROC's order: earliest
 * value in the lowest bits of a byte; 16-bit unsigned and 32-bit float,
 * little-endian). */
static float
sample(const struct fil *fb, const unsigned char *raw, size_t k)
{
	size_t bit = k * (size_t)fb->nbits;
	uint32_t v;
	float f;

	switch (fb->nbits) {
	case 1: case 2: case 4:
		return (float)((raw[bit / 8] >> (bit % 8)) &
		    ((1u << fb->nbits) - 1));
	case 8:
		return fb->is_signed ? (float)(signed char)raw[k] :
		    (float)raw[k];
	case 16:
		return (float)le_bytes(raw + 2 * k, 2);
	default:
		v = (uint32_t)le_bytes(raw + 4 * k, 4);
		memcpy(&f, &v, sizeof(f));
		return f;
	}
}

static void
read_fil(const char *path, struct fil *fb)
{
	size_t len, hlen, nv, k;
	unsigned char *buf = slurp(path, &len);

	memset(fb, 0, sizeof(*fb));
	fb->nifs = 1;
	hlen = parse_header(fb, buf, len);
	if (fb->nchans < 1 || fb->nifs < 1 || fb->tsamp <= 0 ||
	    (fb->nbits != 1 && fb->nbits != 2 && fb->nbits != 4 &&
	    fb->nbits != 8 && fb->nbits != 16 && fb->nbits != 32))
		errx(2, "%s: nchans %d, nifs %d, nbits %d, tsamp %g", path,
		    fb->nchans, fb->nifs, fb->nbits, fb->tsamp);
	if (fb->nfreq == 0) {
		fb->freq = xrealloc(NULL, (size_t)fb->nchans * sizeof(double));
		for (k = 0; k < (size_t)fb->nchans; k++)
			fb->freq[k] = fb->fch1 + (double)k * fb->foff;
	} else if (fb->nfreq != fb->nchans)
		errx(2, "%s: %d frequencies for %d channels", path, fb->nfreq,
		    fb->nchans);
	nv = (size_t)fb->nchans * (size_t)fb->nifs;
	fb->nspectra = (len - hlen) * 8 / ((size_t)fb->nbits * nv);
	fb->x = xrealloc(NULL, fb->nspectra * nv * sizeof(float));
	for (k = 0; k < fb->nspectra * nv; k++)
		fb->x[k] = sample(fb, buf + hlen, k);
	free(buf);
}

static void
read_plan(const char *path, struct trials *tr)
{
	char line[1024], *end;
	FILE *f;
	double dm;
	long s;

	if ((f = fopen(path, "r")) == NULL)
		err(2, "%s", path);
	memset(tr, 0, sizeof(*tr));
	while (fgets(line, sizeof(line), f) != NULL) {
		dm = strtod(line, &end);
		if (end == line)
			continue;
		s = strtol(end, &end, 10);
		tr->dm = xrealloc(tr->dm, (tr->n + 1) * sizeof(double));
		tr->scrunch = xrealloc(tr->scrunch, (tr->n + 1) * sizeof(int));
		tr->dm[tr->n] = dm;
		tr->scrunch[tr->n++] = s > 0 ? (int)s : 1;
	}
	fclose(f);
	if (tr->n == 0)
		errx(2, "%s: no trials", path);
}

static unsigned char *
read_kill(const char *path, int nchans)
{
	unsigned char *kill = xrealloc(NULL, (size_t)nchans);
	FILE *f;

	memset(kill, 0, (size_t)nchans);
	if (path == NULL)
		return kill;
	if ((f = fopen(path, "r")) == NULL)
		err(2, "%s", path);
	check(sps_killmask_read(f, path, nchans, kill));
	fclose(f);
	return kill;
}

/* Every channel's delay at trial i, in samples of tsamp * f. */
static void
delays(const struct fil *fb, double dm, int f, long *s)
{
	double top = -INFINITY, fc;
	int c;

	for (c = 0; c < fb->nchans; c++)
		top = fmax(top, fb->freq[c]);
	for (c = 0; c < fb->nchans; c++) {
		fc = fb->freq[c];
		s[c] = lround(KDM * dm * (1 / (fc * fc) - 1 / (top * top)) /
		    (fb->tsamp * f));
	}
}

static long long
floor_div(long long a, long long b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* The data followed by npad spectra of padding: each value's mean over
 * the last 1024 spectra (or all); when they are all integers, pad
 * spectrum k of value v is floor(((j + 1) M + p) / 256) - floor((j M +
 * p) / 256), j = k mod 256, M = round(256 mean), p = 97 u mod 256,
 * u the value's place counting channels from the lowest frequency. */
static float *
pad_data(const struct fil *h, float *x, size_t n, size_t npad)
{
	size_t nv = (size_t)h->nchans * h->nifs, first = n > 1024 ? n - 1024 : 0;
	size_t t, v, c;
	int integers = 1;
	long long M, p, j;
	double sum;

	x = xrealloc(x, (n + npad) * nv * sizeof(float));
	for (t = first * nv; t < n * nv; t++)
		integers &= x[t] == floorf(x[t]);
	for (v = 0; v < nv; v++) {
		for (sum = 0, t = first; t < n; t++)
			sum += x[t * nv + v];
		sum /= (double)(n - first);
		M = llround(sum * 256);
		c = v % (size_t)h->nchans;
		if (h->foff < 0)
			c = (size_t)h->nchans - 1 - c;
		p = (long long)((v / (size_t)h->nchans * (size_t)h->nchans +
		    c) * 97 % 256);
		for (t = n; t < n + npad; t++) {
			j = (long long)((t - n) % 256);
			x[t * nv + v] = integers ? (float)(floor_div((j + 1) *
			    M + p, 256) - floor_div(j * M + p, 256)) :
			    (float)sum;
		}
	}
	return x;
}

static int
naive(int argc, char **argv)
{
	const char *killfile = NULL;
	int layout = 0, ch, i, c, k, ifs;
	struct fil fb;
	struct trials tr;
	unsigned char *kill;
	size_t n, nv, j, m, maxdelay = 0, nout;
	long *s;
	float *x, *out;

	while ((ch = getopt(argc, argv, "k:l")) != -1) {
		switch (ch) {
		case 'k': killfile = optarg; break;
		case 'l': layout = 1; break;
		default: usage();
		}
	}
	if (argc - optind != 2)
		usage();
	read_fil(argv[optind], &fb);
	read_plan(argv[optind + 1], &tr);
	kill = read_kill(killfile, fb.nchans);
	x = fb.x;
	n = fb.nspectra;
	nv = (size_t)fb.nchans * (size_t)fb.nifs;
	s = xrealloc(NULL, (size_t)fb.nchans * sizeof(long));
	for (i = 0; i < tr.n; i++) {
		delays(&fb, tr.dm[i], tr.scrunch[i], s);
		for (c = 0; c < fb.nchans; c++)
			if (!kill[c] && (size_t)s[c] * tr.scrunch[i] > maxdelay)
				maxdelay = (size_t)s[c] * tr.scrunch[i];
	}
	if (maxdelay >= n)
		errx(2, "%zu samples, largest delay %zu", n, maxdelay);
	nout = n;
	x = pad_data(&fb, x, n, maxdelay);
	out = xrealloc(NULL, nout * sizeof(float));
	if (layout) {
		printf("%zu %zu\n", maxdelay, nout);
		tr.n = 0;
	}
	for (i = 0; i < tr.n; i++) {
		int f = tr.scrunch[i];

		delays(&fb, tr.dm[i], f, s);
		m = nout / (size_t)f;
		for (j = 0; j < m; j++) {
			double acc = 0;

			for (c = 0; c < fb.nchans; c++) {
				if (kill[c])
					continue;
				for (k = 0; k < f; k++) {
					size_t t = (j + (size_t)s[c]) * f + k;

					for (ifs = 0; ifs < fb.nifs; ifs++)
						acc += x[t * nv + (size_t)ifs *
						    fb.nchans + c];
				}
			}
			out[j] = (float)acc;
		}
		if (fwrite(out, sizeof(float), m, stdout) != m)
			err(2, "stdout");
	}
	free(fb.freq);
	free(out);
	free(x);
	free(s);
	free(kill);
	free(tr.dm);
	free(tr.scrunch);
	return 0;
}

static FILE *
open_input(const char *path)
{
	FILE *f;

	if (path == NULL || strcmp(path, "-") == 0)
		return stdin;
	if ((f = fopen(path, "rb")) == NULL)
		err(2, "%s", path);
	return f;
}

static void
read_stream(const char *path, struct stream *st)
{
	FILE *f = open_input(path);
	size_t n, prev = 0, nblocks = 0;
	float *block;
	enum sps_err e;
	int i;

	memset(st, 0, sizeof(*st));
	check(sps_header_read(f, NULL, 0, &st->h));
	if (st->h.sps_dmtime != 1 || st->h.ndms < 1 || st->h.sps_block < 1)
		errx(2, "%s: not a DM-time stream", path);
	st->values = xrealloc(NULL, st->h.ndms * sizeof(float *));
	st->len = xrealloc(NULL, st->h.ndms * sizeof(size_t));
	for (i = 0; i < st->h.ndms; i++) {
		st->values[i] = NULL;
		st->len[i] = 0;
	}
	block = xrealloc(NULL, sps_dmtime_block_values(&st->h,
	    (size_t)st->h.sps_block) * sizeof(float));
	while ((e = sps_dmtime_read_block(f, &st->h, block, &n, NULL)) == SPS_OK) {
		if (nblocks > 0 && prev != (size_t)st->h.sps_block)
			errx(2, "block %zu of %zu samples is not the last",
			    nblocks - 1, prev);
		for (i = 0; i < st->h.ndms; i++) {
			size_t m = n / (size_t)st->h.scrunch[i];

			st->values[i] = xrealloc(st->values[i], (st->len[i] +
			    m) * sizeof(float));
			memcpy(st->values[i] + st->len[i], block +
			    sps_dmtime_trial_offset(&st->h, n, i),
			    m * sizeof(float));
			st->len[i] += m;
		}
		st->nbase += n;
		prev = n;
		nblocks++;
	}
	if (e != SPS_EEOF)
		check(e);
	if (sps_header_has(&st->h, "nsamples") &&
	    (size_t)st->h.nsamples != st->nbase)
		errx(2, "header nsamples %d, blocks hold %zu", st->h.nsamples,
		    st->nbase);
	free(block);
	if (f != stdin)
		fclose(f);
}

static void
free_stream(struct stream *st)
{
	int i;

	for (i = 0; i < st->h.ndms; i++)
		free(st->values[i]);
	free(st->values);
	free(st->len);
	sps_header_free(&st->h);
}

static int
dump(int argc, char **argv)
{
	struct stream st;
	int only = -1, ch, i;

	while ((ch = getopt(argc, argv, "t:")) != -1) {
		if (ch != 't')
			usage();
		only = atoi(optarg);
	}
	read_stream(argv[optind], &st);
	if (only >= st.h.ndms)
		errx(2, "trial %d of %d", only, st.h.ndms);
	for (i = 0; i < st.h.ndms; i++)
		if ((only < 0 || i == only) && fwrite(st.values[i],
		    sizeof(float), st.len[i], stdout) != st.len[i])
			err(2, "stdout");
	free_stream(&st);
	return 0;
}

static int
info(int argc, char **argv)
{
	struct stream st;

	(void)argc;
	read_stream(argv[optind], &st);
	printf("nsamples %d\n", sps_header_has(&st.h, "nsamples") ?
	    st.h.nsamples : -1);
	printf("blocks %zu\n", st.nbase);
	printf("maxdelay %d\n", st.h.sps_maxdelay);
	printf("block %d\n", st.h.sps_block);
	printf("nchans_in %d\n", st.h.sps_nchans_in);
	printf("fch1 %.17g\n", st.h.fch1);
	printf("tsamp %.17g\n", st.h.tsamp);
	printf("tstart %.17g\n", st.h.tstart);
	printf("nbits %d\n", st.h.nbits);
	printf("ndms %d\n", st.h.ndms);
	printf("scale %.17g\n", st.h.sps_scale);
	printf("offset %.17g\n", st.h.sps_offset);
	free_stream(&st);
	return 0;
}

static double
ulp(float x)
{
	return nextafterf(fabsf(x), INFINITY) - fabsf(x);
}

static int
quant(int argc, char **argv)
{
	struct stream a, b;
	double worst = 0, mid;
	size_t inrange = 0, total = 0, bad = 0, j;
	int i;

	if (argc - optind != 2)
		usage();
	read_stream(argv[optind], &a);
	read_stream(argv[optind + 1], &b);
	if (a.h.ndms != b.h.ndms || b.h.nbits == 32)
		errx(2, "not a float and an integer stream of one run");
	mid = b.h.nbits == 8 ? 128 : 32768;
	for (i = 0; i < a.h.ndms; i++) {
		double f = b.h.scrunch[i], q = b.h.sps_scale * sqrt(f);

		if (a.len[i] != b.len[i])
			errx(2, "trial %d: %zu and %zu samples", i, a.len[i],
			    b.len[i]);
		for (j = 0; j < a.len[i]; j++) {
			double level = (a.values[i][j] - b.h.sps_offset * f) /
			    q + mid;

			total++;
			if (level < 0.5 || level > 2 * mid - 1.5)
				continue;
			inrange++;
			worst = fmax(worst, fabs(a.values[i][j] -
			    b.values[i][j]) / q);
			if (fabs(a.values[i][j] - b.values[i][j]) > 0.5 * q +
			    ulp(a.values[i][j]) + ulp(b.values[i][j]))
				bad++;
		}
	}
	printf("%.6f %zu %zu %zu\n", worst, inrange, total, bad);
	free_stream(&a);
	free_stream(&b);
	return 0;
}

static int
dms(int argc, char **argv)
{
	struct stream st;
	int i;

	(void)argc;
	read_stream(argv[optind], &st);
	for (i = 0; i < st.h.ndms; i++)
		printf("%.17g %d\n", st.h.dms[i], st.h.scrunch[i]);
	free_stream(&st);
	return 0;
}

/* Best boxcar of w samples in v[0 .. n): prints one line. */
static void
peak_of(const float *v, size_t n, int trial, double dm, int f, long w)
{
	double sum = 0, best = -INFINITY, mean = 0, sq = 0, cnt = 0, box;
	long best_at = 0, j, lo, hi;

	if ((long)n < w)
		errx(2, "trial %d: %zu samples, boxcar %ld", trial, n, w);
	for (j = 0; j < (long)n; j++) {
		sum += v[j];
		if (j >= w)
			sum -= v[j - w];
		if (j >= w - 1 && sum > best) {
			best = sum;
			best_at = j - w + 1;
		}
	}
	lo = best_at - 2 * w - 16;
	hi = best_at + 3 * w + 16;
	for (j = 0; j < (long)n; j++)
		if (j < lo || j >= hi) {
			mean += v[j];
			cnt++;
		}
	if (cnt < 16)
		errx(2, "trial %d: too few off-pulse samples", trial);
	mean /= cnt;
	for (j = 0; j < (long)n; j++)
		if (j < lo || j >= hi)
			sq += (v[j] - mean) * (v[j] - mean);
	for (box = 0, j = best_at; j < best_at + w; j++)
		box += v[j] - mean;
	printf("%d %.6f %d %ld %.4f\n", trial, dm, f, best_at * f,
	    box / (sqrt(sq / cnt) * sqrt((double)w)));
}

static int
peak(int argc, char **argv)
{
	struct stream st;
	long w = 1;
	int ch, i;

	while ((ch = getopt(argc, argv, "w:")) != -1) {
		if (ch != 'w')
			usage();
		w = atol(optarg);
	}
	read_stream(argv[optind], &st);
	for (i = 0; i < st.h.ndms; i++) {
		long wf = lround((double)w / st.h.scrunch[i]);

		peak_of(st.values[i], st.len[i], i, st.h.dms[i],
		    st.h.scrunch[i], wf > 1 ? wf : 1);
	}
	free_stream(&st);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	argc--;
	argv++;
	if (strcmp(argv[0], "gen") == 0)
		return gen(argc, argv);
	if (strcmp(argv[0], "naive") == 0)
		return naive(argc, argv);
	if (strcmp(argv[0], "dump") == 0)
		return dump(argc, argv);
	if (strcmp(argv[0], "dms") == 0)
		return dms(argc, argv);
	if (strcmp(argv[0], "info") == 0)
		return info(argc, argv);
	if (strcmp(argv[0], "quant") == 0)
		return quant(argc, argv);
	if (strcmp(argv[0], "peak") == 0)
		return peak(argc, argv);
	usage();
	return 2;
}

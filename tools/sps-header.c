/* sps-header: show a SIGPROC header the way SIGPROC's header does, or
 * single values of it, or all of it as JSON; edit it (like filedit) into
 * a new file or stream with the data copied untouched; list the CUDA
 * devices.  Works through pipes: nothing here seeks. */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "devices.h"
#include "header.h"
#include "passthrough.h"
#include "reader.h"
#include "writer.h"

#define LABEL_WIDTH	33		/* SIGPROC's label column */
#define MAX_DEVICES	64

static const char usage_text[] =
    "usage: sps-header [--json | --VALUE ...] [FILE | -]\n"
    "       sps-header --set KEY=VALUE ... [--unset KEY ...] [-q] "
    "[-o OUTPUT] [FILE | -]\n"
    "       sps-header --devices\n";

static const char values_text[] =
    "VALUE: telescope machine source_name rawdatafile datatype data_type\n"
    "       frame barycentric pulsarcentric headersize datasize nsamples\n"
    "       tobs fch1 foff bandwidth fmid flow fhigh frequencies nchans\n"
    "       tstart mjd date utstart tsamp nbits nifs ibeam nbeams refdm\n"
    "       period nbins signed az_start za_start src_raj src_dej ra_deg\n"
    "       dec_deg\n";

/* Single values a user can ask for, one line each (--tsamp etc.). */
enum value {
	V_TELESCOPE, V_MACHINE, V_SOURCE_NAME, V_RAWDATAFILE, V_DATATYPE,
	V_DATA_TYPE, V_FRAME, V_BARYCENTRIC, V_PULSARCENTRIC, V_HEADERSIZE,
	V_DATASIZE, V_NSAMPLES, V_TOBS, V_FCH1, V_FOFF, V_BANDWIDTH, V_FMID,
	V_FLOW, V_FHIGH, V_FREQUENCIES, V_NCHANS, V_TSTART, V_MJD, V_DATE,
	V_UTSTART, V_TSAMP, V_NBITS, V_NIFS, V_IBEAM, V_NBEAMS, V_REFDM,
	V_PERIOD, V_NBINS, V_SIGNED, V_AZ_START, V_ZA_START, V_SRC_RAJ,
	V_SRC_DEJ, V_RA_DEG, V_DEC_DEG
};

static const struct {
	const char	*name;
	enum value	 value;
} value_options[] = {
	{ "telescope", V_TELESCOPE }, { "machine", V_MACHINE },
	{ "source_name", V_SOURCE_NAME }, { "rawdatafile", V_RAWDATAFILE },
	{ "datatype", V_DATATYPE }, { "data_type", V_DATA_TYPE },
	{ "frame", V_FRAME }, { "barycentric", V_BARYCENTRIC },
	{ "pulsarcentric", V_PULSARCENTRIC },
	{ "headersize", V_HEADERSIZE }, { "datasize", V_DATASIZE },
	{ "nsamples", V_NSAMPLES }, { "tobs", V_TOBS }, { "fch1", V_FCH1 },
	{ "foff", V_FOFF }, { "bandwidth", V_BANDWIDTH }, { "fmid", V_FMID },
	{ "flow", V_FLOW }, { "fhigh", V_FHIGH },
	{ "frequencies", V_FREQUENCIES }, { "nchans", V_NCHANS },
	{ "tstart", V_TSTART }, { "mjd", V_MJD }, { "date", V_DATE },
	{ "utstart", V_UTSTART }, { "tsamp", V_TSAMP }, { "nbits", V_NBITS },
	{ "nifs", V_NIFS }, { "ibeam", V_IBEAM }, { "nbeams", V_NBEAMS },
	{ "nbeam", V_NBEAMS }, { "refdm", V_REFDM }, { "dm", V_REFDM },
	{ "period", V_PERIOD }, { "nbins", V_NBINS }, { "signed", V_SIGNED },
	{ "az_start", V_AZ_START }, { "za_start", V_ZA_START },
	{ "src_raj", V_SRC_RAJ }, { "src_dej", V_SRC_DEJ },
	{ "ra_deg", V_RA_DEG }, { "dec_deg", V_DEC_DEG },
};
#define NVALUE_OPTIONS	((int)(sizeof(value_options) / \
	sizeof(value_options[0])))

enum {
	OPT_JSON = 256, OPT_SET, OPT_UNSET, OPT_DEVICES, OPT_VERSION,
	OPT_VALUE	/* OPT_VALUE + i: value_options[i] */
};

/* One --set or --unset, kept in command-line order. */
struct edit {
	const char	*key;
	const char	*value;		/* NULL: --unset */
};

struct options {
	enum value	*values;	/* requested single values, in order */
	int		 nvalues;
	struct edit	*edits;
	int		 nedits;
	int		 json;
	int		 devices;
	int		 quiet;
	const char	*output;
	const char	*input;		/* NULL: standard input */
};

/* The header plus what the data add to it. */
struct info {
	const struct sps_header	*h;
	uint64_t	nsamples;
	uint64_t	data_bytes;
	double		flow, fhigh;	/* centres of the extreme channels */
	double		bandwidth;	/* MHz, channel widths included */
};

static void
usage_error(const char *fmt, const char *arg)
{
	cli_usage_error(usage_text, fmt, arg);
}

/* Set one keyword; telescope_id and machine_id also take known names. */
static enum sps_err
set_keyword(struct sps_header *h, const char *key, const char *value)
{
	const char *name;
	char number[16];
	int id;

	if (strcmp(key, "telescope_id") == 0 || strcmp(key, "machine_id") ==
	    0) {
		for (id = 0; id < 1024; id++) {
			name = key[0] == 't' ? sps_telescope_name(id) :
			    sps_machine_name(id);
			if (name != NULL && strcasecmp(name, value) == 0) {
				snprintf(number, sizeof(number), "%d", id);
				return sps_header_set(h, key, number);
			}
		}
	}
	return sps_header_set(h, key, value);
}

static enum sps_err
apply_edit(struct sps_header *h, const struct edit *e)
{
	if (e->value != NULL)
		return set_keyword(h, e->key, e->value);
	if (strcmp(e->key, "fchannel") == 0) {
		free(h->fchannel);
		h->fchannel = NULL;
		h->nfchannel = 0;
	} else
		sps_header_unmark(h, e->key);
	return SPS_OK;
}

/* Check --set/--unset before any input is read: on a blank header. */
static void
add_edit(struct options *opt, char *arg, int is_set)
{
	struct sps_header scratch;
	struct edit *e = &opt->edits[opt->nedits++];
	char *eq;

	e->key = arg;
	e->value = NULL;
	if (is_set) {
		if ((eq = strchr(arg, '=')) == NULL)
			usage_error("--set %s: expected KEY=VALUE", arg);
		*eq = '\0';
		e->value = eq + 1;
	}
	if (sps_keyword_find(e->key) < 0 && (is_set ||
	    strcmp(e->key, "fchannel") != 0))
		usage_error("unknown header keyword '%s'", e->key);
	sps_header_init(&scratch);
	if (apply_edit(&scratch, e) != SPS_OK)
		usage_error("%s", sps_errmsg());
	sps_header_free(&scratch);
}

static void
parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option fixed[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "set", required_argument, NULL, OPT_SET },
		{ "unset", required_argument, NULL, OPT_UNSET },
		{ "devices", no_argument, NULL, OPT_DEVICES },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
	};
	struct option longopts[sizeof(fixed) / sizeof(fixed[0]) +
	    NVALUE_OPTIONS + 1];
	int nfixed = sizeof(fixed) / sizeof(fixed[0]), c, i;

	memset(longopts, 0, sizeof(longopts));
	memcpy(longopts, fixed, sizeof(fixed));
	for (i = 0; i < NVALUE_OPTIONS; i++) {
		longopts[nfixed + i].name = value_options[i].name;
		longopts[nfixed + i].val = OPT_VALUE + i;
	}
	memset(opt, 0, sizeof(*opt));
	opt->values = calloc((size_t)argc, sizeof(*opt->values));
	opt->edits = calloc((size_t)argc, sizeof(*opt->edits));
	if (opt->values == NULL || opt->edits == NULL)
		err(1, NULL);
	while ((c = getopt_long(argc, argv, "ho:q", longopts, NULL)) != -1) {
		if (c >= OPT_VALUE) {
			opt->values[opt->nvalues++] =
			    value_options[c - OPT_VALUE].value;
			continue;
		}
		switch (c) {
		case OPT_JSON:
			opt->json = 1;
			break;
		case OPT_SET:
		case OPT_UNSET:
			add_edit(opt, optarg, c == OPT_SET);
			break;
		case OPT_DEVICES:
			opt->devices = 1;
			break;
		case OPT_VERSION:
			cli_version();
		case 'o':
			opt->output = optarg;
			break;
		case 'q':
			opt->quiet = 1;
			break;
		case 'h':
			printf("%s%s", usage_text, values_text);
			exit(0);
		default:
			fputs(usage_text, stderr);
			exit(2);
		}
	}
	if (argc - optind > 1)
		usage_error("one input file at most (got '%s' too)",
		    argv[optind + 1]);
	if (optind < argc && strcmp(argv[optind], "-") != 0)
		opt->input = argv[optind];
	else if (!opt->devices && isatty(STDIN_FILENO))
		usage_error("%s", "no input: give a file, or data on a pipe");
	if (opt->devices && (optind < argc || opt->json || opt->nvalues > 0 ||
	    opt->nedits > 0 || opt->output != NULL))
		usage_error("%s", "--devices takes no other option or file");
	if (opt->nedits > 0 && (opt->json || opt->nvalues > 0))
		usage_error("%s", "--set/--unset write data: no --json or "
		    "single values with them");
	if (opt->json && opt->nvalues > 0)
		usage_error("%s", "--json or single values, not both");
	if (opt->output != NULL && opt->nedits == 0)
		usage_error("%s", "-o is for --set/--unset output");
}

static int
list_devices(void)
{
	struct sps_device dev[MAX_DEVICES];
	int i, n;

	cli_check(sps_device_list(dev, MAX_DEVICES, &n), NULL);
	for (i = 0; i < n && i < MAX_DEVICES; i++)
		printf("%d: %s, compute capability %d.%d, %.1f GiB, %d SMs, "
		    "%.0f MHz, PCI %04x:%02x:%02x\n", dev[i].index, dev[i].name,
		    dev[i].major, dev[i].minor,
		    dev[i].memory / (1024.0 * 1024 * 1024),
		    dev[i].multiprocessors, dev[i].clock_khz / 1000.0,
		    (unsigned)dev[i].pci_domain, (unsigned)dev[i].pci_bus,
		    (unsigned)dev[i].pci_device);
	return 0;
}

static void
frequency_span(struct info *in)
{
	const struct sps_header *h = in->h;
	double first = sps_channel_freq(h, 0);
	double last = sps_channel_freq(h, h->nchans - 1);

	in->flow = fmin(first, last);
	in->fhigh = fmax(first, last);
	if (h->nfchannel > 0)
		in->bandwidth = h->nchans > 1 ? (in->fhigh - in->flow) *
		    h->nchans / (h->nchans - 1) : 0;
	else
		in->bandwidth = fabs(h->foff) * h->nchans;
}

/* Read the input to its end when the reader cannot know its length. */
static void
gather(struct sps_reader *r, struct info *in)
{
	memset(in, 0, sizeof(*in));
	in->h = &r->hdr;
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
		in->nsamples = r->nsamples;
	else
		cli_check(sps_passthrough(r, NULL, &in->nsamples), NULL);
	in->data_bytes = sps_data_bytes(&r->hdr, in->nsamples);
	/* a DM-time stream's samples are its base samples, which its header
	 * states when sps-dedisperse knew them; its blocks also hold block
	 * headers and scrunched trials, so the byte count cannot tell */
	if (r->hdr.sps_dmtime != 0 && sps_header_has(&r->hdr, "nsamples"))
		in->nsamples = (uint64_t)r->hdr.nsamples;
	else if (r->hdr.sps_dmtime != 0 && r->hdr.ndms > 0)
		in->nsamples /= (uint64_t)r->hdr.ndms;
	frequency_span(in);
}

/* The shortest text that reads back as exactly x. */
static void
exact_text(double x, char *buf, size_t len)
{
	int digits;

	for (digits = 15; digits < 17; digits++) {
		snprintf(buf, len, "%.*g", digits, x);
		if (strtod(buf, NULL) == x)
			return;
	}
	snprintf(buf, len, "%.17g", x);
}

static const char *
frame_name(const struct sps_header *h)
{
	if (h->pulsarcentric)
		return "pulsarcentric";
	return h->barycentric ? "barycentric" : "topocentric";
}

static void
telescope_text(const struct sps_header *h, char *buf, size_t len)
{
	const char *name = sps_telescope_name(h->telescope_id);

	if (sps_header_has(h, "telescope_id") && name != NULL)
		snprintf(buf, len, "%s", name);
	else if (sps_header_has(h, "telescope"))
		snprintf(buf, len, "%s", h->telescope);
	else if (sps_header_has(h, "telescope_id"))
		snprintf(buf, len, "unknown (telescope_id %d)",
		    h->telescope_id);
	else
		snprintf(buf, len, "unknown");
}

static void
machine_text(const struct sps_header *h, char *buf, size_t len)
{
	const char *name = sps_machine_name(h->machine_id);

	if (!sps_header_has(h, "machine_id"))
		snprintf(buf, len, "unknown");
	else if (name != NULL)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "unknown (machine_id %d)", h->machine_id);
}

static void
datatype_text(const struct sps_header *h, char *buf, size_t len)
{
	const char *name = sps_data_type_name(h->data_type);

	if (name != NULL)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "unknown (data_type %d)", h->data_type);
}

/* Civil date of an MJD (Fliegel and Van Flandern 1968); 0 if absurd. */
static int
mjd_date(double mjd, int *year, int *month, int *day)
{
	long l, n, i, j;

	if (!isfinite(mjd) || mjd < -678000 || mjd > 3e6)
		return 0;
	l = (long)floor(mjd) + 2400001 + 68569;
	n = 4 * l / 146097;
	l -= (146097 * n + 3) / 4;
	i = 4000 * (l + 1) / 1461001;
	l = l - 1461 * i / 4 + 31;
	j = 80 * l / 2447;
	*day = (int)(l - 2447 * j / 80);
	l = j / 11;
	*month = (int)(j + 2 - 12 * l);
	*year = (int)(100 * (n - 49) + i + l);
	return 1;
}

static void
date_text(double mjd, char *buf, size_t len)
{
	int y, m, d;

	if (mjd_date(mjd, &y, &m, &d))
		snprintf(buf, len, "%04d/%02d/%02d", y, m, d);
	else
		snprintf(buf, len, "?");
}

static void
utstart_text(double mjd, char *buf, size_t len)
{
	double s;

	if (!isfinite(mjd)) {
		snprintf(buf, len, "?");
		return;
	}
	/* to whole microseconds first, so 0.25 d is 06:00:00, not 05:59:59 */
	s = floor(rint((mjd - floor(mjd)) * 86400e6) / 1e6);
	if (s >= 86400)
		s = 86399;
	snprintf(buf, len, "%02d:%02d:%02d", (int)(s / 3600),
	    (int)fmod(s / 60, 60), (int)fmod(s, 60));
}

/* hhmmss.s (or ddmmss.s) packed into a double, split and rounded to
 * tenths of a second with the carries done. */
static void
sexagesimal(double packed, int *units, int *minutes, double *seconds)
{
	double a = fabs(packed);

	*units = (int)(a / 10000);
	*minutes = (int)((a - *units * 10000.0) / 100);
	*seconds = rint((a - *units * 10000.0 - *minutes * 100.0) * 10) / 10;
	if (*seconds >= 60) {
		*seconds -= 60;
		(*minutes)++;
	}
	if (*minutes >= 60) {
		*minutes -= 60;
		(*units)++;
	}
}

static void
angle_text(double packed, int is_dec, char *buf, size_t len)
{
	double s;
	int u, m;

	if (!isfinite(packed)) {
		snprintf(buf, len, "?");
		return;
	}
	sexagesimal(packed, &u, &m, &s);
	snprintf(buf, len, "%s%02d:%02d:%04.1f", !is_dec ? "" :
	    packed < 0 ? "-" : "+", u, m, s);
}

static double
angle_degrees(double packed, int is_dec)
{
	double a = fabs(packed), u, m;

	u = floor(a / 10000);
	m = floor((a - u * 10000) / 100);
	a = u + m / 60 + (a - u * 10000 - m * 100) / 3600;
	return is_dec ? copysign(a, packed) : 15 * a;
}

static void
print_frequencies(const struct sps_header *h)
{
	int c;

	for (c = 0; c < h->nchans; c++)
		printf("%.12g\n", sps_channel_freq(h, c));
}

/* One value as text; V_FREQUENCIES is printed by print_frequencies. */
static void
value_text(const struct info *in, enum value v, char *buf, size_t len)
{
	const struct sps_header *h = in->h;

	switch (v) {
	case V_TELESCOPE:	telescope_text(h, buf, len); break;
	case V_MACHINE:		machine_text(h, buf, len); break;
	case V_SOURCE_NAME:	snprintf(buf, len, "%s", h->source_name); break;
	case V_RAWDATAFILE:	snprintf(buf, len, "%s", h->rawdatafile); break;
	case V_DATATYPE:	datatype_text(h, buf, len); break;
	case V_DATA_TYPE:	snprintf(buf, len, "%d", h->data_type); break;
	case V_FRAME:		snprintf(buf, len, "%s", frame_name(h)); break;
	case V_BARYCENTRIC:	snprintf(buf, len, "%d", h->barycentric); break;
	case V_PULSARCENTRIC:	snprintf(buf, len, "%d", h->pulsarcentric);
		break;
	case V_HEADERSIZE:	snprintf(buf, len, "%zu", h->length); break;
	case V_DATASIZE:	snprintf(buf, len, "%llu",
		    (unsigned long long)in->data_bytes); break;
	case V_NSAMPLES:	snprintf(buf, len, "%llu",
		    (unsigned long long)in->nsamples); break;
	case V_TOBS:		snprintf(buf, len, "%.15g",
		    (double)in->nsamples * h->tsamp); break;
	case V_FCH1:		exact_text(h->fch1, buf, len); break;
	case V_FOFF:		exact_text(h->foff, buf, len); break;
	case V_BANDWIDTH:	snprintf(buf, len, "%.15g", in->bandwidth);
		break;
	case V_FMID:		snprintf(buf, len, "%.15g",
		    (in->flow + in->fhigh) / 2); break;
	case V_FLOW:		snprintf(buf, len, "%.15g", in->flow); break;
	case V_FHIGH:		snprintf(buf, len, "%.15g", in->fhigh); break;
	case V_NCHANS:		snprintf(buf, len, "%d", h->nchans); break;
	case V_TSTART:		snprintf(buf, len, "%.12f", h->tstart); break;
	case V_MJD:		snprintf(buf, len, "%.0f", floor(h->tstart));
		break;
	case V_DATE:		date_text(h->tstart, buf, len); break;
	case V_UTSTART:		utstart_text(h->tstart, buf, len); break;
	case V_TSAMP:		snprintf(buf, len, "%.15g", h->tsamp * 1e6);
		break;
	case V_NBITS:		snprintf(buf, len, "%d", h->nbits); break;
	case V_NIFS:		snprintf(buf, len, "%d", h->nifs); break;
	case V_IBEAM:		snprintf(buf, len, "%d", h->ibeam); break;
	case V_NBEAMS:		snprintf(buf, len, "%d", h->nbeams); break;
	case V_REFDM:		exact_text(h->refdm, buf, len); break;
	case V_PERIOD:		exact_text(h->period, buf, len); break;
	case V_NBINS:		snprintf(buf, len, "%d", h->nbins); break;
	case V_SIGNED:		snprintf(buf, len, "%d", h->sign); break;
	case V_AZ_START:	exact_text(h->az_start, buf, len); break;
	case V_ZA_START:	exact_text(h->za_start, buf, len); break;
	case V_SRC_RAJ:		angle_text(h->src_raj, 0, buf, len); break;
	case V_SRC_DEJ:		angle_text(h->src_dej, 1, buf, len); break;
	case V_RA_DEG:		snprintf(buf, len, "%.15g",
		    angle_degrees(h->src_raj, 0)); break;
	case V_DEC_DEG:		snprintf(buf, len, "%.15g",
		    angle_degrees(h->src_dej, 1)); break;
	case V_FREQUENCIES:	buf[0] = '\0'; break;
	}
}

static void
print_values(const struct info *in, const struct options *opt)
{
	char buf[2 * SPS_STRING_MAX];
	int i;

	for (i = 0; i < opt->nvalues; i++) {
		if (opt->values[i] == V_FREQUENCIES) {
			print_frequencies(in->h);
			continue;
		}
		value_text(in, opt->values[i], buf, sizeof(buf));
		puts(buf);
	}
}

/* The table: one "label : value" line, and the keywords it showed. */
struct table {
	const struct info	*in;
	uint64_t		 shown;
};

static void
row(const char *label, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
row(const char *label, const char *fmt, ...)
{
	va_list ap;

	printf("%-*s: ", LABEL_WIDTH, label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Show value v under label when keyword (NULL: always) is present. */
static void
row_value(struct table *t, const char *label, const char *keyword,
    enum value v)
{
	char buf[2 * SPS_STRING_MAX];
	int k;

	if (keyword != NULL) {
		if (!sps_header_has(t->in->h, keyword))
			return;
		k = sps_keyword_find(keyword);
		t->shown |= (uint64_t)1 << k;
	}
	value_text(t->in, v, buf, sizeof(buf));
	row(label, "%s", buf);
}

static void
mark_shown(struct table *t, const char *keyword)
{
	int k = sps_keyword_find(keyword);

	if (k >= 0)
		t->shown |= (uint64_t)1 << k;
}

static void
print_identity(struct table *t)
{
	char type[64], buf[2 * SPS_STRING_MAX];
	const struct sps_header *h = t->in->h;

	if (h->length > 0)	/* 0: not a SIGPROC file (PSRFITS) */
		row_value(t, "Header size (bytes)", NULL, V_HEADERSIZE);
	row_value(t, "Data size (bytes)", NULL, V_DATASIZE);
	datatype_text(h, type, sizeof(type));
	row("Data type", "%s (%s)", type, frame_name(h));
	telescope_text(h, buf, sizeof(buf));
	row("Telescope", "%s", buf);
	machine_text(h, buf, sizeof(buf));
	row("Datataking Machine", "%s", buf);
	mark_shown(t, "data_type");
	mark_shown(t, "barycentric");
	mark_shown(t, "pulsarcentric");
	mark_shown(t, "telescope_id");
	mark_shown(t, "machine_id");
	if (sps_telescope_name(h->telescope_id) == NULL ||
	    !sps_header_has(h, "telescope_id"))
		mark_shown(t, "telescope");
	row_value(t, "Source Name", "source_name", V_SOURCE_NAME);
	row_value(t, "Raw data file", "rawdatafile", V_RAWDATAFILE);
	/* as SIGPROC: 0 (and -1 for AZ/ZA) mean not known */
	if (h->src_raj != 0)
		row_value(t, "Source RA (J2000)", "src_raj", V_SRC_RAJ);
	if (h->src_dej != 0)
		row_value(t, "Source DEC (J2000)", "src_dej", V_SRC_DEJ);
	if (h->az_start != 0 && h->az_start != -1)
		row_value(t, "Start AZ (deg)", "az_start", V_AZ_START);
	if (h->za_start != 0 && h->za_start != -1)
		row_value(t, "Start ZA (deg)", "za_start", V_ZA_START);
	mark_shown(t, "src_raj");
	mark_shown(t, "src_dej");
	mark_shown(t, "az_start");
	mark_shown(t, "za_start");
}

static void
print_frequency(struct table *t)
{
	const struct sps_header *h = t->in->h;

	if (h->ndms > 0)
		row("Number of DM trials", "%d (%.6g to %.6g pc/cc)", h->ndms,
		    h->dms[0], h->dms[h->ndms - 1]);
	if (sps_is_timeseries(h)) {
		row_value(t, "Reference DM (pc/cc)", NULL, V_REFDM);
		row_value(t, "Reference frequency    (MHz)", NULL, V_FCH1);
		mark_shown(t, "refdm");
		mark_shown(t, "fch1");
		row_value(t, "Channel bandwidth      (MHz)", "foff", V_FOFF);
		row_value(t, "Number of channels", "nchans", V_NCHANS);
		return;
	}
	if (h->nfchannel > 0) {
		row_value(t, "Highest frequency channel (MHz)", NULL, V_FHIGH);
		row_value(t, "Lowest frequency channel  (MHz)", NULL, V_FLOW);
	} else {
		row_value(t, "Frequency of channel 1 (MHz)", "fch1", V_FCH1);
		row_value(t, "Channel bandwidth      (MHz)", "foff", V_FOFF);
	}
	row_value(t, "Number of channels", "nchans", V_NCHANS);
	row_value(t, "Number of beams", "nbeams", V_NBEAMS);
	row_value(t, "Beam number", "ibeam", V_IBEAM);
	row_value(t, "Reference DM (pc/cc)", "refdm", V_REFDM);
	row_value(t, "Number of phase bins", "nbins", V_NBINS);
	row_value(t, "Folding period  (s)", "period", V_PERIOD);
}

static void
print_time(struct table *t)
{
	const struct sps_header *h = t->in->h;
	double length = (double)t->in->nsamples * h->tsamp;
	const char *unit = "(seconds)";
	char buf[32];

	if (sps_header_has(h, "signed") && h->sign != 0)
		row("Signedness of 8-bit numbers", "%s (signed = %d)",
		    h->sign > 0 ? "UNSIGNED" : "SIGNED", h->sign);
	mark_shown(t, "signed");
	if (sps_header_has(h, "tstart")) {
		row_value(t, "Time stamp of first sample (MJD)", "tstart",
		    V_TSTART);
		date_text(h->tstart, buf, sizeof(buf));
		row("Gregorian date (YYYY/MM/DD)", "%s", buf);
	}
	row_value(t, "Sample time (us)", "tsamp", V_TSAMP);
	row_value(t, "Number of samples", NULL, V_NSAMPLES);
	if (length > 60) {
		length /= 60;
		unit = "(minutes)";
		if (length > 60) {
			length /= 60;
			unit = "(hours)";
			if (length > 24) {
				length /= 24;
				unit = "(days)";
			}
		}
	}
	snprintf(buf, sizeof(buf), "Observation length %s", unit);
	row(buf, "%.6g", length);
	row_value(t, "Number of bits per sample", "nbits", V_NBITS);
	row_value(t, "Number of IFs", "nifs", V_NIFS);
}

/* Keywords the table has no line of its own for, by their names. */
static void
print_others(struct table *t)
{
	char buf[2 * SPS_STRING_MAX];
	int k;

	for (k = 0; k < sps_nkeywords; k++) {
		if (!(t->in->h->present >> k & 1) || (t->shown >> k & 1))
			continue;
		if (sps_keywords[k].type == SPS_KW_DOUBLE)
			exact_text(*(const double *)((const char *)t->in->h +
			    sps_keywords[k].offset), buf, sizeof(buf));
		else
			sps_header_format(t->in->h, k, buf, sizeof(buf));
		row(sps_keywords[k].name, "%s", buf);
	}
}

static void
print_table(const struct info *in)
{
	struct table t = { in, 0 };

	print_identity(&t);
	print_frequency(&t);
	print_time(&t);
	print_others(&t);
}

/* A JSON string: quotes, backslashes and every byte outside printable
 * ASCII escaped, so that the output is valid whatever the header holds. */
static void
json_string(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static void
json_number(double x)
{
	char buf[32];

	if (isfinite(x)) {
		exact_text(x, buf, sizeof(buf));
		fputs(buf, stdout);
	} else
		fputs("null", stdout);
}

/* Derived values: 15 digits hide the rounding of the arithmetic. */
static void
json_derived(double x)
{
	if (isfinite(x))
		printf("%.15g", x);
	else
		fputs("null", stdout);
}

static void
json_keyword(const struct sps_header *h, int k)
{
	const char *field = (const char *)h + sps_keywords[k].offset;
	char buf[2 * SPS_STRING_MAX];

	switch (sps_keywords[k].type) {
	case SPS_KW_STRING:
		json_string(field);
		break;
	case SPS_KW_DOUBLE:
		json_number(*(const double *)field);
		break;
	default:
		sps_header_format(h, k, buf, sizeof(buf));
		fputs(buf, stdout);
		break;
	}
}

/* The DM_TABLE of a DM-time stream: trial DMs and time-scrunch factors. */
static void
json_dm_table(const struct sps_header *h, const char *sep)
{
	int i;

	printf("%s\n    \"dms\": [", sep);
	for (i = 0; i < h->ndms; i++) {
		printf("%s", i > 0 ? ", " : "");
		json_number(h->dms[i]);
	}
	printf("],\n    \"scrunch\": [");
	for (i = 0; i < h->ndms; i++)
		printf("%s%d", i > 0 ? ", " : "", h->scrunch != NULL ?
		    h->scrunch[i] : 1);
	printf("]");
}

static void
json_header(const struct sps_header *h)
{
	const char *sep = "";
	int c, k;

	printf("  \"header\": {");
	for (k = 0; k < sps_nkeywords; k++) {
		if (!(h->present >> k & 1))
			continue;
		printf("%s\n    \"%s\": ", sep, sps_keywords[k].name);
		json_keyword(h, k);
		sep = ",";
	}
	if (h->nfchannel > 0) {
		printf("%s\n    \"fchannel\": [", sep);
		for (c = 0; c < h->nfchannel; c++) {
			printf("%s", c > 0 ? ", " : "");
			json_number(h->fchannel[c]);
		}
		printf("]");
		sep = ",";
	}
	if (h->ndms > 0)
		json_dm_table(h, sep);
	printf("\n  },\n");
}

static void
json_name(const char *key, const char *name, const char *last)
{
	printf("  \"%s\": ", key);
	if (name != NULL)
		json_string(name);
	else
		fputs("null", stdout);
	printf("%s\n", last);
}

static void
print_json(const struct info *in)
{
	const struct sps_header *h = in->h;

	printf("{\n");
	json_header(h);
	printf("  \"header_size\": %zu,\n", h->length);
	printf("  \"data_size\": %llu,\n", (unsigned long long)in->data_bytes);
	printf("  \"nsamples\": %llu,\n", (unsigned long long)in->nsamples);
	printf("  \"tobs\": ");
	json_derived((double)in->nsamples * h->tsamp);
	printf(",\n  \"freq_low\": ");
	json_derived(in->flow);
	printf(",\n  \"freq_high\": ");
	json_derived(in->fhigh);
	printf(",\n  \"fmid\": ");
	json_derived((in->flow + in->fhigh) / 2);
	printf(",\n  \"bandwidth\": ");
	json_derived(in->bandwidth);
	printf(",\n  \"frame\": \"%s\",\n", frame_name(h));
	json_name("telescope_name", sps_header_has(h, "telescope_id") ?
	    sps_telescope_name(h->telescope_id) : NULL, ",");
	json_name("machine_name", sps_header_has(h, "machine_id") ?
	    sps_machine_name(h->machine_id) : NULL, ",");
	json_name("data_type_name", sps_data_type_name(h->data_type), "");
	printf("}\n");
}

static void
show(struct sps_reader *r, const struct options *opt)
{
	struct info in;

	gather(r, &in);
	if (opt->json)
		print_json(&in);
	else if (opt->nvalues > 0)
		print_values(&in, opt);
	else
		print_table(&in);
}

/* Exit 1 after removing the unfinished output. */
static void
edit_fail(struct sps_writer *w)
{
	char detail[512];

	snprintf(detail, sizeof(detail), "%s", sps_errmsg());
	sps_writer_abort(w);
	cli_fail("%s", detail);
}

/* The edited header must read the same bytes as whole spectra. */
static enum sps_err
check_layout(const struct sps_header *edited, uint64_t bytes)
{
	uint64_t bits = (uint64_t)sps_spectrum_values(edited) *
	    (uint64_t)edited->nbits;

	if (sps_data_bytes(edited, bytes * 8 / bits) == bytes)
		return SPS_OK;
	return sps_fail(SPS_EVALUE, "edited header: %llu data bytes are not "
	    "a whole number of its %llu-bit spectra",
	    (unsigned long long)bytes, (unsigned long long)bits);
}

static void
edited_header(const struct sps_reader *r, const struct options *opt,
    struct sps_header *h)
{
	const struct sps_header *in = &r->hdr;
	int i;

	if (in->length == 0)
		cli_fail("%s: not a SIGPROC file: only SIGPROC headers can be "
		    "edited", r->name);
	cli_check(sps_header_copy(h, in), NULL);
	for (i = 0; i < opt->nedits; i++)
		cli_check(apply_edit(h, &opt->edits[i]), "--set");
	cli_check(sps_header_check(h), "edited header");
	if (!sps_spectrum_whole_bytes(in) && (h->nbits != in->nbits ||
	    sps_spectrum_values(h) != sps_spectrum_values(in)))
		cli_fail("edited header: spectra of %zu %d-bit values are not "
		    "whole bytes, so nbits, nchans and nifs must stay",
		    sps_spectrum_values(in), in->nbits);
	if (r->nsamples != SPS_NSAMPLES_UNKNOWN)
		cli_check(check_layout(h, sps_data_bytes(in, r->nsamples)), NULL);
}

static void
edit(struct sps_reader *r, const struct options *opt)
{
	struct sps_header h;
	struct sps_writer w;
	uint64_t n = 0;

	edited_header(r, opt, &h);
	if (opt->output == NULL && isatty(STDOUT_FILENO))
		cli_fail("not writing binary data to a terminal (use -o FILE "
		    "or a pipe)");
	cli_check(sps_writer_open(&w, opt->output), NULL);
	if (sps_writer_header(&w, &h) != SPS_OK ||
	    sps_passthrough(r, &w, &n) != SPS_OK ||
	    check_layout(&h, sps_data_bytes(&r->hdr, n)) != SPS_OK)
		edit_fail(&w);
	cli_check(sps_writer_close(&w), NULL);
	if (!opt->quiet)
		fprintf(stderr, "sps-header: wrote %llu spectra under the "
		    "edited header to %s\n", (unsigned long long)n,
		    opt->output != NULL ? opt->output : "stdout");
	sps_header_free(&h);
}

int
main(int argc, char **argv)
{
	struct options opt;
	struct sps_reader r;

	cli_init("sps-header", argv);
	parse_options(argc, argv, &opt);
	if (opt.devices)
		return list_devices();
	cli_check(sps_reader_open(&r, opt.input), NULL);
	if (opt.nedits > 0)
		edit(&r, &opt);
	else
		show(&r, &opt);
	sps_reader_close(&r);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(1, "stdout");
	free(opt.values);
	free(opt.edits);
	return 0;
}

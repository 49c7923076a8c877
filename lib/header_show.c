/* header_show.c: the SIGPROC-style table, single values and JSON of a
 * header (header_show.h). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "header_show.h"

#define LABEL_WIDTH	33		/* SIGPROC's label column */

const struct sps_header_value_name sps_header_value_names[] = {
	{ "telescope", SPS_VALUE_TELESCOPE },
	{ "machine", SPS_VALUE_MACHINE },
	{ "source_name", SPS_VALUE_SOURCE_NAME },
	{ "rawdatafile", SPS_VALUE_RAWDATAFILE },
	{ "datatype", SPS_VALUE_DATATYPE },
	{ "data_type", SPS_VALUE_DATA_TYPE },
	{ "frame", SPS_VALUE_FRAME },
	{ "barycentric", SPS_VALUE_BARYCENTRIC },
	{ "pulsarcentric", SPS_VALUE_PULSARCENTRIC },
	{ "headersize", SPS_VALUE_HEADERSIZE },
	{ "datasize", SPS_VALUE_DATASIZE },
	{ "nsamples", SPS_VALUE_NSAMPLES },
	{ "tobs", SPS_VALUE_TOBS },
	{ "fch1", SPS_VALUE_FCH1 },
	{ "foff", SPS_VALUE_FOFF },
	{ "bandwidth", SPS_VALUE_BANDWIDTH },
	{ "fmid", SPS_VALUE_FMID },
	{ "flow", SPS_VALUE_FLOW },
	{ "fhigh", SPS_VALUE_FHIGH },
	{ "frequencies", SPS_VALUE_FREQUENCIES },
	{ "nchans", SPS_VALUE_NCHANS },
	{ "tstart", SPS_VALUE_TSTART },
	{ "mjd", SPS_VALUE_MJD },
	{ "date", SPS_VALUE_DATE },
	{ "utstart", SPS_VALUE_UTSTART },
	{ "tsamp", SPS_VALUE_TSAMP },
	{ "nbits", SPS_VALUE_NBITS },
	{ "nifs", SPS_VALUE_NIFS },
	{ "ibeam", SPS_VALUE_IBEAM },
	{ "nbeams", SPS_VALUE_NBEAMS },
	{ "nbeam", SPS_VALUE_NBEAMS },
	{ "refdm", SPS_VALUE_REFDM },
	{ "dm", SPS_VALUE_REFDM },
	{ "period", SPS_VALUE_PERIOD },
	{ "nbins", SPS_VALUE_NBINS },
	{ "signed", SPS_VALUE_SIGNED },
	{ "az_start", SPS_VALUE_AZ_START },
	{ "za_start", SPS_VALUE_ZA_START },
	{ "src_raj", SPS_VALUE_SRC_RAJ },
	{ "src_dej", SPS_VALUE_SRC_DEJ },
	{ "ra_deg", SPS_VALUE_RA_DEG },
	{ "dec_deg", SPS_VALUE_DEC_DEG },
};
const int sps_header_nvalue_names = sizeof(sps_header_value_names) /
    sizeof(sps_header_value_names[0]);

static void
frequency_span(struct sps_header_derived *d)
{
	const struct sps_header *h = d->h;
	double first = sps_channel_freq(h, 0);
	double last = sps_channel_freq(h, h->nchans - 1);

	d->flow = fmin(first, last);
	d->fhigh = fmax(first, last);
	if (h->nfchannel > 0)
		d->bandwidth = h->nchans > 1 ? (d->fhigh - d->flow) *
		    h->nchans / (h->nchans - 1) : 0;
	else
		d->bandwidth = fabs(h->foff) * h->nchans;
}

void
sps_header_derive(struct sps_header_derived *d, const struct sps_header *h,
    uint64_t nspectra)
{
	memset(d, 0, sizeof(*d));
	d->h = h;
	d->nsamples = nspectra;
	d->data_bytes = sps_data_bytes(h, nspectra);
	/* a DM-time stream's samples are its base samples, which its header
	 * states when sps-dedisperse knew them; its blocks also hold block
	 * headers and scrunched trials, so the byte count cannot tell */
	if (h->sps_dmtime != 0 && sps_header_has(h, "nsamples"))
		d->nsamples = (uint64_t)h->nsamples;
	else if (h->sps_dmtime != 0 && h->ndms > 0)
		d->nsamples /= (uint64_t)h->ndms;
	frequency_span(d);
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

/* The recording's own name if it has one, else the code's. */
static const char *
own_name(const char *own, const char *code_name)
{
	return own != NULL && own[0] != '\0' ? own : code_name;
}

static void
telescope_text(const struct sps_header_derived *d, char *buf, size_t len)
{
	const struct sps_header *h = d->h;
	const char *name = sps_telescope_name(h->telescope_id);

	if (own_name(d->telescope, NULL) != NULL)
		snprintf(buf, len, "%s", d->telescope);
	else if (sps_header_has(h, "telescope_id") && name != NULL)
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
machine_text(const struct sps_header_derived *d, char *buf, size_t len)
{
	const struct sps_header *h = d->h;
	const char *name = sps_machine_name(h->machine_id);

	if (own_name(d->backend, NULL) != NULL)
		snprintf(buf, len, "%s", d->backend);
	else if (!sps_header_has(h, "machine_id"))
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

/* One value as text (SPS_VALUE_FREQUENCIES: none). */
static void
value_text(const struct sps_header_derived *d, enum sps_header_value v,
    char *buf, size_t len)
{
	const struct sps_header *h = d->h;

	switch (v) {
	case SPS_VALUE_TELESCOPE:
		telescope_text(d, buf, len);
		break;
	case SPS_VALUE_MACHINE:
		machine_text(d, buf, len);
		break;
	case SPS_VALUE_SOURCE_NAME:
		snprintf(buf, len, "%s", h->source_name);
		break;
	case SPS_VALUE_RAWDATAFILE:
		snprintf(buf, len, "%s", h->rawdatafile);
		break;
	case SPS_VALUE_DATATYPE:
		datatype_text(h, buf, len);
		break;
	case SPS_VALUE_DATA_TYPE:
		snprintf(buf, len, "%d", h->data_type);
		break;
	case SPS_VALUE_FRAME:
		snprintf(buf, len, "%s", frame_name(h));
		break;
	case SPS_VALUE_BARYCENTRIC:
		snprintf(buf, len, "%d", h->barycentric);
		break;
	case SPS_VALUE_PULSARCENTRIC:
		snprintf(buf, len, "%d", h->pulsarcentric);
		break;
	case SPS_VALUE_HEADERSIZE:
		snprintf(buf, len, "%zu", h->length);
		break;
	case SPS_VALUE_DATASIZE:
		snprintf(buf, len, "%llu", (unsigned long long)d->data_bytes);
		break;
	case SPS_VALUE_NSAMPLES:
		snprintf(buf, len, "%llu", (unsigned long long)d->nsamples);
		break;
	case SPS_VALUE_TOBS:
		snprintf(buf, len, "%.15g", (double)d->nsamples * h->tsamp);
		break;
	case SPS_VALUE_FCH1:
		exact_text(h->fch1, buf, len);
		break;
	case SPS_VALUE_FOFF:
		exact_text(h->foff, buf, len);
		break;
	case SPS_VALUE_BANDWIDTH:
		snprintf(buf, len, "%.15g", d->bandwidth);
		break;
	case SPS_VALUE_FMID:
		snprintf(buf, len, "%.15g", (d->flow + d->fhigh) / 2);
		break;
	case SPS_VALUE_FLOW:
		snprintf(buf, len, "%.15g", d->flow);
		break;
	case SPS_VALUE_FHIGH:
		snprintf(buf, len, "%.15g", d->fhigh);
		break;
	case SPS_VALUE_NCHANS:
		snprintf(buf, len, "%d", h->nchans);
		break;
	case SPS_VALUE_TSTART:
		snprintf(buf, len, "%.12f", h->tstart);
		break;
	case SPS_VALUE_MJD:
		snprintf(buf, len, "%.0f", floor(h->tstart));
		break;
	case SPS_VALUE_DATE:
		date_text(h->tstart, buf, len);
		break;
	case SPS_VALUE_UTSTART:
		utstart_text(h->tstart, buf, len);
		break;
	case SPS_VALUE_TSAMP:
		snprintf(buf, len, "%.15g", h->tsamp * 1e6);
		break;
	case SPS_VALUE_NBITS:
		snprintf(buf, len, "%d", h->nbits);
		break;
	case SPS_VALUE_NIFS:
		snprintf(buf, len, "%d", h->nifs);
		break;
	case SPS_VALUE_IBEAM:
		snprintf(buf, len, "%d", h->ibeam);
		break;
	case SPS_VALUE_NBEAMS:
		snprintf(buf, len, "%d", h->nbeams);
		break;
	case SPS_VALUE_REFDM:
		exact_text(h->refdm, buf, len);
		break;
	case SPS_VALUE_PERIOD:
		exact_text(h->period, buf, len);
		break;
	case SPS_VALUE_NBINS:
		snprintf(buf, len, "%d", h->nbins);
		break;
	case SPS_VALUE_SIGNED:
		snprintf(buf, len, "%d", h->sign);
		break;
	case SPS_VALUE_AZ_START:
		exact_text(h->az_start, buf, len);
		break;
	case SPS_VALUE_ZA_START:
		exact_text(h->za_start, buf, len);
		break;
	case SPS_VALUE_SRC_RAJ:
		angle_text(h->src_raj, 0, buf, len);
		break;
	case SPS_VALUE_SRC_DEJ:
		angle_text(h->src_dej, 1, buf, len);
		break;
	case SPS_VALUE_RA_DEG:
		snprintf(buf, len, "%.15g", angle_degrees(h->src_raj, 0));
		break;
	case SPS_VALUE_DEC_DEG:
		snprintf(buf, len, "%.15g", angle_degrees(h->src_dej, 1));
		break;
	case SPS_VALUE_FREQUENCIES:
		buf[0] = '\0';
		break;
	}
}

void
sps_header_show_value(FILE *out, const struct sps_header_derived *d,
    enum sps_header_value v)
{
	char buf[2 * SPS_STRING_MAX];
	int c;

	if (v == SPS_VALUE_FREQUENCIES) {
		for (c = 0; c < d->h->nchans; c++)
			fprintf(out, "%.12g\n", sps_channel_freq(d->h, c));
		return;
	}
	value_text(d, v, buf, sizeof(buf));
	fputs(buf, out);
	putc('\n', out);
}

/* The table: one "label : value" line, and the keywords it showed. */
struct table {
	FILE				*out;
	const struct sps_header_derived	*d;
	uint64_t			 shown;
};

static void
row(const struct table *t, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
row(const struct table *t, const char *label, const char *fmt, ...)
{
	va_list ap;

	fprintf(t->out, "%-*s: ", LABEL_WIDTH, label);
	va_start(ap, fmt);
	vfprintf(t->out, fmt, ap);
	va_end(ap);
	putc('\n', t->out);
}

/* Show value v under label when keyword (NULL: always) is present. */
static void
row_value(struct table *t, const char *label, const char *keyword,
    enum sps_header_value v)
{
	char buf[2 * SPS_STRING_MAX];
	int k;

	if (keyword != NULL) {
		if (!sps_header_has(t->d->h, keyword))
			return;
		k = sps_keyword_find(keyword);
		t->shown |= (uint64_t)1 << k;
	}
	value_text(t->d, v, buf, sizeof(buf));
	row(t, label, "%s", buf);
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
	const struct sps_header *h = t->d->h;

	if (h->length > 0)	/* 0: not a SIGPROC file (PSRFITS) */
		row_value(t, "Header size (bytes)", NULL, SPS_VALUE_HEADERSIZE);
	row_value(t, "Data size (bytes)", NULL, SPS_VALUE_DATASIZE);
	if (t->d->cut_bytes > 0)
		row(t, "Bytes after the last spectrum", "%llu (ignored: a cut "
		    "recording?)", (unsigned long long)t->d->cut_bytes);
	datatype_text(h, type, sizeof(type));
	row(t, "Data type", "%s (%s)", type, frame_name(h));
	telescope_text(t->d, buf, sizeof(buf));
	row(t, "Telescope", "%s", buf);
	machine_text(t->d, buf, sizeof(buf));
	row(t, "Datataking Machine", "%s", buf);
	mark_shown(t, "data_type");
	mark_shown(t, "barycentric");
	mark_shown(t, "pulsarcentric");
	mark_shown(t, "telescope_id");
	mark_shown(t, "machine_id");
	if (sps_telescope_name(h->telescope_id) == NULL ||
	    !sps_header_has(h, "telescope_id"))
		mark_shown(t, "telescope");
	row_value(t, "Source Name", "source_name", SPS_VALUE_SOURCE_NAME);
	row_value(t, "Raw data file", "rawdatafile", SPS_VALUE_RAWDATAFILE);
	/* as SIGPROC: 0 (and -1 for AZ/ZA) mean not known */
	if (h->src_raj != 0)
		row_value(t, "Source RA (J2000)", "src_raj", SPS_VALUE_SRC_RAJ);
	if (h->src_dej != 0)
		row_value(t, "Source DEC (J2000)", "src_dej",
		    SPS_VALUE_SRC_DEJ);
	if (h->az_start != 0 && h->az_start != -1)
		row_value(t, "Start AZ (deg)", "az_start", SPS_VALUE_AZ_START);
	if (h->za_start != 0 && h->za_start != -1)
		row_value(t, "Start ZA (deg)", "za_start", SPS_VALUE_ZA_START);
	mark_shown(t, "src_raj");
	mark_shown(t, "src_dej");
	mark_shown(t, "az_start");
	mark_shown(t, "za_start");
}

static void
print_frequency(struct table *t)
{
	const struct sps_header *h = t->d->h;

	if (h->ndms > 0)
		row(t, "Number of DM trials", "%d (%.6g to %.6g pc/cc)",
		    h->ndms, h->dms[0], h->dms[h->ndms - 1]);
	if (sps_is_timeseries(h)) {
		row_value(t, "Reference DM (pc/cc)", NULL, SPS_VALUE_REFDM);
		row_value(t, "Reference frequency    (MHz)", NULL,
		    SPS_VALUE_FCH1);
		mark_shown(t, "refdm");
		mark_shown(t, "fch1");
		row_value(t, "Channel bandwidth      (MHz)", "foff",
		    SPS_VALUE_FOFF);
		row_value(t, "Number of channels", "nchans", SPS_VALUE_NCHANS);
		return;
	}
	if (h->nfchannel > 0) {
		row_value(t, "Highest frequency channel (MHz)", NULL,
		    SPS_VALUE_FHIGH);
		row_value(t, "Lowest frequency channel  (MHz)", NULL,
		    SPS_VALUE_FLOW);
	} else {
		row_value(t, "Frequency of channel 1 (MHz)", "fch1",
		    SPS_VALUE_FCH1);
		row_value(t, "Channel bandwidth      (MHz)", "foff",
		    SPS_VALUE_FOFF);
	}
	row_value(t, "Number of channels", "nchans", SPS_VALUE_NCHANS);
	row_value(t, "Number of beams", "nbeams", SPS_VALUE_NBEAMS);
	row_value(t, "Beam number", "ibeam", SPS_VALUE_IBEAM);
	row_value(t, "Reference DM (pc/cc)", "refdm", SPS_VALUE_REFDM);
	row_value(t, "Number of phase bins", "nbins", SPS_VALUE_NBINS);
	row_value(t, "Folding period  (s)", "period", SPS_VALUE_PERIOD);
}

static void
print_time(struct table *t)
{
	const struct sps_header *h = t->d->h;
	double length = (double)t->d->nsamples * h->tsamp;
	const char *unit = "(seconds)";
	char buf[32];

	if (sps_header_has(h, "signed") && h->sign != 0)
		row(t, "Signedness of 8-bit numbers", "%s (signed = %d)",
		    h->sign > 0 ? "UNSIGNED" : "SIGNED", h->sign);
	mark_shown(t, "signed");
	if (sps_header_has(h, "tstart")) {
		row_value(t, "Time stamp of first sample (MJD)", "tstart",
		    SPS_VALUE_TSTART);
		date_text(h->tstart, buf, sizeof(buf));
		row(t, "Gregorian date (YYYY/MM/DD)", "%s", buf);
	}
	row_value(t, "Sample time (us)", "tsamp", SPS_VALUE_TSAMP);
	row_value(t, "Number of samples", NULL, SPS_VALUE_NSAMPLES);
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
	row(t, buf, "%.6g", length);
	row_value(t, "Number of bits per sample", "nbits", SPS_VALUE_NBITS);
	row_value(t, "Number of IFs", "nifs", SPS_VALUE_NIFS);
}

/* Keywords the table has no line of its own for, by their names. */
static void
print_others(struct table *t)
{
	char buf[2 * SPS_STRING_MAX];
	int k;

	for (k = 0; k < sps_nkeywords; k++) {
		if (!(t->d->h->present >> k & 1) || (t->shown >> k & 1))
			continue;
		if (sps_keywords[k].type == SPS_KW_DOUBLE)
			exact_text(*(const double *)((const char *)t->d->h +
			    sps_keywords[k].offset), buf, sizeof(buf));
		else
			sps_header_format(t->d->h, k, buf, sizeof(buf));
		row(t, sps_keywords[k].name, "%s", buf);
	}
}

void
sps_header_show_table(FILE *out, const struct sps_header_derived *d)
{
	struct table t = { out, d, 0 };

	print_identity(&t);
	print_frequency(&t);
	print_time(&t);
	print_others(&t);
}

/* A JSON string: quotes, backslashes and every byte outside printable
 * ASCII escaped, so that the output is valid whatever the header holds. */
static void
json_string(FILE *out, const char *s)
{
	const unsigned char *p;

	putc('"', out);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			putc(*p, out);
	}
	putc('"', out);
}

static void
json_number(FILE *out, double x)
{
	char buf[32];

	if (isfinite(x)) {
		exact_text(x, buf, sizeof(buf));
		fputs(buf, out);
	} else
		fputs("null", out);
}

/* Derived values: 15 digits hide the rounding of the arithmetic. */
static void
json_derived(FILE *out, double x)
{
	if (isfinite(x))
		fprintf(out, "%.15g", x);
	else
		fputs("null", out);
}

static void
json_keyword(FILE *out, const struct sps_header *h, int k)
{
	const char *field = (const char *)h + sps_keywords[k].offset;
	char buf[2 * SPS_STRING_MAX];

	switch (sps_keywords[k].type) {
	case SPS_KW_STRING:
		json_string(out, field);
		break;
	case SPS_KW_DOUBLE:
		json_number(out, *(const double *)field);
		break;
	default:
		sps_header_format(h, k, buf, sizeof(buf));
		fputs(buf, out);
		break;
	}
}

/* The DM_TABLE of a DM-time stream: trial DMs and time-scrunch factors. */
static void
json_dm_table(FILE *out, const struct sps_header *h, const char *sep)
{
	int i;

	fprintf(out, "%s\n    \"dms\": [", sep);
	for (i = 0; i < h->ndms; i++) {
		fprintf(out, "%s", i > 0 ? ", " : "");
		json_number(out, h->dms[i]);
	}
	fprintf(out, "],\n    \"scrunch\": [");
	for (i = 0; i < h->ndms; i++)
		fprintf(out, "%s%d", i > 0 ? ", " : "", h->scrunch != NULL ?
		    h->scrunch[i] : 1);
	fprintf(out, "]");
}

static void
json_header(FILE *out, const struct sps_header *h)
{
	const char *sep = "";
	int c, k;

	fprintf(out, "  \"header\": {");
	for (k = 0; k < sps_nkeywords; k++) {
		if (!(h->present >> k & 1))
			continue;
		fprintf(out, "%s\n    \"%s\": ", sep, sps_keywords[k].name);
		json_keyword(out, h, k);
		sep = ",";
	}
	if (h->nfchannel > 0) {
		fprintf(out, "%s\n    \"fchannel\": [", sep);
		for (c = 0; c < h->nfchannel; c++) {
			fprintf(out, "%s", c > 0 ? ", " : "");
			json_number(out, h->fchannel[c]);
		}
		fprintf(out, "]");
		sep = ",";
	}
	if (h->ndms > 0)
		json_dm_table(out, h, sep);
	fprintf(out, "\n  },\n");
}

static void
json_name(FILE *out, const char *key, const char *name, const char *last)
{
	fprintf(out, "  \"%s\": ", key);
	if (name != NULL)
		json_string(out, name);
	else
		fputs("null", out);
	fprintf(out, "%s\n", last);
}

void
sps_header_show_json(FILE *out, const struct sps_header_derived *d)
{
	const struct sps_header *h = d->h;

	fprintf(out, "{\n");
	json_header(out, h);
	fprintf(out, "  \"header_size\": %zu,\n", h->length);
	fprintf(out, "  \"data_size\": %llu,\n",
	    (unsigned long long)d->data_bytes);
	fprintf(out, "  \"cut_bytes\": %llu,\n",
	    (unsigned long long)d->cut_bytes);
	fprintf(out, "  \"nsamples\": %llu,\n",
	    (unsigned long long)d->nsamples);
	fprintf(out, "  \"tobs\": ");
	json_derived(out, (double)d->nsamples * h->tsamp);
	fprintf(out, ",\n  \"freq_low\": ");
	json_derived(out, d->flow);
	fprintf(out, ",\n  \"freq_high\": ");
	json_derived(out, d->fhigh);
	fprintf(out, ",\n  \"fmid\": ");
	json_derived(out, (d->flow + d->fhigh) / 2);
	fprintf(out, ",\n  \"bandwidth\": ");
	json_derived(out, d->bandwidth);
	fprintf(out, ",\n  \"frame\": \"%s\",\n", frame_name(h));
	json_name(out, "telescope_name", own_name(d->telescope,
	    sps_header_has(h, "telescope_id") ?
	    sps_telescope_name(h->telescope_id) : NULL), ",");
	json_name(out, "machine_name", own_name(d->backend,
	    sps_header_has(h, "machine_id") ?
	    sps_machine_name(h->machine_id) : NULL), ",");
	json_name(out, "data_type_name", sps_data_type_name(h->data_type), "");
	fprintf(out, "}\n");
}


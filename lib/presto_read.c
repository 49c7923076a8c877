/* presto_read.c: reading PRESTO .inf files (presto.h).  The lines are matched by label, as PRESTO's Python reader
 * does, so that lines PRESTO writes for other kinds of data (X-ray,
 * On/Off pairs, "Orbit removed?") pass; the values are then checked. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "presto.h"

#define LINE_MAX_INF	512	/* longest .inf line read */
#define LINES_MAX_INF	1000	/* most lines before the notes */
#define ARTIFICIAL	"None (Artificial Data Set)"

enum key {
	K_TELESCOPE, K_INSTRUMENT, K_OBJECT, K_RA, K_DEC, K_EPOCH, K_BARY,
	K_N, K_DT, K_BAND, K_DM, K_LOW, K_TOTAL, K_NCHANS, K_WIDTH, K_ANALYZER,
	K_NKEYS
};

/* Each key's label as PRESTO writes it, and the words that find it */
static const struct {
	const char *label, *start;
} keys[K_NKEYS] = {
	{ "Telescope used", "Telescope" },
	{ "Instrument used", "Instrument" },
	{ "Object being observed", "Object being observed" },
	{ "J2000 Right Ascension (hh:mm:ss.ssss)", "J2000 Right Ascension" },
	{ "J2000 Declination (dd:mm:ss.ssss)", "J2000 Declination" },
	{ "Epoch of observation (MJD)", "Epoch" },
	{ "Barycentered? (1 yes, 0 no)", "Barycentered?" },
	{ "Number of bins in the time series", "Number of bins" },
	{ "Width of each time series bin (sec)",
	    "Width of each time series bin" },
	{ "Type of observation (EM band)", "Type of observation" },
	{ "Dispersion measure (cm-3 pc)", "Dispersion measure" },
	{ "Central freq of low channel (MHz)", "Central freq of low channel" },
	{ "Total bandwidth (MHz)", "Total bandwidth" },
	{ "Number of channels", "Number of channels" },
	{ "Channel bandwidth (MHz)", "Channel bandwidth" },
	{ "Data analyzed by", "Data analyzed by" },
};

/* The values as text, with the line each came from (0: absent). */
struct inf_text {
	const char	*name;
	char		 value[K_NKEYS][LINE_MAX_INF];
	int		 at[K_NKEYS];
};

static char *
trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && strchr(" \t\r\n", end[-1]) != NULL)
		*--end = '\0';
	return s;
}

/* The '=' between label and value: PRESTO's at column 40, else the last
 * one (older labels hold "(1=yes, 0=no)"). */
static char *
separator(char *line)
{
	return strlen(line) > 40 && line[40] == '=' ? line + 40 :
	    strrchr(line, '=');
}

static void
keep(struct inf_text *t, const char *label, const char *value, int lineno)
{
	int k;

	for (k = 0; k < K_NKEYS; k++)
		if (strncasecmp(label, keys[k].start,
		    strlen(keys[k].start)) == 0) {
			snprintf(t->value[k], sizeof(t->value[k]), "%s",
			    value);
			t->at[k] = lineno;
			return;
		}
}

static enum sps_err
read_lines(FILE *f, struct inf_text *t)
{
	char buf[LINE_MAX_INF + 2], *eq, *label;
	int lineno;

	for (lineno = 1; fgets(buf, sizeof(buf), f) != NULL; lineno++) {
		if (strchr(buf, '\n') == NULL && !feof(f))
			return sps_fail(SPS_EFORMAT, "%s: line %d: longer than "
			    "%d bytes: not a PRESTO .inf", t->name, lineno,
			    LINE_MAX_INF);
		if (lineno > LINES_MAX_INF)
			return sps_fail(SPS_EFORMAT, "%s: more than %d lines "
			    "before the notes: not a PRESTO .inf", t->name,
			    LINES_MAX_INF);
		label = trim(buf);
		if (*label == '\0')
			continue;
		if (strncasecmp(label, "Any additional notes", 20) == 0)
			return SPS_OK;
		if ((eq = separator(buf)) == NULL)
			return sps_fail(SPS_EFORMAT, "%s: line %d: no '=' "
			    "between label and value: not a PRESTO .inf",
			    t->name, lineno);
		*eq = '\0';
		keep(t, trim(label), trim(eq + 1), lineno);
	}
	if (ferror(f))
		return sps_fail(SPS_EIO, "%s: %s", t->name, strerror(errno));
	return SPS_OK;
}

static enum sps_err
missing(const struct inf_text *t, enum key k)
{
	return sps_fail(SPS_EFORMAT, "%s: no '%s' line", t->name,
	    keys[k].label);
}

/* Key k as a number in [lo, hi]; *v untouched when the key is absent. */
static enum sps_err
number(const struct inf_text *t, enum key k, double lo, double hi,
    double *v)
{
	const char *s = t->value[k];
	char *end;
	double x;

	if (t->at[k] == 0)
		return SPS_OK;
	errno = 0;
	x = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(x) || errno == ERANGE)
		return sps_fail(SPS_EFORMAT, "%s: line %d: %s: '%s' is not a "
		    "number", t->name, t->at[k], keys[k].label, s);
	if (x < lo || x > hi)
		return sps_fail(SPS_EFORMAT, "%s: line %d: %s: %s is not in "
		    "[%g, %g]", t->name, t->at[k], keys[k].label, s, lo, hi);
	*v = x;
	return SPS_OK;
}

/* Key k as a whole number in [lo, hi]. */
static enum sps_err
whole(const struct inf_text *t, enum key k, double lo, double hi,
    double *v)
{
	enum sps_err e = number(t, k, lo, hi, v);

	if (e == SPS_OK && t->at[k] != 0 && *v != floor(*v))
		return sps_fail(SPS_EFORMAT, "%s: line %d: %s: %s is not a "
		    "whole number", t->name, t->at[k], keys[k].label,
		    t->value[k]);
	return e;
}

/* [+-]dd:mm:ss.ssss to SIGPROC's packed ddmmss.s. */
static enum sps_err
angle(const struct inf_text *t, enum key k, double max_whole,
    double *packed)
{
	const char *s = t->value[k];
	int d, m, used = -1;
	double sec;

	if (t->at[k] == 0 || strcasecmp(s, "Unknown") == 0)
		return SPS_OK;
	if (sscanf(s + (*s == '-' || *s == '+'), "%2d:%2d:%lf%n", &d, &m,
	    &sec, &used) != 3 || s[(*s == '-' || *s == '+') + used] != '\0' ||
	    d < 0 || d > max_whole || m < 0 || m > 59 || !(sec >= 0) ||
	    !(sec < 60))
		return sps_fail(SPS_EFORMAT, "%s: line %d: %s: '%s' is not "
		    "%s", t->name, t->at[k], keys[k].label, s, k == K_RA ?
		    "hh:mm:ss.ssss" : "dd:mm:ss.ssss");
	*packed = (d * 10000.0 + m * 100.0 + sec) * (*s == '-' ? -1 : 1);
	return SPS_OK;
}

/* The id whose name is name (any case), or -1. */
static int
id_of(const char *name, const char *(*name_of)(int))
{
	int id;

	for (id = 0; id < 1024; id++)
		if (name_of(id) != NULL && strcasecmp(name_of(id), name) == 0)
			return id;
	return -1;
}

static enum sps_err
require(const struct inf_text *t, const enum key *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t->at[k[i]] == 0)
			return missing(t, k[i]);
	return SPS_OK;
}

/* The lines PRESTO's reader needs for this kind of .inf. */
static enum sps_err
check_present(const struct inf_text *t)
{
	static const enum key always[] = { K_TELESCOPE, K_N, K_DT };
	static const enum key observed[] = { K_EPOCH, K_BARY, K_BAND };
	static const enum key radio[] = { K_DM, K_LOW, K_TOTAL, K_NCHANS,
	    K_WIDTH };
	enum sps_err e;

	if ((e = require(t, always, 3)) != SPS_OK ||
	    strcasecmp(t->value[K_TELESCOPE], ARTIFICIAL) == 0 ||
	    (e = require(t, observed, 3)) != SPS_OK ||
	    strcasecmp(t->value[K_BAND], "Radio") != 0)
		return e;
	return require(t, radio, 5);
}

static void
set_names(const struct inf_text *t, struct sps_header *h)
{
	int id;

	if ((id = id_of(t->value[K_TELESCOPE], sps_telescope_name)) >= 0) {
		h->telescope_id = id;
		sps_header_mark(h, "telescope_id");
	}
	if (t->at[K_INSTRUMENT] != 0 &&
	    (id = id_of(t->value[K_INSTRUMENT], sps_machine_name)) >= 0) {
		h->machine_id = id;
		sps_header_mark(h, "machine_id");
	}
	if (t->at[K_OBJECT] != 0 &&
	    strcasecmp(t->value[K_OBJECT], "Unknown") != 0) {
		snprintf(h->source_name, sizeof(h->source_name), "%.*s",
		    (int)sizeof(h->source_name) - 1, t->value[K_OBJECT]);
		sps_header_mark(h, "source_name");
	}
}

/* The time series: bins, their width, the epoch and the DM. */
static enum sps_err
set_series(const struct inf_text *t, struct sps_header *h, uint64_t *n)
{
	double bins = 0, bary = 0;
	enum sps_err e;

	if ((e = whole(t, K_N, 0, 9007199254740992.0, &bins)) != SPS_OK ||
	    (e = number(t, K_DT, 1e-12, 1e6, &h->tsamp)) != SPS_OK ||
	    (e = number(t, K_EPOCH, 0, 1e6, &h->tstart)) != SPS_OK ||
	    (e = whole(t, K_BARY, 0, 1, &bary)) != SPS_OK ||
	    (e = number(t, K_DM, -1e6, 1e6, &h->refdm)) != SPS_OK ||
	    (e = angle(t, K_RA, 23, &h->src_raj)) != SPS_OK ||
	    (e = angle(t, K_DEC, 90, &h->src_dej)) != SPS_OK)
		return e;
	*n = (uint64_t)bins;
	h->barycentric = (int)bary;
	sps_header_mark(h, "tsamp");
	if (t->at[K_EPOCH] != 0)
		sps_header_mark(h, "tstart");
	if (t->at[K_BARY] != 0)
		sps_header_mark(h, "barycentric");
	if (t->at[K_DM] != 0)
		sps_header_mark(h, "refdm");
	if (t->at[K_RA] != 0 && t->at[K_DEC] != 0) {
		sps_header_mark(h, "src_raj");
		sps_header_mark(h, "src_dej");
	}
	return SPS_OK;
}

static enum sps_err
set_band(const struct inf_text *t, struct sps_header *h,
    struct sps_presto_band *b)
{
	double nchans = 0, total = 0;
	enum sps_err e;

	memset(b, 0, sizeof(*b));
	if ((e = whole(t, K_NCHANS, 1, 1 << 24, &nchans)) != SPS_OK ||
	    (e = number(t, K_WIDTH, -1e6, 1e6, &b->width)) != SPS_OK ||
	    (e = number(t, K_LOW, 0, 1e7, &b->low)) != SPS_OK ||
	    (e = number(t, K_TOTAL, -1e9, 1e9, &total)) != SPS_OK)
		return e;
	if (t->at[K_NCHANS] == 0 || t->at[K_LOW] == 0)
		return SPS_OK;
	b->nchans = (int)nchans;
	b->width = fabs(b->width);
	h->fch1 = sps_presto_band_top(b);
	sps_header_mark(h, "fch1");
	/* for the event stream, not the header a series writes */
	h->foff = -b->width;
	h->sps_nchans_in = b->nchans;
	return SPS_OK;
}

/* A header of one float32 channel of time series. */
static void
series_layout(struct sps_header *h)
{
	h->nchans = 1;
	h->nifs = 1;
	h->nbits = 32;
	h->data_type = 2;
	sps_header_mark(h, "nchans");
	sps_header_mark(h, "nifs");
	sps_header_mark(h, "nbits");
	sps_header_mark(h, "data_type");
}

enum sps_err
sps_presto_read_inf(FILE *f, const char *name, struct sps_header *h,
    uint64_t *n, struct sps_presto_band *band)
{
	struct inf_text *t;
	enum sps_err e;

	sps_header_init(h);
	*n = 0;
	memset(band, 0, sizeof(*band));
	if ((t = calloc(1, sizeof(*t))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	t->name = name;
	if ((e = read_lines(f, t)) == SPS_OK &&
	    (e = check_present(t)) == SPS_OK &&
	    (e = set_series(t, h, n)) == SPS_OK &&
	    (e = set_band(t, h, band)) == SPS_OK) {
		set_names(t, h);
		series_layout(h);
	}
	free(t);
	return e;
}

int
sps_presto_inf_by_other(const char *path, const char *analyzer)
{
	struct inf_text *t;
	int other;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if ((t = calloc(1, sizeof(*t))) == NULL) {
		fclose(f);
		return 1;
	}
	t->name = path;
	other = read_lines(f, t) != SPS_OK ||
	    strcmp(t->value[K_ANALYZER], analyzer) != 0;
	fclose(f);
	free(t);
	return other;
}

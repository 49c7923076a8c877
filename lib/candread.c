/* candread.c: candidate files read back (candread.h). */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "candread.h"
#include "dmdelay.h"
#include "reader.h"

#define MAX_FIELDS	16

/* One line cut into fields (in place). */
struct fields {
	int	 n;
	char	*f[MAX_FIELDS];
};

/* What a reading holds while it goes. */
struct reading {
	struct sps_candlist *l;
	const char	*name;
	int		 lineno;
	int		 csv_header;	/* FETCH: a header line was read */
	int		 col[5];	/* FETCH: file, snr, stime, width, dm */
	size_t		 cap;
};

enum { COL_FILE, COL_SNR, COL_STIME, COL_WIDTH, COL_DM };

static void
split_blank(char *s, struct fields *fl)
{
	char *save = NULL, *t;

	fl->n = 0;
	for (t = strtok_r(s, " \t\r\n", &save); t != NULL && fl->n <
	    MAX_FIELDS; t = strtok_r(NULL, " \t\r\n", &save))
		fl->f[fl->n++] = t;
}

/* CSV fields: double quotes around a field, "" inside for one. */
static void
split_csv(char *s, struct fields *fl)
{
	char *r = s, *w = s;

	s[strcspn(s, "\r\n")] = '\0';
	fl->n = 0;
	while (fl->n < MAX_FIELDS) {
		fl->f[fl->n++] = w;
		if (*r == '"') {
			for (r++; *r != '\0'; r++) {
				if (*r == '"' && r[1] != '"')
					break;
				*w++ = *r;
				if (*r == '"')
					r++;
			}
			if (*r == '"')
				r++;
		}
		while (*r != '\0' && *r != ',')
			*w++ = *r++;
		if (*r == '\0') {
			*w = '\0';
			return;
		}
		*w++ = '\0';
		r++;
	}
}

static enum sps_err
bad(const struct reading *g, const char *fmt, const char *what)
{
	return sps_fail(SPS_EFORMAT, "%s:%d: %s %s", g->name, g->lineno,
	    what, fmt);
}

static enum sps_err
number(const struct reading *g, const char *text, const char *what,
    double *v)
{
	char *end;

	errno = 0;
	*v = strtod(text, &end);
	if (end == text || *end != '\0' || errno == ERANGE || !isfinite(*v))
		return sps_fail(SPS_EFORMAT, "%s:%d: %s '%s' is not a number",
		    g->name, g->lineno, what, text);
	return SPS_OK;
}

/* A whole number in [lo, hi]. */
static enum sps_err
whole(const struct reading *g, const char *text, const char *what,
    double lo, double hi, double *v)
{
	enum sps_err e = number(g, text, what, v);

	if (e != SPS_OK)
		return e;
	if (*v != floor(*v) || *v < lo || *v > hi)
		return sps_fail(SPS_EFORMAT, "%s:%d: %s %s is not a whole "
		    "number from %.0f to %.0f", g->name, g->lineno, what, text,
		    lo, hi);
	return SPS_OK;
}

/* An S/N, which is kept as a float. */
static enum sps_err
snr_value(const struct reading *g, const char *text, double *v)
{
	enum sps_err e = number(g, text, "snr", v);

	if (e == SPS_OK && fabs(*v) > FLT_MAX)
		return sps_fail(SPS_EFORMAT, "%s:%d: snr %s is out of range",
		    g->name, g->lineno, text);
	return e;
}

static int
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int
blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '\0';
}

/* The format of the first line that says: a column line, FETCH's
 * header, or a data line by its fields.  -1: not yet (a comment). */
static int
format_of_line(const char *s)
{
	struct fields fl;
	char copy[1024];

	if (starts(s, "# DM") && strstr(s, "Sigma") != NULL)
		return SPS_CAND_PRESTO;
	if (starts(s, "#") && strstr(s, "time_s") != NULL)
		return SPS_CAND_TEXT;
	if (s[0] == '#')
		return -1;
	if (strchr(s, ',') != NULL)
		return SPS_CAND_FETCH;
	snprintf(copy, sizeof(copy), "%s", s);
	split_blank(copy, &fl);
	if (fl.n == 5)
		return SPS_CAND_PRESTO;
	if (fl.n == 12)
		return SPS_CAND_TEXT;
	return SPS_CAND_HEIMDALL;
}

static void
set_cand(struct sps_cand *c, double snr, double dm, int dm_index,
    uint64_t start, int width)
{
	memset(c, 0, sizeof(*c));
	c->best.snr = (float)snr;
	c->best.dm = dm;
	c->best.dm_index = dm_index;
	c->best.sample = start;
	c->best.width = width;
	c->members = 1;
	c->first_sample = start;
	c->last_sample = start + (uint64_t)width - 1;
	c->dm_index_min = c->dm_index_max = dm_index;
	c->dm_min = c->dm_max = dm;
}

/* The start of a boxcar whose centre (start + width / 2) is given. */
static uint64_t
start_of(double centre, int width)
{
	uint64_t half = (uint64_t)width / 2;

	return (uint64_t)centre >= half ? (uint64_t)centre - half : 0;
}

static void
note_tsamp(struct sps_candlist *l, double time, double sample)
{
	if (l->tsamp_columns == 0 && sample > 0 && time > 0)
		l->tsamp_columns = time / sample;
}

#define SAMPLE_MAX	9.007199254740992e15	/* 2^53 */

static enum sps_err
row_text(struct reading *g, const struct fields *fl, struct sps_cand *c)
{
	double v[12];
	const char *what[12] = { "time_s", "sample", "width", "snr", "dm",
	    "dm_index", "members", "first_sample", "last_sample", "dm_min",
	    "dm_max", "flood" };
	enum sps_err e = SPS_OK;
	int i;

	if (fl->n != 12)
		return bad(g, "in sps's table", fl->n < 12 ? "too few columns"
		    : "too many columns");
	for (i = 0; i < 12 && e == SPS_OK; i++)
		e = number(g, fl->f[i], what[i], &v[i]);
	if (e == SPS_OK)
		e = whole(g, fl->f[1], "sample", 0, SAMPLE_MAX, &v[1]);
	if (e == SPS_OK)
		e = whole(g, fl->f[2], "width", 1, 1 << 30, &v[2]);
	if (e == SPS_OK)
		e = snr_value(g, fl->f[3], &v[3]);
	if (e == SPS_OK)
		e = whole(g, fl->f[5], "dm_index", -1, INT32_MAX, &v[5]);
	for (i = 6; i <= 8 && e == SPS_OK; i++)
		e = whole(g, fl->f[i], what[i], 0, SAMPLE_MAX, &v[i]);
	if (e != SPS_OK)
		return e;
	set_cand(c, v[3], v[4], (int)v[5], (uint64_t)v[1], (int)v[2]);
	c->members = (uint64_t)fmax(v[6], 1);
	c->first_sample = (uint64_t)fmax(v[7], 0);
	c->last_sample = (uint64_t)fmax(v[8], 0);
	c->dm_min = v[9];
	c->dm_max = v[10];
	c->flood = v[11] != 0;
	note_tsamp(g->l, v[0], v[1]);
	return SPS_OK;
}

static enum sps_err
row_heimdall(struct reading *g, const struct fields *fl, struct sps_cand *c)
{
	double v[9];
	const char *what[9] = { "snr", "sample", "time", "filter",
	    "dm_trial", "dm", "members", "begin", "end" };
	enum sps_err e = SPS_OK;
	int i, width;

	if (fl->n < 9)
		return sps_fail(SPS_EFORMAT, "%s:%d: %d columns, Heimdall's have "
		    "9 or more", g->name, g->lineno, fl->n);
	for (i = 0; i < 9 && e == SPS_OK; i++)
		e = number(g, fl->f[i], what[i], &v[i]);
	if (e == SPS_OK)
		e = whole(g, fl->f[1], "sample", 0, SAMPLE_MAX, &v[1]);
	if (e == SPS_OK)
		e = whole(g, fl->f[3], "filter", 0, 30, &v[3]);
	if (e == SPS_OK)
		e = snr_value(g, fl->f[0], &v[0]);
	if (e == SPS_OK)
		e = whole(g, fl->f[4], "dm_trial", 0, INT32_MAX, &v[4]);
	for (i = 6; i <= 8 && e == SPS_OK; i++)
		e = whole(g, fl->f[i], what[i], -SAMPLE_MAX, SAMPLE_MAX, &v[i]);
	if (e != SPS_OK)
		return e;
	if (g->l->heimdall_columns == 0)
		g->l->heimdall_columns = fl->n;
	width = 1 << (int)v[3];
	set_cand(c, v[0], v[5], (int)v[4], start_of(v[1], width), width);
	c->members = (uint64_t)fmax(v[6], 1);
	if (v[7] >= 0 && v[8] > v[7]) {
		c->first_sample = (uint64_t)v[7];
		c->last_sample = (uint64_t)v[8] - 1;
	}
	note_tsamp(g->l, v[2], v[1]);
	return SPS_OK;
}

static enum sps_err
row_presto(struct reading *g, const struct fields *fl, struct sps_cand *c)
{
	double v[5];
	const char *what[5] = { "DM", "Sigma", "Time", "Sample",
	    "Downfact" };
	enum sps_err e = SPS_OK;
	int i;

	if (fl->n != 5)
		return sps_fail(SPS_EFORMAT, "%s:%d: %d columns, PRESTO's have "
		    "5", g->name, g->lineno, fl->n);
	for (i = 0; i < 5 && e == SPS_OK; i++)
		e = number(g, fl->f[i], what[i], &v[i]);
	if (e == SPS_OK)
		e = whole(g, fl->f[3], "Sample", 0, SAMPLE_MAX, &v[3]);
	if (e == SPS_OK)
		e = whole(g, fl->f[4], "Downfact", 1, 1 << 30, &v[4]);
	if (e == SPS_OK)
		e = snr_value(g, fl->f[1], &v[1]);
	if (e != SPS_OK)
		return e;
	set_cand(c, v[1], v[0], -1, start_of(v[3], (int)v[4]), (int)v[4]);
	note_tsamp(g->l, v[2], v[3]);
	return SPS_OK;
}

/* FETCH's header line: where each column is. */
static enum sps_err
fetch_header(struct reading *g, const struct fields *fl)
{
	static const char *names[5] = { "file", "snr", "stime", "width",
	    "dm" };
	int i, k;

	for (k = 0; k < 5; k++) {
		g->col[k] = -1;
		for (i = 0; i < fl->n; i++)
			if (strcmp(fl->f[i], names[k]) == 0)
				g->col[k] = i;
		if (g->col[k] < 0)
			return sps_fail(SPS_EFORMAT, "%s:%d: FETCH's header has "
			    "no column '%s'", g->name, g->lineno, names[k]);
	}
	g->csv_header = 1;
	return SPS_OK;
}

static enum sps_err
row_fetch(struct reading *g, const struct fields *fl, struct sps_cand *c)
{
	double snr, stime, w, dm;
	int need = 0, k;
	enum sps_err e;

	for (k = 0; k < 5; k++)
		if (g->col[k] + 1 > need)
			need = g->col[k] + 1;
	if (fl->n < need)
		return sps_fail(SPS_EFORMAT, "%s:%d: %d fields, FETCH's list "
		    "has %d", g->name, g->lineno, fl->n, need);
	if (g->l->tsamp == 0)
		return sps_fail(SPS_EUSAGE, "%s: a FETCH list gives times "
		    "only: the data's sample time is needed", g->name);
	if ((e = snr_value(g, fl->f[g->col[COL_SNR]], &snr)) != SPS_OK ||
	    (e = number(g, fl->f[g->col[COL_STIME]], "stime", &stime)) !=
	    SPS_OK ||
	    (e = whole(g, fl->f[g->col[COL_WIDTH]], "width", 0, 30, &w)) !=
	    SPS_OK ||
	    (e = number(g, fl->f[g->col[COL_DM]], "dm", &dm)) != SPS_OK)
		return e;
	if (stime < 0 || stime / g->l->tsamp > SAMPLE_MAX)
		return sps_fail(SPS_EFORMAT, "%s:%d: stime %s is out of range",
		    g->name, g->lineno, fl->f[g->col[COL_STIME]]);
	if (g->l->data_file[0] == '\0')
		snprintf(g->l->data_file, sizeof(g->l->data_file), "%s",
		    fl->f[g->col[COL_FILE]]);
	set_cand(c, snr, dm, -1, start_of(floor(stime / g->l->tsamp + 0.5),
	    1 << (int)w), 1 << (int)w);
	return SPS_OK;
}

static enum sps_err
grow(struct reading *g)
{
	struct sps_candlist *l = g->l;
	size_t cap = g->cap ? 2 * g->cap : 64;
	struct sps_cand *c = realloc(l->cands, cap * sizeof(*c));
	int *line;

	if (c == NULL)
		return sps_fail(SPS_ENOMEM, "%s: no memory for %zu candidates",
		    g->name, cap);
	l->cands = c;
	line = realloc(l->line, cap * sizeof(*line));
	if (line == NULL)
		return sps_fail(SPS_ENOMEM, "%s: no memory for %zu candidates",
		    g->name, cap);
	l->line = line;
	g->cap = cap;
	return SPS_OK;
}

static enum sps_err
data_line(struct reading *g, char *s)
{
	struct sps_candlist *l = g->l;
	struct fields fl;
	enum sps_err e;

	if (l->format == SPS_CAND_FETCH) {
		split_csv(s, &fl);
		if (!g->csv_header && strcmp(fl.f[0], "file") == 0)
			return fetch_header(g, &fl);
	} else
		split_blank(s, &fl);
	if (l->n == g->cap && (e = grow(g)) != SPS_OK)
		return e;
	switch (l->format) {
	case SPS_CAND_TEXT:
		e = row_text(g, &fl, &l->cands[l->n]);
		break;
	case SPS_CAND_HEIMDALL:
		e = row_heimdall(g, &fl, &l->cands[l->n]);
		break;
	case SPS_CAND_PRESTO:
		e = row_presto(g, &fl, &l->cands[l->n]);
		break;
	default:
		e = row_fetch(g, &fl, &l->cands[l->n]);
	}
	if (e == SPS_OK)
		l->line[l->n++] = g->lineno;
	return e;
}

static enum sps_err
read_lines(FILE *f, struct reading *g)
{
	char *s = NULL;
	size_t len = 0;
	int known = 0, fmt;
	enum sps_err e = SPS_OK;

	while (e == SPS_OK && getline(&s, &len, f) >= 0) {
		g->lineno++;
		if (blank(s))
			continue;
		if (!known && (fmt = format_of_line(s)) >= 0) {
			g->l->format = (enum sps_cand_format)fmt;
			known = 1;
		}
		if (s[0] == '#')
			continue;
		e = data_line(g, s);
	}
	if (e == SPS_OK && ferror(f))
		e = sps_fail(SPS_EIO, "%s: %s", g->name, strerror(errno));
	free(s);
	return e;
}

/* Old FETCH lists have no header: file, snr, stime, dm, width, label,
 * mask. */
static void
fetch_columns_old(struct reading *g)
{
	g->col[COL_FILE] = 0;
	g->col[COL_SNR] = 1;
	g->col[COL_STIME] = 2;
	g->col[COL_DM] = 3;
	g->col[COL_WIDTH] = 4;
}

static void
set_times(struct sps_candlist *l)
{
	size_t i;

	if (l->tsamp == 0)
		l->tsamp = l->tsamp_columns;
	for (i = 0; i < l->n; i++)
		l->cands[i].best.time = (double)l->cands[i].best.sample *
		    l->tsamp;
}

enum sps_err
sps_candread_stream(FILE *f, const char *name, double tsamp,
    struct sps_candlist *l)
{
	struct reading g;
	enum sps_err e;

	memset(l, 0, sizeof(*l));
	memset(&g, 0, sizeof(g));
	if (!(tsamp >= 0) || !isfinite(tsamp))
		return sps_fail(SPS_EUSAGE, "tsamp %g is not a sample time",
		    tsamp);
	snprintf(l->path, sizeof(l->path), "%s", name);
	if (sps_cand_format_of_name(name, &l->format) != SPS_OK)
		l->format = SPS_CAND_TEXT;
	l->tsamp = tsamp;
	g.l = l;
	g.name = name;
	fetch_columns_old(&g);
	e = read_lines(f, &g);
	if (e != SPS_OK) {
		sps_candlist_free(l);
		return e;
	}
	set_times(l);
	return SPS_OK;
}

enum sps_err
sps_candread(const char *path, double tsamp, struct sps_candlist *l)
{
	FILE *f;
	enum sps_err e;

	if (path == NULL || strcmp(path, "-") == 0)
		return sps_candread_stream(stdin, "stdin", tsamp, l);
	f = fopen(path, "r");
	if (f == NULL) {
		memset(l, 0, sizeof(*l));
		return sps_fail(SPS_EIO, "%s: %s", path, strerror(errno));
	}
	e = sps_candread_stream(f, path, tsamp, l);
	fclose(f);
	return e;
}

void
sps_candlist_free(struct sps_candlist *l)
{
	if (l == NULL)
		return;
	free(l->cands);
	free(l->line);
	l->cands = NULL;
	l->line = NULL;
	l->n = 0;
}

enum sps_err
sps_cand_format_of_name(const char *path, enum sps_cand_format *fmt)
{
	static const struct {
		const char *suffix;
		enum sps_cand_format fmt;
	} map[] = {
		{ ".cand", SPS_CAND_HEIMDALL }, { ".singlepulse",
		SPS_CAND_PRESTO }, { ".csv", SPS_CAND_FETCH }, { ".txt",
		SPS_CAND_TEXT }, { ".tab", SPS_CAND_TEXT }
	};
	const char *dot = strrchr(path, '.');
	size_t i;

	for (i = 0; dot != NULL && i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(dot, map[i].suffix) == 0) {
			*fmt = map[i].fmt;
			return SPS_OK;
		}
	return sps_fail(SPS_EUSAGE, "%s: unknown suffix (.cand, .singlepulse, "
	    ".csv, .txt or .tab)", path);
}

/* The lowest and highest channel centres of h, MHz. */
static void
band_edges(const struct sps_header *h, double *lo, double *hi)
{
	int c;

	*lo = *hi = sps_channel_freq(h, 0);
	for (c = 1; c < h->nchans; c++) {
		*lo = fmin(*lo, sps_channel_freq(h, c));
		*hi = fmax(*hi, sps_channel_freq(h, c));
	}
}

static enum sps_err
check_one(const struct sps_candlist *l, size_t i, const struct sps_header *h,
    uint64_t nsamples, double flo, double fhi)
{
	const struct sps_event *b = &l->cands[i].best;
	double sweep = sps_dm_delay(b->dm, flo, fhi);
	double length = (double)nsamples * h->tsamp;

	if (nsamples != SPS_NSAMPLES_UNKNOWN && b->sample >= nsamples)
		return sps_fail(SPS_EVALUE, "%s:%d: sample %llu is past the end "
		    "of the data (%llu samples)", l->path, l->line[i],
		    (unsigned long long)b->sample,
		    (unsigned long long)nsamples);
	if (!(b->dm >= 0) || b->dm > SPS_CANDREAD_DM_MAX)
		return sps_fail(SPS_EVALUE, "%s:%d: DM %g is out of range (0 to "
		    "%g)", l->path, l->line[i], b->dm, SPS_CANDREAD_DM_MAX);
	if (nsamples != SPS_NSAMPLES_UNKNOWN && sweep > length)
		return sps_fail(SPS_EVALUE, "%s:%d: DM %g sweeps across the "
		    "band in %.3f s, longer than the data (%.3f s)", l->path,
		    l->line[i], b->dm, sweep, length);
	return SPS_OK;
}

enum sps_err
sps_candlist_check(const struct sps_candlist *l, const struct sps_header *h,
    uint64_t nsamples)
{
	double flo, fhi, ratio;
	enum sps_err e = SPS_OK;
	size_t i;

	ratio = l->tsamp_columns / h->tsamp;
	if (l->tsamp_columns > 0 && fabs(ratio - 1) > 1e-3)
		return sps_fail(SPS_EVALUE, "%s: its times are of samples of "
		    "%g s, the data's are %g s: not this data's candidates",
		    l->path, l->tsamp_columns, h->tsamp);
	band_edges(h, &flo, &fhi);
	for (i = 0; i < l->n && e == SPS_OK; i++)
		e = check_one(l, i, h, nsamples, flo, fhi);
	return e;
}

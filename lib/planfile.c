/* planfile.c: the text plan and its JSON (planfile.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "planfile.h"

#define LINE_MAX_LEN	4096	/* longest line of a text plan */

/* The shortest %g that reads back as the same double, without an
 * exponent where plain digits will do. */
static void
format_double(char *buf, size_t len, double x)
{
	int prec;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, x);
		if (prec == 17 || strtod(buf, NULL) == x)
			break;
	}
	/* 1100, not 1.1e+03 */
	while (strchr(buf, 'e') != NULL && fabs(x) >= 1e-4 && fabs(x) < 1e15 &&
	    prec < 17)
		snprintf(buf, len, "%.*g", ++prec, x);
}

static enum sps_err
write_failed(void)
{
	return sps_fail(SPS_EIO, "write error: %s", strerror(errno));
}

enum sps_err
sps_plan_write(FILE *f, const struct sps_plan *p, const char *comment)
{
	char a[32], b[32], c[32];
	const char *s, *nl;
	size_t i;

	fprintf(f, "# sps-plan: DM trials for sps-dedisperse (sps-plan(1))\n");
	for (s = comment; s != NULL && *s != '\0'; s = nl + 1) {
		if ((nl = strchr(s, '\n')) == NULL)
			nl = s + strlen(s) - 1;
		fprintf(f, "# %.*s\n", (int)(nl - s + (*nl != '\n')), s);
	}
	fprintf(f, "sps-plan %d\n", SPS_PLAN_VERSION);
	if (p->has_obs) {
		format_double(a, sizeof(a), p->fch1);
		format_double(b, sizeof(b), p->foff);
		format_double(c, sizeof(c), p->tsamp);
		fprintf(f, "nchans %d\nfch1 %s\nfoff %s\ntsamp %s\n",
		    p->nchans, a, b, c);
	}
	fprintf(f, "ntrials %zu\n# dm scrunch\n", p->ntrials);
	for (i = 0; i < p->ntrials; i++) {
		format_double(a, sizeof(a), p->dm[i]);
		fprintf(f, "%s %d\n", a, p->scrunch[i]);
	}
	if (fflush(f) != 0 || ferror(f))
		return write_failed();
	return SPS_OK;
}

static void
json_number(FILE *f, const char *key, double x)
{
	char buf[32];

	format_double(buf, sizeof(buf), isfinite(x) ? x : 0);
	fprintf(f, "\"%s\": %s", key, buf);
}

static void
json_range(FILE *f, const struct sps_plan_range *r)
{
	fprintf(f, "{\"first\": %zu, \"count\": %zu, ", r->first, r->count);
	json_number(f, "dm_lo", r->dm_lo);
	fputs(", ", f);
	json_number(f, "dm_hi", r->dm_hi);
	fputs(", ", f);
	json_number(f, "step_min", r->step_min);
	fputs(", ", f);
	json_number(f, "step_max", r->step_max);
	fprintf(f, ", \"scrunch\": %d, \"smearing_s\": {", r->scrunch);
	json_number(f, "sample", r->t_samp);
	fputs(", ", f);
	json_number(f, "scrunch", r->t_scrunch);
	fputs(", ", f);
	json_number(f, "dm_step", r->t_step);
	fputs(", ", f);
	json_number(f, "channel", r->t_chan);
	fputs(", ", f);
	json_number(f, "subband", r->t_sub);
	fputs(", ", f);
	json_number(f, "total", r->t_total);
	fputs("}}", f);
}

enum sps_err
sps_plan_json(FILE *f, const struct sps_plan *p,
    const struct sps_plan_range *ranges, size_t nranges, const char *extra)
{
	char a[32];
	size_t i;

	fprintf(f, "{\"format\": \"sps-plan\", \"version\": %d",
	    SPS_PLAN_VERSION);
	if (extra != NULL && *extra != '\0')
		fprintf(f, ",\n %s", extra);
	if (p->has_obs) {
		fprintf(f, ", \"nchans\": %d, ", p->nchans);
		json_number(f, "fch1", p->fch1);
		fputs(", ", f);
		json_number(f, "foff", p->foff);
		fputs(", ", f);
		json_number(f, "tsamp", p->tsamp);
	}
	fprintf(f, ",\n \"ntrials\": %zu", p->ntrials);
	if (nranges > 0) {
		fputs(",\n \"ranges\": [", f);
		for (i = 0; i < nranges; i++) {
			fputs(i > 0 ? ",\n  " : "\n  ", f);
			json_range(f, &ranges[i]);
		}
		fputs("]", f);
	}
	fputs(",\n \"trials\": [", f);
	for (i = 0; i < p->ntrials; i++) {
		format_double(a, sizeof(a), p->dm[i]);
		fprintf(f, "%s{\"dm\": %s, \"scrunch\": %d}", i > 0 ? ",\n  " :
		    "\n  ", a, p->scrunch[i]);
	}
	fputs("]}\n", f);
	if (fflush(f) != 0 || ferror(f))
		return write_failed();
	return SPS_OK;
}

/* ---- reading -------------------------------------------------------- */

struct reader_state {
	const char	*name;
	long		 line;
	long		 ntrials;	/* from an ntrials line, -1: none */
	int		 seen;		/* bits: nchans fch1 foff tsamp */
};

static enum sps_err
bad_line(const struct reader_state *st, enum sps_err code, const char *what,
    const char *token)
{
	return sps_fail(code, "%s: line %ld: %s '%.40s'", st->name, st->line,
	    what, token);
}

static int
parse_double(const char *s, double *x)
{
	char *end;

	errno = 0;
	*x = strtod(s, &end);
	return end != s && *end == '\0' && errno != ERANGE;
}

static int
parse_long(const char *s, long *x)
{
	char *end;

	errno = 0;
	*x = strtol(s, &end, 10);
	return end != s && *end == '\0' && errno != ERANGE;
}

static enum sps_err
read_key(struct reader_state *st, struct sps_plan *p, const char *key,
    const char *value)
{
	static const char *const obs_keys[] = { "nchans", "fch1", "foff",
	    "tsamp" };
	double x = 0;
	long n = 0;
	int k;

	if (value == NULL)
		return bad_line(st, SPS_EFORMAT, "no value for", key);
	if (strcmp(key, "sps-plan") == 0) {
		if (!parse_long(value, &n) || n < 1)
			return bad_line(st, SPS_EFORMAT, "bad version", value);
		if (n > SPS_PLAN_VERSION)
			return bad_line(st, SPS_EFORMAT, "plan format newer "
			    "than this sps can read:", value);
		return SPS_OK;
	}
	if (strcmp(key, "ntrials") == 0) {
		if (!parse_long(value, &st->ntrials) || st->ntrials < 1)
			return bad_line(st, SPS_EVALUE, "bad ntrials", value);
		return SPS_OK;
	}
	for (k = 0; k < 4; k++)
		if (strcmp(key, obs_keys[k]) == 0)
			break;
	if (k == 4)
		return bad_line(st, SPS_EFORMAT, "unknown key", key);
	if (k == 0 ? !parse_long(value, &n) || n < 1 || n > INT_MAX :
	    !parse_double(value, &x) || !isfinite(x))
		return bad_line(st, SPS_EVALUE, "bad value of", key);
	if (k == 0)
		p->nchans = (int)n;
	else
		*(k == 1 ? &p->fch1 : k == 2 ? &p->foff : &p->tsamp) = x;
	st->seen |= 1 << k;
	return SPS_OK;
}

static enum sps_err
read_trial(struct reader_state *st, struct sps_plan *p, char *dm_text,
    char *scrunch_text)
{
	double dm;
	long s = 1;

	if (!parse_double(dm_text, &dm))
		return bad_line(st, SPS_EFORMAT, "not a DM:", dm_text);
	if (!isfinite(dm) || dm < 0)
		return bad_line(st, SPS_EVALUE, "DM is negative or not finite:",
		    dm_text);
	if (scrunch_text != NULL && !parse_long(scrunch_text, &s))
		return bad_line(st, SPS_EFORMAT, "not a scrunch factor:",
		    scrunch_text);
	if (!sps_plan_scrunch_valid(s))
		return bad_line(st, SPS_EVALUE, "scrunch factor is not a power "
		    "of 2:", scrunch_text != NULL ? scrunch_text : "1");
	if (p->ntrials > 0 && !(dm > p->dm[p->ntrials - 1]))
		return bad_line(st, SPS_EVALUE, "DM is not above the DM before "
		    "it (DMs must ascend):", dm_text);
	return sps_plan_add(p, dm, (int)s);
}

/* One line without its comment: a key and value, or a trial. */
static enum sps_err
read_line(struct reader_state *st, struct sps_plan *p, char *line,
    size_t first_trial)
{
	char *tok[3], *save = NULL;
	double x;
	int n;

	for (n = 0; n < 3; n++)
		if ((tok[n] = strtok_r(n == 0 ? line : NULL, " \t\r\n\v\f",
		    &save)) == NULL)
			break;
	if (n == 0)
		return SPS_OK;
	if (n == 3)
		return bad_line(st, SPS_EFORMAT, "more than two fields:",
		    tok[2]);
	if (isalpha((unsigned char)tok[0][0]) && !parse_double(tok[0], &x)) {
		if (p->ntrials > first_trial)
			return bad_line(st, SPS_EFORMAT, "key after the DM "
			    "trials:", tok[0]);
		return read_key(st, p, tok[0], n > 1 ? tok[1] : NULL);
	}
	return read_trial(st, p, tok[0], n > 1 ? tok[1] : NULL);
}

static enum sps_err
read_end(struct reader_state *st, struct sps_plan *p, size_t first_trial)
{
	size_t got = p->ntrials - first_trial;

	if (st->seen != 0 && st->seen != 15)
		return sps_fail(SPS_EFORMAT, "%s: the plan gives only some of "
		    "nchans, fch1, foff and tsamp", st->name);
	if (st->seen == 15)
		p->has_obs = 1;
	if (got == 0)
		return sps_fail(SPS_EVALUE, "%s: no DM trials", st->name);
	if (st->ntrials >= 0 && (size_t)st->ntrials != got)
		return sps_fail(SPS_ETRUNC, "%s: ntrials says %ld, but %zu "
		    "trials follow", st->name, st->ntrials, got);
	return SPS_OK;
}

enum sps_err
sps_plan_read(FILE *f, const char *name, struct sps_plan *p)
{
	struct reader_state st = { name, 0, -1, 0 };
	size_t first_trial = p->ntrials, len;
	char buf[LINE_MAX_LEN + 2], *hash;
	enum sps_err e;

	while (fgets(buf, sizeof(buf), f) != NULL) {
		st.line++;
		len = strlen(buf);
		if (len == 0)
			return sps_fail(SPS_EFORMAT, "%s: line %ld holds a NUL "
			    "byte (not a text plan)", name, st.line);
		if (len == sizeof(buf) - 1 && buf[len - 1] != '\n')
			return sps_fail(SPS_EFORMAT, "%s: line %ld is longer "
			    "than %d bytes", name, st.line, LINE_MAX_LEN);
		if (len < sizeof(buf) - 1 && !feof(f) && buf[len - 1] != '\n')
			return sps_fail(SPS_EFORMAT, "%s: line %ld holds a NUL "
			    "byte (not a text plan)", name, st.line);
		if ((hash = strchr(buf, '#')) != NULL)
			*hash = '\0';
		if ((e = read_line(&st, p, buf, first_trial)) != SPS_OK)
			return e;
	}
	if (ferror(f))
		return sps_fail(SPS_EIO, "%s: %s", name, strerror(errno));
	return read_end(&st, p, first_trial);
}

/* rfi_spec.c: parsing sps-fake's --rfi specs (rfi_spec.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fakeparse.h"
#include "rfi_spec.h"

#define SPEC_MAX	1024
#define SEPARATORS	", \t\r\n"

static const char *const kind_names[] = {
	"impulse", "carrier", "zero", "drift"
};

enum key { KEY_T, KEY_RATE, KEY_WIDTH, KEY_SNR, KEY_AMP, KEY_CHAN,
	KEY_PERIOD, KEY_DUTY, KEY_PHASE, NKEYS };

#define IMP	(1U << SPS_RFI_IMPULSE)
#define CAR	(1U << SPS_RFI_CARRIER)
#define ZER	(1U << SPS_RFI_ZERO)
#define DRI	(1U << SPS_RFI_DRIFT)

/* Each key and the kinds that take it. */
static const struct {
	const char *name;
	unsigned kinds;
} keys[NKEYS] = {
	{ "t", IMP }, { "rate", IMP }, { "width", IMP }, { "snr", IMP },
	{ "amp", IMP | CAR | DRI }, { "chan", IMP | CAR | ZER | DRI },
	{ "period", CAR | ZER | DRI }, { "duty", CAR | ZER },
	{ "phase", CAR | ZER | DRI }
};

static enum sps_err
parse_kind(const char *word, struct sps_rfi *r)
{
	unsigned k;

	for (k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++)
		if (strcmp(word, kind_names[k]) == 0) {
			r->kind = (enum sps_rfi_kind)k;
			return SPS_OK;
		}
	return sps_fail(SPS_EVALUE, "'%s' is not a kind of RFI (impulse, "
	    "carrier, zero or drift)", word);
}

static void
set_defaults(struct sps_rfi *r)
{
	enum sps_rfi_kind kind = r->kind;

	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->width = 1e-3;
	r->snr = 50;
	r->amp = kind == SPS_RFI_DRIFT ? 0.1 : 5;
	r->duty = 0.5;
	r->lo = r->hi = -1;
}

/* "C" or "A:B", 0 <= A <= B < nchans. */
static enum sps_err
parse_chan(const char *text, int nchans, struct sps_rfi *r)
{
	long long a, b;
	char *end;

	errno = 0;
	a = b = strtoll(text, &end, 10);
	if (end != text && *end == ':')
		b = strtoll(end + 1, &end, 10);
	if (end == text || *end != '\0' || errno != 0 || a < 0 || b < a)
		return sps_fail(SPS_EVALUE, "chan: '%s' is not a channel or "
		    "A:B", text);
	if (b >= nchans)
		return sps_fail(SPS_EVALUE, "chan: channel %lld: the data have "
		    "channels 0 to %d", b, nchans - 1);
	r->lo = (int)a;
	r->hi = (int)b;
	return SPS_OK;
}

static enum sps_err
set_value(struct sps_rfi *r, enum key k, const char *val, double tsamp,
    int nchans)
{
	const char *name = keys[k].name;

	switch (k) {
	case KEY_T:
		return sps_fake_parse_time(name, val, tsamp, &r->t);
	case KEY_RATE:
		return sps_fake_parse_number(name, val, &r->rate);
	case KEY_WIDTH:
		return sps_fake_parse_time(name, val, tsamp, &r->width);
	case KEY_SNR:
		return sps_fake_parse_number(name, val, &r->snr);
	case KEY_AMP:
		return sps_fake_parse_number(name, val, &r->amp);
	case KEY_CHAN:
		return parse_chan(val, nchans, r);
	case KEY_PERIOD:
		return sps_fake_parse_time(name, val, tsamp, &r->period);
	case KEY_DUTY:
		return sps_fake_parse_number(name, val, &r->duty);
	default:
		return sps_fake_parse_number(name, val, &r->phase);
	}
}

static enum sps_err
set_key(struct sps_rfi *r, char *tok, double tsamp, int nchans,
    unsigned *seen)
{
	char *eq = strchr(tok, '=');
	unsigned k;

	if (eq == NULL || eq == tok)
		return sps_fail(SPS_EVALUE, "'%s' is not key=value", tok);
	*eq = '\0';
	for (k = 0; k < NKEYS; k++)
		if (strcmp(tok, keys[k].name) == 0)
			break;
	if (k == NKEYS)
		return sps_fail(SPS_EVALUE, "unknown key '%s'", tok);
	if (!(keys[k].kinds >> r->kind & 1))
		return sps_fail(SPS_EVALUE, "%s takes no %s=", kind_names[r->kind],
		    tok);
	if (*seen >> k & 1)
		return sps_fail(SPS_EVALUE, "%s given twice", tok);
	*seen |= 1U << k;
	return set_value(r, (enum key)k, eq + 1, tsamp, nchans);
}

#define SEEN(k)	(seen >> (k) & 1)

static enum sps_err
check_impulse(struct sps_rfi *r, unsigned seen, double tsamp)
{
	if (!SEEN(KEY_T) && !SEEN(KEY_RATE))
		return sps_fail(SPS_EVALUE, "impulse needs t= or rate=");
	if (SEEN(KEY_T) && SEEN(KEY_RATE))
		return sps_fail(SPS_EVALUE, "impulse takes t= or rate=, not "
		    "both");
	if (SEEN(KEY_SNR) && SEEN(KEY_AMP))
		return sps_fail(SPS_EVALUE, "impulse takes snr= or amp=, not "
		    "both");
	if (SEEN(KEY_RATE) && !(r->rate > 0 && r->rate <= 1 / tsamp))
		return sps_fail(SPS_EVALUE, "rate %g is not in (0, %g] (one a "
		    "sample)", r->rate, 1 / tsamp);
	if (!(r->width > 0))
		return sps_fail(SPS_EVALUE, "width %g s is not > 0", r->width);
	if (SEEN(KEY_AMP))
		r->snr = 0;
	else if (!(r->snr > 0))
		return sps_fail(SPS_EVALUE, "snr %g is not > 0", r->snr);
	return SPS_OK;
}

static enum sps_err
check_switching(const struct sps_rfi *r, unsigned seen)
{
	if (!SEEN(KEY_CHAN))
		return sps_fail(SPS_EVALUE, "%s needs chan=",
		    kind_names[r->kind]);
	if ((SEEN(KEY_DUTY) || SEEN(KEY_PHASE)) && !SEEN(KEY_PERIOD))
		return sps_fail(SPS_EVALUE, "duty= and phase= need period=");
	if (!(r->duty > 0 && r->duty <= 1))
		return sps_fail(SPS_EVALUE, "duty %g is not in (0, 1]",
		    r->duty);
	return SPS_OK;
}

static enum sps_err
check_drift(const struct sps_rfi *r, unsigned seen)
{
	if (!SEEN(KEY_PERIOD))
		return sps_fail(SPS_EVALUE, "drift needs period=");
	if (!(r->amp >= 0 && r->amp < 1))
		return sps_fail(SPS_EVALUE, "amp %g is not in [0, 1)", r->amp);
	return SPS_OK;
}

static enum sps_err
check(struct sps_rfi *r, unsigned seen, double tsamp)
{
	if (SEEN(KEY_PERIOD) && !(r->period > 0))
		return sps_fail(SPS_EVALUE, "period %g s is not > 0",
		    r->period);
	if (r->kind == SPS_RFI_DRIFT)
		return check_drift(r, seen);
	if (r->kind != SPS_RFI_ZERO && !(r->amp > 0))
		return sps_fail(SPS_EVALUE, "amp %g is not > 0", r->amp);
	if (r->kind == SPS_RFI_IMPULSE)
		return check_impulse(r, seen, tsamp);
	return check_switching(r, seen);
}

enum sps_err
sps_rfi_parse(const char *spec, double tsamp, int nchans, struct sps_rfi *r)
{
	char buf[SPEC_MAX], *tok, *save;
	unsigned seen = 0;
	enum sps_err e;

	memset(r, 0, sizeof(*r));
	if (strlen(spec) >= sizeof(buf))
		return sps_fail(SPS_EVALUE, "longer than %d characters",
		    SPEC_MAX - 1);
	strcpy(buf, spec);
	if ((tok = strtok_r(buf, SEPARATORS, &save)) == NULL)
		return sps_fail(SPS_EVALUE, "no kind of RFI (impulse, carrier, "
		    "zero or drift)");
	if ((e = parse_kind(tok, r)) != SPS_OK)
		return e;
	set_defaults(r);
	while ((tok = strtok_r(NULL, SEPARATORS, &save)) != NULL)
		if ((e = set_key(r, tok, tsamp, nchans, &seen)) != SPS_OK)
			return e;
	return check(r, seen, tsamp);
}

/* fakeparse.c: the values of sps-fake's specs (fakeparse.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fakeparse.h"

enum sps_err
sps_fake_parse_number(const char *key, const char *text, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(text, &end);
	if (end == text || *end != '\0' || errno != 0 || !isfinite(*v))
		return sps_fail(SPS_EVALUE, "%s: '%s' is not a number", key,
		    text);
	return SPS_OK;
}

enum sps_err
sps_fake_parse_time(const char *key, const char *text, double tsamp,
    double *v)
{
	static const struct {
		const char *suffix;
		double scale;
	} units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 },
		{ "samp", 0 }, { "samples", 0 }
	};
	char *end;
	size_t i;

	errno = 0;
	*v = strtod(text, &end);
	if (end == text || errno != 0 || !isfinite(*v))
		goto bad;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].suffix) == 0) {
			*v *= units[i].scale != 0 ? units[i].scale : tsamp;
			return SPS_OK;
		}
bad:
	return sps_fail(SPS_EVALUE, "%s: '%s' is not a time (a number, then "
	    "s, ms, us or samp)", key, text);
}

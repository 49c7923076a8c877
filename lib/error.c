/* error.c: the per-thread detail of the last lib/ failure. */
#include <sys/stat.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

static _Thread_local char detail[512];

const char *
sps_errmsg(void)
{
	return detail[0] != '\0' ? detail : "unknown error";
}

enum sps_err
sps_fail(enum sps_err code, const char *fmt, ...)
{
	char line[sizeof(detail)];
	va_list ap;

	/* format aside first: callers may pass sps_errmsg() to prefix it */
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	memcpy(detail, line, sizeof(detail));
	return code;
}

enum sps_err
sps_fail_empty(FILE *f, const char *name)
{
	struct stat st;

	if (f != NULL && fstat(fileno(f), &st) == 0 && S_ISFIFO(st.st_mode))
		return sps_fail(SPS_EUPSTREAM, "%s%sempty pipe",
		    name != NULL ? name : "", name != NULL ? ": " : "");
	if (name != NULL)
		return sps_fail(SPS_ETRUNC, "%s: empty input (no header)",
		    name);
	return sps_fail(SPS_ETRUNC, "empty input (no header)");
}

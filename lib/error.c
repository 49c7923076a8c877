/* error.c: the per-thread detail of the last lib/ failure. */
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

/* error.c: the per-thread detail of the last lib/ failure. */
#include <stdarg.h>
#include <stdio.h>

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
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	return code;
}

/* aux-keywords: the keywords of a SIGPROC-style header, one a line, in
 * file order, walked token by token here (not with header.c's reader,
 * so that a reader that skipped a keyword could not hide it):
 *
 *	aux-keywords FILE|-
 *
 * The markers (HEADER_START, HEADER_END, FREQUENCY_START, FREQUENCY_END,
 * DM_TABLE) are listed too; fchannel once however many the table holds.
 * Value widths come from the keyword table (header.h); a keyword it does
 * not know ends the walk with status 1, naming it. */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "header.h"

static void
take(FILE *f, void *buf, size_t len)
{
	if (len > 0 && fread(buf, 1, len, f) != len)
		errx(1, "header ends early");
}

static void
token(FILE *f, char *buf)
{
	int32_t len;

	take(f, &len, 4);
	if (len < 1 || len > SPS_STRING_MAX)
		errx(1, "token of length %d", (int)len);
	take(f, buf, (size_t)len);
	buf[len] = '\0';
}

static void
skip(FILE *f, size_t len)
{
	char buf[SPS_VALUE_MAX];

	take(f, buf, len);
}

static void
skip_value(FILE *f, const char *name)
{
	static const size_t width[] = {
		[SPS_KW_INT] = 4, [SPS_KW_DOUBLE] = 8, [SPS_KW_CHAR] = 1,
		[SPS_KW_LONG] = 8
	};
	int32_t n;
	int k;

	if (strcmp(name, "fchannel") == 0) {
		skip(f, 8);
		return;
	}
	if (strcmp(name, "DM_TABLE") == 0) {
		take(f, &n, 4);
		while (n-- > 0)
			skip(f, 12);
		return;
	}
	if (strstr(name, "FREQUENCY_") == name ||
	    strcmp(name, "HEADER_END") == 0)
		return;
	if ((k = sps_keyword_find(name)) < 0)
		errx(1, "unknown keyword %s", name);
	if (sps_keywords[k].type != SPS_KW_STRING) {
		skip(f, width[sps_keywords[k].type]);
		return;
	}
	take(f, &n, 4);
	if (n < 0 || n > SPS_VALUE_MAX)
		errx(1, "%s: string of length %d", name, (int)n);
	skip(f, (size_t)n);
}

int
main(int argc, char **argv)
{
	char name[SPS_STRING_MAX + 1], last[SPS_STRING_MAX + 1] = "";
	FILE *f;

	if (argc != 2)
		errx(2, "usage: aux-keywords FILE|-");
	if (strcmp(argv[1], "-") == 0)
		f = stdin;
	else if ((f = fopen(argv[1], "rb")) == NULL)
		err(1, "%s", argv[1]);
	token(f, name);
	if (strcmp(name, "HEADER_START") != 0)
		errx(1, "no HEADER_START");
	puts(name);
	do {
		token(f, name);
		if (strcmp(name, last) != 0 || strcmp(name, "fchannel") != 0)
			puts(name);
		skip_value(f, name);
		strcpy(last, name);
	} while (strcmp(name, "HEADER_END") != 0);
	return 0;
}

/* chanmask.c: PRESTO-style channel lists (chanmask.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chanmask.h"

#define LIST_MAX	(1 << 24)	/* bytes of a mask file, at most */
#define READ_STEP	4096		/* a mask file's buffer grows by this */

/* One token: "C", "A:B" or "A:B:STEP". */
static enum sps_err
mask_token(const char *tok, const char *where, int nchans,
    unsigned char *masked)
{
	long long a, b, step = 1;
	char *end;

	errno = 0;
	a = strtoll(tok, &end, 10);
	b = a;
	if (end != tok && *end == ':')
		b = strtoll(end + 1, &end, 10);
	if (end != tok && *end == ':')
		step = strtoll(end + 1, &end, 10);
	if (end == tok || *end != '\0' || errno != 0 || a < 0 || b < a ||
	    step < 1)
		return sps_fail(SPS_EVALUE, "%s: '%s' is not a channel, A:B or "
		    "A:B:STEP", where, tok);
	if (b >= nchans)
		return sps_fail(SPS_EVALUE, "%s: channel %lld: the input has "
		    "channels 0 to %d", where, b, nchans - 1);
	if (step > b - a + 1)
		step = b - a + 1;	/* no a += step past LLONG_MAX */
	for (; a <= b; a += step)
		masked[a] = 1;
	return SPS_OK;
}

/* The lists of text, which is cut up in place. */
static enum sps_err
mask_text(char *text, const char *where, int nchans, unsigned char *masked)
{
	char *line, *tok, *save_line, *save_tok, *hash;
	enum sps_err e;

	for (line = strtok_r(text, "\n", &save_line); line != NULL;
	    line = strtok_r(NULL, "\n", &save_line)) {
		if ((hash = strchr(line, '#')) != NULL)
			*hash = '\0';
		for (tok = strtok_r(line, " \t\r,", &save_tok); tok != NULL;
		    tok = strtok_r(NULL, " \t\r,", &save_tok))
			if ((e = mask_token(tok, where, nchans, masked)) !=
			    SPS_OK)
				return e;
	}
	return SPS_OK;
}

enum sps_err
sps_chanmask_parse(const char *list, const char *where, int nchans,
    unsigned char *masked)
{
	enum sps_err e;
	char *copy;

	if ((copy = strdup(list)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	e = mask_text(copy, where, nchans, masked);
	free(copy);
	return e;
}

/* The whole of f as a string (NULL, with SPS_OK, when f is empty). */
static enum sps_err
read_text(FILE *f, const char *name, char **text)
{
	size_t len = 0;
	char *grown;
	int ch;

	*text = NULL;
	while ((ch = getc(f)) != EOF) {
		if (ch == '\0' || (!isprint(ch) && !isspace(ch)))
			return sps_fail(SPS_EVALUE, "%s: not a text list of "
			    "channels (a binary rfifind mask is not read)",
			    name);
		if (len % READ_STEP == 0) {
			if ((grown = realloc(*text, len + READ_STEP + 1)) ==
			    NULL)
				return sps_fail(SPS_ENOMEM, "out of memory");
			*text = grown;
		}
		(*text)[len++] = ch == '\r' ? ' ' : (char)ch;
		if (len > LIST_MAX)
			return sps_fail(SPS_EVALUE, "%s: too long for a "
			    "channel list", name);
	}
	if (ferror(f))
		return sps_fail(SPS_EIO, "%s: %s", name, strerror(errno));
	if (*text != NULL)
		(*text)[len] = '\0';
	return SPS_OK;
}

enum sps_err
sps_chanmask_read(FILE *f, const char *name, int nchans,
    unsigned char *masked)
{
	enum sps_err e;
	char *text;

	if ((e = read_text(f, name, &text)) == SPS_OK && text != NULL)
		e = mask_text(text, name, nchans, masked);
	free(text);
	return e;
}

/* killmask.c: Heimdall-style channel kill files (killmask.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chanmask.h"
#include "killmask.h"

enum sps_err
sps_killmask_read(FILE *f, const char *name, int nchans, unsigned char *kill)
{
	char line[256], *p, *end;
	int n = 0, lineno = 0;
	long v;

	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		if ((p = strchr(line, '#')) != NULL)
			*p = '\0';
		for (p = line; ; p = end) {
			v = strtol(p, &end, 10);
			if (end == p)
				break;
			if (v != 0 && v != 1)
				return sps_fail(SPS_EVALUE, "%s: line %d: %ld is "
				    "not 0 (kill) or 1 (use)", name, lineno, v);
			if (n >= nchans)
				return sps_fail(SPS_EVALUE, "%s: more than %d "
				    "entries for %d channels", name, nchans,
				    nchans);
			kill[n++] = v == 0;
		}
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (*p != '\0')
			return sps_fail(SPS_EVALUE, "%s: line %d: '%s' is not "
			    "0 or 1", name, lineno, strtok(p, "\r\n"));
	}
	if (ferror(f))
		return sps_fail(SPS_EIO, "%s: read error", name);
	if (n != nchans)
		return sps_fail(SPS_EVALUE, "%s: %d entries for %d channels",
		    name, n, nchans);
	return SPS_OK;
}

enum sps_err
sps_killmask_load(const char *path, int nchans, unsigned char **kill)
{
	enum sps_err e;
	FILE *f;

	*kill = NULL;
	if ((f = fopen(path, "r")) == NULL)
		return sps_fail(SPS_EIO, "%s: %s", path, strerror(errno));
	if ((*kill = calloc((size_t)nchans, 1)) == NULL) {
		fclose(f);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	if ((e = sps_killmask_read(f, path, nchans, *kill)) != SPS_OK) {
		free(*kill);
		*kill = NULL;
	}
	fclose(f);
	return e;
}

/* The channels of PRESTO's list, in the file's order. */
static enum sps_err
add_ignorechan(const char *list, const struct sps_header *h,
    unsigned char *kill)
{
	unsigned char *m;
	enum sps_err e;
	int c;

	if ((m = calloc((size_t)h->nchans, 1)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if ((e = sps_chanmask_parse(list, "--ignorechan", h->nchans, m)) ==
	    SPS_OK)
		for (c = 0; c < h->nchans; c++)
			kill[h->foff < 0 ? h->nchans - 1 - c : c] |= m[c];
	free(m);
	return e;
}

enum sps_err
sps_killmask_make(const char *path, const char *ignorechan,
    const struct sps_header *h, unsigned char **kill)
{
	enum sps_err e;

	*kill = NULL;
	if (path != NULL && (e = sps_killmask_load(path, h->nchans, kill)) !=
	    SPS_OK)
		return e;
	if (ignorechan == NULL)
		return SPS_OK;
	if (*kill == NULL && (*kill = calloc((size_t)h->nchans, 1)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if ((e = add_ignorechan(ignorechan, h, *kill)) != SPS_OK) {
		free(*kill);
		*kill = NULL;
	}
	return e;
}

/* presto_dat.c: opening a PRESTO .dat by the .inf beside it (presto.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "presto.h"

char *
sps_presto_inf_path(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;
	size_t stem;
	char *inf;

	base = base != NULL ? base + 1 : path;
	dot = strrchr(base, '.');
	stem = dot != NULL && dot != base ? (size_t)(dot - path) :
	    strlen(path);
	if ((inf = malloc(stem + 5)) == NULL)
		return NULL;
	memcpy(inf, path, stem);
	memcpy(inf + stem, ".inf", 5);
	return inf;
}

/* A regular .dat must hold n float32 samples exactly. */
static enum sps_err
check_size(FILE *f, const char *path, const char *inf, uint64_t n)
{
	struct stat st;

	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size == n * sizeof(float))
		return SPS_OK;
	return sps_fail(SPS_EFORMAT, "%s: %llu bytes, but %s gives %llu "
	    "samples of 4 bytes", path, (unsigned long long)st.st_size, inf,
	    (unsigned long long)n);
}

enum sps_err
sps_presto_open_dat(const char *path, FILE **f, struct sps_header *h,
    uint64_t *n)
{
	struct sps_presto_band band;
	char *inf = sps_presto_inf_path(path);
	FILE *in;
	enum sps_err e;

	*f = NULL;
	if (inf == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if ((in = fopen(inf, "r")) == NULL) {
		e = sps_fail(SPS_EFORMAT, "%s: no %s beside it (%s): a PRESTO "
		    ".dat is described by its .inf", path, inf,
		    strerror(errno));
		free(inf);
		return e;
	}
	e = sps_presto_read_inf(in, inf, h, n, &band);
	fclose(in);
	if (e == SPS_OK && (*f = fopen(path, "rb")) == NULL)
		e = sps_fail(SPS_EIO, "%s: %s", path, strerror(errno));
	if (e == SPS_OK && (e = check_size(*f, path, inf, *n)) != SPS_OK) {
		fclose(*f);
		*f = NULL;
	}
	if (e != SPS_OK)
		sps_header_free(h);
	free(inf);
	return e;
}

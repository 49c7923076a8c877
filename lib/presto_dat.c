/* presto_dat.c: telling a PRESTO .dat from a SIGPROC file, and opening
 * it by the .inf beside it (presto.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "presto.h"

int
sps_presto_not_sigproc(const unsigned char *head, size_t n)
{
	unsigned char want[16];
	int32_t len = 12;

	memcpy(want, &len, sizeof(len));
	memcpy(want + 4, "HEADER_START", 12);
	return memcmp(head, want, n < sizeof(want) ? n : sizeof(want)) != 0;
}

static int
has_suffix(const char *path, const char *suffix)
{
	size_t n = strlen(path), m = strlen(suffix);

	return n > m && strcmp(path + n - m, suffix) == 0;
}

int
sps_presto_is_dat(const char *path, const unsigned char *head, size_t n)
{
	char *inf;
	int found;

	if (strcmp(path, "-") == 0 || !sps_presto_not_sigproc(head, n))
		return 0;
	if (has_suffix(path, ".dat"))
		return 1;
	if ((inf = sps_presto_inf_path(path)) == NULL)
		return 0;
	found = access(inf, F_OK) == 0;
	free(inf);
	return found;
}

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

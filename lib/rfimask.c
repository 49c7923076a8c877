/* rfimask.c: the rfifind mask reader.  The file is native-endian (every
 * PRESTO machine is little-endian), with no magic number, so the counts
 * are checked against each other and the file's length instead. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rfimask.h"

#define MAX_CHANS	(1 << 24)
#define MAX_INTS	(1 << 28)

struct in {
	FILE		*f;
	const char	*name;
	uint64_t	 left;	/* bytes not read; UINT64_MAX: unknown */
};

/* Whether n items of size bytes are left to read: a file whose counts
 * promise more than it holds ends early, and is refused before memory
 * for those counts is taken. */
static enum sps_err
room(struct in *in, size_t size, size_t n, const char *what)
{
	if (in->left == UINT64_MAX || (uint64_t)n * size <= in->left)
		return SPS_OK;
	return sps_fail(SPS_ETRUNC, "%s: rfifind mask ends inside %s "
	    "(truncated?)", in->name, what);
}

static enum sps_err
get(struct in *in, void *buf, size_t size, size_t n, const char *what)
{
	if (n == 0)
		return SPS_OK;
	if (room(in, size, n, what) != SPS_OK)
		return SPS_ETRUNC;
	if (fread(buf, size, n, in->f) == n) {
		if (in->left != UINT64_MAX)
			in->left -= (uint64_t)n * size;
		return SPS_OK;
	}
	if (ferror(in->f))
		return sps_fail(SPS_EIO, "%s: %s", in->name, strerror(errno));
	return sps_fail(SPS_ETRUNC, "%s: rfifind mask ends inside %s "
	    "(truncated?)", in->name, what);
}

static enum sps_err
get_count(struct in *in, int *n, int max, const char *what)
{
	enum sps_err e;

	if ((e = get(in, n, sizeof(*n), 1, what)) != SPS_OK)
		return e;
	if (*n < 0 || *n > max)
		return sps_fail(SPS_EFORMAT, "%s: not an rfifind mask (%s %d)",
		    in->name, what, *n);
	return SPS_OK;
}

/* n numbers below limit, each setting flags[number]. */
static enum sps_err
get_list(struct in *in, int n, int limit, unsigned char *flags,
    int *into, const char *what)
{
	enum sps_err e;
	int *list, i;

	if ((e = room(in, sizeof(int), (size_t)n, what)) != SPS_OK)
		return e;
	list = into != NULL ? into : malloc((size_t)(n ? n : 1) *
	    sizeof(int));
	if (list == NULL)
		return sps_fail(SPS_ENOMEM, "%s: out of memory", in->name);
	e = get(in, list, sizeof(int), (size_t)n, what);
	for (i = 0; e == SPS_OK && i < n; i++) {
		if (list[i] < 0 || list[i] >= limit)
			e = sps_fail(SPS_EFORMAT, "%s: %s: %d is not below %d",
			    in->name, what, list[i], limit);
		else if (flags != NULL)
			flags[list[i]] = 1;
	}
	if (into == NULL)
		free(list);
	return e;
}

static enum sps_err
read_head(struct in *in, struct sps_rfimask *m)
{
	double d[6];
	enum sps_err e;

	if ((e = get(in, d, sizeof(double), 6, "its header")) != SPS_OK ||
	    (e = get_count(in, &m->numchan, MAX_CHANS, "channels")) !=
	    SPS_OK ||
	    (e = get_count(in, &m->numint, MAX_INTS, "intervals")) != SPS_OK ||
	    (e = get_count(in, &m->ptsperint, INT32_MAX,
	    "spectra per interval")) != SPS_OK)
		return e;
	if (m->numchan == 0 || m->ptsperint == 0 || m->numint == 0)
		return sps_fail(SPS_EFORMAT, "%s: not an rfifind mask (%d "
		    "channels, %d intervals of %d spectra)", in->name,
		    m->numchan, m->numint, m->ptsperint);
	/* numint counts of 4 bytes follow, after two more counts */
	if ((e = room(in, sizeof(int), (size_t)m->numint + 2,
	    "the channel counts")) != SPS_OK)
		return e;
	m->timesigma = d[0], m->freqsigma = d[1], m->mjd = d[2];
	m->dtint = d[3], m->lofreq = d[4], m->dfreq = d[5];
	m->zap_chan = calloc((size_t)m->numchan, 1);
	m->zap_int = calloc((size_t)m->numint, 1);
	m->first = calloc((size_t)m->numint + 1, sizeof(int));
	if (m->zap_chan == NULL || m->zap_int == NULL || m->first == NULL)
		return sps_fail(SPS_ENOMEM, "%s: out of memory", in->name);
	return SPS_OK;
}

/* The channels of each interval: a count each, then the lists of those
 * with some but not all channels (all: nothing stored, all masked). */
static enum sps_err
read_intervals(struct in *in, struct sps_rfimask *m)
{
	int *count, i, total = 0;
	enum sps_err e;

	if ((count = malloc((size_t)m->numint * sizeof(int))) == NULL)
		return sps_fail(SPS_ENOMEM, "%s: out of memory", in->name);
	e = get(in, count, sizeof(int), (size_t)m->numint,
	    "the channel counts");
	for (i = 0; e == SPS_OK && i < m->numint; i++) {
		if (count[i] < 0 || count[i] > m->numchan)
			e = sps_fail(SPS_EFORMAT, "%s: not an rfifind mask "
			    "(interval %d masks %d channels)", in->name, i,
			    count[i]);
		else if (count[i] == m->numchan)
			m->zap_int[i] = 1;
		else if (count[i] > INT32_MAX - total)
			e = sps_fail(SPS_EFORMAT, "%s: not an rfifind mask "
			    "(more than 2^31 channel numbers)", in->name);
		else
			total += count[i];
		m->first[i + 1] = total;
	}
	if (e == SPS_OK)
		e = room(in, sizeof(int), (size_t)total,
		    "the interval channel lists");
	if (e == SPS_OK && (m->chans = malloc((size_t)(total ? total : 1) *
	    sizeof(int))) == NULL)
		e = sps_fail(SPS_ENOMEM, "%s: out of memory", in->name);
	if (e == SPS_OK)
		e = get_list(in, total, m->numchan, NULL, m->chans,
		    "the interval channel lists");
	free(count);
	return e;
}

static enum sps_err
read_body(struct in *in, struct sps_rfimask *m)
{
	enum sps_err e;
	int n;

	if ((e = get_count(in, &n, m->numchan, "zapped channels")) !=
	    SPS_OK ||
	    (e = get_list(in, n, m->numchan, m->zap_chan, NULL,
	    "the zapped channels")) != SPS_OK ||
	    (e = get_count(in, &n, m->numint, "zapped intervals")) != SPS_OK ||
	    (e = get_list(in, n, m->numint, m->zap_int, NULL,
	    "the zapped intervals")) != SPS_OK ||
	    (e = read_intervals(in, m)) != SPS_OK)
		return e;
	if (fgetc(in->f) != EOF)
		return sps_fail(SPS_EFORMAT, "%s: not an rfifind mask (bytes "
		    "after its end)", in->name);
	return SPS_OK;
}

enum sps_err
sps_rfimask_read(FILE *f, const char *name, struct sps_rfimask *m)
{
	struct in in = { f, name, UINT64_MAX };
	struct stat st;
	enum sps_err e;
	off_t at;

	memset(m, 0, sizeof(*m));
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    (at = ftello(f)) >= 0 && at <= st.st_size)
		in.left = (uint64_t)(st.st_size - at);
	if ((e = read_head(&in, m)) == SPS_OK)
		e = read_body(&in, m);
	if (e != SPS_OK)
		sps_rfimask_free(m);
	return e;
}

enum sps_err
sps_rfimask_load(const char *path, struct sps_rfimask *m)
{
	enum sps_err e;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		return sps_fail(SPS_EIO, "%s: %s", path, strerror(errno));
	e = sps_rfimask_read(f, path, m);
	fclose(f);
	return e;
}

void
sps_rfimask_free(struct sps_rfimask *m)
{
	free(m->zap_chan);
	free(m->zap_int);
	free(m->first);
	free(m->chans);
	memset(m, 0, sizeof(*m));
}

enum sps_err
sps_rfimask_check(const struct sps_rfimask *m, const char *name,
    int nchans)
{
	if (m->numchan != nchans)
		return sps_fail(SPS_EVALUE, "%s: the mask has %d channels, "
		    "the data %d", name, m->numchan, nchans);
	return SPS_OK;
}

int
sps_rfimask_interval(const struct sps_rfimask *m, uint64_t spectrum)
{
	uint64_t i = spectrum / (uint64_t)m->ptsperint;

	return i >= (uint64_t)m->numint ? m->numint - 1 : (int)i;
}

int
sps_rfimask_channels(const struct sps_rfimask *m, int i,
    unsigned char *masked)
{
	int c, k, n = 0;

	for (c = 0; c < m->numchan; c++)
		masked[c] |= m->zap_chan[c] || m->zap_int[i];
	for (k = m->first[i]; k < m->first[i + 1]; k++)
		masked[m->chans[k]] = 1;
	for (c = 0; c < m->numchan; c++)
		n += masked[c];
	return n;
}

/* aux-snr: the reference S/N measurement for sps-fake's tests.
 *
 *	aux-snr [-p PERIOD] FILE DM T W [T W ...]
 *
 * Reads FILE whole, dedisperses it at DM by a plain sum over channels
 * with delays rounded to the nearest sample relative to the top channel,
 * and prints, one a line for each pulse (T s, W samples), the S/N of the
 * W-sample boxcar starting at floor(T/tsamp - W/2 + 0.5): the boxcar sum
 * less W times the off-pulse mean, over sqrt(W) times the off-pulse rms
 * of the dedispersed series.  Off-pulse is farther than 2W + 16 samples
 * from every pulse given, and with -p, from every pulse of a pulsar at
 * (k + 1/2) PERIOD s. */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmdelay.h"
#include "reader.h"

struct pulse {
	long	i0;	/* boxcar start */
	long	w;	/* boxcar width */
};

static float *
read_all(struct sps_reader *r, size_t *nsamples)
{
	size_t cap = 4096, have = 0, got, nchans = r->hdr.nchans;
	float *data = malloc(cap * nchans * sizeof(float));
	enum sps_err e;

	for (;;) {
		if (data == NULL)
			err(2, NULL);
		e = sps_reader_read(r, data + have * nchans, cap - have, &got);
		if (e == SPS_EEOF)
			break;
		if (e != SPS_OK)
			errx(2, "%s", sps_errmsg());
		have += got;
		if (have == cap) {
			cap *= 2;
			data = realloc(data, cap * nchans * sizeof(float));
		}
	}
	*nsamples = have;
	return data;
}

/* The band sum dedispersed at dm; *len samples. */
static double *
dedisperse(const struct sps_header *h, const float *data, size_t nsamples,
    double dm, size_t *len)
{
	double ftop = -INFINITY, *series;
	long *delay, maxdelay = 0;
	size_t j, nchans = h->nchans;
	int c;

	if ((delay = malloc(nchans * sizeof(long))) == NULL)
		err(2, NULL);
	for (c = 0; c < (int)nchans; c++)
		if (sps_channel_freq(h, c) > ftop)
			ftop = sps_channel_freq(h, c);
	for (c = 0; c < (int)nchans; c++) {
		delay[c] = sps_dm_delay_samples(dm, sps_channel_freq(h, c),
		    ftop, h->tsamp);
		if (delay[c] > maxdelay)
			maxdelay = delay[c];
	}
	if ((size_t)maxdelay >= nsamples)
		errx(2, "the sweep is longer than the file");
	*len = nsamples - maxdelay;
	if ((series = calloc(*len, sizeof(double))) == NULL)
		err(2, NULL);
	for (j = 0; j < *len; j++)
		for (c = 0; c < (int)nchans; c++)
			series[j] += data[(j + delay[c]) * nchans + c];
	free(delay);
	return series;
}

static int
off_pulse(long j, const struct pulse *p, int np, double period,
    double tsamp)
{
	double phase;
	int i;

	for (i = 0; i < np; i++)
		if (j >= p[i].i0 - 2 * p[i].w - 16 &&
		    j < p[i].i0 + 3 * p[i].w + 16)
			return 0;
	if (period > 0) {
		phase = fmod((j + 0.5) * tsamp, period) - 0.5 * period;
		if (fabs(phase) < (2 * p[0].w + 16) * tsamp)
			return 0;
	}
	return 1;
}

int
main(int argc, char **argv)
{
	struct sps_reader r;
	struct pulse *p;
	size_t nsamples, len, j;
	double dm, period = 0, sum = 0, sum2 = 0, n = 0, mean, rms, box;
	double *series;
	float *data;
	int i, np;

	if (argc > 2 && strcmp(argv[1], "-p") == 0) {
		period = atof(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc < 5 || (argc - 3) % 2 != 0)
		errx(2, "usage: aux-snr [-p PERIOD] FILE DM T W [T W ...]");
	if (sps_reader_open(&r, argv[1]) != SPS_OK)
		errx(2, "%s", sps_errmsg());
	dm = atof(argv[2]);
	np = (argc - 3) / 2;
	if ((p = calloc(np, sizeof(*p))) == NULL)
		err(2, NULL);
	for (i = 0; i < np; i++) {
		p[i].w = atol(argv[4 + 2 * i]);
		p[i].i0 = (long)floor(atof(argv[3 + 2 * i]) / r.hdr.tsamp -
		    0.5 * p[i].w + 0.5);
	}
	data = read_all(&r, &nsamples);
	series = dedisperse(&r.hdr, data, nsamples, dm, &len);
	for (j = 0; j < len; j++) {
		if (!off_pulse((long)j, p, np, period, r.hdr.tsamp))
			continue;
		sum += series[j];
		sum2 += series[j] * series[j];
		n++;
	}
	if (n < 16)
		errx(2, "too few off-pulse samples");
	mean = sum / n;
	rms = sqrt(sum2 / n - mean * mean);
	for (i = 0; i < np; i++) {
		if (p[i].i0 < 0 || p[i].i0 + p[i].w > (long)len)
			errx(2, "boxcar %d is outside the dedispersed series",
			    i + 1);
		for (box = 0, j = p[i].i0; j < (size_t)(p[i].i0 + p[i].w); j++)
			box += series[j] - mean;
		printf("%.6f\n", box / (rms * sqrt((double)p[i].w)));
	}
	sps_reader_close(&r);
	free(series);
	free(data);
	free(p);
	return 0;
}

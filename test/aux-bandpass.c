/* aux-bandpass: band-averaged bandpasses for the sps-filterbank tests.
 *
 *	aux-bandpass means FILE
 *		the mean of every channel over time, one per line
 *	aux-bandpass corr A B [N]
 *		the correlation coefficient of A's bandpass with B's, B's
 *		channels summed N at a time first (N defaults to 1)
 *	aux-bandpass fits OUT PSRFITS
 *		OUT's bandpass (made from PSRFITS with AA+BB summed) against
 *		what PSRFITS's own columns predict: the correlation of the
 *		channel means with DAT_OFFS(AA) + DAT_OFFS(BB), of the channel
 *		rms with sqrt(DAT_SCL(AA)^2 + DAT_SCL(BB)^2), and the median
 *		relative difference of the means from those offsets
 *
 * FILE, A and B are anything the suite reads (SIGPROC or PSRFITS). */
#include <err.h>
#include <fitsio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

#define BLOCK	1024

/* Second pass: rms about the means. */
static double *
spread(struct sps_reader *r, const char *path, const double *mean,
    float *buf, size_t n)
{
	double *sq;
	size_t got, i, v;
	uint64_t total = 0;

	sps_reader_close(r);
	if (sps_reader_open(r, path) != SPS_OK)
		errx(1, "%s", sps_errmsg());
	if ((sq = calloc(n, sizeof(double))) == NULL)
		err(1, NULL);
	while (sps_reader_read(r, buf, BLOCK, &got) == SPS_OK) {
		for (i = 0; i < got; i++)
			for (v = 0; v < n; v++)
				sq[v] += (buf[i * n + v] - mean[v]) *
				    (buf[i * n + v] - mean[v]);
		total += got;
	}
	for (v = 0; v < n; v++)
		sq[v] = sqrt(sq[v] / (double)total);
	return sq;
}

/* Per-value means (and rms about them, when rms is not NULL) over all
 * spectra: nifs * nchans of them. */
static double *
bandpass_rms(const char *path, size_t *nvalues, double **rms)
{
	struct sps_reader r;
	enum sps_err e;
	double *sum;
	float *buf;
	size_t n, got, i, v;
	uint64_t total = 0;

	if (sps_reader_open(&r, path) != SPS_OK)
		errx(1, "%s", sps_errmsg());
	n = sps_spectrum_values(&r.hdr);
	if ((sum = calloc(n, sizeof(double))) == NULL ||
	    (buf = malloc(BLOCK * n * sizeof(float))) == NULL)
		err(1, NULL);
	while ((e = sps_reader_read(&r, buf, BLOCK, &got)) == SPS_OK) {
		for (i = 0; i < got; i++)
			for (v = 0; v < n; v++)
				sum[v] += buf[i * n + v];
		total += got;
	}
	if (e != SPS_EEOF)
		errx(1, "%s", sps_errmsg());
	if (total == 0)
		errx(1, "%s: no data", path);
	for (v = 0; v < n; v++)
		sum[v] /= (double)total;
	if (rms != NULL)
		*rms = spread(&r, path, sum, buf, n);
	free(buf);
	sps_reader_close(&r);
	*nvalues = n;
	return sum;
}

static double *
bandpass(const char *path, size_t *nvalues)
{
	return bandpass_rms(path, nvalues, NULL);
}

static double
correlation(const double *a, const double *b, size_t n)
{
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		ma += a[i];
		mb += b[i];
	}
	ma /= n;
	mb /= n;
	for (i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	return sab / sqrt(saa * sbb);
}

/* Row-averaged DAT_OFFS summed over pols 0 and 1, and the quadrature
 * sum of the row-rms DAT_SCL, per channel. */
static void
predict(const char *path, size_t nchan, double *offs, double *scale)
{
	long nrows, row, npol;
	int st = 0, col_offs, col_scl;
	size_t c, p;
	double *o, *k;
	fitsfile *f;

	fits_open_diskfile(&f, path, READONLY, &st);
	fits_movnam_hdu(f, BINARY_TBL, "SUBINT", 0, &st);
	fits_read_key(f, TLONG, "NPOL", &npol, NULL, &st);
	fits_get_num_rows(f, &nrows, &st);
	fits_get_colnum(f, CASEINSEN, "DAT_OFFS", &col_offs, &st);
	fits_get_colnum(f, CASEINSEN, "DAT_SCL", &col_scl, &st);
	if (st != 0 || npol < 2)
		errx(1, "%s: not a PSRFITS file with two polarisations", path);
	o = malloc(2 * nchan * sizeof(double));
	k = malloc(2 * nchan * sizeof(double));
	if (o == NULL || k == NULL)
		err(1, NULL);
	memset(offs, 0, nchan * sizeof(double));
	memset(scale, 0, nchan * sizeof(double));
	for (row = 1; row <= nrows; row++) {
		fits_read_col(f, TDOUBLE, col_offs, row, 1, 2 * nchan, NULL, o,
		    NULL, &st);
		fits_read_col(f, TDOUBLE, col_scl, row, 1, 2 * nchan, NULL, k,
		    NULL, &st);
		if (st != 0)
			errx(1, "%s: row %ld unreadable", path, row);
		for (c = 0; c < nchan; c++)
			for (p = 0; p < 2; p++) {
				offs[c] += o[p * nchan + c] / nrows;
				scale[c] += k[p * nchan + c] *
				    k[p * nchan + c] / nrows;
			}
	}
	for (c = 0; c < nchan; c++)
		scale[c] = sqrt(scale[c]);
	fits_close_file(f, &st);
	free(o);
	free(k);
}

static int
compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
check_fits(const char *out, const char *fits)
{
	double *mean, *rms, *offs, *scale, *dev;
	size_t n, c;

	mean = bandpass_rms(out, &n, &rms);
	offs = malloc(n * sizeof(double));
	scale = malloc(n * sizeof(double));
	if (offs == NULL || scale == NULL)
		err(1, NULL);
	predict(fits, n, offs, scale);
	if ((dev = malloc(n * sizeof(double))) == NULL)
		err(1, NULL);
	for (c = 0; c < n; c++)
		dev[c] = fabs(mean[c] / offs[c] - 1);
	qsort(dev, n, sizeof(double), compare_doubles);
	printf("%.6f %.6f %.6f\n", correlation(mean, offs, n),
	    correlation(rms, scale, n), dev[n / 2]);
	free(dev);
	free(mean);
	free(rms);
	free(offs);
	free(scale);
	return 0;
}

int
main(int argc, char **argv)
{
	size_t na, nb, i, j, factor = 1;
	double *a, *b;

	if (argc == 3 && strcmp(argv[1], "means") == 0) {
		a = bandpass(argv[2], &na);
		for (i = 0; i < na; i++)
			printf("%.9g\n", a[i]);
		free(a);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "fits") == 0)
		return check_fits(argv[2], argv[3]);
	if ((argc != 4 && argc != 5) || strcmp(argv[1], "corr") != 0) {
		fprintf(stderr, "usage: aux-bandpass means FILE\n"
		    "       aux-bandpass corr A B [N]\n"
		    "       aux-bandpass fits OUT PSRFITS\n");
		return 2;
	}
	if (argc == 5 && (factor = strtoul(argv[4], NULL, 10)) < 1)
		errx(2, "N must be a positive integer");
	a = bandpass(argv[2], &na);
	b = bandpass(argv[3], &nb);
	if (nb / factor != na || nb % factor != 0)
		errx(1, "%zu values in %s, %zu in %s: not %zu times as many",
		    na, argv[2], nb, argv[3], factor);
	for (i = 0; i < na; i++) {
		double s = 0;

		for (j = 0; j < factor; j++)
			s += b[i * factor + j];
		b[i] = s;
	}
	printf("%.6f\n", correlation(a, b, na));
	free(a);
	free(b);
	return 0;
}

/* aux-mkfits: small PSRFITS search-mode files for the sps-filterbank tests,
 * good or deliberately broken, plus the values a reader should hand out.
 *
 *	aux-mkfits [options] OUT.fits
 *	aux-mkfits pol FITS P	(raw DATA bytes of polarisation P, 8-bit)
 *
 * Sample (spectrum t of the file, pol p, channel c) holds
 * (3 t + 5 c + 7 p) mod 2^nbits (16-bit: mod 2^15; 32-bit: that minus 9,
 * as a float).  DAT_SCL = 1 + (c + p) % 4, DAT_OFFS = 2 (c % 5) - 3 + p,
 * DAT_WTS = 0 for c % 7 == 3, 0.5 for c % 7 == 5, else 1: every value a
 * reader computes is exact in float, so expectations compare bytewise.
 *
 * Options:
 *	-b NBITS  -c NCHAN  -p NPOL  -P POL_TYPE  -s NSBLK  -r NROWS
 *	-z ZERO_OFF	written as ZERO_OFF (default 0)
 *	-a		DAT_FREQ ascending (default descending)
 *	-u		unit steps: DAT_SCL 1, DAT_OFFS 0, DAT_WTS 1
 *	-X		1-bit data in an 'X' column
 *	-g ROW		leave row ROW (1-based) out: an OFFS_SUB gap
 *	-R ROW		the first row is row ROW of the observation
 *	-T SECONDS	STT_SMJD + STT_OFFS later by SECONDS
 *	-m BAD		fold | image | nodata | nchan | nbits | nobsmode
 *	-e FILE		write the expected float32 values there
 *	-i POL		... for polarisation POL only (else the default rule)
 *	-n STEPS	... with steps off: any of z s o w (zero, scl, offs,
 *			wts)
 *	-k		... in the file's channel order (else foff < 0)
 *	-Z		... with missing rows as zeros (else the row mean) */
#include <err.h>
#include <fitsio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct spec {
	int	 nbits, nchan, npol, nsblk, nrows;
	const char *pol_type;
	double	 zero_off, tbin, shift;
	int	 ascending, unit, xcol, gap_row, first_row;
	const char *bad, *expect, *steps_off;
	int	 pol, keep_order, zeros;
};

static void
check(int status, const char *what)
{
	char text[FLEN_STATUS];

	if (status == 0)
		return;
	fits_get_errstatus(status, text);
	errx(1, "%s: %s", what, text);
}

static double
raw_value(const struct spec *s, long t, int p, int c)
{
	long v = 3 * t + 5 * c + 7 * p;

	if (s->nbits == 32)
		return (double)(v % 1000) - 9;
	if (s->nbits == 16)
		return (double)(v % 32768);
	return (double)(v % (1L << (s->nbits > 8 ? 8 : s->nbits)));
}

static double
scl(const struct spec *s, int p, int c)
{
	return s->unit ? 1 : 1 + (c + p) % 4;
}

static double
offs(const struct spec *s, int p, int c)
{
	return s->unit ? 0 : 2 * (c % 5) - 3 + p;
}

static double
wts(const struct spec *s, int c)
{
	return s->unit ? 1 : c % 7 == 3 ? 0 : c % 7 == 5 ? 0.5 : 1;
}

static void
primary(fitsfile *f, const struct spec *s)
{
	int st = 0;
	long imjd = 60000, smjd = 3600 + (long)floor(s->shift);
	double soffs = 0.25 + (s->shift - floor(s->shift));

	fits_create_img(f, BYTE_IMG, 0, NULL, &st);
	fits_write_key(f, TSTRING, "FITSTYPE", "PSRFITS", NULL, &st);
	if (strcmp(s->bad, "nobsmode") != 0)
		fits_write_key(f, TSTRING, "OBS_MODE", strcmp(s->bad,
		    "fold") == 0 ? "PSR" : "SEARCH", NULL, &st);
	fits_write_key(f, TSTRING, "TELESCOP", "Parkes", NULL, &st);
	fits_write_key(f, TSTRING, "SRC_NAME", "J0000+0000", NULL, &st);
	fits_write_key(f, TSTRING, "RA", "01:02:03.5", NULL, &st);
	fits_write_key(f, TSTRING, "DEC", "-04:05:06.5", NULL, &st);
	fits_write_key(f, TLONG, "STT_IMJD", &imjd, NULL, &st);
	fits_write_key(f, TLONG, "STT_SMJD", &smjd, NULL, &st);
	fits_write_key(f, TDOUBLE, "STT_OFFS", &soffs, NULL, &st);
	check(st, "primary HDU");
}

static void
subint_table(fitsfile *f, const struct spec *s, long *bytes)
{
	char form[5][32], *ttype[6] = { "OFFS_SUB", "DAT_FREQ", "DAT_WTS",
	    "DAT_OFFS", "DAT_SCL", "DATA" };
	char *tform[6];
	long nval = (long)s->nsblk * s->npol * s->nchan;
	int st = 0, i, ncol = 6, nbin = 64;
	int keynchan = s->nchan + (strcmp(s->bad, "nchan") == 0);
	int keynbits = strcmp(s->bad, "nbits") == 0 ? 3 : s->nbits;

	snprintf(form[0], 32, "%dD", s->nchan);
	snprintf(form[1], 32, "%dE", s->nchan);
	snprintf(form[2], 32, "%dE", s->nchan * s->npol);
	snprintf(form[3], 32, "%dE", s->nchan * s->npol);
	*bytes = (nval * keynbits + 7) / 8;
	if (s->nbits == 16)
		snprintf(form[4], 32, "%ldI", nval);
	else if (s->nbits == 32)
		snprintf(form[4], 32, "%ldE", nval);
	else if (s->xcol)
		snprintf(form[4], 32, "%ldX", nval);
	else
		snprintf(form[4], 32, "%ldB", *bytes);
	tform[0] = "1D";
	for (i = 0; i < 5; i++)
		tform[i + 1] = form[i];
	if (strcmp(s->bad, "nodata") == 0)
		ncol = 5;
	fits_create_tbl(f, BINARY_TBL, 0, ncol, ttype, tform, NULL, "SUBINT",
	    &st);
	fits_write_key(f, TINT, "NBITS", &keynbits, NULL, &st);
	fits_write_key(f, TINT, "NCHAN", &keynchan, NULL, &st);
	fits_write_key(f, TINT, "NPOL", (void *)&s->npol, NULL, &st);
	fits_write_key(f, TSTRING, "POL_TYPE", (void *)s->pol_type, NULL, &st);
	fits_write_key(f, TINT, "NSBLK", (void *)&s->nsblk, NULL, &st);
	fits_write_key(f, TDOUBLE, "TBIN", (void *)&s->tbin, NULL, &st);
	fits_write_key(f, TDOUBLE, "ZERO_OFF", (void *)&s->zero_off, NULL,
	    &st);
	if (strcmp(s->bad, "fold") == 0)
		fits_write_key(f, TINT, "NBIN", &nbin, NULL, &st);
	check(st, "SUBINT table");
}

static void
write_row(fitsfile *f, const struct spec *s, long row, long orow,
    long bytes)
{
	long nval = (long)s->nsblk * s->npol * s->nchan, t, v;
	double *freq, *w, *o, *k, *d, offs_sub;
	unsigned char *packed;
	int st = 0, p, c;

	freq = calloc((size_t)s->nchan, sizeof(double));
	w = calloc((size_t)s->nchan, sizeof(double));
	o = calloc((size_t)s->nchan * s->npol, sizeof(double));
	k = calloc((size_t)s->nchan * s->npol, sizeof(double));
	d = calloc((size_t)nval, sizeof(double));
	packed = calloc((size_t)(bytes + nval + 1), 1);
	if (freq == NULL || w == NULL || o == NULL || k == NULL ||
	    d == NULL || packed == NULL)
		err(1, NULL);
	for (c = 0; c < s->nchan; c++) {
		freq[c] = s->ascending ? 1000 + 2.0 * c : 1500 - 2.0 * c;
		w[c] = wts(s, c);
		for (p = 0; p < s->npol; p++) {
			o[p * s->nchan + c] = offs(s, p, c);
			k[p * s->nchan + c] = scl(s, p, c);
		}
	}
	for (t = 0; t < s->nsblk; t++)
		for (p = 0; p < s->npol; p++)
			for (c = 0; c < s->nchan; c++) {
				v = (t * s->npol + p) * s->nchan + c;
				d[v] = raw_value(s, orow * s->nsblk + t, p, c);
				if (s->nbits < 8)
					packed[v * s->nbits / 8] |= (unsigned
					    char)((int)d[v] << (8 - s->nbits -
					    v * s->nbits % 8));
				else if (s->nbits == 8)
					packed[v] = (unsigned char)d[v];
			}
	offs_sub = (orow + 0.5) * s->nsblk * s->tbin;
	fits_write_col(f, TDOUBLE, 1, row, 1, 1, &offs_sub, &st);
	fits_write_col(f, TDOUBLE, 2, row, 1, s->nchan, freq, &st);
	fits_write_col(f, TDOUBLE, 3, row, 1, s->nchan, w, &st);
	fits_write_col(f, TDOUBLE, 4, row, 1, s->nchan * s->npol, o, &st);
	fits_write_col(f, TDOUBLE, 5, row, 1, s->nchan * s->npol, k, &st);
	if (strcmp(s->bad, "nodata") == 0)
		;
	else if (s->nbits >= 16)
		fits_write_col(f, TDOUBLE, 6, row, 1, nval, d, &st);
	else
		fits_write_col(f, TBYTE, 6, row, 1, bytes, packed, &st);
	check(st, "writing a row");
	free(freq);
	free(w);
	free(o);
	free(k);
	free(d);
	free(packed);
}

/* One output value as the reader should compute it. */
static float
expected(const struct spec *s, long t, int c, int npol_used,
    const int *pols)
{
	int i, fc = s->ascending && !s->keep_order ? s->nchan - 1 - c : c;
	double sum = 0;

	for (i = 0; i < npol_used; i++) {
		int p = pols[i];
		double z = strchr(s->steps_off, 'z') ? 0 : s->zero_off;
		double k = strchr(s->steps_off, 's') ? 1 : scl(s, p, fc);
		double o = strchr(s->steps_off, 'o') ? 0 : offs(s, p, fc);
		double w = strchr(s->steps_off, 'w') ? 1 : wts(s, fc);

		sum += ((raw_value(s, t, p, fc) - z) * k + o) * w;
	}
	return (float)sum;
}

static void
write_expectation(const struct spec *s)
{
	int pols[2] = { 0, 1 }, npol_used = 1, c;
	long row, t, n = s->nchan;
	double *sum;
	float *spectrum;
	FILE *f;

	if (s->pol >= 0)
		pols[0] = s->pol;
	else if (s->npol == 2 || strncmp(s->pol_type, "AABB", 4) == 0)
		npol_used = 2;
	if ((f = fopen(s->expect, "wb")) == NULL)
		err(1, "%s", s->expect);
	sum = calloc((size_t)n, sizeof(double));
	spectrum = calloc((size_t)n, sizeof(float));
	if (sum == NULL || spectrum == NULL)
		err(1, NULL);
	for (row = s->first_row; row < s->first_row + s->nrows; row++) {
		int missing = row - s->first_row + 1 == s->gap_row;

		for (t = row * s->nsblk; t < (row + 1) * s->nsblk; t++) {
			for (c = 0; c < n; c++)
				spectrum[c] = missing ? (s->zeros ? 0 :
				    (float)(sum[c] / s->nsblk)) :
				    expected(s, t, c, npol_used, pols);
			if (fwrite(spectrum, sizeof(float), (size_t)n, f) !=
			    (size_t)n)
				err(1, "%s", s->expect);
		}
		if (missing)
			continue;
		memset(sum, 0, (size_t)n * sizeof(double));
		for (t = row * s->nsblk; t < (row + 1) * s->nsblk; t++)
			for (c = 0; c < n; c++)
				sum[c] += expected(s, t, c, npol_used, pols);
	}
	if (fclose(f) != 0)
		err(1, "%s", s->expect);
	free(sum);
	free(spectrum);
}

static void
make(const struct spec *s, const char *path)
{
	fitsfile *f;
	long bytes, row, out = 0;
	int st = 0;

	unlink(path);
	fits_create_file(&f, path, &st);
	check(st, path);
	primary(f, s);
	if (strcmp(s->bad, "image") == 0) {
		long naxes[2] = { 16, 16 };
		short pixels[256] = { 0 };

		fits_create_img(f, SHORT_IMG, 2, naxes, &st);
		fits_write_img(f, TSHORT, 1, 256, pixels, &st);
		fits_close_file(f, &st);
		check(st, path);
		return;
	}
	subint_table(f, s, &bytes);
	for (row = 0; row < s->nrows; row++) {
		if (row + 1 == s->gap_row)
			continue;
		write_row(f, s, ++out, s->first_row + row, bytes);
	}
	fits_close_file(f, &st);
	check(st, path);
}

/* The raw 8-bit samples of one polarisation, spectrum after spectrum. */
static int
dump_pol(const char *path, int pol)
{
	long nchan, npol, nsblk, nrows, row, t;
	unsigned char *buf;
	fitsfile *f;
	int st = 0, col;

	fits_open_diskfile(&f, path, READONLY, &st);
	fits_movnam_hdu(f, BINARY_TBL, "SUBINT", 0, &st);
	fits_read_key(f, TLONG, "NCHAN", &nchan, NULL, &st);
	fits_read_key(f, TLONG, "NPOL", &npol, NULL, &st);
	fits_read_key(f, TLONG, "NSBLK", &nsblk, NULL, &st);
	fits_get_num_rows(f, &nrows, &st);
	fits_get_colnum(f, CASEINSEN, "DATA", &col, &st);
	check(st, path);
	if ((buf = malloc((size_t)nchan)) == NULL)
		err(1, NULL);
	for (row = 1; row <= nrows; row++)
		for (t = 0; t < nsblk; t++) {
			fits_read_col(f, TBYTE, col, row, (t * npol + pol) *
			    nchan + 1, nchan, NULL, buf, NULL, &st);
			check(st, path);
			fwrite(buf, 1, (size_t)nchan, stdout);
		}
	free(buf);
	fits_close_file(f, &st);
	return ferror(stdout) || fflush(stdout) != 0;
}

int
main(int argc, char **argv)
{
	struct spec s = { 8, 16, 1, 32, 2, "AA+BB", 0, 64e-6, 0, 0, 0, 0, 0,
	    0, "", NULL, "", -1, 0, 0 };
	int ch;

	if (argc == 4 && strcmp(argv[1], "pol") == 0)
		return dump_pol(argv[2], atoi(argv[3]));
	while ((ch = getopt(argc, argv, "b:c:p:P:s:r:z:auXg:R:T:m:e:i:n:kZ"))
	    != -1) {
		switch (ch) {
		case 'b': s.nbits = atoi(optarg); break;
		case 'c': s.nchan = atoi(optarg); break;
		case 'p': s.npol = atoi(optarg); break;
		case 'P': s.pol_type = optarg; break;
		case 's': s.nsblk = atoi(optarg); break;
		case 'r': s.nrows = atoi(optarg); break;
		case 'z': s.zero_off = atof(optarg); break;
		case 'a': s.ascending = 1; break;
		case 'u': s.unit = 1; break;
		case 'X': s.xcol = 1; break;
		case 'g': s.gap_row = atoi(optarg); break;
		case 'R': s.first_row = atoi(optarg); break;
		case 'T': s.shift = atof(optarg); break;
		case 'm': s.bad = optarg; break;
		case 'e': s.expect = optarg; break;
		case 'i': s.pol = atoi(optarg); break;
		case 'n': s.steps_off = optarg; break;
		case 'k': s.keep_order = 1; break;
		case 'Z': s.zeros = 1; break;
		default:
			fprintf(stderr, "usage: aux-mkfits [options] "
			    "OUT.fits\n");
			return 2;
		}
	}
	if (optind != argc - 1)
		errx(2, "one output file");
	make(&s, argv[optind]);
	if (s.expect != NULL)
		write_expectation(&s);
	return 0;
}

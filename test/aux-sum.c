/* aux-sum: the reference sps-tscrunch is tested against.  Reads a whole
 * SIGPROC file into memory and writes, as raw float32 on standard output,
 * every output value of the time and channel sums, by the plain loops of
 * the definition:
 *
 *	out[j][i][c] = sum over dt < N, dc < M of in[j N + dt][i][c M + dc]
 *
 * (divided by N M with -m, rounded to an integer with -r).  With N = M =
 * 1 it dumps a file's values, so any output nbits can be compared.
 *
 * usage: aux-sum [-m] [-r] [-t N] [-f M] FILE */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "reader.h"

static float *
read_all(struct sps_reader *r, size_t *nspectra)
{
	size_t nv = sps_spectrum_values(&r->hdr), cap = 1024, got;
	float *all = malloc(cap * nv * sizeof(float));
	enum sps_err e;

	*nspectra = 0;
	for (;;) {
		if (all == NULL)
			errx(1, "out of memory");
		e = sps_reader_read(r, all + *nspectra * nv, cap - *nspectra,
		    &got);
		*nspectra += got;
		if (e == SPS_EEOF)
			return all;
		if (e != SPS_OK)
			errx(1, "%s", sps_errmsg());
		if (*nspectra == cap) {
			cap *= 2;
			all = realloc(all, cap * nv * sizeof(float));
		}
	}
}

int
main(int argc, char **argv)
{
	size_t tf = 1, ff = 1, n, j, i, c, dt, dc, nifs, nchans, nv;
	int mean = 0, round = 0, opt;
	struct sps_reader r;
	float *x, v;

	while ((opt = getopt(argc, argv, "f:mrt:")) != -1) {
		switch (opt) {
		case 'f':
			ff = strtoul(optarg, NULL, 10);
			break;
		case 'm':
			mean = 1;
			break;
		case 'r':
			round = 1;
			break;
		case 't':
			tf = strtoul(optarg, NULL, 10);
			break;
		default:
			errx(2, "usage: aux-sum [-m] [-r] [-t N] [-f M] FILE");
		}
	}
	if (optind != argc - 1 || tf < 1 || ff < 1)
		errx(2, "usage: aux-sum [-m] [-r] [-t N] [-f M] FILE");
	if (sps_reader_open(&r, argv[optind]) != SPS_OK)
		errx(1, "%s", sps_errmsg());
	x = read_all(&r, &n);
	nifs = (size_t)r.hdr.nifs;
	nchans = (size_t)r.hdr.nchans;
	nv = nifs * nchans;
	for (j = 0; j < n / tf; j++)
		for (i = 0; i < nifs; i++)
			for (c = 0; c < nchans / ff; c++) {
				double sum = 0;

				for (dt = 0; dt < tf; dt++)
					for (dc = 0; dc < ff; dc++)
						sum += x[(j * tf + dt) * nv +
						    i * nchans + c * ff + dc];
				if (mean)
					sum /= (double)(tf * ff);
				v = (float)sum;
				if (round)
					v = rintf(v);
				if (fwrite(&v, sizeof(v), 1, stdout) != 1)
					err(1, "stdout");
			}
	free(x);
	sps_reader_close(&r);
	return fflush(stdout) != 0;
}

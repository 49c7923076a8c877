/* boxcar_report.c: a boxcar plan's loss and speed (boxcar_report.h). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "boxcar_report.h"
#include "clock.h"
#include "noise.h"

/* Every width up to 32, then 16 per octave. */
static int
next_loss_width(int s)
{
	int octave = 1;

	if (s < 32)
		return s + 1;
	while (octave * 2 <= s)
		octave *= 2;
	return s + octave / 16;
}

void
sps_boxcar_loss_table(FILE *f, const struct sps_boxcar_plan *p)
{
	double sum_s = 0, sum_w = 0;
	int s, next = 1;

	fprintf(f, "# %s, widths up to %d samples, %.2f boxcars per sample\n",
	    p->name, p->max_width, sps_boxcar_evals_per_sample(p));
	fprintf(f, "# signal loss for a rectangular pulse of width S samples "
	    "(Adamek & Armour 2020):\n# systematic (eqs. A2, A3), worst case "
	    "(A9, A10), and their means over widths 1..S (eq. 19)\n");
	fprintf(f, "# %6s %10s %10s %10s %10s\n", "S", "systematic", "worst",
	    "mean_sys", "mean_worst");
	for (s = 1; s <= p->max_width; s++) {
		double ls = 1 - sps_boxcar_rsn_max(p, s);
		double lw = 1 - sps_boxcar_rsn_min(p, s);

		sum_s += ls;
		sum_w += lw;
		if (s != next && s != p->max_width)
			continue;
		fprintf(f, "%8d %10.4f %10.4f %10.4f %10.4f\n", s, ls, lw,
		    sum_s / s, sum_w / s);
		next = next_loss_width(s);
	}
}

/* Unit white noise, and sigma_w = sqrt(w). */
static void
white_noise(float *x, size_t n, float *scale, int max_width)
{
	size_t j;
	int i;

	srand(1);
	for (j = 0; j < n; j++)
		x[j] = (float)(sqrt(-2 * log((rand() + 1.0) / (RAND_MAX +
		    2.0))) * cos(2 * M_PI * rand() / (RAND_MAX + 1.0)));
	scale[0] = 0;
	for (i = 1; i <= max_width; i++)
		scale[i] = (float)(1 / sqrt((double)i));
}

/* One trial searched in windows of SPS_BENCH_WINDOW, as a search of data
 * runs. */
static enum sps_err
search_trial(const struct sps_boxcar_plan *p, struct sps_boxcar_work *w,
    const float *x, const float *scale, float *snr)
{
	enum sps_err e;
	size_t at;

	for (at = 0; at < SPS_BENCH_SAMPLES; at += SPS_BENCH_WINDOW)
		if ((e = sps_boxcar_search(p, w, x + at, SPS_BENCH_WINDOW,
		    scale, snr, NULL)) != SPS_OK)
			return e;
	return SPS_OK;
}

/* One trial through the noise model and the streaming search. */
static enum sps_err
stream_trial(const struct sps_boxcar_plan *p, struct sps_boxcar_work *w,
    const float *x, double outlier)
{
	struct sps_noise_opts no = { SPS_BENCH_WINDOW, outlier, 0,
	    p->max_width };
	struct sps_boxcar_stream *st = NULL;
	struct sps_noise_work *nw = NULL;
	struct sps_noise *nz = NULL;
	struct sps_noise_window win;
	enum sps_err e;
	size_t ne;

	if ((e = sps_noise_create(&nz, &no)) != SPS_OK ||
	    (e = sps_noise_work_create(&nw, &no)) != SPS_OK ||
	    (e = sps_boxcar_stream_create(&st, p, 6, 0,
	    sps_boxcar_stream_lag(p, SPS_BENCH_WINDOW))) != SPS_OK)
		goto done;
	if ((e = sps_noise_push(nz, x, SPS_BENCH_SAMPLES)) != SPS_OK)
		goto done;
	sps_noise_finish(nz);
	while (e == SPS_OK && sps_noise_next(nz, nw, &win))
		e = sps_boxcar_stream_push(st, w, win.x, win.n, win.scale);
	if (e == SPS_OK && (e = sps_boxcar_stream_finish(st, w)) == SPS_OK)
		sps_boxcar_stream_events(st, &ne);
done:
	sps_boxcar_stream_free(st);
	sps_noise_work_free(nw);
	sps_noise_free(nz);
	return e;
}

/* Check the search of the window at sample `at` of a trial, with widths
 * and, as it is timed, without. */
static enum sps_err
check_window(const struct sps_boxcar_plan *p, struct sps_boxcar_work *w,
    const float *x, size_t len, const float *scale, size_t at,
    struct sps_boxcar_bench *b)
{
	const size_t n = SPS_BENCH_WINDOW;
	float *snr = malloc(n * sizeof(float));
	float *bare = malloc(n * sizeof(float));
	int32_t *width = malloc(n * sizeof(int32_t));
	enum sps_err e = SPS_OK;

	if (snr == NULL || bare == NULL || width == NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	if (e == SPS_OK)
		e = sps_boxcar_search(p, w, x + at, n, scale, snr, width);
	if (e == SPS_OK)
		e = sps_boxcar_search(p, w, x + at, n, scale, bare, NULL);
	if (e == SPS_OK)
		e = sps_boxcar_check(p, x + at, n, len - at, scale, snr,
		    width, &b->agrees, &b->mismatch);
	if (e == SPS_OK && b->agrees)
		e = sps_boxcar_check(p, x + at, n, len - at, scale, bare,
		    NULL, &b->agrees, &b->mismatch);
	if (e == SPS_OK && b->agrees)
		b->checked += n;
	else if (e == SPS_OK)
		b->mismatch.start += at;
	free(snr);
	free(bare);
	free(width);
	return e;
}

/* Check the first and the last window of a trial. */
static enum sps_err
check_search(const struct sps_boxcar_plan *p, struct sps_boxcar_work *w,
    const float *x, size_t len, const float *scale,
    struct sps_boxcar_bench *b)
{
	enum sps_err e = check_window(p, w, x, len, scale, 0, b);

	if (e == SPS_OK && b->agrees)
		e = check_window(p, w, x, len, scale,
		    SPS_BENCH_SAMPLES - SPS_BENCH_WINDOW, b);
	return e;
}

/* Seconds per pass over every trial (repeated for at least a second),
 * the search alone or streamed. */
static enum sps_err
time_passes(const struct sps_boxcar_plan *p, struct sps_boxcar_bench *b,
    struct sps_boxcar_work **work, const float *x, const float *scale,
    float *snr, double outlier, int streamed, double *seconds)
{
	enum sps_err first = SPS_OK;
	double t0 = sps_clock();
	int reps = 0, i;

	do {
#pragma omp parallel for schedule(dynamic) num_threads(b->nthreads)
		for (i = 0; i < b->ntrials; i++) {
			int th = omp_get_thread_num();
			enum sps_err e = streamed ? stream_trial(p, work[th],
			    x, outlier) : search_trial(p, work[th], x, scale,
			    snr + (size_t)th * SPS_BENCH_WINDOW);

			if (e != SPS_OK)
#pragma omp critical
				first = e;
		}
		reps++;
	} while (first == SPS_OK && sps_clock() - t0 < 1);
	*seconds = (sps_clock() - t0) / reps;
	return first;
}

enum sps_err
sps_boxcar_bench_run(const struct sps_boxcar_plan *p, double outlier,
    int nthreads, struct sps_boxcar_bench *b)
{
	size_t len = SPS_BENCH_SAMPLES + sps_boxcar_tail(p);
	struct sps_boxcar_work **work;
	float *x, *scale, *snr;
	enum sps_err e = SPS_OK;
	double search_s = 0, total_s = 0;
	int i;

	b->nthreads = nthreads > 0 ? nthreads : omp_get_max_threads();
	b->ntrials = 2 * b->nthreads;
	b->samples = SPS_BENCH_SAMPLES;
	b->checked = 0;
	b->agrees = 0;
	b->search_rate = b->total_rate = 0;
	x = malloc(len * sizeof(float));
	scale = malloc(((size_t)p->max_width + 1) * sizeof(float));
	snr = malloc((size_t)b->nthreads * SPS_BENCH_WINDOW * sizeof(float));
	work = calloc((size_t)b->nthreads, sizeof(*work));
	if (x == NULL || scale == NULL || snr == NULL || work == NULL)
		e = sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; e == SPS_OK && i < b->nthreads; i++)
		e = sps_boxcar_work_create(&work[i]);
	if (e == SPS_OK) {
		white_noise(x, len, scale, p->max_width);
		e = check_search(p, work[0], x, len, scale, b);
	}
	if (e == SPS_OK && b->agrees)
		e = time_passes(p, b, work, x, scale, snr, outlier, 0,
		    &search_s);
	if (e == SPS_OK && b->agrees)
		e = time_passes(p, b, work, x, scale, snr, outlier, 1,
		    &total_s);
	if (e == SPS_OK && b->agrees) {
		b->search_rate = b->ntrials * (double)b->samples / search_s;
		b->total_rate = b->ntrials * (double)b->samples / total_s;
	}
	for (i = 0; work != NULL && i < b->nthreads; i++)
		sps_boxcar_work_free(work[i]);
	free(work);
	free(snr);
	free(scale);
	free(x);
	return e;
}

static void
print_rate(FILE *f, const char *what, double rate, int nthreads)
{
	fprintf(f, "  %-18s %7.3f G samples/s, %6.3f per thread, %8.0f trials "
	    "of 64 us in real time\n", what, rate / 1e9, rate / 1e9 / nthreads,
	    rate * 64e-6);
}

/* The first start at which the search disagreed with the reference. */
static void
print_mismatch(FILE *f, const struct sps_boxcar_mismatch *m)
{
	if (m->width == 0)
		fprintf(f, "  FAILED: start %zu: S/N %.6g (searched without "
		    "widths), reference %.6g; not timed\n", m->start, m->snr,
		    m->ref_snr);
	else
		fprintf(f, "  FAILED: start %zu: S/N %.6g width %d, reference "
		    "S/N %.6g width %d; not timed\n", m->start, m->snr,
		    m->width, m->ref_snr, m->ref_width);
}

int
sps_boxcar_bench_print(FILE *f, const struct sps_boxcar_plan *p,
    const struct sps_boxcar_bench *b)
{
	fprintf(f, "%s, widths 1..%d (%.1f boxcars per sample), %d trials of "
	    "%zu samples, %d threads:\n", p->name, p->max_width,
	    sps_boxcar_evals_per_sample(p), b->ntrials, b->samples,
	    b->nthreads);
	if (!b->agrees) {
		print_mismatch(f, &b->mismatch);
		return 0;
	}
	fprintf(f, "  %-18s %zu starts (the first and last windows of %d) "
	    "agree with the reference\n", "checked:", b->checked,
	    SPS_BENCH_WINDOW);
	print_rate(f, "search:", b->search_rate, b->nthreads);
	print_rate(f, "noise and search:", b->total_rate, b->nthreads);
	return 1;
}

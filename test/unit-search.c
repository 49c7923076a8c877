/* unit-search: the search engine (lib/search.c) on DM-time blocks of
 * Gaussian noise with a boxcar pulse: one event where the pulse is, in
 * base samples, in every trial that holds it (scrunched trials too); the
 * same events whatever the block sizes; events in trial order; the plane
 * laid out as a DM-time block, S/N and widths, and the whole span
 * covered; the events' header; refused settings. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gauss.h"
#include "search.h"

#define NSAMP	65536
#define PULSE	40000	/* base sample */
#define PWIDTH	16	/* base samples */

/* Three trials, scrunched by 1, 1 and 2; the pulse is in trials 1 and
 * 2. */
static void
make_header(struct sps_header *h)
{
	static const double dms[3] = { 0, 10, 20 };
	static const int scrunch[3] = { 1, 1, 2 };

	sps_header_init(h);
	h->tsamp = 64e-6;
	h->fch1 = 1400;
	h->nchans = 1;
	h->nbits = 32;
	h->sps_dmtime = 1;
	h->sps_block = 4096;
	snprintf(h->source_name, sizeof(h->source_name), "TEST");
	assert_int_equal(sps_header_set_dms(h, dms, scrunch, 3), SPS_OK);
}

/* The three trials one after the other, whole: trial i's samples at
 * data + i * NSAMP (scrunched ones sum pairs). */
static float *
make_data(void)
{
	float *x = malloc(3 * NSAMP * sizeof(float));
	size_t j;
	int i;

	assert_non_null(x);
	test_rng = 88172645463325252ULL;
	for (i = 0; i < 3; i++)
		for (j = 0; j < NSAMP; j++)
			x[i * NSAMP + j] = gauss();
	for (i = 1; i < 3; i++)
		for (j = PULSE; j < PULSE + PWIDTH; j++)
			x[i * NSAMP + j] += 3;
	for (j = 0; j < NSAMP / 2; j++)
		x[2 * NSAMP + j] = x[2 * NSAMP + 2 * j] +
		    x[2 * NSAMP + 2 * j + 1];
	return x;
}

static void
default_opts(struct sps_search_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->algorithm = "BD-16";
	o->max_width = 256;
	o->threshold = 7;
	o->baseline = 0.5;
	o->outlier = 3;
	o->nthreads = 2;
	o->name = "test";
}

/* Take the events the engine holds, appending them to *all. */
static void
collect(struct sps_search *s, struct sps_event **all, size_t *n)
{
	const struct sps_event *ev;
	size_t k;

	ev = sps_search_events(s, &k);
	*all = realloc(*all, (*n + k + 1) * sizeof(**all));
	assert_non_null(*all);
	if (k > 0)
		memcpy(*all + *n, ev, k * sizeof(*ev));
	*n += k;
}

/* Feed data in blocks of `block` base samples (a DM-time block each);
 * returns the events, *n of them (malloc'd). */
static struct sps_event *
run(struct sps_search *s, const float *x, size_t block, size_t *n)
{
	static const int f[3] = { 1, 1, 2 };
	float *buf = malloc(3 * block * sizeof(float));
	struct sps_event *all = NULL;
	size_t at, len, m;
	int i;

	assert_non_null(buf);
	*n = 0;
	for (at = 0; at < NSAMP; at += len) {
		len = NSAMP - at < block ? NSAMP - at : block;
		for (m = 0, i = 0; i < 3; i++) {
			memcpy(buf + m, x + i * NSAMP + at / f[i], len / f[i] *
			    sizeof(float));
			m += len / f[i];
		}
		assert_int_equal(sps_search_feed(s, buf, len), SPS_OK);
		collect(s, &all, n);
	}
	assert_int_equal(sps_search_finish(s), SPS_OK);
	collect(s, &all, n);
	free(buf);
	return all;
}

static void
test_events_where_the_pulse_is(void **state)
{
	struct sps_search_opts o;
	struct sps_search_stats st;
	struct sps_header h;
	struct sps_search *s;
	struct sps_event *ev;
	float *x = make_data();
	size_t n, k;

	(void)state;
	make_header(&h);
	default_opts(&o);
	assert_int_equal(sps_search_create(&s, &h, &o), SPS_OK);
	ev = run(s, x, 4096, &n);
	assert_int_equal(n, 2);
	for (k = 0; k < n; k++) {
		assert_int_equal(ev[k].dm_index, (int)k + 1);
		assert_true(ev[k].sample >= PULSE - 4 &&
		    ev[k].sample <= PULSE + 4);
		assert_true(ev[k].width >= PWIDTH / 2 &&
		    ev[k].width <= 2 * PWIDTH);
		assert_true(ev[k].snr > 7 && ev[k].snr < 20);
		assert_true(fabs(ev[k].time - ev[k].sample * 64e-6) < 1e-12);
	}
	assert_true(ev[0].dm == 10 && ev[1].dm == 20);
	assert_int_equal(ev[1].sample % 2, 0);
	sps_search_stats(s, &st);
	assert_int_equal(st.nevents, 2);
	assert_int_equal(st.nbase, NSAMP);
	assert_int_equal(st.samples, NSAMP + NSAMP + NSAMP / 2);
	assert_int_equal(st.ntrials, 3);
	assert_int_equal(st.skipped, 0);
	free(ev);
	sps_search_free(s);
	sps_header_free(&h);
	free(x);
}

static int
by_trial_and_sample(const void *a, const void *b)
{
	const struct sps_event *x = a, *y = b;

	if (x->dm_index != y->dm_index)
		return x->dm_index < y->dm_index ? -1 : 1;
	return x->sample < y->sample ? -1 : x->sample > y->sample;
}

/* The same events, in the order of blocks then trials, so sorted for
 * the comparison; windows of `baseline` s. */
static void
blocks_do_not_matter(const char *algorithm, double baseline)
{
	static const size_t blocks[] = { 4096, 1024, 65536, 2 };
	struct sps_event *ref = NULL, *ev;
	struct sps_search_opts o;
	struct sps_header h;
	struct sps_search *s;
	float *x = make_data();
	size_t nref = 0, n, i, k;

	make_header(&h);
	h.sps_block = 65536;
	default_opts(&o);
	o.algorithm = algorithm;
	o.baseline = baseline;
	o.threshold = 4;	/* noise events too */
	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		assert_int_equal(sps_search_create(&s, &h, &o), SPS_OK);
		ev = run(s, x, blocks[i], &n);
		qsort(ev, n, sizeof(*ev), by_trial_and_sample);
		if (i == 0) {
			ref = ev;
			nref = n;
			assert_true(n > 10);
		} else {
			assert_int_equal(n, nref);
			for (k = 0; k < n; k++) {
				assert_int_equal(ev[k].dm_index, ref[k].dm_index);
				assert_int_equal(ev[k].sample, ref[k].sample);
				assert_int_equal(ev[k].width, ref[k].width);
				assert_true(ev[k].snr == ref[k].snr);
			}
			free(ev);
		}
		sps_search_free(s);
	}
	free(ref);
	sps_header_free(&h);
	free(x);
}

/* Windows searched as they are made, and (boxcars reaching past half a
 * window of 20 ms, which the exhaustive search's lattice allows) windows
 * held for those after them. */
static void
test_blocks_do_not_matter(void **state)
{
	(void)state;
	blocks_do_not_matter("BD-16", 0.5);
	blocks_do_not_matter("exhaustive", 0.02);
}

static void
test_plane(void **state)
{
	struct sps_search_opts o;
	struct sps_header h, p;
	struct sps_search *s;
	const float *v;
	float *x = make_data(), *buf;
	size_t n, nv, total = 0, win, at;
	float best = 0, best_width = 0;
	int blocks = 0;

	(void)state;
	make_header(&h);
	default_opts(&o);
	o.want_plane = 1;
	assert_int_equal(sps_search_create(&s, &h, &o), SPS_OK);
	win = sps_search_window(s);
	assert_int_equal(win % 2, 0);
	sps_header_init(&p);
	assert_int_equal(sps_search_plane_header(s, &h, &p), SPS_OK);
	assert_int_equal(p.sps_dmtime, 2);
	assert_int_equal(p.nbits, 32);
	assert_int_equal(p.sps_block, (int)win);
	assert_int_equal(p.ndms, 3);
	buf = malloc(3 * NSAMP * sizeof(float));
	assert_non_null(buf);
	memcpy(buf, x, 2 * NSAMP * sizeof(float));
	memcpy(buf + 2 * NSAMP, x + 2 * NSAMP, NSAMP / 2 * sizeof(float));
	assert_int_equal(sps_search_feed(s, buf, NSAMP), SPS_OK);
	assert_int_equal(sps_search_finish(s), SPS_OK);
	for (;;) {
		assert_int_equal(sps_search_plane_block(s, &v, &n, &nv), SPS_OK);
		if (n == 0)
			break;
		assert_int_equal(nv, n + n + n / 2);
		assert_true(n == win || total + n == NSAMP);
		/* trial 1's S/N and width at the pulse */
		for (at = 0; at < n; at++)
			if (total + at >= PULSE - 8 && total + at <= PULSE + 8 &&
			    v[n + at] > best) {
				best = v[n + at];
				best_width = v[nv + n + at];
			}
		total += n;
		blocks++;
	}
	assert_int_equal(total, NSAMP);
	assert_true(blocks >= 2);
	assert_true(best > 7);
	assert_true(best_width >= PWIDTH / 2 && best_width <= 2 * PWIDTH);
	sps_header_free(&p);
	sps_search_free(s);
	sps_header_free(&h);
	free(buf);
	free(x);
}

static void
test_events_meta(void **state)
{
	struct sps_search_opts o;
	struct sps_events_meta m;
	struct sps_header h;
	struct sps_search *s;

	(void)state;
	make_header(&h);
	h.sps_nchans_in = 1024;
	default_opts(&o);
	assert_int_equal(sps_search_create(&s, &h, &o), SPS_OK);
	sps_search_events_meta(s, &h, 12345, &m);
	assert_string_equal(m.source_name, "TEST");
	assert_string_equal(m.input, "test");
	assert_string_equal(m.algorithm, "BD-16");
	assert_int_equal(m.ndms, 3);
	assert_int_equal(m.nchans, 1024);
	assert_true(m.dm_lo == 0 && m.dm_hi == 20);
	assert_int_equal(m.nsamples, 12345);
	assert_true(m.threshold == 7);
	assert_true(m.max_width >= 256);
	sps_search_free(s);
	sps_header_free(&h);
}

static void
test_refused(void **state)
{
	static const double dm = 5;
	static const int bad = 0;
	struct sps_search_opts o;
	struct sps_header h;
	struct sps_search *s;

	(void)state;
	make_header(&h);
	default_opts(&o);
	o.max_width = 0;
	assert_int_equal(sps_search_create(&s, &h, &o), SPS_EVALUE);
	assert_null(s);
	default_opts(&o);
	o.algorithm = "BD-0";
	assert_int_not_equal(sps_search_create(&s, &h, &o), SPS_OK);
	default_opts(&o);
	o.baseline = 1e6;
	assert_int_equal(sps_search_create(&s, &h, &o), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "too long"));
	assert_int_equal(sps_header_set_dms(&h, &dm, &bad, 1), SPS_OK);
	default_opts(&o);
	assert_int_equal(sps_search_create(&s, &h, &o), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "scrunch factor 0"));
	sps_header_free(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_where_the_pulse_is),
		cmocka_unit_test(test_blocks_do_not_matter),
		cmocka_unit_test(test_plane),
		cmocka_unit_test(test_events_meta),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

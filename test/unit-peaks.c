/* unit-peaks: clustering (lib/peaks.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "peaks.h"

static struct sps_event
ev(int dmi, uint64_t sample, int width, float snr)
{
	struct sps_event e;

	e.dm_index = dmi;
	e.dm = dmi * 0.5;
	e.sample = sample;
	e.time = sample * 1e-3;
	e.width = width;
	e.snr = snr;
	return e;
}

static struct sps_peaks *
make(double threshold, int cluster, int64_t window)
{
	struct sps_peaks_opts o;
	struct sps_peaks *p;

	sps_peaks_defaults(&o);
	o.threshold = threshold;
	o.cluster = cluster;
	o.window = window;
	assert_int_equal(sps_peaks_create(&p, &o), SPS_OK);
	return p;
}

/* Feed n events, finish, and collect the candidates (at most max). */
static size_t
run(struct sps_peaks *p, const struct sps_event *e, size_t n,
    struct sps_cand *c, size_t max)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		assert_int_equal(sps_peaks_add(p, &e[i]), SPS_OK);
		while (k < max && sps_peaks_next(p, &c[k]))
			k++;
	}
	assert_int_equal(sps_peaks_finish(p), SPS_OK);
	while (k < max && sps_peaks_next(p, &c[k]))
		k++;
	return k;
}

static void
test_one_pulse(void **state)
{
	struct sps_event e[3 * 21];
	struct sps_cand c[8];
	size_t n = 0;
	int d, w;

	(void)state;
	/* one pulse seen at trials 40..60 and widths 4, 8, 16, strongest
	 * at trial 50 width 8 */
	for (d = 40; d <= 60; d++)
		for (w = 4; w <= 16; w *= 2)
			e[n++] = ev(d, 1000 + (uint64_t)(d - 40), w,
			    20 - abs(d - 50) * 0.5f - (w != 8));
	struct sps_peaks *p = make(6, 1, 0);
	assert_int_equal(run(p, e, n, c, 8), 1);
	assert_int_equal(c[0].members, 63);
	assert_int_equal(c[0].best.dm_index, 50);
	assert_int_equal(c[0].best.width, 8);
	assert_int_equal(c[0].best.sample, 1010);
	assert_true(c[0].best.snr == 20);
	assert_int_equal(c[0].first_sample, 1000);
	assert_int_equal(c[0].last_sample, 1020 + 15);
	assert_int_equal(c[0].dm_index_min, 40);
	assert_int_equal(c[0].dm_index_max, 60);
	assert_true(c[0].dm_min == 20 && c[0].dm_max == 30);
	sps_peaks_free(p);
}

static void
test_two_pulses(void **state)
{
	struct sps_event e[] = {
		ev(10, 1000, 4, 9), ev(11, 1001, 4, 10), ev(10, 2000, 4, 8),
		ev(11, 2001, 8, 12),
	};
	struct sps_cand c[4];
	struct sps_peaks *p = make(6, 1, 0);

	(void)state;
	assert_int_equal(run(p, e, 4, c, 4), 2);
	assert_int_equal(c[0].best.sample, 1001);
	assert_int_equal(c[0].members, 2);
	assert_int_equal(c[1].best.sample, 2001);
	assert_int_equal(c[1].members, 2);
	sps_peaks_free(p);
}

/* A-B and B-C are friends, A-C are not: one cluster, whatever order the
 * three come in (Heimdall's one-pass labels can leave C alone). */
static void
test_chain(void **state)
{
	struct sps_event abc[3] = {
		ev(0, 1000, 1, 7), ev(15, 1000, 1, 8), ev(30, 1000, 1, 9)
	};
	static const int order[6][3] = {
		{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 },
		{ 2, 1, 0 }
	};
	struct sps_event e[3];
	struct sps_cand c[3];
	int i, k;

	(void)state;
	for (i = 0; i < 6; i++) {
		struct sps_peaks *p = make(6, 1, 0);

		for (k = 0; k < 3; k++)
			e[k] = abc[order[i][k]];
		assert_int_equal(run(p, e, 3, c, 3), 1);
		assert_int_equal(c[0].members, 3);
		assert_int_equal(c[0].best.dm_index, 30);
		sps_peaks_free(p);
	}
	/* without B, A and C stay apart (25 trials > 20) */
	struct sps_peaks *p = make(6, 1, 0);
	e[0] = abc[0];
	e[1] = abc[2];
	assert_int_equal(run(p, e, 2, c, 3), 2);
	sps_peaks_free(p);
}

static void
test_linking_lengths(void **state)
{
	struct sps_cand c[4];
	struct sps_peaks *p;
	struct sps_event e[2];

	(void)state;
	/* time: centres 3 * 8 = 24 samples apart link, 25 do not */
	e[0] = ev(5, 1000, 8, 7);
	e[1] = ev(5, 1024, 8, 7);
	p = make(6, 1, 0);
	assert_int_equal(run(p, e, 2, c, 4), 1);
	sps_peaks_free(p);
	e[1].sample = 1025;
	p = make(6, 1, 0);
	assert_int_equal(run(p, e, 2, c, 4), 2);
	sps_peaks_free(p);
	/* width: 1 and 8 link (3 steps), 1 and 16 do not */
	e[0] = ev(5, 1000, 1, 7);
	e[1] = ev(5, 1000, 8, 7);
	p = make(6, 1, 0);
	assert_int_equal(run(p, e, 2, c, 4), 1);
	sps_peaks_free(p);
	e[1].width = 16;
	p = make(6, 1, 0);
	assert_int_equal(run(p, e, 2, c, 4), 2);
	sps_peaks_free(p);
	/* DM: 20 trials link, 21 do not */
	e[0] = ev(5, 1000, 4, 7);
	e[1] = ev(25, 1000, 4, 7);
	p = make(6, 1, 0);
	assert_int_equal(run(p, e, 2, c, 4), 1);
	sps_peaks_free(p);
	e[1].dm_index = 26;
	p = make(6, 1, 0);
	assert_int_equal(run(p, e, 2, c, 4), 2);
	sps_peaks_free(p);
	/* --no-cluster: each its own */
	e[1].dm_index = 5;
	p = make(6, 0, 0);
	assert_int_equal(run(p, e, 2, c, 4), 2);
	assert_int_equal(c[0].members, 1);
	sps_peaks_free(p);
}

static void
test_threshold(void **state)
{
	struct sps_event e[] = {
		ev(1, 100, 1, 5.9f), ev(1, 200, 1, 6), ev(1, 300, 1, 8)
	};
	struct sps_peaks_stats st;
	struct sps_cand c[4];
	struct sps_peaks *p = make(6, 1, 0);

	(void)state;
	assert_int_equal(run(p, e, 3, c, 4), 2);
	sps_peaks_stats(p, &st);
	assert_int_equal(st.events, 3);
	assert_int_equal(st.kept, 2);
	assert_int_equal(st.candidates, 2);
	sps_peaks_free(p);
}

static void
test_bad_event(void **state)
{
	struct sps_event e = ev(1, 100, 1, NAN);
	struct sps_peaks *p = make(6, 1, 0);

	(void)state;
	assert_int_equal(sps_peaks_add(p, &e), SPS_EVALUE);
	e = ev(1, 100, 1, 7);
	e.dm = INFINITY;
	assert_int_equal(sps_peaks_add(p, &e), SPS_EVALUE);
	sps_peaks_free(p);
}

/* The reference: friends by the definition, components by flooding. */
static int
friends(const struct sps_event *a, const struct sps_event *b)
{
	double ca = a->sample + a->width / 2.0, cb = b->sample + b->width / 2.0;
	int wide = a->width > b->width ? a->width : b->width;

	return abs(a->dm_index - b->dm_index) <= SPS_PEAKS_SEP_DM &&
	    fabs(log2((double)a->width / b->width)) <= SPS_PEAKS_SEP_FILTER &&
	    fabs(ca - cb) <= SPS_PEAKS_SEP_TIME * wide;
}

static size_t
reference(const struct sps_event *e, size_t n, size_t *members,
    uint64_t *first)
{
	int *label = malloc(n * sizeof(*label));
	size_t *stack = malloc(n * sizeof(*stack)), i, j, top, k = 0;

	assert_non_null(label);
	assert_non_null(stack);
	for (i = 0; i < n; i++)
		label[i] = -1;
	for (i = 0; i < n; i++) {
		if (label[i] >= 0)
			continue;
		members[k] = 0;
		first[k] = UINT64_MAX;
		label[i] = (int)k;
		stack[0] = i;
		top = 1;
		while (top > 0) {
			size_t a = stack[--top];

			members[k]++;
			if (e[a].sample < first[k])
				first[k] = e[a].sample;
			for (j = 0; j < n; j++)
				if (label[j] < 0 && friends(&e[a], &e[j])) {
					label[j] = (int)k;
					stack[top++] = j;
				}
		}
		k++;
	}
	free(label);
	free(stack);
	return k;
}

static int
by_first(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Random events: the clusters equal the connected components of the
 * friendship graph, in any order of arrival. */
static void
test_components(void **state)
{
	enum { N = 2500 };
	static const int widths[] = { 1, 2, 3, 4, 6, 8, 12, 16, 32, 64 };
	struct sps_event *e = malloc(N * sizeof(*e)), t;
	struct sps_cand *c = malloc(N * sizeof(*c));
	size_t members[N], i, j, k, m, pass;
	uint64_t first[N], ref[N][2], got[N][2];

	(void)state;
	assert_non_null(e);
	assert_non_null(c);
	srand(12345);
	for (i = 0; i < N; i++)
		e[i] = ev(rand() % 300, (uint64_t)(rand() % 30000),
		    widths[rand() % 10], 6 + (rand() % 1000) / 100.0f);
	k = reference(e, N, members, first);
	/* neither all apart nor all one: clusters of many sizes */
	assert_true(k > 100 && k < N - 100);
	for (i = 0, m = 0; i < k; i++) {
		if (members[i] > m)
			m = members[i];
		ref[i][0] = first[i];
		ref[i][1] = members[i];
	}
	assert_true(m >= 20 && m < N / 2);
	qsort(ref, k, sizeof(ref[0]), by_first);
	for (pass = 0; pass < 3; pass++) {
		struct sps_peaks *p = make(6, 1, 100000);

		m = run(p, e, N, c, N);
		assert_int_equal(m, k);
		for (i = 0; i < m; i++) {
			got[i][0] = c[i].first_sample;
			got[i][1] = c[i].members;
			if (i > 0)
				assert_true(c[i].best.sample >=
				    c[i - 1].best.sample);
		}
		qsort(got, m, sizeof(got[0]), by_first);
		assert_memory_equal(got, ref, k * sizeof(ref[0]));
		sps_peaks_free(p);
		for (i = N - 1; i > 0; i--) {	/* shuffle for the next pass */
			j = (size_t)rand() % (i + 1);
			t = e[i];
			e[i] = e[j];
			e[j] = t;
		}
	}
	free(e);
	free(c);
}

/* A long stream in block order (by block, then trial, then sample): the
 * events held stay bounded, candidates come out before the end and in
 * time order, and each pulse is one candidate. */
static void
test_long_stream(void **state)
{
	enum { BLOCK = 16384, NPULSE = 3000, SPACING = 3000, NDM = 30 };
	struct sps_peaks_stats st;
	struct sps_peaks *p = make(6, 1, 0);
	struct sps_cand c;
	struct sps_event e;
	uint64_t b, s, pulse, early = 0, k = 0, last = 0;
	int d, w;

	(void)state;
	for (b = 0; b * BLOCK < (uint64_t)NPULSE * SPACING + BLOCK; b++) {
		for (d = 0; d < NDM; d++) {
			for (s = b * BLOCK; s < (b + 1) * BLOCK; s++) {
				if (s % SPACING != (uint64_t)d ||
				    s / SPACING >= NPULSE)
					continue;
				for (w = 2; w <= 8; w *= 2) {
					e = ev(d, s, w, 10 + (w == 4));
					assert_int_equal(sps_peaks_add(p, &e),
					    SPS_OK);
				}
			}
			while (sps_peaks_next(p, &c)) {
				assert_int_equal(c.members, 3 * NDM);
				assert_true(c.best.sample >= last);
				last = c.best.sample;
				k++;
			}
		}
	}
	early = k;
	assert_int_equal(sps_peaks_finish(p), SPS_OK);
	while (sps_peaks_next(p, &c)) {
		assert_int_equal(c.members, 3 * NDM);
		assert_true(c.best.sample >= last);
		last = c.best.sample;
		k++;
	}
	pulse = k;
	assert_int_equal(pulse, NPULSE);
	assert_true(early > NPULSE / 2);
	sps_peaks_stats(p, &st);
	assert_int_equal(st.late, 0);
	assert_true(st.held_max <= 2 * 65536);
	sps_peaks_free(p);
}

/* A cluster that never ends (a chain of friends through the whole stream)
 * is one candidate, but its old members are not all held. */
static void
test_endless_cluster(void **state)
{
	enum { N = 300000 };
	struct sps_peaks_stats st;
	struct sps_peaks *p = make(6, 1, 0);
	struct sps_event e;
	struct sps_cand c;
	uint64_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		e = ev((int)(i % 3), 10 * i, 4, i == N / 3 ? 50 : 7);
		assert_int_equal(sps_peaks_add(p, &e), SPS_OK);
		assert_int_equal(sps_peaks_next(p, &c), 0);
	}
	assert_int_equal(sps_peaks_finish(p), SPS_OK);
	assert_int_equal(sps_peaks_next(p, &c), 1);
	assert_int_equal(c.members, N);
	assert_int_equal(c.first_sample, 0);
	assert_int_equal(c.last_sample, 10 * (N - 1) + 3);
	assert_int_equal(c.best.sample, 10 * (N / 3));
	assert_int_equal(c.dm_index_min, 0);
	assert_int_equal(c.dm_index_max, 2);
	assert_int_equal(sps_peaks_next(p, &c), 0);
	sps_peaks_stats(p, &st);
	assert_true(st.held_max < N / 2);
	sps_peaks_free(p);
}

static void
test_late(void **state)
{
	struct sps_peaks_stats st;
	struct sps_peaks *p = make(6, 1, 10);
	struct sps_event e;
	struct sps_cand c;
	uint64_t i;

	(void)state;
	for (i = 1; i <= 70000; i++) {
		e = ev(0, 1000 + 100 * i, 1, 7);
		assert_int_equal(sps_peaks_add(p, &e), SPS_OK);
	}
	e = ev(0, 0, 1, 7);
	assert_int_equal(sps_peaks_add(p, &e), SPS_OK);
	sps_peaks_stats(p, &st);
	assert_int_equal(st.late, 1);
	assert_int_equal(st.window, 10);
	assert_int_equal(sps_peaks_finish(p), SPS_OK);
	while (sps_peaks_next(p, &c))
		;
	sps_peaks_free(p);
}

static void
test_centre_filter(void **state)
{
	struct sps_event e = ev(0, 100, 1, 7);

	(void)state;
	assert_int_equal(sps_cand_centre(&e), 100);
	e.width = 2;
	assert_int_equal(sps_cand_centre(&e), 101);
	e.width = 3;
	assert_int_equal(sps_cand_centre(&e), 101);
	e.width = 8;
	assert_int_equal(sps_cand_centre(&e), 104);
	assert_int_equal(sps_cand_filter(1), 0);
	assert_int_equal(sps_cand_filter(2), 1);
	assert_int_equal(sps_cand_filter(3), 2);
	assert_int_equal(sps_cand_filter(5), 2);
	assert_int_equal(sps_cand_filter(6), 3);
	assert_int_equal(sps_cand_filter(4096), 12);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_pulse),
		cmocka_unit_test(test_two_pulses),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_linking_lengths),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_bad_event),
		cmocka_unit_test(test_components),
		cmocka_unit_test(test_long_stream),
		cmocka_unit_test(test_endless_cluster),
		cmocka_unit_test(test_late),
		cmocka_unit_test(test_centre_filter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

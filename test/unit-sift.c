/* unit-sift: the candidates sps-peaks writes (lib/sift.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sift.h"

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

static void
test_cuts(void **state)
{
	struct sps_cuts k = { 0, 0, 0 };
	struct sps_cand c;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.best = ev(2, 100, 16, 8);	/* DM 1 */
	c.members = 2;
	assert_int_equal(sps_cuts_apply(&k, &c), SPS_CUT_NONE);
	k.min_members = 3;
	assert_int_equal(sps_cuts_apply(&k, &c), SPS_CUT_MEMBERS);
	k.min_members = 2;
	k.max_width = 8;
	assert_int_equal(sps_cuts_apply(&k, &c), SPS_CUT_WIDTH);
	k.max_width = 16;
	k.min_dm = 1.5;
	assert_int_equal(sps_cuts_apply(&k, &c), SPS_CUT_DM);
	k.min_dm = 1;
	assert_int_equal(sps_cuts_apply(&k, &c), SPS_CUT_NONE);
}

/* A stream of 1 ms samples. */
static struct sps_events_meta
stream(void)
{
	struct sps_events_meta m;

	memset(&m, 0, sizeof(m));
	m.tsamp = 1e-3;
	m.threshold = 6;
	return m;
}

static char *
text_of(FILE *f, char **text)
{
	fclose(f);
	return *text;
}

/* 1 ms samples; clusters of 3 events at samples 100, 300 and 600, one
 * lone event at 2500 and a cluster of 2 at 5000: the lone one is cut by
 * its members, the three in the first second flood at 2 per s. */
static void
test_sift(void **state)
{
	static const uint64_t at[] = { 100, 300, 600 };
	struct sps_events_meta m = stream();
	struct sps_sift_opts so;
	struct sps_event e;
	struct sps_sift s;
	struct sps_cand c[8];
	char *text = NULL;
	size_t len, n = 0;
	FILE *f;
	int i, d;

	(void)state;
	sps_sift_defaults(&so);
	so.peaks.threshold = 6;
	so.cuts.min_members = 2;
	so.max_rate = 2;
	assert_int_equal(sps_sift_init(&s, &so, &m), SPS_OK);
	for (i = 0; i < 3; i++)
		for (d = 10; d < 13; d++) {
			e = ev(d, at[i], 4, d == 11 ? 12 : 8);
			assert_int_equal(sps_sift_add(&s, &e), SPS_OK);
		}
	e = ev(20, 2500, 2, 9);
	assert_int_equal(sps_sift_add(&s, &e), SPS_OK);
	e = ev(30, 5000, 2, 5);		/* below the threshold */
	assert_int_equal(sps_sift_add(&s, &e), SPS_OK);
	e = ev(30, 5000, 8, 7);
	assert_int_equal(sps_sift_add(&s, &e), SPS_OK);
	e = ev(31, 5001, 8, 7.5);
	assert_int_equal(sps_sift_add(&s, &e), SPS_OK);
	assert_int_equal(sps_sift_finish(&s), SPS_OK);
	while (n < 8 && sps_sift_next(&s, &c[n]))
		n++;
	f = open_memstream(&text, &len);
	sps_sift_warn(&s, f);
	assert_string_equal(text_of(f, &text), "sps-peaks: FLOOD: 3 "
	    "candidates between 0.000 and 1.000 s, more than --max-rate 2 "
	    "per s allows: probably RFI; all are kept and flagged\n");
	free(text);
	sps_sift_end(&s);
	while (n < 8 && sps_sift_next(&s, &c[n]))
		n++;
	assert_int_equal(n, 4);
	for (i = 0; i < 3; i++) {
		assert_int_equal(c[i].best.sample, at[i]);
		assert_int_equal(c[i].best.dm_index, 11);
		assert_int_equal(c[i].members, 3);
		assert_int_equal(c[i].flood, 1);
	}
	assert_int_equal(c[3].best.sample, 5001);
	assert_int_equal(c[3].flood, 0);
	assert_int_equal(s.cut[SPS_CUT_MEMBERS], 1);
	f = open_memstream(&text, &len);
	sps_sift_warn_end(&s, f);
	sps_sift_report(&s, f, 4);
	assert_string_equal(text_of(f, &text), "sps-peaks: 13 events, 12 at "
	    "S/N >= 6, 5 candidates; cut 1 by members, 0 by width, 0 by DM; "
	    "4 written, 3 flagged as flood; at most 12 events held\n");
	free(text);
	sps_sift_free(&s);
}

/* More flooded windows than warning lines: a total at the end. */
static void
test_many_floods(void **state)
{
	struct sps_events_meta m = stream();
	struct sps_sift_opts so;
	struct sps_event e;
	struct sps_sift s;
	struct sps_cand c;
	char *text = NULL;
	size_t len, lines = 0;
	FILE *f;
	int w;

	(void)state;
	sps_sift_defaults(&so);
	so.peaks.cluster = 0;
	so.max_rate = 1;
	assert_int_equal(sps_sift_init(&s, &so, &m), SPS_OK);
	f = open_memstream(&text, &len);
	for (w = 0; w < SPS_SIFT_FLOOD_LINES + 5; w++) {
		e = ev(1, 1000 * w + 10, 1, 9);
		assert_int_equal(sps_sift_add(&s, &e), SPS_OK);
		e = ev(1, 1000 * w + 20, 1, 9);
		assert_int_equal(sps_sift_add(&s, &e), SPS_OK);
		while (sps_sift_next(&s, &c))
			continue;
		sps_sift_warn(&s, f);
	}
	assert_int_equal(sps_sift_finish(&s), SPS_OK);
	sps_sift_end(&s);
	while (sps_sift_next(&s, &c))
		continue;
	sps_sift_warn(&s, f);
	sps_sift_warn_end(&s, f);
	fclose(f);
	for (len = 0; text[len] != '\0'; len++)
		lines += text[len] == '\n';
	assert_int_equal(lines, SPS_SIFT_FLOOD_LINES + 1);
	assert_non_null(strstr(text, "sps-peaks: FLOOD: 25 flooded windows "
	    "in all, 50 candidates flagged\n"));
	free(text);
	sps_sift_free(&s);
}

/* The window in the stream's samples; the late events warned of. */
static void
test_window(void **state)
{
	struct sps_events_meta m = stream();
	struct sps_peaks_stats st;
	struct sps_sift_opts so;
	struct sps_sift s;

	(void)state;
	sps_sift_defaults(&so);
	assert_true(so.flood_length == 1 && so.max_rate == 0);
	assert_true(so.peaks.sep_dm == SPS_PEAKS_SEP_DM && so.peaks.cluster);
	so.window_s = 0.0025;
	m.max_width = 64;
	assert_int_equal(sps_sift_init(&s, &so, &m), SPS_OK);
	assert_int_equal(sps_sift_finish(&s), SPS_OK);
	sps_peaks_stats(s.peaks, &st);
	assert_int_equal(st.window, 3);		/* 2.5 samples, up */
	sps_sift_free(&s);
}

static void
test_bad_parameters(void **state)
{
	struct sps_events_meta m = stream();
	struct sps_sift_opts so;
	struct sps_sift s;

	(void)state;
	sps_sift_defaults(&so);
	so.max_rate = -1;
	assert_int_equal(sps_sift_init(&s, &so, &m), SPS_EUSAGE);
	assert_null(s.peaks);
	so.max_rate = 0;
	so.peaks.sep_time = -1;
	assert_int_equal(sps_sift_init(&s, &so, &m), SPS_EUSAGE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cuts),
		cmocka_unit_test(test_sift),
		cmocka_unit_test(test_many_floods),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_bad_parameters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

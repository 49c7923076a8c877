/* unit-planfile: plans as text and JSON (lib/planfile.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plan.h"
#include "planfile.h"

/* 336 channels of 1 MHz below 1465 MHz, 64 us. */
static void
observation(struct sps_header *h)
{
	sps_header_init(h);
	h->nchans = 336;
	h->fch1 = 1465;
	h->foff = -1;
	h->tsamp = 64e-6;
	h->nbits = 8;
	h->nifs = 1;
}

static FILE *
text_file(const char *text)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	fputs(text, f);
	rewind(f);
	return f;
}

static enum sps_err
read_text(const char *text, struct sps_plan *p)
{
	FILE *f = text_file(text);
	enum sps_err e;

	sps_plan_init(p);
	e = sps_plan_read(f, "t", p);
	fclose(f);
	return e;
}

static void
test_round_trip(void **state)
{
	struct sps_header h;
	struct sps_plan p, q;
	FILE *f = tmpfile();
	size_t i;

	(void)state;
	observation(&h);
	sps_plan_init(&p);
	assert_int_equal(sps_plan_dedisp(&p, &h, 0, 1000, 40, 1.25), SPS_OK);
	assert_int_equal(sps_plan_steps(&p, 1100, 0.1, 7, 4), SPS_OK);
	sps_plan_add(&p, 1e6 / 3, 1 << 20);
	sps_plan_set_obs(&p, &h);
	assert_int_equal(sps_plan_write(f, &p, "two\nlines"), SPS_OK);
	rewind(f);
	sps_plan_init(&q);
	assert_int_equal(sps_plan_read(f, "t", &q), SPS_OK);
	fclose(f);
	assert_int_equal(q.ntrials, p.ntrials);
	for (i = 0; i < p.ntrials; i++) {
		assert_true(q.dm[i] == p.dm[i]);
		assert_int_equal(q.scrunch[i], p.scrunch[i]);
	}
	assert_true(q.has_obs);
	assert_int_equal(q.nchans, 336);
	assert_true(q.fch1 == h.fch1 && q.foff == h.foff &&
	    q.tsamp == h.tsamp);
	assert_int_equal(sps_plan_match(&q, &h), SPS_OK);
	h.nchans = 2048;
	assert_int_equal(sps_plan_match(&q, &h), SPS_EVALUE);
	sps_plan_free(&p);
	sps_plan_free(&q);
}

static void
test_read_lists(void **state)
{
	struct sps_plan p;

	(void)state;
	assert_int_equal(read_text("# a plain list\n0\n1.5\n\n3 4\n  7\t8 "
	    "# comment\n", &p), SPS_OK);
	assert_int_equal(p.ntrials, 4);
	assert_false(p.has_obs);
	assert_true(p.dm[1] == 1.5);
	assert_int_equal(p.scrunch[2], 4);
	assert_int_equal(p.scrunch[3], 8);
	sps_plan_free(&p);
	/* no newline at the end */
	assert_int_equal(read_text("1\n2", &p), SPS_OK);
	assert_int_equal(p.ntrials, 2);
	sps_plan_free(&p);
}

static void
test_read_errors(void **state)
{
	static const struct {
		const char	*text;
		enum sps_err	 code;
		const char	*says;
	} bad[] = {
		{ "", SPS_EVALUE, "no DM trials" },
		{ "# only\n\n", SPS_EVALUE, "no DM trials" },
		{ "1\n-2\n", SPS_EVALUE, "negative" },
		{ "1\n2\n2\n", SPS_EVALUE, "ascend" },
		{ "1\n0.5\n", SPS_EVALUE, "ascend" },
		{ "1 3\n", SPS_EVALUE, "power of 2" },
		{ "1 0\n", SPS_EVALUE, "power of 2" },
		{ "1 2.5\n", SPS_EFORMAT, "scrunch" },
		{ "1 2 3\n", SPS_EFORMAT, "more than two" },
		{ "12abc\n", SPS_EFORMAT, "not a DM" },
		{ "hello world\n", SPS_EFORMAT, "unknown key" },
		{ "nan\n", SPS_EVALUE, "not finite" },
		{ "1e999\n", SPS_EFORMAT, "not a DM" },
		{ "1\nnchans 4\n", SPS_EFORMAT, "after" },
		{ "ntrials 3\n1\n2\n", SPS_ETRUNC, "ntrials" },
		{ "nchans 4\nfch1 1400\n1\n", SPS_EFORMAT, "only some" },
		{ "nchans -4\n1\n", SPS_EVALUE, "nchans" },
		{ "sps-plan 99\n1\n", SPS_EFORMAT, "newer" },
		{ "tsamp\n1\n", SPS_EFORMAT, "no value" },
	};
	struct sps_plan p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(read_text(bad[i].text, &p), bad[i].code);
		if (strstr(sps_errmsg(), bad[i].says) == NULL)
			fail_msg("'%s': got '%s'", bad[i].text, sps_errmsg());
		assert_non_null(strstr(sps_errmsg(), "t: "));
		sps_plan_free(&p);
	}
}

static void
test_read_binary(void **state)
{
	static const char junk[] = { '1', '\n', '\0', 'x', '\n' };
	struct sps_plan p;
	FILE *f = tmpfile();
	char *longline = malloc(10000);

	(void)state;
	fwrite(junk, 1, sizeof(junk), f);
	rewind(f);
	sps_plan_init(&p);
	assert_int_equal(sps_plan_read(f, "t", &p), SPS_EFORMAT);
	assert_non_null(strstr(sps_errmsg(), "NUL"));
	fclose(f);
	sps_plan_free(&p);
	memset(longline, '1', 9999);
	longline[9999] = '\0';
	assert_int_equal(read_text(longline, &p), SPS_EFORMAT);
	assert_non_null(strstr(sps_errmsg(), "longer"));
	sps_plan_free(&p);
	free(longline);
}

static void
test_json(void **state)
{
	struct sps_plan_range *r;
	struct sps_header h;
	struct sps_plan p;
	char *text = NULL;
	size_t len = 0, n;
	FILE *f;

	(void)state;
	observation(&h);
	sps_plan_init(&p);
	sps_plan_add(&p, 0, 1);
	sps_plan_add(&p, 0.5, 2);
	sps_plan_set_obs(&p, &h);
	f = open_memstream(&text, &len);
	assert_int_equal(sps_plan_json(f, &p, NULL, 0, "\"mode\": \"x\""),
	    SPS_OK);
	fclose(f);
	assert_non_null(strstr(text, "\"mode\": \"x\""));
	assert_non_null(strstr(text, "\"tsamp\": 6.4e-05"));
	assert_non_null(strstr(text, "\"trials\": [\n  {\"dm\": 0, "
	    "\"scrunch\": 1},\n  {\"dm\": 0.5, \"scrunch\": 2}]}\n"));
	free(text);
	/* with ranges: one object a line, smearing in seconds */
	assert_int_equal(sps_plan_ranges(&p, &h, 0, 0, &r, &n), SPS_OK);
	f = open_memstream(&text, &len);
	assert_int_equal(sps_plan_json(f, &p, r, n, NULL), SPS_OK);
	fclose(f);
	assert_non_null(strstr(text, "{\"format\": \"sps-plan\", \"version\": "
	    "1, \"nchans\": 336, "));
	assert_non_null(strstr(text, "\"ranges\": [\n  {\"first\": 0, "
	    "\"count\": 1, \"dm_lo\": 0, \"dm_hi\": 0, \"step_min\": 0.5, "
	    "\"step_max\": 0.5, \"scrunch\": 1, \"smearing_s\": {\"sample\": "
	    "6.4e-05, "));
	assert_non_null(strstr(text, "},\n  {\"first\": 1, \"count\": 1, "));
	free(text);
	free(r);
	sps_plan_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_read_lists),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_read_binary),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

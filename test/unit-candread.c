/* unit-candread: candidate files read back (lib/candread.c, candsel.c):
 * what candfile.c writes reads back to the same candidates in every
 * format, Heimdall's own files read, bad lines are named. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "candfile.h"
#include "candread.h"
#include "header.h"
#include "reader.h"

#define TSAMP 64e-6

static void
make(struct sps_cand *c, uint64_t sample, int width, float snr, double dm,
    int dm_index)
{
	memset(c, 0, sizeof(*c));
	c->best.sample = sample;
	c->best.width = width;
	c->best.snr = snr;
	c->best.dm = dm;
	c->best.dm_index = dm_index;
	c->best.time = (double)sample * TSAMP;
	c->members = 3;
	c->first_sample = sample - 2;
	c->last_sample = sample + (uint64_t)width + 1;
	c->dm_min = c->dm_max = dm;
	c->dm_index_min = c->dm_index_max = dm_index;
}

static const struct sps_cand *
cands(void)
{
	static struct sps_cand c[3];

	make(&c[0], 31235, 32, 12.5f, 250.125, 40);
	make(&c[1], 60000, 1, 30.25f, 56.75, 12);
	make(&c[2], 150001, 4, 8.75f, 0, 0);
	return c;
}

/* The three candidates written in fmt and read back from name. */
static void
round_trip(enum sps_cand_format fmt, const char *name, double tsamp,
    struct sps_candlist *l)
{
	struct sps_cand_out o;
	char *text = NULL;
	size_t len, i;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	sps_cand_out_init(&o, fmt, f, TSAMP);
	o.data_file = "/data/x.fil";
	for (i = 0; i < 3; i++)
		assert_int_equal(sps_cand_out_write(&o, &cands()[i]), SPS_OK);
	assert_int_equal(sps_cand_out_finish(&o), SPS_OK);
	fclose(f);
	f = fmemopen(text, len, "r");
	assert_int_equal(sps_candread_stream(f, name, tsamp, l), SPS_OK);
	fclose(f);
	free(text);
	assert_int_equal(l->format, fmt);
	assert_int_equal(l->n, 3);
}

/* Widths that are powers of 2 come back exactly in every format. */
static void
check_same(const struct sps_candlist *l, int dm_index, int exact_dm)
{
	size_t i;

	for (i = 0; i < 3; i++) {
		const struct sps_event *a = &cands()[i].best;
		const struct sps_event *b = &l->cands[i].best;

		assert_int_equal(b->sample, a->sample);
		assert_int_equal(b->width, a->width);
		assert_true(fabs(b->snr - a->snr) < 0.01);
		assert_true(fabs(b->dm - a->dm) < (exact_dm ? 1e-3 : 0.01));
		assert_int_equal(b->dm_index, dm_index ? a->dm_index : -1);
		assert_true(fabs(b->time - (double)a->sample * TSAMP) < 1e-9);
	}
}

static void
test_formats_round_trip(void **state)
{
	struct sps_candlist l;

	(void)state;
	round_trip(SPS_CAND_TEXT, "c.txt", 0, &l);
	check_same(&l, 1, 1);
	assert_int_equal(l.cands[0].members, 3);
	assert_int_equal(l.cands[0].first_sample, 31233);
	assert_int_equal(l.line[0], 3);	/* after the two '#' lines */
	assert_true(fabs(l.tsamp - TSAMP) < 1e-12);
	sps_candlist_free(&l);
	round_trip(SPS_CAND_HEIMDALL, "c.cand", 0, &l);
	check_same(&l, 1, 1);
	assert_int_equal(l.cands[0].last_sample, 31235 + 33);
	assert_int_equal(l.heimdall_columns, 9);
	sps_candlist_free(&l);
	round_trip(SPS_CAND_PRESTO, "c.singlepulse", 0, &l);
	check_same(&l, 0, 0);
	sps_candlist_free(&l);
	round_trip(SPS_CAND_FETCH, "c.csv", TSAMP, &l);
	check_same(&l, 0, 1);
	assert_string_equal(l.data_file, "/data/x.fil");
	sps_candlist_free(&l);
}

static enum sps_err
read_text(const char *text, const char *name, double tsamp,
    struct sps_candlist *l)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	enum sps_err e;

	assert_non_null(f);
	e = sps_candread_stream(f, name, tsamp, l);
	fclose(f);
	return e;
}

/* Heimdall's own lines (devanshkv/fetch#32's example, and a multibeam
 * line with its beam column), found by content whatever the name. */
static void
test_heimdall_own(void **state)
{
	struct sps_candlist l;

	(void)state;
	assert_int_equal(read_text("14.869\t10956\t13.8754\t10\t68\t225.311\t"
	    "2817\t8046\t11714\n9.5 2000 2.5 0 3 12.5 1 1999 2001 4\n",
	    "x.dat", 0, &l), SPS_OK);
	assert_int_equal(l.format, SPS_CAND_HEIMDALL);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.cands[0].best.width, 1024);
	assert_int_equal(l.cands[0].best.sample, 10956 - 512);
	assert_int_equal(l.cands[0].first_sample, 8046);
	assert_int_equal(l.cands[0].last_sample, 11713);
	assert_int_equal(l.cands[0].members, 2817);
	assert_int_equal(l.cands[1].best.sample, 2000);
	assert_true(fabs(l.tsamp - 13.8754 / 10956) < 1e-9);
	assert_int_equal(l.line[1], 2);
	sps_candlist_free(&l);
}

static void
test_bad_lines(void **state)
{
	struct sps_candlist l;

	(void)state;
	assert_int_equal(read_text("1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 8\n",
	    "h.cand", 0, &l), SPS_EFORMAT);
	assert_string_equal(sps_errmsg(), "h.cand:2: 8 columns, Heimdall's "
	    "have 9 or more");
	assert_int_equal(read_text("# DM      Sigma      Time (s)     Sample "
	    "   Downfact\n10 7 0.5 x 4\n", "p.singlepulse", 0, &l),
	    SPS_EFORMAT);
	assert_string_equal(sps_errmsg(), "p.singlepulse:2: Sample 'x' is not "
	    "a number");
	assert_int_equal(read_text("file,snr,stime,width,dm\nx.fil,8,1.5,3,"
	    "20\n", "f.csv", 0, &l), SPS_EUSAGE);
	assert_int_equal(read_text("file,snr,stime,dm\n", "f.csv", 1e-3, &l),
	    SPS_EFORMAT);
	assert_string_equal(sps_errmsg(), "f.csv:1: FETCH's header has no "
	    "column 'width'");
	/* an empty file: no candidates, its format from the suffix */
	assert_int_equal(read_text("", "e.singlepulse", 0, &l), SPS_OK);
	assert_int_equal(l.n, 0);
	assert_int_equal(l.format, SPS_CAND_PRESTO);
	sps_candlist_free(&l);
}

static void
header_of(struct sps_header *h)
{
	sps_header_init(h);
	h->nchans = 64;
	h->fch1 = 1500;
	h->foff = -4;
	h->tsamp = TSAMP;
	h->nbits = 8;
	h->nifs = 1;
}

static void
test_check(void **state)
{
	struct sps_candlist l;
	struct sps_header h;

	(void)state;
	header_of(&h);
	round_trip(SPS_CAND_TEXT, "c.txt", 0, &l);
	assert_int_equal(sps_candlist_check(&l, &h, 200000), SPS_OK);
	assert_int_equal(sps_candlist_check(&l, &h, 100000), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "c.txt:5: sample 150001 is past "
	    "the end of the data (100000 samples)");
	l.cands[1].best.dm = 1e6;
	assert_int_equal(sps_candlist_check(&l, &h, SPS_NSAMPLES_UNKNOWN),
	    SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "c.txt:4: DM 1e+06 is out of range "
	    "(0 to 100000)");
	l.cands[1].best.dm = 20000;	/* 16.4 s across 1248-1500 MHz */
	assert_int_equal(sps_candlist_check(&l, &h, 200000), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "longer than the data"));
	h.tsamp = 2 * TSAMP;
	l.cands[1].best.dm = 50;
	assert_int_equal(sps_candlist_check(&l, &h, 200000), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "not this data's candidates"));
	sps_candlist_free(&l);
	sps_header_free(&h);
}

static void
test_selection(void **state)
{
	struct sps_candlist l;
	struct sps_candsel s;
	size_t *idx, n;

	(void)state;
	round_trip(SPS_CAND_TEXT, "c.txt", 0, &l);
	sps_candsel_defaults(&s);
	assert_int_equal(sps_candsel_apply(&s, &l, &idx, &n), SPS_OK);
	assert_int_equal(n, 3);
	assert_int_equal(idx[0], 1);	/* S/N 30.25 */
	assert_int_equal(idx[1], 0);
	assert_int_equal(idx[2], 2);
	free(idx);
	assert_int_equal(sps_candsel_parse(&s, "--snr", "9"), SPS_OK);
	assert_int_equal(sps_candsel_parse(&s, "rank", "2"), SPS_OK);
	assert_int_equal(sps_candsel_apply(&s, &l, &idx, &n), SPS_OK);
	assert_int_equal(n, 1);
	assert_int_equal(idx[0], 0);
	free(idx);
	assert_int_equal(sps_candsel_parse(&s, "--top", "1"), SPS_EUSAGE);
	assert_int_equal(sps_candsel_parse(&s, "--rank", "3"), SPS_OK);
	assert_int_equal(sps_candsel_apply(&s, &l, &idx, &n), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "rank 3 of 2 candidates");
	sps_candsel_defaults(&s);
	assert_int_equal(sps_candsel_parse(&s, "--top", "2"), SPS_OK);
	assert_int_equal(sps_candsel_apply(&s, &l, &idx, &n), SPS_OK);
	assert_int_equal(n, 2);
	free(idx);
	assert_int_equal(sps_candsel_parse(&s, "--top", "0"), SPS_EUSAGE);
	assert_int_equal(sps_candsel_parse(&s, "--snr", "x"), SPS_EUSAGE);
	assert_int_equal(sps_candsel_parse(&s, "--dm", "1"), SPS_EUSAGE);
	sps_candlist_free(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats_round_trip),
		cmocka_unit_test(test_heimdall_own),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_selection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

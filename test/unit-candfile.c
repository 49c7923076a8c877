/* unit-candfile: candidate files (lib/candfile.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "candfile.h"

/* The comment line under the column names: which instant the times
 * give (the table: the boxcar's start; PRESTO's: its centre). */
#define TEXT_NOTE "# time_s = sample * tsamp, s after tstart: the start " \
    "of the best boxcar (its first sample), at the centre of the highest " \
    "channel\n"
#define PRESTO_NOTE "# Time (s) = Sample * tsamp, s after tstart: the " \
    "centre of the best boxcar (Sample = its first sample + Downfact / 2, " \
    "rounded down), at the centre of the highest channel\n"

static char *
format(enum sps_cand_format fmt, const struct sps_cand *c, size_t n,
    int flood)
{
	struct sps_cand_out o;
	char *text = NULL;
	size_t len, i;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	sps_cand_out_init(&o, fmt, f, 64e-6);
	o.data_file = "/data/x,1.fil";
	o.chan_mask = "mask.txt";
	o.flood_column = flood;
	o.max_rate = 2;
	o.flood_length = 1;
	assert_int_equal(sps_cand_out_begin(&o), SPS_OK);
	for (i = 0; i < n; i++)
		assert_int_equal(sps_cand_out_write(&o, &c[i]), SPS_OK);
	fclose(f);
	return text;
}

static void
test_formats(void **state)
{
	struct sps_cand c[2];
	char *t;

	(void)state;
	memset(c, 0, sizeof(c));
	c[0].best.dm_index = 68;
	c[0].best.dm = 225.311;
	c[0].best.sample = 10950;
	c[0].best.width = 12;
	c[0].best.snr = 14.869f;
	c[0].members = 2817;
	c[0].first_sample = 8046;
	c[0].last_sample = 11713;
	c[0].dm_index_min = 60;
	c[0].dm_min = 200;
	c[0].dm_index_max = 70;
	c[0].dm_max = 230.5;
	c[1] = c[0];
	c[1].flood = 1;
	c[1].flood_window = 3;
	t = format(SPS_CAND_HEIMDALL, c, 1, 0);
	assert_string_equal(t, "14.869\t10956\t0.701184\t4\t68\t"
	    "225.311\t2817\t8046\t11714\t\n");
	free(t);
	t = format(SPS_CAND_PRESTO, c, 1, 0);
	assert_string_equal(t, "# DM      Sigma      Time (s)     Sample    "
	    "Downfact\n" PRESTO_NOTE
	    " 225.31   14.87      0.701184      10956      12\n");
	free(t);
	t = format(SPS_CAND_PRESTO, c, 0, 0);
	assert_string_equal(t, "");
	free(t);
	t = format(SPS_CAND_FETCH, c, 1, 0);
	assert_string_equal(t, "file,snr,stime,width,dm,label,chan_mask_path,"
	    "num_files\n\"/data/x,1.fil\",14.8690,0.701184000,4,225.311000,0,"
	    "mask.txt,1\n");
	free(t);
	t = format(SPS_CAND_FETCH, c, 2, 1);
	assert_string_equal(t, "file,snr,stime,width,dm,label,chan_mask_path,"
	    "num_files,flood\n\"/data/x,1.fil\",14.8690,0.701184000,4,"
	    "225.311000,0,mask.txt,1,0\n\"/data/x,1.fil\",14.8690,0.701184000,"
	    "4,225.311000,0,mask.txt,1,1\n");
	free(t);
	t = format(SPS_CAND_TEXT, c, 2, 1);
	assert_string_equal(t,
	    "#        time_s       sample  width      snr         dm dm_index "
	    " members first_sample  last_sample     dm_min     dm_max flood\n"
	    TEXT_NOTE
	    "    0.700800000        10950     12    14.87    225.311       68 "
	    "    2817         8046        11713    200.000    230.500     0\n"
	    "# FLOOD: more than 2 candidates between 3.000000 and 4.000000 s "
	    "(--max-rate 2 per s): the candidates of this interval are "
	    "flagged\n"
	    "    0.700800000        10950     12    14.87    225.311       68 "
	    "    2817         8046        11713    200.000    230.500     1\n");
	free(t);
}

static void
test_fetch_mask(void **state)
{
	unsigned char kill[6] = { 0, 1, 0, 0, 1, 1 };
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_int_equal(sps_fetch_mask_write(f, kill, 6), SPS_OK);
	assert_int_equal(sps_fetch_mask_write(f, NULL, 6), SPS_OK);
	fclose(f);
	assert_string_equal(text, "1\n4\n5\n");
	free(text);
}

static void
test_format_names(void **state)
{
	enum sps_cand_format fmt;

	(void)state;
	assert_int_equal(sps_cand_format_parse("heimdall", &fmt), SPS_OK);
	assert_int_equal(fmt, SPS_CAND_HEIMDALL);
	assert_int_equal(sps_cand_format_parse("fetch", &fmt), SPS_OK);
	assert_int_equal(fmt, SPS_CAND_FETCH);
	assert_int_equal(sps_cand_format_parse("csv", &fmt), SPS_EUSAGE);
}

/* The header waits for the first row, or for the end of a run without
 * rows. */
static void
test_stream(void **state)
{
	struct sps_cand_out out;
	char *text = NULL;
	size_t len;
	FILE *f;

	(void)state;
	f = open_memstream(&text, &len);
	sps_cand_out_init(&out, SPS_CAND_FETCH, f, 1e-3);
	out.data_file = "x.fil";
	assert_int_equal(sps_cand_out_finish(&out), SPS_OK);
	assert_int_equal(sps_cand_out_finish(&out), SPS_OK);
	fclose(f);
	assert_string_equal(text, "file,snr,stime,width,dm,label,"
	    "chan_mask_path,num_files\n");
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_fetch_mask),
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

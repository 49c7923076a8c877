/* unit-candfile: candidate files (lib/candfile.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc((size_t)n + 1, 1);
	assert_int_equal(fread(text, 1, (size_t)n, f), n);
	fclose(f);
	return text;
}

/* The header waits for the first row, or for the end of a run without
 * rows; a stream sink writes at once. */
static void
test_stream(void **state)
{
	struct sps_cand_sink sink;
	struct sps_cand_out out;
	struct sps_cand c;
	char *text = NULL;
	size_t len;
	FILE *f;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.best.dm = 12.5;
	c.best.sample = 1000;
	c.best.width = 2;
	c.best.snr = 9;
	f = open_memstream(&text, &len);
	sps_cand_out_init(&out, SPS_CAND_FETCH, f, 1e-3);
	out.data_file = "x.fil";
	assert_int_equal(sps_cand_out_finish(&out), SPS_OK);
	assert_int_equal(sps_cand_out_finish(&out), SPS_OK);
	fclose(f);
	assert_string_equal(text, "file,snr,stime,width,dm,label,"
	    "chan_mask_path,num_files\n");
	free(text);
	f = open_memstream(&text, &len);
	sps_cand_out_init(&out, SPS_CAND_HEIMDALL, f, 1e-3);
	sps_cand_sink_init(&sink, &out, NULL);
	assert_int_equal(sps_cand_sink_put(&sink, &c), SPS_OK);
	assert_int_equal(sps_cand_sink_close(&sink), SPS_OK);
	sps_cand_sink_free(&sink);
	fclose(f);
	assert_string_equal(text, "9\t1001\t1.001\t1\t0\t12.5\t0\t0\t1\t\n");
	assert_int_equal(sink.written, 1);
	free(text);
}

/* --per-dm: one file per DM as %.2f prints it, rows in time order. */
static void
test_per_dm(void **state)
{
	static const double dm[] = { 3.004, 10, 3.001, 2.999, 10 };
	static const uint64_t at[] = { 500, 200, 100, 300, 100 };
	char dir[] = "/tmp/unit-candfile.XXXXXX", root[64], path[96];
	struct sps_cand_sink sink;
	struct sps_cand_out out;
	struct sps_cand c;
	char *text;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(root, sizeof(root), "%s/obs", dir);
	sps_cand_out_init(&out, SPS_CAND_PRESTO, NULL, 1e-3);
	sps_cand_sink_init(&sink, &out, root);
	memset(&c, 0, sizeof(c));
	for (i = 0; i < 5; i++) {
		c.best.dm = dm[i];
		c.best.sample = at[i];
		c.best.width = 1;
		c.best.snr = 8;
		assert_int_equal(sps_cand_sink_put(&sink, &c), SPS_OK);
	}
	assert_int_equal(sps_cand_sink_close(&sink), SPS_OK);
	sps_cand_sink_free(&sink);
	snprintf(path, sizeof(path), "%s_DM3.00.singlepulse", root);
	text = slurp(path);
	assert_string_equal(text, "# DM      Sigma      Time (s)     Sample    "
	    "Downfact\n" PRESTO_NOTE
	    "   3.00    8.00      0.100000        100       1\n"
	    "   3.00    8.00      0.300000        300       1\n"
	    "   3.00    8.00      0.500000        500       1\n");
	free(text);
	unlink(path);
	snprintf(path, sizeof(path), "%s_DM10.00.singlepulse", root);
	text = slurp(path);
	assert_non_null(strstr(text, "0.100000        100       1\n  10.00"));
	free(text);
	unlink(path);
	/* no candidates: no files */
	sps_cand_sink_init(&sink, &out, root);
	assert_int_equal(sps_cand_sink_close(&sink), SPS_OK);
	sps_cand_sink_free(&sink);
	assert_int_equal(rmdir(dir), 0);	/* nothing else was left */
	/* a root in no directory: the writer's error */
	sps_cand_sink_init(&sink, &out, "/nonexistent/dir/obs");
	assert_int_equal(sps_cand_sink_put(&sink, &c), SPS_OK);
	assert_int_equal(sps_cand_sink_close(&sink), SPS_EIO);
	assert_non_null(strstr(sps_errmsg(), "/nonexistent/dir/obs_DM10.00"));
	sps_cand_sink_free(&sink);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_fetch_mask),
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_per_dm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

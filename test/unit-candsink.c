/* unit-candsink: where candidates go, in which order, how many
 * (lib/candsink.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "candsink.h"

#define PRESTO_NOTE "# Time (s) = Sample * tsamp, s after tstart: the " \
    "centre of the best boxcar (Sample = its first sample + Downfact / 2, " \
    "rounded down), at the centre of the highest channel\n"

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

/* One candidate: S/N snr, best sample sample, DM dm (trial dm / 10). */
static struct sps_cand
cand(double snr, uint64_t sample, double dm)
{
	struct sps_cand c;

	memset(&c, 0, sizeof(c));
	c.best.snr = (float)snr;
	c.best.sample = sample;
	c.best.dm = dm;
	c.best.dm_index = (int)(dm / 10);
	c.best.width = 2;
	return c;
}

/* PRESTO rows of the candidates put into a sink of order and top. */
static char *
sunk(const struct sps_cand *c, size_t n, enum sps_cand_order order,
    size_t top, uint64_t *written)
{
	struct sps_cand_sink sink;
	struct sps_cand_out out;
	char *text = NULL, *rows;
	size_t len, i;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	sps_cand_out_init(&out, SPS_CAND_PRESTO, f, 1e-3);
	sps_cand_sink_init(&sink, &out, NULL);
	sps_cand_sink_select(&sink, order, top);
	for (i = 0; i < n; i++) {
		assert_int_equal(sps_cand_sink_put(&sink, &c[i]), SPS_OK);
		/* with top, at most twice as many are held */
		assert_true(top == 0 || sink.nheld <= 2 * top);
	}
	assert_int_equal(sps_cand_sink_close(&sink), SPS_OK);
	*written = sink.written;
	sps_cand_sink_free(&sink);
	fclose(f);
	rows = strdup(strchr(strchr(text, '\n') + 1, '\n') + 1);
	free(text);
	return rows;
}

/* Time order writes at once, as the candidates come. */
static void
test_stream(void **state)
{
	struct sps_cand_sink sink;
	struct sps_cand_out out;
	struct sps_cand c = cand(9, 1000, 12.5);
	char *text = NULL;
	size_t len;
	FILE *f;

	(void)state;
	f = open_memstream(&text, &len);
	sps_cand_out_init(&out, SPS_CAND_HEIMDALL, f, 1e-3);
	sps_cand_sink_init(&sink, &out, NULL);
	assert_int_equal(sps_cand_sink_put(&sink, &c), SPS_OK);
	fflush(f);
	assert_string_equal(text, "9\t1001\t1.001\t1\t1\t12.5\t0\t0\t1\t\n");
	assert_int_equal(sink.nheld, 0);
	assert_int_equal(sps_cand_sink_close(&sink), SPS_OK);
	sps_cand_sink_free(&sink);
	fclose(f);
	assert_int_equal(sink.written, 1);
	free(text);
}

/* --sort snr, dm, time and --top N on the same five candidates. */
static void
test_order_and_top(void **state)
{
	const struct sps_cand c[] = {
		cand(8, 300, 50), cand(12, 100, 20), cand(8, 200, 60),
		cand(20, 400, 40), cand(9, 500, 10),
	};
	uint64_t written;
	char *rows;

	(void)state;
	rows = sunk(c, 5, SPS_CAND_BY_SNR, 0, &written);
	assert_string_equal(rows,
	    "  40.00   20.00      0.401000        401       2\n"
	    "  20.00   12.00      0.101000        101       2\n"
	    "  10.00    9.00      0.501000        501       2\n"
	    "  60.00    8.00      0.201000        201       2\n"
	    "  50.00    8.00      0.301000        301       2\n");
	assert_int_equal(written, 5);
	free(rows);
	rows = sunk(c, 5, SPS_CAND_BY_DM, 2, &written);
	assert_string_equal(rows,
	    "  20.00   12.00      0.101000        101       2\n"
	    "  40.00   20.00      0.401000        401       2\n");
	assert_int_equal(written, 2);
	free(rows);
	/* the top 3 in time order: S/N 8 ties go to the earlier */
	rows = sunk(c, 5, SPS_CAND_BY_TIME, 3, &written);
	assert_string_equal(rows,
	    "  20.00   12.00      0.101000        101       2\n"
	    "  40.00   20.00      0.401000        401       2\n"
	    "  10.00    9.00      0.501000        501       2\n");
	free(rows);
	rows = sunk(c, 5, SPS_CAND_BY_SNR, 1, &written);
	assert_string_equal(rows,
	    "  40.00   20.00      0.401000        401       2\n");
	assert_int_equal(written, 1);
	free(rows);
}

/* Many candidates, top 4: the held ones are cut as they come (sunk
 * checks), and the 4 brightest come out whatever the arrival order. */
static void
test_top_of_many(void **state)
{
	struct sps_cand c[1000];
	uint64_t written;
	char *rows;
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++)
		c[i] = cand((double)(i * 7919 % 1000) / 10, 1000 + i, 30);
	rows = sunk(c, 1000, SPS_CAND_BY_SNR, 4, &written);
	assert_int_equal(written, 4);
	assert_non_null(strstr(rows, "   99.90"));
	assert_non_null(strstr(rows, "   99.60"));
	assert_null(strstr(rows, "   99.50"));
	free(rows);
}

/* --per-dm: one file per DM as %.2f prints it, rows in time order. */
static void
test_per_dm(void **state)
{
	static const double dm[] = { 3.004, 10, 3.001, 2.999, 10 };
	static const uint64_t at[] = { 500, 200, 100, 300, 100 };
	char dir[] = "/tmp/unit-candsink.XXXXXX", root[64], path[96];
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
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_order_and_top),
		cmocka_unit_test(test_top_of_many),
		cmocka_unit_test(test_per_dm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

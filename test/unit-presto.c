/* unit-presto: PRESTO .inf files written and read back (lib/presto.c,
 * lib/presto_read.c), .dat files opened, the .inf beside --per-dm
 * .singlepulse files (lib/candfile.c); malformed .inf files fail with
 * one message, and mutated ones never crash. */
#include <math.h>
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
#include "candsink.h"
#include "presto.h"

/* An .inf as PRESTO's prepsubband writes one (a made-up GBT series). */
static const char gbt_inf[] =
    " Data file name without suffix          =  GBT_DM71.02\n"
    " Telescope used                         =  GBT\n"
    " Instrument used                        =  GUPPI\n"
    " Object being observed                  =  B1937+21\n"
    " J2000 Right Ascension (hh:mm:ss.ssss)  =  19:39:38.5600\n"
    " J2000 Declination     (dd:mm:ss.ssss)  =  +21:34:59.1200\n"
    " Data observed by                       =  Unknown\n"
    " Epoch of observation (MJD)             =  55267.436250000000000\n"
    " Barycentered?           (1=yes, 0=no)  =  0\n"
    " Number of bins in the time series      =  471040     \n"
    " Width of each time series bin (sec)    =  8.192e-05\n"
    " Any breaks in the data? (1=yes, 0=no)  =  1\n"
    " On/Off bin pair #  1                   =  0          , 400000     \n"
    " On/Off bin pair #  2                   =  471039     , 471039     \n"
    " Type of observation (EM band)          =  Radio\n"
    " Beam diameter (arcsec)                 =  544\n"
    " Dispersion measure (cm-3 pc)           =  71.02\n"
    " Central freq of low channel (Mhz)      =  720.78125\n"
    " Total bandwidth (Mhz)                  =  200\n"
    " Number of channels                     =  128\n"
    " Channel bandwidth (Mhz)                =  1.5625\n"
    " Data analyzed by                       =  someone\n"
    " Any additional notes:\n"
    "    Input filterbank samples have 8 bits. = not a line\n"
    "\n";

static enum sps_err
read_text(const char *text, struct sps_header *h, uint64_t *n,
    struct sps_presto_band *b)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	enum sps_err e;

	assert_non_null(f);
	e = sps_presto_read_inf(f, "x.inf", h, n, b);
	fclose(f);
	return e;
}

static char *
written(const struct sps_header *h, uint64_t n,
    const struct sps_presto_band *b)
{
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(sps_presto_write_inf(f, h, &(struct sps_presto_inf){
	    "obs_DM12.50", n, *b, "sps-test", "a note" }), SPS_OK);
	fclose(f);
	return text;
}

static void
assert_near(double got, double want, double tolerance)
{
	if (!(fabs(got - want) <= tolerance))
		fail_msg("%.17g, not %.17g (within %g)", got, want, tolerance);
}

/* A header written as an .inf and read back is the same header. */
static void
test_roundtrip(void **state)
{
	struct sps_presto_band b = { 96, 4, 1182 }, back_b;
	struct sps_header h, back;
	uint64_t n;
	char *text;

	(void)state;
	sps_header_init(&h);
	h.telescope_id = 4;
	h.machine_id = 10;
	sps_header_mark(&h, "telescope_id");
	sps_header_mark(&h, "machine_id");
	snprintf(h.source_name, sizeof(h.source_name), "J1234-3012");
	h.src_raj = 123456.7;
	h.src_dej = -301234.5;
	h.tstart = 60000.123456789012;
	h.barycentric = 1;
	h.tsamp = 64e-6 * 3;
	h.refdm = 12.5;
	text = written(&h, 987654, &b);
	assert_int_equal(read_text(text, &back, &n, &back_b), SPS_OK);
	assert_int_equal(n, 987654);
	assert_false(sps_header_has(&back, "nsamples"));	/* legacy */
	assert_int_equal(back.telescope_id, 4);
	assert_int_equal(back.machine_id, 10);
	assert_string_equal(back.source_name, "J1234-3012");
	assert_near(back.src_raj, 123456.7, 1e-6);
	assert_near(back.src_dej, -301234.5, 1e-6);
	assert_near(back.tstart, h.tstart, 1e-10);
	assert_int_equal(back.barycentric, 1);
	assert_near(back.tsamp, h.tsamp, 1e-18);
	assert_near(back.refdm, 12.5, 0);
	assert_int_equal(back_b.nchans, 96);
	assert_near(back_b.width, 4, 0);
	assert_near(back_b.low, 1182, 0);
	/* the top channel: what sps-dedisperse's series refer to */
	assert_near(back.fch1, 1182 + 95 * 4, 0);
	assert_near(back.foff, -4, 0);
	assert_int_equal(back.sps_nchans_in, 96);
	assert_false(sps_header_has(&back, "foff"));
	assert_false(sps_header_has(&back, "sps_nchans_in"));
	assert_near(sps_presto_band_top(&b), 1562, 0);
	assert_int_equal(back.nchans, 1);
	assert_int_equal(back.nbits, 32);
	assert_int_equal(back.data_type, 2);
	assert_int_equal(sps_header_check(&back), SPS_OK);
	assert_true(sps_header_has(&back, "tstart"));
	assert_true(sps_header_has(&back, "refdm"));
	assert_true(sps_header_has(&back, "fch1"));
	free(text);
	/* and written again from what was read, the same text */
	text = written(&h, 987654, &b);
	{
		char *again = written(&back, n, &back_b);

		assert_string_equal(again, text);
		free(again);
	}
	free(text);
}

/* The writer: '=' at column 40, an epoch whose fraction rounds up
 * carries into the day, no machine_id is "Unknown" (not FAKE). */
static void
test_writer(void **state)
{
	struct sps_presto_band b = { 1, 0, 1400 };
	struct sps_header h;
	char *text, *line;

	(void)state;
	sps_header_init(&h);
	h.tstart = nextafter(1, 0);	/* rounds to 1 in 15 decimals */
	h.tsamp = 1e-3;
	text = written(&h, 10, &b);
	for (line = text; *line != '\0'; line = strchr(line, '\n') + 1)
		if (strchr(line, '=') != NULL &&
		    strchr(line, '=') < strchr(line, '\n'))
			assert_int_equal(strchr(line, '=') - line, 40);
	assert_non_null(strstr(text, "=  1.000000000000000\n"));
	assert_non_null(strstr(text, "Instrument used                        "
	    "=  Unknown\n"));
	assert_non_null(strstr(text, "Number of bins in the time series      "
	    "=  10         \n"));
	free(text);
}

/* PRESTO's older spellings ("(1=yes, 0=no)", "Mhz"), On/Off pairs and
 * notes with '=' in them. */
static void
test_presto_file(void **state)
{
	struct sps_presto_band b;
	struct sps_header h;
	uint64_t n;

	(void)state;
	assert_int_equal(read_text(gbt_inf, &h, &n, &b), SPS_OK);
	assert_int_equal(n, 471040);
	assert_near(h.tsamp, 8.192e-05, 0);
	assert_near(h.tstart, 55267.43625, 1e-11);
	assert_near(h.refdm, 71.02, 0);
	assert_string_equal(h.source_name, "B1937+21");
	assert_int_equal(h.telescope_id, 6);	/* GBT */
	assert_near(h.src_raj, 193938.56, 1e-6);
	assert_near(h.src_dej, 213459.12, 1e-6);
	assert_int_equal(b.nchans, 128);
	assert_near(b.low, 720.78125, 0);
	assert_near(h.fch1, 720.78125 + 127 * 1.5625, 0);
}

/* makedata's artificial series: no epoch, no band, no DM. */
static void
test_artificial(void **state)
{
	static const char text[] =
	    " Data file name without suffix          =  fake\n"
	    " Telescope used                         =  None (Artificial "
	    "Data Set)\n"
	    " Number of bins in the time series      =  1000\n"
	    " Width of each time series bin (sec)    =  0.001\n"
	    " Any breaks in the data? (1 yes, 0 no)  =  0\n"
	    " Data analyzed by                       =  makedata\n"
	    " Any additional notes:\n    none\n\n";
	struct sps_presto_band b;
	struct sps_header h;
	uint64_t n;

	(void)state;
	assert_int_equal(read_text(text, &h, &n, &b), SPS_OK);
	assert_int_equal(n, 1000);
	assert_false(sps_header_has(&h, "tstart"));
	assert_false(sps_header_has(&h, "refdm"));
	assert_false(sps_header_has(&h, "fch1"));
	assert_int_equal(b.nchans, 0);
}

/* gbt_inf with the line that starts with label replaced by line (NULL:
 * removed). */
static char *
edited(const char *label, const char *line)
{
	const char *at = strstr(gbt_inf, label), *end;
	char *text;

	assert_non_null(at);
	while (at > gbt_inf && at[-1] != '\n')
		at--;
	end = strchr(at, '\n') + 1;
	assert_int_not_equal(asprintf(&text, "%.*s%s%s", (int)(at - gbt_inf),
	    gbt_inf, line != NULL ? line : "", end), -1);
	return text;
}

static void
assert_fails(const char *text, const char *message)
{
	struct sps_presto_band b;
	struct sps_header h;
	uint64_t n;

	assert_int_equal(read_text(text, &h, &n, &b), SPS_EFORMAT);
	if (strstr(sps_errmsg(), message) == NULL ||
	    strncmp(sps_errmsg(), "x.inf: ", 7) != 0)
		fail_msg("message '%s', not 'x.inf: ...%s...'", sps_errmsg(),
		    message);
}

static void
test_missing(void **state)
{
	static const char *const needed[][2] = {
		{ "Telescope used", "no 'Telescope used' line" },
		{ "Number of bins", "no 'Number of bins in the time series' "
		    "line" },
		{ "Width of each", "no 'Width of each time series bin (sec)' "
		    "line" },
		{ "Epoch", "no 'Epoch of observation (MJD)' line" },
		{ "Barycentered", "no 'Barycentered? (1 yes, 0 no)' line" },
		{ "Type of obs", "no 'Type of observation (EM band)' line" },
		{ "Dispersion", "no 'Dispersion measure (cm-3 pc)' line" },
		{ "Central freq", "no 'Central freq of low channel (MHz)' "
		    "line" },
		{ "Number of channels", "no 'Number of channels' line" },
		{ "Channel bandwidth", "no 'Channel bandwidth (MHz)' line" },
	};
	size_t i;
	char *text;

	(void)state;
	for (i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		text = edited(needed[i][0], NULL);
		assert_fails(text, needed[i][1]);
		free(text);
	}
	assert_fails("", "no 'Telescope used' line");
}

static void
test_garbled(void **state)
{
	static const char *const cases[][3] = {
		{ "Width of each", " Width of each time series bin (sec)    "
		    "=  abc\n", "line 11: Width of each time series bin (sec): "
		    "'abc' is not a number" },
		{ "Width of each", " Width of each time series bin (sec)    "
		    "=  0\n", "0 is not in [1e-12, 1e+06]" },
		{ "Number of bins", " Number of bins in the time series      "
		    "=  12.5\n", "12.5 is not a whole number" },
		{ "Number of bins", " Number of bins in the time series      "
		    "=  -1\n", "-1 is not in" },
		{ "Number of bins", " Number of bins in the time series      "
		    "=\n", "'' is not a number" },
		{ "Barycentered", " Barycentered?           (1 yes, 0 no)  "
		    "=  2\n", "2 is not in [0, 1]" },
		{ "Epoch", " Epoch of observation (MJD)             =  nan\n",
		    "'nan' is not a number" },
		{ "Dispersion", " Dispersion measure (cm-3 pc)           =  "
		    "1e999\n", "'1e999' is not a number" },
		{ "Right Asc", " J2000 Right Ascension (hh:mm:ss.ssss)  =  "
		    "25:00:00.0\n", "line 5: J2000 Right Ascension "
		    "(hh:mm:ss.ssss): '25:00:00.0' is not hh:mm:ss.ssss" },
		{ "Declination", " J2000 Declination     (dd:mm:ss.ssss)  =  "
		    "+21:34:59.12x\n", "is not dd:mm:ss.ssss" },
		{ "Number of channels", " Number of channels                 "
		    "    =  0\n", "0 is not in [1, 1.67772e+07]" },
		{ "Data observed", "a line without the sign\n",
		    "line 7: no '=' between label and value" },
	};
	char *text, *line;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		text = edited(cases[i][0], cases[i][1]);
		assert_fails(text, cases[i][2]);
		free(text);
	}
	line = malloc(2000);
	memset(line, 'x', 1998);
	memcpy(line + 1998, "\n", 2);
	text = edited("Data observed", line);
	assert_fails(text, "line 7: longer than 512 bytes");
	free(text);
	free(line);
	text = calloc(20000, 1);
	for (i = 0; i < 1500; i++)
		strcat(text, " a = b\n");
	assert_fails(text, "more than 1000 lines");
	free(text);
}

/* Mutated .inf files: OK or one SPS_EFORMAT, never anything else (run
 * under the sanitizers by make sanitize). */
static void
test_fuzz(void **state)
{
	size_t len = sizeof(gbt_inf) - 1, n, i, k;
	struct sps_presto_band b;
	struct sps_header h;
	char text[sizeof(gbt_inf) + 64];
	uint64_t bins;
	enum sps_err e;
	int round;

	(void)state;
	srand(14);
	for (round = 0; round < 20000; round++) {
		memcpy(text, gbt_inf, len + 1);
		n = len;
		for (k = 1 + (size_t)rand() % 4; k > 0 && n > 0; k--) {
			i = (size_t)rand() % n;
			switch (rand() % 4) {
			case 0:	/* a byte, any byte but NUL */
				text[i] = (char)(1 + rand() % 255);
				break;
			case 1:	/* an interesting byte */
				text[i] = "=\n:.-+e \t0"[rand() % 10];
				break;
			case 2:	/* cut short */
				text[n = i] = '\0';
				break;
			default:	/* a line lost */
				memmove(text + i, text + i + 1, n - i);
				n--;
			}
		}
		e = read_text(text, &h, &bins, &b);
		if (e != SPS_OK && e != SPS_EFORMAT)
			fail_msg("round %d: %d: %s", round, e, sps_errmsg());
		if (e == SPS_OK)
			assert_int_equal(sps_header_check(&h), SPS_OK);
	}
}

static void
test_inf_path(void **state)
{
	static const char *const cases[][2] = {
		{ "GBT.dat", "GBT.inf" },
		{ "a/b.c/x_DM1.00.dat", "a/b.c/x_DM1.00.inf" },
		{ "a.b/noext", "a.b/noext.inf" },
		{ "dir/.hidden", "dir/.hidden.inf" },
		{ "x.tim", "x.inf" },
	};
	size_t i;
	char *inf;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		inf = sps_presto_inf_path(cases[i][0]);
		assert_string_equal(inf, cases[i][1]);
		free(inf);
	}
}

static void
write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void
test_open_dat(void **state)
{
	char dir[] = "/tmp/unit-presto.XXXXXX", dat[64], inf[64];
	float x[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, back[10];
	struct sps_header h;
	uint64_t n;
	char *text;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(dat, sizeof(dat), "%s/s.dat", dir);
	snprintf(inf, sizeof(inf), "%s/s.inf", dir);
	write_file(dat, x, sizeof(x));
	/* no .inf */
	assert_int_equal(sps_presto_open_dat(dat, &f, &h, &n), SPS_EFORMAT);
	assert_non_null(strstr(sps_errmsg(), "s.dat: no "));
	assert_non_null(strstr(sps_errmsg(), "s.inf beside it"));
	text = edited("Number of bins", " Number of bins in the time series "
	    "     =  10\n");
	write_file(inf, text, strlen(text));
	free(text);
	assert_int_equal(sps_presto_open_dat(dat, &f, &h, &n), SPS_OK);
	assert_int_equal(n, 10);
	assert_int_equal(fread(back, sizeof(float), 10, f), 10);
	assert_memory_equal(back, x, sizeof(x));
	fclose(f);
	sps_header_free(&h);
	/* a .dat that does not hold the samples the .inf gives */
	write_file(dat, x, sizeof(x) - 4);
	assert_int_equal(sps_presto_open_dat(dat, &f, &h, &n), SPS_EFORMAT);
	assert_non_null(strstr(sps_errmsg(), "s.dat: 36 bytes, but "));
	assert_non_null(strstr(sps_errmsg(), "s.inf gives 10 samples of 4 "
	    "bytes"));
	assert_null(f);
	unlink(dat);
	unlink(inf);
	assert_int_equal(rmdir(dir), 0);
}

/* --per-dm: an .inf beside each .singlepulse that reads back with the
 * DM, the samples and their width; none without the stream's header. */
static void
test_per_dm_inf(void **state)
{
	char dir[] = "/tmp/unit-presto.XXXXXX", root[64], path[96];
	struct sps_events_meta m;
	struct sps_presto_band b;
	struct sps_cand_sink sink;
	struct sps_cand_out out;
	struct sps_header h;
	struct sps_cand c;
	uint64_t n;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(root, sizeof(root), "%s/obs", dir);
	memset(&m, 0, sizeof(m));
	snprintf(m.source_name, sizeof(m.source_name), "FRB");
	m.tstart = 58000.25;
	m.tsamp = 1e-3;
	m.fch1 = 1500;
	m.nchans = 64;
	m.nsamples = 0;		/* a pipe: not known */
	sps_cand_out_init(&out, SPS_CAND_PRESTO, NULL, m.tsamp);
	sps_cand_sink_init(&sink, &out, root);
	sink.meta = &m;
	memset(&c, 0, sizeof(c));
	c.best.dm = 56.789;
	c.best.sample = 100;
	c.best.width = 4;
	c.best.snr = 9;
	c.last_sample = 4321;
	assert_int_equal(sps_cand_sink_put(&sink, &c), SPS_OK);
	assert_int_equal(sps_cand_sink_close(&sink), SPS_OK);
	sps_cand_sink_free(&sink);
	snprintf(path, sizeof(path), "%s_DM56.79.inf", root);
	assert_non_null(f = fopen(path, "r"));
	assert_int_equal(sps_presto_read_inf(f, path, &h, &n, &b), SPS_OK);
	fclose(f);
	assert_near(h.refdm, 56.789, 0);
	assert_int_equal(n, 4322);	/* to the end of the last candidate */
	assert_near(h.tsamp, 1e-3, 0);
	assert_near(h.tstart, 58000.25, 0);
	assert_string_equal(h.source_name, "FRB");
	assert_near(h.fch1, 1500, 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s_DM56.79.singlepulse", root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);	/* nothing else, no temp file */
	/* a root in no directory: the writer's error */
	sps_cand_sink_init(&sink, &out, "/nonexistent/dir/obs");
	sink.meta = &m;
	assert_int_equal(sps_cand_sink_put(&sink, &c), SPS_OK);
	assert_int_equal(sps_cand_sink_close(&sink), SPS_EIO);
	sps_cand_sink_free(&sink);
}

/* sps_presto_save_inf: written under a temporary name, renamed. */
static void
test_save(void **state)
{
	struct sps_presto_band b = { 4, 1, 100 };
	char dir[] = "/tmp/unit-presto.XXXXXX", root[64], path[96];
	struct sps_header h;

	(void)state;
	sps_header_init(&h);
	h.tsamp = 1e-3;
	assert_non_null(mkdtemp(dir));
	snprintf(root, sizeof(root), "%s/a_DM1.00", dir);
	assert_int_equal(sps_presto_save_inf(&h, &(struct sps_presto_inf){
	    root, 5, b, "x", "" }), SPS_OK);
	snprintf(path, sizeof(path), "%s.inf", root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(sps_presto_save_inf(&h, &(struct sps_presto_inf){
	    "/nonexistent/a", 5, b, "x", "" }), SPS_EIO);
	assert_non_null(strstr(sps_errmsg(), "/nonexistent/a.inf"));
}

/* Whose .inf is at a path: none, ours, another program's, unreadable. */
static void
test_by_other(void **state)
{
	char dir[] = "/tmp/unit-presto.XXXXXX", path[64];
	struct sps_presto_band b = { 4, 1, 100 };
	struct sps_header h;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.inf", dir);
	assert_false(sps_presto_inf_by_other(path, "sps-peaks"));
	sps_header_init(&h);
	h.tsamp = 1e-3;
	snprintf(path, sizeof(path), "%s/a", dir);
	assert_int_equal(sps_presto_save_inf(&h, &(struct sps_presto_inf){
	    path, 5, b, "sps-peaks", "" }), SPS_OK);
	snprintf(path, sizeof(path), "%s/a.inf", dir);
	assert_false(sps_presto_inf_by_other(path, "sps-peaks"));
	assert_true(sps_presto_inf_by_other(path, "sps-dedisperse"));
	write_file(path, gbt_inf, strlen(gbt_inf));
	assert_true(sps_presto_inf_by_other(path, "sps-peaks"));
	write_file(path, "garbage\n", 8);
	assert_true(sps_presto_inf_by_other(path, "sps-peaks"));
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_writer),
		cmocka_unit_test(test_presto_file),
		cmocka_unit_test(test_artificial),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_garbled),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_inf_path),
		cmocka_unit_test(test_open_dat),
		cmocka_unit_test(test_per_dm_inf),
		cmocka_unit_test(test_save),
		cmocka_unit_test(test_by_other),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

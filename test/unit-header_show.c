/* unit-header_show: derived values (band edges, bandwidth, a DM-time
 * stream's samples), single values as SIGPROC's header prints them
 * (dates, times, angles with their carries, names of ids), the table's
 * aligned labels and the JSON's escapes and nulls; the bytes of a cut
 * recording. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "header_show.h"

static void
make_header(struct sps_header *h)
{
	sps_header_init(h);
	assert_int_equal(sps_header_set(h, "source_name", "J0534+2200"),
	    SPS_OK);
	sps_header_set(h, "telescope_id", "4");
	sps_header_set(h, "machine_id", "10");
	sps_header_set(h, "data_type", "1");
	sps_header_set(h, "nchans", "832");
	sps_header_set(h, "nbits", "2");
	sps_header_set(h, "nifs", "1");
	sps_header_set(h, "fch1", "4030");
	sps_header_set(h, "foff", "-4");
	sps_header_set(h, "tsamp", "0.000512");
	sps_header_set(h, "tstart", "60000.25");
	sps_header_set(h, "src_raj", "53431.9");
	sps_header_set(h, "src_dej", "220052.0");
}

/* What show_value (or show, when v < 0: the table) writes. */
static char *
shown(const struct sps_header *h, uint64_t nspectra, int v)
{
	struct sps_header_derived d;
	char *text = NULL;
	size_t len;
	FILE *f;

	assert_non_null(f = open_memstream(&text, &len));
	sps_header_derive(&d, h, nspectra);
	if (v >= 0)
		sps_header_show_value(f, &d, (enum sps_header_value)v);
	else
		sps_header_show_table(f, &d);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void
check_value(const struct sps_header *h, uint64_t nspectra,
    enum sps_header_value v, const char *want)
{
	char *text = shown(h, nspectra, (int)v);

	assert_string_equal(text, want);
	free(text);
}

static void
test_derived(void **state)
{
	struct sps_header_derived d;
	const double f[3] = { 1500, 1490.5, 1470 };
	struct sps_header h;

	(void)state;
	make_header(&h);
	sps_header_derive(&d, &h, 4096);
	assert_int_equal(d.nsamples, 4096);
	assert_int_equal(d.data_bytes, 4096 * 832 * 2 / 8);
	assert_true(d.flow == 4030 - 4 * 831 && d.fhigh == 4030);
	assert_true(d.bandwidth == 3328);
	/* a frequency table: the band spans the centres plus one width */
	h.nchans = 3;
	h.fchannel = malloc(sizeof(f));
	memcpy(h.fchannel, f, sizeof(f));
	h.nfchannel = 3;
	sps_header_derive(&d, &h, 10);
	assert_true(d.flow == 1470 && d.fhigh == 1500);
	assert_true(d.bandwidth == 45);
	sps_header_free(&h);
}

/* A DM-time stream counts base samples: its header's nsamples when
 * present, else its spectra divided among its trials. */
static void
test_dmtime_samples(void **state)
{
	const double dms[4] = { 0, 1, 2, 3 };
	struct sps_header_derived d;
	struct sps_header h;

	(void)state;
	make_header(&h);
	h.sps_dmtime = 1;
	assert_int_equal(sps_header_set_dms(&h, dms, NULL, 4), SPS_OK);
	sps_header_derive(&d, &h, 400);
	assert_int_equal(d.nsamples, 100);
	assert_int_equal(d.data_bytes, 400 * 832 * 2 / 8);
	sps_header_set(&h, "nsamples", "77");
	sps_header_derive(&d, &h, 400);
	assert_int_equal(d.nsamples, 77);
	sps_header_free(&h);
}

/* A PSRFITS recording's own TELESCOP and BACKEND are shown, whatever
 * codes they have. */
static void
check_own_names(const struct sps_header *h)
{
	struct sps_header_derived d;
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	sps_header_derive(&d, h, 0);
	d.telescope = "VLA";
	d.backend = "YUPPI";
	sps_header_show_value(f, &d, SPS_VALUE_TELESCOPE);
	sps_header_show_value(f, &d, SPS_VALUE_MACHINE);
	sps_header_show_table(f, &d);
	sps_header_show_json(f, &d);
	fclose(f);
	assert_true(strncmp(text, "VLA\nYUPPI\n", 10) == 0);
	assert_non_null(strstr(text, "\nTelescope                        : "
	    "VLA\nDatataking Machine               : YUPPI\n"));
	assert_non_null(strstr(text, "  \"telescope_name\": \"VLA\",\n"));
	assert_non_null(strstr(text, "  \"machine_name\": \"YUPPI\",\n"));
	free(text);
}

static void
test_values(void **state)
{
	struct sps_header h;

	(void)state;
	make_header(&h);
	check_value(&h, 4096, SPS_VALUE_TELESCOPE, "Parkes\n");
	check_value(&h, 4096, SPS_VALUE_MACHINE, "BPSR\n");
	check_value(&h, 4096, SPS_VALUE_DATATYPE, "filterbank\n");
	check_value(&h, 4096, SPS_VALUE_FRAME, "topocentric\n");
	check_value(&h, 4096, SPS_VALUE_TSAMP, "512\n");
	check_value(&h, 4096, SPS_VALUE_TOBS, "2.097152\n");
	check_value(&h, 4096, SPS_VALUE_FMID, "2368\n");
	check_value(&h, 4096, SPS_VALUE_MJD, "60000\n");
	check_value(&h, 4096, SPS_VALUE_DATE, "2023/02/25\n");
	/* 0.25 d is 06:00:00 exactly, not 05:59:59 */
	check_value(&h, 4096, SPS_VALUE_UTSTART, "06:00:00\n");
	check_value(&h, 4096, SPS_VALUE_SRC_RAJ, "05:34:31.9\n");
	check_value(&h, 4096, SPS_VALUE_SRC_DEJ, "+22:00:52.0\n");
	check_value(&h, 4096, SPS_VALUE_RA_DEG, "83.6329166666667\n");
	h.telescope_id = 99;
	h.machine_id = 77;
	h.data_type = 9;
	check_own_names(&h);
	check_value(&h, 0, SPS_VALUE_TELESCOPE,
	    "unknown (telescope_id 99)\n");
	check_value(&h, 0, SPS_VALUE_MACHINE, "unknown (machine_id 77)\n");
	check_value(&h, 0, SPS_VALUE_DATATYPE, "unknown (data_type 9)\n");
	h.barycentric = 1;
	check_value(&h, 0, SPS_VALUE_FRAME, "barycentric\n");
	sps_header_free(&h);
}

/* Rounding to tenths carries into the minutes and the units; doubles
 * print in the fewest digits that read back exactly. */
static void
test_carries_and_digits(void **state)
{
	struct sps_header h;

	(void)state;
	make_header(&h);
	h.src_raj = 235959.96;
	h.src_dej = -895959.97;
	check_value(&h, 0, SPS_VALUE_SRC_RAJ, "24:00:00.0\n");
	check_value(&h, 0, SPS_VALUE_SRC_DEJ, "-90:00:00.0\n");
	h.src_raj = NAN;
	check_value(&h, 0, SPS_VALUE_SRC_RAJ, "?\n");
	h.tstart = NAN;
	check_value(&h, 0, SPS_VALUE_DATE, "?\n");
	check_value(&h, 0, SPS_VALUE_UTSTART, "?\n");
	h.fch1 = 0.1;
	check_value(&h, 0, SPS_VALUE_FCH1, "0.1\n");
	h.fch1 = 1.0 / 3;
	check_value(&h, 0, SPS_VALUE_FCH1, "0.3333333333333333\n");
	sps_header_free(&h);
}

static void
test_frequencies(void **state)
{
	struct sps_header h;

	(void)state;
	make_header(&h);
	h.nchans = 3;
	h.fch1 = 1400.5;
	h.foff = -0.25;
	check_value(&h, 0, SPS_VALUE_FREQUENCIES, "1400.5\n1400.25\n1400\n");
	sps_header_free(&h);
}

static void
test_names(void **state)
{
	int i, found[SPS_VALUE_DEC_DEG + 1] = { 0 };

	(void)state;
	for (i = 0; i < sps_header_nvalue_names; i++)
		found[sps_header_value_names[i].value]++;
	for (i = 0; i <= SPS_VALUE_DEC_DEG; i++)
		assert_true(found[i] >= 1);
	assert_int_equal(found[SPS_VALUE_NBEAMS], 2);	/* nbeams, nbeam */
	assert_int_equal(found[SPS_VALUE_REFDM], 2);	/* refdm, dm */
}

static void
test_table(void **state)
{
	struct sps_header h;
	char *text, *line;

	(void)state;
	make_header(&h);
	sps_header_set(&h, "hdrlen", "300");
	text = shown(&h, 4096, -1);
	assert_non_null(strstr(text, "Telescope                        : "
	    "Parkes\n"));
	assert_non_null(strstr(text, "Source DEC (J2000)               : "
	    "+22:00:52.0\n"));
	assert_non_null(strstr(text, "Number of samples                : "
	    "4096\n"));
	assert_non_null(strstr(text, "Observation length (seconds)     : "
	    "2.09715\n"));
	/* a keyword the table has no line for, under its own name */
	assert_non_null(strstr(text, "hdrlen                           : "
	    "300\n"));
	assert_null(strstr(text, "telescope_id"));
	for (line = text; *line != '\0'; line = strchr(line, '\n') + 1)
		assert_memory_equal(line + 33, ": ", 2);
	free(text);
	/* a long observation in days */
	text = shown(&h, 400000000, -1);
	assert_non_null(strstr(text, "Observation length (days)        : "
	    "2.37037\n"));
	free(text);
	sps_header_free(&h);
}

static void
test_json(void **state)
{
	struct sps_header_derived d;
	struct sps_header h;
	char *text = NULL;
	size_t len;
	FILE *f;

	(void)state;
	make_header(&h);
	sps_header_set(&h, "source_name", "a\"b\\c\td\xe9");
	sps_header_unmark(&h, "machine_id");
	h.refdm = INFINITY;
	sps_header_mark(&h, "refdm");
	assert_non_null(f = open_memstream(&text, &len));
	sps_header_derive(&d, &h, 4096);
	sps_header_show_json(f, &d);
	fclose(f);
	assert_non_null(strstr(text, "    \"source_name\": "
	    "\"a\\\"b\\\\c\\u0009d\\u00e9\",\n"));
	assert_non_null(strstr(text, "    \"refdm\": null,\n"));
	assert_non_null(strstr(text, "  \"cut_bytes\": 0,\n"));
	assert_non_null(strstr(text, "  \"nsamples\": 4096,\n"));
	assert_non_null(strstr(text, "  \"tobs\": 2.097152,\n"));
	assert_non_null(strstr(text, "  \"telescope_name\": \"Parkes\",\n"));
	assert_non_null(strstr(text, "  \"machine_name\": null,\n"));
	assert_non_null(strstr(text, "  \"data_type_name\": "
	    "\"filterbank\"\n}\n"));
	assert_int_equal(text[0], '{');
	free(text);
	sps_header_free(&h);
}

/* A recording cut inside a spectrum: the table shows the bytes after the
 * last whole spectrum, below the data size; the JSON always has them. */
static void
test_cut(void **state)
{
	struct sps_header_derived d;
	struct sps_header h;
	char *text = NULL;
	size_t len;
	FILE *f;

	(void)state;
	make_header(&h);
	text = shown(&h, 4096, -1);
	assert_null(strstr(text, "Bytes after"));
	free(text);
	assert_non_null(f = open_memstream(&text, &len));
	sps_header_derive(&d, &h, 4096);
	d.cut_bytes = 236;
	sps_header_show_table(f, &d);
	sps_header_show_json(f, &d);
	fclose(f);
	assert_non_null(strstr(text, "\nBytes after the last spectrum    : "
	    "236 (ignored: a cut recording?)\nData type"));
	assert_non_null(strstr(text, "  \"cut_bytes\": 236,\n"));
	free(text);
	sps_header_free(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derived),
		cmocka_unit_test(test_dmtime_samples),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_carries_and_digits),
		cmocka_unit_test(test_frequencies),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* unit-header_edit: which keys an edit may name, values refused before
 * any input, names for telescope and machine ids, removing the frequency
 * table, and the checks that an edited header still reads its data as
 * whole spectra. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "header_edit.h"
#include "reader.h"

static void
make_header(struct sps_header *h, int nchans, int nbits)
{
	sps_header_init(h);
	sps_header_set(h, "nchans", "1");
	h->nchans = nchans;
	sps_header_set(h, "nbits", "8");
	h->nbits = nbits;
	sps_header_set(h, "nifs", "1");
	sps_header_set(h, "tsamp", "0.000512");
	sps_header_set(h, "fch1", "4030");
	sps_header_set(h, "foff", "-4");
	sps_header_set(h, "rawdatafile", "raw.dat");
}

static void
test_known(void **state)
{
	struct sps_header_edit set = { "fch1", "1" }, unset = { "fch1", NULL };

	(void)state;
	assert_true(sps_header_edit_known(&set));
	assert_true(sps_header_edit_known(&unset));
	set.key = unset.key = "fchannel";
	assert_false(sps_header_edit_known(&set));
	assert_true(sps_header_edit_known(&unset));
	set.key = unset.key = "bogus";
	assert_false(sps_header_edit_known(&set));
	assert_false(sps_header_edit_known(&unset));
}

static void
test_try(void **state)
{
	struct sps_header_edit e = { "nchans", "abc" };

	(void)state;
	assert_int_equal(sps_header_edit_try(&e), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "nchans: 'abc' is not a number");
	e.value = "1.5";
	assert_int_equal(sps_header_edit_try(&e), SPS_EVALUE);
	e.key = "source_name";
	e.value = "";
	assert_int_equal(sps_header_edit_try(&e), SPS_EVALUE);
	e.value = "Crab";
	assert_int_equal(sps_header_edit_try(&e), SPS_OK);
	e.key = "telescope_id";
	e.value = "gbt";
	assert_int_equal(sps_header_edit_try(&e), SPS_OK);
	e.value = "nowhere";
	assert_int_equal(sps_header_edit_try(&e), SPS_EVALUE);
	e.key = "fchannel";
	e.value = NULL;
	assert_int_equal(sps_header_edit_try(&e), SPS_OK);
}

static void
test_apply(void **state)
{
	const struct sps_header_edit edits[] = {
		{ "telescope_id", "parkes" }, { "machine_id", "Bpsr" },
		{ "fch1", "1400.5" }, { "fch1", "1500.25" },
		{ "source_name", "Crab test" }, { "rawdatafile", NULL },
		{ "fchannel", NULL }, { "nbeams", "13" },
	};
	const struct sps_header_edit number = { "telescope_id", "99" };
	/* aliases and PRESTO's names too, and codes past 1023 */
	const struct sps_header_edit aliases[] = {
		{ "telescope_id", "I-LOFAR" }, { "machine_id", "spigot" },
	};
	struct sps_header h;

	(void)state;
	make_header(&h, 4, 8);
	h.fchannel = calloc(4, sizeof(double));
	h.nfchannel = 4;
	assert_int_equal(sps_header_edit_apply(&h, edits, 8), SPS_OK);
	assert_int_equal(h.telescope_id, 4);
	assert_int_equal(h.machine_id, 10);
	assert_true(h.fch1 == 1500.25);
	assert_string_equal(h.source_name, "Crab test");
	assert_true(sps_header_has(&h, "source_name"));
	assert_false(sps_header_has(&h, "rawdatafile"));
	assert_null(h.fchannel);
	assert_int_equal(h.nfchannel, 0);
	assert_int_equal(h.nbeams, 13);
	/* an id without a name is taken as a number */
	assert_int_equal(sps_header_edit_apply(&h, &number, 1), SPS_OK);
	assert_int_equal(h.telescope_id, 99);
	assert_int_equal(sps_header_edit_apply(&h, aliases, 2), SPS_OK);
	assert_int_equal(h.telescope_id, 1916);
	assert_int_equal(h.machine_id, 7);
	sps_header_free(&h);
}

/* 832 2-bit channels, 4096 spectra: 851968 bytes. */
static void
test_layout(void **state)
{
	struct sps_header in, edited;

	(void)state;
	make_header(&in, 832, 2);
	make_header(&edited, 416, 2);
	assert_int_equal(sps_header_edit_check(&in, &edited, 4096), SPS_OK);
	edited.nchans = 833;
	assert_int_equal(sps_header_edit_check(&in, &edited, 4096),
	    SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "edited header: 851968 data bytes "
	    "are not a whole number of its 1666-bit spectra");
	assert_int_equal(sps_header_edit_check(&in, &edited,
	    SPS_NSAMPLES_UNKNOWN), SPS_OK);
	edited.nchans = 832;
	edited.nbits = 8;
	assert_int_equal(sps_header_edit_check(&in, &edited, 4096), SPS_OK);
	sps_header_free(&in);
	sps_header_free(&edited);
}

/* Spectra that are not whole bytes are copied value by value, so their
 * nbits, nchans and nifs must stay. */
static void
test_sub_byte_spectra_stay(void **state)
{
	struct sps_header in, edited;

	(void)state;
	make_header(&in, 3, 1);
	make_header(&edited, 3, 1);
	edited.fch1 = 1500;
	assert_int_equal(sps_header_edit_check(&in, &edited, 8), SPS_OK);
	edited.nbits = 2;
	assert_int_equal(sps_header_edit_check(&in, &edited,
	    SPS_NSAMPLES_UNKNOWN), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "edited header: spectra of 3 1-bit "
	    "values are not whole bytes, so nbits, nchans and nifs must "
	    "stay");
	edited.nbits = 1;
	edited.nchans = 6;
	assert_int_equal(sps_header_edit_check(&in, &edited, 8), SPS_EVALUE);
	sps_header_free(&in);
	sps_header_free(&edited);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_try),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_sub_byte_spectra_stay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* unit-telescope: telescope and backend codes, names and aliases
 * (lib/telescope.c), against the lists of SIGPROC's aliases.c and
 * PRESTO's sigproc_fb.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "telescope.h"

struct known {
	const char	*name;
	int		 id;
};

/* Every telescope SIGPROC and PRESTO name, spelled as they do. */
static const struct known scopes[] = {
	{ "Fake", 0 }, { "Arecibo", 1 }, { "ARECIBO 305m", 1 }, { "Ooty", 2 },
	{ "Nancay", 3 }, { "Parkes", 4 }, { "Jodrell", 5 }, { "GBT", 6 },
	{ "GMRT", 7 }, { "Effelsberg", 8 }, { "140ft", 9 }, { "ATA", 9 },
	{ "SRT", 10 }, { "LOFAR", 11 }, { "VLA", 12 }, { "CHIME", 20 },
	{ "FAST", 21 }, { "MeerKAT", 64 }, { "KAT-7", 65 },
	{ "eMerlin", 82 }, { "I-LOFAR", 1916 },
};

/* Every backend SIGPROC and PRESTO name. */
static const struct known backends[] = {
	{ "FAKE", 0 }, { "PSPM", 1 }, { "WAPP", 2 }, { "Wapp", 2 },
	{ "AOFTM", 3 }, { "BPP", 4 }, { "BCPM1", 4 }, { "OOTY", 5 },
	{ "SCAMP", 6 }, { "GMRTFB", 7 }, { "SPIGOT", 7 },
	{ "GBT Pulsar Spigot", 7 }, { "PULSAR2000", 8 }, { "PARSPEC", 9 },
	{ "BPSR", 10 }, { "BG/P", 11 }, { "PDEV", 12 }, { "GMRTNEW", 14 },
	{ "CHIME+PSR", 20 }, { "KAT", 64 }, { "KAT-DC2", 65 },
	{ "loft-e", 82 }, { "AT-PAF", 88 },
};

static void
test_names_to_codes(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++)
		if (sps_telescope_id(scopes[i].name) != scopes[i].id)
			fail_msg("telescope '%s': %d, not %d", scopes[i].name,
			    sps_telescope_id(scopes[i].name), scopes[i].id);
	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (sps_machine_id(backends[i].name) != backends[i].id)
			fail_msg("backend '%s': %d, not %d", backends[i].name,
			    sps_machine_id(backends[i].name), backends[i].id);
}

/* PSRFITS spellings: any case, leading blanks, a word after the name,
 * the longest name that fits; a longer word is not a name. */
static void
test_spellings(void **state)
{
	(void)state;
	assert_int_equal(sps_telescope_id("  parkes"), 4);
	assert_int_equal(sps_telescope_id("PKS"), 4);
	assert_int_equal(sps_telescope_id("Murriyang"), 4);
	assert_int_equal(sps_telescope_id("Lovell"), 5);
	assert_int_equal(sps_telescope_id("GB"), 6);
	assert_int_equal(sps_telescope_id("GBTX"), -1);
	assert_int_equal(sps_telescope_id("VLASS"), -1);
	assert_int_equal(sps_telescope_id(""), -1);
	assert_int_equal(sps_machine_id("kat-dc2"), 65);
	assert_int_equal(sps_machine_id("KAT"), 64);
	/* VLA's backend is in neither list */
	assert_int_equal(sps_machine_id("YUPPI"), -1);
	assert_int_equal(sps_machine_id("Medusa"), -1);
}

/* The name shown is SIGPROC's where it has one, else PRESTO's. */
static void
test_codes_to_names(void **state)
{
	(void)state;
	assert_string_equal(sps_telescope_name(4), "Parkes");
	assert_string_equal(sps_telescope_name(9), "140ft");
	assert_string_equal(sps_telescope_name(12), "VLA");
	assert_string_equal(sps_telescope_name(21), "FAST");
	assert_string_equal(sps_telescope_name(1916), "I-LOFAR");
	assert_null(sps_telescope_name(13));
	assert_string_equal(sps_machine_name(7), "GMRTFB");
	assert_string_equal(sps_machine_name(11), "BG/P");
	assert_string_equal(sps_machine_name(20), "CHIME+PSR");
	assert_null(sps_machine_name(-1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_to_codes),
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_codes_to_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* unit-fitscheck: header cards that are not text are refused before
 * cfitsio reads them (cfitsio 4.2 aborts on such a TTYPE), naming the
 * HDU and card; Latin-1 text in a COMMENT card is let through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fitscheck.h"

#define BLOCK	2880

/* A primary HDU (no data) and a binary table of 2 rows of 4 bytes, with
 * card `bad' of the table (from 0) replaced by text. */
static void
make_file(const char *path, int bad, const char *text)
{
	static const char *primary[] = {
		"SIMPLE  =                    T", "BITPIX  =                    8",
		"NAXIS   =                    0", "COMMENT   made by unit-fitscheck",
		"END"
	};
	static const char *table[] = {
		"XTENSION= 'BINTABLE'", "BITPIX  =                    8",
		"NAXIS   =                    2", "NAXIS1  =                    4",
		"NAXIS2  =                    2", "PCOUNT  =                    0",
		"GCOUNT  =                    1", "TFIELDS =                    1",
		"TTYPE1  = 'DATA    '", "TFORM1  = '4B      '", "END"
	};
	char block[BLOCK];
	FILE *f = fopen(path, "wb");
	size_t i;

	memset(block, ' ', BLOCK);
	for (i = 0; i < 5; i++)
		memcpy(block + 80 * i, primary[i], strlen(primary[i]));
	fwrite(block, 1, BLOCK, f);
	memset(block, ' ', BLOCK);
	for (i = 0; i < 11; i++) {
		const char *card = (int)i == bad ? text : table[i];

		memcpy(block + 80 * i, card, strlen(card));
	}
	fwrite(block, 1, BLOCK, f);
	memset(block, 0, BLOCK);
	fwrite(block, 1, BLOCK, f);
	fclose(f);
}

/* The check of a file whose table card bad is text (-1: none) gives
 * want. */
static void
card_gives(const char *path, int bad, const char *text, enum sps_err want)
{
	make_file(path, bad, text);
	assert_int_equal(sps_fits_cards_check(path, "t.fits"), want);
}

static void
test_cards(void **state)
{
	char path[] = "/tmp/unit-fitscheck.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	close(fd);
	card_gives(path, -1, NULL, SPS_OK);
	card_gives(path, 8, "TTYPE1  = '\xff\xff\xff'", SPS_EFORMAT);
	assert_string_equal(sps_errmsg(), "t.fits: HDU 2, header card 9: "
	    "byte 12 is not ASCII text (0xff)");
	card_gives(path, 8, "TTYPE1  = 'DA\tA'", SPS_EFORMAT);
	card_gives(path, 8, "TTYPE1  = yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
	    "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", SPS_EFORMAT);
	assert_string_equal(sps_errmsg(), "t.fits: HDU 2, header card 9: "
	    "TTYPE1   is not a quoted string");
	card_gives(path, 9, "TFORM1  =     '4B      '", SPS_OK);
	/* what the fuzzer found: a bare "=", text after the closing quote,
	 * a quote that never closes; a doubled quote is one */
	card_gives(path, 8, "TTYPE1  =tttttttttttttttttttttttttttttttttttttt"
	    "tttttttttttttttttttttttttttttttt", SPS_EFORMAT);
	card_gives(path, 0, "XTENSION= 'BINTABLE'@          / binary table",
	    SPS_EFORMAT);
	card_gives(path, 8, "TTYPE1  = 'DATA    ", SPS_EFORMAT);
	card_gives(path, 8, "TTYPE1  = 'DA''TA'   / a quote in it", SPS_OK);
	card_gives(path, 8, "COMMENT   observer: Fran\xe7oise", SPS_OK);
	/* a long value neither number nor string, or a long number out of
	 * a long's range (cfitsio's ffc2j aborts); long numbers in range, D
	 * exponents and logicals pass */
	card_gives(path, 3, "NAXIS1  =              -----------------------"
	    "------- 4", SPS_EFORMAT);
	assert_string_equal(sps_errmsg(), "t.fits: HDU 2, header card 4: the "
	    "value of NAXIS1   is neither a number nor a string");
	card_gives(path, 3, "NAXIS1  = 4.00000000000000000000000000000000000D0"
	    " / four", SPS_OK);
	card_gives(path, 3, "NAXIS1  = 3333333333333333333333333333333333",
	    SPS_EFORMAT);
	card_gives(path, 3, "NAXIS1  = 1.00000000000000000000000000000E+30",
	    SPS_EFORMAT);
	card_gives(path, 3, "NAXIS1  = 0000000000000000000000000000000004",
	    SPS_OK);
	card_gives(path, 7, "TFIELDS=              64825372", SPS_EFORMAT);
	card_gives(path, 7, "TFIELDS =             64825372", SPS_EFORMAT);
	assert_string_equal(sps_errmsg(), "t.fits: HDU 2, header card 8: "
	    "TFIELDS 64825372 is not in 0..999");
	card_gives(path, 3, "NAXIS1  =  (                 4                  )",
	    SPS_EFORMAT);
	card_gives(path, 3, "NAXIS1  =          (         4 / bytes (per row)",
	    SPS_EFORMAT);
	card_gives(path, 3, "NAXIS1  =                    4 / bytes", SPS_OK);
	card_gives(path, 4, "NAXIS2  = 2", SPS_OK);
	card_gives(path, 9, "TFORM1  = '4B'", SPS_OK);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cards),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

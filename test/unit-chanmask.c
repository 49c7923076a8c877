/* unit-chanmask: PRESTO-style channel lists (single channels, ranges,
 * strided ranges, comments, commas, CR LF) and each bad list with the
 * message that names it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "chanmask.h"

#define NCHANS	16

/* The channels masked, as a string of 0 and 1. */
static const char *
flags(const unsigned char *masked)
{
	static char buf[NCHANS + 1];
	int c;

	for (c = 0; c < NCHANS; c++)
		buf[c] = masked[c] ? '1' : '0';
	buf[NCHANS] = '\0';
	return buf;
}

static void
check_list(const char *list, const char *want)
{
	unsigned char masked[NCHANS] = { 0 };

	assert_int_equal(sps_chanmask_parse(list, "--ignorechan", NCHANS,
	    masked), SPS_OK);
	assert_string_equal(flags(masked), want);
}

static void
check_bad_list(const char *list, const char *message)
{
	unsigned char masked[NCHANS] = { 0 };

	assert_int_equal(sps_chanmask_parse(list, "--ignorechan", NCHANS,
	    masked), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), message);
}

static void
test_lists(void **state)
{
	(void)state;
	check_list("", "0000000000000000");
	check_list("0:3,5,7:11:2", "1111010101010000");
	check_list(" 15 ,, 0\t2 ", "1010000000000001");
	check_list("3:3", "0001000000000000");
	check_list("1:15:7", "0100000010000001");
	check_list("4 # 5 6", "0000100000000000");
	check_list("#4", "0000000000000000");
	/* a step past the range: its first channel, and no overflow */
	check_list("3:5:9223372036854775807", "0001000000000000");
	check_list("0:15:100", "1000000000000000");
}

static void
test_bad_lists(void **state)
{
	(void)state;
	check_bad_list("x7", "--ignorechan: 'x7' is not a channel, A:B or "
	    "A:B:STEP");
	check_bad_list("5:2", "--ignorechan: '5:2' is not a channel, A:B or "
	    "A:B:STEP");
	check_bad_list("3:9:0", "--ignorechan: '3:9:0' is not a channel, A:B "
	    "or A:B:STEP");
	check_bad_list("-1", "--ignorechan: '-1' is not a channel, A:B or "
	    "A:B:STEP");
	check_bad_list("1:2:3:4", "--ignorechan: '1:2:3:4' is not a channel, "
	    "A:B or A:B:STEP");
	check_bad_list("99999999999999999999", "--ignorechan: "
	    "'99999999999999999999' is not a channel, A:B or A:B:STEP");
	check_bad_list("2 16", "--ignorechan: channel 16: the input has "
	    "channels 0 to 15");
	check_bad_list("10:20:3", "--ignorechan: channel 20: the input has "
	    "channels 0 to 15");
}

static enum sps_err
read_text(const char *text, size_t len, unsigned char *masked)
{
	enum sps_err e;
	FILE *f;

	assert_non_null(f = fmemopen((void *)text, len, "r"));
	e = sps_chanmask_read(f, "mask", NCHANS, masked);
	fclose(f);
	return e;
}

static void
test_files(void **state)
{
	static const char crlf[] = "1\r\n2,3\r\n# only a comment\n\n"
	    "  10:14:2\t15\n";
	unsigned char masked[NCHANS] = { 0 };

	(void)state;
	assert_int_equal(read_text(crlf, strlen(crlf), masked), SPS_OK);
	assert_string_equal(flags(masked), "0111000000101011");
	memset(masked, 0, sizeof(masked));
	assert_int_equal(read_text("", 0, masked), SPS_OK);
	assert_string_equal(flags(masked), "0000000000000000");
	assert_int_equal(read_text("0:3 x7\n", 7, masked), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "mask: 'x7' is not a channel, A:B "
	    "or A:B:STEP");
	assert_int_equal(read_text("RFIF\001\002", 6, masked), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "mask: not a text list of channels "
	    "(a binary rfifind mask is not read)");
	assert_int_equal(read_text("1\0002", 3, masked), SPS_EVALUE);
}

static void
test_file_too_long(void **state)
{
	size_t len = (1 << 24) + 1;
	unsigned char masked[NCHANS];
	char *text = malloc(len);

	(void)state;
	assert_non_null(text);
	memset(text, ' ', len);
	assert_int_equal(read_text(text, len - 1, masked), SPS_OK);
	assert_int_equal(read_text(text, len, masked), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), "mask: too long for a channel list");
	free(text);
}

static void
test_read_error(void **state)
{
	unsigned char masked[NCHANS];
	FILE *f;

	(void)state;
	assert_non_null(f = fopen("/", "r"));
	assert_int_equal(sps_chanmask_read(f, "/", NCHANS, masked), SPS_EIO);
	assert_string_equal(sps_errmsg(), "/: Is a directory");
	fclose(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_bad_lists),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_file_too_long),
		cmocka_unit_test(test_read_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
